"""The front end's files, compressed once and cached by the browser for as long as they
cannot change.

A lesson page fetches some 110 files (5.4 MB: Voila's front end, the widget managers, the
template's scripts and styles); serving them was about a third of the server's CPU per
page in a class (a stack sampler on the server). Tornado sends them as they are on disk,
and the widget managers' files (``/voila/labextensions/``) with ``Cache-Control:
no-cache``, so every lesson fetched them again. Here:

- **compressed once**: a browser that accepts gzip gets a gzip copy of a text file
  (scripts, styles, JSON, SVG), made at its first request and kept in a folder of the
  server's own for its lifetime (a fifth of the bytes; the server compresses nothing
  per request). ``Vary: Accept-Encoding`` tells caches that the answer depends on it;
  a request for a byte range gets the file as it is;
- **cached for good when its address names its content**: a URL with tornado's ``?v=``
  (a hash of the file) or a file whose name carries a content hash (webpack's
  ``[contenthash]``, the widget managers' chunks) gets ``Cache-Control: public,
  max-age=31536000, immutable``: a new version has a new address, so from the second
  lesson on a page asks for almost nothing. Other files keep their handler's caching;
- **one fix to the widget manager's script** (:func:`served_bytes`): its wait for the
  kernel's widgets, 4 s, made as long as the page's own wait.
"""

from __future__ import annotations

import atexit
import contextlib
import gzip
import hashlib
import os
import re
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any

import tornado.web

IMMUTABLE = "public, max-age=31536000, immutable"
"""The caching of a file whose address changes with its content (a year: HTTP's usual most)."""

COMPRESSIBLE = frozenset({".js", ".mjs", ".css", ".json", ".svg", ".html", ".map", ".txt"})
"""Text files, which gzip makes 3-5 times smaller (pictures and fonts are compressed already)."""

MIN_COMPRESSED_SIZE = 1024
"""Files smaller than this go as they are: gzip's header and a request's own headers would
eat most of the saving."""

_HASHED_NAME = re.compile(r"(?:^|[._-])[0-9a-f]{8,}\.[A-Za-z0-9]+$")
"""A file name carrying a content hash: ``remoteEntry.c8c9eed2cdefdeac.js``, ``7.2a0ce57.js``
(not ``7883.voila.js``: Voila's chunk names are numbers that a new Voila reuses)."""


def versioned(path: str, query_arguments: dict[str, Any]) -> bool:
    """Whether the address of ``path`` changes whenever the file does: tornado's ``?v=``
    (a hash of the file) or a content hash in the file's name.

    >>> versioned("lab/static/voila.js", {"v": [b"1a2b"]}), versioned("5764.voila.js", {})
    (True, False)
    >>> versioned("static/remoteEntry.c8c9eed2cdefdeac.js", {})
    True
    """
    return "v" in query_arguments or bool(_HASHED_NAME.search(os.path.basename(path)))


# -- what the app changes in a served file ----------------------------------------------------
# ipywidgets' widget manager (the jupyterlab-manager labextension, which Voila's pages use)
# loads the page's widgets by asking the kernel for all their states in one message on its
# "control" comm, and gives up after 4 s (CONTROL_COMM_TIMEOUT; ipywidgets issue #3633):
# it then asks for the list of comms and for each widget's state, one message each. The 4 s
# run from the page's script, before its websocket is open, so in a class opening a lesson
# at once the wait ran out on 26 of 41 pages although the kernel answered 0.02-0.9 s after
# the question reached it; each of those pages then sent 36 more questions (lesson 06),
# each answered with three messages through the server: 0.55 CPU-s per page for server and
# kernels, 0.48 without (benchmarks/classroom_benchmark.py, 40 pages). The app's kernels
# always answer on that comm, so the wait is the page's own before its reload notice
# (tutor-page.js): a kernel that does not answer in that time is not helped by asking again.
CONTROL_COMM_WAIT_MS = 60_000
_CONTROL_COMM_TIMEOUT = re.compile(rb'(Control comm did not respond in time"\)\)?,)4e3\)')


def served_bytes(path: str, data: bytes) -> bytes:
    """The bytes the app serves for the front-end file ``path`` whose content is ``data``:
    ``data`` itself, but for the widget manager's wait for its kernel's widgets.

    >>> served_bytes("a.js", b'o.send(),setTimeout(()=>l("Control comm did not respond in time"),4e3)')
    b'o.send(),setTimeout(()=>l("Control comm did not respond in time"),60000)'
    >>> served_bytes("a.css", b"4e3")
    b'4e3'
    """
    if not path.endswith(".js"):
        return data
    return _CONTROL_COMM_TIMEOUT.sub(rb"\g<1>%d)" % CONTROL_COMM_WAIT_MS, data)


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether a request's ``Accept-Encoding`` allows gzip (and does not refuse it, ``q=0``).

    >>> accepts_gzip("gzip, deflate, br"), accepts_gzip("br"), accepts_gzip("gzip;q=0")
    (True, False, False)
    """
    for item in accept_encoding.split(","):
        name, _, parameters = item.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            quality = parameters.strip().lower().removeprefix("q=")
            with contextlib.suppress(ValueError):
                return not parameters or float(quality) > 0
            return False
    return False


class ServedCopies:
    """The copies the app serves in place of front-end files: gzip copies, and files the
    app changes (:func:`served_bytes`), gzip or not. Made at a file's first request and
    kept in a folder of this process's own, removed when it ends. A copy is named after
    the file's path, size and modification time, so a file changed on disk gets a new one."""

    def __init__(self) -> None:
        self._folder: Path | None = None
        self._lock = threading.Lock()
        self._known: dict[tuple[str, int, int, bool], tuple[str, bool] | None] = {}

    def folder(self) -> Path:
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="wizard-tutor-gzip-"))
            atexit.register(_remove_folder, self._folder, os.getpid())
        return self._folder

    def copy_of(self, path: str, stat: os.stat_result, *, packed: bool) -> tuple[str, bool] | None:
        """The copy to serve for the file at ``path`` (``stat``: its stat) and whether it is
        gzip, or ``None`` for the file itself. ``packed``: the request takes gzip, and a
        gzip copy is made when compressing makes the file smaller."""
        key = (path, stat.st_size, stat.st_mtime_ns, packed)
        with self._lock:
            if key in self._known:
                return self._known[key]
            original = Path(path).read_bytes()
            data = served_bytes(path, original)
            copy: tuple[bytes, bool] | None = (data, False) if data != original else None
            if packed:
                # mtime=0: the same file gives the same bytes (and ETag) in every run
                zipped = gzip.compress(data, compresslevel=9, mtime=0)
                if len(zipped) < len(data):
                    copy = (zipped, True)
            written: tuple[str, bool] | None = None
            if copy is not None:
                name = hashlib.sha256(repr(key).encode()).hexdigest()[:32]
                target = self.folder() / (name + (".gz" if copy[1] else ""))
                try:
                    target.write_bytes(copy[0])
                    written = (str(target), copy[1])
                except OSError:  # no room, no temporary folder: the file goes as it is
                    written = None
            self._known[key] = written
            return written

    def forget(self, path: str, stat: os.stat_result) -> None:
        """Make the copies of ``path`` again at their next request (they went from the disk)."""
        with self._lock:
            for packed in (False, True):
                self._known.pop((path, stat.st_size, stat.st_mtime_ns, packed), None)


def _remove_folder(folder: Path, owner: int) -> None:
    # only by the process that made it (a process forked from it runs its exit functions too)
    if os.getpid() == owner:
        shutil.rmtree(folder, ignore_errors=True)


COPIES = ServedCopies()


class CompressedStaticFiles(tornado.web.StaticFileHandler):
    """Mixed in before a tornado static file handler (Voila's template files, its front
    end, the widget managers' files): see the module's docstring."""

    original_path: str | None = None
    compressed: bool = False
    copied: bool = False  # a copy is served in place of the file (gzip, changed, or both)
    _copy_size = 0

    def validate_absolute_path(self, root: str, absolute_path: str) -> str | None:
        path = super().validate_absolute_path(root, absolute_path)
        self.original_path = path
        self.compressed = self.copied = False
        if path is None:
            return path
        packed = (
            self._compressible(path)
            and "Range" not in self.request.headers
            and accepts_gzip(self.request.headers.get("Accept-Encoding", ""))
        )
        if not packed and not path.endswith(".js"):  # (served_bytes changes scripts only)
            return path
        stat = self._original_stat(path)
        for _ in range(2):  # a second time if the copy went behind the server's back
            copy = COPIES.copy_of(path, stat, packed=packed)
            if copy is None:
                return path
            try:
                self._copy_size = os.stat(copy[0]).st_size
                break
            except OSError:  # removed by a cleaner of /tmp: made again
                COPIES.forget(path, stat)
        else:
            return path
        # From here tornado reads (size, content, ETag) the copy; the type, the
        # modification time and the caching are the original's.
        self.copied = True
        self.compressed = copy[1]
        return copy[0]

    def _original_stat(self, path: str) -> os.stat_result:
        # tornado keeps the stat of the file it validated (the original)
        stat: os.stat_result | None = getattr(self, "_stat_result", None)
        return stat if stat is not None else os.stat(path)

    def _compressible(self, path: str) -> bool:
        return (
            os.path.splitext(path)[1].lower() in COMPRESSIBLE
            and self._original_stat(path).st_size >= MIN_COMPRESSED_SIZE
        )

    def get_content_size(self) -> int:
        if self.copied:
            return self._copy_size
        return super().get_content_size()

    def get_content_type(self) -> str:
        if not self.copied:
            return super().get_content_type()
        served, self.absolute_path = self.absolute_path, self.original_path
        try:
            return super().get_content_type()
        finally:
            self.absolute_path = served

    def set_headers(self) -> None:
        super().set_headers()
        path = self.original_path or ""
        if os.path.splitext(path)[1].lower() in COMPRESSIBLE:
            self.set_header("Vary", "Accept-Encoding")
        if self.compressed:
            self.set_header("Content-Encoding", "gzip")
        if versioned(self.path, self.request.query_arguments):
            self.set_header("Cache-Control", IMMUTABLE)
            self.clear_header("Expires")  # tornado's, for ?v=: the same thing, said twice


def compressed(handler: type) -> type:
    """``handler`` (a tornado static file handler) serving compressed, cacheable files."""
    if issubclass(handler, CompressedStaticFiles):
        return handler
    return type(handler.__name__, (CompressedStaticFiles, handler), {"__module__": __name__})
