"""The tutor app's server: Voila, stand-alone, with what a classroom needs on top.

A whole class opens one link at once, on a small machine. What this adds to Voila, and why:

- **Admission** (:mod:`tutor.app.admission`). Every page view starts a kernel and runs its
  notebook: about a second of CPU. Forty at once on two cores made every page wait for
  every other one until Voila gave up on their output. A few pages start at a time and
  the rest queue (first come, first served); a page that waited too long, or that would
  go past the cap on kernels, gets a short page saying the tutor is busy, which tries
  again by itself (HTTP 503 with ``Retry-After``). Nothing is ever silently left out.
- **A closing page gives its kernel back** (:mod:`tutor.app.kernel_access`). Voila's page
  sends a page-close request with the ``_xsrf`` cookie, but only a page reached through
  Voila's folder listing had that cookie: a lesson opened from a link or a bookmark was
  refused and its kernel idled for minutes. Every page now gets the cookie, and the
  request (like every use of a kernel: its websocket, its REST model) is accepted only
  from the browser whose page started the kernel, so one viewer cannot stop or drive
  another's kernel even if they learn its id. Each websocket frame is checked before
  Jupyter Server parses it (:mod:`tutor.app.kernel_messages`).
- **The page watched** (:mod:`tutor.app.pages`): a page whose kernel died or whose
  notebook failed ends with a notice and reloads by itself, and a classroom token never
  reaches a kernel (it is taken out of the page's address before the kernel's
  environment is made).
- **Only the addresses served** (:mod:`tutor.app.refused_requests`). Requests whose
  ``Host`` is not one of the app's addresses are refused (DNS rebinding), malformed
  template paths and ``/logout`` answer 404 instead of a server error, and every refused
  request gets the tutor's own page and one line in the log.

This module puts them together in :class:`TutorVoila`. The settings that do not change
between runs are in :mod:`tutor.app.settings`; the kernel the pages run in hides
tracebacks (:mod:`tutor.app.kernel`).
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from typing import Any

import voila.handler
import voila.notebook_renderer
from jupyter_server.base.handlers import FileFindHandler
from jupyter_server.services.kernels.handlers import KernelHandler
from traitlets import Bool, Float, Integer, List, Unicode, default
from voila.app import Voila
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.static_file_handler import MultiStaticFileHandler, TemplateStaticFileHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from .admission import Admission
from .kernel_access import OwnKernelHandler, OwnKernelWebsocketHandler, PageCloseHandler
from .pages import CachedTemplatesExporter, GuardedRenderer, PageHandler, SafeTemplateStaticHandler
from .refused_requests import (
    ClassroomLoginHandler,
    NotFoundHandler,
    TutorApplication,
    UnknownHostHandler,
    log_request,
    with_error_pages,
)
from .static_files import compressed

LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")


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

        store = RoomStore.open_file(self.room_db or default_room_db())
        room = Room(store, join=self.room_join or f"http://127.0.0.1:{self.port}")
        teacher = Teacher(self.teacher_key or None)
        token = self.identity_provider.token if hasattr(self, "identity_provider") else ""
        again = " (continued: the same code, pupils and answers)" if room.continued else ""
        print(f"The live room {room.code}{again}: pupils open {room.join}")
        print(f"The teacher starts at http://127.0.0.1:{self.port}/room/teacher?key={teacher.key}")
        print(
            f"    then the room's summary: http://127.0.0.1:{self.port}/room/summary "
            f"(answers kept in {store.engine.url.database})",
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
