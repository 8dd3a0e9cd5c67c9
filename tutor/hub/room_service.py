"""The live room on the hub: served by the teacher service (:mod:`tutor.hub.teacher_service`)
under its prefix, ``<prefix>room/...``, one room per teacher (docs/live-room.md, "On the
hub").

The room itself and its handlers are the app's (:mod:`tutor.web.room`,
:mod:`tutor.web.room_server`): the same phases, answers, counts, summary, validation and
JSON errors. What the hub changes is who is who: the hub's OAuth login says who asks, a
teacher is a hub admin or a member of the ``teachers`` group, and a learner is their hub
login (no nickname, no key kept by the browser: one answer per login and question). Every
request a page's script makes needs the service's XSRF token (JupyterHub's own rule for
cookie-authenticated requests): the learner page carries it, the projector gets it from the
probe. The answers are kept in the class results' database (:mod:`tutor.web.room_store`).
"""

from __future__ import annotations

import asyncio
import functools
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from jupyterhub.services.auth import HubOAuthenticated
from jupyterhub.utils import get_browser_protocol
from sqlalchemy import Engine
from tornado import web

from tutor.web.addresses import is_local_host, machine_hosts, room_addresses
from tutor.web.room import Room, room_language
from tutor.web.room_checks import RoomError
from tutor.web.room_server import (
    AnswerHandler,
    JoinHandler,
    LearnerEventsHandler,
    LearnerPageHandler,
    LearnerStateHandler,
    LiveHub,
    ProbeHandler,
    QrHandler,
    QuestionsHandler,
    RoomFiles,
    SummaryCsvHandler,
    SummaryHandler,
    Teacher,
    TeacherActionHandler,
    TeacherEventsHandler,
    TeacherStateHandler,
    api,
    learner_page,
    summary_page,
    unknown_room_page,
)
from tutor.web.room_store import RoomStore

IsTeacher = Callable[[str], Awaitable[bool]]


class HubRooms:
    """Every teacher's room, loaded from the database when first asked for."""

    def __init__(self, engine: Engine, prefix: str) -> None:
        self.engine = engine
        self.store = RoomStore(engine)  # the tables made (or migrated) when the service starts
        self.base = prefix.rstrip("/") + "/room/"
        self._by_owner: dict[str, tuple[Room, LiveHub]] = {}

    def of_teacher(self, name: str, public: str) -> tuple[Room, LiveHub]:
        """The teacher's room (continued, or a new one), its join address on ``public``."""
        if name not in self._by_owner:
            room = Room(RoomStore(self.engine, owner=name), path=self.base)
            self._by_owner[name] = (room, LiveHub(room))
        room, live = self._by_owner[name]
        room.join_base = public
        setting = f"TUTOR_HUB_PUBLIC_URL={public_url_example(public)}"
        room.join_fix = ("projector.join-fix-hub", {"setting": setting, "script": "deploy/hub.sh"})
        return room, live

    def by_code(self, code: str) -> tuple[Room, LiveHub]:
        """The room with this code (a teacher's current one), else ``unknown-room``."""
        code = code.upper()
        for room, live in self._by_owner.values():
            if room.code == code:
                return room, live
        owner = self.store.owner_of(code)
        if owner is not None and owner not in self._by_owner:
            room, live = self.of_teacher(owner, "")
            if room.code == code:
                return room, live
        raise RoomError(404, "unknown-room", f"no room {code!r} on this hub")


def public_url_example(public: str) -> str:
    """The public URL to suggest when ``public`` is this machine's own (localhost): the
    same protocol and port on the address the room's phones most likely reach this
    machine by (its first private network address), else on its name.

    >>> public_url_example("https://localhost:8000").endswith(":8000")
    True
    """
    parts = urlsplit(public)
    if not parts.hostname or not is_local_host(parts.hostname):
        return public
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{_classroom_host()}{port}"


@functools.cache
def _classroom_host() -> str:
    """This machine's first classroom address, else a name others may know it by (read
    once: every request of a teacher on localhost asks)."""
    hosts = machine_hosts()
    reachable = room_addresses(hosts) or [h for h in hosts if not is_local_host(h)]
    return reachable[0] if reachable else "<this-machine>"


class HubRoomMixin(HubOAuthenticated):  # type: ignore[misc]
    """Who asks, as the hub says (before the app's handler runs): the room of the teacher
    who asks, or of the code in the address."""

    json_errors = True

    def initialize(
        self,
        room: Room | None = None,
        hub: LiveHub | None = None,
        teacher: Teacher | None = None,
        token: str = "",
        rooms: HubRooms | None = None,
        is_teacher_name: IsTeacher | None = None,
    ) -> None:
        # (the app's arguments are not given here: the room is found per request)
        assert rooms is not None and is_teacher_name is not None, "room_routes gives them"
        self.rooms, self.is_teacher_name = rooms, is_teacher_name
        self.teacher = Teacher()  # unused on the hub: the hub's login says who teaches
        self.token = ""
        self._gone = asyncio.Event()  # the event streams'
        self.hub_teacher = False
        self.login: str | None = None

    async def prepare(self) -> None:
        user = self.current_user
        if user and user.get("kind", "user") == "user":
            self.login = user["name"]
            self.hub_teacher = await self.is_teacher_name(user["name"])
        if self.hub_teacher and self.login:
            self.room, self.hub = self.rooms.of_teacher(self.login, self.public_address())

    def public_address(self) -> str:
        """The hub's address as the phones in the room open it ("https://host:port"): the
        configured public URL (JupyterHub.public_url, from TUTOR_HUB_PUBLIC_URL), else
        the address the teacher's browser used, as the proxies in front say it (the first
        X-Forwarded-Host, else Host; the outermost protocol)."""
        configured = urlsplit(os.environ.get("JUPYTERHUB_PUBLIC_URL", ""))
        if configured.scheme and configured.netloc:
            return f"{configured.scheme}://{configured.netloc}"
        headers = self.request.headers
        host = headers.get("X-Forwarded-Host", "").split(",")[0].strip() or self.request.host
        return f"{get_browser_protocol(self.request)}://{host}"

    def is_teacher(self) -> bool:
        return self.hub_teacher

    def room_of(self, code: str) -> Room:
        room, self.hub = self.rooms.by_code(code)
        return room

    def own_key(self) -> str:
        if self.login is None:
            raise RoomError(403, "unknown-learner", "log in to the hub to answer in the room")
        return f"hub:{self.login}"


# -- the teacher --------------------------------------------------------------------------------


class HubProbe(HubRoomMixin, ProbeHandler):
    """The projector's probe: as the app's, plus the XSRF token the hub asks of scripts."""

    def get(self) -> None:
        if not self.is_teacher():
            self.send_json({"teacher": False, "xsrf": self.xsrf_token.decode()})
            return
        self.send_json(
            {
                "teacher": True,
                "state": self.room.teacher_state(self.lang()),
                "xsrf": self.xsrf_token.decode(),
            }
        )


class HubTeacherState(HubRoomMixin, TeacherStateHandler):
    pass


class HubQuestions(HubRoomMixin, QuestionsHandler):
    pass


class HubTeacherAction(HubRoomMixin, TeacherActionHandler):
    pass


class HubTeacherEvents(HubRoomMixin, TeacherEventsHandler):
    pass


class HubQr(HubRoomMixin, QrHandler):
    pass


class HubSummary(HubRoomMixin, SummaryHandler):
    @api(teacher=True)
    def get(self) -> None:
        lang = self.lang()
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(summary_page(self.room, self.room.summary(lang), lang, self.rooms.base))


class HubSummaryCsv(HubRoomMixin, SummaryCsvHandler):
    pass


class HubStart(HubRoomMixin, web.RequestHandler):
    """``<prefix>room/start?page=<notebook>``: the teacher's way in (the results page links
    here): logged in to the service, they go on to present in their own server."""

    json_errors = False

    @web.authenticated
    def get(self) -> None:
        if not self.hub_teacher:
            raise web.HTTPError(403, "The live room is presented by the class's teachers.")
        page = self.get_query_argument("page", "index.ipynb")
        if not page.endswith(".ipynb") or "/" in page or ".." in page:
            raise web.HTTPError(400, f"page {page[:80]!r} is not a notebook of the course")
        lang = room_language(self.get_query_argument("lang", None))
        users = self.hub_auth.hub_prefix.removesuffix("hub/") + "user/"
        self.redirect(f"{users}{self.login}/voila/render/{page}?present=1&lang={lang}")


# -- the learners -----------------------------------------------------------------------------


class HubLearnerPage(HubRoomMixin, LearnerPageHandler):
    """The learner page, for a hub user (the hub's login first, if not logged in)."""

    json_errors = False

    @web.authenticated
    def get(self, code: str) -> None:  # type: ignore[override]  # (tornado types its decorator loosely)
        if code != code.upper():
            self.redirect(f"{self.rooms.base}{code.upper()}", permanent=False)
            return
        lang = self.page_lang()
        self.set_header("Content-Type", "text/html; charset=utf-8")
        try:
            room = self.room_of(code)
        except RoomError:
            self.set_status(404)
            self.finish(unknown_room_page(code.upper(), lang))
            return
        xsrf = self.xsrf_token.decode()
        self.finish(learner_page(room.code, lang, self.rooms.base, {"hub": True, "xsrf": xsrf}))


class HubJoin(HubRoomMixin, JoinHandler):
    @api()
    def post(self, code: str) -> None:
        room = self.room_of(code)
        self.own_key()
        learner = room.named_learner(self.login or "")
        self.set_status(201)
        self.send_json({"learner": learner.key, "nickname": learner.nickname})


def _mine(handler: HubRoomMixin, given: object) -> str:
    """A learner answers and reads for themselves only: the key named must be their own."""
    own = handler.own_key()
    if given != own:
        raise RoomError(
            403, "unknown-learner", "a learner answers for themselves only (their hub login)"
        )
    return own


class HubLearnerState(HubRoomMixin, LearnerStateHandler):
    @api()
    def get(self, code: str) -> None:
        room = self.room_of(code)
        key = _mine(self, self.get_query_argument("learner", ""))
        self.send_json(room.learner_state(key, self.lang()))


class HubAnswer(HubRoomMixin, AnswerHandler):
    @api()
    def post(self, code: str) -> None:
        room = self.room_of(code)
        body = self.body()
        key = _mine(self, body.get("learner"))
        if "answer" not in body:
            raise RoomError(400, "bad-field", "the body has no 'answer'")
        answer, first = room.answer(key, body.get("question"), body["answer"])
        self.send_json({"answer": answer, "first": first, "version": room.version})


class HubLearnerEvents(HubRoomMixin, LearnerEventsHandler):
    @api()
    async def get(self, code: str) -> None:
        room = self.room_of(code)
        room.learner(_mine(self, self.get_query_argument("learner", "")))
        await self.stream(room.learner_live())


def room_routes(
    prefix: str, rooms: HubRooms, is_teacher_name: IsTeacher
) -> list[tuple[str, type, dict[str, Any]]]:
    """The room's routes under the service's ``prefix``."""
    base = rooms.base
    code = r"([A-Za-z]{4})"
    options = {"rooms": rooms, "is_teacher_name": is_teacher_name}
    routes: list[tuple[str, type]] = [
        (rf"{base}start", HubStart),
        (rf"{base}api/probe", HubProbe),
        (rf"{base}api/state", HubTeacherState),
        (rf"{base}api/questions", HubQuestions),
        (rf"{base}api/(open|reveal|reopen|close|counts)", HubTeacherAction),
        (rf"{base}api/events", HubTeacherEvents),
        (rf"{base}qr\.svg", HubQr),
        (rf"{base}summary", HubSummary),
        (rf"{base}summary\.csv", HubSummaryCsv),
        (rf"{base}{code}", HubLearnerPage),
        (rf"{base}{code}/api/join", HubJoin),
        (rf"{base}{code}/api/state", HubLearnerState),
        (rf"{base}{code}/api/answer", HubAnswer),
        (rf"{base}{code}/api/events", HubLearnerEvents),
    ]
    # the page's script and stylesheet: no one's in particular, as in the app
    return [*((pattern, handler, options) for pattern, handler in routes), RoomFiles.route(base)]


class TeacherCache:
    """Whether a hub login is a teacher, asked of the hub at most every ``seconds`` (40
    learners' requests must not each cost the hub a call); a name not known as a teacher is
    asked again after 2 seconds (a teacher just added to the group)."""

    def __init__(self, teachers: Callable[[], Awaitable[set[str]]], seconds: float = 20.0):
        self.teachers, self.seconds = teachers, seconds
        self._known: set[str] = set()
        self._read = -1e9

    async def __call__(self, name: str) -> bool:
        age = time.monotonic() - self._read
        if age > self.seconds or (name not in self._known and age > 2.0):
            self._known = await self.teachers()
            self._read = time.monotonic()
        return name in self._known
