"""Who may use a kernel: only the browser whose page started it; and no kernel outlives
its page.

Every page gets the ``_xsrf`` cookie, whose random token is the browser's key
(:func:`browser_key`); :class:`TutorKernelManager` remembers which browser each kernel's
page was opened in, and every use of a kernel (its websocket, its REST model, the page-close
request) is accepted only from that browser, so one viewer cannot stop or drive another's
kernel even if they learn its id. The websocket also refuses frames that are not a
kernel's messages (:mod:`tutor.app.kernel_messages`).

A page gives its kernel back when it closes (Voila's page-close request,
:class:`PageCloseHandler`), but that request is a beacon sent while the page unloads,
which a browser may drop (forty tabs closing at once, a crashed tab, a browser that sends
no beacons); the kernel then idled until the culler's two minutes
(:mod:`tutor.app.settings`). A page also holds its kernel's websocket from the moment its
widgets are drawn, and the websocket closes with the page however it goes: when a
kernel's last connection has been closed for :data:`PAGE_GONE_GRACE` seconds, nobody came
back (a reconnect after a network blip comes within seconds), and its kernel is shut
down. The culler stays the backstop for a page that never connected, but not before the
page's own wait for its widgets (``?load_wait=``, README "The page's wait") and a minute
more have passed: a class's pages on slow machines may take minutes to connect, and their
kernels were culled while the pages were still drawing.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import hmac
from collections.abc import Callable
from datetime import timedelta
from typing import Any, cast
from urllib.parse import parse_qs

import tornado.web
from jupyter_client.session import Session
from jupyter_core.utils import ensure_async
from jupyter_server._tz import utcnow
from jupyter_server.base.call_context import CallContext
from jupyter_server.services.kernels.handlers import KernelHandler
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from .kernel_messages import kernel_message_problem

PAGE_GONE_GRACE = 10.0
"""Seconds a kernel is kept after its page's last websocket closed, for the page to
connect again (the page's kernel connection retries within a few seconds after a network
blip); then the page has gone and its kernel is shut down."""

LOAD_WAIT_RANGE = (1.0, 600.0)
"""The seconds ``?load_wait=`` may ask for (tutor-widgets.js's ``LOADING_WAIT_RANGE``)."""

UNCONNECTED_MARGIN = 60.0
"""Seconds beyond its page's wait a kernel whose page never connected is kept from the
culler (the page's own load, a busy server)."""


def page_load_wait(query: str) -> float | None:
    """The seconds the page whose address has the query ``query`` waits for its widgets
    before it reloads itself, when it asks (``?load_wait=``, within
    :data:`LOAD_WAIT_RANGE`, as the page reads it); else ``None``: the page's default
    wait (60 s), which the culler's idle timeout covers (tutor.app.settings).

    >>> page_load_wait("lang=ja&load_wait=300")
    300.0
    >>> page_load_wait("load_wait=9000"), page_load_wait("load_wait=soon"), page_load_wait("")
    (None, None, None)
    """
    asked = parse_qs(query).get("load_wait", [""])[-1]
    try:
        seconds = float(asked)
    except ValueError:
        return None
    least, most = LOAD_WAIT_RANGE
    return seconds if least <= seconds <= most else None


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
        self._connections: dict[str, int] = {}  # open websockets of each kernel's page
        self._page_gone: dict[str, asyncio.TimerHandle] = {}  # kernels waiting for their page
        self._reclaiming: set[asyncio.Task[None]] = set()
        self._load_waits: dict[str, float] = {}  # the wait a page asked for (?load_wait=)

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
            load_wait = page_load_wait(handler.request.query)
            if load_wait is not None:
                self._load_waits[kernel_id] = load_wait
        return kernel_id

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """jupyter_server's culling, except for a kernel whose page has not connected yet
        and may still be drawing: one whose page asked for a longer wait
        (:func:`page_load_wait`) is kept for that wait and :data:`UNCONNECTED_MARGIN` after
        its last activity (the end of the notebook's run); by then the page has connected,
        reloaded itself (giving this kernel back) or gone."""
        kernel = self._kernels.get(kernel_id)
        if (
            kernel is not None
            and kernel_id in self._load_waits
            and kernel_id not in self._connections
            and getattr(kernel, "execution_state", None) != "dead"
            and hasattr(kernel, "last_activity")
        ):
            keep = self._load_waits[kernel_id] + UNCONNECTED_MARGIN
            if utcnow() - kernel.last_activity < timedelta(seconds=keep):
                return
        await super().cull_kernel_if_idle(kernel_id)  # type: ignore[no-untyped-call]

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

    def notify_connect(self, kernel_id: str) -> None:
        """A page's websocket to the kernel ``kernel_id`` opened: it is the page's again."""
        super().notify_connect(kernel_id)  # type: ignore[no-untyped-call]
        if kernel_id not in self:  # (a page connecting as its kernel is removed)
            return
        self._connections[kernel_id] = self._connections.get(kernel_id, 0) + 1
        waiting = self._page_gone.pop(kernel_id, None)
        if waiting is not None:
            waiting.cancel()

    def notify_disconnect(self, kernel_id: str) -> None:
        """A page's websocket to the kernel ``kernel_id`` closed: when it was the last, the
        kernel is shut down unless a page connects within :data:`PAGE_GONE_GRACE` s."""
        super().notify_disconnect(kernel_id)  # type: ignore[no-untyped-call]
        if kernel_id not in self:  # its websocket closed as it was shut down
            return
        left = max(self._connections.get(kernel_id, 0) - 1, 0)
        self._connections[kernel_id] = left
        if left == 0 and kernel_id not in self._page_gone:
            loop = asyncio.get_running_loop()
            self._page_gone[kernel_id] = loop.call_later(PAGE_GONE_GRACE, self._reclaim, kernel_id)

    def _reclaim(self, kernel_id: str) -> None:
        self._page_gone.pop(kernel_id, None)
        if self._connections.get(kernel_id, 0) > 0 or kernel_id not in self:
            return  # its page came back, or it has gone already (the page-close request)
        if getattr(self.get_kernel(kernel_id), "shutting_down", False):
            return  # going already (a page-close request that came late)
        self.log.info(
            "Kernel %s: its page has gone (no connection for %.0f s)", kernel_id, PAGE_GONE_GRACE
        )
        task = asyncio.ensure_future(self._shut_down_quietly(kernel_id))
        self._reclaiming.add(task)  # held until done (the loop keeps only weak references)
        task.add_done_callback(self._reclaiming.discard)

    async def _shut_down_quietly(self, kernel_id: str) -> None:
        # shut down meanwhile (a late page-close request): "no such kernel"
        with contextlib.suppress(KeyError, tornado.web.HTTPError):
            await self.shutdown_kernel(kernel_id)  # type: ignore[no-untyped-call]

    def remove_kernel(self, kernel_id: str) -> Any:
        # Every way a kernel goes (page closed, culled, died, server stopping) ends here.
        self._owners.pop(kernel_id, None)
        self._connections.pop(kernel_id, None)
        self._load_waits.pop(kernel_id, None)
        waiting = self._page_gone.pop(kernel_id, None)
        if waiting is not None:
            waiting.cancel()
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
