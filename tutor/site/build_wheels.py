"""The Python the static site's pages run, made by the build: the tutor's own wheel
(:func:`tutor_wheel`, without what no page imports), a Pyodide lock naming exactly the
site's wheels (:func:`pyodide_lock`), the files of the wheels the pages load in one archive
(:func:`site_packages_archive`), and the kernel's loader stamped with the build's name
(:func:`stamp_loader`). Every file is made reproducibly: the same tutor makes the same
bytes.
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
import tarfile
import tomllib
import zipfile
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Any, cast

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import tutor
from tutor.resources import builtin_lessons_dir
from tutor.site.build_inputs import (
    DISTRIBUTION,
    HERE,
    PYODIDE_PYTHON,
    PYODIDE_RUNTIME,
    SiteBuildError,
)

SITE_PACKAGES = f"/lib/python{PYODIDE_PYTHON}/site-packages"

# The kernel's loader of Pyodide (loader.js says why), beside the runtime: the page config
# names it (build_pages.PYODIDE_LOADER_SETTING, which page.js makes the kernel's
# pyodideUrl). It installs the pages' packages from SITE_PACKAGES_ARCHIVE: the files of
# their wheels as Pyodide would unpack them, in one gzipped tar.
LOADER = "tutor-loader.js"
SITE_PACKAGES_ARCHIVE = "site-packages.tar.gz"
UNSTAMPED_BUILD = "unbuilt"  # loader.js's SITE_BUILD until the build writes its own

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
    "sqlalchemy": "the servers' (the live room's store, tutor/web/room_store.py)",
    **NOT_SHIPPED,
}

# The parts of the tutor package a page never imports (the server app, the hub, the live
# room's server, the NumPy simulator of the benchmarks, this builder and its files): left
# out of the browser's wheel.
NOT_IN_BROWSER_WHEEL = (
    "app",
    "hub",
    "web",
    "play/fastsim",
    "data",
    "cli",
    "__main__.py",
    "site/build.py",
    "site/build_inputs.py",
    "site/build_pages.py",
    "site/build_wheels.py",
    "site/fetch.py",
    "site/precompile.py",
    "site/precompile.mjs",
    "site/page.js",
    "site/loader.js",
    "site/pyodide",
    "site/browser-requirements.txt",
)


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
