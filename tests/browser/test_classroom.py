"""A class opening the tutor at once (tutor/app/admission.py, pages.py): every page ends
with its quiz working, or says the tutor is busy and tries again by itself; never a page
silently lacking its content. Closing a page gives its kernel back. The timings of a whole class
are measured by benchmarks/classroom_benchmark.py, not asserted here.

Also the page's own notices: a failing widget callback shows the tutor's short message
(the traceback stays in the server's log), and an unknown ``?lang=`` is English.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tutor.teaching.text import text

from .app_process import AppServer, scratch_notebooks
from .fixtures import QUESTION_PLACE

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LESSON = "06_trick_winner.ipynb"
CHOICE = ".tutor-quiz .tutor-quiz-choice"
DEADLINE = 240  # s: a page that shows neither its quiz nor a message by then failed silently

STATE = f"""
() => {{
  const notice = document.querySelector(".tutor-page-notice");
  if (notice) {{ return "notice:" + (notice.dataset.notice || ""); }}
  if (document.querySelector("main.tutor-busy")) {{ return "busy"; }}
  const choice = document.querySelector("{CHOICE}");
  if (choice && choice.offsetParent !== null && !choice.disabled) {{ return "quiz"; }}
  // a question is built when the learner reaches it: scroll to the first, as they do
  const place = document.querySelector("{QUESTION_PLACE}");
  if (place) {{ place.scrollIntoView(); }}
  return "loading";
}}
"""


def _state(page: Any) -> str:
    try:
        return str(page.evaluate(STATE))
    except Exception:  # navigating (a reload): not yet known
        return "loading"


def _open_at_once(browser: Any, url: str, count: int) -> list[Any]:
    """``count`` learners, each in their own browser context, asking for ``url`` at the
    same moment (the navigations start together; none waits for another)."""
    pages = [browser.new_context().new_page() for _ in range(count)]
    for page in pages:
        page.evaluate("(url) => { window.location.href = url; }", url)
    return pages


def _follow(
    pages: list[Any],
    seconds: float,
    enough: Callable[[dict[int, list[str]]], bool] | None = None,
) -> dict[int, list[str]]:
    """Every state each page went through until all show a working quiz, or ``enough``
    says so of the states so far, or the time is up; a working quiz is answered once to
    check it responds."""
    history: dict[int, list[str]] = {index: [] for index in range(len(pages))}
    answered: set[int] = set()
    deadline = time.monotonic() + seconds
    while (
        len(answered) < len(pages)
        and not (enough and enough(history))
        and time.monotonic() < deadline
    ):
        for index, page in enumerate(pages):
            if index in answered:
                continue
            state = _state(page)
            if not history[index] or history[index][-1] != state:
                history[index].append(state)
            if state == "quiz":
                page.locator(CHOICE).first.click()
                page.wait_for_function(
                    "() => [...document.querySelectorAll('.tutor-quiz-feedback')]"
                    ".some((node) => node.textContent.trim())",
                    timeout=60_000,
                )
                history[index].append("answered")
                answered.add(index)
        time.sleep(0.5)
    return history


def _close(pages: list[Any]) -> None:
    for page in pages:
        context = page.context
        page.close(run_before_unload=True)  # as a learner closes the tab
        context.close()


def _wait_for(condition: Any, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.25)
    return bool(condition())


def _count_loads(pages: list[Any]) -> list[int]:
    """How many times each page has loaded from now on (a busy page's retry is a reload)."""
    loads = [0] * len(pages)

    def count(index: int) -> None:
        loads[index] += 1

    for index, page in enumerate(pages):
        page.on("load", lambda _page, index=index: count(index))
    return loads


@pytest.fixture(scope="module")
def small_app() -> Iterator[AppServer]:
    """The app holding at most 3 kernels (pages), two starting at a time."""
    server = AppServer(args=["--max-kernels", "3"]).start()
    yield server
    server.close()


def test_a_class_at_once_gets_working_quizzes_or_a_busy_page_that_retries_by_itself(
    small_app: AppServer, browser: Any
) -> None:
    before = set(small_app.kernel_pids())
    pages = _open_at_once(browser, small_app.render_url(LESSON), 6)
    loads = _count_loads(pages)

    def three_in_and_the_rest_retried(history: dict[int, list[str]]) -> bool:
        working = [index for index, states in history.items() if "answered" in states]
        return len(working) == 3 and all(
            "busy" in states and loads[index] >= 2
            for index, states in history.items()
            if index not in working
        )

    # Three pages fit; the others are told the tutor is full and keep trying: followed
    # until three work and each other one was told so and has tried again by itself.
    first = _follow(pages, DEADLINE / 2, enough=three_in_and_the_rest_retried)
    working = [index for index, states in first.items() if "answered" in states]
    waiting = [index for index in first if index not in working]
    assert len(working) == 3, first
    for index in waiting:
        # never a page silently lacking content: told it is busy, then (retrying by itself)
        # busy again or waiting in the queue for its page
        assert "busy" in first[index] and first[index][-1] in ("busy", "loading"), first
    headings = [pages[index].locator("main.tutor-busy h1") for index in waiting]
    assert _wait_for(lambda: any(heading.count() for heading in headings), 60)
    shown = next(heading for heading in headings if heading.count())
    assert shown.inner_text() == text("busy.title", "en")
    assert len(set(small_app.kernel_pids()) - before) == 3
    # The first learners leave: their kernels come back, and the waiting pages get in
    # without anyone pressing anything.
    _close([pages[index] for index in working])
    rest = [pages[index] for index in waiting]
    second = _follow(rest, DEADLINE)
    assert all("answered" in states for states in second.values()), second
    _close(rest)
    assert _wait_for(lambda: set(small_app.kernel_pids()) <= before, 15), "kernels were left"
    assert "Traceback" not in small_app.log()


def test_the_busy_page_says_why_in_the_learners_language_and_when_to_retry(
    small_app: AppServer, browser: Any
) -> None:
    holders = _open_at_once(browser, small_app.render_url(LESSON), 3)
    assert all("answered" in states for states in _follow(holders, DEADLINE).values())
    status, body, headers = small_app.get(f"/voila/render/{LESSON}?lang=ja")
    assert status == 503
    assert int(headers["Retry-After"]) > 0
    assert text("busy.title", "ja") in body and text("busy.full", "ja", count=3) in body
    assert '<html lang="ja">' in body
    _close(holders)


def test_a_class_of_eight_at_once_all_get_a_working_quiz_and_leave_no_kernel(
    app: AppServer, browser: Any
) -> None:
    before = set(app.kernel_pids())
    pages = _open_at_once(browser, app.render_url(LESSON), 8)
    history = _follow(pages, DEADLINE)
    assert all("answered" in states for states in history.values()), history
    _close(pages)
    assert _wait_for(lambda: set(app.kernel_pids()) <= before, 15), "kernels were left"


@pytest.fixture(scope="module")
def failing_app() -> Iterator[AppServer]:
    """A notebook whose button's callback fails, with a secret in its traceback."""
    folder = scratch_notebooks(
        {
            "callback.ipynb": (
                "import ipywidgets as widgets\n\n"
                "def hidden_helper(_button):\n"
                "    raise RuntimeError('callback-secret-91c2')\n\n"
                "button = widgets.Button(description='Press')\n"
                "button.add_class('failing-button')\n"
                "button.on_click(hidden_helper)\n"
                "number = widgets.IntText(value=1)\n"
                "number.add_class('number-box')\n"
                "display(button, number)"
            )
        }
    )
    server = AppServer(notebooks=folder).start()
    yield server
    server.close()
    shutil.rmtree(folder, ignore_errors=True)


def test_a_failing_callback_shows_the_tutors_message_and_keeps_the_traceback(
    failing_app: AppServer, browser: Any
) -> None:
    context = browser.new_context()
    page = context.new_page()
    frames: list[str] = []
    page.on(
        "websocket",
        lambda socket: socket.on(
            "framereceived",
            lambda frame: frames.append(
                frame if isinstance(frame, str) else frame.decode("utf-8", "replace")
            ),
        ),
    )
    page.goto(failing_app.render_url("callback.ipynb", "lang=zh-Hant"))
    page.locator("button.failing-button").click(timeout=90_000)
    notice = page.locator(".tutor-page-notice")
    notice.wait_for(timeout=20_000)
    assert notice.inner_text().strip().startswith(text("page-notice.error", "zh-Hant"))
    # A malformed value for a widget, as a tampered browser could send it.
    page.evaluate(
        """async () => {
            const manager = window.jupyterapp.widgetManager;
            const models = await Promise.all(Object.values(manager._models));
            const box = models.find((model) => model.get("_view_name") === "IntTextView");
            box.set("value", "not a number");
            box.save_changes();
        }"""
    )
    _wait_for(lambda: "not a number" in failing_app.log(), 20)
    time.sleep(1)
    sent = "\n".join(frames)
    assert frames and "TutorError" in sent
    for secret in ("callback-secret-91c2", "Traceback", "hidden_helper", "site-packages"):
        assert secret not in sent, secret
    # The server's log keeps the whole story.
    log = failing_app.log()
    assert "callback-secret-91c2" in log and "hidden_helper" in log and "not a number" in log
    context.close()


@pytest.mark.parametrize("lang", ["constructor", "__proto__", "toString"])
def test_a_language_named_like_an_object_member_is_english(
    app: AppServer, browser: Any, lang: str
) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(app.render_url("08_worked_example.ipynb", f"lang={lang}&present=1"))
    page.locator(".tutor-present-next").wait_for(timeout=90_000)
    assert page.evaluate("document.documentElement.lang") in ("en", "")
    assert page.locator(".tutor-present-next").inner_text() == text("present.next", "en")
    page.goto(app.render_url("index.ipynb", f"lang={lang}"))
    page.locator("h1").first.wait_for(timeout=90_000)
    assert page.locator("h1").first.inner_text() == text("course.title", "en")
    context.close()


def test_a_page_whose_outputs_never_arrive_says_so_and_reloads_by_itself(
    app: AppServer, browser: Any
) -> None:
    """Voila's front end (voila.js) shows the cells and draws their outputs after the
    server sent the page; when it never does (a script that did not arrive, a browser
    too busy), the page kept Voila's spinner, or showed cells without their outputs,
    silently and forever. It must say so and try again."""
    context = browser.new_context()
    page = context.new_page()
    page.route("**/voila/static/voila.js", lambda route: route.abort())
    # The page's wait (60 s for learners) shortened by its ?load_wait= (README "The page's
    # wait"); the reloaded page keeps it, so it has 10 s without a notice to be seen in.
    page.goto(app.render_url(LESSON, "load_wait=10"))
    notice = page.locator(".tutor-page-notice[data-notice='incomplete']")
    notice.wait_for(timeout=DEADLINE * 1000)
    assert notice.inner_text().startswith(text("page-notice.incomplete", "en"))
    # ...and reloads by itself, counting its tries (at most three, then it asks).
    page.wait_for_function(
        "() => sessionStorage.getItem('wizard-tutor/reloads:' + location.pathname) === '1'"
        " && !document.querySelector('.tutor-page-notice')",
        timeout=60_000,
    )
    context.close()
