"""Practice: endless fresh questions of every kind, weighted towards what the learner gets
wrong, with progress kept between sessions (:class:`PracticeSession`); and a lesson's quiz
as a learner takes it, first tries, score and the missed questions again
(:class:`LessonQuizSession`).

Questions are built with the engine, each aimed at a situation of a trick so that every
situation comes up (:mod:`tutor.teaching.practice_questions`, which also says which rules
each kind of question asks: :func:`rules_by_generator`). Everything is drawn from one
``random.Random(seed)``: a seed gives the same questions.

Each question has a :class:`tutor.teaching.quiz.Topic`. A topic is picked with a weight
that grows with the learner's mistakes in it
(:func:`~tutor.teaching.progress_summary.topic_weight`), starting from a base weight that favours
the cases learners get wrong most (Jester leads, a Wizard after a number lead, trump
against the led suit, a bid of 0). Every answer is recorded in the learner's
:class:`~tutor.teaching.progress.Progress` (as an event in their store); the counts per
topic are computed from those events.

>>> session = PracticeSession(seed=7)
>>> question = session.next_question()
>>> feedback = session.answer(question.correct_answer())
>>> feedback.correct, session.progress.count(question.topic).right
(True, 1)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tutor.errors import WizardRuleError
from tutor.teaching.lesson import Lesson, LessonItem
from tutor.teaching.practice_questions import PracticeQuestion, random_question, rules_by_generator
from tutor.teaching.progress import Progress
from tutor.teaching.progress_events import AnswerCode, AnswerEvent, AnswerSource
from tutor.teaching.progress_summary import Summary, TopicCount
from tutor.teaching.quiz import Feedback, Question, Topic
from tutor.teaching.review import question_rules
from tutor.teaching.text import DEFAULT_LANGUAGE, text

__all__ = [
    "LessonQuizSession",
    "PracticeQuestion",
    "PracticeSession",
    "QuizSummary",
    "RetryScore",
    "random_question",
    "rules_by_generator",
    "sample_text",
]

# -- a practice session --------------------------------------------------------------------


class PracticeSession:
    """Questions one after another, topics weighted by the learner's progress.

    ``seed`` makes the questions repeatable (``None``: a fresh random seed, kept in
    :attr:`seed`); ``progress`` defaults to one kept in memory only. Answers are recorded
    in :attr:`progress` (the learner's store) and counted in :attr:`tally` (this session
    only).

    >>> a, b = PracticeSession(seed=11), PracticeSession(seed=11)
    >>> [a.next_question() == b.next_question() for _ in range(5)]
    [True, True, True, True, True]
    """

    def __init__(self, *, seed: int | None = None, progress: Progress | None = None) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
        self.rng = random.Random(self.seed)
        self.progress = progress if progress is not None else Progress()
        self.tally: dict[Topic, TopicCount] = {}
        self.question: PracticeQuestion | None = None

    def next_topic(self) -> Topic:
        """Pick the next topic by the progress weights."""
        weights = self.progress.weights()
        return self.rng.choices(list(weights), weights=list(weights.values()))[0]

    def next_question(self) -> PracticeQuestion:
        """A fresh question; it stays :attr:`question` until the next call."""
        self.question = random_question(self.rng, self.next_topic())
        return self.question

    def answer(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        """Grade ``answer`` to the current question with the engine, and count it."""
        if self.question is None:
            raise WizardRuleError("no question yet: call next_question() first")
        feedback = self.question.check(answer, lang)
        self.record(self.question, correct=feedback.correct)
        return feedback

    def record(self, question: Question, *, correct: bool, first_try: bool = True) -> None:
        """Record an answer graded elsewhere (e.g. by the quiz widget). Only first tries
        count in the tally and the topics' weights."""
        self.progress.record_answer(
            AnswerSource.PRACTICE,
            topic=question.topic,
            correct=correct,
            first_try=first_try,
            rules=question_rules(question),
        )
        if first_try:
            count = self.tally.get(question.topic, TopicCount())
            self.tally[question.topic] = count.plus(correct)

    def tally_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """Right and wrong answers per topic, over every session so far."""
        rows = [
            text(
                "practice.tally-row",
                lang,
                topic=text(f"practice-topic.{topic.value}", lang),
                right=count.right,
                wrong=count.wrong,
            )
            for topic, count in self.progress
            if count.answered
        ]
        return "\n".join(rows) if rows else text("practice.tally-empty", lang)


# -- a lesson's quiz ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class QuizSummary:
    """How a learner did in a lesson's quiz, on the first try of each question."""

    lesson: str
    """The lesson's id, e.g. ``"07_scoring"``."""
    total: int
    first_try_right: int
    missed: tuple[str, ...]
    """The ids of the items whose first answer was wrong, in quiz order."""


@dataclass(frozen=True, slots=True)
class RetryScore:
    """How the learner did in the latest round of missed questions asked again."""

    right: int
    """Right on their first answer in this round."""
    answered: int
    total: int


class LessonQuizSession:
    """A lesson's quiz as a learner takes it on one page: the first answer to each question
    is the one that counts (:attr:`summary`: "4 of 6 right" once all are answered), a
    question may be tried again, and the questions missed on the first try may be asked
    again, in rounds, until every one is right (:meth:`start_retry`). Every graded answer
    goes to :attr:`progress` (the learner's store) with its lesson, item, topic and what
    was answered, the retries marked as not first tries; the page is recorded as finished
    once its last question has had its first answer (docs/progress.md: "Continue").

    A lesson reopened takes back the learner's earlier first answers (:meth:`restore`):
    they are the score, and a question answered again (:meth:`answer_again`) is practice,
    counted apart (:attr:`practice_score`: "this time 6 of 6").

    Whoever shows the questions grades them (:func:`tutor.teaching.quiz.feedback_for`)
    and tells the session each graded answer (:meth:`grade`).

    >>> from tutor.teaching.lesson_loader import load_lesson
    >>> session = LessonQuizSession(load_lesson("07"))
    >>> for number, item in enumerate(session.items):   # right, except the second one
    ...     session.grade(item, correct=number != 1, first_try=True)
    >>> session.summary
    QuizSummary(lesson='07_scoring', total=9, first_try_right=8, missed=('quiz-bid-three-met',))
    >>> [item.id for item in session.start_retry()]
    ['quiz-bid-three-met']
    >>> session.grade(session.items[1], correct=True, first_try=True, again=True)
    >>> session.retry_score, session.still_missed()
    (RetryScore(right=1, answered=1, total=1), ())
    >>> session.answer_again(session.items[1])
    >>> session.grade(session.items[1], correct=True, first_try=True)
    >>> session.summary.first_try_right, session.practice_score
    (8, RetryScore(right=1, answered=1, total=1))
    """

    def __init__(self, lesson: Lesson, *, progress: Progress | None = None) -> None:
        self.lesson = lesson
        self.items: tuple[LessonItem, ...] = lesson.quiz
        self.progress = progress if progress is not None else Progress()
        self.rounds = 0
        """Rounds of missed questions asked again so far."""
        self.finished = False
        """Every question has had its first answer (and the page was recorded finished)."""
        self.earlier: dict[str, AnswerEvent] = {}
        """Item id -> the learner's first answer to it before this page (:meth:`restore`)."""
        self._first: dict[str, bool] = {}  # item id -> its first answer was right
        self._again: tuple[LessonItem, ...] = ()  # the questions of the latest round
        self._again_first: dict[str, bool] = {}  # item id -> right first in that round
        self._practice: set[str] = set()  # items answered again (practice)
        self._practice_first: dict[str, bool] = {}  # item id -> right first in practice

    def restore(self, summary: Summary) -> tuple[LessonItem, ...]:
        """Take back the first answers ``summary`` has for this quiz's questions that this
        page has not had an answer to yet: they are the score (docs/progress.md). Returns
        the questions taken back. Writes nothing (the page is finished already if they were
        the last)."""
        taken = []
        for item in self.items:
            event = summary.first_answers.get((self.lesson.id, item.id))
            if event is None or item.id in self._first or item.id in self._practice:
                continue
            self.earlier[item.id] = event
            self._first[item.id] = event.correct and event.first_try
            taken.append(item)
        if self.answered == len(self.items):
            self.finished = True
        return tuple(taken)

    def first_try(self, item: LessonItem) -> bool | None:
        """Whether ``item``'s first answer was right (``None``: not answered yet)."""
        return self._first.get(item.id)

    @property
    def answered(self) -> int:
        """Questions that have had their first answer (earlier ones too)."""
        return len(self._first)

    def answer_again(self, item: LessonItem) -> None:
        """``item`` is asked again for practice: its next answers leave the score as it is
        and count in :attr:`practice_score`."""
        self._check_item(item)
        if item.id in self._first:
            self._practice.add(item.id)
            self._practice_first.pop(item.id, None)

    def practising(self, item: LessonItem) -> bool:
        """Whether ``item`` is being answered again (:meth:`answer_again`)."""
        return item.id in self._practice

    def _check_item(self, item: LessonItem) -> None:
        if item not in self.items:
            raise WizardRuleError(
                f"quiz item {item.id!r} is not in lesson {self.lesson.id!r}'s quiz "
                f"({', '.join(known.id for known in self.items)})"
            )

    def grade(
        self,
        item: LessonItem,
        *,
        correct: bool,
        first_try: bool,
        again: bool = False,
        answer: AnswerCode | None = None,
    ) -> None:
        """Take a graded answer to ``item``'s question: ``first_try`` when it is the first
        answer where it was asked (not after its Try again), ``again`` when it was asked
        again in a round of missed questions (never a first try for the score); ``answer``:
        what was answered (:func:`tutor.teaching.question.answer_code`), kept with it."""
        self._check_item(item)
        if again and item not in self._again:
            raise WizardRuleError(f"quiz item {item.id!r} is not in this round of missed questions")
        practice = item.id in self._practice and not again
        counts = first_try and not again and item.id not in self._first
        if counts:
            self._first[item.id] = correct
        elif again and first_try:
            self._again_first.setdefault(item.id, correct)
        elif practice and first_try:
            self._practice_first.setdefault(item.id, correct)
        self.progress.record_answer(
            AnswerSource.QUIZ,
            topic=item.question.topic,
            correct=correct,
            # practice's first answer is given before any feedback on this page, as a
            # redo after a reload always was; the score keeps the earliest (Summary)
            first_try=counts or (practice and first_try),
            lesson=self.lesson.id,
            item=item.id,
            answer=answer,
        )
        if not self.finished and self.answered == len(self.items):
            self.finished = True
            self.progress.record_finished(self.lesson.id)

    @property
    def summary(self) -> QuizSummary | None:
        """The first-try score, once every question has been answered (else ``None``)."""
        if self.answered < len(self.items):
            return None
        missed = tuple(item.id for item in self.items if not self._first[item.id])
        return QuizSummary(
            lesson=self.lesson.id,
            total=len(self.items),
            first_try_right=len(self.items) - len(missed),
            missed=missed,
        )

    @property
    def practice_score(self) -> RetryScore | None:
        """How the questions answered again did on their first answer this time (``None``:
        none is answered again)."""
        if not self._practice:
            return None
        right = sum(self._practice_first.values())
        return RetryScore(
            right=right, answered=len(self._practice_first), total=len(self._practice)
        )

    def still_missed(self) -> tuple[LessonItem, ...]:
        """The questions to offer again: those missed on the first try, or, after a round
        of them, those missed again in it (none while that round is not done, nor before
        every question has had its first answer)."""
        if not self.rounds:
            summary = self.summary
            missed = summary.missed if summary is not None else ()
            return tuple(item for item in self.items if item.id in missed)
        if len(self._again_first) < len(self._again):
            return ()
        return tuple(item for item in self._again if not self._again_first[item.id])

    def start_retry(self) -> tuple[LessonItem, ...]:
        """A new round of the questions still missed (empty: nothing to ask again)."""
        items = self.still_missed()
        if items:
            self.rounds += 1
            self._again = items
            self._again_first = {}
        return items

    @property
    def retry_score(self) -> RetryScore | None:
        """The latest round's score so far (``None`` before the first round)."""
        if not self.rounds:
            return None
        right = sum(self._again_first.values())
        return RetryScore(right=right, answered=len(self._again_first), total=len(self._again))


def sample_text(*, seed: int, count: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """The first ``count`` questions of a new learner's session with ``seed``, each with the
    engine's answer, in plain text.

    >>> print(sample_text(seed=1, count=1))
    1. [Jester leads] Trump: green. Who takes this trick?
       Trump: green. Cards in the order played: C Jester, A Jester, B Jester.
       C takes the trick with the first Jester: only Jesters were played, so the first one wins.
    """
    session = PracticeSession(seed=seed)
    lines = []
    for number in range(1, count + 1):
        question = session.next_question()
        topic = text(f"practice-topic.{question.topic.value}", lang)
        lines.append(
            text(
                "practice.sample-heading",
                lang,
                number=number,
                topic=topic,
                prompt=question.prompt(lang),
            )
        )
        situation = question.situation_text(lang)
        if situation:  # empty when the answer states it (a score's formula names the bid)
            lines.append("   " + situation)
        lines += ["   " + line for line in question.answer_text(lang).split("\n")]
    return "\n".join(lines)
