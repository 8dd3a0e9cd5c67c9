"""A lesson reopened (tutor.display.lesson_quiz with tutor.teaching.practice's session): each
question the learner answered shows their first answer, its verdict and explanation,
read-only, with "Answer again"; the summary counts those answers; answering again is
practice, and the summary says that the first answers stay the score."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tutor.display.lesson_quiz import LessonQuiz
from tutor.display.widgets import QuizWidget
from tutor.teaching.lesson import Lesson
from tutor.teaching.lesson_loader import list_lessons, load_lesson
from tutor.teaching.progress import Progress, ProgressState
from tutor.teaching.progress_events import AnswerEvent, AnswerSource, Event
from tutor.teaching.progress_stores import MemoryStore
from tutor.teaching.progress_summary import Summary
from tutor.teaching.question import (
    NOT_KEPT,
    AnswerKind,
    Question,
    answer_code,
    answer_from_code,
    revealed,
)
from tutor.teaching.text import LANGUAGES, text


def wrong_answer(question: Question) -> object:
    """An answer the engine grades wrong, of the kind the quiz's widgets give."""
    right = question.correct_answer()
    choices = question.choices()
    if question.answer_kind is AnswerKind.NUMBER:
        assert isinstance(right, int)
        return right + 1
    if question.answer_kind is AnswerKind.ONE_CHOICE:
        return next(choice for choice in choices if not question.is_right_choice(choice))
    right_ones = [choice for choice in choices if question.is_right_choice(choice)]
    extra = [choice for choice in choices if choice not in right_ones]
    # one more than the right ones, or (every one right) one fewer
    given = set(right_ones + extra[:1]) if extra else set(right_ones[1:])
    return tuple(choice for choice in choices if choice in given)


def given_answer(question: Question, *, right: bool) -> object:
    """A right or wrong answer as the widgets give it (several choices: a tuple, in order)."""
    if not right:
        return wrong_answer(question)
    answer = question.correct_answer()
    if question.answer_kind is AnswerKind.MANY_CHOICES:
        answer = tuple(choice for choice in question.choices() if question.is_right_choice(choice))
    return answer


def take_quiz(lesson: Lesson, progress: Progress, missed: Sequence[int]) -> None:
    """The whole quiz on a page of its own: right, except the questions ``missed``."""
    page = LessonQuiz(lesson, progress=progress)
    for number, quiz in enumerate(page.quizzes):
        quiz.answer(given_answer(quiz.question, right=number not in missed))


def shown_answer(quiz: QuizWidget) -> object:
    """What the widget shows as the learner's answer: the number in its box, the choice
    marked "your answer", or the cards selected."""
    lang = quiz.lang
    if quiz.answer_input is not None:
        return int(quiz.answer_input.value.replace("−", "-"))
    if quiz.choice_toggles is not None:
        return tuple(quiz.choices[i] for i in quiz.choice_toggles.selected_indices)
    yours = text("widgets.your-answer", lang)
    if quiz.card_picker is not None:
        marked = [
            i for i, verdict in enumerate(quiz.card_picker.verdicts) if yours in verdict.value
        ]
    else:
        marked = [i for i, button in enumerate(quiz.choice_buttons) if yours in button.description]
    assert len(marked) == 1, marked
    return quiz.choices[marked[0]]


class LateStore(MemoryStore):
    """A store that has not answered yet, as the browser's before the page is drawn."""

    def __init__(self, events: Sequence[Event]) -> None:
        super().__init__(events)
        self.answered = False

    def load(self) -> list[Event] | None:  # type: ignore[override]
        return super().load() if self.answered else None


@pytest.mark.parametrize("lesson_id", [lesson.id for lesson in list_lessons() if lesson.quiz])
def test_every_lessons_quiz_reopened_shows_each_first_answer_with_its_verdict(
    lesson_id: str,
) -> None:
    lesson = load_lesson(lesson_id)
    store = MemoryStore()
    missed = (0, len(lesson.quiz) - 1)
    take_quiz(lesson, Progress(store), missed)
    events = len(store.load())

    page = LessonQuiz(lesson, progress=Progress(store))
    total = len(lesson.quiz)
    for number, quiz in enumerate(page.quizzes):
        right = number not in missed
        given = given_answer(quiz.question, right=right)
        assert quiz.answered and quiz.earlier and quiz.first_try_correct is right
        assert shown_answer(quiz) == given
        feedback = revealed(quiz.question, given)
        assert f"quiz-feedback {'right' if right else 'wrong'}" in quiz.feedback.value
        assert text("widgets.earlier-answer") in quiz.feedback.value
        assert quiz.answer_again_button.layout.display != "none"
        assert quiz.try_again_button.layout.display == "none"  # read-only: Answer again only
        assert quiz.answer(quiz.question.correct_answer()) == feedback  # nothing is graded
    status = page.status.value
    assert text("lesson-quiz.progress", answered=total, total=total) in status
    assert text("lesson-quiz.score", right=total - len(missed), total=total) in status
    assert len(store.load()) == events, "taking the earlier answers back wrote something"


def test_answering_again_is_practice_and_the_first_answers_stay_the_score() -> None:
    lesson = load_lesson("01")
    total = len(lesson.quiz)
    store = MemoryStore()
    take_quiz(lesson, Progress(store), missed=(2,))
    progress = Progress(store)
    page = LessonQuiz(lesson, progress=progress)
    assert page.again_button.layout.display != "none"

    page.quizzes[2].answer_again_button.click()
    fresh = page.quizzes[2]
    assert not fresh.answered and not fresh.earlier and fresh.feedback.value == ""
    assert page.quizzes[3].earlier  # the others keep their earlier answers
    fresh.answer(fresh.question.correct_answer())
    line = text("lesson-quiz.practice-score", score=total - 1, total=total, right=1, answered=1)
    assert line in page.status.value

    page.again_button.click()
    assert all(not quiz.answered for quiz in page.quizzes)
    for quiz in page.quizzes:
        quiz.answer(quiz.question.correct_answer())
    status = page.status.value
    assert text("lesson-quiz.score", right=total - 1, total=total) in status
    line = text(
        "lesson-quiz.practice-score", score=total - 1, total=total, right=total, answered=total
    )
    assert line in status
    assert text("lesson-quiz.all-right") not in status  # the score still has its miss
    # the course page's reading: the score did not move, and the redo's answers are kept
    summary = progress.summary({lesson.id: [item.id for item in lesson.quiz]})
    assert (summary.lesson(lesson.id).right, summary.lesson(lesson.id).answered) == (
        total - 1,
        total,
    )
    redone = [e for e in progress.events if isinstance(e, AnswerEvent)][total:]
    assert len(redone) == total + 1 and all(event.first_try for event in redone)


def test_the_browsers_store_answering_late_brings_the_earlier_answers_then() -> None:
    lesson = load_lesson("01")
    total = len(lesson.quiz)
    earlier = MemoryStore()
    take_quiz(lesson, Progress(earlier), missed=())
    store = LateStore(earlier.load())
    progress = Progress(store)
    page = LessonQuiz(lesson, progress=progress)
    assert progress.state is ProgressState.LOADING
    first = page.quizzes[0]
    assert not first.answered
    first.answer(wrong_answer(first.question))  # the learner is quicker than the store

    store.answered = True
    progress.reload()
    assert not page.quizzes[0].earlier and page.quizzes[0].first_try_correct is False
    assert all(quiz.earlier for quiz in page.quizzes[1:])
    assert text("lesson-quiz.progress", answered=total, total=total) in page.status.value


def test_a_question_not_answered_before_stays_to_answer_and_is_counted_when_it_is() -> None:
    lesson = load_lesson("01")
    total = len(lesson.quiz)
    store = MemoryStore()
    first = LessonQuiz(lesson, progress=Progress(store))
    first.quizzes[0].answer(first.quizzes[0].question.correct_answer())
    page = LessonQuiz(lesson, progress=Progress(store))
    assert page.quizzes[0].earlier and not page.quizzes[1].answered
    assert text("lesson-quiz.progress", answered=1, total=total) in page.status.value
    assert page.again_button.layout.display == "none"  # the quiz is not answered through


def test_an_answer_kept_without_what_was_answered_shows_its_verdict_and_the_right_answer() -> None:
    lesson = load_lesson("01")
    item = lesson.quiz[0]
    old = AnswerEvent(AnswerSource.QUIZ, str(item.question.topic), False, True, lesson.id, item.id)
    for lang in LANGUAGES:
        quiz = LessonQuiz(lesson, lang=lang, progress=Progress(MemoryStore([old]))).quizzes[0]
        assert quiz.earlier and quiz.first_try_correct is False
        right = revealed(quiz.question, quiz.question.correct_answer(), lang)
        assert text("quiz.wrong", lang) in quiz.feedback.value
        assert "quiz-feedback wrong" in quiz.feedback.value
        assert text("widgets.earlier-answer", lang) in quiz.feedback.value
        assert right.answer.split("。")[0].split(":")[0] in quiz.feedback.value


def test_a_presenters_slides_show_the_quiz_fresh() -> None:
    lesson = load_lesson("01")
    store = MemoryStore()
    take_quiz(lesson, Progress(store), missed=())
    page = LessonQuiz(lesson, progress=Progress(store), build_now=True)
    assert not any(quiz.answered for quiz in page.quizzes)


@pytest.mark.parametrize("lesson_id", ["01", "04", "07"])
def test_an_answer_code_reads_back_as_the_answer(lesson_id: str) -> None:
    for item in load_lesson(lesson_id).quiz:
        for right in (True, False):
            given = given_answer(item.question, right=right)
            code = answer_code(item.question, given)
            assert code is not None and answer_from_code(item.question, code) == given
            if item.question.answer_kind is not AnswerKind.NUMBER:
                # a code that does not fit the lesson as it is now (its choices changed)
                beyond = len(item.question.choices())
                assert answer_from_code(item.question, beyond) is NOT_KEPT
                assert answer_from_code(item.question, (0, beyond)) is NOT_KEPT


def test_the_summary_keeps_each_questions_earliest_answer() -> None:
    def quiz(correct: bool, answer: int) -> AnswerEvent:
        return AnswerEvent(AnswerSource.QUIZ, "score", correct, True, "07_x", "q1", answer=answer)

    earliest, later = quiz(False, 30), quiz(True, 40)
    summary = Summary.of([earliest, later], {"07_x": ["q1"]})
    assert summary.first_answers == {("07_x", "q1"): earliest}
