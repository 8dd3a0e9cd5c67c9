"""A lesson's quiz as the teaching layer keeps it (tutor.teaching.practice.LessonQuizSession),
with no widget: first tries, the score, the missed questions again in rounds, and what
reaches the learner's progress (docs/progress.md)."""

from __future__ import annotations

import pytest

from teaching.quiz_records import finished, recorded
from tutor.errors import WizardRuleError
from tutor.teaching.lesson import Lesson
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.practice import LessonQuizSession, QuizSummary, RetryScore
from tutor.teaching.progress import Progress
from tutor.teaching.progress_events import AnswerEvent
from tutor.teaching.progress_stores import MemoryStore


def test_the_first_answer_counts_and_the_score_comes_once_all_are_answered(
    scoring: Lesson,
) -> None:
    progress = Progress(MemoryStore())
    session = LessonQuizSession(scoring, progress=progress)
    items = session.items
    assert items == scoring.quiz and session.summary is None and session.answered == 0
    for number, item in enumerate(items):
        assert session.summary is None and finished(progress) == []
        right = number not in (1, 4)
        session.grade(item, correct=right, first_try=True)
        if not right:  # put right after Try again: recorded, but the first try counts
            session.grade(item, correct=True, first_try=False)
        assert session.first_try(item) is right and session.answered == number + 1
    assert session.summary == QuizSummary(
        lesson="07_scoring",
        total=len(items),
        first_try_right=len(items) - 2,
        missed=(items[1].id, items[4].id),
    )
    assert finished(progress) == ["07_scoring"] and session.finished
    assert recorded(progress)[:3] == [
        (items[0].id, True, True),
        (items[1].id, False, True),
        (items[1].id, True, False),
    ]
    # Every answer carries its lesson and its question's topic.
    answers = [event for event in progress.events if isinstance(event, AnswerEvent)]
    assert {event.lesson for event in answers} == {"07_scoring"}
    assert [event.topic for event in answers if event.first_try] == [
        item.question.topic.value for item in items
    ]
    score = progress.summary({scoring.id: [item.id for item in items]}).lesson(scoring.id)
    assert score.done and score.right == len(items) - 2


def test_the_missed_questions_come_back_in_rounds_until_they_are_right(scoring: Lesson) -> None:
    progress = Progress(MemoryStore())
    session = LessonQuizSession(scoring, progress=progress)
    items = session.items
    assert session.start_retry() == ()  # nothing to ask again before the first tries
    for number, item in enumerate(items):
        session.grade(item, correct=number not in (0, 3), first_try=True)
    assert session.still_missed() == (items[0], items[3]) and session.retry_score is None
    assert session.start_retry() == (items[0], items[3]) and session.rounds == 1
    assert session.retry_score == RetryScore(right=0, answered=0, total=2)
    assert session.still_missed() == ()  # until this round is done
    session.grade(items[0], correct=True, first_try=True, again=True)
    session.grade(items[3], correct=False, first_try=True, again=True)
    session.grade(items[3], correct=True, first_try=False, again=True)  # its own Try again
    assert session.retry_score == RetryScore(right=1, answered=2, total=2)
    # The second go never changes the first-try score, nor counts as a first try.
    summary = session.summary
    assert summary is not None and summary.first_try_right == len(items) - 2
    assert [first for _item, _right, first in recorded(progress)[len(items) :]] == [False] * 3
    assert finished(progress) == ["07_scoring"]  # once
    assert session.still_missed() == (items[3],)
    assert session.start_retry() == (items[3],) and session.rounds == 2
    session.grade(items[3], correct=True, first_try=True, again=True)
    assert session.still_missed() == () and session.start_retry() == ()
    assert session.rounds == 2


def test_a_new_page_of_the_same_lesson_keeps_the_learners_earliest_first_try(
    scoring: Lesson,
) -> None:
    progress = Progress(MemoryStore())
    ids = {scoring.id: [item.id for item in scoring.quiz]}
    first = LessonQuizSession(scoring, progress=progress)
    first.grade(scoring.quiz[0], correct=False, first_try=True)
    again = LessonQuizSession(scoring, progress=progress)  # the page reloaded
    assert again.first_try(scoring.quiz[0]) is None  # this page's quiz starts afresh
    for item in scoring.quiz:
        again.grade(item, correct=True, first_try=True)
    assert again.summary is not None and again.summary.first_try_right == len(scoring.quiz)
    assert finished(progress) == ["07_scoring"]
    # The learner's progress keeps the earliest answer as the first try (docs/progress.md).
    assert progress.summary(ids).lesson(scoring.id).right == len(scoring.quiz) - 1


def test_an_answer_to_a_question_not_asked_changes_nothing(scoring: Lesson) -> None:
    progress = Progress(MemoryStore())
    session = LessonQuizSession(scoring, progress=progress)
    other = load_lesson("06_trick_winner").quiz[0]
    with pytest.raises(WizardRuleError, match=rf"{other.id!r} is not in lesson '07_scoring'"):
        session.grade(other, correct=True, first_try=True)
    with pytest.raises(WizardRuleError, match="not in this round of missed questions"):
        session.grade(scoring.quiz[0], correct=True, first_try=True, again=True)
    assert progress.events == [] and session.answered == 0


def test_without_a_store_the_answers_are_kept_in_memory(scoring: Lesson) -> None:
    session = LessonQuizSession(scoring)
    session.grade(scoring.quiz[2], correct=True, first_try=True)
    assert recorded(session.progress) == [(scoring.quiz[2].id, True, True)]
