"""The course as a learner moves through it, in Chromium: every page in every language
(no block printed for the tests, no traceback, no Python repr; links to the course and the
neighbours in the page's language; the tab titled with the page's title), the course page
with this learner's results and where to continue, and progress that belongs to one
browser: two browsers apart, two pages of one learner both counted, reset only after
asking, a damaged store said on the page and started afresh; and the file store of the hub
showing its own message for a bad file, not Voilà's error.

Expected words come from the engine and the catalogs (tutor.display.course, tutor.teaching).
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tutor.display.course import INDEX_NOTEBOOK, course_entries, quiz_items
from tutor.display.page import tab_title
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.progress_events import AnswerEvent, AnswerSource
from tutor.teaching.progress_stores import BROWSER_STORAGE_KEY
from tutor.teaching.text import LANGUAGES, text

from .app_process import NOTEBOOKS, AppServer
from .conftest import PageLog
from .fixtures import reach_question

pytestmark = pytest.mark.browser

LOAD_TIMEOUT = 120_000  # ms: a page waits for its kernel to run the notebook
ACTION_TIMEOUT = 30_000
ANSWER_TIMEOUT = 60_000  # ms: a click's round trip to a kernel on a loaded machine
LESSON = "06_trick_winner"

REPR_SIGNS = ("Traceback", "object at 0x", "Widget(", "children=(", "<IPython.", "Card.parse(")
ERROR_SIGNS = ("There was an error when executing cell", "Error displaying widget")


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def _new_page(browser: Any, width: int = 1280, height: int = 800) -> tuple[Any, Any, PageLog]:
    """A page in a browser context of its own (its own localStorage: another learner)."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    log = PageLog()
    page.on("request", lambda request: log.requests.append(request.url))
    page.on("console", lambda m: log.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: log.errors.append(f"page error: {error}"))
    return context, page, log


def _clean(log: PageLog) -> None:
    # Nothing forgiven: Voilà's page-close request is accepted too (tutor/app/kernel_access.py).
    log.assert_clean()


def _open(page: Any, app: AppServer, notebook: str, lang: str) -> None:
    """Open a page and wait until its kernel has run and its widgets are drawn."""
    page.goto(app.render_url(notebook, f"lang={lang}"))
    ready = ".tutor-course-entry" if notebook == INDEX_NOTEBOOK else ".tutor-nav-top"
    page.locator(ready).first.wait_for(timeout=LOAD_TIMEOUT)


def _course_page_ready(page: Any) -> None:
    """The course page, once the browser's store has reported (no "Loading" left)."""
    page.locator(".tutor-continue-link, .tutor-continue:not([role=status])").first.wait_for(
        timeout=LOAD_TIMEOUT
    )


# -- every page, every language ----------------------------------------------------------------------


BATCH = 4
"""Pages opened at once (each page's kernel runs its notebook meanwhile)."""


def _check_page(page: Any, notebook: str, lang: str, title: str) -> None:
    """No plain-text block, no traceback or repr, and the tab titled with ``title``."""
    expect = _expect()
    ready = ".tutor-course-entry" if notebook == INDEX_NOTEBOOK else ".tutor-nav-top"
    page.locator(ready).first.wait_for(timeout=LOAD_TIMEOUT)
    # not the file name: the page's title and the tutor's name
    expect(page).to_have_title(tab_title(title, lang), timeout=ACTION_TIMEOUT)
    cells = page.locator("#rendered_cells")
    # Nothing printed: no text/plain output, no stream.
    plain = cells.locator(
        "[data-mime-type='text/plain'], [data-mime-type*='stdout'], [data-mime-type*='stderr']"
    )
    expect(plain, f"{notebook} ({lang}) shows a plain-text block").to_have_count(0)
    shown = cells.inner_text()
    for sign in (*REPR_SIGNS, *ERROR_SIGNS):
        assert sign not in shown, f"{notebook} ({lang}) shows {sign!r}"
    expect(page.locator('[title="null"]'), f"{notebook} ({lang}): a 'null' tooltip").to_have_count(
        0
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_is_clean_titled_and_linked_in_its_language(
    app: AppServer, browser: Any, lang: str
) -> None:
    expect = _expect()
    context, first, log = _new_page(browser)
    entries = course_entries(NOTEBOOKS, lang=lang)
    files = [entry.file for entry in entries]
    titles = {INDEX_NOTEBOOK: text("course.title", lang)} | {e.file: e.title for e in entries}
    notebooks = [INDEX_NOTEBOOK, *files]
    pages = [first] + [context.new_page() for _ in range(BATCH - 1)]
    for extra in pages[1:]:
        extra.on("console", lambda m: log.errors.append(m.text) if m.type == "error" else None)
        extra.on("pageerror", lambda error: log.errors.append(f"page error: {error}"))
    try:
        for start in range(0, len(notebooks), BATCH):
            batch = list(zip(pages, notebooks[start : start + BATCH], strict=False))
            for page, notebook in batch:
                page.goto(app.render_url(notebook, f"lang={lang}"), wait_until="commit")
            for page, notebook in batch:
                page.bring_to_front()  # a tab in the background may not draw its widgets
                _check_page(page, notebook, lang, titles[notebook])
                if notebook == INDEX_NOTEBOOK:
                    continue
                index = files.index(notebook)
                hrefs = page.locator(".tutor-nav-top a").evaluate_all(
                    "links => links.map(a => a.getAttribute('href'))"
                )
                expected = [f"{INDEX_NOTEBOOK}?lang={lang}"]
                expected += [f"{files[index - 1]}?lang={lang}"] if index > 0 else []
                expected += [f"{files[index + 1]}?lang={lang}"] if index + 1 < len(files) else []
                assert hrefs == expected, notebook
                nav = page.locator(".tutor-nav-top")
                expect(nav.locator("a.tutor-nav-course")).to_contain_text(text("nav.course", lang))
                if index + 1 < len(files):
                    expect(nav.locator("a.tutor-nav-next")).to_contain_text(
                        text("nav.next", lang, title=entries[index + 1].title)
                    )
        # A page's links open in the same tab: the course link goes back to the course page.
        for extra in pages[1:]:
            extra.close()
        first.goto(app.render_url(files[-1], f"lang={lang}"))
        first.locator(".tutor-nav-top a.tutor-nav-course").click()
        first.wait_for_url(f"**/voila/render/{INDEX_NOTEBOOK}?lang={lang}", timeout=LOAD_TIMEOUT)
        assert len(context.pages) == 1
        _clean(log)
    finally:
        context.close()


# -- the course page and the learner's progress ---------------------------------------------------------


def _answer(page: Any, quiz_number: int) -> None:
    """Answer a lesson page's quiz question (the first choice, right or wrong)."""
    quiz = reach_question(page, quiz_number, LOAD_TIMEOUT)
    quiz.locator("button.tutor-quiz-choice").first.click()
    quiz.locator(".quiz-feedback").wait_for(timeout=ANSWER_TIMEOUT)


def _stored(page: Any) -> list[dict[str, Any]]:
    raw = page.evaluate(f"localStorage.getItem({json.dumps(BROWSER_STORAGE_KEY)})")
    return json.loads(raw) if raw else []


def _wait_stored(page: Any, count: int) -> None:
    page.wait_for_function(
        f"(JSON.parse(localStorage.getItem({json.dumps(BROWSER_STORAGE_KEY)}) || '[]')).length"
        f" >= {count}",
        timeout=ANSWER_TIMEOUT,  # a click, the kernel's answer, then the browser's write
    )


def test_the_course_page_shows_results_and_where_to_continue_in_three_languages(
    app: AppServer, browser: Any
) -> None:
    expect = _expect()
    context, page, log = _new_page(browser)
    items = quiz_items(course_entries(NOTEBOOKS))[LESSON]
    try:
        _open(page, app, INDEX_NOTEBOOK, "en")
        _course_page_ready(page)
        expect(page.locator(".tutor-continue")).to_contain_text(text("course.start"))
        expect(page.locator(".tutor-course-status")).to_have_count(0)
        for answered, lang in enumerate(LANGUAGES, start=1):
            _open(page, app, f"{LESSON}.ipynb", lang)
            _answer(page, answered - 1)
            _wait_stored(page, answered)
            page.locator(".tutor-nav-top a.tutor-nav-course").click()  # back to the course
            page.wait_for_url(f"**/{INDEX_NOTEBOOK}?lang={lang}", timeout=LOAD_TIMEOUT)
            _course_page_ready(page)
            status = text("course.status-started", lang, answered=answered, items=len(items))
            expect(page.locator(".tutor-course-status")).to_have_text(status)
            resume = page.locator(".tutor-continue")
            expect(resume).to_contain_text(text("course.continue", lang))
            expect(resume.locator("a")).to_have_attribute("href", f"{LESSON}.ipynb?lang={lang}")
            where = page.locator(".tutor-progress-where")
            expect(where).to_have_text(text("progress.where-browser", lang))
        assert {event["lesson"] for event in _stored(page)} == {LESSON}
        _clean(log)
    finally:
        context.close()


def _choose(page: Any, quiz_number: int, index: int) -> None:
    """Answer a lesson page's quiz question with its choice number ``index``."""
    quiz = reach_question(page, quiz_number, LOAD_TIMEOUT)
    quiz.locator("button.tutor-quiz-choice").nth(index).click()
    quiz.locator(".quiz-feedback").wait_for(timeout=ANSWER_TIMEOUT)


def _answer_again(page: Any, quiz_number: int) -> None:
    """A question the page shows answered from before (a lesson reopened), asked afresh."""
    quiz = reach_question(page, quiz_number, LOAD_TIMEOUT)
    quiz.locator("button.tutor-quiz-answer-again").click()
    _expect()(quiz.locator(".quiz-feedback")).to_have_count(0, timeout=ANSWER_TIMEOUT)


def test_after_a_reload_the_earliest_answer_stays_the_first_try_and_a_redo_keeps_the_score(
    app: AppServer, browser: Any
) -> None:
    # Issue 19: a wrong first try, a reload, then the question right: the course page
    # said "right" for it. The learner had answered the lesson's other questions before.
    expect = _expect()
    context, page, log = _new_page(browser)
    lesson = load_lesson(LESSON)
    first, *others = lesson.quiz
    choices = list(first.question.choices())
    right = choices.index(first.question.correct_answer())
    wrong = next(index for index in range(len(choices)) if index != right)
    earlier = [
        AnswerEvent(AnswerSource.QUIZ, item.question.topic.value, True, True, LESSON, item.id)
        for item in others
    ]
    try:
        _open(page, app, INDEX_NOTEBOOK, "en")
        _course_page_ready(page)
        stored = json.dumps([event.to_json() for event in earlier])
        key = json.dumps(BROWSER_STORAGE_KEY)
        page.evaluate(f"localStorage.setItem({key}, {json.dumps(stored)})")
        _open(page, app, f"{LESSON}.ipynb", "en")
        _choose(page, 0, wrong)
        _wait_stored(page, len(earlier) + 1)
        page.reload()
        _answer_again(page, 0)  # the reloaded page shows the wrong first answer
        _choose(page, 0, right)  # a first try on the reloaded page, but not the learner's
        _wait_stored(page, len(earlier) + 2)
        for lang in ("en", "ja"):
            _open(page, app, INDEX_NOTEBOOK, lang)
            _course_page_ready(page)
            score = text("course.status-done", lang, right=len(others), items=len(lesson.quiz))
            expect(page.locator(".tutor-course-status")).to_have_text(f"✓ {score}")
            resume = page.locator(".tutor-continue a")
            expect(resume).to_have_attribute("href", f"{LESSON}.ipynb?lang={lang}")
            if lang == "en":  # the lesson redone in Japanese, its first question right
                _open(page, app, f"{LESSON}.ipynb", "ja")
                _answer_again(page, 0)
                _choose(page, 0, right)
                _wait_stored(page, len(earlier) + 3)
        _clean(log)
    finally:
        context.close()


def test_two_browsers_keep_separate_progress_and_reset_asks_and_resets_one(
    app: AppServer, browser: Any
) -> None:
    expect = _expect()
    (first, page_a, log_a), (second, page_b, log_b) = _new_page(browser), _new_page(browser)
    try:
        _open(page_a, app, f"{LESSON}.ipynb", "en")
        _answer(page_a, 0)
        _wait_stored(page_a, 1)
        _open(page_b, app, INDEX_NOTEBOOK, "en")
        _course_page_ready(page_b)
        # B's progress is drawn, and A's answer is not in it
        expect(page_b.locator(".tutor-continue")).to_contain_text(text("course.start"))
        expect(page_b.locator(".tutor-course-status")).to_have_count(0)
        assert _stored(page_b) == []
        _open(page_b, app, "09_practice.ipynb", "en")
        page_b.locator(".tutor-quiz button").first.wait_for(timeout=LOAD_TIMEOUT)
        _open(page_a, app, INDEX_NOTEBOOK, "en")
        _course_page_ready(page_a)
        expect(page_a.locator(".tutor-course-status")).to_have_count(1)

        # Reset asks first; "No, keep them" keeps them.
        reset = page_a.locator("button.tutor-reset")
        reset.click()
        question = page_a.locator(".tutor-reset-question")
        expect(question).to_be_visible()
        expect(question).to_contain_text(text("progress.reset-ask"))
        page_a.locator("button.tutor-reset-cancel").click()
        expect(question).to_be_hidden()
        expect(page_a.locator(".tutor-course-status")).to_have_count(1)
        assert len(_stored(page_a)) == 1
        reset.click()
        page_a.locator("button.tutor-reset-confirm").click()
        expect(page_a.locator(".tutor-course-status")).to_have_count(0, timeout=ACTION_TIMEOUT)
        expect(page_a.locator(".tutor-continue")).to_contain_text(text("course.start"))
        _wait_stored(page_a, 2)
        assert _stored(page_a)[-1]["kind"] == "reset"
        assert _stored(page_b) == []  # the other browser was never touched
        _clean(log_a)
        _clean(log_b)
    finally:
        first.close()
        second.close()


def test_two_pages_of_one_learner_both_count(app: AppServer, browser: Any) -> None:
    expect = _expect()
    context, page, log = _new_page(browser)
    other = context.new_page()  # the same browser: the same learner
    try:
        _open(page, app, f"{LESSON}.ipynb", "en")
        _open(other, app, f"{LESSON}.ipynb", "en")
        first = reach_question(page, 0, LOAD_TIMEOUT).locator("button.tutor-quiz-choice").first
        second = reach_question(other, 1, LOAD_TIMEOUT).locator("button.tutor-quiz-choice").first
        first.wait_for(timeout=LOAD_TIMEOUT)
        second.wait_for(timeout=LOAD_TIMEOUT)
        # Both answer at once: each page's kernel asks its browser tab to append.
        first.click(no_wait_after=True)
        second.click(no_wait_after=True)
        _wait_stored(page, 2)
        events = _stored(page)
        assert len(events) == 2 and len({event["item"] for event in events}) == 2
        _open(page, app, INDEX_NOTEBOOK, "en")
        _course_page_ready(page)
        items = quiz_items(course_entries(NOTEBOOKS))[LESSON]
        status = text("course.status-started", answered=2, items=len(items))
        expect(page.locator(".tutor-course-status")).to_have_text(status)
        _clean(log)
    finally:
        context.close()


def test_a_damaged_store_in_the_browser_is_said_and_started_afresh(
    app: AppServer, browser: Any
) -> None:
    expect = _expect()
    context, page, log = _new_page(browser, 390, 844)
    try:
        _open(page, app, INDEX_NOTEBOOK, "ja")
        page.evaluate(
            f'localStorage.setItem({json.dumps(BROWSER_STORAGE_KEY)}, \'{{"not": "a list\')'
        )
        _open(page, app, INDEX_NOTEBOOK, "ja")
        notice = page.locator(".tutor-progress-notice")
        expect(notice).to_contain_text(text("progress.problem-heading", "ja"), timeout=LOAD_TIMEOUT)
        expect(notice).to_contain_text(text("progress.browser-source", "ja"))
        assert "There was an error" not in page.locator("body").inner_text()
        notice.get_by_role("button", name=text("progress.start-afresh", "ja")).click()
        expect(notice).to_contain_text(text("progress.started-afresh-browser", "ja"))
        page.wait_for_function(
            f"localStorage.getItem({json.dumps(BROWSER_STORAGE_KEY)}) === '[]'",
            timeout=ACTION_TIMEOUT,
        )
        kept = page.evaluate(
            "Object.keys(localStorage).filter(k => k.includes('.broken-'))"
            ".map(k => localStorage.getItem(k))"
        )
        assert kept == ['{"not": "a list']  # put aside, not deleted
        expect(page.locator(".tutor-continue")).to_contain_text(text("course.start", "ja"))
        _clean(log)
    finally:
        context.close()


def test_an_answer_the_full_browser_storage_refuses_is_said_and_kept_for_later(
    app: AppServer, browser: Any
) -> None:
    expect = _expect()
    context, page, log = _new_page(browser)
    try:
        _open(page, app, f"{LESSON}.ipynb", "en")
        reach_question(page, 0, LOAD_TIMEOUT).locator("button.tutor-quiz-choice").first.wait_for(
            timeout=LOAD_TIMEOUT
        )
        # Fill this site's storage to its quota, as months of other use might.
        page.evaluate(
            """() => {
                let size = 1024 * 1024, count = 0;
                while (size >= 1) {  // ever smaller pieces, until not one more character fits
                    try { localStorage.setItem("filler-" + count++, "x".repeat(size)); }
                    catch (error) { size = Math.floor(size / 2); }
                }
                return count;
            }"""
        )
        _answer(page, 0)
        notice = page.locator(".tutor-progress-notice").first
        expect(notice).to_contain_text(
            text("progress.problem-browser-write"), timeout=ACTION_TIMEOUT
        )
        assert _stored(page) == []
        page.evaluate(
            "Object.keys(localStorage).filter(k => k.startsWith('filler-'))"
            ".forEach(k => localStorage.removeItem(k))"
        )
        _answer(page, 1)  # the refused answer goes with the next one
        _wait_stored(page, 2)
        expect(notice).to_be_hidden(timeout=ACTION_TIMEOUT)
        assert len({event["item"] for event in _stored(page)}) == 2
        _clean(log)
    finally:
        context.close()


# -- the file store (as on the hub) ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def file_app() -> Iterator[tuple[AppServer, Path]]:
    """The app keeping progress in a file (TUTOR_PROGRESS_STORE=file), as the hub does."""
    folder = Path(tempfile.mkdtemp(prefix="tutor-progress-"))
    progress = folder / "progress.jsonl"
    server = AppServer(
        env={"TUTOR_PROGRESS_STORE": "file", "TUTOR_PROGRESS_FILE": str(progress)}
    ).start()
    yield server, progress
    server.close()
    shutil.rmtree(folder, ignore_errors=True)


def test_a_bad_progress_file_is_the_tutors_own_message_on_the_page(
    file_app: tuple[AppServer, Path], browser: Any
) -> None:
    expect = _expect()
    server, progress = file_app
    progress.mkdir()  # a folder where the file should be
    context, page, log = _new_page(browser)
    try:
        _open(page, server, f"{LESSON}.ipynb", "zh-Hant")
        notice = page.locator(".tutor-progress-notice").first
        expect(notice).to_contain_text(text("progress.problem-heading", "zh-Hant"))
        expect(notice).to_contain_text(str(progress))
        body = page.locator("body").inner_text()
        assert not any(sign in body for sign in ERROR_SIGNS)
        notice.get_by_role("button", name=text("progress.start-afresh", "zh-Hant")).click()
        expect(notice).to_contain_text(re.compile(re.escape(str(progress)) + r"\.broken-"))
        _answer(page, 0)
        deadline = time.monotonic() + ACTION_TIMEOUT / 1000
        while time.monotonic() < deadline and not (progress.is_file() and progress.read_text()):
            time.sleep(0.1)
        (line,) = progress.read_text(encoding="utf-8").splitlines()
        assert json.loads(line)["lesson"] == LESSON
        _clean(log)
    finally:
        context.close()
