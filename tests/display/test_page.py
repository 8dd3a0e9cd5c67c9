"""What every page has (tutor.display.page): links, title, notice, the tab title in the app
only, nothing of it on a presenter's slides but the title, and widgets shown with a note
(never their repr) where they cannot be drawn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tutor.display.app_page import AppPage
from tutor.display.browser_store import BrowserStore
from tutor.display.context import Frontend, PageContext
from tutor.display.lab_page import LabPage
from tutor.display.lesson_quiz import LessonQuiz
from tutor.display.page import PageFrame, show_course_page, show_widget
from tutor.display.progress_view import LearnerProgress, ProgressNotice
from tutor.display.reach import Deferred
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.progress import Progress
from tutor.teaching.progress_events import AnswerEvent, FinishedEvent
from tutor.teaching.progress_stores import MemoryStore
from tutor.teaching.text import text

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    import IPython.display

    displayed: list[object] = []
    monkeypatch.setattr(IPython.display, "display", lambda *objs, **_kw: displayed.extend(objs))
    return displayed


def _frame(context: PageContext, learner: LearnerProgress | None = None) -> PageFrame:
    learner = learner or LearnerProgress(Progress(MemoryStore()))
    return PageFrame("06_trick_winner", folder=NOTEBOOKS, context=context, learner=learner)


def test_the_app_sets_the_tab_title_and_lab_the_pages_language() -> None:
    notice, title = _frame(PageContext("zh-Hant", Frontend.APP)).furniture("誰拿下這一墩")
    assert isinstance(notice, ProgressNotice) and isinstance(title, AppPage)
    assert title.title == "誰拿下這一墩｜Wizard巫師牌：學規則"  # whose page it is, in the tab
    notice, language = _frame(PageContext("zh-Hant", Frontend.LAB)).furniture("x")
    assert isinstance(notice, ProgressNotice)
    assert isinstance(language, LabPage) and language.lang == "zh-Hant"  # Lab's own <html lang>
    store = BrowserStore()
    learner = LearnerProgress(Progress(store), store)
    assert _frame(PageContext("en", Frontend.APP), learner).furniture("x")[-1] is store


def test_a_presenters_slides_have_the_title_but_no_links(shown: list[object]) -> None:
    from IPython.display import HTML, Markdown

    _frame(PageContext("en", Frontend.APP, presenting=True)).show_top()
    assert not any(isinstance(obj, HTML) for obj in shown)
    assert isinstance(shown[0], Markdown) and shown[0].data.startswith("# Who takes the trick")
    shown.clear()
    frame = _frame(PageContext("en", Frontend.APP))
    frame.show_top()
    frame.show_bottom()
    assert isinstance(shown[0], HTML) and isinstance(shown[-1], HTML)


def test_a_widget_is_shown_with_a_note_for_where_it_cannot_be_drawn(shown: list[object]) -> None:
    show_widget(AppPage(title="x"), "ja")
    (bundle,) = shown
    assert isinstance(bundle, dict)
    assert bundle["text/plain"] == text("course.widget-note", "ja")
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_the_course_page_shows_the_intro_then_its_live_part(shown: list[object]) -> None:
    from IPython.display import HTML

    show_course_page(
        folder=NOTEBOOKS,
        context=PageContext("ja", Frontend.APP),
        learner=LearnerProgress(Progress(MemoryStore())),
    )
    intro, course = shown
    assert isinstance(intro, HTML) and f"<h1>{text('course.title', 'ja')}</h1>" in intro.data
    assert isinstance(course, dict) and course["text/plain"] == text("course.widget-note", "ja")


def test_the_worked_example_offers_the_arrow_keys_only_in_the_app(
    monkeypatch: pytest.MonkeyPatch, shown: list[object]
) -> None:
    import tutor.display.page as page
    from tutor.display.page import show_worked_example_page

    widgets: list[object] = []
    monkeypatch.setattr(page, "show_widget", lambda widget, _lang: widgets.append(widget))
    for frontend, offered in ((Frontend.APP, True), (Frontend.LAB, False)):
        widgets.clear()
        show_worked_example_page(
            "08_worked_example",
            folder=NOTEBOOKS,
            context=PageContext("en", frontend),
            learner=LearnerProgress(Progress(MemoryStore())),
        )
        content = widgets[0]  # the stepper with the page's helpers, in one output (then its quiz)
        stepper = content.children[0]  # type: ignore[attr-defined]
        hints = [child for child in stepper.children if "tutor-step-keys" in child._dom_classes]
        assert bool(hints) is offered
        back, following = stepper.children[1].children[:2]
        assert ("arrow" in back.tooltip) is offered and ("arrow" in following.tooltip) is offered


def test_the_worked_examples_tricks_at_a_glance_wait_for_the_last_step(
    monkeypatch: pytest.MonkeyPatch, shown: list[object]
) -> None:
    """Issue 19: the summary of the tricks (every winner in it) was on the page from step
    1, spoiling the stepping. A learner sees it under the stepper at the last step only; a
    presenter's slides come one at a time, so there it stays the slide after the stepper."""
    from IPython.display import HTML

    import tutor.display.page as page
    from tutor.display.page import show_worked_example_page
    from tutor.display.stepper import NEXT_CLASS

    title = text("worked-summary.title", "ja", round=3)
    widgets: list[object] = []
    monkeypatch.setattr(page, "show_widget", lambda widget, _lang: widgets.append(widget))
    learner = LearnerProgress(Progress(MemoryStore()))
    show_worked_example_page(
        "08_worked_example",
        folder=NOTEBOOKS,
        context=PageContext("ja", Frontend.APP),
        learner=learner,
    )
    assert not any(isinstance(obj, HTML) and title in obj.data for obj in shown)
    content = widgets[0]  # the stepper (then the quiz)
    stepper_box = content.children[0]  # type: ignore[attr-defined]
    # inside the stepper's box, under the steps: its sticky Back and Next stay in reach
    (ending,) = [c for c in stepper_box.children if "tutor-worked-ending" in c._dom_classes]
    assert ending.value == ""
    next_button = next(
        child
        for row in stepper_box.children
        for child in getattr(row, "children", ())
        if NEXT_CLASS in child._dom_classes
    )
    while not next_button.disabled:  # a learner pressing Next to the last step
        assert title not in ending.value
        next_button.click()
    assert title in ending.value and "★" in ending.value

    shown.clear()
    widgets.clear()
    show_worked_example_page(
        "08_worked_example",
        folder=NOTEBOOKS,
        context=PageContext("ja", Frontend.APP, presenting=True),
        learner=learner,
    )
    assert any(isinstance(obj, HTML) and title in obj.data for obj in shown)


# -- pages without a quiz are finished, and the learner's progress says so ----------------------


def _shown_content(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    import tutor.display.page as page

    widgets: list[object] = []
    monkeypatch.setattr(page, "show_widget", lambda widget, _lang: widgets.append(widget))
    return widgets


def _finished(progress: Progress) -> list[str]:
    return [event.page for event in progress.events if isinstance(event, FinishedEvent)]


def test_the_worked_example_ends_with_its_quiz_whose_answers_finish_the_page(
    monkeypatch: pytest.MonkeyPatch, shown: list[object]
) -> None:
    """Issue 31: lesson 08 asked nothing. Its quiz comes after the example, as on every
    lesson's page, and finishes the page once answered through (reaching the last step
    no longer does: the questions are still below)."""
    import tutor.display.lesson_view as lesson_view
    from tutor.display.page import show_worked_example_page

    widgets = _shown_content(monkeypatch)  # the page's widgets in order, the quiz's too
    monkeypatch.setattr(lesson_view, "show_widget", lambda widget, _lang: widgets.append(widget))
    progress = Progress(MemoryStore())
    show_worked_example_page(
        "08_worked_example",
        folder=NOTEBOOKS,
        context=PageContext("ja", Frontend.APP),
        learner=LearnerProgress(progress),
    )
    content, *quiz_parts = widgets
    stepper = content.children[0]  # type: ignore[attr-defined]
    following = stepper.children[1].children[1]
    steps = 1
    while not following.disabled:
        following.click()
        steps += 1
    assert steps > 10 and _finished(progress) == []  # the quiz below is still to answer
    lesson = load_lesson("08_worked_example")
    places = [part for part in quiz_parts if isinstance(part, Deferred)]
    for place in places:  # as the browser asks when the learner scrolls near a question
        place.stand_in.reached = True
    quizzes = [place.built for place in places]
    assert [quiz.question for quiz in quizzes] == lesson.questions() and len(quizzes) >= 3
    assert isinstance(quiz_parts[-1], LessonQuiz)  # its summary last, as on a lesson's page
    for quiz in quizzes:
        assert _finished(progress) == []
        quiz.answer(quiz.question.correct_answer())
    assert _finished(progress) == ["08_worked_example"]
    answers = [event for event in progress.events if isinstance(event, AnswerEvent)]
    assert {event.lesson for event in answers} == {"08_worked_example"}
    summary = progress.summary({lesson.id: [item.id for item in lesson.quiz]})
    assert summary.done(lesson.id) and summary.lesson(lesson.id).right == len(lesson.quiz)


def test_the_worked_example_opens_at_the_step_reached_and_a_presenter_keeps_none(
    monkeypatch: pytest.MonkeyPatch, shown: list[object]
) -> None:
    from tutor.display.page import show_worked_example_page

    widgets = _shown_content(monkeypatch)
    progress = Progress(MemoryStore())

    def open_page(presenting: bool = False) -> Any:
        widgets.clear()
        show_worked_example_page(
            "08_worked_example",
            folder=NOTEBOOKS,
            context=PageContext("en", Frontend.APP, presenting=presenting),
            learner=LearnerProgress(progress),
        )
        return widgets[0].children[0]  # type: ignore[attr-defined]

    following = open_page().children[1].children[1]
    while not following.disabled:  # to the end (its quiz, not its last step, finishes it)
        following.click()
    assert _finished(progress) == [] and progress.events
    kept = list(progress.events)
    stepper = open_page()  # opened again: at the last step, its tricks at a glance shown
    back, following = stepper.children[1].children[:2]
    assert following.disabled and not back.disabled
    (ending,) = [c for c in stepper.children if "tutor-worked-ending" in c._dom_classes]
    assert "tricks-summary" in ending.value
    assert progress.events == kept  # coming back is no news: no step, no second finish
    slides = open_page(presenting=True)  # the room's slides start at step 1, keep nothing
    assert slides.children[1].children[0].disabled
    slides.children[1].children[1].click()
    assert progress.events == kept


def test_the_play_page_is_finished_each_time_a_round_is_over(
    monkeypatch: pytest.MonkeyPatch, shown: list[object]
) -> None:
    from tutor.display.page import show_play_page
    from tutor.display.play import PlayScreen

    from .test_play_screen import take_turn

    widgets = _shown_content(monkeypatch)
    progress = Progress(MemoryStore())
    show_play_page(
        "11_play_a_round",
        folder=NOTEBOOKS,
        context=PageContext("en", Frontend.LAB),
        learner=LearnerProgress(progress),
    )
    (content,) = widgets
    screen = content.children[0]  # type: ignore[attr-defined]
    assert isinstance(screen, PlayScreen)
    for _ in range(50):
        if screen.session.round.finished:
            break
        assert _finished(progress) == []  # not while the round is being played
        take_turn(screen)
    assert screen.session.round.finished and _finished(progress) == ["11_play_a_round"]
    assert progress.summary().done("11_play_a_round")
    take_turn(screen)  # the next round
    for _ in range(50):
        if screen.session.round.finished:
            break
        take_turn(screen)
    assert _finished(progress) == ["11_play_a_round"] * 2


@pytest.mark.parametrize(("lang", "slanted"), [("en", True), ("ja", False), ("zh-Hant", False)])
def test_the_lead_paragraph_is_in_italics_only_where_the_script_has_italics(
    shown: list[object], lang: str, slanted: bool
) -> None:
    """Japanese and Chinese have no italics: a browser would slant the characters."""
    _frame(PageContext(lang, Frontend.APP)).show_top("Title", "The lead.")
    (title,) = [obj for obj in shown if getattr(obj, "data", "").startswith("# Title")]
    assert title.data.endswith("*The lead.*" if slanted else "\n\nThe lead.")
