"""Compiled bytecode for the static site's wheels and Python's standard library, made at build
time by Pyodide's own Python.

Pyodide never writes bytecode (``sys.dont_write_bytecode`` is set, and its file system
is gone with the page anyway), so without it every page compiles the source of every
module it imports, on every visit: about 1.5 of the 3.3 CPU-seconds of a worked example's
imports (IPython, ipywidgets, the tutor; measured in Node, issue 20). The build runs the
site's own runtime once under Node.js (``precompile.mjs``): it installs the site's wheels
as a page does, imports what a page imports (the kernel, every module of the tutor; IPython's
terminal left to when it is used, as the site's loader does), and adds a ``__pycache__`` entry beside each source file that was imported, compiled by
that very CPython (its magic number, its bytecode). What no page imports (the tests,
pygments' hundreds of lexers) stays source only, so the download grows by the
bytecode of what is used only.

The same goes for Python's standard library, which Pyodide ships as source only, in a zip
(``python_stdlib.zip``) that Python imports from as it is (zipimport): the runtime's own
start compiled the source of the 40 modules it imports (1.0 of its 1.9 CPU-s in Node), and
every page then those of IPython's imports (inspect, ast, asyncio, ...). The build puts
the bytecode of each module a page imports into that zip in place of its source
(``name.pyc`` where ``name.py`` was, which zipimport finds): with the source beside it
the zip would grow by 2.3 MB, not 1.0, and the source only shows in a traceback's lines,
which go to the developers' console (``tutor.site.kernel``). The rest stays source.

Both are "unchecked hash-based" (PEP 552): Python loads them without comparing them with
the source, whose date the wheel's unpacking does not keep; a wheel's source stays beside
its bytecode.
"""

from __future__ import annotations

import importlib
import importlib.util
import marshal
import zipfile
from collections.abc import Iterable
from pathlib import Path

UNCHECKED_HASH = 0b01  # PEP 552 flags: hash-based, not checked against the source
STDLIB_ZIP = "python_stdlib.zip"  # Pyodide's standard library, beside its runtime


def bytecode(source: bytes, name: str) -> bytes:
    """The ``.pyc`` file of ``source`` (file name ``name``) for the running Python."""
    code = compile(source, name, "exec", dont_inherit=True)
    return (
        importlib.util.MAGIC_NUMBER
        + UNCHECKED_HASH.to_bytes(4, "little")
        + importlib.util.source_hash(source)
        + marshal.dumps(code)
    )


def add_bytecode(archive_path: Path, wanted: set[str], *, zipimported: str = "") -> int:
    """Rewrite the zip ``archive_path`` with the bytecode of each of its ``.py`` files named
    in ``wanted`` (archive names); entries keep their order and dates, so the same archive
    gets the same bytes. Returns how many were compiled.

    A wheel's bytecode goes into ``__pycache__`` beside the source, where Python looks once
    the wheel is unpacked. An archive Python imports from as it is (``zipimported``: its
    path in that Python, e.g. ``/lib/python312.zip``) gets ``name.pyc`` in place of
    ``name.py`` (see the module), compiled under the source's full path there (zipimport,
    unlike the folders' importer, does not correct the file name code objects carry)."""
    with zipfile.ZipFile(archive_path) as archive:
        entries = [(info, archive.read(info)) for info in archive.infolist()]
    names = {info.filename for info, _ in entries}
    added = 0
    with zipfile.ZipFile(archive_path, "w", zipfile.ZIP_DEFLATED) as archive:
        for info, data in entries:
            if info.filename not in wanted:
                archive.writestr(info, data)
                continue
            if zipimported:
                cached = info.filename.removesuffix(".py") + ".pyc"
                source_name = f"{zipimported}/{info.filename}"
            else:
                archive.writestr(info, data)
                cached = importlib.util.cache_from_source(info.filename)
                source_name = info.filename
            if cached not in names:
                entry = zipfile.ZipInfo(cached, date_time=info.date_time)
                entry.compress_type = zipfile.ZIP_DEFLATED
                entry.external_attr = 0o644 << 16
                archive.writestr(entry, bytecode(data, source_name))
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
    """In the site's Pyodide: bytecode into every wheel of ``folder`` and into its standard
    library's zip (STDLIB_ZIP) for what pages import. Returns a one-line summary (what
    :mod:`tutor.site.build` reports if asked)."""
    import sys

    failed = import_what_pages_use(package, skip)
    modules = list(sys.modules.values())
    wanted = imported_files(site_packages, modules)
    added = sum(add_bytecode(wheel, wanted) for wheel in sorted(Path(folder).glob("*.whl")))
    stdlib = next(entry for entry in sys.path if entry.endswith(".zip"))  # /lib/python312.zip
    added_stdlib = add_bytecode(
        Path(folder) / STDLIB_ZIP, imported_files(stdlib, modules), zipimported=stdlib
    )
    return f"{added} modules compiled, {added_stdlib} of the standard library" + (
        f"; not imported: {', '.join(failed)}" if failed else ""
    )
