"""A lesson shown in a notebook (tutor.display.lesson_view): its text, its examples drawn
with the engine's answer marked, and its quiz as widgets graded by the engine."""

from __future__ import annotations

import pytest

from tutor.display import show_lesson
from tutor.display.lesson_quiz import LessonQuiz
from tutor.display.lesson_view import example_markdown, example_picture
from tutor.display.widgets import QuizWidget
from tutor.teaching.lesson import Lesson
from tutor.teaching.lesson_loader import list_lessons, load_lesson


@pytest.fixture(scope="module")
def lessons() -> list[Lesson]:
    return list_lessons()


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """What IPython would display, in order."""
    import IPython.display

    displayed: list[object] = []
    monkeypatch.setattr(IPython.display, "display", lambda *objs, **_kw: displayed.extend(objs))
    return displayed


def test_every_lesson_shows_text_examples_and_quiz_widgets(
    lessons: list[Lesson], shown: list[object]
) -> None:
    from IPython.display import HTML, Markdown

    for lesson in lessons:
        shown.clear()
        show_lesson(lesson)
        markdown = [obj.data for obj in shown if isinstance(obj, Markdown)]
        assert markdown[0].startswith(f"# {lesson.title()}")
        for section in lesson.sections:
            assert any(section.heading() in text for text in markdown)
        widgets = [obj for obj in shown if not isinstance(obj, Markdown | HTML)]
        if not lesson.quiz:
            assert widgets == []
            continue
        # a widget per question, in quiz order, then the summary that holds them
        *questions, summary = widgets
        assert isinstance(summary, LessonQuiz) and questions == summary.quizzes
        assert [quiz.question for quiz in questions] == lesson.questions()


def test_quiz_widgets_grade_every_quiz_item_with_the_engine(lessons: list[Lesson]) -> None:
    for lesson in lessons:
        for question in lesson.questions():
            widget = QuizWidget(question)
            feedback = widget.answer(question.correct_answer())
            assert feedback.correct and "Right!" in widget.feedback.value


def test_example_pictures_mark_the_engines_answer() -> None:
    lesson = load_lesson("04")
    trick, hand = example_picture(lesson.item("must-follow-blue")).split("Your hand")
    assert "The trick so far" in trick and 'aria-label="Trick in play order: blue 5."' in trick
    # B7 R12 G10 after B5: only the blue 7 is lit, the others are faded.
    assert hand.count("is-highlighted") == 1 and hand.count("is-dimmed") == 2
    sheet = example_picture(load_lesson("07").item("worked-game-sheet"))
    assert "<table" in sheet and "<svg" in sheet
    assert "| 4 | 15 |" in example_markdown(load_lesson("01").item("schedule-3-to-6"))
