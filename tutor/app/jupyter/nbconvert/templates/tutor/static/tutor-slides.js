// What a presentation's slides are, and how large each is shown: the presenter
// (tutor-presenter.js) cuts the page into slides here and has each fitted to the screen.
//
//   slides.units()     what the page shows, in order (see below)
//   slides.collect()   the units grouped into slides: an array of arrays of units
//   slides.fitNow()    fit the slide shown to the screen now (a new slide never shows a
//                      frame unfitted); slides.refit(): at the next frame
//   slides.fitting()   whether a fit is changing the page right now (observers ignore it)
//   slides.deck()      the element that holds the slides (#rendered_cells' first child)
(function () {
  "use strict";

  const tutor = window.wizardTutor;
  const { presenting } = tutor.settings;

  // -- sizes on a projector ----------------------------------------------------------------
  // A slide is laid out at a base text size of 16 CSS px (tutor.css), then magnified to fill
  // the screen (CSS zoom). The screen's scale is its size against a 1280x720 projector, the
  // most common in classrooms: 1 there, 1.5 at 1920x1080.
  const REFERENCE_WIDTH = 1280;
  const REFERENCE_HEIGHT = 720;
  const BASE_TEXT = 16;
  // No text on a slide is smaller than 24 CSS px on a 1280x720 screen (36 px at 1920x1080):
  // 1/30 of the screen's height, the 18 pt floor of a 7.5-inch-high slide, read from the
  // back of a classroom. At the base size that is a magnification of 1.5 (times the scale).
  const MIN_TEXT = 24;
  // A short slide grows to at most this magnification (40 px base text at 1280x720), so a
  // title slide does not turn into a poster.
  const MAX_ZOOM = 2.5;
  // Pictures of cards are magnified so that their words are at the base size and a card is
  // at least CARD_FACE px tall before the slide's own magnification (so at least 144 px at
  // 1280x720, where its corner index is 19.5 px and its middle rank 45 px).
  const CARD_FACE = 96;

  // -- cutting the page into slides ------------------------------------------------------
  // A unit is one thing a notebook shows: a markdown cell, or one output of a code cell
  // (lessons display a title, sections, examples and quiz widgets as separate outputs).
  // A new slide starts at a unit that opens with a heading, at a unit the page marks as a
  // slide of its own (an example, a stepper) and after one, and after a widget (so each
  // quiz question, with its note, gets its own screen). Plain printed text is no slide.

  function units() {
    const found = [];
    document.querySelectorAll("#rendered_cells .jp-Cell").forEach((cell) => {
      if (cell.matches(".jp-mod-noOutputs.jp-mod-noInput")) {
        return;
      }
      if (cell.matches(".jp-MarkdownCell")) {
        found.push(cell);
      } else {
        cell.querySelectorAll(".jp-OutputArea-child").forEach((child) => {
          const parts = child.querySelectorAll(".tutor-slide");
          if (parts.length > 1) {
            found.push(...parts); // one output, several slides (a score sheet, then its chart)
          } else if (!child.querySelector(".jp-RenderedText")) {
            found.push(child);
          }
        });
      }
    });
    return found.filter(showsSomething);
  }

  // Whether a unit has anything for the room to see on a slide: words, a picture or a
  // control not hidden by the page itself (a widget hidden until needed, such as the
  // progress notice, or words for the learner only). What presenting hides around the
  // unit (the other slides) does not count: only the unit's own insides are looked at.
  const SHOWN_ALONE = "svg, img, canvas, button, input, select, textarea";

  function showsSomething(unit) {
    const hiddenInside = (element) => {
      for (let node = element; node && node !== unit; node = node.parentElement) {
        if (getComputedStyle(node).display === "none") {
          return true;
        }
      }
      return false;
    };
    const walker = document.createTreeWalker(unit, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
      const content =
        node.nodeType === Node.TEXT_NODE
          ? !!node.textContent.trim() && !element.closest("style, script, title")
          : node.matches(SHOWN_ALONE);
      if (content && !hiddenInside(element)) {
        return true;
      }
    }
    return false;
  }

  function opensWithHeading(unit) {
    const content = unit.querySelector(".jp-RenderedHTMLCommon");
    const first = content && content.firstElementChild;
    return !!(first && /^H[1-3]$/.test(first.tagName));
  }

  function holdsWidget(unit) {
    const output = unit.querySelector(".jp-OutputArea-output");
    return !!(
      unit.querySelector(".jupyter-widgets") ||
      (output && !output.hasAttribute("data-mime-type"))
    );
  }

  function standsAlone(unit) {
    const alone = ".tutor-slide, .tutor-stepper";
    return unit.matches(alone) || !!unit.querySelector(alone);
  }

  // A heading with text under it (a lesson's section) is a slide of its own: a widget after
  // it (the practice) starts the next one. A bare heading ("Quiz") or a note stays with the
  // widget after it.
  function headsASection(unit) {
    const content = unit.querySelector(".jp-RenderedHTMLCommon");
    return opensWithHeading(unit) && !!content && content.childElementCount > 1;
  }

  function collectSlides() {
    const found = [];
    let slide = null;
    let closed = false;
    let previous = null;
    units().forEach((unit) => {
      const widgetAfterSection = holdsWidget(unit) && previous && headsASection(previous);
      if (!slide || closed || opensWithHeading(unit) || standsAlone(unit) || widgetAfterSection) {
        slide = [];
        found.push(slide);
      }
      slide.push(unit);
      closed = holdsWidget(unit) || standsAlone(unit);
      previous = unit;
    });
    return found;
  }

  // -- fitting a slide to the screen -------------------------------------------------------

  function screenScale() {
    return Math.min(window.innerWidth / REFERENCE_WIDTH, window.innerHeight / REFERENCE_HEIGHT);
  }

  function stage() {
    return document.getElementById("rendered_cells");
  }

  function deck() {
    const holder = stage();
    return holder && holder.firstElementChild;
  }

  // Magnify each card picture so its words read at the base size and its cards are at
  // least CARD_FACE px tall (a picture drawn small for a notebook is large on a slide).
  function sizePictures(root) {
    root.querySelectorAll("svg").forEach((svg) => {
      if (svg.parentElement && svg.parentElement.closest("svg")) {
        return;
      }
      svg.style.zoom = "";
      const box = svg.viewBox && svg.viewBox.baseVal;
      const width = svg.width && svg.width.baseVal ? svg.width.baseVal.value : 0;
      if (!box || !box.width || !width) {
        return;
      }
      const perUnit = width / box.width;
      let zoom = 1;
      svg.querySelectorAll("text").forEach((label) => {
        if (label.closest(".card")) {
          return;
        }
        const size = parseFloat(getComputedStyle(label).fontSize || "0") * perUnit;
        if (size > 0) {
          zoom = Math.max(zoom, BASE_TEXT / size);
        }
      });
      const face = svg.querySelector(".card .card-face");
      if (face) {
        const height = parseFloat(face.getAttribute("height") || "0") * perUnit;
        if (height > 0) {
          zoom = Math.max(zoom, CARD_FACE / height);
        }
      }
      if (zoom > 1.001) {
        svg.style.zoom = String(zoom);
      }
    });
  }

  let fitting = false;
  // What may be laid out side by side instead of one above the other (tutor.css): a
  // question about a trick in play, answered (the feedback beside the cards) or not (the
  // trick beside the question's words).
  const BESIDE_CANDIDATES =
    ".tutor-unit:not(.tutor-hidden) .tutor-quiz:has(> .widget-box > .tutor-quiz-scene)";

  function fitSlide() {
    const holder = stage();
    const box = deck();
    if (!holder || !box || !presenting) {
      return;
    }
    fitting = true;
    const style = getComputedStyle(holder);
    const width =
      holder.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const height =
      holder.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    const fits = (zoom) => {
      box.style.zoom = String(zoom);
      box.style.width = width / zoom + "px";
      return (
        box.getBoundingClientRect().height <= height + 0.5 &&
        box.scrollWidth <= box.clientWidth + 1
      );
    };
    const largest = () => {
      let high = MAX_ZOOM * screenScale();
      let low = 0.1;
      if (fits(high)) {
        return high;
      }
      for (let round = 0; round < 16 && high - low > 0.002; round += 1) {
        const middle = (low + high) / 2;
        if (fits(middle)) {
          low = middle;
        } else {
          high = middle;
        }
      }
      return low;
    };
    // A slide with two ways to lay it out (tutor.css: .tutor-beside) takes the larger.
    box.classList.remove("tutor-beside");
    let zoom = largest();
    if (box.querySelector(BESIDE_CANDIDATES)) {
      box.classList.add("tutor-beside");
      const beside = largest();
      if (beside > zoom) {
        zoom = beside;
      } else {
        box.classList.remove("tutor-beside");
      }
    }
    fits(zoom);
    fitting = false;
  }

  // Fit now (a new slide must never show a frame unfitted), or at the next frame (refit
  // after a resize or a widget that grew: several changes, one fit).
  function fitNow() {
    const box = deck();
    if (box) {
      sizePictures(box);
    }
    fitSlide();
  }

  let refitQueued = false;

  function refit() {
    if (refitQueued) {
      return;
    }
    refitQueued = true;
    window.requestAnimationFrame(() => {
      refitQueued = false;
      fitNow();
    });
  }

  tutor.slides = { units, collect: collectSlides, fitNow, refit, fitting: () => fitting, deck };
})();
