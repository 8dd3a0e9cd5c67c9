// The presenter's page (tutor-presenter.js) through a restart of the server.
//
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
//
//   reconnect.returnToPlace()   on a page loaded again by this script, show the slide it
//                               showed and say "Connected again"
//   reconnect.watch()           follow the page's kernel connection (tutor-kernel.js);
//                               reconnect.watching: it does
(function () {
  "use strict";

  const tutor = window.wizardTutor;
  const { say } = tutor.settings;
  const presenter = tutor.presenter;

  const SERVER_POLL = 1000;
  const AGAIN_SHOWN = 10000; // ms "Connected again" stays (or until the next press)
  const PLACE_KEY = "wizard-tutor/present-place:" + window.location.pathname;
  const connection = { line: null, lost: false, timer: 0 };

  function sayConnection(key) {
    const bar = presenter.bar;
    if (!bar) {
      return;
    }
    if (!connection.line) {
      connection.line = presenter.element("span", "tutor-present-connection");
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

  // The slide shown, kept for the page loaded again (this tab only, once, fresh).
  function keepPlace() {
    try {
      const place = { slide: presenter.current, at: Date.now() };
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
      presenter.showSlide(place.slide, 1); // before the room starts: it follows this slide
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
    const config = tutor.kernel.config();
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

  function watchConnection(kernel) {
    tutor.reconnect.watching = true; // tutor-page.js: this page's reload is ours
    kernel.connectionStatusChanged.connect(() => connectionChanged(kernel));
    kernel.statusChanged.connect(() => connectionChanged(kernel));
  }

  tutor.reconnect = {
    returnToPlace,
    watch: () => tutor.kernel.whenConnected(watchConnection),
    watching: false,
  };
})();
