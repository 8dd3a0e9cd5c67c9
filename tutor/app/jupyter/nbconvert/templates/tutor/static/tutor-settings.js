// What the tutor's page scripts read from the page once, for all of them: its language and
// words (the template writes the catalog's into #tutor-present-words, every language: the
// page picks its ?lang=, as the kernel does, else the server's default), what its address
// asks for (?present=, ?load_wait=) and where its live room is (classroom mode). Loaded
// before the others, into the namespace they share: window.wizardTutor.
//
//   settings.presenting         presenter mode (?present=1)
//   settings.lang               the page's language; <html lang> follows it
//   settings.say(key, values)   the presenter's words ("present" in the catalog)
//   settings.roomSay(key, ...)  the live room's words on the projector ("projector")
//   settings.noticeSay(key)     the page's notices ("page-notice": tutor-widgets.js,
//                               tutor-page.js)
//   settings.loadWait           ms a page may take to draw itself (README "The page's wait")
//   settings.room               {served, base}: whether the app serves a live room
//                               (--classroom, docs/live-room.md) and at which address
(function () {
  "use strict";

  const tutor = (window.wizardTutor = window.wizardTutor || {});
  const params = new URLSearchParams(window.location.search);
  const has = (object, key) => Object.prototype.hasOwnProperty.call(object || {}, key);

  // ?load_wait=<seconds>: a school whose machines draw pages slowly waits longer before
  // the notice, whoever checks the notice waits less. Anything else: the default.
  const DEFAULT_LOADING_WAIT = 60000; // ms
  const LOADING_WAIT_RANGE = [1, 600]; // s, for ?load_wait=

  function loadingWait(asked) {
    if (asked === null) {
      return DEFAULT_LOADING_WAIT;
    }
    const seconds = Number(asked);
    const [least, most] = LOADING_WAIT_RANGE;
    if (asked.trim() === "" || !(seconds >= least && seconds <= most)) {
      console.warn(
        `[tutor] load_wait=${JSON.stringify(asked)} ignored: give seconds from ${least} ` +
          `to ${most}; waiting ${DEFAULT_LOADING_WAIT / 1000} s`,
      );
      return DEFAULT_LOADING_WAIT;
    }
    return seconds * 1000;
  }

  let words = {};
  let roomWords = {};
  let notices = {};
  let lang = "en";
  const room = { served: false, base: "/room/" }; // the app's /room/, or the hub's service
  try {
    const node = document.getElementById("tutor-present-words");
    const all = JSON.parse((node && node.textContent) || "{}") || {};
    const byLang = all.words || {};
    // Own keys only: ?lang=constructor or ?lang=__proto__ must not find Object's members.
    const found = [params.get("lang"), all.default, "en"].find((name) => !!name && has(byLang, name));
    if (found) {
      lang = found;
      words = byLang[found];
      roomWords = (all.room_words || {})[found] || {};
      notices = (all.notices || {})[found] || {};
      document.documentElement.lang = found; // screen readers and CJK font choice follow it
    }
    // true: the app's own room; a path: the room's base on this origin (the hub's service)
    room.served = all.room === true || (typeof all.room === "string" && all.room.startsWith("/"));
    if (typeof all.room === "string" && room.served) {
      room.base = all.room.endsWith("/") ? all.room : `${all.room}/`;
    }
  } catch (error) {
    words = {};
  }

  // A catalog's words with their {name}s filled in (a key not in the catalog: the key).
  const fill = (catalog, key, values) =>
    String(has(catalog, key) ? catalog[key] : key).replace(/\{(\w+)\}/g, (_, name) =>
      values && name in values ? String(values[name]) : "",
    );

  tutor.settings = {
    params,
    presenting: ["1", "true", "yes", "on"].includes((params.get("present") || "").toLowerCase()),
    lang,
    say: (key, values) => fill(words, key, values),
    roomSay: (key, values) => fill(roomWords, key, values),
    noticeSay: (key) => (has(notices, key) ? String(notices[key]) : key),
    loadWait: loadingWait(params.get("load_wait")),
    room,
  };
})();
