"""The live room's HTTP side (the API is docs/live-room.md; the room itself is
:mod:`tutor.web.room`): the learner page and its API, open to anyone who has the room's
address, and the teacher's API, which needs the cookie the teacher's start address sets.

Live updates are server-sent events, not a websocket: the updates only go from the server
to the pages (answers are ordinary POSTs, each with its own reply and error), EventSource
reconnects by itself after a phone's network drops, and it is plain HTTP that a proxy or a
phone's browser never treats specially. One stream per learner and per projector; an answer
sends one small event to the projector's streams only, a change of question one to
everyone.

These handlers are plain tornado handlers, outside Jupyter's login: the room code opens
the learner page and its API and nothing else, and the classroom token is neither needed
nor accepted for the teacher's routes.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import io
import json
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import tornado.ioloop
import tornado.web

from tutor.teaching.language import choose_language
from tutor.teaching.text import LANGUAGES, catalog, text

from .pages import ErrorPages, error_page, page_language, tutor_page
from .room import Room, room_language
from .room_checks import NICKNAME_LENGTH, RoomError
from .room_questions import question_list
from .templating import language_links, render

TEACHER_COOKIE = "tutor-room-teacher"
MAX_BODY = 4096
"""The most bytes of a request's JSON body (an answer is a few dozen)."""
KEEP_ALIVE_SECONDS = 15.0
"""A comment line on every stream this often: idle connections stay open through proxies
and phones' power saving, and a vanished client is noticed."""
STATIC = Path(__file__).with_name("room_static")

PAGE_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",  # the cards' SVG carries style attributes
        "img-src 'self' data:",
        "connect-src 'self'",
        "frame-ancestors 'self'",
        "base-uri 'none'",
        "form-action 'self'",
    ]
)


class Teacher:
    """The teacher's key, and the value of their cookie. The app keeps the key with the
    room's file (a restart keeps the teacher signed in: tutor.web.room_store.ClassroomKeys);
    without one given, a new key."""

    def __init__(self, key: str | None = None) -> None:
        self.key = key or secrets.token_urlsafe(24)
        # The cookie holds a digest of the key, not the key: a new key (--new-token), and
        # the cookies signed in with the old one open nothing.
        self.session = hashlib.sha256(b"tutor-room-teacher:" + self.key.encode()).hexdigest()

    def key_matches(self, given: str) -> bool:
        return hmac.compare_digest(given.encode(), self.key.encode())


# -- the streams -------------------------------------------------------------------------------


class LiveHub:
    """The open event streams of the room: the projectors' and the learners'."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.projectors: set[EventStream] = set()
        self.learners: set[EventStream] = set()
        self._learner_live: str | None = None
        self._keep_alive: tornado.ioloop.PeriodicCallback | None = None
        room.listeners.append(self.changed)

    def add(self, stream: EventStream, *, projector: bool) -> None:
        (self.projectors if projector else self.learners).add(stream)
        if self._keep_alive is None:
            self._keep_alive = tornado.ioloop.PeriodicCallback(self.ping, KEEP_ALIVE_SECONDS * 1000)
            self._keep_alive.start()

    def remove(self, stream: EventStream) -> None:
        self.projectors.discard(stream)
        self.learners.discard(stream)

    def changed(self, what: str) -> None:
        if self.projectors:
            message = event_message("room", self.room.live())
            for stream in list(self.projectors):
                stream.send(message)
        if what == "phase" and self.learners:
            message = event_message("room", self.room.learner_live())
            for stream in list(self.learners):
                stream.send(message)

    def ping(self) -> None:
        for stream in [*self.projectors, *self.learners]:
            stream.send(": keep-alive\n\n")


def event_message(event: str, data: object) -> str:
    return (
        f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n"
    )


# -- the handlers' common ground ---------------------------------------------------------------


class RoomHandler(ErrorPages):
    """Every room route: the room, its streams and the teacher are given by the app."""

    json_errors = True
    """Refusals as the API's JSON (pages set this False: the tutor's error page)."""

    def initialize(self, room: Room, hub: LiveHub, teacher: Teacher, token: str = "") -> None:
        self.room, self.hub, self.teacher, self.token = room, hub, teacher, token

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("Content-Security-Policy", PAGE_POLICY)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        if not self.json_errors:
            super().write_error(status_code, **kwargs)
            return
        error = kwargs.get("exc_info", (None, None))[1]
        message = getattr(error, "log_message", None) or self._reason
        code = {403: "forbidden", 404: "not-found", 405: "bad-method"}.get(
            status_code, "bad-request"
        )
        if status_code >= 500:
            code, message = "server", "the room could not answer this request"
        self.send_json({"error": {"code": code, "message": message}})

    def send_json(self, data: object) -> None:
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps(data, ensure_ascii=False))

    def refuse(self, error: RoomError) -> None:
        self.refusal = f"{error.code}: {error.message}"  # the log's line (log_request)
        self.set_status(error.status)
        if error.retry_after:
            self.set_header("Retry-After", str(error.retry_after))
        self.send_json({"error": {"code": error.code, "message": error.message}})

    def body(self) -> dict[str, Any]:
        """The request's JSON object (an empty body is ``{}``)."""
        raw = self.request.body
        if len(raw) > MAX_BODY:
            raise RoomError(413, "too-large", f"a body of {len(raw)} bytes: at most {MAX_BODY}")
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            raise RoomError(400, "bad-json", "the body is not JSON") from None
        if not isinstance(data, dict):
            raise RoomError(400, "bad-json", "the body must be a JSON object")
        return data

    def lang(self) -> str:
        return room_language(self.get_query_argument("lang", None))

    def page_lang(self) -> str:
        """A page's language: its ``?lang=`` (the learner's choice on the page, which the
        page keeps in its address), else the phone's (Accept-Language)."""
        return choose_language(
            self.get_query_argument("lang", None), self.request.headers.get("Accept-Language")
        )

    def room_of(self, code: str) -> Room:
        if code.upper() != self.room.code:
            raise RoomError(404, "unknown-room", f"no room {code.upper()!r} on this server")
        return self.room

    def is_teacher(self) -> bool:
        value = self.get_signed_cookie(TEACHER_COOKIE, max_age_days=2)
        return value is not None and hmac.compare_digest(value, self.teacher.session.encode())


Handler = Callable[..., Awaitable[None] | None]


def api(teacher: bool = False) -> Callable[[Handler], Handler]:
    """A route of the API: a :class:`RoomError` becomes its JSON reply; a teacher's route
    first checks the teacher's cookie, and a teacher's POST tornado's XSRF header."""

    def wrap(method: Handler) -> Handler:
        @functools.wraps(method)
        async def run(self: RoomHandler, *args: Any) -> None:
            try:
                if teacher and not self.is_teacher():
                    raise RoomError(
                        403,
                        "not-teacher",
                        "the teacher's routes need the teacher's start address first",
                    )
                if teacher and self.request.method == "POST":
                    # The stand-alone app does not switch tornado's XSRF check on for every
                    # handler (xsrf_cookies): the teacher's changes ask for it here.
                    try:
                        self.check_xsrf_cookie()
                    except tornado.web.HTTPError as error:
                        raise RoomError(
                            403,
                            "xsrf",
                            f"{error.log_message}: send the _xsrf cookie's value "
                            "in the X-XSRFToken header",
                        ) from None
                result = method(self, *args)
                if result is not None:
                    await result
            except RoomError as error:
                self.refuse(error)

        return run

    return wrap


class LearnerHandler(RoomHandler):
    """A learner's route: the learner's key in the body is what proves who answers (no cookie
    is involved, so a page elsewhere cannot answer through a learner's browser)."""

    def check_xsrf_cookie(self) -> None:
        pass


# -- the teacher -------------------------------------------------------------------------------


class TeacherStartHandler(RoomHandler):
    """``/room/teacher?key=...``: the teacher's cookie, then the course in presenter mode."""

    json_errors = False

    def get(self) -> None:
        given = self.get_query_argument("key", "")
        if not given or not self.teacher.key_matches(given):
            self.refusal = "wrong teacher key"
            self.set_status(403)
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish(error_page(403, page_language(self.request.query)))
            return
        self.xsrf_token  # noqa: B018  (read for its effect: the _xsrf cookie the POSTs need)
        self.set_signed_cookie(
            TEACHER_COOKIE,
            self.teacher.session,
            expires_days=1,
            httponly=True,
            samesite="Strict",
        )
        query = {"present": "1", **({"token": self.token} if self.token else {})}
        self.redirect("/voila/render/index.ipynb?" + urlencode(query))


class TeacherStateHandler(RoomHandler):
    @api(teacher=True)
    def get(self) -> None:
        self.send_json(self.room.teacher_state(self.lang()))


class ProbeHandler(RoomHandler):
    """``/room/api/probe``: whether this browser is the teacher's (and then the state), as
    ``200`` either way. The projector asks it on every presenter page of a classroom app;
    a learner presenting on their own must get no refusal (a 403 shows as an error in the
    browser's console and among the page's failed requests)."""

    def get(self) -> None:
        if not self.is_teacher():
            self.send_json({"teacher": False})
            return
        self.send_json({"teacher": True, "state": self.room.teacher_state(self.lang())})


class QuestionsHandler(RoomHandler):
    @api(teacher=True)
    def get(self) -> None:
        self.send_json(question_list(self.lang()))


class TeacherActionHandler(RoomHandler):
    """``POST /room/api/open|reveal|reopen|close|counts``."""

    @api(teacher=True)
    def post(self, action: str) -> None:
        body = self.body()
        if action == "open":
            self.room.open(body.get("lesson"), body.get("item"))
        elif action == "reveal":
            self.room.reveal()
        elif action == "reopen":
            self.room.reopen()
        elif action == "close":
            self.room.close()
        else:
            self.room.show_counts(body.get("shown"))
        self.send_json(self.room.teacher_state(self.lang()))


class QrHandler(RoomHandler):
    """``/room/qr.svg``: the join address as a QR code, drawn by segno."""

    @api(teacher=True)
    def get(self) -> None:
        import segno

        out = io.BytesIO()
        segno.make(self.room.join, error="m").save(
            out, kind="svg", xmldecl=False, scale=10, border=2, title=self.room.join
        )
        self.set_header("Content-Type", "image/svg+xml")
        self.finish(out.getvalue())


class SummaryHandler(RoomHandler):
    """``/room/summary``: the teacher's page of the room's summary."""

    @api(teacher=True)
    def get(self) -> None:
        lang = self.lang()
        rows = self.room.summary(lang)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(summary_page(self.room, rows, lang))


class SummaryCsvHandler(RoomHandler):
    @api(teacher=True)
    def get(self) -> None:
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header(
            "Content-Disposition", f'attachment; filename="room-{self.room.code}-summary.csv"'
        )
        self.finish(self.room.summary_csv(self.lang()))


def summary_page(room: Room, rows: list[dict[str, Any]], lang: str, base: str = "/room/") -> str:
    """The room's summary page (templates/room-summary.html); ``base`` is where the
    room's routes are (the hub's differ)."""
    return tutor_page(
        lang,
        text("room.summary-title", lang, code=room.code),
        [
            text("room.summary-learners", lang, count=len(room.learners)),
            *([] if rows else [text("room.summary-empty", lang)]),
        ],
        kind="room-summary",
        template="room-summary.html",
        rows=rows,
        base=base,
    )


# -- the learners --------------------------------------------------------------------------------


class LearnerPageHandler(RoomHandler):
    """``/room/<CODE>``: the learner page (plain HTML, one script, one stylesheet)."""

    json_errors = False

    def get(self, code: str) -> None:
        if code != code.upper():
            self.redirect(f"/room/{code.upper()}", permanent=False)
            return
        lang = self.page_lang()
        self.set_header("Content-Type", "text/html; charset=utf-8")
        if code != self.room.code:
            self.refusal = "unknown room code"
            self.set_status(404)
            self.finish(unknown_room_page(code, lang))
            return
        self.finish(learner_page(self.room.code, lang))


def unknown_room_page(code: str, lang: str) -> str:
    """The page of a room code no room has, in the phone's language."""
    return tutor_page(
        lang,
        text("room.title", lang, code=code),
        [text("room.error-unknown-room", lang, code=code)],
        kind="room-unknown",
    )


def learner_page(
    code: str, lang: str, base: str = "/room/", hub: dict[str, Any] | None = None
) -> str:
    """The learner page (templates/room-learner.html); ``base`` is where the room's routes
    are, ``hub`` what the hub's page adds (``{"hub": True, "xsrf": token}``: the learner
    is their hub login)."""
    data = {
        "code": code,
        "lang": lang,
        "words": {language: dict(catalog(language)["room"]) for language in LANGUAGES},
        "nicknameLimit": NICKNAME_LENGTH,
        "base": base,
        **(hub or {}),
    }
    return render(
        "room-learner.html",
        lang=lang,
        title=text("room.title", lang, code=code),
        data=data,
        static_url=functools.partial(RoomFiles.url, base),
        languages=language_links(f"{base}{code}"),
        language_label=text("room.language", lang),
    )


class RoomFiles(ErrorPages, tornado.web.StaticFileHandler):
    """``<base>assets/room.js`` and ``room.css`` (room_static/), by tornado's static file
    handler: the page names them with tornado's ``?v=`` (a hash of the file, the address of
    :meth:`url`), and such an address is kept by the phone for good; one without is asked
    again each time (``no-cache``: the ETag answers 304 while the file is the same)."""

    @classmethod
    def url(cls, base: str, name: str) -> str:
        """The versioned address of the room's file ``name``: what tornado's ``static_url``
        gives, with the room's folder and routes (the app's own static path is Voila's).

        >>> RoomFiles.url("/room/", "room.js").startswith("/room/assets/room.js?v=")
        True
        """
        settings = {"static_path": str(STATIC), "static_url_prefix": f"{base}assets/"}
        return cls.make_static_url(settings, name)

    @classmethod
    def route(cls, base: str) -> tuple[str, type, dict[str, Any]]:
        """The files' route under the room's ``base`` (the app's and the hub's)."""
        return (rf"{base}assets/(.*)", cls, {"path": str(STATIC)})

    def set_default_headers(self) -> None:
        self.set_header("X-Content-Type-Options", "nosniff")

    def get_content_type(self) -> str:
        # both are UTF-8 (room.js writes ✓ and ✗): said, not left to the page's encoding
        return f"{super().get_content_type()}; charset=utf-8"

    def set_extra_headers(self, path: str) -> None:
        if self.get_cache_time(path, self.modified, self.get_content_type()) == 0:
            self.set_header("Cache-Control", "no-cache")


class JoinHandler(LearnerHandler):
    @api()
    def post(self, code: str) -> None:
        room = self.room_of(code)
        learner = room.add_learner(self.body().get("nickname"))
        self.set_status(201)
        self.send_json({"learner": learner.key, "nickname": learner.nickname})


class LearnerStateHandler(LearnerHandler):
    @api()
    def get(self, code: str) -> None:
        room = self.room_of(code)
        self.send_json(room.learner_state(self.get_query_argument("learner", ""), self.lang()))


class AnswerHandler(LearnerHandler):
    @api()
    def post(self, code: str) -> None:
        room = self.room_of(code)
        body = self.body()
        if "answer" not in body:
            raise RoomError(400, "bad-field", "the body has no 'answer'")
        answer, first = room.answer(body.get("learner"), body.get("question"), body["answer"])
        self.send_json({"answer": answer, "first": first, "version": room.version})


# -- the event streams -------------------------------------------------------------------------


class EventStream(RoomHandler):
    """A ``text/event-stream`` held open until the client goes."""

    projector = False

    def initialize(self, room: Room, hub: LiveHub, teacher: Teacher, token: str = "") -> None:
        super().initialize(room, hub, teacher, token)
        self._gone = asyncio.Event()

    async def stream(self, first: object) -> None:
        self.set_header("Content-Type", "text/event-stream; charset=utf-8")
        self.set_header("X-Accel-Buffering", "no")
        self.write("retry: 2000\n\n")  # EventSource comes back after 2 s, not its 3-5 s
        self.hub.add(self, projector=self.projector)
        self.send(event_message("room", first))
        try:
            await self._gone.wait()
        finally:
            self.hub.remove(self)

    def send(self, message: str) -> None:
        if self._gone.is_set():
            return
        try:
            self.write(message)
            self.flush().add_done_callback(self._flushed)
        except Exception:  # the connection is gone (closed stream, finished request)
            self._gone.set()

    def _flushed(self, future: Any) -> None:
        if future.exception() is not None:
            self._gone.set()

    def on_connection_close(self) -> None:
        self._gone.set()


class TeacherEventsHandler(EventStream):
    projector = True

    @api(teacher=True)
    async def get(self) -> None:
        await self.stream(self.room.live(self.lang()))


class LearnerEventsHandler(EventStream):
    @api()
    async def get(self, code: str) -> None:
        room = self.room_of(code)
        room.learner(self.get_query_argument("learner", ""))
        await self.stream(room.learner_live())


def room_handlers(
    room: Room, teacher: Teacher, token: str
) -> list[tuple[str, type, dict[str, Any]]]:
    """The room's routes, for the app's handler list."""
    options = {"room": room, "hub": LiveHub(room), "teacher": teacher, "token": token}
    code = r"([A-Za-z]{4})"
    routes: list[tuple[str, type]] = [
        (r"/room/teacher", TeacherStartHandler),
        (r"/room/api/state", TeacherStateHandler),
        (r"/room/api/probe", ProbeHandler),
        (r"/room/api/questions", QuestionsHandler),
        (r"/room/api/(open|reveal|reopen|close|counts)", TeacherActionHandler),
        (r"/room/api/events", TeacherEventsHandler),
        (r"/room/qr\.svg", QrHandler),
        (r"/room/summary", SummaryHandler),
        (r"/room/summary\.csv", SummaryCsvHandler),
        (rf"/room/{code}", LearnerPageHandler),
        (rf"/room/{code}/api/join", JoinHandler),
        (rf"/room/{code}/api/state", LearnerStateHandler),
        (rf"/room/{code}/api/answer", AnswerHandler),
        (rf"/room/{code}/api/events", LearnerEventsHandler),
    ]
    return [
        *((pattern, handler, options) for pattern, handler in routes),
        RoomFiles.route("/room/"),
    ]
