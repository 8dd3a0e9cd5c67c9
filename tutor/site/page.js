// The static site's page script: the site's template (tutor/site/build_pages.py, write_template)
// puts it in every page, before Voici's own script.
//
// Voici renders each notebook at build time into voici/render/<name>.html; at view time its
// script starts a Pyodide kernel in a web worker and runs the notebook there. Four things
// differ from the Voila app, and are set right here, before Voici reads its page config:
//
// 1. The kernel settings come from jupyter-lite.json with URLs relative to the site root
//    ("./static/pyodide/pyodide.js"), but Voici resolves them against the page
//    (voici/render/), which 404s. They are made absolute against the site root (the
//    page config's baseUrl, which Voici computes per folder depth).
// 2. The page's query (?lang=ja&present=1) must reach the notebook as Voila passes it:
//    os.environ["QUERY_STRING"] (tutor/teaching/language.py reads it). The worker cannot see the
//    page's URL (its `location` is the worker script's), so the query goes in as an
//    environment variable of the Pyodide interpreter (loadPyodide's `env` option).
// 3. Links between notebooks (the course index writes "06_trick_winner.ipynb?lang=ja")
//    must open the rendered page "06_trick_winner.html?lang=ja" of the same folder.
// 4. No service worker. JupyterLite registers one to give the kernel the site's files as a
//    folder (/drive) and for input(); the course needs neither (the kernel starts in the
//    notebooks' folder its own wheel ships). Outside secure contexts (a plain-http school
//    intranet) browsers have no service workers, and there Voici 0.9 waits forever:
//    JupyterLite 0.6's ServiceWorkerManager never settles `ready` when
//    navigator.serviceWorker is missing. A stand-in whose register() fails makes JupyterLite
//    go on without one, as it does when a registration fails, so every page takes the same
//    path on every origin (and the checks on 127.0.0.1 stand for the intranet).
//
// And one thing is sooner: the kernel's worker is made here, at once, not when Voici's
// front end has loaded (about a second later, on this thread), so that Python starts beside
// the front end (tutor/site/loader.js says how; startKernelEarly below).
(function () {
  "use strict";

  const noServiceWorker = () => Promise.reject(new Error("this site runs without a service worker"));
  Object.defineProperty(navigator, "serviceWorker", {
    configurable: true,
    value: {
      controller: null,
      register: noServiceWorker,
      getRegistration: () => Promise.resolve(undefined),
      getRegistrations: () => Promise.resolve([]),
      addEventListener() {},
      removeEventListener() {},
    },
  });

  const KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel";
  const PYODIDE_LOADER = "tutorPyodideLoader"; // tutor/site/build_pages.py, PYODIDE_LOADER_SETTING
  const KERNEL_WORKER = "tutorKernelWorker"; // tutor/site/build_pages.py, KERNEL_WORKER_SETTING
  const EARLY_START = "tutor-early-start:"; // tutor/site/loader.js, EARLY_START

  // The kernel's worker, started now: its script is the site's loader, which starts
  // loadPyodide with the options the kernel will pass (JupyterLite's PyodideKernel:
  // indexURL, the pyodideUrl's folder, then loadPyodideOptions), then imports JupyterLite's
  // worker script ``workerUrl`` and says "ready". When JupyterLite makes a Worker of that
  // script, it gets this one, once (through a KernelWorkerHandle: the worker may not be
  // ready yet); if it failed before, JupyterLite's is made as usual, as is every other
  // Worker. Not on a cross-origin isolated page, whose kernel is another worker script.
  function startKernelEarly(workerUrl, kernel) {
    const PageWorker = window.Worker;
    if (typeof PageWorker !== "function" || window.crossOriginIsolated) return;
    const loader = kernel.pyodideUrl;
    const options = Object.assign(
      { indexURL: loader.slice(0, loader.lastIndexOf("/") + 1) },
      kernel.loadPyodideOptions
    );
    let early;
    try {
      const name = EARLY_START + JSON.stringify({ options, worker: workerUrl });
      early = new PageWorker(loader, { name });
    } catch (error) {
      console.warn(`the kernel starts when the page asks for it (${error.message})`);
      return;
    }
    let handle = null; // JupyterLite's, once it asked
    let state = "starting"; // then "ready" or "failed"
    early.addEventListener("message", function whenReady(event) {
      if (event.data && event.data.tutorEarlyStart === "ready" && state === "starting") {
        state = "ready";
        early.removeEventListener("message", whenReady);
        if (handle) handle.use(early);
      }
    });
    early.addEventListener("error", () => {
      if (state !== "starting") return; // an error of the kernel's, once it runs
      state = "failed";
      early.terminate();
      if (handle) {
        handle.use(new PageWorker(handle.url, handle.options));
      } else {
        window.Worker = PageWorker;
      }
    });
    const kernelPath = new URL(workerUrl).pathname;
    function KernelWorker(url, workerOptions) {
      if (new URL(String(url), window.location.href).pathname === kernelPath) {
        window.Worker = PageWorker; // once
        // when the front end asked for the kernel (the benchmark's breakdown, a test)
        performance.mark("tutor-page: kernel's worker asked for");
        handle = new KernelWorkerHandle(early, url, workerOptions);
        if (state === "ready") handle.use(early);
        return handle;
      }
      return new PageWorker(url, workerOptions);
    }
    KernelWorker.prototype = PageWorker.prototype;
    window.Worker = KernelWorker;
  }

  // The kernel's worker as JupyterLite uses it (addEventListener, postMessage, terminate;
  // comlink's endpoint): its messages wait until the early worker is ready, then go to it,
  // or to the worker made in its place if it failed (its listeners move there too).
  class KernelWorkerHandle extends EventTarget {
    constructor(worker, url, options) {
      super();
      this.worker = worker;
      this.url = url;
      this.options = options;
      this.waiting = []; // [message, transfer] until use(); then null
      this.listening = []; // [type, listener, options]
    }
    use(worker) {
      if (this.worker !== worker) {
        for (const [type, listener, options] of this.listening) {
          this.worker.removeEventListener(type, listener, options);
          worker.addEventListener(type, listener, options);
        }
        this.worker = worker;
      }
      const waiting = this.waiting;
      this.waiting = null;
      if (this.terminated) worker.terminate();
      else for (const [message, transfer] of waiting) worker.postMessage(message, transfer);
    }
    addEventListener(type, listener, options) {
      this.listening.push([type, listener, options]);
      this.worker.addEventListener(type, listener, options);
    }
    removeEventListener(type, listener, options) {
      this.listening = this.listening.filter(([t, l]) => t !== type || l !== listener);
      this.worker.removeEventListener(type, listener, options);
    }
    postMessage(message, transfer) {
      if (this.waiting) this.waiting.push([message, transfer || []]);
      else this.worker.postMessage(message, transfer || []);
    }
    terminate() {
      this.terminated = true;
      this.worker.terminate();
    }
  }

  const node = document.getElementById("jupyter-config-data");
  if (node) {
    const config = JSON.parse(node.textContent);
    const root = new URL(config.baseUrl || "./", window.location.href);
    const absolute = (url) => new URL(url, root).href;
    const plugins = config.litePluginSettings || {};
    const kernel = plugins[KERNEL_PLUGIN] || {};
    // Pyodide starts through the site's loader (tutor/site/loader.js, beside pyodide.js),
    // which the build names here: JupyterLite's build sets pyodideUrl to pyodide.js itself.
    if (config[PYODIDE_LOADER]) {
      kernel.pyodideUrl = config[PYODIDE_LOADER];
    }
    if (kernel.pyodideUrl) {
      kernel.pyodideUrl = absolute(kernel.pyodideUrl);
    }
    if (kernel.pipliteWheelUrl) {
      kernel.pipliteWheelUrl = absolute(kernel.pipliteWheelUrl);
    }
    if (Array.isArray(kernel.pipliteUrls)) {
      kernel.pipliteUrls = kernel.pipliteUrls.map(absolute);
    }
    const options = (kernel.loadPyodideOptions = kernel.loadPyodideOptions || {});
    options.env = Object.assign({}, options.env, {
      QUERY_STRING: window.location.search.replace(/^\?/, ""),
    });
    plugins[KERNEL_PLUGIN] = kernel;
    config.litePluginSettings = plugins;
    node.textContent = JSON.stringify(config);
    if (config[KERNEL_WORKER] && config[PYODIDE_LOADER]) {
      startKernelEarly(absolute(config[KERNEL_WORKER]), kernel);
    }
  }

  // -- a page being left sends nothing more to its kernel --------------------------------
  // The kernel's worker goes with the page: a widget made from here on must not send (the
  // browser store, tutor/display/browser_store.js, reads this; the app's tutor-page.js
  // sets it alike).
  window.addEventListener("beforeunload", () => {
    window.wizardTutorPageLeft = true;
  });

  // -- links to notebooks open their rendered pages ---------------------------------------
  const NOTEBOOK = /\.ipynb$/;
  function fixLink(link) {
    const href = link.getAttribute("href");
    if (!href || /^([a-z][a-z0-9+.-]*:|\/|#)/i.test(href)) {
      return; // absolute, site-absolute or in-page: not a notebook of this folder
    }
    const url = new URL(href, window.location.href);
    if (NOTEBOOK.test(url.pathname)) {
      const cut = href.search(/[?#]/);
      const path = cut < 0 ? href : href.slice(0, cut);
      const rest = cut < 0 ? "" : href.slice(cut);
      link.setAttribute("href", path.replace(NOTEBOOK, ".html") + rest);
    }
  }
  function fixLinks(root) {
    if (root.matches && root.matches("a[href]")) {
      fixLink(root);
    }
    if (root.querySelectorAll) {
      root.querySelectorAll("a[href]").forEach(fixLink);
    }
  }
  new MutationObserver((records) => {
    for (const record of records) {
      record.addedNodes.forEach(fixLinks);
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
})();
