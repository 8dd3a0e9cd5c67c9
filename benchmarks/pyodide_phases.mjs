// The static site's Python phase by phase, outside a browser: the site's own Pyodide under
// Node.js (the same WebAssembly on the same V8 as Chromium), as the kernel's worker runs
// it, with each phase's CPU seconds (this process's user + system) and wall seconds.
// Used by static_site_benchmark.py (part 4):
//   node pyodide_phases.mjs SITE OPTIONS_JSON [--wheels]
// OPTIONS_JSON: {"packages": [...], "env": {...}, "cells": ["code", ...]} (the pages'
// loadPyodide options and the notebook's code cells). Prints one JSON line per phase.
// The packages are installed as the site's loader (tutor-loader.js) does: its archive of
// them, unpacked into the file system, and IPython's terminal left to when it is used;
// with --wheels, as Pyodide's loadPackage would (the site before its loader); with
// --snapshot, as a second visit does: from the memory snapshot a first visit takes after
// the imports every page makes (made first, unmeasured), then the archive's files again.
// Not measured here: the page's own JavaScript and the drawing of the widgets (the
// browser's CPU in parts 1 and 3 has them), and the download (the files are local).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const [site, optionsJson, how] = process.argv.slice(2);
const options = JSON.parse(optionsJson);
const folder = path.resolve(site, "static", "pyodide") + "/";

let cpu = process.cpuUsage();
let wall = performance.now();
function phase(name) {
  const used = process.cpuUsage(cpu);
  const now = performance.now();
  console.log(JSON.stringify({ phase: name, cpu: (used.user + used.system) / 1e6, wall: (now - wall) / 1000 }));
  cpu = process.cpuUsage();
  wall = now;
}

const { loadPyodide } = require(folder + "pyodide.js");
const loader = require(folder + "tutor-loader.js");
const archive = () => readFileSync(folder + loader.SITE_PACKAGES_ARCHIVE);
let pyodide;
if (how === "--snapshot") {
  const first = await loadPyodide({ indexURL: folder, env: options.env, _makeSnapshot: true });
  await loader.installArchive(first, archive());
  first.runPython(loader.LAZY_TERMINAL_EMBED, { globals: first.toPy({}) });
  first.runPython(loader.SNAPSHOT_IMPORTS, { globals: first.toPy({}) });
  const heap = loader.takeSnapshot(first);
  cpu = process.cpuUsage();
  wall = performance.now();
  pyodide = await loadPyodide({ indexURL: folder, env: options.env, _loadSnapshot: heap });
  phase("runtime restore");
  await loader.installArchive(pyodide, archive());
  loader.setEnvironment(pyodide, options.env);
} else {
  pyodide = await loadPyodide({ indexURL: folder, env: options.env });
  phase("runtime start");
  if (how === "--wheels") {
    await pyodide.loadPackage(options.packages, { messageCallback: () => {} });
  } else {
    await loader.installArchive(pyodide, archive());
    pyodide.runPython(loader.LAZY_TERMINAL_EMBED, { globals: pyodide.toPy({}) });
  }
}
phase("packages install");
await pyodide.runPythonAsync("import pyodide_kernel");
phase("kernel import");
const kernel = pyodide.globals.get("pyodide_kernel").kernel_instance;
kernel.interpreter.send_comm = () => {}; // the widgets' messages to the page: no page here
const [first, ...rest] = options.cells;
const imports = first.split("\n").filter((line) => /^(from|import) /.test(line));
await pyodide.runPythonAsync(["import tutor.site.kernel", ...imports].join("\n"));
phase("tutor import");
for (const cell of [first, ...rest]) {
  const reply = (await kernel.run(cell)).toJs({ dict_converter: Object.fromEntries });
  if (reply.status !== "ok") throw new Error(`the notebook failed: ${JSON.stringify(reply)}`);
}
phase("notebook run");
