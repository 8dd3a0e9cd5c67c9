"""What the static site's build takes in, each checked before anything is built: the site
tools at the pins of the ``site`` extra (:func:`check_site_tools`), and what
``scripts/setup_site.sh`` fetched once into :func:`runtime_dir`: the Pyodide runtime (npm
``pyodide``, ``pyodide/package-lock.json`` beside this file; :func:`pyodide_folder`) and
the browser's pure-Python wheels (``browser-requirements.txt``, every hash pinned;
:func:`browser_wheels`). A missing or wrong input raises :class:`SiteBuildError`, which
says what to run.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tutor.site.precompile import STDLIB_ZIP

HERE = Path(__file__).resolve().parent
DISTRIBUTION = "wizard-tutor"
SITE_EXTRA = "site"
BROWSER_REQUIREMENTS = HERE / "browser-requirements.txt"
PYODIDE_PACKAGE = HERE / "pyodide" / "package.json"
RUNTIME_VARIABLE = "TUTOR_SITE_RUNTIME"
"""Environment variable naming another folder of fetched runtime files (:func:`runtime_dir`)."""

PYODIDE_PYTHON = "3.12"  # the CPython that npm pyodide 0.27.6 is

# The runtime files the kernel loads (the npm package also has types, a console page and
# source maps, which no page asks for).
PYODIDE_RUNTIME = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", STDLIB_ZIP)


class SiteBuildError(RuntimeError):
    """A build input is missing or not at its pin; the message says what to run."""


def runtime_dir() -> Path:
    """Where ``scripts/setup_site.sh`` put the Pyodide runtime (``node_modules/pyodide``)
    and the browser's wheels (``wheels/``): ``$TUTOR_SITE_RUNTIME``, else inside the
    Python environment that has the site tools (a new environment fetches them anew)."""
    override = os.environ.get(RUNTIME_VARIABLE)
    if override:
        return Path(override)
    return Path(sys.prefix) / "share" / "wizard-tutor-site"


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
