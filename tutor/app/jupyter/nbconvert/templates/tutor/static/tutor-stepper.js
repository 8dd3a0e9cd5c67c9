// The stepper widget's buttons (tutor/display/stepper.py), pressed for the keyboard
// (tutor-keys.js) and the presenter (tutor-presenter.js). Knows no rule: it presses the
// widget's own Next and Back, which work with Tab + Enter as well.
//
//   stepper.inside(units)          the stepper among a slide's units, or null
//   stepper.onPage()               the stepper the keys drive off a presentation: the
//                                  focused one, else the first visible one, or null
//   stepper.press(stepper, dir)    press its Next (dir > 0) or Back; false if it has none
//                                  to press (no stepper, the first or last step)
//   stepper.position(stepper)      the words of the step it shows ("Step 2 of 5"), or ""
(function () {
  "use strict";

  const tutor = window.wizardTutor;

  function isVisible(element) {
    return !!(element && element.offsetParent !== null);
  }

  function inside(units) {
    for (const unit of units || []) {
      const stepper = unit.querySelector(".tutor-stepper");
      if (stepper) {
        return stepper;
      }
    }
    return null;
  }

  function onPage() {
    const focused = document.activeElement;
    const holder = focused && focused.closest && focused.closest(".tutor-stepper");
    if (holder) {
      return holder;
    }
    return Array.from(document.querySelectorAll(".tutor-stepper")).find(isVisible) || null;
  }

  function press(stepper, direction) {
    const button =
      stepper &&
      stepper.querySelector(direction > 0 ? "button.tutor-step-next" : "button.tutor-step-back");
    if (button && !button.disabled) {
      button.click();
      return true;
    }
    return false;
  }

  function position(stepper) {
    const step = stepper && stepper.querySelector(".tutor-step-position");
    return step ? step.textContent : "";
  }

  tutor.stepper = { inside, onPage, press, position };
})();
