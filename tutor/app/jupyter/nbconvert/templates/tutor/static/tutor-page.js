// The page's watch over its kernel: a learner never looks at a page silently lacking its
// content (tutor/app/server.py explains the server's side).
//
// - The page did not load completely (a widget that never drew, an output the server
//   could not get from a busy kernel, outputs Voila's front end never drew) or lost its
//   kernel (the server stopped it): say so
//   and reload by itself, at most MAX_RELOADS times in a row, then ask for a reload.
// - Something failed in the kernel (a widget callback): the kernel sends only the
//   tutor's short message (tutor/app/kernel.py); show it.
// - The page is left before Voila's own page-close request was set up (its widget
//   manager starts last): send that request here, so the kernel is given back at once.
// The words come from the tutor's catalog ("page-notice"), in the page's ?lang=
// (read by tutor-settings.js).
(function () {
  "use strict";

  const settings = window.wizardTutor.settings;
  // ms after the server sent the page, for the browser to draw it: 60 s, or the page's
  // ?load_wait= (README "The page's wait"), as long as a widget may take (tutor-widgets.js)
  const LOAD_WAIT = settings.loadWait;
  const RELOAD_DELAY = [3000, 8000]; // ms, random in this range (a class is not in step)
  const MAX_RELOADS = 3;
  const RELOADS_KEY = "wizard-tutor/reloads:" + window.location.pathname;

  const say = settings.noticeSay;

  let leaving = false;
  window.addEventListener("beforeunload", () => {
    leaving = true;
    // Voila closes the kernel's connection now: widgets made from here on must not send
    // (the browser store, tutor/display/browser_store.js, reads this).
    window.wizardTutorPageLeft = true;
  });

  // -- the kernel is given back when the page goes ----------------------------------------
  // Voila's widget manager sends POST voila/api/shutdown/<kernel> on beforeunload, once it
  // has started; a page closed while it was still loading would leave its kernel to the
  // culler. Watch for Voila's request, and send it on pagehide if Voila did not.
  let shutdownSent = false;
  const beacon = navigator.sendBeacon && navigator.sendBeacon.bind(navigator);
  if (beacon) {
    navigator.sendBeacon = (url, data) => {
      if (String(url).includes("/voila/api/shutdown/")) {
        shutdownSent = true;
      }
      return beacon(url, data);
    };
  }
  window.addEventListener("pagehide", (event) => {
    leaving = true;
    if (shutdownSent || event.persisted || !beacon) {
      return; // sent already, or kept in the back-forward cache (it may come back)
    }
    try {
      const config = window.wizardTutor.kernel.config();
      const xsrf = document.cookie.match(/\b_xsrf=([^;]*)/);
      if (config.kernelId && xsrf) {
        const body = new FormData();
        body.append("_xsrf", xsrf[1]);
        navigator.sendBeacon(`${config.baseUrl || "/"}voila/api/shutdown/${config.kernelId}`, body);
      }
    } catch (error) {
      // nothing to give back: the culler has the last word
    }
  });

  function show(key, withButton) {
    let box = document.querySelector(".tutor-page-notice");
    if (!box) {
      box = document.createElement("div");
      box.className = "tutor-page-notice";
      box.setAttribute("role", "alert");
      document.body.prepend(box);
    }
    box.dataset.notice = key;
    box.textContent = say(key) + " ";
    if (withButton) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = say("reload");
      button.addEventListener("click", () => window.location.reload());
      box.append(button);
    }
  }

  function reloads() {
    try {
      return Number(window.sessionStorage.getItem(RELOADS_KEY) || "0");
    } catch (error) {
      return MAX_RELOADS; // no storage: never reload automatically (no loop)
    }
  }

  function reloadSoon(key) {
    if (leaving) {
      return;
    }
    const count = reloads();
    if (count >= MAX_RELOADS) {
      show("gave-up", true);
      return;
    }
    show(key, true);
    try {
      window.sessionStorage.setItem(RELOADS_KEY, String(count + 1));
    } catch (error) {
      return;
    }
    const [low, high] = RELOAD_DELAY;
    window.setTimeout(() => window.location.reload(), low + Math.random() * (high - low));
  }

  // -- did the page load completely? ------------------------------------------------------
  const widgetOutputs = () =>
    Array.from(document.querySelectorAll("#rendered_cells .jp-OutputArea-output")).filter(
      (output) => !output.hasAttribute("data-mime-type")
    );
  // A widget that could not be drawn says so (tutor-widgets.js), in place of the widget
  // manager's "Error displaying widget".
  const notDrawn = (output) =>
    !!output.querySelector(".tutor-widget-failed") ||
    /^Error displaying widget/.test(output.textContent || "");
  const drawn = (output) =>
    !!output.querySelector(".jupyter-widgets, .widget-box, .widget-html, .widget-button") &&
    !notDrawn(output);
  // Voila's front end (voila.js) draws every output from a script element of the page once
  // it has started, removing the element: one still there is an output not drawn yet.
  const pendingOutput = () =>
    document.querySelector("#rendered_cells script[type='application/vnd.voila.cell-output+json']");
  const failedOutput = () =>
    document.querySelector(
      "#rendered_cells .jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
    ) ||
    widgetOutputs().find(notDrawn);

  // This script is the last thing of the page: when it runs, the server has sent the whole
  // page (its notebook has run). From now on it is the browser's work: Voila's front end
  // loads, shows the cells, draws their outputs and widgets. A page not complete after
  // LOAD_WAIT (Voila's spinner still turning, outputs or widgets never drawn) says so.
  const startedAt = Date.now();
  function watchLoad() {
    const cells = document.getElementById("rendered_cells");
    const shown = cells && cells.style.display !== "none" && !document.getElementById("loading");
    if (shown && failedOutput()) {
      reloadSoon("incomplete");
      return;
    }
    if (shown && !pendingOutput() && widgetOutputs().every(drawn)) {
      try {
        window.sessionStorage.removeItem(RELOADS_KEY); // loaded: the next trouble starts afresh
      } catch (error) {
        // no storage: nothing to forget
      }
      return;
    }
    if (Date.now() - startedAt > LOAD_WAIT) {
      reloadSoon("incomplete");
      return;
    }
    window.setTimeout(watchLoad, 250);
  }

  // -- the kernel: lost, or telling of a failure ---------------------------------------------
  // Voila's widget manager holds the page's kernel connection (JupyterLab's
  // IKernelConnection): its IOPub messages and its connection status.
  function watchKernel(kernel) {
    kernel.iopubMessage.connect((_, message) => {
      if (message && message.header && message.header.msg_type === "error") {
        show("error", false);
      }
    });
    const lost = () =>
      kernel.status === "dead" ||
      (kernel.connectionStatus === "disconnected" && kernel.isDisposed !== true);
    const check = () => {
      // (a presenter's page waits for the server and keeps its slide: tutor-reconnect.js)
      if (!leaving && !window.wizardTutor.reconnect.watching && lost()) {
        reloadSoon("lost");
      }
    };
    kernel.statusChanged.connect(check);
    kernel.connectionStatusChanged.connect(check);
  }

  watchLoad();
  window.wizardTutor.kernel.whenConnected(watchKernel); // once the widget manager has started
})();
