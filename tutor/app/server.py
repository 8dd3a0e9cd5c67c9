"""The tutor app's server: Voila, stand-alone, with what a classroom needs on top.

A whole class opens one link at once, on a small machine. What this adds to Voila, and why:

- **Admission.** Every page view starts a kernel and runs its notebook: about a second of
  CPU. Forty at once on two cores made every page wait for every other one until Voila
  gave up on their output. :class:`Admission` lets a few pages start at a time and queues
  the rest (first come, first served); a page that waited too long, or that would go past
  the cap on kernels, gets a short page saying the tutor is busy, which tries again by
  itself (HTTP 503 with ``Retry-After``). Nothing is ever silently left out.
- **A closing page gives its kernel back.** Voila's page sends a page-close request with
  the ``_xsrf`` cookie, but only a page reached through Voila's folder listing had that
  cookie: a lesson opened from a link or a bookmark was refused and its kernel idled for
  minutes. Every page now gets the cookie, and the request (like every use of a kernel:
  its websocket, its REST model) is accepted only from the browser whose page started
  the kernel (:class:`TutorKernelManager` remembers it), so one viewer cannot stop or
  drive another's kernel even if they learn its id.
- **Only the addresses served.** Requests whose ``Host`` is not one of the app's addresses
  are refused (DNS rebinding), malformed template paths and ``/logout`` answer 404
  instead of a server error, and a classroom token never reaches a kernel (it is taken
  out of the page's address before the kernel's environment is made).

The settings that do not change between runs are in :mod:`tutor.app.settings`; the kernel
the pages run in hides tracebacks (:mod:`tutor.app.kernel`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import gc
import hmac
import json
import os
import random
import re
import struct
import tempfile
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from html import escape
from typing import Any, cast
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

import jinja2
import jinja2.bccache
import tornado.web
import voila.handler
import voila.notebook_renderer
import voila.static_file_handler
from jupyter_client.session import Session
from jupyter_core.utils import ensure_async
from jupyter_server._tz import utcnow
from jupyter_server.base.call_context import CallContext
from jupyter_server.base.handlers import APIHandler, FileFindHandler
from jupyter_server.services.kernels.connection.base import (
    deserialize_binary_message,
    deserialize_msg_from_ws_v1,
)
from jupyter_server.services.kernels.handlers import KernelHandler
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado.log import access_log
from traitlets import Bool, Float, Integer, List, Unicode, default
from voila.app import Voila
from voila.exporter import VoilaExporter
from voila.notebook_renderer import NotebookRenderer
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.static_file_handler import MultiStaticFileHandler, TemplateStaticFileHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from tutor.teaching.text import text
from tutor.web.pages import ErrorPages, page_language, tutor_page

from .static_files import compressed

TOKEN_PARAMETER = "token"
"""The query parameter of Jupyter's token login (classroom mode)."""

LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")


# -- who may use a kernel --------------------------------------------------------------------


def browser_key(handler: tornado.web.RequestHandler) -> bytes:
    """The key of the browser behind a request: the random token of its ``_xsrf`` cookie
    (tornado masks it differently in every page, so the raw token is compared). A browser
    without the cookie gets a fresh one, which owns nothing."""
    # tornado's documented way to read the raw token is this "private" method; the
    # masked xsrf_token property changes with every call.
    _version, token, _timestamp = handler._get_raw_xsrf_token()
    return bytes(token)


class TutorKernelManager(AsyncMappingKernelManager):
    """Jupyter Server's kernel manager, remembering which browser each kernel's page was
    opened in (see :func:`browser_key`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]
        self._owners: dict[str, bytes] = {}

    async def start_kernel(self, **kwargs: Any) -> str:  # type: ignore[override]
        # (jupyter_server declares it as the synchronous wrapper it also provides)
        # The page handler that asks for the kernel is the current request's handler.
        handler = CallContext.get(CallContext.JUPYTER_HANDLER)
        owner = getattr(handler, "page_owner", None)
        kernel_id: str = await super().start_kernel(**kwargs)
        if isinstance(owner, bytes):
            self._owners[kernel_id] = owner
        if handler is not None:
            handler.page_kernel_id = kernel_id  # the page watches it (PageHandler)
        return kernel_id

    async def is_running(self, kernel_id: str) -> bool:
        """Whether the kernel ``kernel_id`` exists and its process is alive."""
        if kernel_id not in self:
            return False
        return bool(await ensure_async(self.get_kernel(kernel_id).is_alive()))

    def owned_by(self, kernel_id: str, key: bytes) -> bool:
        """Whether the kernel ``kernel_id`` was started for the browser of ``key``."""
        owner = self._owners.get(kernel_id)
        return owner is not None and hmac.compare_digest(owner, key)

    def start_watching_activity(self, kernel_id: str) -> None:
        """jupyter_server's watch over a kernel's messages (its last activity and state, which
        the culler reads), reading only the headers it needs. jupyter_server's decodes
        every message the kernel sends, dates included: a quarter of the server's CPU for
        a page whose widgets send a few hundred messages (cProfile of lesson 06)."""
        kernel = self._kernels[kernel_id]
        kernel.reason = ""
        kernel.last_activity = utcnow()
        kernel._activity_stream = kernel.connect_iopub()
        session = Session(config=kernel.session.config, key=kernel.session.key)

        tracked: Callable[[str | None], bool] = self.track_message_type  # (untyped there)

        def record_activity(message: list[bytes]) -> None:
            _identities, parts = session.feed_identities(message, copy=True)
            signature, header, parent_header = cast("list[bytes]", parts[:3])
            if session.auth is not None and not hmac.compare_digest(
                signature, session.sign(parts[1:5])
            ):
                return  # not the kernel's (jupyter_server's raises: the message is ignored)
            msg_type = session.unpack(header).get("msg_type")
            parent_msg_type = session.unpack(parent_header).get("msg_type")
            if tracked(msg_type) or tracked(parent_msg_type) or kernel.execution_state == "busy":
                self.last_kernel_activity = kernel.last_activity = utcnow()
            if msg_type == "status":
                state = session.unpack(parts[4])["execution_state"]
                if tracked(parent_msg_type):
                    kernel.execution_state = state
                elif kernel.execution_state == "starting" and state != "starting":
                    kernel.execution_state = "idle"  # as jupyter_server normalises it

        kernel._activity_stream.on_recv(record_activity)

    def remove_kernel(self, kernel_id: str) -> Any:
        # Every way a kernel goes (page closed, culled, died, server stopping) ends here.
        self._owners.pop(kernel_id, None)
        kernel = super().remove_kernel(kernel_id)
        if not self._owners:
            release_free_memory()
        return kernel


def release_free_memory() -> None:
    """Hand memory the server no longer uses back to the system once the last page has
    gone. CPython keeps freed memory in its own pools and glibc keeps freed heap pages,
    so after a class the server would hold the peak of the lesson for the rest of the
    day; ``malloc_trim`` returns what is free (a few milliseconds, only when idle)."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # not glibc: nothing to trim this way
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _require_owner(handler: Any, kernel_id: str) -> None:
    if not handler.kernel_manager.owned_by(kernel_id, browser_key(handler)):
        # The same answer as for a kernel that does not exist: an id reveals nothing.
        raise tornado.web.HTTPError(404, "no such kernel")


class OwnKernelHandler(KernelHandler):
    """``/api/kernels/<id>`` (the page's widgets read their kernel's model there)."""

    async def prepare(self) -> None:  # type: ignore[override]  # (as APIHandler's)
        await super().prepare()
        if not self._finished:
            _require_owner(self, self.path_kwargs["kernel_id"])


# -- what a page may send its kernel -----------------------------------------------------------
# Jupyter Server parses a browser's websocket frame with no guard: a frame that is not JSON,
# lacks a header, holds a 5000-digit number or a 10,000-deep array raised in the server
# ("Uncaught exception" and its traceback in the log, the websocket closed); a binary frame
# announcing 2**31 parts built a string that big before failing. A message with a header
# the kernel cannot read made the kernel log a traceback of its own. Each frame is checked
# first; one that fails gets one line in the log and goes nowhere.

KERNEL_PROTOCOL_V1 = "v1.kernel.websocket.jupyter.org"
MAX_MESSAGE_PARTS = 64
"""The most parts (header, parent header, metadata, content, buffers) of one message."""

_COMM_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")
_CONTENT_CHECKS: dict[str, tuple[tuple[str, type], ...]] = {
    # message type -> the content's fields the kernel reads without checking
    "comm_msg": (("comm_id", str), ("data", dict)),
    "comm_close": (("comm_id", str),),
    "comm_open": (("comm_id", str), ("target_name", str)),
}


def _message_parts(frame: str | bytes, subprotocol: str | None) -> list[Any] | str:
    """The header, parent header, metadata and content of ``frame``, or why not."""
    if subprotocol == KERNEL_PROTOCOL_V1:
        if not isinstance(frame, bytes):
            return "a text frame in the binary protocol"
        count = int.from_bytes(frame[:8], "little")
        if not 6 <= count <= min(MAX_MESSAGE_PARTS + 2, len(frame) // 8):
            return f"a frame announcing {count} offsets"
        _channel, parts = deserialize_msg_from_ws_v1(frame)  # type: ignore[no-untyped-call]
        return [json.loads(part) for part in parts[:4]]
    if isinstance(frame, bytes):
        count = int.from_bytes(frame[:4], "big", signed=True)
        if not 1 <= count <= min(MAX_MESSAGE_PARTS, (len(frame) - 4) // 4):
            return f"a frame announcing {count} buffers"
        message = deserialize_binary_message(frame)  # type: ignore[no-untyped-call]
    else:
        message = json.loads(frame)
    if not isinstance(message, dict):
        return "not a message object"
    return [message.get(name) for name in ("header", "parent_header", "metadata", "content")]


def kernel_message_problem(frame: str | bytes, subprotocol: str | None) -> str | None:
    """Why the websocket frame a page sent its kernel cannot be passed on, or ``None``.

    >>> kernel_message_problem("not JSON", None)
    'not a Jupyter message (JSONDecodeError)'
    >>> kernel_message_problem('{"header": {"msg_id": "1", "msg_type": "comm_msg"}, '
    ...     '"parent_header": {}, "metadata": {}, "content": {"comm_id": 7}}', None)
    "content field 'comm_id' of a comm_msg must be a str"
    """
    try:
        parts = _message_parts(frame, subprotocol)
    except (ValueError, RecursionError, TypeError, KeyError, IndexError, struct.error) as error:
        return f"not a Jupyter message ({type(error).__name__})"
    if isinstance(parts, str):
        return parts
    header, parent, metadata, content = [*parts, None, None, None, None][:4]
    if not all(isinstance(part, dict) for part in (header, parent, metadata, content)):
        return "a message is four objects: header, parent header, metadata, content"
    if not (isinstance(header.get("msg_id"), str) and isinstance(header.get("msg_type"), str)):
        return "its header has no msg_id or msg_type"
    for name, kind in _CONTENT_CHECKS.get(header["msg_type"], ()):
        if not isinstance(content.get(name), kind):
            return f"content field {name!r} of a {header['msg_type']} must be a {kind.__name__}"
    if "comm_id" in content and not _COMM_ID.fullmatch(content["comm_id"]):
        return "its comm_id is not a comm's id"
    return None


class OwnKernelWebsocketHandler(VoilaKernelWebsocketHandler):  # type: ignore[misc]
    """The kernel's websocket: the page's widgets talk to their kernel through it."""

    async def pre_get(self) -> None:
        if self.current_user is None:  # (Jupyter's own check logs a line of its own too)
            raise tornado.web.HTTPError(403, "no classroom token")
        _require_owner(self, self.kernel_id)
        await super().pre_get()

    def on_message(self, message: str | bytes) -> None:
        problem = kernel_message_problem(message, self.selected_subprotocol)
        if problem is None:
            try:
                super().on_message(message)
                return
            except Exception as error:  # parsing and forwarding the frame: nothing else
                problem = f"{type(error).__name__}: {error}"
        self.log.warning(
            "refused a websocket message for kernel %s: %.200s", self.kernel_id, problem
        )


class PageCloseHandler(VoilaShutdownKernelHandler):  # type: ignore[misc]
    """Voila's page-close request (``POST /voila/api/shutdown/<id>``, sent by the page on
    ``beforeunload``): checked for the ``_xsrf`` cookie as before, and for the browser."""

    @tornado.web.authenticated
    async def post(self, kernel_id: str) -> None:
        _require_owner(self, kernel_id)
        await super().post(kernel_id)


# -- admission: a class arriving at once -----------------------------------------------------


class Admission:
    """How many pages may start their kernel at the same time, and how many kernels the
    server holds at most.

    ``max_starting`` pages start at once; the others wait, first come first served, for
    up to ``queue_timeout`` seconds. A page that waited longer, or that would take the
    server past ``max_kernels`` kernels, is refused with the busy page.
    """

    def __init__(
        self,
        kernel_manager: Any,
        *,
        max_kernels: int,
        max_starting: int,
        queue_timeout: float,
    ) -> None:
        self.kernel_manager = kernel_manager
        self.max_kernels = max_kernels
        self.max_starting = max_starting
        self.queue_timeout = queue_timeout
        self.waiting = 0
        self.starting = 0
        self._slots: asyncio.Semaphore | None = None

    def kernels(self) -> int:
        return len(self.kernel_manager.list_kernel_ids())

    @asynccontextmanager
    async def admit(self) -> AsyncIterator[str | None]:
        """``None`` when the page may start (its slot is held until the block ends),
        else why not: ``"full"`` (the cap on kernels) or ``"queue"`` (waited too long)."""
        if self._slots is None:  # made in the server's event loop
            self._slots = asyncio.Semaphore(self.max_starting)
        # Pages already waiting or starting will hold a kernel too.
        if self.kernels() + self.waiting + self.starting >= self.max_kernels:
            yield "full"
            return
        self.waiting += 1
        try:
            await asyncio.wait_for(self._slots.acquire(), self.queue_timeout)
        except TimeoutError:
            admitted = False
        else:
            admitted = True
        finally:
            self.waiting -= 1
        if not admitted:
            yield "queue"
            return
        self.starting += 1
        try:
            yield None
        finally:
            self.starting -= 1
            self._slots.release()


RETRY_SECONDS = (3, 8)
"""The busy page tries again after a random number of seconds in this range (so that a
class refused together does not come back together)."""


def busy_page(reason: str, lang: str, *, max_kernels: int) -> str:
    """The page shown instead of a lesson when the tutor cannot start it now: what is
    happening, in the learner's language, and a retry that needs no click."""
    low, high = RETRY_SECONDS
    wait = random.randint(low, high)
    again = escape(text("busy.again", lang))
    return tutor_page(
        lang,
        text("busy.title", lang),
        [text(f"busy.{reason}", lang, count=max_kernels)],
        kind="busy",
        data={"reason": reason},
        head=f'<meta http-equiv="refresh" content="{wait + 2}">\n',
        tail=f"""<p><a href="" id="tutor-retry">{again}</a></p>
<script>
  document.getElementById("tutor-retry").href = window.location.href;
  window.setTimeout(() => window.location.reload(), {wait * 1000});
</script>
""",
    )


# -- refused requests: the tutor's own page, one line in the log -------------------------------
# Jupyter Server's error pages need templates and a static path the stand-alone app has
# not got: every refused websocket and many 404s wrote "Uncaught exception in write_error"
# tracebacks to the log (anyone could flood it) and sent an empty page. Every handler of
# the app answers with the tutor's page instead (the JSON APIs keep their JSON), and the
# log gets one line per request, its address cut short, without the query (the token).

MAX_URL_LENGTH = 8192
"""The longest address answered (414 past it); browsers' own limits are near this."""

MAX_HEADERS_SIZE = 65536
"""The most bytes of request headers answered (431 past it): tornado's usual limit."""

MAX_HEADERS_READ = 1 << 20
"""How much of a request's head the server reads before it gives up on the connection
without an answer: room to answer 414 or 431 to anything a browser or a script would send."""

_LOGGED_PATH_LENGTH = 120


def ask_for_link_page(lang: str) -> str:
    """What a pupil without the classroom token gets (instead of Jupyter's login form)."""
    return tutor_page(
        lang,
        text("error-page.ask-for-link", lang),
        [text("error-page.ask-for-link-text", lang)],
        kind="error",
        data={"status": "403"},
    )


class TutorErrorPages(ErrorPages):
    """Mixed into every handler of the app: a refused request gets the tutor's page (or
    the JSON of a JSON API) and one line in the log (:func:`log_request`)."""

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        if isinstance(self, APIHandler):  # the pages' scripts read these as JSON
            super(ErrorPages, self).write_error(status_code, **kwargs)  # the API's own
            return
        super().write_error(status_code, **kwargs)


def _shown_path(path: str) -> str:
    shown = path if len(path) <= _LOGGED_PATH_LENGTH else path[:_LOGGED_PATH_LENGTH] + "..."
    return shown.encode("unicode_escape").decode("ascii")  # no control characters in a log


def log_request(handler: tornado.web.RequestHandler) -> None:
    """The log's line for a request (tornado's ``log_function``): status, method, path
    (cut short, without its query), address, time, and why it was refused."""
    status = handler.get_status()
    log = (
        access_log.info
        if status < 400
        else access_log.warning
        if status < 500
        else access_log.error
    )
    request = handler.request
    refusal = getattr(handler, "refusal", "")
    log(
        "%d %s %s (%s) %.0f ms%s",
        status,
        request.method,
        _shown_path(request.path),
        request.remote_ip,
        1000 * request.request_time(),
        f": {_shown_path(refusal)}" if refusal else "",
    )


class RefusedRequestHandler(TutorErrorPages):
    """A request refused before any route is looked at (see :class:`TutorApplication`)."""

    def initialize(self, status: int, reason: str) -> None:
        self.status, self.reason = status, reason

    def prepare(self) -> None:
        raise tornado.web.HTTPError(self.status, self.reason)


class TutorApplication(tornado.web.Application):
    """The app's tornado application: refuses addresses too long (414), headers too big
    (431) and paths with control characters (400) before any handler sees them (Voila
    answered ``index.ipynb%00.txt`` with a 500, tornado a 100 KB address with no answer
    at all), and reads heads of up to :data:`MAX_HEADERS_READ` bytes to say so."""

    def find_handler(self, request: Any, **kwargs: Any) -> Any:
        refusal = _refusal(request)
        if refusal is not None:
            status, reason = refusal
            return self.get_handler_delegate(
                request, RefusedRequestHandler, {"status": status, "reason": reason}
            )
        return super().find_handler(request, **kwargs)

    def listen(self, port: int, address: str | None = None, **kwargs: Any) -> Any:
        kwargs.setdefault("max_header_size", MAX_HEADERS_READ)
        return super().listen(port, address, **kwargs)


_CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f]")


def _refusal(request: Any) -> tuple[int, str] | None:
    if len(request.uri) > MAX_URL_LENGTH:
        return 414, f"address of {len(request.uri)} characters"
    size = sum(len(name) + len(value) + 4 for name, value in request.headers.get_all())
    if size > MAX_HEADERS_SIZE:
        return 431, f"headers of {size} bytes"
    if _CONTROL_CHARACTERS.search(unquote(request.path)):
        return 400, "control character in the path"
    return None


class ClassroomLoginHandler(TutorErrorPages):
    """``/login``: where Jupyter sends a browser without the classroom token. The tutor
    has no login form (Jupyter's is a developer's page, and answered 500 when submitted):
    a pupil is told to ask the teacher for the link, in the language of the page they
    asked for, with 403."""

    def prepare(self) -> None:
        after = urlsplit(self.get_query_argument("next", "")).query
        self.set_status(403)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(ask_for_link_page(page_language(after or self.request.query)))


# -- the page --------------------------------------------------------------------------------


def drop_token(request: Any) -> None:
    """Take the classroom token out of the request's address, so that the kernel's
    environment (Voila passes the page's query string and URL to it) never holds it. The
    browser is logged in by then: Jupyter sets its login cookie."""
    pairs = parse_qsl(request.query, keep_blank_values=True)
    kept = [(name, value) for name, value in pairs if name != TOKEN_PARAMETER]
    if len(kept) == len(pairs):
        return
    request.query = urlencode(kept)
    request.uri = request.path + (f"?{request.query}" if request.query else "")
    request.query_arguments = {}
    for name, value in kept:
        request.query_arguments.setdefault(name, []).append(value.encode())
    request.arguments = dict(request.query_arguments)


RENDER_LIMIT = 300.0
"""Seconds a page may take to start its kernel and run its notebook (the last resort: a
lesson takes about a second, Voila gives a kernel 60 s to start)."""

WATCH_INTERVAL = 2.0


def failed_page_tail(lang: str) -> str:
    """The end of a page whose notebook could not be run: the page says so and reloads by
    itself, as static/tutor-page.js does (the same counter: at most three times)."""
    incomplete = json.dumps(text("page-notice.incomplete", lang), ensure_ascii=False)
    gave_up = json.dumps(text("page-notice.gave-up", lang), ensure_ascii=False)
    return f"""
<script>
(function () {{
  var key = "wizard-tutor/reloads:" + window.location.pathname, count = 3;
  try {{ count = Number(window.sessionStorage.getItem(key) || "0"); }} catch (error) {{}}
  var box = document.createElement("div");
  box.className = "tutor-page-notice";
  box.setAttribute("role", "alert");
  box.dataset.notice = count < 3 ? "incomplete" : "gave-up";
  box.textContent = count < 3 ? {incomplete} : {gave_up};
  (document.body || document.documentElement).prepend(box);
  if (count < 3) {{
    try {{ window.sessionStorage.setItem(key, String(count + 1)); }} catch (error) {{}}
    window.setTimeout(function () {{ window.location.reload(); }}, 3000 + Math.random() * 5000);
  }}
}})();
</script>
</body>
</html>
"""


class TemplateCodeCache(jinja2.BytecodeCache):
    """The page templates' compiled code, kept for the app's lifetime.

    Voila makes a new exporter, so a new Jinja environment, for every page: each page
    parsed and compiled the template's ~11 files again, a third of the server's CPU per
    page (cProfile of lesson 06). Jinja still reads each file and compares its checksum,
    so an edited template is compiled again."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


TEMPLATE_CODE = TemplateCodeCache()


class CachedTemplatesExporter(VoilaExporter):  # type: ignore[misc]
    """Voila's exporter, with its templates' code kept in :data:`TEMPLATE_CODE`. Voila's
    renderer builds its exporter from the name ``voila.notebook_renderer.VoilaExporter``,
    which :class:`TutorVoila` points here."""

    def _create_environment(self) -> jinja2.Environment:
        environment: jinja2.Environment = super()._create_environment()
        environment.bytecode_cache = TEMPLATE_CODE
        return environment


class GuardedRenderer(NotebookRenderer):  # type: ignore[misc]
    """Voila's notebook renderer, telling its page when it fails.

    Voila's page handler runs the renderer in a background task whose exception nobody
    reads (voila/handler.py, ``put_html``): a template that cannot be found, or a kernel
    that never became ready, left the page waiting forever. The failure is recorded on
    the page's handler (``render_failed``), which ends the page (:class:`PageHandler`).
    Voila's handler builds its renderer from the name ``voila.handler.NotebookRenderer``,
    which :class:`TutorVoila` points here."""

    def generate_content_generator(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        inner = super().generate_content_generator(*args, **kwargs)
        handler = self.request_handler

        async def guarded() -> AsyncIterator[Any]:
            try:
                async for snippet in inner:
                    yield snippet
            except Exception as error:
                handler.render_failed = error
                raise

        return guarded()


class PageHandler(TornadoVoilaHandler):  # type: ignore[misc]
    """``/voila/render/<notebook>``: Voila's page, admitted by :class:`Admission` and
    watched while its notebook runs.

    Voila runs the notebook in a background task; when the kernel dies while starting
    the task fails silently and the page would wait forever, spinner turning, holding its
    place in the queue. Here a page whose kernel died, or that took longer than
    :data:`RENDER_LIMIT`, is ended with a notice (the page reloads by itself) and its
    place and kernel are given back; so are those of a page closed before it had loaded
    (no page script is running yet to send the page-close request)."""

    def initialize(self, **kwargs: Any) -> None:
        self.admission: Admission = kwargs.pop("admission")
        self.page_left = False
        super().initialize(**kwargs)

    def on_connection_close(self) -> None:
        # The learner closed the page (or left it) before it had loaded.
        self.page_left = True
        super().on_connection_close()

    async def prepare(self) -> None:
        await super().prepare()
        if self._finished:
            return
        # The page-close request needs the _xsrf cookie: set it now (reading xsrf_token
        # does, before the page starts streaming), and remember the browser for the
        # kernel about to start.
        self.xsrf_token  # noqa: B018  (read for its effect: the cookie)
        self.page_owner = browser_key(self)
        drop_token(self.request)

    @tornado.web.authenticated
    async def get(self, path: str | None = None) -> None:
        if not (path or "").endswith(".ipynb"):  # Voila redirects other files
            await super().get(path)
            return
        loop = asyncio.get_running_loop()
        asked = loop.time()
        async with self.admission.admit() as refused:
            if refused is None:
                admitted = loop.time()
                if not self.page_left:  # gone while it waited: start nothing
                    await self._render(path)
                self.log.info(
                    "page %s: waited %.1f s, ran in %.1f s",
                    path,
                    admitted - asked,
                    loop.time() - admitted,
                )
                return
        self.log.warning(
            "busy (%s): %d kernels, %d starting, %d waiting; refused %s",
            refused,
            self.admission.kernels(),
            self.admission.starting,
            self.admission.waiting,
            path,
        )
        lang = page_language(self.request.query)
        self.set_status(503)
        self.set_header("Retry-After", str(RETRY_SECONDS[1]))
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(busy_page(refused, lang, max_kernels=self.admission.max_kernels))

    async def _render(self, path: str | None) -> None:
        render = asyncio.ensure_future(super().get(path))
        loop = asyncio.get_running_loop()
        started = loop.time()
        while True:
            done, _ = await asyncio.wait({render}, timeout=WATCH_INTERVAL)
            if done:
                render.result()
                return
            kernel_id = getattr(self, "page_kernel_id", None)
            if self.page_left:
                reason = "the learner left it before it had loaded"
                break
            failed = getattr(self, "render_failed", None)
            if failed is not None:
                reason = f"its notebook could not be rendered: {failed!r}"
                break
            if kernel_id is not None and not await self.kernel_manager.is_running(kernel_id):
                reason = "its kernel died"
                break
            if loop.time() - started > RENDER_LIMIT:
                reason = f"it took more than {RENDER_LIMIT:.0f} s"
                break
        render.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await render
        if self.page_left:
            self.log.info("page %s ended early: %s", path, reason)
        else:
            self.log.error("page %s ended early: %s", path, reason)
        kernel_id = getattr(self, "page_kernel_id", None)
        if kernel_id is not None and kernel_id in self.kernel_manager:
            with contextlib.suppress(Exception):
                await self.kernel_manager.shutdown_kernel(kernel_id, now=True)
        with contextlib.suppress(Exception):  # the learner may have gone
            self.write(failed_page_tail(page_language(self.request.query)))
            await self.finish()


@functools.lru_cache(maxsize=16)
def template_static_roots(template: str) -> tuple[str, ...]:
    """The folders a template's static files are looked for in (Voila's search over the
    Jupyter paths), found once per template: Voila searched them again twice for every
    file, a third of the time of serving a template's file (py-spy, a class of 10). A
    template installed while the app runs is seen after a restart."""
    return tuple(voila.static_file_handler.collect_static_paths(["voila", "nbconvert"], template))


class SafeTemplateStaticHandler(TemplateStaticFileHandler):  # type: ignore[misc]
    """``/voila/templates/<template>/static/<file>``: Voila's handler answers a malformed
    path (no ``static`` part, ``..``) with an assertion error, i.e. HTTP 500; 404 here.
    The template's folders are found once (:func:`template_static_roots`)."""

    _PATH = re.compile(r"[A-Za-z0-9_-]+/static/[^\\]+")

    def parse_url_path(self, path: str) -> str:
        parts = path.split("/")
        if not self._PATH.fullmatch(path) or any(part in ("", ".", "..") for part in parts):
            raise tornado.web.HTTPError(404)
        self.roots = list(template_static_roots(parts[0]))
        return path

    @classmethod
    def get_absolute_path(cls, root: str, path: str) -> str:
        # Voila's, with the folders found once: the first that holds the file, else a
        # path that does not exist (404)
        template, _static, relative = os.path.normpath(path).split(os.path.sep, 2)
        absolute = ""
        for folder in template_static_roots(template):
            absolute = os.path.abspath(os.path.join(folder, relative))
            if os.path.exists(absolute):
                break
        return absolute


class NotFoundHandler(TutorErrorPages):
    """Answers 404: for an address the app does not have, and for ``/logout`` (the app
    has no log-out page: Jupyter's needs templates Voila lacks, and answered 500)."""

    def prepare(self) -> None:
        raise tornado.web.HTTPError(404)


class UnknownHostHandler(TutorErrorPages):
    """Any request whose ``Host`` is not one of the app's addresses (DNS rebinding: a web
    page elsewhere must not reach the app through a name of its own)."""

    def prepare(self) -> None:
        raise tornado.web.HTTPError(400, "unknown host")


def with_error_pages(handler: type) -> type:
    """``handler`` with the tutor's error pages and log line (:class:`TutorErrorPages`)."""
    if issubclass(handler, TutorErrorPages):
        return handler
    return type(handler.__name__, (TutorErrorPages, handler), {"__module__": __name__})


# -- the application -------------------------------------------------------------------------


def host_pattern(hosts: Iterable[str]) -> str:
    """A tornado host pattern matching exactly ``hosts`` (names without a port)."""
    return "^(" + "|".join(re.escape(host.lower()) for host in hosts) + ")$"


def default_max_kernels() -> int:
    """Half the machine's memory at about 64 MiB a kernel (measured: 58 MiB for a lesson),
    between 16 and 200."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 40
    return max(16, min(200, memory // 2 // (64 * 2**20)))


class TutorVoila(Voila):  # type: ignore[misc]
    """Voila with the tutor's handlers (see the module's docstring)."""

    max_kernels = Integer(
        help="Most kernels (open pages) at once; past it a page says the tutor is full."
    ).tag(config=True)
    max_starting = Integer(
        help="Pages that start their kernel at the same time (default: the CPU count)."
    ).tag(config=True)
    queue_timeout = Float(
        20.0, help="Seconds a page waits for its turn before it gets the busy page."
    ).tag(config=True)
    allowed_hosts = List(
        Unicode(), help="Host names and addresses the app answers to (no port)."
    ).tag(config=True)
    room = Bool(False, help="Serve the live room (classroom mode): docs/live-room.md.").tag(
        config=True
    )
    room_db = Unicode("", help="The live room's SQLite file (default: the app's data folder).").tag(
        config=True
    )
    room_join = Unicode(
        "", help="The address pupils reach the app by (http://address:port), for the join address."
    ).tag(config=True)
    teacher_key = Unicode(
        "", help="The live room's teacher key (kept with the room's file; default: a new one)."
    ).tag(config=True)

    @default("max_kernels")
    def _default_max_kernels(self) -> int:
        return default_max_kernels()

    @default("max_starting")
    def _default_max_starting(self) -> int:
        return max(2, os.cpu_count() or 2)

    @default("allowed_hosts")
    def _default_allowed_hosts(self) -> list[str]:
        return list(LOCAL_HOSTS)

    @default("config_file_paths")
    def _no_config_files(self) -> list[str]:
        # Only the tutor's settings: a voila.py in the current folder or ~/.jupyter must
        # not change what the class gets.
        return []

    def init_settings(self) -> dict[str, Any]:
        # traitlets sets the app's logger to DEBUG and filters in its handler: every debug
        # line (several per kernel message) was formatted into a record and dropped.
        self.log.setLevel(self.log_level)
        settings: dict[str, Any] = super().init_settings()
        settings["log_function"] = log_request
        self.admission = Admission(
            self.kernel_manager,
            max_kernels=self.max_kernels,
            max_starting=self.max_starting,
            queue_timeout=self.queue_timeout,
        )
        return settings

    def init_handlers(self) -> list[Any]:
        voila.handler.NotebookRenderer = GuardedRenderer  # see GuardedRenderer
        voila.notebook_renderer.VoilaExporter = CachedTemplatesExporter
        replaced: Mapping[type, type] = {
            TornadoVoilaHandler: PageHandler,
            VoilaShutdownKernelHandler: PageCloseHandler,
            # the front end's files: compressed once, cached while their address holds
            TemplateStaticFileHandler: compressed(SafeTemplateStaticHandler),
            MultiStaticFileHandler: compressed(MultiStaticFileHandler),
            FileFindHandler: compressed(FileFindHandler),
            KernelHandler: OwnKernelHandler,
            VoilaKernelWebsocketHandler: OwnKernelWebsocketHandler,
        }
        login = getattr(self.identity_provider, "login_handler_class", None)
        logout = getattr(self.identity_provider, "logout_handler_class", None)
        handlers: list[tuple[Any, ...]] = [*self.room_handlers()]
        for route in super().init_handlers():
            pattern, handler, *rest = route
            if handler is login:
                handlers.append((pattern, ClassroomLoginHandler))
                continue
            if handler is logout:
                handlers.append((pattern, NotFoundHandler))
                continue
            options = dict(rest[0]) if rest else {}
            if handler is TornadoVoilaHandler:
                options["admission"] = self.admission
            handlers.append((pattern, with_error_pages(replaced.get(handler, handler)), options))
        return handlers

    def room_handlers(self) -> list[tuple[Any, ...]]:
        """The live room's routes (tutor.web.room_server), and its addresses printed for
        the teacher, or nothing when the room is off."""
        if not self.room:
            return []
        from tutor.web.room import Room
        from tutor.web.room_server import Teacher, room_handlers
        from tutor.web.room_store import RoomStore, default_room_db

        store = RoomStore(self.room_db or default_room_db())
        room = Room(store, join=self.room_join or f"http://127.0.0.1:{self.port}")
        teacher = Teacher(self.teacher_key or None)
        token = self.identity_provider.token if hasattr(self, "identity_provider") else ""
        again = " (continued: the same code, pupils and answers)" if room.continued else ""
        print(f"The live room {room.code}{again}: pupils open {room.join}")
        print(f"The teacher starts at http://127.0.0.1:{self.port}/room/teacher?key={teacher.key}")
        print(
            f"    then the room's summary: http://127.0.0.1:{self.port}/room/summary "
            f"(answers kept in {store.path})",
            flush=True,
        )
        return room_handlers(room, teacher, token or "")

    def start(self) -> None:
        # Voila.start, but the handlers answer only to the app's addresses (Voila adds
        # them for every host, ".*$").
        self.connection_dir = tempfile.mkdtemp(prefix="voila_", dir=self.connection_dir_root)
        self.log.info("Storing connection files in %s.", self.connection_dir)
        settings = self.init_settings()
        self.app = TutorApplication(**settings)
        self.app.settings.update(self.tornado_settings)
        handlers = [*self.init_handlers(), (r".*", NotFoundHandler)]  # not "unknown host"
        self.app.add_handlers(host_pattern(self.allowed_hosts), handlers)
        self.app.add_handlers(".*$", [(r".*", UnknownHostHandler)])
        self.log.info(
            "Answering to %s; at most %d kernels, %d starting at once",
            ", ".join(self.allowed_hosts),
            self.max_kernels,
            self.max_starting,
        )
        self.listen()
