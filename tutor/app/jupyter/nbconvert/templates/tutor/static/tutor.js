// The tutor's page script. It knows no rule: it presses the widgets' own buttons, and in
// presenter mode shows and hides what the page's HTML marks (tutor/display/presenter.py).
//
// 1. Keyboard: the right and left arrow keys (and Page Down / Page Up) press the Next and
//    Back buttons of a stepper widget (tutor/display/stepper.py), so a learner or a teacher
//    can step without reaching for the mouse. The buttons themselves work with Tab + Enter.
// 2. Links of the course index open in the same tab.
// 3. Presenter mode (URL ?present=1): the page as slides, one per screen, each scaled to
//    fill the screen above one control bar (Back, the position, Next, Leave). Next, Space,
//    Page Down and the right or down arrow go forward (a presentation clicker sends Page
//    Down / Page Up or the arrows); a slide that asks the room first reveals its answer.
//    On a slide holding a stepper the bar drives the stepper. B or . blanks the screen;
//    Escape leaves. The words come from the tutor's catalog (the template writes them in).
(function () {
  "use strict";

  const params = new URLSearchParams(window.location.search);
  const presenting = ["1", "true", "yes", "on"].includes(
    (params.get("present") || "").toLowerCase()
  );
  // The page's language (?lang=, as the kernel reads it), else the server's default.
  let words = {};
  let roomWords = {}; // the live room's words on the projector (classroom mode)
  let roomServed = false; // the app serves a live room (--classroom): docs/live-room.md
  let roomBase = "/room/"; // where the room is: the app's /room/, the hub's teacher service
  let pageLang = "en";
  try {
    const node = document.getElementById("tutor-present-words");
    const all = JSON.parse((node && node.textContent) || "{}") || {};
    const byLang = all.words || {};
    // Own keys only: ?lang=constructor or ?lang=__proto__ must not find Object's members.
    const known = (name) => !!name && Object.prototype.hasOwnProperty.call(byLang, name);
    const lang = [params.get("lang"), all.default, "en"].find(known);
    if (lang) {
      words = byLang[lang];
      roomWords = (all.room_words || {})[lang] || {};
      pageLang = lang;
      document.documentElement.lang = lang; // screen readers and CJK font choice follow it
    }
    // true: the app's own room; a path: the room's base on this origin (the hub's service)
    roomServed = all.room === true || (typeof all.room === "string" && all.room.startsWith("/"));
    if (typeof all.room === "string" && roomServed) {
      roomBase = all.room.endsWith("/") ? all.room : `${all.room}/`;
    }
  } catch (error) {
    words = {};
  }
  const fill = (catalog, key, values) =>
    String(Object.prototype.hasOwnProperty.call(catalog, key) ? catalog[key] : key).replace(
      /\{(\w+)\}/g,
      (_, name) => (values && name in values ? String(values[name]) : "")
    );
  const say = (key, values) => fill(words, key, values);
  const roomSay = (key, values) => fill(roomWords, key, values);

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

  let slides = [];
  let current = 0;
  let bar = null;
  let held = false; // the current slide holds its answer back
  let pending = null; // a stepper press waiting for the kernel's new page: {direction, at}
  let lastStepKey = "";

  function isVisible(element) {
    return !!(element && element.offsetParent !== null);
  }

  function currentStepper() {
    if (presenting) {
      return slides[current] ? stepperIn(slides[current]) : null;
    }
    const focused = document.activeElement;
    const holder = focused && focused.closest && focused.closest(".tutor-stepper");
    if (holder) {
      return holder;
    }
    return Array.from(document.querySelectorAll(".tutor-stepper")).find(isVisible) || null;
  }

  function stepperIn(slide) {
    for (const unit of slide) {
      const stepper = unit.querySelector(".tutor-stepper");
      if (stepper) {
        return stepper;
      }
    }
    return null;
  }

  function stepperButton(stepper, direction) {
    const button =
      stepper &&
      stepper.querySelector(direction > 0 ? "button.tutor-step-next" : "button.tutor-step-back");
    return button && !button.disabled ? button : null;
  }

  function pressStepper(direction) {
    const button = stepperButton(currentStepper(), direction);
    if (button) {
      button.click();
      return true;
    }
    return false;
  }

  // -- presenter: slides ---------------------------------------------------------------
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

  // -- presenter: fitting a slide to the screen ---------------------------------------------

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

  // -- presenter: showing a slide, revealing its answer ------------------------------------

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
    const step = room.on && room.asked ? roomSteps()[room.step] : null;
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
    const stepper = slides[current] && stepperIn(slides[current]);
    const step = stepper && stepper.querySelector(".tutor-step-position");
    if (step && step.textContent.trim()) {
      return step.textContent.trim();
    }
    return slides.length ? say("position", { number: current + 1, total: slides.length }) : "";
  }

  function showPosition() {
    if (bar) {
      bar.position.textContent = positionText();
    }
  }

  function showSlide(index, direction) {
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
    // Cells and outputs that hold none of the slide's units (printed text among them).
    document
      .querySelectorAll("#rendered_cells .jp-Cell, #rendered_cells .jp-OutputArea-child")
      .forEach((holder) => {
        const visible = slides[current].some((unit) => holder === unit || holder.contains(unit));
        holder.classList.toggle("tutor-hidden-cell", !visible);
      });
    pending = null;
    lastStepKey = stepKey();
    hold(direction >= 0);
    showPosition();
    fitNow();
    roomFollow(direction);
  }

  // What identifies the step a stepper shows now (its position words).
  function stepKey() {
    const stepper = slides[current] && stepperIn(slides[current]);
    const step = stepper && stepper.querySelector(".tutor-step-position");
    return step ? step.textContent : "";
  }

  function move(direction) {
    if (!presenting) {
      pressStepper(direction);
      return;
    }
    if (pending && Date.now() - pending.at < 5000) {
      return; // the stepper's next page is on its way
    }
    if (roomMove(direction)) {
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
    if (pressStepper(direction)) {
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
    const key = stepKey();
    if (key !== lastStepKey) {
      lastStepKey = key;
      const direction = pending ? pending.direction : 1;
      pending = null;
      hold(direction > 0);
    } else if (held && !hasAnswer()) {
      hold(false);
    }
    showPosition();
    fitNow();
  }

  // -- presenter: the live room (classroom mode, docs/live-room.md) ------------------------
  // In classroom mode the teacher's browser holds the room's cookie (HttpOnly: this script
  // cannot see it), so the page asks the room for its state once; any answer but the
  // state means no room, and presenter mode stays as it is. With the room:
  // - the bar's free left corner says how to join ("Room ACDE · 24 joined"; J or a press
  //   shows the join panel: the address, its QR code, the room code, beside the slide,
  //   which makes room for it; shown on the first slide) or, on a question, "17 of 24
  //   answered", live;
  // - a slide marked with a lesson's question (tutor/display/presenter.py: room_question)
  //   opens it in the room when shown; leaving it closes it; the learners' pages follow;
  // - on such a slide the next press reveals it: the room's counts, the right answer
  //   marked with a mark and words, on a screen of their own (H hides or shows the counts,
  //   R opens the question again); the press after shows the slide's own answer, if it
  //   holds one back, then the next slide.
  const ROOM_ROWS = 8; // rows of counts at most: the rest are summed as "other answers"
  const room = {
    on: false,
    state: null, // the teacher's state, merged with the live channel's updates
    question: null, // the current question's words ({key, kind, prompt, choices})
    asked: null, // the question the current slide asks: {lesson, item, key}
    step: 0, // on a question's slide: 0 asks, 1 shows the counts, 2 the slide's answer
    joining: false,
    joinPinned: false,
    queue: Promise.resolve(),
    error: "", // the last request the room refused, shown until its next state
    xsrf: "", // the hub's room: the XSRF token its probe gave
    status: null,
    panel: null,
    results: null,
  };

  function roomQuestionOf(slide) {
    for (const unit of slide || []) {
      const mark = unit.querySelector(".tutor-room-question");
      if (mark && mark.dataset.lesson && mark.dataset.question) {
        const { lesson, question } = mark.dataset;
        return { lesson, item: question, key: `${lesson}/${question}` };
      }
    }
    return null;
  }

  function xsrfToken() {
    if (room.xsrf) {
      return room.xsrf; // the hub's room gives its own (its cookie is on its own path)
    }
    const found = document.cookie.match(/(?:^|;\s*)_xsrf=([^;]*)/);
    return found ? decodeURIComponent(found[1]) : "";
  }

  function roomUrl(path) {
    return `${roomBase}api/${path}?lang=${encodeURIComponent(pageLang)}`;
  }

  // The room's state as the teacher's state (POST answers, GET state) or the live
  // channel's (no words: question_key only) give it; an older version never wins.
  function takeRoomState(update) {
    if (!update || (room.state && update.version < room.state.version)) {
      return;
    }
    const key = update.question ? update.question.key : update.question_key || null;
    if (update.question) {
      room.question = update.question;
    }
    room.error = "";
    room.state = Object.assign({}, room.state, update, { question_key: key });
    delete room.state.question;
    if (key && (!room.question || room.question.key !== key)) {
      fetchRoomState(); // a new question: its words
    }
    drawRoom();
  }

  async function fetchRoomState() {
    try {
      const response = await fetch(roomUrl("state"), {
        credentials: "same-origin",
        headers: room.xsrf ? { "X-XSRFToken": room.xsrf } : {},
      });
      if (response.ok) {
        takeRoomState(await response.json());
      }
    } catch (error) {
      roomFailed(error);
    }
  }

  // Teacher requests, one after the other in the order pressed (open, reveal, close).
  function roomPost(action, body) {
    room.queue = room.queue.then(async () => {
      try {
        const response = await fetch(roomUrl(action), { // the answer's words in the page's language
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-XSRFToken": xsrfToken() },
          body: JSON.stringify(body || {}),
        });
        const answer = await response.json().catch(() => null);
        if (!response.ok) {
          const reason = answer && answer.error ? answer.error.message : response.status;
          throw new Error(String(reason));
        }
        takeRoomState(answer);
      } catch (error) {
        roomFailed(error);
      }
    });
    return room.queue;
  }

  // A request the room refused (or no answer at all): said in the bar's room line (its
  // tooltip has the whole reason) until the room's next state.
  function roomFailed(error) {
    room.error = roomSay("failed", { reason: (error && error.message) || "?" });
    drawRoom();
  }

  function roomOpenKey() {
    const state = room.state;
    return state && state.phase !== "waiting" ? state.question_key : null;
  }

  function roomSteps() {
    return hasAnswer() ? ["ask", "counts", "answer"] : ["ask", "counts"];
  }

  // The room follows the slide shown: its question opened, or none.
  function roomFollow(direction) {
    if (!room.on) {
      return;
    }
    room.joining = current === 0 || room.joinPinned;
    const asked = roomQuestionOf(slides[current]);
    room.asked = asked;
    room.step = 0;
    if (asked) {
      if (roomOpenKey() !== asked.key) {
        roomPost("open", { lesson: asked.lesson, item: asked.item });
      } else if (room.state.phase === "revealed") {
        room.step = direction >= 0 ? 1 : roomSteps().length - 1;
      }
    } else if (roomOpenKey()) {
      roomPost("close");
    }
    if (roomResultShown()) {
      fetchRoomState(); // the summary as it is now (the live channel carries only counts)
    }
    roomShowStep();
  }

  function roomShowStep() {
    const step = room.asked ? roomSteps()[room.step] : null;
    if (step) {
      hold(step !== "answer");
    }
    labelNext();
    drawRoom();
  }

  // A press on a question's slide: the reveal, then the slide's own answer (true: done).
  function roomMove(direction) {
    if (!room.on || !room.asked) {
      return false;
    }
    const last = roomSteps().length - 1;
    const step = room.step + direction;
    if (step < 0 || step > last) {
      return false;
    }
    room.step = step;
    const revealed = roomOpenKey() === room.asked.key && room.state.phase === "revealed";
    if (roomSteps()[step] === "counts" && direction > 0 && !revealed) {
      roomPost("reveal"); // after the slide's "open" if that is still on its way
    }
    roomShowStep();
    return true;
  }

  function roomKey(key) {
    if (!room.on) {
      return false;
    }
    if (key === "j" || key === "J") {
      toggleJoin();
      return true;
    }
    const open = room.asked && roomOpenKey() === room.asked.key;
    if ((key === "h" || key === "H") && open) {
      roomPost("counts", { shown: !room.state.counts_shown });
      return true;
    }
    if ((key === "r" || key === "R") && open && room.state.phase === "revealed") {
      roomPost("reopen");
      room.step = 0;
      roomShowStep();
      return true;
    }
    return false;
  }

  function toggleJoin() {
    room.joining = !room.joining;
    room.joinPinned = room.joining && current !== 0;
    drawRoom();
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

  function buildRoom() {
    room.status = button("tutor-present-room", toggleJoin, ["", "tutor-label"]);
    room.status.setAttribute("aria-expanded", "false");
    room.status.title = roomSay("join-button-tip");
    bar.nav.prepend(room.status);
    bar.nav.setAttribute("aria-label", `${say("keys")} ${roomSay("keys")}`);

    const panel = element("aside", "tutor-room-join");
    panel.setAttribute("aria-label", roomSay("join-title"));
    const qr = element("img", "tutor-room-qr");
    qr.src = `${roomBase}qr.svg`;
    qr.alt = roomSay("join-qr");
    const code = element("p", "tutor-room-code");
    code.append(element("span", "", roomSay("join-code")), element("strong", "", ""));
    panel.append(
      element("h2", "", roomSay("join-title")),
      element("p", "tutor-room-join-how", roomSay("join-address")),
      element("p", "tutor-room-address", ""),
      element("p", "tutor-room-unreachable", ""),
      qr,
      code
    );
    room.panel = panel;
    room.status.setAttribute("aria-controls", "tutor-room-join");
    panel.id = "tutor-room-join";

    const results = element("section", "tutor-room-results");
    results.setAttribute("aria-live", "polite");
    room.results = results;
    document.body.append(panel, results);
    document.body.classList.add("tutor-room");
  }

  // The counts of the current question, one row per choice (or per number given, most
  // chosen first): its words, a bar, the count; the right answer marked with a mark and words.
  function resultRows() {
    const state = room.state;
    const question = room.question;
    if (!question || question.key !== state.question_key) {
      return [];
    }
    let rows;
    if (question.kind === "number") {
      rows = (state.counts || []).map((entry) => ({
        label: entry.label,
        count: entry.count,
        right: !!entry.right,
      }));
      if (!rows.some((row) => row.right) && question.right_label) {
        rows.push({ label: question.right_label, count: 0, right: true }); // nobody gave it
      }
    } else {
      rows = (question.choices || []).map((choice, index) => ({
        label: choice.label,
        count: (state.choice_counts || [])[index] || 0,
        right: !!choice.right,
      }));
    }
    if (rows.length > ROOM_ROWS) {
      const kept = rows.slice(0, ROOM_ROWS - 1);
      const rest = rows.slice(ROOM_ROWS - 1);
      kept.push(...rest.filter((row) => row.right));
      const others = rest.filter((row) => !row.right);
      kept.push({
        label: roomSay("others"),
        count: others.reduce((sum, row) => sum + row.count, 0),
        right: false,
      });
      rows = kept;
    }
    return rows;
  }

  function drawResults() {
    const box = room.results;
    const state = room.state;
    const shown = !!room.asked && roomSteps()[room.step] === "counts";
    document.body.classList.toggle("tutor-room-revealed", shown);
    if (!shown) {
      box.replaceChildren();
      return;
    }
    const question = room.question && room.question.key === state.question_key ? room.question : null;
    const head = element("header", "tutor-room-results-head");
    head.append(element("h2", "", question ? question.prompt : roomSay("results")));
    const facts = [roomSay("answered", { answered: state.answered || 0, present: state.present || 0 })];
    if (state.counts_shown && state.answered) {
      facts.push(roomSay("right-count", { right: state.right || 0, answered: state.answered }));
    }
    head.append(element("p", "", facts.join(" · ")));
    const list = element("ol", "tutor-room-rows");
    list.classList.toggle("tutor-room-no-counts", !state.counts_shown);
    const rows = resultRows();
    // A bar's length is its share of the answers (a card may be in every answer).
    const most = Math.max(1, state.answered || 0, ...rows.map((row) => row.count));
    rows.forEach((row) => {
      const item = element("li", row.right ? "tutor-room-row is-right" : "tutor-room-row");
      const words = element("span", "tutor-room-label", row.label);
      if (row.right) {
        words.append(" ", element("strong", "tutor-room-right", roomSay("right")));
      }
      item.append(words);
      if (state.counts_shown) {
        const barBox = element("span", "tutor-room-bar");
        const fill = element("span", "tutor-room-fill");
        fill.style.width = `${(100 * row.count) / most}%`;
        barBox.append(fill);
        item.append(barBox, element("span", "tutor-room-count", String(row.count)));
      }
      list.append(item);
    });
    box.replaceChildren(head, list);
    if (!state.counts_shown) {
      box.append(element("p", "tutor-room-note", roomSay("counts-hidden")));
    } else if (!state.answered) {
      box.append(element("p", "tutor-room-note", roomSay("no-answers")));
    }
  }

  // The join address may wrap only where a reader would break it: after the scheme's
  // "//" and before each "/" of the path, never inside host:port ("http://192.0.2.2:9" /
  // "100/room/UJUW" was read wrong). A URL has no break point of its own (a digit after
  // "/" or ":" holds the line together), so the points are <wbr>s; the stylesheet breaks
  // a part only if that part alone is wider than the panel.
  function drawAddress(node, address) {
    const parts = /^([a-z][a-z0-9+.-]*:\/\/)([^/]*)(.*)$/i.exec(address);
    const pieces = parts ? [parts[1], parts[2], ...parts[3].split(/(?=\/)/)] : [address];
    node.replaceChildren();
    pieces
      .filter((piece) => piece)
      .forEach((piece, index) => {
        if (index > 0) {
          node.append(document.createElement("wbr"));
        }
        node.append(piece);
      });
  }

  // A presented lesson's last slide (presenter.py: room_result): how the room did on each
  // of the lesson's questions, from the room's summary (the teacher's state carries it).
  function drawRoomResult() {
    const rows = room.state.summary || [];
    document.querySelectorAll(".tutor-room-result").forEach((result) => {
      result.querySelectorAll("li[data-item]").forEach((item) => {
        const row = rows.find(
          (entry) => entry.lesson === result.dataset.lesson && entry.item === item.dataset.item
        );
        const counts = item.querySelector(".tutor-room-result-counts");
        const words = row
          ? roomSay("result-row", { answered: row.answered, right: row.right_first })
          : roomSay("result-not-asked");
        if (counts && counts.textContent !== words) {
          counts.textContent = words;
        }
      });
    });
  }

  function roomResultShown() {
    return (slides[current] || []).some((unit) => unit.querySelector(".tutor-room-result"));
  }

  function drawRoom() {
    if (!room.on || !room.state) {
      return;
    }
    drawRoomResult();
    const state = room.state;
    const asking = !!room.asked && roomOpenKey() === room.asked.key;
    room.status.firstChild.textContent = room.error
      ? room.error
      : asking
        ? roomSay("answered", { answered: state.answered || 0, present: state.present || 0 })
        : roomSay("join-button", { code: state.code || "", present: state.present || 0 });
    room.status.title = room.error || roomSay("join-button-tip");
    room.status.classList.toggle("tutor-room-asking", asking);
    drawAddress(room.panel.querySelector(".tutor-room-address"), state.join || "");
    // An address only this machine opens (localhost): the server says so and how to fix
    // it, in place of a QR code no phone could follow.
    const unreachable = room.panel.querySelector(".tutor-room-unreachable");
    unreachable.textContent = state.join_warning || "";
    unreachable.hidden = !state.join_warning;
    room.panel.classList.toggle("tutor-room-local", !!state.join_warning);
    room.panel.querySelector(".tutor-room-code strong").textContent = state.code || "";
    room.status.setAttribute("aria-expanded", String(room.joining));
    const joining = document.body.classList.contains("tutor-room-joining");
    document.body.classList.toggle("tutor-room-joining", room.joining);
    drawResults();
    if (joining !== room.joining) {
      refit(); // the stage is narrower beside the join panel
    }
  }

  async function startRoom() {
    if (!roomServed || !window.fetch || !window.EventSource) {
      return;
    }
    let state;
    try {
      // The probe answers 200 for anyone: a learner presenting on their own gets no
      // refusal in the console, only {"teacher": false}. The hub's room names the XSRF
      // token its requests need (a script's request, even a GET, must send it there):
      // asked again with it, the hub knows the teacher.
      const ask = (headers) => fetch(roomUrl("probe"), { credentials: "same-origin", headers });
      let response = await ask({});
      let probe = response.ok ? await response.json() : null;
      if (probe && probe.teacher !== true && probe.xsrf) {
        room.xsrf = probe.xsrf;
        response = await ask({ "X-XSRFToken": room.xsrf });
        probe = response.ok ? await response.json() : null;
      }
      if (!probe || probe.teacher !== true || !probe.state) {
        return; // not the teacher's browser: presenter mode as it is
      }
      state = probe.state;
    } catch (error) {
      return;
    }
    room.on = true;
    buildRoom();
    takeRoomState(state);
    // the lesson's last slide, the room's result, exists only with a room
    document.querySelectorAll(".tutor-room-result[hidden]").forEach((result) => {
      result.hidden = false;
    });
    const events = new EventSource(
      roomUrl("events") + (room.xsrf ? `&_xsrf=${encodeURIComponent(room.xsrf)}` : "")
    );
    events.addEventListener("room", (event) => {
      try {
        takeRoomState(JSON.parse(event.data));
      } catch (error) {
        roomFailed(error);
      }
    });
    showSlide(current, 1); // the slides again (the room's result is one), the room following
  }

  // -- presenter: the server going and coming back -----------------------------------------
  // A restart of the app (or the network dropping) cuts the page from its kernel. The
  // projector says so in its bar ("Reconnecting…"), keeps its slide shown, and
  // asks the server every SERVER_POLL ms for the page's kernel until it answers:
  // - the kernel is still there (the network dropped): its connection is made again, the
  //   room's live channel comes back by itself (EventSource);
  // - it is gone (a restart: the app keeps its token and the teacher's sign-in with the
  //   room's file): the page is loaded again at its own address, on the slide it showed
  //   (kept for this tab in sessionStorage), which opens the slide's question in the room
  //   again if it is not still open;
  // and the bar says "Connected again". (tutor-page.js reloads a learner's page that lost
  // its kernel; the presenter's is left to this.)
  const SERVER_POLL = 1000;
  const AGAIN_SHOWN = 10000; // ms "Connected again" stays (or until the next press)
  const PLACE_KEY = "wizard-tutor/present-place:" + window.location.pathname;
  const connection = { line: null, lost: false, timer: 0 };

  function sayConnection(key) {
    if (!bar) {
      return;
    }
    if (!connection.line) {
      connection.line = element("span", "tutor-present-connection");
      connection.line.setAttribute("role", "status");
      bar.nav.prepend(connection.line);
    }
    window.clearTimeout(connection.timer);
    connection.line.textContent = key ? say(key) : "";
    connection.line.title = key === "reconnecting" ? say("reconnecting-tip") : "";
    connection.line.dataset.connection = key || "";
    document.body.classList.toggle("tutor-connection-said", !!key);
    if (key === "reconnected") {
      connection.timer = window.setTimeout(() => sayConnection(""), AGAIN_SHOWN);
      document.addEventListener("keydown", () => sayConnection(""), { once: true });
    }
  }

  function pageConfig() {
    try {
      const node = document.getElementById("jupyter-config-data");
      return JSON.parse((node && node.textContent) || "{}") || {};
    } catch (error) {
      return {};
    }
  }

  // The slide shown, kept for the page loaded again (this tab only, once, fresh).
  function keepPlace() {
    try {
      const place = { slide: current, at: Date.now() };
      window.sessionStorage.setItem(PLACE_KEY, JSON.stringify(place));
    } catch (error) {
      // no storage: the page starts on its first slide
    }
  }

  function returnToPlace() {
    let place = null;
    try {
      place = JSON.parse(window.sessionStorage.getItem(PLACE_KEY) || "null");
      window.sessionStorage.removeItem(PLACE_KEY);
    } catch (error) {
      return;
    }
    if (place && Number.isInteger(place.slide) && Date.now() - place.at < 600000) {
      showSlide(place.slide, 1); // before the room starts: it follows this slide
      sayConnection("reconnected");
    }
  }

  async function serverHasKernel(config) {
    try {
      const response = await fetch(`${config.baseUrl || "/"}api/kernels/${config.kernelId}`, {
        credentials: "same-origin",
        cache: "no-store",
      });
      return response.ok ? "kernel" : response.status >= 500 ? "away" : "gone";
    } catch (error) {
      return "away"; // no answer at all: the server is not back yet
    }
  }

  async function waitForServer(kernel) {
    const config = pageConfig();
    const found = await serverHasKernel(config);
    if (window.wizardTutorPageLeft || kernel.isDisposed) {
      return;
    }
    if (found === "away" || !config.kernelId) {
      connection.timer = window.setTimeout(() => waitForServer(kernel), SERVER_POLL);
      return;
    }
    if (found === "gone") {
      keepPlace();
      window.location.reload(); // the same address: the token and sign-in were kept
      return;
    }
    if (kernel.connectionStatus !== "connected") {
      kernel.reconnect().catch(() => null); // now, not after JupyterLab's growing wait
      connection.timer = window.setTimeout(() => waitForServer(kernel), SERVER_POLL);
    }
  }

  function connectionChanged(kernel) {
    if (window.wizardTutorPageLeft || kernel.isDisposed) {
      return; // the page is going (tutor-page.js): its kernel is let go on purpose
    }
    const connected = kernel.connectionStatus === "connected" && kernel.status !== "dead";
    if (!connected && !connection.lost) {
      connection.lost = true;
      sayConnection("reconnecting");
      waitForServer(kernel);
    } else if (connected && connection.lost) {
      connection.lost = false;
      sayConnection("reconnected");
    }
  }

  // Voila's widget manager holds the page's kernel connection once its scripts have run.
  function watchConnection(tries) {
    const manager = window.jupyterapp && window.jupyterapp.widgetManager;
    const kernel = manager && manager.kernel;
    if (!kernel || !kernel.connectionStatusChanged) {
      if (tries > 0) {
        window.setTimeout(() => watchConnection(tries - 1), 250);
      }
      return;
    }
    window.wizardTutorReconnects = true; // tutor-page.js: this page's reload is ours
    kernel.connectionStatusChanged.connect(() => connectionChanged(kernel));
    kernel.statusChanged.connect(() => connectionChanged(kernel));
  }

  function leavePresenter() {
    params.delete("present");
    const query = params.toString();
    window.location.assign(window.location.pathname + (query ? "?" + query : ""));
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
      [say("show-why"), "tutor-label tutor-label-why"]
    );
    const exit = button("tutor-present-exit", leavePresenter, [say("exit"), "tutor-label"]);
    back.title = say("back-keys");
    next.title = say("next-keys");
    exit.title = say("exit-keys");
    nav.append(back, position, next, exit);
    document.body.append(nav);
    bar = { nav, back, next, exit, position };
    showSlide(0, 1);
    startRoom();
    returnToPlace();
    watchConnection(240);
    const box = deck();
    if (box) {
      let changeQueued = false;
      new MutationObserver(() => {
        if (!fitting && !changeQueued) {
          changeQueued = true; // many changes in one frame, one look at them
          window.requestAnimationFrame(() => {
            changeQueued = false;
            contentChanged();
          });
        }
      }).observe(box, { childList: true, subtree: true, characterData: true });
      new ResizeObserver(() => {
        if (!fitting) {
          refit();
        }
      }).observe(box);
    }
    window.addEventListener("resize", refit);
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
    const onButton = target && target.tagName === "BUTTON";
    let direction = 0;
    if (FORWARD.has(event.key) && (presenting || !/^Arrow(Up|Down)$/.test(event.key))) {
      direction = 1;
    } else if (BACKWARD.has(event.key) && (presenting || !/^Arrow(Up|Down)$/.test(event.key))) {
      direction = -1;
    } else if (event.key === " " && presenting && !onButton) {
      direction = event.shiftKey ? -1 : 1;
    } else if (presenting && (event.key === "Home" || event.key === "End")) {
      event.preventDefault();
      showSlide(event.key === "Home" ? 0 : slides.length - 1, event.key === "Home" ? 1 : -1);
      return;
    } else if (presenting && (event.key === "b" || event.key === "B" || event.key === ".")) {
      event.preventDefault(); // a clicker's "blank screen" button
      toggleBlank();
      return;
    } else if (presenting && event.key === "F5") {
      event.preventDefault(); // a clicker's "start slide show" button must not reload the page
      return;
    } else if (presenting && roomKey(event.key)) {
      event.preventDefault(); // the live room's keys: J join, H counts, R reopen
      return;
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
    if (presenting && document.body.classList.contains("tutor-blank")) {
      toggleBlank(); // any press brings the slide back first
      return;
    }
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
      const pendingOutput = document.querySelector(
        "#rendered_cells script[type='application/vnd.voila.cell-output+json']"
      );
      const shown =
        cells &&
        cells.style.display !== "none" &&
        !document.getElementById("loading") &&
        !pendingOutput;
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
