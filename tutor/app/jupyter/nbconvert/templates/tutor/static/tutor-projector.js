// The live room on the projector (classroom mode, docs/live-room.md), in presenter mode
// (tutor-presenter.js).
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
//
//   projector.start()             ask for the room; with it, draw its line and panels
//   projector.follow(direction)   the slide shown changed: open or close its question
//   projector.move(direction)     a press of Next or Back on a question's slide (true: done)
//   projector.key(key)            the room's keys: J, H, R (true: the key was the room's)
//   projector.step()              the question's step shown: "ask", "counts", "answer", or
//                                 null (no room, or no question on the slide)
(function () {
  "use strict";

  const tutor = window.wizardTutor;
  const { say, roomSay, lang } = tutor.settings;
  const roomBase = tutor.settings.room.base;
  const presenter = tutor.presenter;
  const { element, button } = presenter;

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
    return `${roomBase}api/${path}?lang=${encodeURIComponent(lang)}`;
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
    return presenter.hasAnswer() ? ["ask", "counts", "answer"] : ["ask", "counts"];
  }

  // The room follows the slide shown: its question opened, or none.
  function roomFollow(direction) {
    if (!room.on) {
      return;
    }
    room.joining = presenter.current === 0 || room.joinPinned;
    const asked = roomQuestionOf(presenter.slide);
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
      presenter.hold(step !== "answer");
    }
    presenter.labelNext();
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
    room.joinPinned = room.joining && presenter.current !== 0;
    drawRoom();
  }


  function buildRoom() {
    room.status = button("tutor-present-room", toggleJoin, ["", "tutor-label"]);
    room.status.setAttribute("aria-expanded", "false");
    room.status.title = roomSay("join-button-tip");
    presenter.bar.nav.prepend(room.status);
    presenter.bar.nav.setAttribute("aria-label", `${say("keys")} ${roomSay("keys")}`);

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
    return presenter.slide.some((unit) => unit.querySelector(".tutor-room-result"));
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
      presenter.refit(); // the stage is narrower beside the join panel
    }
  }

  async function startRoom() {
    if (!tutor.settings.room.served || !window.fetch || !window.EventSource) {
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
    // the slides again (the room's result is one), the room following
    presenter.showSlide(presenter.current, 1);
  }

  tutor.projector = {
    start: startRoom,
    follow: roomFollow,
    move: roomMove,
    key: roomKey,
    step: () => (room.on && room.asked ? roomSteps()[room.step] : null),
  };
})();
