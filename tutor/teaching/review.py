"""Spaced review: each rule of the course (:mod:`tutor.teaching.rule_map`) has a memory
state per learner, replayed from the answers the learner's progress already keeps (the
events of docs/progress.md, through :attr:`tutor.teaching.progress_summary.Summary.answers`: no
second store), and scheduled with FSRS (the ``fsrs`` package: pure Python with only
``typing-extensions``, so the static site's browser runs the same code as the app and Lab).

**Which rules an answer asks.** A lesson's quiz answer (a ``quiz`` event, or a ``review``
event of a quiz item): its item's ``rules`` in the lesson file, as the lesson says *now*
(a rule tagged later counts the answers given before). A ``practice`` or ``review`` event
of version 4: its own ``rules``. A practice answer of an older version, or one whose
question named none: its topic's rules, :data:`PRACTICE_TOPIC_RULES`. A rule the map no
longer has is not counted. Each event counts once (by its id).

**Ratings** (:func:`rating`): every answer is one review of each rule it asks, in time
order. Right at the first try: ``Good``; wrong (at any try): ``Again``; right after a miss
(a Try again, or a missed question asked again): ``Hard``, the rule was recalled with help.

**The scheduler** (:data:`SCHEDULER`): FSRS's default parameters and 90 % retention,
without learning steps (a course's rule comes back after a day or more, not in ten minutes
as a flashcard does; so a miss brings the rule back the next day) and without fuzz (the
same answers give the same schedule in every host).

**Status** (:class:`RuleStatus`): *not yet seen* until an answer asks the rule;
*known* when FSRS has it in its ``Review`` state with a stability of at least
:data:`KNOWN_STABILITY_DAYS` (7) days, i.e. it expects the rule to be recalled with 90 %
probability a week after the last review (one right answer gives 2.3 days; a right answer
again when it was due gives about 11); *learning* in between. A group of rules is *known*
when every rule of it is, *not yet seen* when none was seen, else *learning*.

**Due**: a seen rule whose FSRS due time is at or before ``now``.

>>> from tutor.teaching.progress_events import AnswerEvent, AnswerSource
>>> from tutor.teaching.progress_summary import Summary
>>> answer = AnswerEvent(AnswerSource.PRACTICE, "trump-vs-led", True, True,
...                      time="2026-12-01T10:00:00Z", rules=("highest-trump-wins",))
>>> memory = RuleMemories.of(Summary.of([answer], {}), {})
>>> memory.status("highest-trump-wins"), memory.status("winner-leads-next")
(<RuleStatus.LEARNING: 'learning'>, <RuleStatus.NEW: 'new'>)
>>> memory.due(at("2026-12-02T10:00:00Z")), memory.due(at("2026-12-03T10:00:00Z"))
((), ('highest-trump-wins',))
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from fsrs import Card, Rating, Scheduler, State

from tutor.teaching.lesson import Lesson
from tutor.teaching.progress_events import AnswerEvent, AnswerSource
from tutor.teaching.progress_summary import Summary
from tutor.teaching.quiz import Question, Topic
from tutor.teaching.rule_map import RuleGroup, RuleMap, rule_map

SCHEDULER = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
"""FSRS with its default parameters and retention (0.9), no (re)learning steps, no fuzz
(see the module's docstring)."""

KNOWN_STABILITY_DAYS = 7.0
"""A rule is known once FSRS's stability for it (the days until recall drops to 90 %)
reaches this."""

PRACTICE_TOPIC_RULES: Mapping[str, tuple[str, ...]] = {
    Topic.JESTER_LEAD: ("jester-led-first-number-sets-suit",),
    Topic.WIZARD_AFTER_NUMBER: ("first-wizard-wins", "number-then-wizard-still-binds"),
    Topic.TRUMP_VS_LED: ("highest-trump-wins",),
    Topic.TRICK_WINNER: ("highest-led-suit-wins",),
    Topic.LEGAL_PLAYS: ("must-follow-suit",),
    Topic.SCORE: ("bid-met-scores", "bid-missed-loses"),
    Topic.BID_ZERO: ("bid-zero-met-scores-twenty", "bid-missed-loses"),
    Topic.TRUMP_REVEAL: (
        "number-turned-suit-is-trump",
        "jester-turned-no-trump",
        "wizard-turned-dealer-chooses",
        "nothing-turned-no-trump",
    ),
}
"""The rules a practice answer asks when its event names none (every practice event
before version 4): by its topic, the rules that topic's questions ask between them (a
trick led by a number card and taken by a later Wizard asks who takes it, a legal-plays
question in the same trick asks what the Wizard leaves binding; a score question with the
bid met or missed). The one place a topic means rules."""

_TIME = re.compile(r"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z")


def at(time: str) -> datetime:
    """An event's ``time`` (docs/progress.md: UTC, up to nine digits after the second) as
    a :class:`datetime` in UTC (to the microsecond).

    >>> at("2026-12-01T10:00:00.123456789Z")
    datetime.datetime(2026, 12, 1, 10, 0, 0, 123456, tzinfo=datetime.timezone.utc)
    >>> at("yesterday")
    Traceback (most recent call last):
    ...
    ValueError: time 'yesterday' is not a UTC time such as 2026-12-01T10:00:00Z
    """
    match = _TIME.fullmatch(time)
    if match is None:
        raise ValueError(f"time {time!r} is not a UTC time such as 2026-12-01T10:00:00Z")
    moment = datetime.strptime(match.group(1), "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC)
    fraction = (match.group(2) or "").ljust(6, "0")[:6]
    return moment.replace(microsecond=int(fraction))


def rating(event: AnswerEvent) -> Rating:
    """The FSRS rating one answer gives each rule it asks (see the module's docstring).

    >>> rating(AnswerEvent(AnswerSource.QUIZ, "score", True, True, "07_scoring", "q"))
    <Rating.Good: 3>
    >>> rating(AnswerEvent(AnswerSource.QUIZ, "score", True, False, "07_scoring", "q"))
    <Rating.Hard: 2>
    >>> rating(AnswerEvent(AnswerSource.QUIZ, "score", False, True, "07_scoring", "q"))
    <Rating.Again: 1>
    """
    if not event.correct:
        return Rating.Again
    return Rating.Good if event.first_try else Rating.Hard


ItemRules = Mapping[tuple[str, str], Sequence[str]]
"""The rules each lesson's quiz item asks, by (lesson id, item id)."""


def item_rules(lessons: Iterable[Lesson]) -> dict[tuple[str, str], tuple[str, ...]]:
    """The rules every quiz item of ``lessons`` asks (items that name none are left out).

    >>> import pathlib, tempfile
    >>> from tutor.teaching.lesson_loader import load_lesson_file
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "99_zero.toml"
    >>> _ = path.write_text('title.en = "T"\\nsummary.en = "S"\\n[[quiz]]\\nid = "q"\\n'
    ...     'kind = "score"\\nbid = 0\\ntaken = 0\\npoints = 20\\n'
    ...     'rules = ["bid-zero-met-scores-twenty"]\\n')
    >>> item_rules([load_lesson_file(path)])
    {('99_zero', 'q'): ('bid-zero-met-scores-twenty',)}
    """
    return {
        (lesson.id, item.id): item.rules for lesson in lessons for item in lesson.quiz if item.rules
    }


def rules_asked(event: AnswerEvent, items: ItemRules) -> tuple[str, ...]:
    """The rules ``event`` asks (see the module's docstring), whether or not the map
    still has them.

    >>> old = AnswerEvent(AnswerSource.PRACTICE, "trump-vs-led", False, True)
    >>> rules_asked(old, {})
    ('highest-trump-wins',)
    >>> quiz = AnswerEvent(AnswerSource.QUIZ, "trump-vs-led", False, True, "06_x", "q1")
    >>> rules_asked(quiz, {("06_x", "q1"): ["highest-trump-wins", "first-wizard-wins"]})
    ('highest-trump-wins', 'first-wizard-wins')
    """
    if event.rules:
        return event.rules
    if event.lesson is not None and event.item is not None:
        return tuple(items.get((event.lesson, event.item), ()))
    if event.kind is AnswerSource.PRACTICE:
        return PRACTICE_TOPIC_RULES.get(event.topic, ())
    return ()


class RuleStatus(StrEnum):
    """Where a learner is with a rule, or a group of rules (the learner's map)."""

    NEW = "new"
    """Not yet seen: no answer asked it."""
    LEARNING = "learning"
    """Seen, not yet known."""
    KNOWN = "known"
    """FSRS expects it remembered for a week at least (:data:`KNOWN_STABILITY_DAYS`)."""


@dataclass(frozen=True, slots=True)
class RuleMemory:
    """One rule's memory state for one learner: its FSRS card after every answer that
    asked it, and how many answers that was."""

    rule: str
    card: Card
    reviews: int

    @property
    def status(self) -> RuleStatus:
        known = (
            self.card.state is State.Review
            and self.card.stability is not None
            and self.card.stability >= KNOWN_STABILITY_DAYS
        )
        return RuleStatus.KNOWN if known else RuleStatus.LEARNING

    def is_due(self, now: datetime) -> bool:
        return self.card.due <= now


@dataclass(frozen=True, slots=True)
class RuleMemories:
    """Every rule's memory state for one learner (:meth:`of`); rules no answer asked have
    none (not yet seen)."""

    memories: Mapping[str, RuleMemory]
    rules: RuleMap

    @classmethod
    def of(
        cls, summary: Summary, items: ItemRules, *, rules: RuleMap | None = None
    ) -> RuleMemories:
        """The states the answers of ``summary`` (since the learner's last reset) give,
        replayed in time order (the order written among equal times); ``items``: the
        rules each lesson's quiz item asks (:func:`item_rules`)."""
        rules = rules if rules is not None else rule_map()
        known = set(rules.ids())
        timed = sorted(
            ((at(event.time), number, event) for number, event in enumerate(summary.answers)),
            key=lambda entry: entry[:2],
        )
        cards: dict[str, Card] = {}
        reviews: dict[str, int] = {}
        for moment, _number, event in timed:
            for rule in rules_asked(event, items):
                if rule not in known:
                    continue
                # card_id: FSRS would otherwise take the wall clock (and sleep a millisecond)
                card = cards.get(rule) or Card(card_id=len(cards) + 1, due=moment)
                cards[rule], _log = SCHEDULER.review_card(card, rating(event), moment)
                reviews[rule] = reviews.get(rule, 0) + 1
        return cls(
            {rule: RuleMemory(rule, card, reviews[rule]) for rule, card in cards.items()}, rules
        )

    def status(self, rule: str) -> RuleStatus:
        """``rule``'s status (:class:`RuleStatus`); a :class:`LessonError` for no rule.

        >>> RuleMemories({}, rule_map()).status("winner-leads-next")
        <RuleStatus.NEW: 'new'>
        >>> RuleMemories({}, rule_map()).status("wizard-wins-twice")
        Traceback (most recent call last):
        ...
        tutor.teaching.lesson.LessonError: unknown rule 'wizard-wins-twice'; see docs/rule-map.md for the rules' ids, or run: wizard-tutor rule-map
        """
        self.rules.rule(rule)
        memory = self.memories.get(rule)
        return memory.status if memory is not None else RuleStatus.NEW

    def group_status(self, group: RuleGroup) -> RuleStatus:
        """A group's status: known when every rule of it is, not yet seen when none was
        seen, else learning.

        >>> empty = RuleMemories({}, rule_map())
        >>> empty.group_status(rule_map().groups[0])
        <RuleStatus.NEW: 'new'>
        """
        statuses = {self.status(rule.id) for rule in group.rules}
        if statuses == {RuleStatus.KNOWN}:
            return RuleStatus.KNOWN
        if statuses == {RuleStatus.NEW}:
            return RuleStatus.NEW
        return RuleStatus.LEARNING

    def due(self, now: datetime) -> tuple[str, ...]:
        """The rules due for review at ``now`` (a UTC time), in the map's order.

        >>> RuleMemories({}, rule_map()).due(datetime(2026, 12, 1))
        Traceback (most recent call last):
        ...
        ValueError: now=datetime.datetime(2026, 12, 1, 0, 0) has no time zone: review times are UTC
        """
        if now.tzinfo is None:
            raise ValueError(f"now={now!r} has no time zone: review times are UTC")
        return tuple(
            rule
            for rule in self.rules.ids()
            if (memory := self.memories.get(rule)) is not None and memory.is_due(now)
        )


def question_rules(question: Question) -> tuple[str, ...]:
    """The rules a practice question asks: those its kind works out from the engine
    (``Question.rules``), else, for a kind that names none, its topic's
    (:data:`PRACTICE_TOPIC_RULES`, the table old practice answers are read by too).

    >>> from tutor.teaching.quiz import ScoreQuestion
    >>> question_rules(ScoreQuestion(bid=0, taken=0))
    ('bid-zero-met-scores-twenty',)
    """
    return tuple(question.rules) or PRACTICE_TOPIC_RULES.get(question.topic, ())
