// The static site's Python phase by phase, outside a browser: the site's own Pyodide under
// Node.js (the same WebAssembly on the same V8 as Chromium), as the kernel's worker runs
// it, with each phase's CPU seconds (this process's user + system) and wall seconds.
// Used by static_site_benchmark.py (part 4):
//   node pyodide_phases.mjs SITE OPTIONS_JSON
// OPTIONS_JSON: {"packages": [...], "env": {...}, "cells": ["code", ...]} (the pages'
// loadPyodide options and the notebook's code cells). Prints one JSON line per phase.
// Not measured here: the page's own JavaScript and the drawing of the widgets (the
// browser's CPU in parts 1 and 3 has them), and the download (the files are local).
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const [site, optionsJson] = process.argv.slice(2);
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
const pyodide = await loadPyodide({ indexURL: folder, env: options.env });
phase("runtime start");
await pyodide.loadPackage(options.packages, { messageCallback: () => {} });
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
