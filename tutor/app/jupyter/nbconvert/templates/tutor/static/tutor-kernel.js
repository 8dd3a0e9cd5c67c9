// The page's kernel, as Voila gives it to the page: its config (the kernel's id, the
// server's base URL) and its connection (JupyterLab's IKernelConnection, which Voila's
// widget manager holds once its scripts have run). For the page's watch (tutor-page.js)
// and the presenter's reconnection (tutor-reconnect.js).
//
//   kernel.config()          the page's Jupyter config ({} if there is none)
//   kernel.whenConnected(f)  f(connection) once the widget manager holds the connection,
//                            looked for every 250 ms for at most a minute
(function () {
  "use strict";

  const tutor = window.wizardTutor;
  const LOOKS = 240; // every 250 ms: a minute

  function config() {
    try {
      const node = document.getElementById("jupyter-config-data");
      return JSON.parse((node && node.textContent) || "{}") || {};
    } catch (error) {
      return {};
    }
  }

  function whenConnected(callback, looks = LOOKS) {
    const manager = window.jupyterapp && window.jupyterapp.widgetManager;
    const kernel = manager && manager.kernel;
    if (!kernel || !kernel.connectionStatusChanged || !kernel.iopubMessage) {
      if (looks > 0) {
        window.setTimeout(() => whenConnected(callback, looks - 1), 250);
      }
      return;
    }
    callback(kernel);
  }

  tutor.kernel = { config, whenConnected };
})();
