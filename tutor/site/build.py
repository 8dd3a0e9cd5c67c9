"""Build the course as a static site: every notebook a Voici page, run by a Pyodide kernel in
the learner's browser. Any static file server serves the folder; no page needs a server.

What goes in, all already on this machine (the build makes no network request):

- the tutor as installed: the package, its lessons and notebooks, the app's page template
  (found through :mod:`tutor.resources`, the same files the Voila app serves);
- the site tools at the pins of the ``site`` extra (pyproject.toml), checked here;
- Node.js, which runs the site's Pyodide once to compile the pages' Python
  (:mod:`tutor.site.precompile`);
- the Pyodide runtime (npm ``pyodide``, ``pyodide/package-lock.json`` beside this file) and
  the browser's pure-Python wheels (``browser-requirements.txt``, every hash pinned), which
  ``scripts/setup_site.sh`` fetched once into :func:`runtime_dir`.

Why each step is as it is (the versions that work, and every workaround) is said where it
is done; the whole story of how they were found is issue 13's.
"""

from __future__ import annotations

import base64
import csv
import email.message
import email.parser
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, cast

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import tutor
from tutor.display.context import FRONTEND_VARIABLE, Frontend
from tutor.resources import builtin_lessons_dir, jupyter_data_dir, notebooks_dir
from tutor.site.precompile import STDLIB_ZIP
from tutor.teaching.progress import PROGRESS_STORE_VARIABLE, StoreSetting

HERE = Path(__file__).resolve().parent
DISTRIBUTION = "wizard-tutor"
SITE_EXTRA = "site"
BROWSER_REQUIREMENTS = HERE / "browser-requirements.txt"
PYODIDE_PACKAGE = HERE / "pyodide" / "package.json"
RUNTIME_VARIABLE = "TUTOR_SITE_RUNTIME"
"""Environment variable naming another folder of fetched runtime files (:func:`runtime_dir`)."""

PYODIDE_PYTHON = "3.12"  # the CPython that npm pyodide 0.27.6 is
SITE_PACKAGES = f"/lib/python{PYODIDE_PYTHON}/site-packages"

# The kernel's loader of Pyodide (loader.js says why), beside the runtime: the page config
# names it (PYODIDE_LOADER_SETTING, which page.js makes the kernel's pyodideUrl). It
# installs the pages' packages from SITE_PACKAGES_ARCHIVE: the files of their wheels as
# Pyodide would unpack them, in one gzipped tar.
LOADER = "tutor-loader.js"
PYODIDE_LOADER_SETTING = "tutorPyodideLoader"
SITE_PACKAGES_ARCHIVE = "site-packages.tar.gz"
UNSTAMPED_BUILD = "unbuilt"  # loader.js's SITE_BUILD until the build writes its own

# The runtime files the kernel loads (the npm package also has types, a console page and
# source maps, which no page asks for).
PYODIDE_RUNTIME = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", STDLIB_ZIP)

# The Pyodide kernel 0.6.1 installs these at start unless they were preloaded, and fails if
# it cannot. None is on PyPI for Pyodide (ssl and sqlite3 are CPython modules Pyodide builds,
# on its CDN only) or used by a page (jedi: code completion, which Voici never asks for;
# 4.7 MB). So the lock names each with one empty wheel that installs no module, and
# PRELOAD lists them, so the kernel skips them: `import ssl` fails, as it would anyway.
# (IPython 9.15 imports sqlite3 inside try/except for its history, which is off here.)
NOT_SHIPPED = {
    "ssl": "CPython module built by Pyodide, not on PyPI",
    "sqlite3": "CPython module built by Pyodide, not on PyPI",
    "jedi": "code completion only; IPython imports it lazily",
}
NOT_SHIPPED_WHEEL = ("not-shipped", "0")

# Downloaded while Pyodide starts (in parallel, from the lock) instead of one by one through
# piplite once it has started. The kernel skips its own install of every name it finds here,
# by these exact spellings.
PRELOAD = (
    *NOT_SHIPPED,
    "micropip",
    "piplite",
    "pyodide_kernel",
    "ipykernel",
    "comm",
    "ipython",
    "ipywidgets",
    DISTRIBUTION,
)

# Requirements of the shipped wheels that the browser does not get.
NOT_IN_BROWSER = {
    "jupyterlab-widgets": "frontend only (Voici bundles the widget manager)",
    "jupyterlab": "the server app's",
    "voila": "the server app's",
    "segno": "the server app's (the live room's QR code, classroom mode)",
    **NOT_SHIPPED,
}

# The parts of the tutor package a page never imports (the server app, the hub, the live
# room's server, the NumPy simulator of the benchmarks, this builder and its files): left
# out of the browser's wheel.
NOT_IN_BROWSER_WHEEL = (
    "app",
    "hub",
    "web",
    "play/fastsim.py",
    "data",
    "cli.py",
    "__main__.py",
    "site/build.py",
    "site/fetch.py",
    "site/precompile.py",
    "site/precompile.mjs",
    "site/page.js",
    "site/loader.js",
    "site/pyodide",
    "site/browser-requirements.txt",
)

KERNEL_EXTENSION = "@jupyterlite/pyodide-kernel-extension"
KERNEL_PLUGIN = f"{KERNEL_EXTENSION}:kernel"

# The kernel's worker script, which page.js starts with the page (loader.js says why): the
# page config names it, found in the kernel's extension, whose file names change with its
# version. Its PyodideKernel (0.6.1, minified) makes its worker so: the first chunk on a
# cross-origin isolated page, the second (comlink) on the others, which are the site's.
KERNEL_WORKER_SETTING = "tutorKernelWorker"
_KERNEL_WORKERS = re.compile(
    r"crossOriginIsolated\?new Worker\(new URL\(\w+\.p\+\w+\.u\((\d+)\),\w+\.b\)[^)]*\)"
    r":new Worker\(new URL\(\w+\.p\+\w+\.u\((\d+)\),"
)
SITE_TEMPLATE = "tutor-site"
THEME = "light"

# The stylesheets of every page (JupyterLab's, in the pages' theme, then the tutor's), in
# the order the page template names them. Voici, like nbconvert, writes each file that
# `resources.include_css` names into the page: 270 KB, the same on every page (JupyterLab's
# index.css alone is 240 KB). The site's template links this one file of the site instead,
# which the browser fetches once and keeps for every page.
PAGE_STYLESHEETS = (
    "static/index.css",
    f"static/theme-{THEME}.css",
    "static/tutor.css",
    "static/tutor-page.css",
)
SHARED_STYLESHEET = "static/tutor-site/page.css"
"""Where the pages' stylesheets are in the site (relative to its root)."""

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

FOLDER_REDIRECT = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:;base64,=">
<script>window.location.replace("../render/index.html" + window.location.search);</script>
</head><body><p><a href="../render/index.html">index</a></p></body></html>
"""


class SiteBuildError(RuntimeError):
    """A build input is missing or not at its pin; the message says what to run."""


@dataclass(frozen=True)
class SiteReport:
    """What was built."""

    folder: Path
    files: int
    size: int
    pages: int


def runtime_dir() -> Path:
    """Where ``scripts/setup_site.sh`` put the Pyodide runtime (``node_modules/pyodide``)
    and the browser's wheels (``wheels/``): ``$TUTOR_SITE_RUNTIME``, else inside the
    Python environment that has the site tools (a new environment fetches them anew)."""
    override = os.environ.get(RUNTIME_VARIABLE)
    if override:
        return Path(override)
    return Path(sys.prefix) / "share" / "wizard-tutor-site"


# -- checks of the inputs ------------------------------------------------------------------


def check_site_tools() -> None:
    """The site tools are installed at the pins of the ``site`` extra."""
    wrong = []
    for text in metadata.requires(DISTRIBUTION) or []:
        requirement = Requirement(text)
        if requirement.marker is None or not requirement.marker.evaluate({"extra": SITE_EXTRA}):
            continue
        try:
            found = metadata.version(requirement.name)
        except metadata.PackageNotFoundError:
            found = None
        if found is None or found not in requirement.specifier:
            wrong.append(f"{requirement} (installed: {found or 'none'})")
    if wrong:
        raise SiteBuildError(
            "the site tools are not installed at their pins: "
            + ", ".join(wrong)
            + f"; install them with: pip install '{DISTRIBUTION}[{SITE_EXTRA}]'"
        )


def _pinned_wheels() -> list[tuple[str, str, set[str]]]:
    """(name, version, allowed sha256 hashes) of every line of browser-requirements.txt."""
    pins = []
    for line in BROWSER_REQUIREMENTS.read_text().replace("\\\n", " ").splitlines():
        words = line.split("#")[0].split()
        if words:
            name, version = words[0].split("==")
            pins.append((name, version, {w.removeprefix("--hash=sha256:") for w in words[1:]}))
    return pins


def browser_wheels(wheels: Path) -> list[Path]:
    """The wheels of browser-requirements.txt in ``wheels``, each with a pinned hash."""
    found, problems = [], []
    for name, version, hashes in _pinned_wheels():
        stem = f"{canonicalize_name(name).replace('-', '_')}-{version}-"
        match = [w for w in sorted(wheels.glob("*.whl")) if w.name.lower().startswith(stem)]
        if not match:
            problems.append(f"{name}=={version} is missing")
        elif hashlib.sha256(match[0].read_bytes()).hexdigest() not in hashes:
            problems.append(f"{match[0].name} has not the hash browser-requirements.txt pins")
        else:
            found.append(match[0])
    if problems:
        raise SiteBuildError(f"{wheels}: {'; '.join(problems)}. {_FETCH_HINT}")
    return found


_FETCH_HINT = (
    "Fetch the runtime once with `bash scripts/setup_site.sh` in a checkout of the tutor "
    f"(or name a folder of fetched files with ${RUNTIME_VARIABLE})."
)


def pyodide_folder(runtime: Path) -> Path:
    """The npm package ``pyodide`` in ``runtime``, at the version package.json pins."""
    wanted = json.loads(PYODIDE_PACKAGE.read_text())["dependencies"]["pyodide"]
    folder = runtime / "node_modules" / "pyodide"
    try:
        version = json.loads((folder / "package.json").read_text()).get("version")
    except (OSError, ValueError):
        version = None
    if version != wanted:
        raise SiteBuildError(
            f"{folder}: no Pyodide {wanted} there (found: {version or 'nothing'}). {_FETCH_HINT}"
        )
    return folder


# -- wheels ----------------------------------------------------------------------------------


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode()


def write_wheel(
    folder: Path, name: str, version: str, files: dict[str, bytes], requires: Iterable[str] = ()
) -> Path:
    """A pure-Python wheel of ``files`` (archive name -> bytes), made reproducibly (fixed
    dates, sorted entries): the same tutor makes the same file, with the same hash."""
    info = f"{name.replace('-', '_')}-{version}.dist-info"
    meta = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    meta += [f"Requires-Dist: {r}" for r in requires]
    files = dict(files)
    files[f"{info}/METADATA"] = ("\n".join(meta) + "\n").encode()
    files[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: tutor.site.build\nRoot-Is-Purelib: true\n"
        b"Tag: py3-none-any\n"
    )
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for arcname in sorted(files):
        writer.writerow([arcname, _record_hash(files[arcname]), len(files[arcname])])
    writer.writerow([f"{info}/RECORD", "", ""])
    files[f"{info}/RECORD"] = record.getvalue().encode()
    path = folder / f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for arcname in sorted(files):
            entry = zipfile.ZipInfo(arcname, date_time=(2020, 2, 2, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, files[arcname])
    return path


def _files_under(folder: Path, prefix: str) -> dict[str, bytes]:
    return {
        f"{prefix}/{path.relative_to(folder).as_posix()}": path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
        and "__pycache__" not in path.parts
        and ".ipynb_checkpoints" not in path.parts
    }


def _without_outputs(notebook: Path) -> bytes:
    """The notebook as the browser's Python gets it: the course index reads the titles."""
    content = json.loads(notebook.read_text(encoding="utf-8"))
    for cell in content.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    return json.dumps(content, ensure_ascii=False, indent=1).encode()


def _dependencies() -> list[str]:
    """The tutor's dependencies: its source tree's ``pyproject.toml`` when the package is
    one (an editable install's metadata is as old as its last install, and a worktree's
    tutor has none of its own), else the installed distribution's."""
    pyproject = Path(tutor.__file__).resolve().parents[1] / "pyproject.toml"
    if pyproject.is_file():
        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        if project.get("name") == DISTRIBUTION:
            return list(project.get("dependencies", []))
    return metadata.requires(DISTRIBUTION) or []


def tutor_wheel(folder: Path, notebooks: list[Path]) -> Path:
    """The tutor as the browser gets it: the package without what no page imports, and the
    lessons and notebooks where an installed wheel keeps them (tutor/data/, found by
    :mod:`tutor.resources`)."""
    package = Path(tutor.__file__).resolve().parent
    files = {
        name: data
        for name, data in _files_under(package, "tutor").items()
        if not name.removeprefix("tutor/").startswith(NOT_IN_BROWSER_WHEEL)
    }
    files.update(_files_under(builtin_lessons_dir(), "tutor/data/lessons"))
    for notebook in notebooks:
        files[f"tutor/data/notebooks/{notebook.name}"] = _without_outputs(notebook)
    requires = [text for text in _dependencies() if Requirement(text).marker is None]
    return write_wheel(folder, DISTRIBUTION, metadata.version(DISTRIBUTION), files, requires)


def _wheel_metadata(path: Path) -> tuple[email.message.Message, list[str]]:
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = email.parser.Parser().parsestr(archive.read(meta_name).decode())
    tops = set()
    for name in names:
        first = name.split("/")[0]
        if first.endswith((".dist-info", ".data")):
            continue
        if "/" in name:
            tops.add(first)
        elif name.endswith(".py"):
            tops.add(name[:-3])
    return meta, sorted(top for top in tops if top.isidentifier())


def pyodide_lock(base_lock: dict[str, Any], wheels: list[Path]) -> dict[str, Any]:
    """A pyodide-lock.json for exactly ``wheels``: the hash of each file (Pyodide checks
    it), the modules it provides (``import tutor`` finds the tutor's wheel) and its
    dependencies from its metadata, evaluated for Pyodide (emscripten, CPython 3.12).
    A dependency with no wheel here must be one of NOT_IN_BROWSER."""
    env: dict[str, str] = {**cast("dict[str, str]", default_environment())}
    env.update(
        sys_platform="emscripten",
        platform_system="Emscripten",
        platform_machine="wasm32",
        python_version=PYODIDE_PYTHON,
        python_full_version=base_lock["info"]["python"],
        implementation_name="cpython",
        os_name="posix",
        extra="",
    )
    entries: dict[str, dict[str, Any]] = {}
    requires: dict[str, list[str]] = {}
    for wheel in wheels:
        meta, imports = _wheel_metadata(wheel)
        key = str(canonicalize_name(meta["Name"]))
        entries[key] = {
            "name": meta["Name"],
            "version": meta["Version"],
            "file_name": wheel.name,
            "install_dir": "site",
            "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
            "package_type": "package",
            "imports": imports,
            "depends": [],
            "unvendored_tests": False,
        }
        requires[key] = meta.get_all("Requires-Dist") or []
    placeholder = entries.pop(NOT_SHIPPED_WHEEL[0])
    del requires[NOT_SHIPPED_WHEEL[0]]
    for key in NOT_SHIPPED:
        entries[key] = {**placeholder, "name": key}
    missing = []
    for key, texts in requires.items():
        for text in texts:
            requirement = Requirement(text)
            if requirement.marker is not None and not requirement.marker.evaluate(env):
                continue
            dependency = canonicalize_name(requirement.name)
            if dependency in entries and dependency not in NOT_SHIPPED:
                entries[key]["depends"].append(dependency)
            elif dependency not in NOT_IN_BROWSER:
                missing.append(f"{key} needs {text}")
    if missing:
        raise SiteBuildError("requirements with no wheel in the site: " + "; ".join(missing))
    return {"info": base_lock["info"], "packages": dict(sorted(entries.items()))}


def site_packages_archive(folder: Path, lock: dict[str, Any], archive: Path) -> int:
    """The files of the wheels the pages load (PRELOAD and what they depend on, in
    ``lock``), where Pyodide's loadPackage would unpack them (SITE_PACKAGES), in one gzipped
    ustar archive that loader.js writes into the browser's file system; made reproducibly
    (sorted, no dates, no owners). Returns how many files it holds."""
    packages = lock["packages"]
    wanted: set[str] = set()
    todo = [str(canonicalize_name(name)) for name in PRELOAD if name not in NOT_SHIPPED]
    while todo:
        key = todo.pop()
        if key not in wanted:
            wanted.add(key)
            todo.extend(packages[key]["depends"])
    files: dict[str, tuple[bytes, str]] = {}
    for key in sorted(wanted):
        wheel = folder / packages[key]["file_name"]
        with zipfile.ZipFile(wheel) as source:
            for info in source.infolist():
                if info.is_dir():
                    continue
                path = f"{SITE_PACKAGES.lstrip('/')}/{info.filename}"
                if path in files:
                    raise SiteBuildError(f"{path} is in both {files[path][1]} and {wheel.name}")
                files[path] = (source.read(info), wheel.name)
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for path in sorted(files):
            entry = tarfile.TarInfo(path)
            entry.size = len(files[path][0])
            entry.mode = 0o644
            tar.addfile(entry, io.BytesIO(files[path][0]))
    archive.write_bytes(gzip.compress(packed.getvalue(), compresslevel=9, mtime=0))
    return len(files)


def stamp_loader(folder: Path) -> str:
    """Write the site's loader (loader.js) into ``folder`` with the build's name in it:
    a hash of what a page's Python is made of there (the runtime, its lock, the packages'
    archive, the loader itself), so that a browser never restores the memory snapshot of
    another build (loader.js, SITE_BUILD). Returns that name."""
    source = (HERE / "loader.js").read_text(encoding="utf-8")
    digest = hashlib.sha256(source.encode())
    for name in (*PYODIDE_RUNTIME, "pyodide-lock.json", SITE_PACKAGES_ARCHIVE):
        digest.update((folder / name).read_bytes())
    build_name = digest.hexdigest()[:32]
    unstamped = f'const SITE_BUILD = "{UNSTAMPED_BUILD}";'
    if source.count(unstamped) != 1:
        raise SiteBuildError(
            f"loader.js must hold {unstamped} once: the build writes its name there"
        )
    stamped = source.replace(unstamped, f'const SITE_BUILD = "{build_name}";')
    (folder / LOADER).write_text(stamped, encoding="utf-8")
    return build_name


# -- the page --------------------------------------------------------------------------------


def _template_paths(jupyter_path: list[str]) -> list[str]:
    """Where Voici looks for the site template's files, in its order, when ``jupyter_path``
    is its JUPYTER_PATH (the template's folders, then the ones it extends: tutor, lab)."""
    from jupyter_core.paths import jupyter_path as standard_paths
    from voila.paths import collect_template_paths

    own = os.environ.get("JUPYTER_PATH", "").split(os.pathsep)
    roots = [*jupyter_path, *(p for p in standard_paths() if p not in own)]
    return cast(
        "list[str]",
        collect_template_paths(["voila", "nbconvert"], SITE_TEMPLATE, prune=True, root_dirs=roots),
    )


def page_stylesheet(template_paths: list[str], site_templates: Path) -> str:
    """PAGE_STYLESHEETS in one, each found as ``resources.include_css`` would find it (the
    first of ``template_paths`` that has it) if the site's template, in ``site_templates``,
    did not have its empty copy."""
    folders = [Path(p) for p in template_paths if not Path(p).is_relative_to(site_templates)]
    parts = []
    for name in PAGE_STYLESHEETS:
        found = next((folder / name for folder in folders if (folder / name).is_file()), None)
        if found is None:
            raise SiteBuildError(f"the page stylesheet {name} is in none of {template_paths}")
        parts.append(f"/* {name} */\n{found.read_text(encoding='utf-8')}\n")
    return "".join(parts)


def write_template(folder: Path) -> Path:
    """The ``tutor-site`` page template: the app's (keyboard, presenter, no CDN links) with
    the site's page script, into ``folder`` (put on JUPYTER_PATH). Returns ``folder``.

    Its pages link the site's one stylesheet (SHARED_STYLESHEET, which the build writes)
    where the app's template would write PAGE_STYLESHEETS into each page: the template's
    own copies of those files, found first by ``include_css``, are empty."""
    from tutor.display.page_words import page_words

    root = folder / "nbconvert" / "templates" / SITE_TEMPLATE
    root.mkdir(parents=True)
    (root / "conf.json").write_text(
        json.dumps({"base_template": "tutor", "mimetypes": {"text/html": True}})
    )
    for name in PAGE_STYLESHEETS:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(f"/* linked: the site's {SHARED_STYLESHEET} */\n")
    # Voici does not pass VoilaConfiguration.resources to its exporter, so the words the
    # app's template reads from `resources.tutor` are written into the page here.
    words = json.dumps(page_words({}), ensure_ascii=False).replace("</", "<\\/")
    page_script = (HERE / "page.js").read_text()
    (root / "index.html.j2").write_text(
        "{#- The tutor's page (tutor/app/jupyter/nbconvert/templates/tutor) under Voici.\n"
        "    Its body_footer is the app's without static/tutor-page.js, which watches a\n"
        "    server's kernel (there is none: a page that takes long to start Python in a\n"
        "    slow browser must not be reloaded); with the presenter's words, which Voila\n"
        "    gets from tutor/display/page_words.py, and the site's page script (page.js) and\n"
        "    the widgets' recovery (tutor-widgets.js), which must run before Voici's.\n"
        "    Its pages link the site's stylesheet instead of carrying it (write_template).\n"
        "    -#}\n"
        "{%- extends 'tutor/index.html.j2' -%}\n"
        "{%- block notebook_css -%}\n"
        f'<link rel="stylesheet" type="text/css" href="{{{{ base_url }}}}{SHARED_STYLESHEET}">\n'
        "{{ super() }}\n"
        "{%- endblock notebook_css -%}\n"
        "{%- block body_footer -%}\n"
        f'<script id="tutor-present-words" type="application/json">{{% raw %}}{words}'
        "{% endraw %}</script>\n"
        f"<script>{{% raw %}}\n{page_script}{{% endraw %}}</script>\n"
        '{{ resources.include_js("static/tutor-widgets.js") }}\n'
        "{{ super.super() }}\n"
        '{{ resources.include_js("static/tutor.js") }}\n'
        "{%- endblock body_footer -%}\n"
    )
    (root / "tree-lab.html").write_text(FOLDER_REDIRECT)
    (root / "tree.html").write_text(FOLDER_REDIRECT)
    return folder


def kernel_worker_script(extension: Path) -> str | None:
    """Where the site has the kernel's worker script of a page that is not cross-origin
    isolated (relative to its root), found in the kernel's ``extension``; None if it is not
    found as expected (then no page starts its kernel early: page.js)."""
    static = extension / "static"
    chunks = {
        match.group(2)
        for script in sorted(static.glob("*.js"))
        for match in _KERNEL_WORKERS.finditer(script.read_text(encoding="utf-8", errors="replace"))
    }
    if len(chunks) != 1:
        return None
    (chunk,) = chunks
    files = [p.name for p in static.iterdir() if re.fullmatch(rf"{chunk}\.[0-9a-f]+\.js", p.name)]
    if len(files) != 1:
        return None
    return f"./extensions/{KERNEL_EXTENSION}/static/{files[0]}"


def page_config() -> dict[str, Any]:
    """The page config every page carries (jupyter-lite.json); page.js completes it and,
    when it names the kernel's worker script (:func:`kernel_worker_script`), starts the
    kernel with the page."""
    kernel_worker = kernel_worker_script(
        Path(sys.prefix) / "share/jupyter/labextensions" / KERNEL_EXTENSION
    )
    early_start = {KERNEL_WORKER_SETTING: kernel_worker} if kernel_worker else {}
    return {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "Wizard rules tutor",
            **early_start,
            # The kernel's pyodideUrl, which page.js puts in place: JupyterLite's build
            # sets that to Pyodide's own pyodide.js whatever the config says.
            PYODIDE_LOADER_SETTING: f"./static/pyodide/{LOADER}",
            "litePluginSettings": {
                KERNEL_PLUGIN: {
                    "pyodideUrl": "./static/pyodide/pyodide.js",
                    # every wheel is in the site: never ask PyPI
                    "disablePyPIFallback": True,
                    "loadPyodideOptions": {
                        "packages": list(PRELOAD),
                        "env": {
                            "PYTHONSTARTUP": f"{SITE_PACKAGES}/tutor/site/startup.py",
                            # the pages are an app, as under Voila: links keep ?lang=,
                            # presenter mode (tutor/display/context.py); progress is kept
                            # in the browser (tutor/teaching/progress.py)
                            FRONTEND_VARIABLE: Frontend.APP.value,
                            PROGRESS_STORE_VARIABLE: StoreSetting.BROWSER.value,
                        },
                    },
                }
            },
        },
    }


def render_pages(
    notebooks: Iterable[Path], out: Path, wheels: Iterable[Path], lite: Path | None = None
) -> str:
    """Voici (JupyterLite) renders ``notebooks`` into ``out`` (replaced), offline, with the
    site's template (:func:`write_template`) and page config (:func:`page_config`, written
    into ``lite``, JupyterLite's folder that holds the runtime the build put there; without
    one, the pages alone, which run beside a site built before: the widget-recovery test's).
    anywidget's labextension comes from its wheel among ``wheels``. Returns the pages'
    stylesheet, for SHARED_STYLESHEET."""
    # JupyterLite's settings go in the work folder's jupyter_lite_config.json;
    # JUPYTER_CONFIG_DIR is an empty folder, so no ~/.jupyter can change the build.
    with tempfile.TemporaryDirectory(prefix="tutor-pages-") as work_name:
        work = Path(work_name)
        if lite is None:
            lite = work / "lite"
            lite.mkdir()
        (lite / "jupyter-lite.json").write_text(json.dumps(page_config(), indent=1))
        contents = work / "contents"
        contents.mkdir()
        for notebook in notebooks:
            shutil.copy2(notebook, contents / notebook.name)
        templates = write_template(work / "templates")
        kernel_extension = Path(sys.prefix) / "share/jupyter/labextensions" / KERNEL_EXTENSION
        anywidget = [str(w) for w in wheels if w.name.startswith("anywidget-")]
        (work / "jupyter_lite_config.json").write_text(
            json.dumps(
                {
                    "LiteBuildConfig": {
                        "apps": ["voici"],
                        "contents": [str(contents)],
                        "output_dir": str(out),
                        "no_sourcemaps": True,
                        "no_unused_shared_packages": True,
                        # labextensions: the kernel's and anywidget's only, not whatever
                        # else this Python has installed
                        "ignore_sys_prefix": ["federated_extensions"],
                        "federated_extensions": [str(kernel_extension), *anywidget],
                    },
                    "VoilaConfiguration": {
                        "template": SITE_TEMPLATE,
                        "theme": THEME,
                        "strip_sources": True,
                    },
                }
            )
        )
        (work / "config").mkdir()
        env = dict(os.environ)
        jupyter_path = [str(templates), str(jupyter_data_dir())]
        stylesheet = page_stylesheet(_template_paths(jupyter_path), templates)
        env["JUPYTER_PATH"] = os.pathsep.join(jupyter_path)
        env["JUPYTER_CONFIG_DIR"] = str(work / "config")
        env["JUPYTERLITE_NO_LIBARCHIVE"] = "1"
        if out.exists():
            shutil.rmtree(out)
        # (`python -m voici_core` imports the package "voici", which voici-core lacks)
        command = [
            sys.executable, "-c", "from voici_core.app import main; main()",
            "build", "--lite-dir", str(lite),
        ]  # fmt: skip
        result = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise SiteBuildError(
                "Voici could not build the site:\n" + (result.stdout + result.stderr)[-3000:]
            )
    return stylesheet


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


# -- the build -------------------------------------------------------------------------------


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
        stylesheet = render_pages([*course, *extra_notebooks], out, wheels, lite)

    # 3. the front door; out with what no page requests
    for path in sorted(out.iterdir()):
        if path.name not in KEEP:
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    (out / "index.html").write_text(FRONT_DOOR)
    (out / SHARED_STYLESHEET).parent.mkdir(parents=True, exist_ok=True)
    (out / SHARED_STYLESHEET).write_text(stylesheet, encoding="utf-8")
    write_gzip_copies(out)
    files = [p for p in out.rglob("*") if p.is_file()]
    return SiteReport(
        folder=out,
        files=len(files),
        size=sum(p.stat().st_size for p in files),
        pages=len(list((out / "voici" / "render").glob("*.html"))),
    )
