"""The course in Japanese and Traditional Chinese: chosen on the index (with the keyboard),
kept on every link (``?lang=``), and shown by the worked example and a lesson quiz.

The expected words come from the engine and the catalogs (tutor.teaching.worked_example,
tutor.teaching.quiz, tutor.teaching.text) in the chosen language; the page must show them,
and not the English ones.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tutor.teaching.explain import card_name
from tutor.teaching.language import LANGUAGE_NAMES
from tutor.teaching.text import text
from tutor.teaching.worked_example import StepKind, worked_example

from .app_process import AppServer
from .conftest import PageLog, lesson_notebook, wait_until
from .fixtures import reach_every_question

pytestmark = pytest.mark.browser

LOAD_TIMEOUT = 90_000  # ms: a page waits for its kernel to run the notebook
ACTION_TIMEOUT = 30_000  # ms: a click travels to the kernel and back, on a loaded machine


WIZARD_WORD = {"ja": "ウィザード", "zh-Hant": "巫師"}
"""How each language names the Wizard card (the catalogs' word, checked on the page)."""


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def _choose_language(page: Any, lang: str) -> None:
    """On the index: reach the language's link with the keyboard and open it with Enter."""
    page.get_by_role("link", name=LANGUAGE_NAMES[lang], exact=True).focus()
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/voila/render/index.ipynb?lang={lang}", timeout=LOAD_TIMEOUT)
    _expect()(page.locator("h1").first).to_have_text(
        text("course.title", lang), timeout=LOAD_TIMEOUT
    )


def _watch_failures(page: Any) -> list[str]:
    """Every response of ``page`` with an error status, as "<status> <url>"."""
    failed: list[str] = []
    page.on(
        "response",
        lambda response: (
            failed.append(f"{response.status} {response.url}") if response.status >= 400 else None
        ),
    )
    return failed


def _assert_clean(log: PageLog, failed: list[str]) -> None:
    """No response failed (leaving a page gives its kernel back: Voila's page-close
    request is accepted) and ``log.assert_clean()``."""
    assert failed == [], failed
    log.assert_clean()


def _open_from_index(page: Any, title: str, notebook: str, lang: str) -> None:
    page.get_by_role("link", name=title, exact=True).click()
    page.wait_for_url(f"**/voila/render/{notebook}?lang={lang}", timeout=LOAD_TIMEOUT)


def _trick_2_in_the_worked_example(page: Any, lang: str, *, reached: bool = False) -> None:
    """Step to trick 2's result: its reason (the engine's, in ``lang``) names the Wizard in
    ``lang``, and no English sentence of the example is on the page. ``reached``: the
    learner got there in another language, and the page opens there (the step a learner
    reached is the same step in every language)."""
    expect = _expect()
    steps = worked_example(lang).steps
    english = worked_example("en").steps
    trick_2 = next(
        index
        for index, step in enumerate(steps)
        if step.kind is StepKind.TRICK and step.trick_number == 2
    )
    title = page.locator(".tutor-step-page h3")
    next_button = page.locator("button.tutor-step-next")
    next_button.wait_for(state="visible", timeout=LOAD_TIMEOUT)
    if reached:
        expect(title).to_have_text(steps[trick_2].title, timeout=ACTION_TIMEOUT)
    else:
        expect(title).to_have_text(steps[0].title, timeout=ACTION_TIMEOUT)
        for index in range(1, trick_2 + 1):
            next_button.click()
            expect(title).to_have_text(steps[index].title, timeout=ACTION_TIMEOUT)
    reason = page.locator(".tutor-reason").first
    expect(reason).to_have_text(steps[trick_2].sentences[0])
    assert WIZARD_WORD[lang] in reason.inner_text()
    shown = page.locator("body").inner_text()
    assert english[trick_2].sentences[0] not in shown
    assert english[trick_2].title not in shown
    assert text("worked.title", "en") not in shown


def test_the_index_chooses_the_language_and_the_worked_example_keeps_it(
    app: AppServer, page: tuple[Any, PageLog]
) -> None:
    browser_page, log = page
    failed = _watch_failures(browser_page)
    browser_page.goto(app.url("/"))
    browser_page.wait_for_url("**/voila/render/index.ipynb", timeout=LOAD_TIMEOUT)
    for lang in ("ja", "zh-Hant"):
        _choose_language(browser_page, lang)
        links = browser_page.locator(".tutor-course-entry a")
        links.first.wait_for(timeout=LOAD_TIMEOUT)  # the list follows the learner's progress
        # read at one instant: the list is redrawn when the browser's store reports
        hrefs = links.evaluate_all("links => links.map(a => a.getAttribute('href') || '')")
        assert hrefs and all(re.search(rf"[?&]lang={lang}$", href) for href in hrefs), hrefs
        _open_from_index(browser_page, text("worked.title", lang), "08_worked_example.ipynb", lang)
        _trick_2_in_the_worked_example(browser_page, lang, reached=lang != "ja")
        browser_page.go_back()
        browser_page.wait_for_url(f"**/voila/render/index.ipynb?lang={lang}", timeout=LOAD_TIMEOUT)
    _assert_clean(log, failed)


def test_a_lesson_quiz_answers_in_japanese(app: AppServer, page: tuple[Any, PageLog]) -> None:
    from tutor.teaching.lesson_loader import load_lesson
    from tutor.teaching.quiz import TrickWinnerQuestion

    lang = "ja"
    browser_page, log = page
    expect = _expect()
    notebook = lesson_notebook("06")
    assert notebook is not None, "notebooks/06_*.ipynb is part of the course"
    lesson = load_lesson("06")
    failed = _watch_failures(browser_page)
    question = next(q for q in lesson.questions() if isinstance(q, TrickWinnerQuestion))

    browser_page.goto(app.render_url("index.ipynb", f"lang={lang}"))
    browser_page.locator(".tutor-course-entry").first.wait_for(timeout=LOAD_TIMEOUT)
    _open_from_index(browser_page, lesson.title(lang), notebook.name, lang)

    labels = [
        text("widgets.pick-card", lang, card=card_name(card, lang), player=name)
        for card, name in zip(question.plays, question.names(), strict=True)
    ]
    quizzes = browser_page.locator(".widget-vbox:has(> .widget-html .quiz-prompt)")
    reach_every_question(browser_page, LOAD_TIMEOUT)  # each is built when it is reached

    def quiz_with_labels() -> Any:
        """The quiz showing ``labels``, once drawn (the page's widgets appear one by one)."""
        for quiz in quizzes.all():
            shown = [label.strip() for label in quiz.locator("button:visible").all_inner_texts()]
            if shown == labels:
                return quiz
        return None

    quiz = wait_until(quiz_with_labels, LOAD_TIMEOUT, f"a quiz showing the buttons {labels}")
    wrong = (question.correct_answer() + 1) % len(question.plays)
    quiz.get_by_role("button", name=labels[wrong], exact=True).click()
    feedback = quiz.locator(".quiz-feedback")
    expect(feedback).to_have_count(1, timeout=ACTION_TIMEOUT)
    expected, english = question.check(wrong, lang), question.check(wrong, "en")
    shown = feedback.inner_text()
    assert expected.verdict in shown
    assert question.hint(lang) in shown  # a first miss: the rule to look at, in Japanese
    assert question.hint("en") not in shown
    quiz.get_by_role("button", name=text("widgets.show-answer", lang), exact=True).click()
    expect(feedback).to_contain_text(expected.answer, timeout=ACTION_TIMEOUT)
    shown = feedback.inner_text()
    assert expected.answer in shown  # the engine's answer and its reason, in Japanese
    assert english.verdict not in shown and english.answer not in shown
    _assert_clean(log, failed)
