"""Build the course as a static site: every notebook a Voici page, run by a Pyodide kernel in
the learner's browser. Any static file server serves the folder; no page needs a server.

What goes in, all already on this machine (the build makes no network request):

- the tutor as installed: the package, its lessons and notebooks, the app's page template
  (found through :mod:`tutor.resources`, the same files the Voila app serves);
- the site tools at the pins of the ``site`` extra (pyproject.toml), checked first;
- Node.js, which runs the site's Pyodide once to compile the pages' Python
  (:mod:`tutor.site.precompile`);
- the Pyodide runtime (npm ``pyodide``, ``pyodide/package-lock.json`` beside this file) and
  the browser's pure-Python wheels (``browser-requirements.txt``, every hash pinned), which
  ``scripts/setup_site.sh`` fetched once into :func:`runtime_dir`.

Each step has its module: the inputs checked (:mod:`tutor.site.build_inputs`), the
browser's Python made (:mod:`tutor.site.build_wheels`), the pages rendered
(:mod:`tutor.site.build_pages`); here they run in order (:func:`build_site`), with what
needs them all: the pages' Python compiled ahead (:func:`precompile`) and the files a
server may send compressed. Why each step is as it is (the versions that work, and every
workaround) is said where it is done; the whole story of how they were found is issue
13's.
"""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import tutor
from tutor.resources import notebooks_dir
from tutor.site.build_inputs import (
    HERE,
    PYODIDE_RUNTIME,
    SiteBuildError,
    browser_wheels,
    check_site_tools,
    pyodide_folder,
    runtime_dir,
)
from tutor.site.build_pages import (
    KERNEL_EXTENSION,
    KERNEL_PLUGIN,
    page_config,
    render_pages,
)
from tutor.site.build_wheels import (
    NOT_IN_BROWSER_WHEEL,
    NOT_SHIPPED_WHEEL,
    SITE_PACKAGES,
    SITE_PACKAGES_ARCHIVE,
    pyodide_lock,
    site_packages_archive,
    stamp_loader,
    tutor_wheel,
    write_wheel,
)

# Files a web server may send compressed: the build writes a gzip copy beside each
# (``name.gz``), which a server that serves such copies (nginx ``gzip_static on``, Caddy
# ``file_server { precompressed gzip }``) sends to a browser that accepts gzip, with no work
# per request: a first visit then downloads about 11 MB instead of 24 (the runtime's
# WebAssembly, 10 MB, is 3 MB in gzip). The wheels and the standard library are zip files,
# compressed already; a copy is kept only if it saves GZIP_MIN_SAVING of the file.
GZIP_SUFFIXES = (".js", ".mjs", ".wasm", ".css", ".json", ".html", ".svg", ".map")
GZIP_MIN_SIZE = 1024
GZIP_MIN_SAVING = 0.1

# What the site keeps of JupyterLite's output: Voici's pages and bundle, the runtime and the
# wheels, the kernel's and anywidget's extensions. Left out, as no page requests them:
# build/ (JupyterLite's own apps), files/ and api/ (what a service worker would mount as
# /drive; the pages run without one, see page.js), service-worker.js, the app loader,
# icons, manifest, doc/ and the config files (every page carries its config).
KEEP = {"voici", "static", "extensions"}

FRONT_DOOR = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:;base64,=">
<title>Wizard rules tutor</title>
<script>window.location.replace("voici/render/index.html" + window.location.search);</script>
</head><body><p><a href="voici/render/index.html">Wizard rules tutor</a></p></body></html>
"""


@dataclass(frozen=True)
class SiteReport:
    """What was built."""

    folder: Path
    files: int
    size: int
    pages: int


def write_gzip_copies(folder: Path) -> int:
    """A ``.gz`` copy beside each file of ``folder`` worth sending compressed (GZIP_SUFFIXES),
    made reproducibly (no name or date inside); returns how many."""
    written = 0
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.suffix not in GZIP_SUFFIXES:
            continue
        data = path.read_bytes()
        if len(data) < GZIP_MIN_SIZE:
            continue
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) <= len(data) * (1 - GZIP_MIN_SAVING):
            path.with_name(path.name + ".gz").write_bytes(packed)
            written += 1
    return written


def precompile(wheels_dir: Path, work: Path) -> str:
    """Bytecode into the site's wheels for what its pages import, compiled by the site's
    Pyodide under Node.js (tutor/site/precompile.py says why); returns its summary."""
    node = shutil.which("node")
    if node is None:
        raise SiteBuildError(
            "node is missing: the build compiles the pages' Python with the site's Pyodide "
            "under Node.js. Install Node.js (Debian: sudo apt-get install nodejs)."
        )
    options = page_config()["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    options_file = work / "precompile.json"
    options_file.write_text(
        json.dumps(
            {
                **options["loadPyodideOptions"],
                "source": (HERE / "precompile.py").read_text(encoding="utf-8"),
                "loader": str(HERE / "loader.js"),
                "mount": "/site-wheels",
                "site_packages": SITE_PACKAGES,
                "package": tutor.__name__,
                "skip": [
                    name.removesuffix(".py").replace("/", ".")
                    for name in NOT_IN_BROWSER_WHEEL
                    if name.endswith(".py") or "." not in name
                ],
            }
        )
    )
    result = subprocess.run(
        [node, str(HERE / "precompile.mjs"), str(wheels_dir), str(options_file)],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SiteBuildError(
            "compiling the pages' Python in Pyodide failed:\n"
            + (result.stdout + result.stderr)[-3000:]
        )
    return result.stdout.strip()


def build_site(
    out: Path, *, runtime: Path | None = None, extra_notebooks: Iterable[Path] = ()
) -> SiteReport:
    """Build the static course into ``out`` (replaced if it exists); offline.

    ``extra_notebooks`` are rendered beside the course's pages, not listed on its index."""
    check_site_tools()
    runtime = runtime_dir() if runtime is None else runtime
    pyodide = pyodide_folder(runtime)
    downloaded = browser_wheels(runtime / "wheels")
    course = sorted(notebooks_dir().glob("*.ipynb"))
    out = out.resolve()
    if out.exists() and any(out.iterdir()) and not (out / "voici" / "render").is_dir():
        raise SiteBuildError(
            f"{out} is a folder with other files in it: give a new folder or an earlier site "
            "(it is replaced)"
        )
    with tempfile.TemporaryDirectory(prefix="tutor-site-") as work_name:
        work = Path(work_name)
        lite = work / "lite"
        wheels_dir = lite / "static" / "pyodide"
        wheels_dir.mkdir(parents=True)

        # 1. the runtime and the wheels, with a lock that names exactly them
        for name in PYODIDE_RUNTIME:
            shutil.copy2(pyodide / name, wheels_dir / name)
        wheels = [Path(shutil.copy2(w, wheels_dir / w.name)) for w in downloaded]
        kernel_extension = Path(sys.prefix) / "share/jupyter/labextensions" / KERNEL_EXTENSION
        for wheel in sorted((kernel_extension / "static" / "pypi").glob("*.whl")):
            if not wheel.name.startswith("widgetsnbextension-3"):  # ipywidgets 7's stub
                wheels.append(Path(shutil.copy2(wheel, wheels_dir / wheel.name)))
        wheels.append(tutor_wheel(wheels_dir, course))
        wheels.append(write_wheel(wheels_dir, *NOT_SHIPPED_WHEEL, {}))
        base_lock = json.loads((pyodide / "pyodide-lock.json").read_text())
        lock = pyodide_lock(base_lock, wheels)
        (wheels_dir / "pyodide-lock.json").write_text(json.dumps(lock, indent=1))
        precompile(wheels_dir, work)
        lock = pyodide_lock(base_lock, wheels)  # the wheels' new hashes
        (wheels_dir / "pyodide-lock.json").write_text(json.dumps(lock, indent=1))
        site_packages_archive(wheels_dir, lock, wheels_dir / SITE_PACKAGES_ARCHIVE)
        stamp_loader(wheels_dir)

        # 2. Voici renders the pages
        shared = render_pages([*course, *extra_notebooks], out, wheels, lite)

    # 3. the front door and the files every page links; out with what no page requests
    for path in sorted(out.iterdir()):
        if path.name not in KEEP:
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    (out / "index.html").write_text(FRONT_DOOR)
    for name, text in shared.files.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text, encoding="utf-8")
    write_gzip_copies(out)
    files = [p for p in out.rglob("*") if p.is_file()]
    return SiteReport(
        folder=out,
        files=len(files),
        size=sum(p.stat().st_size for p in files),
        pages=len(list((out / "voici" / "render").glob("*.html"))),
    )
