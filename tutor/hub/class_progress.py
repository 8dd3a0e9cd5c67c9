"""Learner-progress events (the shared PROGRESS_CONTRACT) checked, and a class's results
computed from them, for the teacher's page.

An event is one answer (``kind`` "quiz" or "practice") or a ``reset`` ("forget everything
before this event"). Results are always computed from a learner's events in the order
they were written, never stored: per lesson, done (every quiz item answered) and the quiz
score (items right at the first try); per topic, practice answers right and wrong at the
first try; for the class, the topics most often missed. Only the first try counts in a
score, as in the tutor itself; with two pages open, the earlier first try of an item wins.

>>> event = parse_event({"v": 1, "id": "0" * 32, "time": "2026-12-01T10:00:00Z",
...     "kind": "practice", "lesson": None, "item": None, "topic": "score",
...     "correct": False, "first_try": True})
>>> results = learner_results([event], {"07_scoring": ("quiz-bid-one-met",)})
>>> results.practice["score"], results.lessons["07_scoring"].done
(TopicCount(right=0, wrong=1), False)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tutor.teaching.progress import TopicCount
from tutor.teaching.quiz import Topic

CONTRACT_VERSION = 1
ANSWER_KINDS = ("quiz", "practice")
RESET_KIND = "reset"
_EVENT_ID = re.compile(r"[0-9a-f]{32}")
_LESSON_ID = re.compile(r"[0-9]{2}_[a-z0-9_]{1,60}")
_ITEM_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,80}")
TOPICS = tuple(topic.value for topic in Topic)


class EventError(ValueError):
    """An event that does not follow the progress contract (the message names the field,
    the value and the rule)."""


@dataclass(frozen=True, slots=True)
class Event:
    """One checked event. ``lesson``, ``item``, ``topic``, ``correct`` and ``first_try``
    are None for a reset."""

    id: str
    time: str
    kind: str
    lesson: str | None = None
    item: str | None = None
    topic: str | None = None
    correct: bool | None = None
    first_try: bool | None = None

    def as_json(self) -> dict[str, Any]:
        """The event as the contract writes it."""
        if self.kind == RESET_KIND:
            return {"v": CONTRACT_VERSION, "id": self.id, "time": self.time, "kind": self.kind}
        return {
            "v": CONTRACT_VERSION,
            "id": self.id,
            "time": self.time,
            "kind": self.kind,
            "lesson": self.lesson,
            "item": self.item,
            "topic": self.topic,
            "correct": self.correct,
            "first_try": self.first_try,
        }


def _field(raw: Mapping[str, Any], name: str, kinds: tuple[type, ...], rule: str) -> Any:
    if name not in raw:
        raise EventError(f"event field {name!r} is missing; {rule}")
    value = raw[name]
    # bool is an int in Python: a True where a number belongs is refused, and vice versa
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise EventError(f"event field {name!r} is {value!r}; {rule}")
    return value


def parse_event(raw: object) -> Event:
    """``raw`` (decoded JSON) checked against the contract, as an :class:`Event`.

    >>> parse_event({"v": 1, "id": "ab" * 16, "time": "2026-12-01T10:00:00Z", "kind": "reset"})
    Event(id='abababababababababababababababab', time='2026-12-01T10:00:00Z', kind='reset', lesson=None, item=None, topic=None, correct=None, first_try=None)
    >>> parse_event({"v": 1, "id": "ab" * 16, "time": "2026-12-01T10:00:00Z", "kind": "exam"})
    Traceback (most recent call last):
    ...
    tutor.hub.class_progress.EventError: event field 'kind' is 'exam'; it must be one of 'quiz', 'practice', 'reset'
    """
    if not isinstance(raw, Mapping):
        raise EventError(f"an event must be a JSON object, not {type(raw).__name__}")
    version = _field(raw, "v", (int,), f"the contract's version is {CONTRACT_VERSION}")
    if version != CONTRACT_VERSION:
        raise EventError(f"event field 'v' is {version!r}; the contract's version is 1")
    event_id = _field(raw, "id", (str,), "it must be 32 lower-case hex digits (a uuid4)")
    if not _EVENT_ID.fullmatch(event_id):
        raise EventError(f"event field 'id' is {event_id!r}; it must be 32 lower-case hex digits")
    when = _field(raw, "time", (str,), "it must be an ISO 8601 time such as 2026-12-01T10:00:00Z")
    try:
        datetime.fromisoformat(when)
    except ValueError:
        raise EventError(
            f"event field 'time' is {when!r}; it must be an ISO 8601 time such as "
            "2026-12-01T10:00:00Z"
        ) from None
    kinds = (*ANSWER_KINDS, RESET_KIND)
    kind = _field(raw, "kind", (str,), "it must be one of 'quiz', 'practice', 'reset'")
    if kind not in kinds:
        raise EventError(
            f"event field 'kind' is {kind!r}; it must be one of 'quiz', 'practice', 'reset'"
        )
    if kind == RESET_KIND:
        return Event(event_id, when, kind)
    topic = _field(raw, "topic", (str,), "it must be a topic of the tutor")
    if topic not in TOPICS:
        raise EventError(
            f"event field 'topic' is {topic!r}; it must be one of " + ", ".join(map(repr, TOPICS))
        )
    correct = _field(raw, "correct", (bool,), "it must be true or false")
    first_try = _field(raw, "first_try", (bool,), "it must be true or false")
    if kind == "quiz":
        lesson = _field(raw, "lesson", (str,), "a quiz answer names its lesson file id")
        item = _field(raw, "item", (str,), "a quiz answer names its quiz item id")
        if not _LESSON_ID.fullmatch(lesson):
            raise EventError(
                f"event field 'lesson' is {lesson!r}; it must be a lesson file id such as '06_trick_winner'"
            )
        if not _ITEM_ID.fullmatch(item):
            raise EventError(
                f"event field 'item' is {item!r}; it must be a quiz item id such as 'quiz-trump-led'"
            )
        return Event(event_id, when, kind, lesson, item, topic, correct, first_try)
    for name in ("lesson", "item"):
        if raw.get(name) is not None:
            raise EventError(
                f"event field {name!r} is {raw[name]!r}; a practice answer has null there"
            )
    return Event(event_id, when, kind, None, None, topic, correct, first_try)


@dataclass(frozen=True, slots=True)
class LessonResult:
    """A learner's quiz of one lesson: items answered, right at the first try, in all."""

    answered: int
    right_first_try: int
    items: int

    @property
    def done(self) -> bool:
        """Every quiz item answered (a lesson without a quiz is never "done" here)."""
        return self.items > 0 and self.answered == self.items


@dataclass
class LearnerResults:
    """One learner's results, computed from their events."""

    lessons: dict[str, LessonResult] = field(default_factory=dict)
    practice: dict[str, TopicCount] = field(default_factory=dict)
    # first tries of quiz items and practice together, by topic (the class's "most missed")
    all_answers: dict[str, TopicCount] = field(default_factory=dict)
    answers: int = 0


def learner_results(
    events: Iterable[Event], quiz_items: Mapping[str, Sequence[str]]
) -> LearnerResults:
    """A learner's results from their ``events`` (in the order written); ``quiz_items``:
    each lesson's quiz item ids (lessons without a quiz may be left out)."""
    kept: list[Event] = []
    for event in events:
        if event.kind == RESET_KIND:
            kept.clear()
        else:
            kept.append(event)
    answered: dict[str, set[str]] = {lesson: set() for lesson in quiz_items}
    first_tries: dict[tuple[str, str], bool] = {}
    results = LearnerResults(answers=len(kept))
    for event in kept:
        assert event.topic is not None and event.correct is not None
        if event.kind == "quiz" and event.lesson in answered:
            if event.item not in quiz_items[event.lesson]:
                continue  # an item the lesson no longer has
            answered[event.lesson].add(str(event.item))
            key = (event.lesson, str(event.item))
            if event.first_try and key not in first_tries:
                first_tries[key] = event.correct
                _count(results.all_answers, event.topic, event.correct)
        elif event.kind == "practice" and event.first_try:
            _count(results.practice, event.topic, event.correct)
            _count(results.all_answers, event.topic, event.correct)
    for lesson, items in quiz_items.items():
        right = sum(1 for (where, _), ok in first_tries.items() if where == lesson and ok)
        results.lessons[lesson] = LessonResult(len(answered[lesson]), right, len(items))
    return results


def _count(counts: dict[str, TopicCount], topic: str, correct: bool) -> None:
    counts[topic] = counts.get(topic, TopicCount()).plus(correct)


def most_missed(
    class_results: Iterable[LearnerResults], limit: int = 5
) -> list[tuple[str, TopicCount]]:
    """The class's topics with the most wrong first tries (quiz and practice), most first
    (then the higher share wrong); topics nobody got wrong are left out.

    >>> a = LearnerResults(all_answers={"score": TopicCount(1, 2), "bidding": TopicCount(0, 1)})
    >>> b = LearnerResults(all_answers={"score": TopicCount(0, 1), "trump-reveal": TopicCount(3, 0)})
    >>> most_missed([a, b])
    [('score', TopicCount(right=1, wrong=3)), ('bidding', TopicCount(right=0, wrong=1))]
    """
    total: dict[str, TopicCount] = {}
    for results in class_results:
        for topic, count in results.all_answers.items():
            before = total.get(topic, TopicCount())
            total[topic] = TopicCount(before.right + count.right, before.wrong + count.wrong)
    missed = [(topic, count) for topic, count in total.items() if count.wrong]
    missed.sort(key=lambda pair: (-pair[1].wrong, -pair[1].wrong / pair[1].answered, pair[0]))
    return missed[:limit]
