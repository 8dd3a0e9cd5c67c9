"""The live room: learners answer the presenter's question on their phones, the projector
shows how the room answered (docs/live-room.md is the HTTP API; the handlers are in
:mod:`tutor.web.room_server`).

This module is the room itself, without HTTP: its code, its learners, the question open
now and every answer, checked and counted. It keeps the whole room in memory (40 learners
and a lesson's questions are a few kilobytes) and writes every change to the SQLite file
of :mod:`tutor.web.room_store` before it says the change happened, so that a restart
continues the room. The questions are lesson items graded by the engine, found by lesson
and item id (the course's lessons and the teacher's ``--lessons``).
"""

from __future__ import annotations

import csv
import io
import json
import re
import secrets
import time
import unicodedata
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

from tutor.display.svg import card_svg, trick_svg
from tutor.teaching.explain import unbroken
from tutor.teaching.lesson import LessonError
from tutor.teaching.lesson_loader import list_lessons, load_lesson
from tutor.teaching.quiz import AnswerKind, Question, read_number, revealed
from tutor.teaching.text import DEFAULT_LANGUAGE, LANGUAGES, join_sentences, join_words, text

from .room_store import StoredRoom

CODE_LETTERS = "ACDEFHJKMNPRTUVWXY"
"""Letters of a room code: none that a phone's font or a projector mixes up with a digit
or another letter (O 0, I 1 L, S 5, B 8, G 6, Z 2, Q)."""
CODE_LENGTH = 4

NICKNAME_LENGTH = 24
"""The most characters of a nickname (it must fit a line of the teacher's list)."""
MAX_LEARNERS = 300
"""The most learners of one room (a class is far fewer; this stops a script filling memory)."""
MAX_NUMBER = 10**9
"""A number answer is less than this in size (no question's answer comes close)."""

ANSWER_LIMIT = (8, 10.0)
"""A learner may answer this many times in so many seconds (changing their mind included)."""
JOIN_LIMIT = (200, 10.0)
"""The room takes this many joins in so many seconds (a lecture hall arriving at once fits;
a script joining in a loop is slowed down, and stopped at :data:`MAX_LEARNERS`)."""

PHASES = ("waiting", "open", "revealed")

_LESSON_ID = re.compile(r"\d{2}_[a-z0-9_]{1,80}")
_ITEM_ID = re.compile(r"[A-Za-z0-9_-]{1,80}")


class RoomError(Exception):
    """A request the room refuses: ``status`` (HTTP), ``code`` (stable, for the pages)
    and a message naming the value and the rule. Nothing was changed."""

    def __init__(self, status: int, code: str, message: str, *, retry_after: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


def new_code(taken: set[str]) -> str:
    """A room code not in ``taken``.

    >>> code = new_code({"ACDE"})
    >>> len(code), set(code) <= set(CODE_LETTERS), code != "ACDE"
    (4, True, True)
    """
    while True:
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def clean_nickname(value: object) -> str:
    """A learner's nickname as kept: the text with control characters taken out and spaces
    squeezed, at most :data:`NICKNAME_LENGTH` characters (longer is refused, never cut
    silently). Kept as typed otherwise: every page escapes it where it shows it.

    >>> clean_nickname("  Aiko\\n  <b> ")
    'Aiko <b>'
    """
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RoomError(400, "bad-field", f"nickname must be text, not {type(value).__name__}")
    kept = "".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in value)
    kept = " ".join(kept.split())
    if len(kept) > NICKNAME_LENGTH:
        raise RoomError(
            400,
            "bad-field",
            f"nickname {kept[:NICKNAME_LENGTH]!r}... has {len(kept)} characters: "
            f"at most {NICKNAME_LENGTH}",
        )
    return kept


class RateLimit:
    """At most ``count`` events in ``seconds`` (per key)."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count, self.seconds = count, seconds
        self._times: dict[str, deque[float]] = {}

    def wait(self, key: str, now: float | None = None) -> float:
        """0 when an event for ``key`` may happen now (it is counted), else the seconds
        until one may.

        >>> limit = RateLimit(2, 10.0)
        >>> limit.wait("aiko", 0.0), limit.wait("aiko", 1.0), limit.wait("aiko", 2.0)
        (0.0, 0.0, 8.0)
        >>> limit.wait("ben", 2.0), limit.wait("aiko", 10.0)
        (0.0, 0.0)
        """
        now = time.monotonic() if now is None else now
        times = self._times.setdefault(key, deque())
        while times and now - times[0] >= self.seconds:
            times.popleft()
        if len(times) >= self.count:
            return self.seconds - (now - times[0])
        times.append(now)
        return 0.0


# -- questions -------------------------------------------------------------------------------


@dataclass
class RoomQuestion:
    """A lesson item asked in the room, and how its answers are read and graded."""

    key: str
    lesson: str
    item: str
    question: Question
    _grades: dict[str, bool] = field(default_factory=dict)

    @property
    def kind(self) -> AnswerKind:
        return self.question.answer_kind

    @property
    def choices(self) -> tuple[object, ...]:
        return self.question.choices()

    def read_answer(self, value: Any) -> Any:
        """The answer of a request, checked (JSON: an index, sorted indices, a number)."""
        count = len(self.choices)
        if self.kind is AnswerKind.ONE_CHOICE:
            if not _is_int(value) or not 0 <= value < count:
                raise RoomError(
                    400,
                    "bad-field",
                    f"answer {_shown(value)} is not a choice: give 0 to {count - 1}",
                )
            return value
        if self.kind is AnswerKind.MANY_CHOICES:
            if not isinstance(value, list) or not all(_is_int(v) for v in value):
                raise RoomError(
                    400,
                    "bad-field",
                    f"answer {_shown(value)} is not a list of choices (0 to {count - 1})",
                )
            wrong = [v for v in value if not 0 <= v < count]
            if wrong or len(set(value)) != len(value):
                raise RoomError(
                    400,
                    "bad-field",
                    f"answer {_shown(value)}: each choice once, each from 0 to {count - 1}",
                )
            return sorted(value)
        number: int | None = (
            value
            if _is_int(value)
            else read_number(value)
            if isinstance(value, str) and len(value) < 40
            else None
        )
        if number is None or abs(number) >= MAX_NUMBER:
            raise RoomError(400, "bad-field", f"answer {_shown(value)} is not a whole number")
        return number

    def value(self, answer: Any) -> object:
        """A checked answer as the engine takes it (choices, not indices)."""
        if self.kind is AnswerKind.ONE_CHOICE:
            return self.choices[answer]
        if self.kind is AnswerKind.MANY_CHOICES:
            return frozenset(self.choices[i] for i in answer)
        return answer

    def is_right(self, answer: Any) -> bool:
        """Whether the engine grades ``answer`` right (remembered per distinct answer)."""
        key = json.dumps(answer)
        if key not in self._grades:
            self._grades[key] = self.question.check(self.value(answer)).correct
        return self._grades[key]

    def right_answer(self) -> object:
        if self.kind is AnswerKind.NUMBER:
            return self.question.correct_answer()
        right = [
            i for i, choice in enumerate(self.choices) if self.question.is_right_choice(choice)
        ]
        return right[0] if self.kind is AnswerKind.ONE_CHOICE else right

    def label(self, answer: Any, lang: str) -> str:
        """An answer in words (the choices' labels, or the number)."""
        if self.kind is AnswerKind.ONE_CHOICE:
            return self.question.choice_label(self.choices[answer], lang)
        if self.kind is AnswerKind.MANY_CHOICES:
            chosen = [self.question.choice_label(self.choices[i], lang) for i in answer]
            return join_words(chosen, lang) if chosen else text("room.nothing-chosen", lang)
        return self.question.number_words(answer)

    def words(self, lang: str) -> dict[str, Any]:
        """The question's words in ``lang`` (no pictures: the projector draws its own)."""
        return {
            "key": self.key,
            "lesson": self.lesson,
            "item": self.item,
            "kind": str(self.kind),
            "prompt": self.question.prompt(lang),
            "choices": [
                {
                    "index": index,
                    "label": self.question.choice_label(choice, lang),
                    "right": self.question.is_right_choice(choice),
                }
                for index, choice in enumerate(self.choices)
            ]
            if self.kind is not AnswerKind.NUMBER
            else [],
            # a number's right answer is no choice: the projector marks it even when no
            # learner gave it (the projector is the teacher's, who may know it before the reveal)
            "right_label": self.label(self.right_answer(), lang),
        }

    def for_learner(self, lang: str) -> dict[str, Any]:
        """The question as a learner's page shows it: words and cards, not the answer. The
        phone shows the words as plain text, each card's name unbroken
        (:func:`~tutor.teaching.explain.unbroken`), as in :meth:`Room.learner_state`."""
        question = self.question
        scene = question.scene()
        pictures = []
        if scene.trick:
            pictures.append(trick_svg(scene.trick, lang=lang))
        if scene.turned is not None:
            pictures.append(card_svg(scene.turned, lang=lang))
        # The situation in words, unless the cards drawn already show it (their pictures
        # name each card for a screen reader) or the prompt says it.
        situation = question.situation_text(lang)
        if pictures or any(question.choice_card(choice) for choice in self.choices):
            situation = question.prompt(lang)
        choices = []
        for index, choice in enumerate(self.choices):
            card = question.choice_card(choice)
            choices.append(
                {
                    "index": index,
                    "label": unbroken(question.choice_label(choice, lang)),
                    "card": card_svg(card, lang=lang) if card is not None else None,
                }
            )
        return {
            "key": self.key,
            "kind": str(self.kind),
            "prompt": unbroken(question.prompt(lang)),
            "situation": "" if situation == question.prompt(lang) else unbroken(situation),
            "scene": "".join(pictures),
            "answer_label": unbroken(question.answer_label(lang)),
            "choices": choices,
        }


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: object) -> str:
    shown = json.dumps(value, ensure_ascii=False)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def find_question(lesson_id: object, item_id: object) -> RoomQuestion:
    """The lesson item ``item_id`` of the lesson ``lesson_id``, if it is a question.

    >>> find_question("06_trick_winner", "quiz-trump-led").kind
    <AnswerKind.ONE_CHOICE: 'one-choice'>
    >>> find_question("../secret.toml", "x")
    Traceback (most recent call last):
    ...
    tutor.web.room.RoomError: lesson "../secret.toml" is not a lesson id like '06_trick_winner'
    """
    if not isinstance(lesson_id, str) or not _LESSON_ID.fullmatch(lesson_id):
        raise RoomError(
            400,
            "bad-field",
            f"lesson {_shown(lesson_id)} is not a lesson id like '06_trick_winner'",
        )
    if not isinstance(item_id, str) or not _ITEM_ID.fullmatch(item_id):
        raise RoomError(400, "bad-field", f"item {_shown(item_id)} is not an item id like 'quiz-1'")
    try:
        lesson = load_lesson(lesson_id)
        if lesson.id != lesson_id:
            raise LessonError(f"unknown lesson {lesson_id!r}")
        item = lesson.item(item_id)
        question = item.question
    except LessonError as error:
        raise RoomError(404, "unknown-question", str(error)) from None
    return RoomQuestion(f"{lesson_id}/{item_id}", lesson_id, item_id, question)


def question_list(lang: str) -> list[dict[str, Any]]:
    """Every lesson with the items that can be asked in the room."""
    listed = []
    for lesson in list_lessons():
        items = []
        for item in lesson.items():
            try:
                question = item.question
            except LessonError:
                continue  # a fact, not a question
            items.append(
                {
                    "item": item.id,
                    "kind": str(question.answer_kind),
                    "prompt": question.prompt(lang),
                }
            )
        if items:
            listed.append({"lesson": lesson.id, "title": lesson.title(lang), "items": items})
    return listed


# -- the room --------------------------------------------------------------------------------


class RoomStorage(Protocol):
    """Where a room is kept: the app's SQLite file (:class:`tutor.web.room_store.RoomStore`)
    or, on the hub, the class results' database (:class:`tutor.hub.room_store.HubRoomStore`).
    Each change is written before the room says it happened."""

    def recent_room(self, *, now: float | None = None) -> StoredRoom | None: ...
    def codes(self) -> set[str]: ...
    def add_room(self, code: str) -> None: ...
    def save_room(
        self, code: str, *, question: str | None, phase: str, counts_shown: bool, version: int
    ) -> None: ...
    def add_learner(self, code: str, key: str, nickname: str) -> None: ...
    def save_answer(
        self, code: str, question: str, learner: str, answer: object, first: object, version: int
    ) -> None: ...


@dataclass
class Learner:
    key: str
    nickname: str


Listener = Callable[[str], None]
"""Called after every change with what changed: "answer", "join" or "phase"."""


class Room:
    """One room: its code, learners, current question, phase and answers, kept in ``store``."""

    def __init__(self, store: RoomStorage, *, join: str = "", path: str = "/room/") -> None:
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
            raise RoomError(400, "bad-field", f"shown {_shown(shown)} must be true or false")
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
                f"question {_shown(question_key)} is not open for answers"
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

    # -- what the clients see --------------------------------------------------------------

    def counts(self, lang: str) -> dict[str, Any]:
        """How the room answered the current question: answered, every distinct answer with
        its count (most chosen first), per choice, and how many are right."""
        if self.current is None:
            return {"answered": 0, "counts": [], "choice_counts": [], "right": 0}
        asked = self.question(self.current)
        given: list[Any] = [
            answer for answer, _first in self.answers.get(self.current, {}).values()
        ]
        tally = Counter(json.dumps(answer) for answer in given)
        counts = [
            {
                "answer": json.loads(answer),
                "label": asked.label(json.loads(answer), lang),
                "count": count,
                "right": asked.is_right(json.loads(answer)),
            }
            for answer, count in sorted(tally.items(), key=lambda pair: (-pair[1], pair[0]))
        ]
        choice_counts: list[int] = []
        if asked.kind is not AnswerKind.NUMBER:
            choice_counts = [0] * len(asked.choices)
            for answer in given:
                for index in answer if isinstance(answer, list) else [answer]:
                    choice_counts[index] += 1
        return {
            "answered": len(given),
            "counts": counts,
            "choice_counts": choice_counts,
            "right": sum(entry["count"] for entry in counts if entry["right"]),
        }

    def live(self, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """The projector's live event: the room without words of the question."""
        return {
            "version": self.version,
            "phase": self.phase,
            "question_key": self.current,
            "counts_shown": self.counts_shown,
            "present": len(self.learners),
            **self.counts(lang),
        }

    def teacher_state(self, lang: str) -> dict[str, Any]:
        answered = self.answers.get(self.current, {}) if self.current else {}
        return {
            "code": self.code,
            "join": self.join,
            "join_warning": self.join_warning(lang),
            "version": self.version,
            "phase": self.phase,
            "counts_shown": self.counts_shown,
            "present": len(self.learners),
            "learners": [
                {"nickname": learner.nickname, "answered": learner.key in answered}
                for learner in self.learners.values()
            ],
            "question": self.question(self.current).words(lang) if self.current else None,
            # how the room did on each question asked: a presented lesson's last slide
            "summary": self.summary(lang),
            **self.counts(lang),
        }

    def learner_live(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "phase": self.phase,
            "question_key": self.current,
            "counts_shown": self.counts_shown,
        }

    def learner_state(self, key: object, lang: str) -> dict[str, Any]:
        learner = self.learner(key)
        state: dict[str, Any] = {
            "code": self.code,
            "version": self.version,
            "phase": self.phase,
            "nickname": learner.nickname,
            "question": None,
            "my_answer": None,
            "reveal": None,
        }
        if self.current is None:
            return state
        asked = self.question(self.current)
        state["question"] = asked.for_learner(lang)
        mine = self.answers.get(self.current, {}).get(learner.key)
        state["my_answer"] = mine[0] if mine else None
        state["my_answer_label"] = unbroken(asked.label(mine[0], lang)) if mine else ""
        if self.phase == "revealed":
            reveal: dict[str, Any] = {
                "right_answer": asked.right_answer(),
                "right_label": unbroken(asked.label(asked.right_answer(), lang)),
                "counts_shown": self.counts_shown,
            }
            # The engine's grading of the learner's answer, or of the right one for a learner
            # who gave none (then no verdict): the right answer, why, and the reasons one
            # per line (a list on the phone, never "- " run into a paragraph).
            graded = asked.value(mine[0]) if mine else asked.value(asked.right_answer())
            feedback = revealed(asked.question, graded, lang)
            reveal.update(
                correct=feedback.correct if mine else None,
                verdict=feedback.verdict if mine else "",
                answer=unbroken(feedback.answer),
                explanation=unbroken(feedback.explanation),
                reasons=[unbroken(reason) for reason in feedback.details],
            )
            if self.counts_shown:
                counts = self.counts(lang)
                for entry in counts["counts"]:
                    entry["label"] = unbroken(entry["label"])
                reveal.update(counts)
            state["reveal"] = reveal
        return state

    # -- after the lesson ------------------------------------------------------------------

    def summary(self, lang: str) -> list[dict[str, Any]]:
        """Per question asked (in the order first opened): answered, right at the first
        answer, the most chosen wrong answer (of the final answers) and its count."""
        rows = []
        for key in self.asked:
            try:
                asked = self.question(key)
            except RoomError:
                continue  # its lesson is gone: nothing to say what was asked
            given = self.answers.get(key, {})
            wrong = Counter(
                json.dumps(answer)
                for answer, _first in given.values()
                if not asked.is_right(answer)
            )
            top = wrong.most_common(1)
            rows.append(
                {
                    "lesson": asked.lesson,
                    "item": asked.item,
                    "question": asked.question.prompt(lang),
                    "answered": len(given),
                    "right_first": sum(1 for _a, first in given.values() if asked.is_right(first)),
                    "most_chosen_wrong": asked.label(json.loads(top[0][0]), lang) if top else "",
                    "most_chosen_wrong_count": top[0][1] if top else 0,
                }
            )
        return rows

    def summary_csv(self, lang: str) -> bytes:
        """The summary as a CSV file's bytes: UTF-8 with a byte-order mark. A spreadsheet
        opened by double-click (Excel above all) reads a file without the mark in the
        system's legacy code page and garbles Japanese and Chinese; with it, it reads UTF-8.
        Python's csv reads it with ``encoding="utf-8-sig"``."""
        out = io.StringIO()
        columns = [
            "lesson",
            "item",
            "question",
            "answered",
            "right_first",
            "most_chosen_wrong",
            "most_chosen_wrong_count",
        ]
        writer = csv.DictWriter(out, columns)
        writer.writeheader()
        for row in self.summary(lang):
            writer.writerow({name: _csv_safe(row[name]) for name in columns})
        return out.getvalue().encode("utf-8-sig")


def _csv_safe(value: object) -> object:
    """A cell a spreadsheet shows as text, never runs as a formula (a nickname or answer
    starting with = + - @)."""
    if (
        isinstance(value, str)
        and value[:1]
        and value[0] in "=+-@"
        and not re.fullmatch(r"-\d+", value)
    ):
        return "'" + value
    return value


def room_language(value: str | None) -> str:
    """``value`` if it is one of the tutor's languages, else the default.

    >>> room_language("ja"), room_language("fr"), room_language(None)
    ('ja', 'en', 'en')
    """
    return value if value in LANGUAGES else DEFAULT_LANGUAGE


__all__: Sequence[str] = [
    "Room",
    "RoomError",
    "RoomQuestion",
    "clean_nickname",
    "find_question",
    "question_list",
    "room_language",
]
