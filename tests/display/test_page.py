"""What every page has (tutor.display.page): links, title, notice, the tab title in the app
only, nothing of it on a presenter's slides but the title, and widgets shown with a note
(never their repr) where they cannot be drawn."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.display.app_page import AppPage
from tutor.display.browser_store import BrowserStore
from tutor.display.context import Frontend, PageContext
from tutor.display.page import PageFrame, show_course_page, show_widget
from tutor.display.progress_view import LearnerProgress, ProgressNotice
from tutor.teaching.progress import MemoryStore, Progress
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


def test_the_app_sets_the_tab_title_and_lab_does_not() -> None:
    notice, title = _frame(PageContext("zh-Hant", Frontend.APP)).furniture("誰拿下這一墩")
    assert isinstance(notice, ProgressNotice) and isinstance(title, AppPage)
    assert title.title == "誰拿下這一墩｜Wizard巫師牌：學規則"  # whose page it is, in the tab
    (only,) = _frame(PageContext("zh-Hant", Frontend.LAB)).furniture("x")
    assert isinstance(only, ProgressNotice)
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
        (content,) = widgets  # the stepper with the page's helpers, in one output
        stepper = content.children[0]  # type: ignore[attr-defined]
        hints = [child for child in stepper.children if "tutor-step-keys" in child._dom_classes]
        assert bool(hints) is offered
        back, following = stepper.children[1].children[:2]
        assert ("arrow" in back.tooltip) is offered and ("arrow" in following.tooltip) is offered


@pytest.mark.parametrize(("lang", "slanted"), [("en", True), ("ja", False), ("zh-Hant", False)])
def test_the_lead_paragraph_is_in_italics_only_where_the_script_has_italics(
    shown: list[object], lang: str, slanted: bool
) -> None:
    """Japanese and Chinese have no italics: a browser would slant the characters."""
    _frame(PageContext(lang, Frontend.APP)).show_top("Title", "The lead.")
    (title,) = [obj for obj in shown if getattr(obj, "data", "").startswith("# Title")]
    assert title.data.endswith("*The lead.*" if slanted else "\n\nThe lead.")
