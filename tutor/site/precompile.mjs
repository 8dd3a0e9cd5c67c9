// The build's run of the site's own Pyodide under Node.js (tutor/site/precompile.py says
// why): node precompile.mjs WHEELS_DIR OPTIONS_JSON. WHEELS_DIR is the site's
// static/pyodide (the runtime, the lock and the wheels); OPTIONS_JSON holds the
// loadPyodide options of the pages ("packages", "env"), the source of precompile.py, the
// arguments of its precompile_wheels and the site's loader (whose stand-in for IPython's
// terminal a page gets, so that what only the terminal imports is not compiled). Prints
// that function's summary.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";

const require = createRequire(import.meta.url);
const [folder, optionsFile] = process.argv.slice(2);
const options = JSON.parse(readFileSync(optionsFile, "utf-8"));
const { loadPyodide } = require(path.join(path.resolve(folder), "pyodide.js"));
const pyodide = await loadPyodide({
  indexURL: path.resolve(folder) + "/",
  packages: options.packages,
  env: options.env,
  stdout: (line) => console.error(line),
});
pyodide.runPython(require(options.loader).LAZY_TERMINAL_EMBED, { globals: pyodide.toPy({}) });
pyodide.FS.mkdirTree(options.mount);
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: path.resolve(folder) }, options.mount);
const namespace = pyodide.globals.get("dict")();
pyodide.runPython(options.source, { globals: namespace });
const run = namespace.get("precompile_wheels");
console.log(run(options.mount, options.site_packages, options.package, options.skip));
