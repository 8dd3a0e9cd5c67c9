"""The learner's progress: every graded answer, and every page finished, is an event,
appended and never rewritten; what the course page, practice and the teacher's page show
(pages done, quiz scores, right and wrong per topic, where to continue) is computed from
the events by one :class:`Summary`. The contract (the events' format and versions, what
"right at the first try", "done" and "continue" mean) is docs/progress.md.

Events live in a store that belongs to one learner:

- :class:`FileStore`: a JSON Lines file (``$TUTOR_PROGRESS_FILE``, default
  ``~/.wizard-tutor/progress.jsonl``), one event per line, appended with ``O_APPEND`` under an
  advisory lock, so two kernels of one learner (two open pages) both count. JupyterHub (the
  file sits in the learner's own home) and JupyterLab use it.
- the learner's browser (``localStorage``), for the plain app, classroom mode and the static
  site: a widget of the display layer (:mod:`tutor.display.browser_store`) talks to it.
- :class:`MemoryStore`: nothing is kept (tests, and "continue without saving").

``$TUTOR_PROGRESS_STORE`` (``browser`` or ``file``) chooses; the launcher sets it.

>>> progress = Progress(MemoryStore())
>>> _ = progress.record_answer(AnswerSource.PRACTICE, topic=Topic.JESTER_LEAD, correct=False)
>>> progress.weights()[Topic.JESTER_LEAD] > progress.weights()[Topic.SCORE]
True
>>> progress.reset()
>>> progress.count(Topic.JESTER_LEAD)
TopicCount(right=0, wrong=0)
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Protocol

from tutor.teaching.quiz import Topic
from tutor.teaching.text import DEFAULT_LANGUAGE, catalog, text

try:  # POSIX; elsewhere (Windows) appends rely on O_APPEND alone
    import fcntl
except ImportError:  # pragma: no cover - not on the machines the tests run on
    fcntl = None  # type: ignore[assignment]

PROGRESS_FILE_VARIABLE = "TUTOR_PROGRESS_FILE"
"""Environment variable naming the progress file (default :func:`default_progress_path`)."""

DEFAULT_PROGRESS_FILE = "~/.wizard-tutor/progress.jsonl"
"""The progress file unless told (:func:`default_progress_path`), in the learner's home."""

PROGRESS_STORE_VARIABLE = "TUTOR_PROGRESS_STORE"
"""Environment variable choosing where progress is kept: ``browser`` or ``file``."""

BROWSER_STORAGE_KEY = "wizard-tutor/progress/v1"
"""The browser's ``localStorage`` key: a JSON array of events."""
BROWSER_SOURCE = f"localStorage {BROWSER_STORAGE_KEY!r}"
"""How errors name the browser's store (a learner reads "this browser's storage")."""

EVENT_VERSION = 5
"""The version of the events this tutor writes; it reads every version from 1
(docs/progress.md: version 2 added the ``finished`` event, version 3 the ``step`` event,
version 4 the ``review`` answer and the ``rules`` of practice and review answers, version 5
the ``answer`` of a quiz answer)."""
MAX_LINE_BYTES = 4096
"""An event takes about 250 bytes; a longer line is not one the tutor wrote (and is not
parsed: no deep nesting or giant number reaches the JSON parser)."""
MAX_STORE_BYTES = 32 * 1024 * 1024
"""About 130,000 answers: more is not a progress store."""

PRACTICE = "practice"
"""The activity of practice answers (their events carry no lesson)."""
PRACTICE_GOAL = 10
"""Practice answers after which practice counts as done on the course page (it never ends,
but a learner who answered ten questions has tried it and may go on)."""

BASE_WEIGHTS: Mapping[Topic, float] = {
    Topic.JESTER_LEAD: 2.0,
    Topic.WIZARD_AFTER_NUMBER: 2.0,
    Topic.TRUMP_VS_LED: 2.0,
    Topic.BID_ZERO: 1.5,
    Topic.TRICK_WINNER: 1.0,
    Topic.LEGAL_PLAYS: 1.0,
    Topic.SCORE: 1.0,
    Topic.TRUMP_REVEAL: 1.0,
    Topic.NEXT_LEADER: 1.0,
    Topic.ROUND_PLAYED: 1.0,
    Topic.SCORE_SHEET: 1.0,
}
"""The topics practice asks about (those of the questions of :mod:`tutor.teaching.quiz`:
playing the cards, a round played through, a score sheet), and how often each comes up
for a new learner: the cases learners get wrong most weigh more."""


class PracticeTopicError(ValueError):
    """A topic practice asks no questions about (see :data:`BASE_WEIGHTS`)."""


def check_practice_topic(topic: Topic) -> None:
    """Refuse a topic practice asks no questions about (:class:`PracticeTopicError`)."""
    if topic not in BASE_WEIGHTS:
        raise PracticeTopicError(
            f"practice asks no questions on topic {str(topic)!r} (lessons do); practice "
            "topics: " + ", ".join(str(known) for known in BASE_WEIGHTS)
        )


# -- events ----------------------------------------------------------------------------------


class AnswerSource(StrEnum):
    """Where an answer was given (the event's ``kind``)."""

    QUIZ = "quiz"
    """A lesson's quiz (the event names the lesson and the item)."""
    PRACTICE = "practice"
    """Practice (no lesson, no item)."""
    REVIEW = "review"
    """The review page (from version 4): a question asked because its rules were due
    (:mod:`tutor.teaching.review`); a lesson's quiz item names its lesson and item."""


RESET = "reset"
"""The ``kind`` of a :class:`ResetEvent`."""
FINISHED = "finished"
"""The ``kind`` of a :class:`FinishedEvent` (from version 2)."""
STEP = "step"
"""The ``kind`` of a :class:`StepEvent` (from version 3)."""
_KINDS_4 = (
    AnswerSource.QUIZ.value,
    AnswerSource.PRACTICE.value,
    RESET,
    FINISHED,
    STEP,
    AnswerSource.REVIEW.value,
)
KINDS_BY_VERSION: Mapping[int, tuple[str, ...]] = {
    1: (AnswerSource.QUIZ.value, AnswerSource.PRACTICE.value, RESET),
    2: (AnswerSource.QUIZ.value, AnswerSource.PRACTICE.value, RESET, FINISHED),
    3: (AnswerSource.QUIZ.value, AnswerSource.PRACTICE.value, RESET, FINISHED, STEP),
    4: _KINDS_4,
    5: _KINDS_4,  # version 5 adds a quiz answer's ``answer``, no kind
}
"""The event kinds of each version of the format (docs/progress.md)."""


def _format_time(moment: datetime) -> str:
    """An event's ``time`` for ``moment`` (which must know its time zone)."""
    if moment.tzinfo is None:
        raise EventError(f"time {moment!r} has no time zone: events are in UTC")
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _now() -> str:
    return _format_time(datetime.now(UTC))


def _new_id() -> str:
    return uuid.uuid4().hex


def _head(event: Event, kind: str) -> dict[str, object]:
    """The fields every event starts with (docs/progress.md)."""
    return {"v": EVENT_VERSION, "id": event.id, "time": event.time, "kind": kind}


AnswerCode = int | tuple[int, ...]
"""A quiz answer as its event keeps it (``answer``, docs/progress.md): the number
answered, the position of the choice picked, or the positions of the choices selected
(:func:`tutor.teaching.question.answer_code` makes it from an answer and reads it back)."""
MAX_ANSWER_CHOICES = 64
MAX_ANSWER_NUMBER = 10**9


@dataclass(frozen=True, slots=True)
class AnswerEvent:
    """One graded answer. ``first_try``: given before the page showed any feedback on this
    question (a question's Try again and the missed questions asked again are not).
    ``rules``: the rules a practice or review answer asked (ids of
    :mod:`tutor.teaching.rule_map`, from version 4); a quiz answer's are its item's."""

    kind: AnswerSource
    topic: str
    correct: bool
    first_try: bool
    lesson: str | None = None
    item: str | None = None
    id: str = field(default_factory=_new_id)
    time: str = field(default_factory=_now)
    rules: tuple[str, ...] = ()
    answer: AnswerCode | None = None
    """What the learner answered (a quiz answer, from version 5): :data:`AnswerCode`."""

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            **_head(self, self.kind.value),
            "lesson": self.lesson,
            "item": self.item,
            "topic": self.topic,
            "correct": self.correct,
            "first_try": self.first_try,
        }
        if self.rules or self.kind is AnswerSource.REVIEW:
            data["rules"] = list(self.rules)
        if self.answer is not None:
            data["answer"] = list(self.answer) if isinstance(self.answer, tuple) else self.answer
        return data


@dataclass(frozen=True, slots=True)
class FinishedEvent:
    """The learner got to the end of a page: a lesson's quiz answered through, the worked
    example's last step, a round of the play screen. ``page`` is the page's name (its
    notebook's, without ``.ipynb``; a lesson's id)."""

    page: str
    id: str = field(default_factory=_new_id)
    time: str = field(default_factory=_now)

    def to_json(self) -> dict[str, object]:
        return {**_head(self, FINISHED), "page": self.page}


MAX_STEPS = 1000
"""The most steps a stepped page has (the worked example has 21): a larger number in a
``step`` event is not one the tutor wrote."""


@dataclass(frozen=True, slots=True)
class StepEvent:
    """The learner moved to step ``step`` (from 1) of the ``steps`` steps of a stepped page
    (the worked example): the page opens there again. ``page`` as in
    :class:`FinishedEvent`. A page whose number of steps changed since opens at its first
    step (:meth:`Summary.open_at`)."""

    page: str
    step: int
    steps: int
    id: str = field(default_factory=_new_id)
    time: str = field(default_factory=_now)

    def to_json(self) -> dict[str, object]:
        return {**_head(self, STEP), "page": self.page, "step": self.step, "steps": self.steps}


@dataclass(frozen=True, slots=True)
class ResetEvent:
    """ "Forget every event before this one" (a reset is an event, so a second open page
    cannot bring back what was reset)."""

    id: str = field(default_factory=_new_id)
    time: str = field(default_factory=_now)

    def to_json(self) -> dict[str, object]:
        return _head(self, RESET)


Event = AnswerEvent | FinishedEvent | StepEvent | ResetEvent


class EventError(ValueError):
    """Data that is not an event of docs/progress.md: the message names the field, the
    value and the rule."""


class _NewerEventError(EventError):
    def __init__(self, version: int) -> None:
        super().__init__(
            f"event field 'v' is {version}; this tutor reads versions 1 to {EVENT_VERSION} "
            "(the event was written by a newer tutor)"
        )


_ID = re.compile(r"[0-9a-f]{32}")
_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z")
_LESSON = re.compile(r"[0-9]{2}_[a-z0-9_]{1,60}")
"""A lesson's id: its file's name (tutor.teaching.lesson_loader)."""
_ITEM = re.compile(r"[a-z0-9][a-z0-9_-]{0,80}")
"""A quiz item's id (language-independent: the same question in every language)."""
_PAGE = re.compile(r"[^\x00-\x1f\x7f]{1,80}")
"""A page's name: its notebook's file name without ``.ipynb`` (any, up to 80 characters)."""
_PAGE_RULE = "it must be a page's name, e.g. '08_worked_example'"
_RULE_ID = re.compile(r"(?=.{1,60}$)[a-z0-9]+(-[a-z0-9]+)*")
"""A rule's id (tutor/teaching/rule_map.toml), up to 60 characters (the longest is 38;
the class database keeps 20 of them in one column); whether the map still has it is the
reader's business (a rule the map no longer has is not counted, like a removed item)."""
MAX_RULES = 20
"""The most rules one answer asks (a question asks one to a few)."""
_RULES_RULE = f'it must be a list of up to {MAX_RULES} rule ids, e.g. ["winner-leads-next"]'
_TOPICS = tuple(topic.value for topic in Topic)


def _field(data: Mapping[str, object], name: str, kind: type, rule: str) -> object:
    """``data[name]``, which must be there and be a ``kind`` (a bool is no number here)."""
    if name not in data:
        raise EventError(f"event field {name!r} is missing; {rule}")
    value = data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise EventError(f"event field {name!r} is {value!r}; {rule}")
    return value


def _named(data: Mapping[str, object], name: str, pattern: re.Pattern[str], rule: str) -> str:
    value = _field(data, name, str, rule)
    assert isinstance(value, str)
    if not pattern.fullmatch(value):
        raise EventError(f"event field {name!r} is {value!r}; {rule}")
    return value


def parse_event(data: object) -> Event:
    """An event from its JSON form (docs/progress.md); :class:`EventError` names the
    field, the value and the rule.

    >>> parse_event({"v": 1, "id": "0" * 32, "time": "2026-12-01T10:00:00Z", "kind": "reset"})
    ResetEvent(id='00000000000000000000000000000000', time='2026-12-01T10:00:00Z')
    >>> parse_event({"v": 2, "id": "0" * 32, "time": "2026-12-01T10:00:00Z", "kind": "finished",
    ...              "page": "08_worked_example"}).page
    '08_worked_example'
    >>> parse_event({"v": 3, "id": "0" * 32, "time": "2026-12-01T10:00:00Z", "kind": "step",
    ...              "page": "08_worked_example", "step": 22, "steps": 21})
    Traceback (most recent call last):
    ...
    tutor.teaching.progress.EventError: event field 'step' is 22; it must be a step's number, from 1 to 'steps' (21)
    >>> parse_event({"v": 1, "id": "0" * 32, "time": "2026-12-01T10:00:00Z", "kind": "quiz",
    ...              "lesson": "06_trick_winner", "item": "q1", "topic": "trick-winner",
    ...              "correct": "yes", "first_try": True})
    Traceback (most recent call last):
    ...
    tutor.teaching.progress.EventError: event field 'correct' is 'yes'; it must be true or false
    """
    if not isinstance(data, Mapping):
        raise EventError(f"an event must be a JSON object, not {type(data).__name__}")
    version = _field(data, "v", int, f"it must be a version number from 1 to {EVENT_VERSION}")
    assert isinstance(version, int)
    if version < 1:
        raise EventError(f"event field 'v' is {version!r}; it must be a version number from 1")
    if version > EVENT_VERSION:
        raise _NewerEventError(version)
    event_id = _named(data, "id", _ID, "it must be 32 lower-case hexadecimal digits (a uuid4)")
    time = _named(data, "time", _TIME, "it must be a UTC time such as 2026-12-01T10:00:00Z")
    kinds = KINDS_BY_VERSION[version]
    kind = _field(data, "kind", str, "it must be one of " + ", ".join(map(repr, kinds)))
    if kind not in kinds:
        raise EventError(
            f"event field 'kind' is {kind!r}; in version {version} it must be one of "
            + ", ".join(map(repr, kinds))
        )
    if kind == RESET:
        return ResetEvent(id=event_id, time=time)
    if kind == FINISHED:
        page = _named(data, "page", _PAGE, _PAGE_RULE)
        return FinishedEvent(page, id=event_id, time=time)
    if kind == STEP:
        page = _named(data, "page", _PAGE, _PAGE_RULE)
        steps = _field(data, "steps", int, f"it must be a whole number from 1 to {MAX_STEPS}")
        assert isinstance(steps, int)
        if not 1 <= steps <= MAX_STEPS:
            raise EventError(
                f"event field 'steps' is {steps!r}; it must be a whole number from 1 to {MAX_STEPS}"
            )
        step = _field(data, "step", int, "it must be a step's number, from 1 to 'steps'")
        assert isinstance(step, int)
        if not 1 <= step <= steps:
            raise EventError(
                f"event field 'step' is {step!r}; it must be a step's number, from 1 to "
                f"'steps' ({steps})"
            )
        return StepEvent(page, step, steps, id=event_id, time=time)
    source = AnswerSource(kind)
    topic = _field(data, "topic", str, "it must be a topic of the tutor")
    if topic not in _TOPICS:
        known = ", ".join(map(repr, _TOPICS))
        raise EventError(f"event field 'topic' is {topic!r}; it must be one of {known}")
    assert isinstance(topic, str)
    correct = _field(data, "correct", bool, "it must be true or false")
    first_try = _field(data, "first_try", bool, "it must be true or false")
    lesson = item = None
    if source is AnswerSource.QUIZ or (
        source is AnswerSource.REVIEW and data.get("lesson") is not None
    ):
        lesson = _named(
            data, "lesson", _LESSON, f"a {kind} answer names its lesson, such as '06_trick_winner'"
        )
        item = _named(
            data, "item", _ITEM, f"a {kind} answer names its item's id, such as 'quiz-trump-led'"
        )
    else:
        for name in ("lesson", "item"):
            if data.get(name) is not None:
                raise EventError(
                    f"event field {name!r} is {data[name]!r}; a {kind} answer "
                    + ("has null there" if kind == "practice" else "with no lesson has null there")
                )
    rules: tuple[str, ...] = ()
    if source is AnswerSource.REVIEW or (
        source is AnswerSource.PRACTICE and version >= 4 and "rules" in data
    ):
        rules = _rules(data, needed=source is AnswerSource.REVIEW)
    answer = _answer(data) if source is AnswerSource.QUIZ and version >= 5 else None
    return AnswerEvent(
        kind=source,
        topic=topic,
        correct=bool(correct),
        first_try=bool(first_try),
        lesson=lesson,
        item=item,
        id=event_id,
        time=time,
        rules=rules,
        answer=answer,
    )


_ANSWER_RULE = (
    f"it must be a whole number (of at most {len(str(MAX_ANSWER_NUMBER)) - 1} digits) or a "
    f"list of at most {MAX_ANSWER_CHOICES} different choice positions (0 and up), in order"
)


def _answer(data: Mapping[str, object]) -> AnswerCode | None:
    """The ``answer`` of a quiz answer (version 5; none: the event does not say)."""
    value = data.get("answer")
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        if abs(value) < MAX_ANSWER_NUMBER:
            return value
    elif isinstance(value, list) and len(value) <= MAX_ANSWER_CHOICES:
        positions = tuple(value)
        if all(
            isinstance(n, int) and not isinstance(n, bool) and 0 <= n < MAX_ANSWER_CHOICES
            for n in positions
        ) and list(positions) == sorted(set(positions)):
            return positions
    raise EventError(f"event field 'answer' is {value!r}; {_ANSWER_RULE}")


def _rules(data: Mapping[str, object], *, needed: bool) -> tuple[str, ...]:
    """The ``rules`` of a practice answer (if it has the field; none: its topic says,
    :data:`tutor.teaching.review.PRACTICE_TOPIC_RULES`) or of a review answer (at least
    one)."""
    value = _field(data, "rules", list, _RULES_RULE)
    assert isinstance(value, list)
    if len(value) > MAX_RULES or (needed and not value):
        raise EventError(
            f"event field 'rules' is {value!r}; "
            + ("a review answer names the rules it asked: " if needed else "")
            + _RULES_RULE
        )
    for rule in value:
        if not isinstance(rule, str) or not _RULE_ID.fullmatch(rule):
            raise EventError(f"event field 'rules' has {rule!r}; {_RULES_RULE}")
    if len(set(value)) != len(value):
        raise EventError(f"event field 'rules' is {value!r}; it names a rule twice")
    return tuple(value)


# -- reading stores: every way a store can be bad ---------------------------------------------


class StoreProblem(StrEnum):
    """What is wrong with a progress store (its message in every language is
    ``progress.problem-<value>`` in the catalogs)."""

    UNREADABLE = "unreadable"
    FOLDER = "folder"
    TOO_BIG = "too-big"
    NOT_UTF8 = "not-utf8"
    DAMAGED = "damaged"
    NEWER = "newer"
    UNWRITABLE = "unwritable"
    BROWSER_BLOCKED = "browser-blocked"
    BROWSER_WRITE = "browser-write"


class ProgressStoreError(ValueError):
    """A progress store that cannot be read or written: which store, what is wrong, and
    where (a line of a file, an entry of the browser's list). ``message(lang)`` says it
    in the learner's language; ``str()`` in English with the technical detail."""

    def __init__(
        self, problem: StoreProblem, source: str, *, line: int | None = None, detail: str = ""
    ) -> None:
        self.problem = problem
        self.source = source
        self.line = line
        self.detail = detail
        where = f"{source}, line {line}" if line is not None else source
        super().__init__(
            f"progress store {where}: {problem.value}" + (f" ({detail})" if detail else "")
        )

    def message(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """What is wrong, for the learner (names the store, and the line if one is bad).

        >>> print(ProgressStoreError(StoreProblem.DAMAGED, "/h/p.jsonl", line=3).message())
        /h/p.jsonl is damaged at line 3: it is not an answer the tutor wrote.
        >>> print(ProgressStoreError(StoreProblem.DAMAGED, BROWSER_SOURCE).message("ja"))
        「このブラウザーの保存領域」は壊れています。チューターが書いた答えの一覧ではありません。
        """
        key = f"progress.problem-{self.problem.value}"
        if (
            self.line is not None
            and f"problem-{self.problem.value}-line" in catalog(lang)["progress"]
        ):
            key += "-line"
        source = (
            text("progress.browser-source", lang) if self.source == BROWSER_SOURCE else self.source
        )
        return text(key, lang, source=source, line=self.line if self.line is not None else "")


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number JSON allows")


def _load_json(text_value: str) -> object:
    """JSON that must be small and plain: no NaN/Infinity; nesting and huge numbers are
    refused by the callers' size limits and reported as damage, not as a crash."""
    return json.loads(text_value, parse_constant=_refuse_constant)


def _entry_problem(
    error: ValueError | RecursionError, source: str, line: int
) -> ProgressStoreError:
    """What an entry that is not an event means for its store (a line of a file, an entry
    of the browser's list): written by a newer tutor, or damaged."""
    if isinstance(error, _NewerEventError):
        return ProgressStoreError(StoreProblem.NEWER, source, line=line, detail=str(error))
    return ProgressStoreError(StoreProblem.DAMAGED, source, line=line, detail=str(error)[:200])


def parse_lines(raw: bytes, source: str) -> list[Event]:
    """The events of a JSON Lines file's bytes (blank lines are skipped). A line that is
    not an event the tutor wrote is reported (its number and the file), never dropped.

    >>> parse_lines(b'{"v": 1}\\n', "p.jsonl")
    Traceback (most recent call last):
    ...
    tutor.teaching.progress.ProgressStoreError: progress store p.jsonl, line 1: damaged (event field 'id' is missing; it must be 32 lower-case hexadecimal digits (a uuid4))
    """
    if len(raw) > MAX_STORE_BYTES:
        raise ProgressStoreError(StoreProblem.TOO_BIG, source, detail=f"{len(raw)} bytes")
    events: list[Event] = []
    for number, line in enumerate(raw.split(b"\n"), start=1):
        if not line.strip():
            continue
        if len(line) > MAX_LINE_BYTES:
            raise ProgressStoreError(
                StoreProblem.DAMAGED, source, line=number, detail=f"a line of {len(line)} bytes"
            )
        try:
            decoded = line.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ProgressStoreError(
                StoreProblem.NOT_UTF8, source, line=number, detail=str(error)
            ) from None
        try:
            events.append(parse_event(_load_json(decoded)))
        except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
            raise _entry_problem(error, source, number) from None
    return events


def parse_list(raw: str, source: str) -> list[Event]:
    """The events of the browser's form: one JSON array. ``line`` in a problem is the
    position (from 1) of the bad entry.

    >>> parse_list('[{"v": 1, "id": "%s", "time": "2026-12-01T10:00:00Z", "kind": "reset"}]'
    ...            % ("a" * 32), "this browser")[0].id == "a" * 32
    True
    >>> parse_list("{}", "this browser")
    Traceback (most recent call last):
    ...
    tutor.teaching.progress.ProgressStoreError: progress store this browser: damaged (not a list of events)
    """
    if len(raw) > MAX_STORE_BYTES:
        raise ProgressStoreError(StoreProblem.TOO_BIG, source, detail=f"{len(raw)} characters")
    try:
        # The entries are checked one by one below: the list itself must parse, and a
        # deep nesting or a giant number is damage, not a crash.
        data = _load_json(raw)
    except (ValueError, RecursionError) as error:
        raise ProgressStoreError(StoreProblem.DAMAGED, source, detail=str(error)[:200]) from None
    if not isinstance(data, list):
        raise ProgressStoreError(StoreProblem.DAMAGED, source, detail="not a list of events")
    events: list[Event] = []
    for number, entry in enumerate(data, start=1):
        try:
            events.append(parse_event(entry))
        except (ValueError, RecursionError) as error:
            raise _entry_problem(error, source, number) from None
    return events


# -- what the events add up to -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TopicCount:
    """Right and wrong answers in one topic."""

    right: int = 0
    wrong: int = 0

    @property
    def answered(self) -> int:
        return self.right + self.wrong

    def plus(self, correct: bool) -> TopicCount:
        """This count with one more answer."""
        if correct:
            return TopicCount(self.right + 1, self.wrong)
        return TopicCount(self.right, self.wrong + 1)


def topic_weight(topic: Topic, count: TopicCount) -> float:
    """How likely ``topic`` comes next: its base weight times 1 + 4 × the share of wrong
    answers (smoothed, so an unanswered topic counts as half wrong). It grows with every
    mistake and shrinks with every right answer, never to zero.

    >>> topic_weight(Topic.SCORE, TopicCount())
    3.0
    >>> topic_weight(Topic.SCORE, TopicCount(right=0, wrong=2)) > topic_weight(
    ...     Topic.SCORE, TopicCount(right=0, wrong=1))
    True
    >>> round(topic_weight(Topic.JESTER_LEAD, TopicCount(right=8, wrong=0)), 2)
    2.8
    """
    check_practice_topic(topic)
    miss_rate = (count.wrong + 1) / (count.answered + 2)
    return BASE_WEIGHTS[topic] * (1 + 4 * miss_rate)


@dataclass(frozen=True, slots=True)
class LessonResult:
    """A lesson's quiz for this learner: how many of its ``items`` were answered and how
    many right at the first try (:class:`Summary` says what that means)."""

    items: int
    answered: int = 0
    right: int = 0

    @property
    def done(self) -> bool:
        return self.items > 0 and self.answered >= self.items

    @property
    def started(self) -> bool:
        return self.answered > 0


@dataclass(frozen=True, slots=True)
class Summary:
    """What the events since the last reset add up to (docs/progress.md). The one
    summary of a learner's events: the course page, practice, and the teacher's page all
    read this.

    - A question is a lesson's quiz item, named by (lesson id, item id), the same in
      every language. **Right at the first try**: the learner's *earliest* answer to
      the question was right and given before any feedback on it. Later answers (Try
      again, the missed questions again, the quiz redone after a reload, in another
      language, or on a second open page) never change it: a redo does not rewrite a
      score. A question counts as answered from its earliest answer on.
    - A lesson is **done** when every question of its quiz is answered; practice after
      :data:`PRACTICE_GOAL` first-try answers; any other page once it was finished
      (a :class:`FinishedEvent`: the worked example's last step, a round played).
    - A stepped page (the worked example) opens at the step of its latest
      :class:`StepEvent` (:meth:`open_at`).
    - Practice counts, per topic, the answers given first to each practice question.

    ``quiz_items`` names every lesson's quiz items (by lesson id), so a lesson's result
    counts only items it still has.

    >>> events = [AnswerEvent(AnswerSource.QUIZ, "trick-winner", False, True, "06_x", "q1"),
    ...           AnswerEvent(AnswerSource.QUIZ, "trick-winner", True, True, "06_x", "q2"),
    ...           AnswerEvent(AnswerSource.QUIZ, "trick-winner", True, True, "06_x", "q1")]
    >>> summary = Summary.of(events, {"06_x": ["q1", "q2"], "07_y": ["q1"]})
    >>> summary.lesson("06_x"), summary.lesson("06_x").done
    (LessonResult(items=2, answered=2, right=1), True)
    >>> summary.continue_at(["06_x", "07_y"])
    '06_x'
    """

    lessons: Mapping[str, LessonResult]
    topics: Mapping[str, TopicCount]
    """Practice's first tries, by topic."""
    first_tries: Mapping[str, TopicCount] = field(default_factory=dict)
    """Every question's first try, by topic: each quiz question once (its earliest
    answer) and every practice question (what the teacher's "most missed" counts)."""
    finished: frozenset[str] = frozenset()
    """The pages with a :class:`FinishedEvent`."""
    last_activity: str | None = None
    """The page of the latest event: a lesson's id, :data:`PRACTICE` or a page's name."""
    last_completed: bool = False
    """Whether the latest event completed its page: a :class:`FinishedEvent`, the answer
    to a lesson's last unanswered question, practice's :data:`PRACTICE_GOAL`-th, or a
    :class:`StepEvent` at its page's last step."""
    places: Mapping[str, StepEvent] = field(default_factory=dict)
    """Each stepped page's latest :class:`StepEvent`: where the learner left it."""
    answers: tuple[AnswerEvent, ...] = ()
    """Every answer (quiz, practice, review), each event once (by its id), in the order
    written: what the rules' memory states are replayed from (:mod:`tutor.teaching.review`)."""
    first_answers: Mapping[tuple[str, str], AnswerEvent] = field(default_factory=dict)
    """Each question's earliest answer, by (lesson id, item id): the one its score counts
    (what a lesson's page shows again when it is reopened)."""

    @classmethod
    def of(cls, events: Iterable[Event], quiz_items: Mapping[str, Sequence[str]]) -> Summary:
        since_reset: list[AnswerEvent | FinishedEvent | StepEvent] = []
        for event in events:
            if isinstance(event, ResetEvent):
                since_reset.clear()
            else:
                since_reset.append(event)
        items = {lesson: frozenset(ids) for lesson, ids in quiz_items.items()}
        earliest: dict[tuple[str, str], AnswerEvent] = {}  # each question's first answer
        answered = dict.fromkeys(items, 0)
        topics: dict[str, TopicCount] = {}
        first_tries: dict[str, TopicCount] = {}
        finished: set[str] = set()
        places: dict[str, StepEvent] = {}
        answers: dict[str, AnswerEvent] = {}
        last: str | None = None
        completed = False
        for event in since_reset:
            if isinstance(event, AnswerEvent):
                answers.setdefault(event.id, event)
                if event.kind is AnswerSource.REVIEW:
                    # The review page is no page of the course's sequence: its answers
                    # move no score and not "Continue" (docs/progress.md).
                    continue
            completed = False
            if isinstance(event, FinishedEvent):
                last, completed = event.page, True
                finished.add(event.page)
            elif isinstance(event, StepEvent):
                # the last step completes a stepped page, unless a quiz follows it there
                at_end = event.step == event.steps and event.page not in items
                last, completed = event.page, at_end
                places[event.page] = event
            elif event.kind is AnswerSource.QUIZ and event.lesson is not None:
                last = event.lesson
                key = (event.lesson, str(event.item))
                if event.item in items.get(event.lesson, ()) and key not in earliest:
                    earliest[key] = event
                    answered[event.lesson] += 1
                    completed = answered[event.lesson] == len(items[event.lesson])
                    first_tries[event.topic] = first_tries.get(event.topic, TopicCount()).plus(
                        event.correct and event.first_try
                    )
            elif event.kind is AnswerSource.PRACTICE:
                last = PRACTICE
                if event.first_try:
                    count = topics.get(event.topic, TopicCount()).plus(event.correct)
                    topics[event.topic] = count
                    first_tries[event.topic] = first_tries.get(event.topic, TopicCount()).plus(
                        event.correct
                    )
                    completed = sum(c.answered for c in topics.values()) == PRACTICE_GOAL
        lessons = {
            lesson: LessonResult(
                items=len(ids),
                answered=answered[lesson],
                right=sum(
                    1
                    for item in ids
                    if (first := earliest.get((lesson, item))) is not None
                    and first.correct
                    and first.first_try
                ),
            )
            for lesson, ids in items.items()
        }
        return cls(
            lessons=lessons,
            topics=topics,
            first_tries=first_tries,
            finished=frozenset(finished),
            last_activity=last,
            last_completed=completed,
            places=places,
            answers=tuple(answers.values()),
            first_answers=earliest,
        )

    def lesson(self, lesson: str) -> LessonResult:
        return self.lessons.get(lesson, LessonResult(items=0))

    def open_at(self, page: str, steps: int) -> int:
        """The step (from 0) a stepped ``page`` of ``steps`` steps opens at: where the
        learner left it, or the first step when they never moved on it, or when it had
        another number of steps then (its steps changed since: that place means nothing
        now).

        >>> summary = Summary.of([StepEvent("08_w", 5, 21)], {})
        >>> summary.open_at("08_w", 21), summary.open_at("08_w", 20), summary.open_at("09_x", 3)
        (4, 0, 0)
        """
        place = self.places.get(page)
        if place is None or place.steps != steps:
            return 0
        return place.step - 1

    def count(self, topic: Topic | str) -> TopicCount:
        return self.topics.get(str(topic), TopicCount())

    @property
    def practice(self) -> TopicCount:
        """Every practice answer (first tries), whatever the topic."""
        counts = list(self.topics.values())
        return TopicCount(sum(c.right for c in counts), sum(c.wrong for c in counts))

    def done(self, activity: str) -> bool:
        """Whether a page is done: a lesson's quiz answered through, practice's
        :data:`PRACTICE_GOAL` answers, or any other page finished."""
        if activity == PRACTICE:
            return self.practice.answered >= PRACTICE_GOAL
        if self.lesson(activity).items:
            return self.lesson(activity).done
        return activity in self.finished

    def continue_at(self, course: Sequence[str]) -> str | None:
        """Where to continue, given the course's pages in order (lesson ids,
        :data:`PRACTICE`, pages' names): the page of the learner's latest event; if that
        event completed the page (:attr:`last_completed`), the page after it. After the
        last page, or with no event on a page of this course, the first page not done
        (``None`` if every page is done); a learner with no events starts at the first.

        >>> Summary.of([], {}).continue_at(["01_a", "02_b"])
        '01_a'
        >>> Summary.of([FinishedEvent("01_a")], {}).continue_at(["01_a", "02_b"])
        '02_b'
        """
        if not course:
            return None
        first_to_do = next((page for page in course if not self.done(page)), None)
        if self.last_activity is None:
            return course[0]
        if self.last_activity not in course:
            return first_to_do
        start = course.index(self.last_activity)
        if not self.last_completed:
            return self.last_activity
        return course[start + 1] if start + 1 < len(course) else first_to_do


# -- stores ---------------------------------------------------------------------------------


class Store(Protocol):
    """Where one learner's events are kept. ``load`` gives every event, or ``None`` while
    the store has not answered yet (the browser's store then calls
    :meth:`Progress.reload` once it has); both methods raise :class:`ProgressStoreError`
    when the store cannot be read or the event could not be kept."""

    def load(self) -> list[Event] | None: ...

    def append(self, event: Event) -> None: ...

    def start_afresh(self) -> str | None:
        """Put a broken store aside (never delete it) and start an empty one; the name
        of where the old one went, if anywhere."""
        ...

    def where(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """A sentence for the learner: where the progress is kept."""
        ...


class MemoryStore:
    """Events kept by this page only (nothing survives it).

    >>> store = MemoryStore()
    >>> store.append(ResetEvent()); len(store.load())
    1
    """

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self.events = list(events)

    def load(self) -> list[Event]:
        return list(self.events)

    def append(self, event: Event) -> None:
        self.events.append(event)

    def start_afresh(self) -> str | None:
        self.events.clear()
        return None

    def where(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("progress.where-nowhere", lang)


def aside_name(name: str) -> str:
    """The name a broken store ``name`` is kept under when the learner starts afresh (it
    is put aside, never deleted): ``<name>.broken-<UTC time>``.

    >>> aside_name("progress.jsonl").startswith("progress.jsonl.broken-20")
    True
    """
    return f"{name}.broken-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}"


def default_progress_path() -> Path:
    """Where the progress file is: ``$TUTOR_PROGRESS_FILE`` if set, else
    ``~/.wizard-tutor/progress.jsonl`` in the learner's home folder.

    >>> default_progress_path().name
    'progress.jsonl'
    """
    return Path(os.environ.get(PROGRESS_FILE_VARIABLE) or DEFAULT_PROGRESS_FILE).expanduser()


class FileStore:
    """Events in a JSON Lines file, one per line. Appending opens the file with
    ``O_APPEND`` and holds an exclusive ``flock`` while it writes the whole line at once,
    so two kernels (two pages of one learner) both count; reading holds a shared lock.
    The file and its folder are the learner's only (modes 600 and 700).

    >>> import tempfile
    >>> store = FileStore(Path(tempfile.mkdtemp()) / "progress.jsonl")
    >>> store.append(ResetEvent()); store.append(ResetEvent()); len(store.load())
    2
    """

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_progress_path()

    def _problem(self, problem: StoreProblem, error: OSError | None = None) -> ProgressStoreError:
        detail = error.strerror or str(error) if error is not None else ""
        return ProgressStoreError(problem, str(self.path), detail=detail)

    def load(self) -> list[Event]:
        """Every event in the file (none if there is no file yet)."""
        try:
            with self.path.open("rb") as stream:
                if fcntl is not None:
                    fcntl.flock(stream.fileno(), fcntl.LOCK_SH)
                raw = stream.read(MAX_STORE_BYTES + 1)
        except FileNotFoundError:
            return []
        except IsADirectoryError as error:
            raise self._problem(StoreProblem.FOLDER, error) from None
        except OSError as error:
            raise self._problem(StoreProblem.UNREADABLE, error) from None
        return parse_lines(raw, str(self.path))

    def append(self, event: Event) -> None:
        """Add ``event`` as one line at the end of the file (creating it if needed)."""
        line = json.dumps(event.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n"
        data = line.encode("utf-8")
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            handle = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        except IsADirectoryError as error:
            raise self._problem(StoreProblem.FOLDER, error) from None
        except OSError as error:
            raise self._problem(StoreProblem.UNWRITABLE, error) from None
        try:
            if fcntl is not None:
                fcntl.flock(handle, fcntl.LOCK_EX)
            size = os.fstat(handle).st_size
            # A line cut short (a crash while writing) must not swallow this one: it stays
            # on a line of its own, and loading reports it.
            if size and os.pread(handle, 1, size - 1) != b"\n":
                data = b"\n" + data
            written = 0
            while written < len(data):
                written += os.write(handle, data[written:])
            os.fsync(handle)
        except OSError as error:
            raise self._problem(StoreProblem.UNWRITABLE, error) from None
        finally:
            os.close(handle)  # closing releases the lock

    def verify_writable(self) -> None:
        """Raise :class:`ProgressStoreError` if an answer could not be kept in the file: a
        folder in its place, or no permission to write it (or, while it does not exist, to
        make it where it goes). Changes nothing: the first answer makes the file.

        >>> import tempfile
        >>> FileStore(Path(tempfile.mkdtemp()) / "new" / "progress.jsonl").verify_writable()
        >>> FileStore(tempfile.mkdtemp()).verify_writable()
        Traceback (most recent call last):
        ...
        tutor.teaching.progress.ProgressStoreError: progress store /...: folder (it is a folder)
        """
        if self.path.is_dir():
            raise ProgressStoreError(StoreProblem.FOLDER, str(self.path), detail="it is a folder")
        if self.path.exists():
            if not os.access(self.path, os.W_OK):
                raise self._cannot_write("no permission to write it")
            return
        folder = self.path.parent  # the first folder there is: append makes the rest
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        if not folder.is_dir():
            raise self._cannot_write(f"{folder} is a file, not a folder")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise self._cannot_write(f"no permission to write in the folder {folder}")

    def _cannot_write(self, why: str) -> ProgressStoreError:
        return ProgressStoreError(StoreProblem.UNWRITABLE, str(self.path), detail=why)

    def start_afresh(self) -> str | None:
        """Move the file (or whatever is in its place) aside (:func:`aside_name`); the
        next answer starts a new file."""
        if not self.path.exists() and not self.path.is_symlink():
            return None
        aside = self.path.with_name(aside_name(self.path.name))
        try:
            self.path.rename(aside)
        except OSError as error:
            raise self._problem(StoreProblem.UNWRITABLE, error) from None
        return str(aside)

    def where(self, lang: str = DEFAULT_LANGUAGE) -> str:
        user = os.environ.get("JUPYTERHUB_USER")
        if user:
            return text("progress.where-hub", lang, user=user, file=str(self.path))
        return text("progress.where-file", lang, file=str(self.path))


class StoreSetting(StrEnum):
    """The values of ``$TUTOR_PROGRESS_STORE``."""

    BROWSER = "browser"
    FILE = "file"


class UnknownStoreError(ValueError):
    """A ``TUTOR_PROGRESS_STORE`` naming no store."""


def store_setting(environ: Mapping[str, str] | None = None) -> StoreSetting | None:
    """The store ``$TUTOR_PROGRESS_STORE`` asks for (``None`` when unset: the page's kind
    decides). A typo is refused loudly, naming the known values.

    >>> store_setting({"TUTOR_PROGRESS_STORE": "file"})
    <StoreSetting.FILE: 'file'>
    >>> store_setting({"TUTOR_PROGRESS_STORE": "cloud"})
    Traceback (most recent call last):
    ...
    tutor.teaching.progress.UnknownStoreError: TUTOR_PROGRESS_STORE='cloud' names no progress store; known: 'browser', 'file'
    """
    value = (os.environ if environ is None else environ).get(PROGRESS_STORE_VARIABLE, "")
    if not value.strip():
        return None
    try:
        return StoreSetting(value.strip().lower())
    except ValueError:
        known = ", ".join(repr(setting.value) for setting in StoreSetting)
        raise UnknownStoreError(
            f"{PROGRESS_STORE_VARIABLE}={value!r} names no progress store; known: {known}"
        ) from None


# -- the learner's progress -----------------------------------------------------------------


class ProgressState(StrEnum):
    LOADING = "loading"
    """The store has not answered yet (the browser's store answers once the page is up)."""
    READY = "ready"
    BROKEN = "broken"
    """The store could not be read: :attr:`Progress.problem` says why; answers are kept
    by this page only until the learner starts afresh."""


Listener = Callable[["Progress"], None]


class Progress:
    """One learner's events, from a :class:`Store`, and what they add up to.

    An answer the store could not take is kept by this page and sent again with the
    next one; while the store is broken, answers are this page's only, until the learner
    starts afresh (they then go to the new store). ``observe(listener)`` calls
    ``listener(progress)`` after every change.

    >>> progress = Progress(MemoryStore())
    >>> _ = progress.record_answer(AnswerSource.QUIZ, topic="trick-winner", correct=True,
    ...                            lesson="06_x", item="q1")
    >>> progress.summary({"06_x": ["q1", "q2"]}).lesson("06_x")
    LessonResult(items=2, answered=1, right=1)
    """

    def __init__(self, store: Store | None = None, *, load: bool = True) -> None:
        self.store: Store = store if store is not None else MemoryStore()
        self.state = ProgressState.LOADING
        self.problem: ProgressStoreError | None = None
        self.write_problem: ProgressStoreError | None = None
        self._events: list[Event] = []
        self._unsaved: list[Event] = []  # recorded here, not (yet) in the store
        self._listeners: list[Listener] = []
        if load:
            self.reload()

    # -- the store's side ----------------------------------------------------------------

    def reload(self) -> None:
        """Read the store again (another page of this learner may have added answers)."""
        self._read_store()
        self._changed()

    def _read_store(self) -> None:
        try:
            events = self.store.load()
        except ProgressStoreError as error:
            self.state, self.problem = ProgressState.BROKEN, error
        else:
            if events is not None:
                self._take(events)

    def _take(self, events: Sequence[Event]) -> None:
        self._events = list(events)
        known = {event.id for event in self._events}
        self._unsaved = [event for event in self._unsaved if event.id not in known]
        self.state, self.problem = ProgressState.READY, None

    def write_failed(self, error: ProgressStoreError) -> None:
        """The store could not keep an answer (this page still counts it)."""
        self.write_problem = error
        self._changed()

    def start_afresh(self) -> str | None:
        """Put the broken store aside and carry on with an empty one (keeping this page's
        answers); where the old store went, if anywhere."""
        aside = self.store.start_afresh()
        pending, self._unsaved = self._unsaved, []
        self.problem = None
        self.write_problem = None
        self._events = []
        self.state = ProgressState.READY
        for event in pending:
            self._keep(event)
        self.reload()
        return aside

    def forget_store(self) -> None:
        """Carry on without keeping anything (the store cannot be repaired from here)."""
        self.store = MemoryStore(self._events + self._unsaved)
        self._unsaved = []
        self.problem = None
        self.write_problem = None
        self.reload()

    # -- the learner's side ----------------------------------------------------------------

    def record_answer(
        self,
        kind: AnswerSource,
        *,
        topic: Topic | str,
        correct: bool,
        first_try: bool = True,
        lesson: str | None = None,
        item: str | None = None,
        rules: Sequence[str] = (),
        time: datetime | None = None,
        answer: AnswerCode | None = None,
    ) -> AnswerEvent:
        """Record one graded answer (``rules``: those a practice or review answer asked;
        ``time``: when, if not now; ``answer``: what a quiz answer was; :class:`EventError`
        names a value the parser would refuse)."""
        event = AnswerEvent(
            kind=kind,
            topic=str(topic),
            correct=correct,
            first_try=first_try,
            lesson=lesson,
            item=item,
            rules=tuple(rules),
            answer=answer,
            **({"time": _format_time(time)} if time is not None else {}),
        )
        parse_event(event.to_json())  # what is kept is what a reload can read
        self._keep(event)
        return event

    def record_finished(self, page: str) -> FinishedEvent:
        """Record that the learner got to the end of ``page`` (its notebook's name)."""
        if not _PAGE.fullmatch(page):
            raise EventError(f"page {page!r}: a page's name has 1 to 80 characters, none a control")
        event = FinishedEvent(page)
        self._keep(event)
        return event

    def record_step(self, page: str, step: int, steps: int) -> StepEvent:
        """Record that the learner moved to ``step`` (from 1) of the ``steps`` steps of
        ``page`` (its notebook's name); :class:`EventError` names a value out of range
        (the event's rules are the parser's: what is kept is what a reload can read)."""
        event = StepEvent(page, step, steps)
        parse_event(event.to_json())
        self._keep(event)
        return event

    def reset(self) -> None:
        """Forget every answer so far (for this learner only: a reset event in their store)."""
        self._keep(ResetEvent())

    def _keep(self, event: Event) -> None:
        self._unsaved.append(event)
        if self.state is not ProgressState.BROKEN:
            try:
                # Earlier answers the store could not take go first: a store that works
                # again gets them all (a store keeps an event once, whatever it is sent).
                for pending in list(self._unsaved):
                    self.store.append(pending)
            except ProgressStoreError as error:
                self.write_problem = error
            else:
                self.write_problem = None
                self._read_store()  # a file may hold answers of the learner's other pages too
        self._changed()

    # -- what it adds up to ---------------------------------------------------------------

    @property
    def events(self) -> list[Event]:
        """The store's events, then this page's not (yet) in it."""
        return self._events + self._unsaved

    def summary(self, quiz_items: Mapping[str, Sequence[str]] | None = None) -> Summary:
        return Summary.of(self.events, quiz_items or {})

    def count(self, topic: Topic) -> TopicCount:
        """Practice answers in ``topic`` (first tries since the last reset)."""
        return self.summary().count(topic)

    def weights(self) -> dict[Topic, float]:
        """Every practice topic's weight for the next question (:func:`topic_weight`)."""
        summary = self.summary()
        return {topic: topic_weight(topic, summary.count(topic)) for topic in BASE_WEIGHTS}

    def __iter__(self) -> Iterator[tuple[Topic, TopicCount]]:
        """The practice topics with their counts, in :data:`BASE_WEIGHTS` order."""
        summary = self.summary()
        return iter([(topic, summary.count(topic)) for topic in BASE_WEIGHTS])

    def observe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener(self)

    def __repr__(self) -> str:
        return f"<Progress {self.state.value}: {len(self.events)} events>"
