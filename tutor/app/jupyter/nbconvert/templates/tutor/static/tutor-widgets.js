// The widgets' recovery: a learner never reads a widget manager's error, in the app (Voila)
// and on the static site (Voici), which both put this script in every page.
//
// 1. anywidget (0.11) gives each model 2 s to load its module and run its initialize().
//    After that the model's `ready` is rejected for good ("[anywidget] Failed to initialize
//    model.") and every later message from the kernel to it is dropped, even once its
//    module has loaded: a page whose browser is busy (a class opening pages at the same
//    moment on slow machines) keeps a progress store that saves nothing and a tab title that
//    never changes. anywidget has no setting for it, so its own calls of
//    AbortSignal.timeout(2000) get MODEL_WAIT instead (told apart by the calling script,
//    anywidget's labextension); every other caller gets what it asks for.
// 2. A widget the page cannot draw (its model is not there: "Error displaying widget: model
//    not found", or its view failed: "Error displaying widget"), or still "Loading widget..."
//    after LOADING_WAIT (Voici's page waits forever for a model it has not got; the page's
//    ?load_wait=<seconds> sets another wait, README "The page's wait"), says
//    instead, in the page's language, that this part did not load and to reload the page,
//    with a button that does. A widget drawn later still replaces the words (the widget
//    manager empties its node first). The app's page watch, tutor-page.js, then reloads
//    the page by itself.
// The words come from the tutor's catalog ("page-notice"), in the page's ?lang=
// (tutor-settings.js, loaded before this script).
(function () {
  "use strict";

  const ANYWIDGET_WAIT = 2000; // ms: anywidget's own limit for a model to start
  const MODEL_WAIT = 120000; // ms: a busy browser's model still starts, later
  const ANYWIDGET_SCRIPT = /\/anywidget\/static\//;
  const WIDGET_ERROR = /^\s*Error displaying widget/;
  const LOADING = "Loading widget...";

  const timeout = typeof AbortSignal !== "undefined" && AbortSignal.timeout;
  if (timeout) {
    AbortSignal.timeout = function (ms) {
      const fromAnywidget =
        ms === ANYWIDGET_WAIT && ANYWIDGET_SCRIPT.test(String(new Error().stack || ""));
      return timeout.call(AbortSignal, fromAnywidget ? MODEL_WAIT : ms);
    };
  }

  // ms a widget may show "Loading widget..." (?load_wait=, read by tutor-settings.js)
  const LOADING_WAIT = window.wizardTutor.settings.loadWait;
  const say = window.wizardTutor.settings.noticeSay;

  const waiting = new WeakSet(); // nodes showing LOADING, checked again after LOADING_WAIT

  // The widget manager writes its state as the whole text of the widget's output node.
  function replaceError(node) {
    if (!(node instanceof Element) || node.childElementCount !== 0) {
      return;
    }
    const shown = (node.textContent || "").trim();
    if (shown === LOADING && !waiting.has(node)) {
      waiting.add(node);
      window.setTimeout(() => {
        waiting.delete(node);
        const still = node.childElementCount === 0 && node.textContent.trim() === LOADING;
        if (node.isConnected && still) {
          showFailed(node, "still loading");
        }
      }, LOADING_WAIT);
    } else if (WIDGET_ERROR.test(shown)) {
      showFailed(node, shown);
    }
  }

  function showFailed(node, why) {
    console.warn(`[tutor] a widget was not drawn: ${why}`);
    const box = document.createElement("div");
    box.className = "tutor-widget-failed";
    box.setAttribute("role", "alert");
    box.textContent = say("widget-failed") + " ";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = say("reload");
    button.addEventListener("click", () => window.location.reload());
    box.append(button);
    node.replaceChildren(box);
  }

  // Setting an element's text is a change of its children: the changed element is the
  // record's target. A part of the page added whole is looked through once.
  new MutationObserver((records) => {
    for (const record of records) {
      replaceError(record.target);
      record.addedNodes.forEach((node) => {
        replaceError(node);
        if (node instanceof Element && node.childElementCount !== 0) {
          node.querySelectorAll(".jupyter-widgets, .jp-OutputArea-output").forEach(replaceError);
        }
      });
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
})();
