// Presenter mode (URL ?present=1): the page as slides (tutor-slides.js), one per screen,
// each magnified to fill the screen above one control bar (Back, the position, Next,
// Leave). Next goes forward (tutor-keys.js: the keys and a presentation clicker); a slide
// that asks the room first reveals its answer. On a slide holding a stepper the bar drives
// the stepper (tutor-stepper.js). It knows no rule: it shows and hides what the page's HTML
// marks (tutor/display/presenter.py). The words come from the tutor's catalog
// (tutor-settings.js). In classroom mode the live room follows the slides
// (tutor-projector.js); a restart of the server keeps the slide shown (tutor-reconnect.js).
//
//   presenter.move(direction)         what Next (1) or Back (-1) does
//   presenter.showSlide(index, dir)   show slide `index`, reached going `dir`
//   presenter.showFirst(), showLast(), toggleBlank(), blanked(), leave()   (the keys)
//   presenter.current, .slide, .bar   the slide's number, its units, the control bar
//   presenter.hasAnswer(), hold(holding), labelNext(), refit()   (the room's steps)
//   presenter.element(tag, className, words), button(className, onPress, ...labels)
(function () {
  "use strict";

  const tutor = window.wizardTutor;
  const { presenting, params, say } = tutor.settings;
  const { stepper } = tutor;

  let slides = [];
  let current = 0;
  let bar = null;
  let held = false; // the current slide holds its answer back
  let pending = null; // a stepper press waiting for the kernel's new page: {direction, at}
  let lastStepKey = "";

  const slideStepper = () => stepper.inside(slides[current]);

  // -- showing a slide, revealing its answer ---------------------------------------------

  function hasAnswer() {
    return !!(slides[current] || []).some((unit) => unit.querySelector(".tutor-answer"));
  }

  function hold(holding) {
    held = holding && hasAnswer();
    document.body.classList.toggle("tutor-holding", held);
    labelNext();
  }

  // The Next button's words say what the next press does: the room's answers (a question
  // put to the live room), why (the slide's held-back answer after the room's counts), the
  // answer (a slide that asks, without a room), or the next slide.
  function nextPress() {
    const step = tutor.projector.step();
    if (step === "ask") {
      return "counts";
    }
    if (step === "counts" && hasAnswer()) {
      return "why";
    }
    return held ? "answer" : "next";
  }

  function labelNext() {
    if (bar) {
      const press = nextPress();
      bar.next.dataset.press = press;
      bar.next.classList.toggle("tutor-present-answering", press !== "next");
    }
  }

  function positionText() {
    const step = stepper.position(slideStepper()).trim();
    if (step) {
      return step;
    }
    return slides.length ? say("position", { number: current + 1, total: slides.length }) : "";
  }

  function showPosition() {
    if (bar) {
      bar.position.textContent = positionText();
    }
  }

  function showSlide(index, direction) {
    slides = tutor.slides.collect(); // outputs may still have been arriving at the last look
    if (!slides.length) {
      return;
    }
    current = Math.max(0, Math.min(slides.length - 1, index));
    const shown = new Set(slides[current]);
    slides.flat().forEach((unit) => {
      unit.classList.add("tutor-unit");
      unit.classList.toggle("tutor-hidden", !shown.has(unit));
    });
    // Cells and outputs that hold none of the slide's units (printed text among them).
    document
      .querySelectorAll("#rendered_cells .jp-Cell, #rendered_cells .jp-OutputArea-child")
      .forEach((holder) => {
        const visible = slides[current].some((unit) => holder === unit || holder.contains(unit));
        holder.classList.toggle("tutor-hidden-cell", !visible);
      });
    pending = null;
    lastStepKey = stepper.position(slideStepper()); // what identifies the step shown
    hold(direction >= 0);
    showPosition();
    tutor.slides.fitNow();
    tutor.projector.follow(direction);
  }

  function move(direction) {
    if (pending && Date.now() - pending.at < 5000) {
      return; // the stepper's next page is on its way
    }
    if (tutor.projector.move(direction)) {
      return;
    }
    if (direction > 0 && held) {
      hold(false);
      return;
    }
    if (direction < 0 && !held && hasAnswer()) {
      hold(true);
      return;
    }
    if (stepper.press(slideStepper(), direction)) {
      pending = { direction, at: Date.now() };
      return;
    }
    const target = current + direction;
    if (target >= 0 && target < slides.length) {
      showSlide(target, direction);
    }
  }

  // The stepper's page arrives from the kernel after a press: a new step starts holding its
  // answer back when reached going forward, and shows it when reached going back.
  function contentChanged() {
    const key = stepper.position(slideStepper());
    if (key !== lastStepKey) {
      lastStepKey = key;
      const direction = pending ? pending.direction : 1;
      pending = null;
      hold(direction > 0);
    } else if (held && !hasAnswer()) {
      hold(false);
    }
    showPosition();
    tutor.slides.fitNow();
  }

  // -- the control bar -----------------------------------------------------------------------

  function leave() {
    params.delete("present");
    const query = params.toString();
    window.location.assign(window.location.pathname + (query ? "?" + query : ""));
  }

  function element(tag, className, words) {
    const node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (words !== undefined) {
      node.textContent = words; // the room's words are text, never HTML (nicknames, labels)
    }
    return node;
  }

  function button(className, onPress, ...labels) {
    const node = document.createElement("button");
    node.type = "button";
    node.className = className;
    // Every label of the button sits in the same grid cell, only one visible: the button
    // is as wide as its longest label and never changes size (the bar never moves).
    labels.forEach(([label, klass]) => {
      const span = document.createElement("span");
      span.className = klass;
      span.textContent = label;
      node.append(span);
    });
    node.addEventListener("click", onPress);
    return node;
  }

  function toggleBlank() {
    document.body.classList.toggle("tutor-blank");
  }

  function startPresenter() {
    document.body.classList.add("tutor-presenting");
    const nav = document.createElement("nav");
    nav.className = "tutor-present-bar";
    nav.setAttribute("aria-label", say("keys"));
    const position = document.createElement("span");
    position.className = "tutor-present-position";
    position.setAttribute("aria-live", "polite");
    const back = button("tutor-present-back", () => move(-1), [say("back"), "tutor-label"]);
    const next = button(
      "tutor-present-next",
      () => move(1),
      [say("next"), "tutor-label tutor-label-next"],
      [say("show-answer"), "tutor-label tutor-label-answer"],
      [say("show-counts"), "tutor-label tutor-label-counts"],
      [say("show-why"), "tutor-label tutor-label-why"],
    );
    const exit = button("tutor-present-exit", leave, [say("exit"), "tutor-label"]);
    back.title = say("back-keys");
    next.title = say("next-keys");
    exit.title = say("exit-keys");
    nav.append(back, position, next, exit);
    document.body.append(nav);
    bar = { nav, back, next, exit, position };
    showSlide(0, 1);
    tutor.projector.start();
    tutor.reconnect.returnToPlace(); // before the room has started: it follows that slide
    tutor.reconnect.watch();
    const box = tutor.slides.deck();
    if (box) {
      let changeQueued = false;
      new MutationObserver(() => {
        if (!tutor.slides.fitting() && !changeQueued) {
          changeQueued = true; // many changes in one frame, one look at them
          window.requestAnimationFrame(() => {
            changeQueued = false;
            contentChanged();
          });
        }
      }).observe(box, { childList: true, subtree: true, characterData: true });
      new ResizeObserver(() => {
        if (!tutor.slides.fitting()) {
          tutor.slides.refit();
        }
      }).observe(box);
    }
    window.addEventListener("resize", tutor.slides.refit);
  }

  tutor.presenter = {
    move,
    showSlide,
    showFirst: () => showSlide(0, 1),
    showLast: () => showSlide(slides.length - 1, -1),
    toggleBlank,
    blanked: () => document.body.classList.contains("tutor-blank"),
    leave,
    get current() {
      return current;
    },
    get slide() {
      return slides[current] || [];
    },
    get bar() {
      return bar;
    },
    hasAnswer,
    hold,
    labelNext,
    refit: tutor.slides.refit,
    element,
    button,
  };

  if (presenting) {
    // Start once Voila has executed the notebook and shown the cells, and the widgets
    // have been drawn (at most WIDGET_WAIT ms more: a widget that fails must not block).
    const WIDGET_WAIT = 5000;
    let shownAt = null;
    const widgetsDrawn = () =>
      Array.from(document.querySelectorAll("#rendered_cells .jp-OutputArea-output")).every(
        (output) => output.hasAttribute("data-mime-type") || output.querySelector(".jupyter-widgets"),
      );
    const waitForCells = () => {
      const cells = document.getElementById("rendered_cells");
      const pendingOutput = document.querySelector(
        "#rendered_cells script[type='application/vnd.voila.cell-output+json']",
      );
      const shown =
        cells &&
        cells.style.display !== "none" &&
        !document.getElementById("loading") &&
        !pendingOutput;
      if (shown && shownAt === null) {
        shownAt = Date.now();
      }
      if (shown && tutor.slides.units().length && (widgetsDrawn() || Date.now() - shownAt > WIDGET_WAIT)) {
        startPresenter();
      } else {
        window.setTimeout(waitForCells, 50);
      }
    };
    waitForCells();
  }
})();
