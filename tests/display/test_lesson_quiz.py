"""A lesson's quiz as a whole (tutor.display.lesson_quiz): a question after another, the
first-try score once all are answered ("First try: 4 of 6 right"), the missed questions
offered again, and the hooks a progress store records answers with."""

from __future__ import annotations

import pytest
from teaching.quiz_records import finished, recorded

from tutor.display import show_quiz
from tutor.display.lesson_quiz import LessonQuiz
from tutor.display.widgets import QuizWidget
from tutor.display.words import words_html
from tutor.teaching.lesson import Lesson
from tutor.teaching.lesson_loader import list_lessons, load_lesson
from tutor.teaching.practice import QuizSummary
from tutor.teaching.progress import Progress
from tutor.teaching.progress_stores import MemoryStore
from tutor.teaching.quiz import AnswerKind, Question
from tutor.teaching.text import LANGUAGES, text


def wrong_answer(question: Question) -> object:
    right = question.correct_answer()
    if question.answer_kind is AnswerKind.NUMBER:
        return right + 1  # type: ignore[operator]
    if question.answer_kind is AnswerKind.ONE_CHOICE:
        return next(choice for choice in question.choices() if choice != right)
    return tuple(question.choices())  # every choice: more than the right set in our lessons


def answer(quiz: QuizWidget, *, right: bool) -> None:
    question = quiz.question
    given = question.correct_answer() if right else wrong_answer(question)
    assert quiz.answer(given).correct is right


def test_the_summary_counts_first_tries_once_every_question_is_answered(scoring: Lesson) -> None:
    progress = Progress(MemoryStore())
    quiz = LessonQuiz(scoring, progress=progress)
    total = len(scoring.quiz)
    assert text("lesson-quiz.progress", answered=0, total=total) in quiz.status.value
    missed = {1, 4}
    for number, widget in enumerate(quiz.quizzes):
        assert quiz.session.summary is None and finished(progress) == []
        answer(widget, right=number not in missed)
        if number == 1:  # a wrong answer put right with Try again still counts as missed
            widget.try_again()
            answer(widget, right=True)
    summary = quiz.session.summary
    assert summary == QuizSummary(
        lesson="07_scoring",
        total=total,
        first_try_right=total - 2,
        missed=(scoring.quiz[1].id, scoring.quiz[4].id),
    )
    assert finished(progress) == ["07_scoring"]
    assert text("lesson-quiz.score", right=total - 2, total=total) in quiz.status.value
    numbers = ", ".join(text("lesson-quiz.number", number=n) for n in (2, 5))
    assert text("lesson-quiz.missed", numbers=numbers) in quiz.status.value
    assert quiz.retry_button.layout.display != "none"
    assert quiz.retry_button.description == text("lesson-quiz.retry", count=2)


def test_the_missed_questions_come_back_fresh_until_they_are_right(scoring: Lesson) -> None:
    progress = Progress(MemoryStore())
    quiz = LessonQuiz(scoring, progress=progress)
    for number, widget in enumerate(quiz.quizzes):
        answer(widget, right=number not in (0, 3))
    assert [entry[2] for entry in recorded(progress)] == [True] * len(scoring.quiz)  # firsts
    quiz.retry_button.click()
    assert [w.question for w in quiz.retry_quizzes] == [
        scoring.quiz[0].question,
        scoring.quiz[3].question,
    ]
    assert all(w.first_try_correct is None and w.feedback.value == "" for w in quiz.retry_quizzes)
    assert quiz.retry_button.layout.display == "none"  # until this round is done
    assert quiz.retry_quizzes[0] in quiz.retry_area.children
    # The originals keep their marked answers; only the copies below are fresh.
    assert quiz.quizzes[0].first_try_correct is False and quiz.quizzes[0].feedback.value
    answer(quiz.retry_quizzes[0], right=True)
    answer(quiz.retry_quizzes[1], right=False)
    assert recorded(progress)[len(scoring.quiz) :] == [
        (scoring.quiz[0].id, True, False),
        (scoring.quiz[3].id, False, False),
    ]
    assert text("lesson-quiz.again-score", right=1, total=2, answered=2) in quiz.status.value
    # The first-try score does not change with the second go.
    total = len(scoring.quiz)
    assert text("lesson-quiz.score", right=total - 2, total=total) in quiz.status.value
    summary = quiz.session.summary
    assert summary is not None and summary.first_try_right == total - 2
    assert finished(progress) == ["07_scoring"]  # once, when the first tries were all in
    # The one missed again is offered again, alone.
    assert quiz.retry_button.description == text("lesson-quiz.retry", count=1)
    quiz.retry_button.click()
    assert [w.question for w in quiz.retry_quizzes] == [scoring.quiz[3].question]
    answer(quiz.retry_quizzes[0], right=True)
    assert quiz.retry_button.layout.display == "none"


def test_all_right_on_the_first_try_offers_nothing_again(scoring: Lesson) -> None:
    quiz = LessonQuiz(scoring)
    for widget in quiz.quizzes:
        answer(widget, right=True)
    assert text("lesson-quiz.all-right") in quiz.status.value
    summary = quiz.session.summary
    assert quiz.retry_button.layout.display == "none" and summary is not None
    assert summary.missed == ()
    quiz.retry_missed()
    assert quiz.retry_quizzes == []


def test_each_question_is_numbered_and_notes_come_with_their_question() -> None:
    lesson = load_lesson("06_trick_winner")
    quiz = LessonQuiz(lesson, lang="ja")
    total = len(lesson.quiz)
    for number, widget in enumerate(quiz.quizzes, start=1):
        title = text("lesson-quiz.question-number", "ja", number=number, total=total)
        assert title in widget.title.value and widget.title.layout.display != "none"
    assert quiz.notes() == [item.note("ja") if item.note else None for item in lesson.quiz]
    for item, widget in zip(lesson.quiz, quiz.quizzes, strict=True):
        if item.note is None:
            assert widget.note == "" and "-note" not in widget.title.value
        else:  # under the question's own heading, above its prompt
            heading = widget.title.value
            assert heading.index(title) < heading.index(words_html(item.note("ja")))
            assert widget.children.index(widget.title) + 1 == widget.children.index(widget.prompt)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_show_quiz_displays_each_question_with_its_note_then_the_summary(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import IPython.display
    from IPython.display import Markdown

    import tutor.display.lesson_view

    shown: list[object] = []
    monkeypatch.setattr(IPython.display, "display", lambda *objs, **_kw: shown.extend(objs))
    # the widgets themselves, not the bundles show_widget displays
    monkeypatch.setattr(
        tutor.display.lesson_view, "show_widget", lambda widget, _lang: shown.append(widget)
    )
    lesson = load_lesson("04_follow_suit")
    progress = Progress(MemoryStore())
    show_quiz(lesson, lang, progress=progress)
    assert isinstance(shown[0], Markdown) and text("lesson.quiz-heading", lang) in shown[0].data
    summary = shown[-1]
    assert isinstance(summary, LessonQuiz)
    # Issue 19: a note shown on its own before its question sat under the previous
    # question's Try again. It is inside its question now, under the heading.
    assert shown[1:] == [*summary.places, summary]
    noted = next(i for i, item in enumerate(lesson.quiz) if item.note is not None)
    note = words_html(lesson.quiz[noted].note(lang))
    place = summary.places[noted]
    # Until the learner reaches it, the place shows the question's first lines only.
    assert place.built is None and note in place.stand_in.html
    assert words_html(lesson.quiz[noted].question.prompt(lang)) in place.stand_in.html
    place.stand_in.reached = True  # what the browser says once the learner is near
    quiz = place.built
    assert isinstance(quiz, QuizWidget) and place.children == (quiz,)
    assert note in quiz.title.value
    assert [other.built for other in summary.places if other is not place] == [None] * 6
    quiz.answer(lesson.quiz[noted].question.correct_answer())
    assert recorded(progress) == [(lesson.quiz[noted].id, True, True)]
    assert text("lesson-quiz.progress", lang, answered=1, total=7) in summary.status.value


def test_every_lesson_quiz_can_be_finished_with_the_engines_answers() -> None:
    for lesson in list_lessons():
        if not lesson.quiz:
            continue
        quiz = LessonQuiz(lesson)
        for widget in quiz.quizzes:
            answer(widget, right=True)
        assert quiz.session.summary is not None
        assert (
            quiz.session.summary.first_try_right == quiz.session.summary.total == len(lesson.quiz)
        )


def test_a_presented_quiz_has_every_question_built_when_it_is_shown(scoring: Lesson) -> None:
    """A learner's page builds a question when it is reached; the presenter's builds them
    all at once, so a slide is whole (and fitted once) the moment it is shown."""
    learner = LessonQuiz(scoring, lang="en")
    assert all(place.built is None for place in learner.places)
    presented = LessonQuiz(scoring, lang="en", build_now=True)
    assert all(isinstance(place.built, QuizWidget) for place in presented.places)
    assert [place.children for place in presented.places] == [
        (place.built,) for place in presented.places
    ]
