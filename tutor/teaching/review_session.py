"""A review session: the rules due for review (:mod:`tutor.teaching.review`) asked again,
each by a question that asks it, graded like the quizzes, the answers recorded as
``review`` events (docs/progress.md) so the rules' states move.

A due rule is asked by a quiz item of the course that names it (``rules = [...]`` in its
lesson), the one that asks the most of the due rules at once; else by a fresh practice
question whose rules include it. One question may so review several due rules, and every
rule it asks counts as reviewed. Review answers move no lesson's score, practice's counts,
nor "Continue" (docs/progress.md).

>>> from tutor.teaching.progress import Progress
>>> from tutor.teaching.progress_events import AnswerEvent, AnswerSource
>>> from tutor.teaching.progress_stores import MemoryStore
>>> missed = AnswerEvent(AnswerSource.PRACTICE, "trump-vs-led", False, True,
...                      time="2026-12-01T10:00:00Z", rules=("highest-trump-wins",))
>>> progress = Progress(MemoryStore([missed]))
>>> session = ReviewSession(progress, [], clock=lambda: at("2026-12-02T10:00:00Z"), seed=1)
>>> session.due, len(session.questions)
(('highest-trump-wins',), 1)
>>> asked = session.questions[0]
>>> asked.question.check(asked.question.correct_answer()).correct
True
>>> session.record(asked, correct=True, first_try=True)
>>> session.due_now()
()
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from tutor.teaching.lesson import Lesson, LessonItem
from tutor.teaching.practice import random_question
from tutor.teaching.progress import Progress
from tutor.teaching.progress_events import AnswerSource
from tutor.teaching.progress_summary import BASE_WEIGHTS
from tutor.teaching.question import Question, Topic
from tutor.teaching.review import (
    PRACTICE_TOPIC_RULES,
    RuleMemories,
    at,
    item_rules,
    question_rules,
)

_PRACTICE_TRIES = 50
"""Fresh practice questions drawn to find one that asks a rule (its topic's questions
ask it; the first usually does)."""

__all__ = ["ReviewQuestion", "ReviewSession", "at"]


def _wall_clock() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True, eq=False)
class ReviewQuestion:
    """One question of a review: the ``question``, every rule it asks (``rules``), and
    the quiz ``item`` and ``lesson`` it comes from (``None`` for a practice question)."""

    question: Question
    rules: tuple[str, ...]
    item: LessonItem | None = None
    lesson: str | None = None


class ReviewSession:
    """The rules due at ``now`` for the learner of ``progress`` (:attr:`due`, fixed when
    the session starts) and a question for each (:attr:`questions`); :meth:`record` keeps
    a graded answer. ``lessons``: the course's (their quiz items' rules); ``seed`` makes
    the choice of questions repeatable; ``clock`` tells the time (UTC; the wall clock
    unless a test sets it), ``now`` when the session starts, each answer when it is kept.
    """

    def __init__(
        self,
        progress: Progress,
        lessons: Sequence[Lesson],
        *,
        clock: Callable[[], datetime] | None = None,
        seed: int | None = None,
    ) -> None:
        self.progress = progress
        self.lessons = tuple(lessons)
        self.items = item_rules(self.lessons)
        self.clock = clock if clock is not None else _wall_clock
        self.now = self.clock()
        self.rng = random.Random(seed)
        self.due: tuple[str, ...] = self.memories().due(self.now)
        self.unasked: tuple[str, ...] = ()
        """Due rules nothing in the course asks any more (a quiz item untagged since)."""
        self.questions: tuple[ReviewQuestion, ...] = self._choose()

    def memories(self) -> RuleMemories:
        """Every rule's state from the learner's answers so far (this session's included)."""
        return RuleMemories.of(self.progress.summary(), self.items)

    def due_now(self) -> tuple[str, ...]:
        """The rules due now (the session's clock), after the answers given so far."""
        return self.memories().due(self.clock())

    def _choose(self) -> tuple[ReviewQuestion, ...]:
        chosen: list[ReviewQuestion] = []
        unasked: list[str] = []
        left = set(self.due)
        quiz_items = [
            (lesson.id, item) for lesson in self.lessons for item in lesson.quiz if item.rules
        ]
        for rule in self.due:
            if rule not in left:
                continue
            asking = [(lesson, item) for lesson, item in quiz_items if rule in item.rules]
            picked: ReviewQuestion | None = None
            if asking:
                most = max(len(left.intersection(item.rules)) for _, item in asking)
                lesson, item = self.rng.choice(
                    [pair for pair in asking if len(left.intersection(pair[1].rules)) == most]
                )
                picked = ReviewQuestion(item.question, item.rules, item, lesson)
            else:
                picked = self._practice_question(rule)
            if picked is None:
                unasked.append(rule)
                left.discard(rule)
                continue
            chosen.append(picked)
            left.difference_update(picked.rules)
        self.unasked = tuple(unasked)
        return tuple(chosen)

    def _practice_question(self, rule: str) -> ReviewQuestion | None:
        """A fresh practice question that asks ``rule``, if practice asks it: drawn first
        from the topics whose questions ask it (:data:`PRACTICE_TOPIC_RULES`), then from
        every topic practice asks (a question names its own rules)."""
        likely = [Topic(topic) for topic, rules in PRACTICE_TOPIC_RULES.items() if rule in rules]
        others = [topic for topic in BASE_WEIGHTS if topic not in likely]
        for topics, tries in ((likely, _PRACTICE_TRIES), (others, _PRACTICE_TRIES // 5)):
            for topic in topics:
                for _ in range(tries // len(topics) + 1):
                    question = random_question(self.rng, topic)
                    rules = question_rules(question)
                    if rule in rules:
                        return ReviewQuestion(question, rules)
        return None

    def record(self, asked: ReviewQuestion, *, correct: bool, first_try: bool) -> None:
        """Keep a graded answer to ``asked`` (a ``review`` event naming every rule it
        asks): ``first_try`` as the quiz widget says (after its Try again, not one)."""
        if asked not in self.questions:
            raise ValueError(f"{asked!r} is not a question of this review session")
        self.progress.record_answer(
            AnswerSource.REVIEW,
            topic=asked.question.topic,
            correct=correct,
            first_try=first_try,
            lesson=asked.lesson,
            item=asked.item.id if asked.item is not None else None,
            rules=asked.rules,
            time=self.clock(),
        )
