// The bidding coach's time per advice in Pyodide (Python compiled to WebAssembly, as the
// static course runs it in a browser), beside the same code in CPython on this machine.
//
//   cd <scratch folder> && npm install pyodide@0.27.6          (once; outside the repo)
//   node benchmarks/coach_pyodide.mjs <scratch folder>/node_modules/pyodide [runs]
//
// Node runs Pyodide's WebAssembly with the same V8 engine as Chromium, so the figure is
// what a learner's browser on this machine would take. The tutor's pure-Python modules
// (the rules and the play layer: nothing else is imported) are copied into Pyodide's
// file system; the Python side, coach_timing.py, is the one CPython runs too.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, dirname, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { execFileSync } from "node:child_process";
import { cpus, loadavg } from "node:os";

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const pyodideDir = process.argv[2] && resolve(process.argv[2]);
const runs = process.argv[3] ?? "5";
if (!pyodideDir) {
  console.error("usage: node benchmarks/coach_pyodide.mjs <path to node_modules/pyodide> [runs]");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);

function pythonFiles(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === "__pycache__" ? [] : pythonFiles(path);
    return name.endsWith(".py") ? [path] : [];
  });
}

console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(" ")}, ${cpus().length} cores`);
const started = performance.now();
const pyodide = await loadPyodide({ indexURL: pyodideDir });
console.log(`Pyodide ${pyodide.version} started in ${((performance.now() - started) / 1000).toFixed(1)} s`);
const files = [
  ...pythonFiles(join(root, "tutor", "rules")),
  ...pythonFiles(join(root, "tutor", "play")).filter((path) => !path.endsWith("fastsim.py") && !path.endsWith("session.py")),
  join(root, "tutor", "__init__.py"),
  join(root, "tutor", "errors.py"),
  join(here, "coach_timing.py"),
];
for (const path of files) {
  const target = "/home/pyodide/" + relative(root, path).replace("benchmarks/", "");
  pyodide.FS.mkdirTree(dirname(target));
  pyodide.FS.writeFile(target, readFileSync(path));
}
pyodide.runPython("import sys; sys.argv = ['coach_timing.py', '--runs', '" + runs + "']");
pyodide.setStdout({ batched: (line) => console.log(`  pyodide | ${line}`) });
await pyodide.runPythonAsync("import runpy; runpy.run_path('/home/pyodide/coach_timing.py', run_name='__main__')");
// CPU time of this process around the same advices: what an idle machine would take.
const advise = pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide')\nfrom coach_timing import SIZES, advise\nadvise");
const sizes = pyodide.runPython("SIZES").toJs();
for (const [players, cards] of sizes) {
  const used = [];
  for (let run = 0; run < Number(runs); run++) {
    const before = process.cpuUsage();
    advise(players, cards, run);
    const after = process.cpuUsage(before);
    used.push((after.user + after.system) / 1000);
  }
  used.sort((a, b) => a - b);
  console.log(`  pyodide | ${players} players x ${String(cards).padStart(2)} cards: CPU ${used[Math.floor(used.length / 2)].toFixed(1)} ms an advice (median)`);
}

const python = join(root, ".venv", "bin", "python");
const cpython = execFileSync(python, [join(here, "coach_timing.py"), "--runs", runs], { encoding: "utf8" });
for (const line of cpython.trimEnd().split("\n")) console.log(`  cpython | ${line}`);
console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
