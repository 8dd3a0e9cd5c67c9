// The tutor's page script (no rule logic here: it only presses the widgets' own buttons).
//
// 1. Keyboard: the right and left arrow keys (and Page Down / Page Up) press the Next and
//    Back buttons of a stepper widget (tutor/display/stepper.py), so a learner or a teacher
//    can step without reaching for the mouse. The buttons themselves work with Tab + Enter.
// 2. Links of the course index open in the same tab.
// 3. Presenter mode (URL ?present=1): one step per screen (see "slides" below), with a
//    control bar (Back / Next / Leave) and the keys above plus Space and Escape. Inside a
//    slide holding a stepper, the keys step through it first, then move to the next slide.
//    The words come from the tutor's catalog (the template writes them into the page).
(function () {
  "use strict";

  const params = new URLSearchParams(window.location.search);
  const presenting = ["1", "true", "yes", "on"].includes(
    (params.get("present") || "").toLowerCase()
  );
  // The page's language (?lang=, as the kernel reads it), else the server's default.
  let words = {};
  try {
    const node = document.getElementById("tutor-present-words");
    const all = JSON.parse((node && node.textContent) || "{}") || {};
    const byLang = all.words || {};
    // Own keys only: ?lang=constructor or ?lang=__proto__ must not find Object's members.
    const known = (name) => !!name && Object.prototype.hasOwnProperty.call(byLang, name);
    const lang = [params.get("lang"), all.default, "en"].find(known);
    if (lang) {
      words = byLang[lang];
      document.documentElement.lang = lang; // screen readers and CJK font choice follow it
    }
  } catch (error) {
    words = {};
  }
  const say = (key, values) =>
    String(words[key] || key).replace(/\{(\w+)\}/g, (_, name) =>
      values && name in values ? String(values[name]) : ""
    );

  let slides = [];
  let current = 0;
  let positionNode = null;

  function isVisible(element) {
    return !!(element && element.offsetParent !== null);
  }

  function currentStepper() {
    if (presenting && slides[current]) {
      for (const unit of slides[current]) {
        const stepper = unit.querySelector(".tutor-stepper");
        if (stepper) {
          return stepper;
        }
      }
      return null;
    }
    const focused = document.activeElement;
    const holder = focused && focused.closest && focused.closest(".tutor-stepper");
    if (holder) {
      return holder;
    }
    return Array.from(document.querySelectorAll(".tutor-stepper")).find(isVisible) || null;
  }

  function pressStepper(direction) {
    const stepper = currentStepper();
    if (!stepper) {
      return false;
    }
    const button = stepper.querySelector(
      direction > 0 ? "button.tutor-step-next" : "button.tutor-step-back"
    );
    if (button && !button.disabled) {
      button.click();
      return true;
    }
    return false;
  }

  // -- presenter: slides ---------------------------------------------------------------
  // A unit is one thing a notebook shows: a markdown cell, or one output of a code cell
  // (lessons display a title, sections, pictures and quiz widgets as separate outputs).
  // A new slide starts at a unit that opens with a heading, and after a widget (so each
  // quiz question, with its note, gets its own screen).

  function units() {
    const found = [];
    document.querySelectorAll("#rendered_cells .jp-Cell").forEach((cell) => {
      if (cell.matches(".jp-mod-noOutputs.jp-mod-noInput")) {
        return;
      }
      if (cell.matches(".jp-MarkdownCell")) {
        found.push(cell);
      } else {
        cell.querySelectorAll(".jp-OutputArea-child").forEach((child) => found.push(child));
      }
    });
    return found;
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

  function collectSlides() {
    const slides = [];
    let slide = null;
    let hasWidget = false;
    units().forEach((unit) => {
      if (!slide || hasWidget || opensWithHeading(unit)) {
        slide = [];
        hasWidget = false;
        slides.push(slide);
      }
      slide.push(unit);
      hasWidget = hasWidget || holdsWidget(unit);
    });
    return slides;
  }

  function showSlide(index) {
    slides = collectSlides(); // outputs may still have been arriving at the last look
    if (!slides.length) {
      return;
    }
    current = Math.max(0, Math.min(slides.length - 1, index));
    const shown = new Set(slides[current]);
    slides.flat().forEach((unit) => {
      unit.classList.add("tutor-unit");
      unit.classList.toggle("tutor-hidden", !shown.has(unit));
    });
    document.querySelectorAll("#rendered_cells .jp-Cell").forEach((cell) => {
      const visible = Array.from(shown).some((unit) => cell === unit || cell.contains(unit));
      cell.classList.toggle("tutor-hidden-cell", !visible);
    });
    if (positionNode) {
      // A single slide (e.g. the worked example's stepper) needs no slide counter.
      positionNode.textContent =
        slides.length > 1 ? say("position", { number: current + 1, total: slides.length }) : "";
    }
    window.scrollTo(0, 0);
  }

  function move(direction) {
    if (pressStepper(direction)) {
      return;
    }
    if (presenting) {
      showSlide(current + direction);
    }
  }

  function leavePresenter() {
    params.delete("present");
    const query = params.toString();
    window.location.assign(window.location.pathname + (query ? "?" + query : ""));
  }

  function button(label, onPress, className) {
    const node = document.createElement("button");
    node.type = "button";
    node.className = className;
    node.textContent = label;
    node.addEventListener("click", onPress);
    return node;
  }

  function startPresenter() {
    document.body.classList.add("tutor-presenting");
    const bar = document.createElement("nav");
    bar.className = "tutor-present-bar";
    bar.setAttribute("aria-label", say("keys"));
    positionNode = document.createElement("span");
    positionNode.className = "tutor-present-position";
    positionNode.setAttribute("aria-live", "polite");
    bar.append(
      button(say("back"), () => move(-1), "tutor-present-back"),
      positionNode,
      button(say("next"), () => move(1), "tutor-present-next"),
      button(say("exit"), leavePresenter, "tutor-present-exit")
    );
    document.body.append(bar);
    showSlide(0);
  }

  // The course index opens lessons in the same tab (JupyterLab's HTML renderer gives every
  // link target=_blank; a class follows one tab, and Back returns to the index).
  document.addEventListener(
    "click",
    (event) => {
      const link = event.target && event.target.closest && event.target.closest("a");
      if (link && link.closest(".tutor-course-index")) {
        link.removeAttribute("target");
      }
    },
    true
  );

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    const target = event.target;
    if (
      target &&
      (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName || ""))
    ) {
      return; // typing an answer
    }
    const onButton = target && target.tagName === "BUTTON";
    let direction = 0;
    if (event.key === "ArrowRight" || event.key === "PageDown") {
      direction = 1;
    } else if (event.key === "ArrowLeft" || event.key === "PageUp") {
      direction = -1;
    } else if (event.key === " " && presenting && !onButton) {
      direction = 1;
    } else if (event.key === "Escape" && presenting) {
      event.preventDefault();
      leavePresenter();
      return;
    }
    if (!direction) {
      return;
    }
    if (!presenting && !currentStepper()) {
      return; // nothing to step: leave the keys to the page
    }
    event.preventDefault();
    move(direction);
  });

  if (presenting) {
    // Start once Voila has executed the notebook and shown the cells, and the widgets
    // have been drawn (at most WIDGET_WAIT ms more: a widget that fails must not block).
    const WIDGET_WAIT = 5000;
    let shownAt = null;
    const widgetsDrawn = () =>
      Array.from(document.querySelectorAll("#rendered_cells .jp-OutputArea-output")).every(
        (output) => output.hasAttribute("data-mime-type") || output.querySelector(".jupyter-widgets")
      );
    const waitForCells = () => {
      const cells = document.getElementById("rendered_cells");
      const pending = document.querySelector(
        "#rendered_cells script[type='application/vnd.voila.cell-output+json']"
      );
      const shown =
        cells && cells.style.display !== "none" && !document.getElementById("loading") && !pending;
      if (shown && shownAt === null) {
        shownAt = Date.now();
      }
      if (shown && units().length && (widgetsDrawn() || Date.now() - shownAt > WIDGET_WAIT)) {
        startPresenter();
      } else {
        window.setTimeout(waitForCells, 50);
      }
    };
    waitForCells();
  }
})();
