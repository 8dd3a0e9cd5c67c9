"""What a learner's events add up to (docs/progress.md): one :class:`Summary` of the
events since the last reset, which the course page, practice, review and the teacher's
page all read (pages done, quiz scores, right and wrong per topic, where to continue), and
the weights with which practice picks its next topic (:func:`topic_weight`). The events
are :mod:`tutor.teaching.progress_events`.

>>> summary = Summary.of([AnswerEvent(AnswerSource.PRACTICE, "score", False, True)], {})
>>> summary.count(Topic.SCORE), summary.continue_at(["01_a", PRACTICE])
(TopicCount(right=0, wrong=1), 'practice')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tutor.teaching.progress_events import (
    AnswerEvent,
    AnswerSource,
    Event,
    FinishedEvent,
    ResetEvent,
    StepEvent,
)
from tutor.teaching.quiz import Topic

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
