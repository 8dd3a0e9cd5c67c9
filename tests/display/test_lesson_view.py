"""A lesson shown in a notebook (tutor.display.lesson_view): its text, its examples drawn
with the engine's answer marked, its quiz as widgets graded by the engine, each graded
answer recorded in the learner's progress; and the lesson page around it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.scenarios.learner import wrong_answer
from tutor.display import show_lesson
from tutor.display.context import Frontend, PageContext
from tutor.display.lesson_quiz import LessonQuiz
from tutor.display.lesson_view import example_heading, example_picture, example_words_html
from tutor.display.reach import Deferred
from tutor.display.widgets import QuizWidget
from tutor.display.words import words_html
from tutor.teaching.lesson import Lesson
from tutor.teaching.lesson_loader import list_lessons, load_lesson
from tutor.teaching.progress import Progress
from tutor.teaching.progress_events import AnswerSource, FinishedEvent
from tutor.teaching.progress_stores import MemoryStore

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def reach(place: Deferred) -> QuizWidget:
    """The question in ``place``, built as the browser asks for it when the learner
    scrolls near it."""
    place.stand_in.reached = True
    assert isinstance(place.built, QuizWidget)
    return place.built


@pytest.fixture(scope="module")
def lessons() -> list[Lesson]:
    return list_lessons()


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """What IPython would display, in order."""
    import IPython.display

    import tutor.display.lesson_view
    import tutor.display.page

    displayed: list[object] = []
    monkeypatch.setattr(IPython.display, "display", lambda *objs, **_kw: displayed.extend(objs))
    for module in (tutor.display.lesson_view, tutor.display.page):  # widgets, not their bundles
        monkeypatch.setattr(module, "show_widget", lambda widget, _lang: displayed.append(widget))
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
            assert any(section.heading() in words for words in markdown)
        widgets = [obj for obj in shown if not isinstance(obj, Markdown | HTML)]
        if not lesson.quiz:
            assert widgets == []
            continue
        # a place per question, in quiz order, then the summary that holds them
        *places, summary = widgets
        assert isinstance(summary, LessonQuiz) and places == summary.places
        assert [reach(place).question for place in places] == lesson.questions()


def test_quiz_widgets_grade_every_quiz_item_with_the_engine(lessons: list[Lesson]) -> None:
    for lesson in lessons:
        for question in lesson.questions():
            widget = QuizWidget(question)
            feedback = widget.answer(question.correct_answer())
            assert feedback.correct and "Right!" in widget.feedback.value


def test_a_graded_quiz_answer_is_recorded_with_its_lesson_item_and_topic() -> None:
    lesson = load_lesson("06")
    progress = Progress(MemoryStore())
    quiz = LessonQuiz(lesson, lang="en", progress=progress)
    item, widget = lesson.quiz[1], quiz.quizzes[1]
    question = item.question
    widget.answer(question.correct_answer())
    (event,) = progress.events
    assert (event.kind, event.lesson, event.item, event.topic) == (
        AnswerSource.QUIZ,
        "06_trick_winner",
        item.id,
        question.topic.value,
    )
    assert event.correct and event.first_try
    assert progress.summary({lesson.id: [i.id for i in lesson.quiz]}).lesson(lesson.id).right == 1


def test_a_second_try_is_recorded_but_does_not_count_as_first() -> None:
    lesson = load_lesson("06")
    progress = Progress(MemoryStore())
    quiz = LessonQuiz(lesson, lang="en", progress=progress)
    item, widget = lesson.quiz[0], quiz.quizzes[0]
    wrong = next(a for a in item.question.choices() if a != item.question.correct_answer())
    widget.answer(wrong)
    widget.try_again()
    widget.answer(item.question.correct_answer())
    first, second = progress.events
    assert (first.item, first.correct, first.first_try) == (item.id, False, True)
    assert (second.item, second.correct, second.first_try) == (item.id, True, False)
    assert progress.summary({lesson.id: [i.id for i in lesson.quiz]}).lesson(lesson.id).right == 0


def test_example_pictures_mark_the_engines_answer() -> None:
    lesson = load_lesson("04")
    trick, hand = example_picture(lesson.item("must-follow-blue")).split("Your hand")
    assert "The trick so far" in trick and 'aria-label="Trick in play order: blue 5."' in trick
    # B7 R12 G10 after B5: only the blue 7 is lit, the others are faded.
    assert hand.count("is-highlighted") == 1 and hand.count("is-dimmed") == 2
    sheet = example_picture(load_lesson("07").item("worked-game-sheet"))
    assert "<table" in sheet and "<svg" in sheet
    table = example_words_html(load_lesson("01").item("schedule-four-players"))
    assert re.search(r"<tr><td[^>]*>4</td><td[^>]*>15</td>", table)
    assert "1、2、3" in example_words_html(load_lesson("01").item("schedule-four-players"), "ja")


@pytest.mark.parametrize(
    "lang, label",
    [
        ("en", "<strong>Example.</strong></span> "),
        ("ja", "<strong>例</strong>：</span>"),
        ("zh-Hant", "<strong>例子</strong>：</span>"),
    ],
)
def test_an_examples_label_uses_the_languages_own_punctuation(lang: str, label: str) -> None:
    item = load_lesson("04").item("source-blue-then-wizard")
    heading = example_heading(item, lang)
    assert heading.endswith(label + words_html(item.note(lang)) + "</p>")  # type: ignore[misc]
    assert "**" not in heading


def test_a_lesson_page_has_links_title_notice_quiz_and_records_answers(shown: list[object]) -> None:
    from IPython.display import HTML, Markdown

    from tutor.display.lesson_view import show_lesson_page
    from tutor.display.progress_view import LearnerProgress

    progress = Progress(MemoryStore())
    context = PageContext("ja", Frontend.APP)
    show_lesson_page(
        "06_trick_winner", folder=NOTEBOOKS, context=context, learner=LearnerProgress(progress)
    )
    htmls = [obj.data for obj in shown if isinstance(obj, HTML)]
    assert htmls[0].startswith('<nav class="tutor-page-nav tutor-nav-top')
    assert htmls[-1].startswith('<nav class="tutor-page-nav tutor-nav-bottom')
    markdown = [obj.data for obj in shown if isinstance(obj, Markdown)]
    assert markdown[0].startswith(f"# {load_lesson('06').title('ja')}")
    quizzes = [reach(widget) for widget in shown if isinstance(widget, Deferred)]
    assert len(quizzes) == len(load_lesson("06").quiz)
    quizzes[0].answer(quizzes[0].question.correct_answer())
    assert [event.lesson for event in progress.events] == ["06_trick_winner"]


def test_a_lesson_page_is_finished_when_its_quiz_is_answered_through_and_a_redo_keeps_the_score(
    shown: list[object],
) -> None:
    from tutor.display.lesson_view import show_lesson_page
    from tutor.display.progress_view import LearnerProgress

    lesson = load_lesson("07")
    items = {lesson.id: [item.id for item in lesson.quiz]}
    progress = Progress(MemoryStore())

    def take_the_quiz(lang: str, right: int) -> None:
        """The page shown (again, as after a reload) and its questions answered, the
        first ``right`` of them right."""
        shown.clear()
        show_lesson_page(
            lesson.id,
            folder=NOTEBOOKS,
            context=PageContext(lang, Frontend.APP),
            learner=LearnerProgress(progress),
        )
        quizzes = [reach(widget) for widget in shown if isinstance(widget, Deferred)]
        for number, quiz in enumerate(quizzes):
            assert not progress.summary(items).last_completed or number == 0
            if quiz.earlier:  # the page reopened shows the first answer: answered again
                quiz.answer_again()
            question = quiz.question
            quiz.answer(question.correct_answer() if number < right else wrong_answer(question))

    take_the_quiz("en", right=3)
    assert isinstance(progress.events[-1], FinishedEvent)
    assert progress.events[-1].page == lesson.id
    score = progress.summary(items).lesson(lesson.id)
    assert score.done and score.right == 3
    take_the_quiz("ja", right=len(lesson.quiz))  # redone, all right, in Japanese
    assert progress.summary(items).lesson(lesson.id) == score
    # the page was finished by the first answers; a redo is practice and finishes nothing new
    assert [type(event) for event in progress.events].count(FinishedEvent) == 1
