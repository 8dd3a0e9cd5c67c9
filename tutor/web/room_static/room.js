// The live room's learner page (tutor/web/room_server.py serves it; docs/live-room.md is the
// API). Plain script, no library: a phone on a weak classroom network loads this page, this
// file and one stylesheet, nothing else. The learner's key stays in localStorage, so a reload
// (or a phone that slept) comes back as the same learner with their answer.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("room-data").textContent);
  var code = data.code;
  var main = document.getElementById("room");
  var keyName = "wizard-tutor/room/" + code;
  // The app: /room/, a key per browser. The hub: the teacher service's room, the learner is
  // their hub login (no key kept, no nickname), and every request sends the XSRF token.
  var base = data.base || "/room/";
  var onHub = data.hub === true;
  var langName = "wizard-tutor/room-lang";
  var lang = chooseLanguage();
  var learner = onHub ? null : load(keyName);
  var state = null;       // the last learner state from the server
  var picked = [];        // many-choices: the indices tapped, not sent yet
  var events = null;
  var notice = "";        // an error to show (role=alert)
  var sending = false;

  function load(name) {
    try { return window.localStorage.getItem(name); } catch (error) { return null; }
  }
  function keep(name, value) {
    try {
      if (value === null) window.localStorage.removeItem(name);
      else window.localStorage.setItem(name, value);
    } catch (error) { /* private mode: the page still works until it is closed */ }
  }
  function chooseLanguage() {
    var asked = new URLSearchParams(window.location.search).get("lang");
    if (asked && data.words[asked]) return asked;
    var kept = load(langName);
    if (kept && data.words[kept]) return kept;
    var wanted = (navigator.languages || [navigator.language || ""]);
    for (var i = 0; i < wanted.length; i++) {
      var tag = String(wanted[i]).toLowerCase();
      if (tag.indexOf("ja") === 0) return "ja";
      if (tag.indexOf("zh") === 0) return "zh-Hant";
      if (tag.indexOf("en") === 0) return "en";
    }
    return data.lang;
  }
  function say(key, values) {
    var words = data.words[lang][key] || data.words.en[key] || key;
    return words.replace(/\{(\w+)\}/g, function (all, name) {
      return values && values[name] !== undefined ? String(values[name]) : all;
    });
  }
  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      var value = attributes[name];
      if (value === null || value === undefined || value === false) return;
      if (name === "text") node.textContent = value;
      else if (name === "onclick") node.addEventListener("click", value);
      else if (name === "onsubmit") node.addEventListener("submit", value);
      else node.setAttribute(name, value === true ? "" : value);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }
  function svg(markup, className) {
    // The cards' pictures: SVG drawn by the tutor's server (tutor/display/svg.py).
    var box = el("div", { "class": className });
    box.innerHTML = markup;
    return box;
  }

  // -- talking to the room ------------------------------------------------------------------

  function request(method, path, body) {
    var headers = body ? { "Content-Type": "application/json" } : {};
    if (data.xsrf) headers["X-XSRFToken"] = data.xsrf;
    return fetch(base + code + "/api/" + path, {
      method: method,
      credentials: "same-origin",
      headers: headers,
      body: body ? JSON.stringify(body) : undefined,
      cache: "no-store"
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (reply) {
        if (!response.ok) {
          var error = new Error((reply.error && reply.error.message) || response.statusText);
          error.code = (reply.error && reply.error.code) || "other";
          error.retryAfter = Number(response.headers.get("Retry-After")) || 0;
          throw error;
        }
        return reply;
      });
    });
  }
  function failed(error) {
    var known = ["unknown-room", "unknown-learner", "not-open", "too-many", "bad-field", "room-full"];
    notice = say("error-" + (known.indexOf(error.code) >= 0 ? error.code : "other"), { code: code });
    if (error.code === "unknown-learner" && !onHub) {
      keep(keyName, null);
      learner = null;
      stopEvents();
    }
    if (error.code === "not-open") refresh();
    render();
  }
  function refresh() {
    if (!learner) { render(); return Promise.resolve(); }
    return request("GET", "state?learner=" + encodeURIComponent(learner) + "&lang=" + encodeURIComponent(lang))
      .then(function (reply) {
        var sameQuestion = state && state.question && reply.question && state.question.key === reply.question.key;
        // Many choices: the taps start from the answer the learner sent (a reload keeps it).
        if (!sameQuestion || reply.phase !== "open") {
          picked = Array.isArray(reply.my_answer) ? reply.my_answer.slice() : [];
        }
        state = reply;
        render();
      }, failed);
  }
  function startEvents() {
    stopEvents();
    var shown = null;
    events = new EventSource(base + code + "/api/events?learner=" + encodeURIComponent(learner) +
      (data.xsrf ? "&_xsrf=" + encodeURIComponent(data.xsrf) : ""));
    events.addEventListener("room", function (message) {
      var live = JSON.parse(message.data);
      var now = [live.phase, live.question_key, live.counts_shown].join("|");
      if (now !== shown) { shown = now; refresh(); }
      setConnected(true);
    });
    events.addEventListener("error", function () {
      // EventSource tries again by itself; the learner is told meanwhile.
      setConnected(false);
      shown = null;
    });
  }
  function stopEvents() {
    if (events) events.close();
    events = null;
  }
  function setConnected(connected) {
    var line = document.getElementById("room-connection");
    if (line) line.textContent = connected ? "" : say("reconnecting");
  }

  function join(event) {
    event.preventDefault();
    if (sending) return;
    var name = document.getElementById("room-nickname").value;
    keep("wizard-tutor/room-nickname", name);
    tryJoin(name);
  }
  // A whole class joining at once can pass the room's join limit (429): the page says so
  // calmly and joins again by itself once the server's Retry-After has passed.
  function tryJoin(name) {
    sending = true;
    request("POST", "join", { nickname: name }).then(function (reply) {
      learner = reply.learner;
      if (!onHub) keep(keyName, learner);
      notice = "";
      sending = false;
      startEvents();
    }, function (error) {
      if (error.code !== "too-many") { sending = false; failed(error); return; }
      var seconds = Math.min(Math.max(error.retryAfter || 1, 1), 60);
      notice = say("joining-again", { seconds: seconds });
      render();
      window.setTimeout(function () { tryJoin(name); }, seconds * 1000);
    });
  }
  function answer(value, focus) {
    if (!state || !state.question || sending) return;
    sending = true;
    request("POST", "answer", { learner: learner, question: state.question.key, answer: value })
      .then(function (reply) {
        notice = "";
        // The state again: the answer's words come from the server, in the learner's language.
        refresh().then(function () { render(focus); });
      }, failed)
      .then(function () { sending = false; });
  }

  // -- drawing ------------------------------------------------------------------------------

  function includes(value, index) {
    return Array.isArray(value) ? value.indexOf(index) >= 0 : value === index;
  }

  // The language links are the page's own (templates/languages.html, as on every page of
  // the tutor's): a tap switches the page in place, and the address keeps the choice.
  function chooseLanguageLink(event) {
    var link = event.target.closest("a[lang]");
    if (!link || !data.words[link.getAttribute("lang")]) return;
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;  // a new tab
    event.preventDefault();
    lang = link.getAttribute("lang");
    keep(langName, lang);
    // The address says the learner's choice too, so that a reload keeps it.
    var address = new URL(window.location.href);
    address.searchParams.set("lang", lang);
    window.history.replaceState(null, "", address.toString());
    document.documentElement.lang = lang;
    refresh();
  }
  function showLanguage() {
    languages.setAttribute("aria-label", say("language"));
    languages.querySelectorAll("a[lang]").forEach(function (link) {
      if (link.getAttribute("lang") === lang) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    });
  }

  function joinForm() {
    return el("form", { "class": "room-join", onsubmit: join }, [
      el("p", { text: say("join-intro") }),
      el("label", { "for": "room-nickname", text: say("nickname", { limit: data.nicknameLimit }) }),
      el("input", {
        id: "room-nickname", name: "nickname", type: "text", maxlength: String(data.nicknameLimit),
        autocomplete: "nickname", value: load("wizard-tutor/room-nickname") || ""
      }),
      el("button", { type: "submit", "class": "room-primary", text: say("join") })
    ]);
  }

  function choiceButton(choice, question, revealedState) {
    var chosen = question.kind === "many-choices" && state.phase === "open"
      ? picked.indexOf(choice.index) >= 0
      : includes(state.my_answer, choice.index);
    var marks = [];
    if (revealedState && includes(revealedState.right_answer, choice.index)) marks.push(say("right-answer"));
    if (chosen) marks.push(revealedState || question.kind !== "many-choices" ? say("your-answer") : say("chosen"));
    var counted = revealedState && revealedState.choice_counts && revealedState.choice_counts.length
      ? say("count", { count: revealedState.choice_counts[choice.index] }) : "";
    var classes = ["room-choice"];
    if (chosen) classes.push("is-chosen");
    if (revealedState && includes(revealedState.right_answer, choice.index)) classes.push("is-right");
    return el("button", {
      type: "button", "class": classes.join(" "), "data-index": String(choice.index),
      "aria-pressed": chosen ? "true" : "false",
      disabled: state.phase !== "open",
      onclick: function () {
        if (question.kind === "one-choice") { answer(choice.index, choice.index); return; }
        var at = picked.indexOf(choice.index);
        if (at >= 0) picked.splice(at, 1); else picked.push(choice.index);
        render(choice.index);
      }
    }, [
      choice.card ? svg(choice.card, "room-card") : null,
      el("span", { "class": "room-choice-label", text: choice.label }),
      marks.length ? el("span", { "class": "room-mark", text: marks.join(" · ") }) : null,
      counted ? el("span", { "class": "room-count", text: counted }) : null
    ]);
  }

  function questionView() {
    var question = state.question;
    var reveal = state.reveal;
    var parts = [el("h2", { id: "room-prompt", text: question.prompt })];
    if (question.situation) parts.push(el("p", { "class": "room-situation", text: question.situation }));
    if (question.scene) parts.push(svg(question.scene, "room-scene"));
    if (question.kind === "number") {
      var input = el("input", {
        id: "room-number", type: "text", inputmode: "numeric", autocomplete: "off",
        disabled: state.phase !== "open",
        value: state.my_answer !== null && state.my_answer !== undefined ? String(state.my_answer) : ""
      });
      parts.push(el("form", {
        "class": "room-number",
        onsubmit: function (event) { event.preventDefault(); answer(input.value, "number"); }
      }, [
        el("label", { "for": "room-number", text: question.answer_label || say("number") }),
        input,
        el("button", { type: "submit", "class": "room-primary", disabled: state.phase !== "open", text: say("send") })
      ]));
    } else {
      if (state.phase === "open") {
        parts.push(el("p", { "class": "room-how", text: say(question.kind === "one-choice" ? "pick-one" : "pick-many") }));
      }
      if (question.answer_label) parts.push(el("p", { "class": "room-answer-label", text: question.answer_label }));
      parts.push(el("div", { "class": "room-choices", role: "group", "aria-labelledby": "room-prompt" },
        question.choices.map(function (choice) { return choiceButton(choice, question, reveal); })));
      if (question.kind === "many-choices" && state.phase === "open") {
        parts.push(el("button", {
          type: "button", "class": "room-primary", id: "room-send", text: say("send"),
          onclick: function () { answer(picked.slice().sort(function (a, b) { return a - b; }), "send"); }
        }));
      }
    }
    if (reveal) parts.push(revealView(reveal));
    return el("section", { "class": "room-question", "aria-labelledby": "room-prompt" }, parts);
  }

  function revealView(reveal) {
    var parts = [];
    if (reveal.correct === true) parts.push(el("p", { "class": "room-verdict is-right", text: "✓ " + say("right") }));
    else if (reveal.correct === false) parts.push(el("p", { "class": "room-verdict is-wrong", text: "✗ " + say("wrong") }));
    else parts.push(el("p", { "class": "room-verdict", text: say("no-answer") }));
    parts.push(el("p", { text: say("right-answer-is", { answer: reveal.right_label }) }));
    if (reveal.answer) parts.push(el("p", { text: reveal.answer }));
    if (reveal.explanation) parts.push(el("p", { text: reveal.explanation }));
    if (reveal.reasons && reveal.reasons.length) {
      parts.push(el("ul", { "class": "room-reasons" }, reveal.reasons.map(function (reason) {
        return el("li", { text: reason });
      })));
    }
    if (reveal.counts_shown && reveal.counts) {
      parts.push(el("h3", { text: say("counts", { count: reveal.answered }) }));
      parts.push(el("ul", { "class": "room-counts" }, reveal.counts.map(function (entry) {
        return el("li", {
          text: say(entry.right ? "count-of-right" : "count-of", { answer: entry.label, count: entry.count })
        });
      })));
    }
    return el("div", { "class": "room-reveal" }, parts);
  }

  function statusWords() {
    if (!learner) return "";
    if (!state || !state.question) return say("waiting");
    if (state.phase === "revealed") {
      var r = state.reveal;
      return r.correct === true ? say("right") : r.correct === false ? say("wrong") : say("no-answer");
    }
    if (state.my_answer !== null && state.my_answer !== undefined) {
      return say("answered", { answer: state.my_answer_label });
    }
    return say("not-answered");
  }

  // The live regions are made once and only their words change: a screen reader announces
  // a region's change, not a region that is replaced.
  var header = main.querySelector("header");
  var title = document.getElementById("room-title");
  var languages = document.getElementById("room-languages");
  languages.addEventListener("click", chooseLanguageLink);
  var who = el("p", { "class": "room-who" });
  var status = el("p", { id: "room-status", "class": "room-status", role: "status", "aria-live": "polite" });
  var alert = el("p", { id: "room-notice", "class": "room-notice", role: "alert" });
  var connection = el("p", { id: "room-connection", "class": "room-connection", "aria-live": "polite" });
  var body = el("div", { "class": "room-body" });
  main.replaceChildren(header, who, status, alert, connection, body);

  function render(focus) {
    var phase = !learner ? "join" : !state ? "loading" : !state.question ? "waiting"
      : state.phase === "revealed" ? "revealed"
      : state.my_answer !== null && state.my_answer !== undefined ? "answered" : "open";
    main.setAttribute("data-state", phase);
    document.title = say("title", { code: code });
    title.textContent = say("title", { code: code });
    showLanguage();
    who.textContent = learner && state
      ? (state.nickname ? say("joined-as", { code: code, name: state.nickname }) : say("joined", { code: code }))
      : "";
    status.textContent = statusWords();
    alert.textContent = notice;
    var view = !learner ? (onHub ? null : joinForm()) : state && state.question ? questionView() : null;
    body.replaceChildren.apply(body, view ? [view] : []);
    if (focus !== undefined && focus !== null) {
      var target = typeof focus === "number"
        ? main.querySelector('.room-choice[data-index="' + focus + '"]')
        : document.getElementById("room-" + focus);
      if (target && !target.disabled) target.focus();
    }
  }

  document.documentElement.lang = lang;
  render();
  if (learner) startEvents();
  else if (onHub) tryJoin("");  // the hub knows who the learner is: joined at once
})();
