"""The events of a learner's progress (docs/progress.md): what each kind of event holds,
its JSON form, the versions of the format, and :func:`parse_event`, the one parser every
reader uses (the learner's stores, the class's service). An event is appended and never
rewritten; what the events add up to is :mod:`tutor.teaching.progress_summary`, where they
are kept :mod:`tutor.teaching.progress_stores`.

>>> event = AnswerEvent(AnswerSource.PRACTICE, "score", correct=True, first_try=True)
>>> parse_event(event.to_json()) == event
True
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum

from tutor.teaching.quiz import Topic

EVENT_VERSION = 5
"""The version of the events this tutor writes; it reads every version from 1
(docs/progress.md: version 2 added the ``finished`` event, version 3 the ``step`` event,
version 4 the ``review`` answer and the ``rules`` of practice and review answers, version 5
the ``answer`` of a quiz answer)."""


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


def format_event_time(moment: datetime) -> str:
    """An event's ``time`` for ``moment`` (which must know its time zone).

    >>> format_event_time(datetime(2026, 12, 1, 10, tzinfo=UTC))
    '2026-12-01T10:00:00.000000Z'
    """
    if moment.tzinfo is None:
        raise EventError(f"time {moment!r} has no time zone: events are in UTC")
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _now() -> str:
    return format_event_time(datetime.now(UTC))


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


class NewerEventError(EventError):
    """An event of a version this tutor does not read yet: a newer tutor wrote it."""

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
    tutor.teaching.progress_events.EventError: event field 'step' is 22; it must be a step's number, from 1 to 'steps' (21)
    >>> parse_event({"v": 1, "id": "0" * 32, "time": "2026-12-01T10:00:00Z", "kind": "quiz",
    ...              "lesson": "06_trick_winner", "item": "q1", "topic": "trick-winner",
    ...              "correct": "yes", "first_try": True})
    Traceback (most recent call last):
    ...
    tutor.teaching.progress_events.EventError: event field 'correct' is 'yes'; it must be true or false
    """
    if not isinstance(data, Mapping):
        raise EventError(f"an event must be a JSON object, not {type(data).__name__}")
    version = _field(data, "v", int, f"it must be a version number from 1 to {EVENT_VERSION}")
    assert isinstance(version, int)
    if version < 1:
        raise EventError(f"event field 'v' is {version!r}; it must be a version number from 1")
    if version > EVENT_VERSION:
        raise NewerEventError(version)
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


def check_page_name(page: str) -> None:
    """Refuse a name no page has (:class:`EventError`): what a ``finished`` or ``step``
    event may name.

    >>> check_page_name("08_worked_example")
    >>> check_page_name("")
    Traceback (most recent call last):
    ...
    tutor.teaching.progress_events.EventError: page '': a page's name has 1 to 80 characters, none a control
    """
    if not _PAGE.fullmatch(page):
        raise EventError(f"page {page!r}: a page's name has 1 to 80 characters, none a control")
