// The keyboard. It knows no rule: it presses the buttons the page already has.
//
// - On a page: the right and left arrow keys (and Page Down / Page Up) press the Next and
//   Back buttons of a stepper widget (tutor-stepper.js), so a learner or a teacher can step
//   without reaching for the mouse. Without a stepper the keys are left to the page.
// - Presenting (?present=1, tutor-presenter.js): Space, Page Down and the right or down
//   arrow go forward, Shift+Space, Page Up and the left or up arrow back (a presentation
//   clicker sends Page Down / Page Up or the arrows); Home and End go to the first and
//   last slide; B or . blanks the screen (any key going forward or back brings it back);
//   Escape leaves; F5 (a clicker's "start slide show") does not reload the page; with the
//   live room, its keys (tutor-projector.js: J join, H counts, R reopen).
// Nothing happens while a learner types an answer, or with Alt, Ctrl or Cmd held.
(function () {
  "use strict";

  const tutor = window.wizardTutor;
  const { presenting } = tutor.settings;
  const FORWARD = new Set(["ArrowRight", "ArrowDown", "PageDown"]);
  const BACKWARD = new Set(["ArrowLeft", "ArrowUp", "PageUp"]);

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
    const presenter = presenting ? tutor.presenter : null;
    const onButton = target && target.tagName === "BUTTON";
    const key = event.key;
    let direction = 0;
    if (FORWARD.has(key) && (presenter || !/^Arrow(Up|Down)$/.test(key))) {
      direction = 1;
    } else if (BACKWARD.has(key) && (presenter || !/^Arrow(Up|Down)$/.test(key))) {
      direction = -1;
    } else if (key === " " && presenter && !onButton) {
      direction = event.shiftKey ? -1 : 1;
    } else if (presenter && (key === "Home" || key === "End")) {
      event.preventDefault();
      if (key === "Home") {
        presenter.showFirst();
      } else {
        presenter.showLast();
      }
      return;
    } else if (presenter && (key === "b" || key === "B" || key === ".")) {
      event.preventDefault(); // a clicker's "blank screen" button
      presenter.toggleBlank();
      return;
    } else if (presenter && key === "F5") {
      event.preventDefault(); // a clicker's "start slide show" button must not reload the page
      return;
    } else if (presenter && tutor.projector.key(key)) {
      event.preventDefault(); // the live room's keys
      return;
    } else if (key === "Escape" && presenter) {
      event.preventDefault();
      presenter.leave();
      return;
    }
    if (!direction) {
      return;
    }
    if (!presenter) {
      const stepper = tutor.stepper.onPage();
      if (stepper) {
        event.preventDefault();
        tutor.stepper.press(stepper, direction);
      }
      return; // nothing to step: leave the keys to the page
    }
    event.preventDefault();
    if (presenter.blanked()) {
      presenter.toggleBlank(); // any press brings the slide back first
      return;
    }
    presenter.move(direction);
  });
})();
