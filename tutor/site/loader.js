// The static site's loadPyodide, in the kernel's web worker (issue 20). The page config
// names this script as the kernel's pyodideUrl (tutor/site/build_pages.py, page_config); the
// kernel imports it and calls its loadPyodide as it would Pyodide's, with the pages'
// options.
//
// Pyodide would install the pages' 25 wheels one by one (fetch each, check its hash, unzip
// it in Python into site-packages: about 1.5 s of a second visit, every file in the HTTP
// cache). The build puts the same files, already unpacked and with their bytecode, in one
// archive beside the wheels (SITE_PACKAGES_ARCHIVE, a gzipped tar); this script starts
// fetching it before the runtime starts (the download runs beside the WebAssembly's
// compile and Python's start) and writes its files straight into Pyodide's file system
// from JavaScript, with no Python in between. The kernel still finds the names in the
// options' "packages" and skips its own installs of them.
//
// If anything about the archive fails (an older browser without DecompressionStream, a
// server that refuses the file), the page loads the wheels as before: Pyodide's own
// loadPackage of the same "packages" (the wheels and their lock stay in the site).
//
// A second visit starts from a memory snapshot (issue 20). The runtime's start and the
// imports every page makes (IPython, ipywidgets, anywidget, the tutor's display) cost about
// 1.5 CPU-s in Node (from bytecode: tutor/site/precompile.py), more in a browser beside its
// front end, the same on every visit. On a first visit this script makes
// those imports itself, before the kernel, and then takes Pyodide's memory snapshot (its
// WebAssembly heap, about 36 MB) into the browser's IndexedDB, keyed by the site's build
// (SITE_BUILD, which the build writes into this file: a snapshot of another build is never
// restored). The next visit restores that heap instead of starting Python and importing,
// writes the archive's files into the file system again (the file system lives in
// JavaScript, outside the heap) and sets the page's environment (os.environ in the heap
// is the first visit's). Anything failing there (no IndexedDB, no snapshot, a broken or
// foreign one) gives the ordinary start. The snapshot is taken before the kernel is
// imported: Pyodide can only snapshot a heap whose Python holds no JavaScript objects
// but its own globals, and the kernel's import takes some (pyodide_js's loader).
//
// The start begins with the page (issue 20). Voici's front end takes about a second on the
// page's thread before it makes the kernel's worker; page.js makes that worker at once
// instead, with this script as its script and the kernel's options in its name
// (EARLY_START): this script then starts the runtime (and on a first visit the imports and
// the snapshot) and imports JupyterLite's own worker script; page.js hands the worker to
// JupyterLite when it asks for it. The kernel then imports this script again and calls
// loadPyodide, which returns the start already under way if its options are the ones it
// began with; else (or if that start failed) it starts afresh, as without an early start.
//
// Also loaded by Node.js (benchmarks/pyodide_phases.mjs), which uses its installArchive.
(function (scope) {
  "use strict";

  const SITE_PACKAGES_ARCHIVE = "site-packages.tar.gz";
  // The site's build, written in by tutor/site/build_wheels.py (stamp_loader); "unbuilt" here.
  const SITE_BUILD = "unbuilt";
  const SNAPSHOT_DATABASE = "wizard-tutor-runtime";
  const SNAPSHOT_STORE = "snapshots";
  const SNAPSHOT_KEY = "pyodide"; // one record: a new build's snapshot replaces the old
  const SNAPSHOT_MAGIC = 1886286592; // pyodide.asm.js 0.27.6, makeSnapshot
  const WASM_PAGE = 65536;
  // What every page imports, made part of the snapshot. pyodide_kernel's mocks (modules a
  // browser lacks, e.g. termios) go in first, as when the kernel imports IPython itself;
  // its own package is only run, never imported, here (see the top).
  const SNAPSHOT_IMPORTS = [
    "import importlib.util, sys",
    "def _kernel_mocks():",
    "    path = next(p for p in sys.path if p.endswith('site-packages'))",
    "    spec = importlib.util.spec_from_file_location(",
    "        '_tutor_kernel_mocks', path + '/pyodide_kernel/mocks.py')",
    "    module = importlib.util.module_from_spec(spec)",
    "    spec.loader.exec_module(module)",
    "    module.apply_mocks()",
    "_kernel_mocks()",
    "del _kernel_mocks",
    "import IPython, ipywidgets, anywidget, tutor.display",
  ].join("\n");
  // The name page.js gives the kernel's worker it starts early: this, then the JSON of
  // { options: what the kernel will pass to loadPyodide, worker: JupyterLite's script }.
  const EARLY_START = "tutor-early-start:";
  const BLOCK = 512; // a tar header, and the unit its contents are padded to
  const INVALIDATE_FOLDER_CACHES = [
    "import sys",
    "from importlib.machinery import FileFinder",
    "for finder in list(sys.path_importer_cache.values()):",
    "    if isinstance(finder, FileFinder):",
    "        finder.invalidate_caches()",
  ].join("\n");

  async function inflate(bytes) {
    if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
      return bytes; // a server that sent it with Content-Encoding: gzip: the browser did it
    }
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  // The regular files of a ustar archive (the build writes no other kind), each handed to
  // write(path, bytes) with its path made absolute ("lib/python3.12/..." -> "/lib/...").
  function untar(bytes, write) {
    const decoder = new TextDecoder();
    const field = (start, length) => {
      let end = start;
      while (end < start + length && bytes[end] !== 0) end++;
      return decoder.decode(bytes.subarray(start, end));
    };
    let offset = 0;
    let files = 0;
    while (offset + BLOCK <= bytes.length) {
      const name = field(offset, 100);
      if (!name) break; // the archive's end: blocks of zeros
      const size = parseInt(field(offset + 124, 12).trim() || "0", 8);
      const type = bytes[offset + 156];
      const prefix = field(offset + 345, 155);
      const path = prefix ? `${prefix}/${name}` : name;
      if (type !== 0x30 && type !== 0) {
        throw new Error(`${SITE_PACKAGES_ARCHIVE}: ${path} is not a regular file`);
      }
      const start = offset + BLOCK;
      write(`/${path}`, bytes.subarray(start, start + size));
      files++;
      offset = start + Math.ceil(size / BLOCK) * BLOCK;
    }
    return files;
  }

  // The archive's files into ``pyodide``'s file system; returns how many. Each package is
  // then marked loaded, by the name its metadata gives (the lock's name for it), as
  // loadPackage marks it: the kernel asks Pyodide to load what each cell imports
  // (loadPackagesFromImports), which would otherwise install the wheels again.
  async function installArchive(pyodide, archive) {
    const bytes = await inflate(archive);
    const { FS } = pyodide;
    const folders = new Set();
    const names = [];
    const files = untar(bytes, (path, data) => {
      const folder = path.slice(0, path.lastIndexOf("/"));
      if (!folders.has(folder)) {
        FS.mkdirTree(folder);
        folders.add(folder);
      }
      FS.writeFile(path, data);
      if (/\.dist-info\/METADATA$/.test(path)) {
        const name = /^Name:\s*(\S+)/m.exec(new TextDecoder().decode(data));
        if (name) names.push(name[1]);
      }
    });
    // Python's import system caches what a folder held, and site-packages has just
    // changed. (Not importlib.invalidate_caches(): it imports importlib.metadata, 0.4 s.)
    pyodide.runPython(INVALIDATE_FOLDER_CACHES);
    for (const name of names) {
      pyodide.loadedPackages[name] = SITE_PACKAGES_ARCHIVE;
    }
    return files;
  }

  // IPython's __init__ imports its terminal's embed(), which brings prompt_toolkit and
  // wcwidth (about 150 modules, 0.2-0.3 CPU-s in the browser) that a kernel in a worker
  // never uses. That one module is put in place as a stand-in that imports the real one
  // when anything of it is first used, so everything of IPython still works. It has no
  // dunder names: Python 3.12's import asks it for __path__ on IPython's
  // `from .terminal.embed import embed`, which would otherwise import the real one then.
  const LAZY_TERMINAL_EMBED = [
    "import importlib, sys, types",
    "def _lazy(name):",
    "    stand_in = types.ModuleType(name, 'imported when first used (tutor-loader.js)')",
    "    def real():",
    "        if sys.modules.get(name) is stand_in:",
    "            del sys.modules[name]",
    "        return importlib.import_module(name)",
    "    def attribute_of_real(attribute):",
    "        if attribute.startswith('__'):  # the import system's probes, e.g. __path__",
    "            raise AttributeError(attribute)",
    "        return getattr(real(), attribute)",
    "    stand_in.embed = lambda *args, **keys: real().embed(*args, **keys)",
    "    stand_in.__getattr__ = attribute_of_real",
    "    sys.modules[name] = stand_in",
    "_lazy('IPython.terminal.embed')",
    "del _lazy",
  ].join("\n");

  async function fetchArchive(url) {
    if (typeof DecompressionStream !== "function") {
      throw new Error("this browser cannot unpack gzip (no DecompressionStream)");
    }
    const response = await fetch(url);
    if (!response.ok) {
      throw new Error(`${url}: HTTP ${response.status}`);
    }
    return new Uint8Array(await response.arrayBuffer());
  }

  // -- the snapshot's keeping, in IndexedDB (there in workers and on plain http too) -------

  function request(operation) {
    return new Promise((resolve, reject) => {
      operation.onsuccess = () => resolve(operation.result);
      operation.onerror = () => reject(operation.error);
    });
  }

  // One request on the snapshots' store, made by ``operation(store)``; the connection is
  // closed once it is answered (an open one would hold off a new build's upgrade).
  async function onSnapshots(mode, operation) {
    const opening = indexedDB.open(SNAPSHOT_DATABASE, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(SNAPSHOT_STORE);
    const database = await request(opening);
    try {
      const store = database.transaction(SNAPSHOT_STORE, mode).objectStore(SNAPSHOT_STORE);
      return await request(operation(store));
    } finally {
      database.close(); // closes once its transaction is done
    }
  }

  // Whether ``bytes`` look like what Pyodide 0.27's makeMemorySnapshot makes (its magic
  // number, then the size of its header, then a heap of whole WebAssembly pages): Pyodide
  // given anything else as a snapshot may never settle, rather than fail.
  function wholeSnapshot(bytes) {
    if (bytes.byteLength < 64 || bytes.byteOffset % 4) return false;
    const [magic, headerSize] = new Uint32Array(bytes.buffer, bytes.byteOffset, 2);
    const heap = bytes.byteLength - headerSize;
    return magic === SNAPSHOT_MAGIC && headerSize > 0 && heap > 0 && heap % WASM_PAGE === 0;
  }

  // This build's snapshot, or null (none kept, another build's, or no IndexedDB).
  async function readSnapshot() {
    if (typeof indexedDB === "undefined") return null;
    const record = await onSnapshots("readonly", (store) => store.get(SNAPSHOT_KEY));
    if (!record || record.build !== SITE_BUILD || !(record.heap instanceof Blob)) {
      return null;
    }
    const bytes = new Uint8Array(await record.heap.arrayBuffer());
    if (!wholeSnapshot(bytes)) {
      throw new Error("the kept snapshot is not whole");
    }
    return bytes;
  }

  async function keepSnapshot(bytes) {
    const record = { build: SITE_BUILD, heap: new Blob([bytes]) };
    await onSnapshots("readwrite", (store) => store.put(record, SNAPSHOT_KEY));
  }

  async function forgetSnapshot() {
    await onSnapshots("readwrite", (store) => store.delete(SNAPSHOT_KEY));
  }

  // Pyodide checks that the heap's JavaScript side is as a fresh start left it, and its
  // loadedPackages must then be empty: they are emptied for the snapshot and put back.
  function takeSnapshot(pyodide) {
    const loaded = Object.assign({}, pyodide.loadedPackages);
    for (const name of Object.keys(loaded)) delete pyodide.loadedPackages[name];
    try {
      return pyodide.makeMemorySnapshot();
    } finally {
      Object.assign(pyodide.loadedPackages, loaded);
    }
  }

  // The page's environment into a restored heap (its os.environ is the first visit's).
  function setEnvironment(pyodide, env) {
    const namespace = pyodide.toPy({ page_environment: env });
    pyodide.runPython("import os\nos.environ.update(page_environment)", { globals: namespace });
    namespace.destroy();
  }

  // Marks for the benchmark's breakdown (benchmarks/static_site_benchmark.py); the
  // browser's performance panel shows them too.
  function mark(name) {
    if (typeof performance !== "undefined" && performance.mark) {
      performance.mark(`tutor-loader: ${name}`);
    }
  }

  async function restore(pyodideLoad, options, heap, archive) {
    const pyodide = await pyodideLoad({ ...options, packages: [], _loadSnapshot: heap });
    mark("runtime restored");
    await installArchive(pyodide, await archive);
    mark("packages in");
    setEnvironment(pyodide, options.env || {});
    if (!pyodide.runPython("import sys\n'tutor.display' in sys.modules")) {
      throw new Error("the restored heap lacks the tutor's modules");
    }
    return pyodide;
  }

  async function start(pyodideLoad, options, archive, keep) {
    const packages = options.packages || [];
    const pyodide = await pyodideLoad({ ...options, packages: [], _makeSnapshot: keep });
    mark("runtime started");
    let fromArchive = true;
    try {
      await installArchive(pyodide, await archive);
    } catch (error) {
      console.warn(`the site's packages come one by one (${error.message})`);
      await pyodide.loadPackage(packages, { messageCallback: () => {} });
      fromArchive = false;
    }
    mark("packages in");
    const namespace = pyodide.toPy({});
    pyodide.runPython(LAZY_TERMINAL_EMBED, { globals: namespace });
    namespace.destroy();
    if (keep && fromArchive) {
      pyodide.runPython(SNAPSHOT_IMPORTS, { globals: pyodide.toPy({}) });
      mark("imports done");
      try {
        const heap = takeSnapshot(pyodide);
        keepSnapshot(heap).catch((error) => console.warn(`no snapshot kept: ${error.message}`));
      } catch (error) {
        console.warn(`no snapshot kept: ${error.message}`);
      }
    }
    return pyodide;
  }

  async function startRuntime(options) {
    mark("loader started");
    const indexURL = options.indexURL;
    const archive = fetchArchive(indexURL + SITE_PACKAGES_ARCHIVE);
    archive.catch(() => {}); // seen (and reported) below, once the runtime is up
    const kept = readSnapshot().catch(async (error) => {
      console.warn(`the runtime starts afresh (${error.message})`);
      await forgetSnapshot().catch(() => {});
      return null;
    });
    // Pyodide's own loader (it replaces this one as self.loadPyodide: the kernel already
    // holds this one)
    importScripts(indexURL + "pyodide.js");
    const pyodideLoad = scope.loadPyodide;
    const heap = await kept;
    if (heap) {
      try {
        return await restore(pyodideLoad, options, heap, archive);
      } catch (error) {
        console.warn(`the runtime starts afresh (its snapshot failed: ${error.message})`);
        await forgetSnapshot().catch(() => {});
      }
    }
    return start(pyodideLoad, options, archive, typeof indexedDB !== "undefined");
  }

  // The options as text that does not depend on the order of their keys.
  function canonical(value) {
    if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
    if (value && typeof value === "object") {
      const keys = Object.keys(value).sort();
      return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
    }
    return JSON.stringify(value);
  }

  // What the kernel calls: the early start (see the top) if there is one with these
  // options, else a start of its own.
  async function loadPyodide(options) {
    mark("kernel asked");
    const early = scope.tutorEarlyStart;
    if (early && !early.taken) {
      early.taken = true;
      if (early.options === canonical(options)) {
        try {
          const pyodide = await early.started;
          mark("early start taken");
          return pyodide;
        } catch (error) {
          console.warn(`the runtime starts again (its early start failed: ${error.message})`);
        }
      } else {
        console.warn("the runtime starts afresh (the early start had other options)");
      }
    }
    return startRuntime(options);
  }

  // In the worker page.js starts early (see the top): the start, then JupyterLite's worker
  // script, which from then on answers the page; then page.js is told the worker is ready
  // for the kernel's messages (if this fails first, page.js makes another worker for
  // them). Once only: the kernel imports this script again.
  function startEarly() {
    const name = typeof scope.name === "string" ? scope.name : "";
    if (!name.startsWith(EARLY_START) || scope.tutorEarlyStart) return;
    const { options, worker } = JSON.parse(name.slice(EARLY_START.length));
    const started = startRuntime(options);
    started.catch(() => {}); // the kernel's loadPyodide sees it, and starts again
    scope.tutorEarlyStart = { options: canonical(options), started, taken: false };
    importScripts(worker);
    scope.postMessage({ tutorEarlyStart: "ready" });
  }

  if (typeof module === "object" && module.exports) {
    module.exports = {
      SITE_PACKAGES_ARCHIVE,
      LAZY_TERMINAL_EMBED,
      SNAPSHOT_IMPORTS,
      installArchive,
      takeSnapshot,
      wholeSnapshot,
      setEnvironment,
      untar,
    };
  } else {
    scope.loadPyodide = loadPyodide;
    if (typeof WorkerGlobalScope !== "undefined" && scope instanceof WorkerGlobalScope) {
      startEarly();
    }
  }
})(typeof self !== "undefined" ? self : globalThis);
