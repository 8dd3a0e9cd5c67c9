"""The live room: learners answer the presenter's question on their phones, the projector
shows how the room answered (docs/live-room.md is the HTTP API; the handlers are in
:mod:`tutor.web.room_server`).

This module is the room's state and its phases, without HTTP: its code, its learners, the
question open now and every answer, and what the teacher and the learners may do to them.
It keeps the whole room in memory (40 learners and a lesson's questions are a few
kilobytes) and writes every change to its store (:mod:`tutor.web.room_store`: the app's
SQLite file or the hub's class database) before it says the change happened, so that a
restart continues the room. Beside it, each a job of its own: what the room refuses
(:mod:`tutor.web.room_checks`), its questions (:mod:`tutor.web.room_questions`), what each
client sees (:mod:`tutor.web.room_views`) and the summary (:mod:`tutor.web.room_summary`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from tutor.teaching.text import DEFAULT_LANGUAGE, LANGUAGES, join_sentences, text

from . import room_summary, room_views
from .room_checks import (
    ANSWER_LIMIT,
    JOIN_LIMIT,
    MAX_LEARNERS,
    RateLimit,
    RoomError,
    clean_nickname,
    new_code,
    quoted,
)
from .room_questions import RoomQuestion, find_question
from .room_store import RoomStore

PHASES = ("waiting", "open", "revealed")


@dataclass
class Learner:
    key: str
    nickname: str


Listener = Callable[[str], None]
"""Called after every change with what changed: "answer", "join" or "phase"."""


class Room:
    """One room: its code, learners, current question, phase and answers, kept in ``store``."""

    def __init__(self, store: RoomStore, *, join: str = "", path: str = "/room/") -> None:
        self.store = store
        # "http://address:port" and the room's path: the join address is join + path + CODE
        # (the hub: its public address and the teacher service's room path)
        self.join_base = join
        self.path = path
        # What the projector says to do when the join address is this machine's own (no
        # phone reaches it): the host's fix, a catalog key and its values.
        self.join_fix: tuple[str, dict[str, str]] = (
            "projector.join-fix-app",
            {"option": "--classroom"},
        )
        stored = store.recent_room()
        if stored is None:
            self.code = new_code(store.codes())
            store.add_room(self.code)
            self.continued = False
            stored_learners: dict[str, str] = {}
            self.current: str | None = None
            self.phase = "waiting"
            self.counts_shown = True
            self.version = 0
            self.asked: list[str] = []
            self.answers: dict[str, dict[str, tuple[object, object]]] = {}
        else:
            self.code = stored.code
            self.continued = True
            stored_learners = stored.learners
            self.current = stored.question
            self.phase = stored.phase if stored.phase in PHASES else "waiting"
            self.counts_shown = stored.counts_shown
            self.version = stored.version
            self.asked = stored.questions
            self.answers = stored.answers
        self.learners = {key: Learner(key, nickname) for key, nickname in stored_learners.items()}
        self.questions: dict[str, RoomQuestion] = {}
        self.listeners: list[Listener] = []
        self._answer_limit = RateLimit(*ANSWER_LIMIT)
        self._join_limit = RateLimit(*JOIN_LIMIT)
        if self.current is not None:
            try:
                lesson, _, item = self.current.partition("/")
                self.questions[self.current] = find_question(lesson, item)
            except RoomError:  # the lesson changed or went while the server was down
                self.current, self.phase = None, "waiting"

    @property
    def join(self) -> str:
        return f"{self.join_base}{self.path}{self.code}"

    def join_warning(self, lang: str) -> str | None:
        """What the projector says beside a join address that only this machine can open
        (localhost, 127.x: the teacher's browser opened the server there and nothing
        better is known), with the host's fix; ``None`` for an address phones can reach."""
        from tutor.web.addresses import is_local_host  # (psutil: the servers' only)

        host = urlsplit(self.join_base).hostname
        if not host or not is_local_host(host):
            return None
        key, values = self.join_fix
        return join_sentences([text("projector.join-local", lang), text(key, lang, **values)])

    def _changed(self, what: str) -> None:
        self.version += 1
        if what != "answer" and what != "join":
            self.store.save_room(
                self.code,
                question=self.current,
                phase=self.phase,
                counts_shown=self.counts_shown,
                version=self.version,
            )
        for listener in list(self.listeners):
            listener(what)

    def question(self, key: str) -> RoomQuestion:
        if key not in self.questions:
            lesson, _, item = key.partition("/")
            self.questions[key] = find_question(lesson, item)
        return self.questions[key]

    # -- the teacher -----------------------------------------------------------------------

    def open(self, lesson: object, item: object) -> None:
        asked = find_question(lesson, item)
        self.questions[asked.key] = asked
        self.current, self.phase = asked.key, "open"
        if asked.key not in self.asked:
            self.asked.append(asked.key)
        self._changed("phase")

    def _need_question(self) -> RoomQuestion:
        if self.current is None:
            raise RoomError(409, "no-question", "no question is open in the room: open one first")
        return self.question(self.current)

    def reveal(self) -> None:
        self._need_question()
        self.phase = "revealed"
        self._changed("phase")

    def reopen(self) -> None:
        self._need_question()
        self.phase = "open"
        self._changed("phase")

    def close(self) -> None:
        self.current, self.phase = None, "waiting"
        self._changed("phase")

    def show_counts(self, shown: object) -> None:
        if not isinstance(shown, bool):
            raise RoomError(400, "bad-field", f"shown {quoted(shown)} must be true or false")
        self._need_question()
        self.counts_shown = shown
        self._changed("phase")

    # -- the learners ------------------------------------------------------------------------

    def add_learner(self, nickname: object) -> Learner:
        name = clean_nickname(nickname)
        return self._admit(Learner(secrets.token_urlsafe(32), name))

    def named_learner(self, name: str) -> Learner:
        """The learner a hub login names (joined at their first request): on the hub the
        learner is who the hub says, not a key a browser keeps; the name is the hub's
        (its own pattern), shown as it is."""
        key = f"hub:{name}"
        if key in self.learners:
            return self.learners[key]
        return self._admit(Learner(key, name))

    def _admit(self, learner: Learner) -> Learner:
        """Let ``learner`` in unless the room is full or too many are joining at once."""
        if len(self.learners) >= MAX_LEARNERS:
            raise RoomError(
                409, "room-full", f"room {self.code} has {MAX_LEARNERS} learners: no more may join"
            )
        wait = self._join_limit.wait("room")
        if wait:
            raise RoomError(
                429, "too-many", "too many learners joining at once", retry_after=int(wait) + 1
            )
        self.store.add_learner(self.code, learner.key, learner.nickname)
        self.learners[learner.key] = learner
        self._changed("join")
        return learner

    def learner(self, key: object) -> Learner:
        learner = self.learners.get(key) if isinstance(key, str) else None
        if learner is None:
            raise RoomError(
                403,
                "unknown-learner",
                f"no learner with this key in room {self.code}: join the room first",
            )
        return learner

    def answer(self, key: object, question_key: object, value: object) -> tuple[object, bool]:
        """The learner's answer to the open question: (the answer as kept, whether it is the
        learner's first to this question)."""
        learner = self.learner(key)
        if self.current is None or self.phase != "open" or question_key != self.current:
            raise RoomError(
                409,
                "not-open",
                f"question {quoted(question_key)} is not open for answers"
                + (f" (open now: {self.current})" if self.current and self.phase == "open" else ""),
            )
        answer = self.question(self.current).read_answer(value)
        wait = self._answer_limit.wait(learner.key)
        if wait:
            raise RoomError(
                429,
                "too-many",
                "too many answers in a short time: wait a moment",
                retry_after=int(wait) + 1,
            )
        given = self.answers.setdefault(self.current, {})
        is_first = learner.key not in given
        first = answer if is_first else given[learner.key][1]
        self.store.save_answer(
            self.code, self.current, learner.key, answer, first, self.version + 1
        )
        given[learner.key] = (answer, first)
        self._changed("answer")
        return answer, is_first

    # -- what the clients see (tutor.web.room_views, tutor.web.room_summary) ---------------

    def counts(self, lang: str) -> dict[str, Any]:
        return room_views.answer_counts(self, lang)

    def live(self, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        return room_views.live(self, lang)

    def teacher_state(self, lang: str) -> dict[str, Any]:
        return room_views.teacher_state(self, lang)

    def learner_live(self) -> dict[str, Any]:
        return room_views.learner_live(self)

    def learner_state(self, key: object, lang: str) -> dict[str, Any]:
        return room_views.learner_state(self, key, lang)

    def summary(self, lang: str) -> list[dict[str, Any]]:
        return room_summary.summary(self, lang)

    def summary_csv(self, lang: str) -> bytes:
        return room_summary.summary_csv(self, lang)


def room_language(value: str | None) -> str:
    """``value`` if it is one of the tutor's languages, else the default.

    >>> room_language("ja"), room_language("fr"), room_language(None)
    ('ja', 'en', 'en')
    """
    return value if value in LANGUAGES else DEFAULT_LANGUAGE
