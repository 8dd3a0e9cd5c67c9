"""Compiled bytecode for the static site's wheels, made at build time by Pyodide's own Python.

Pyodide never writes bytecode (``sys.dont_write_bytecode`` is set, and its file system
is gone with the page anyway), so without it every page compiles the source of every
module it imports, on every visit: about 1.5 of the 3.3 CPU-seconds of a worked example's
imports (IPython, ipywidgets, the tutor; measured in Node, issue 20). The build runs the
site's own runtime once under Node.js (``precompile.mjs``): it installs the site's wheels
as a page does, imports what a page imports (the kernel, every module of the tutor),
and adds a ``__pycache__`` entry beside each source file that was imported, compiled by
that very CPython (its magic number, its bytecode). What no page imports (the tests,
pygments' hundreds of lexers) stays source only, so the download grows by the
bytecode of what is used only.

The bytecode is "unchecked hash-based" (PEP 552): Python loads it without comparing it
with the source, whose date the wheel's unpacking does not keep; the source stays beside
it for tracebacks.
"""

from __future__ import annotations

import importlib
import importlib.util
import marshal
import zipfile
from collections.abc import Iterable
from pathlib import Path

UNCHECKED_HASH = 0b01  # PEP 552 flags: hash-based, not checked against the source


def bytecode(source: bytes, name: str) -> bytes:
    """The ``.pyc`` file of ``source`` (archive name ``name``) for the running Python."""
    code = compile(source, name, "exec", dont_inherit=True)
    return (
        importlib.util.MAGIC_NUMBER
        + UNCHECKED_HASH.to_bytes(4, "little")
        + importlib.util.source_hash(source)
        + marshal.dumps(code)
    )


def add_bytecode(wheel: Path, wanted: set[str]) -> int:
    """Rewrite ``wheel`` with a ``__pycache__`` entry beside each of its ``.py`` files named
    in ``wanted`` (archive names); entries keep their order and dates, so the same wheel
    gets the same bytes. Returns how many were added."""
    with zipfile.ZipFile(wheel) as archive:
        entries = [(info, archive.read(info)) for info in archive.infolist()]
    names = {info.filename for info, _ in entries}
    added = 0
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for info, data in entries:
            archive.writestr(info, data)
            cached = importlib.util.cache_from_source(info.filename)
            if info.filename in wanted and cached not in names:
                entry = zipfile.ZipInfo(cached, date_time=info.date_time)
                entry.compress_type = zipfile.ZIP_DEFLATED
                entry.external_attr = 0o644 << 16
                archive.writestr(entry, bytecode(data, info.filename))
                added += 1
    return added


def imported_files(site_packages: str, modules: Iterable[object]) -> set[str]:
    """The archive names (relative to ``site_packages``) of the source files of ``modules``.

    >>> import types
    >>> m = types.ModuleType("m"); m.__file__ = "/sp/pkg/m.py"
    >>> sorted(imported_files("/sp", [m, types.ModuleType("builtin")]))
    ['pkg/m.py']
    """
    prefix = site_packages.rstrip("/") + "/"
    found = set()
    for module in modules:
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.startswith(prefix) and path.endswith(".py"):
            found.add(path[len(prefix) :])
    return found


def import_what_pages_use(package: str, skip: Iterable[str]) -> list[str]:
    """Import the Pyodide kernel and every module of ``package`` but those under ``skip``
    (dotted names relative to it); returns the modules that failed to import (a module
    that needs a page's JavaScript, say), which then stay source only."""
    import pkgutil

    # what the kernel's worker imports at start (piplite brings micropip)
    import piplite.piplite  # type: ignore[import-not-found]  # noqa: F401
    import pyodide_kernel  # type: ignore[import-not-found]  # noqa: F401

    top = importlib.import_module(package)
    skipped = tuple(f"{package}.{name}" for name in skip)
    failed = []
    for info in pkgutil.walk_packages(top.__path__, f"{package}.", onerror=lambda name: None):
        if info.name.startswith(skipped):
            continue
        try:
            importlib.import_module(info.name)
        except Exception as error:  # recorded: that module stays source only
            failed.append(f"{info.name}: {type(error).__name__}")
    return failed


def precompile_wheels(folder: str, site_packages: str, package: str, skip: list[str]) -> str:
    """In the site's Pyodide: bytecode into every wheel of ``folder`` for what pages import.
    Returns a one-line summary (what :mod:`tutor.site.build` reports if asked)."""
    import sys

    failed = import_what_pages_use(package, skip)
    wanted = imported_files(site_packages, list(sys.modules.values()))
    added = sum(add_bytecode(wheel, wanted) for wheel in sorted(Path(folder).glob("*.whl")))
    return f"{added} modules compiled" + (f"; not imported: {', '.join(failed)}" if failed else "")
