"""Fixtures of the app tests: a second app on a scratch folder (short kernel culling, a
failing notebook), and Chromium driven by Playwright, with every request and console
message of each page recorded. The app started as the README starts it (``app``) is in
tests/conftest.py, shared with the fuzz suite.

Without Chromium the browser tests skip with a message saying how to install it, except
in CI (env ``CI`` set), where a missing Chromium fails them: they must run there.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from .app_process import INSTALL_HINT, AppServer, chromium_path, launch_chromium, scratch_notebooks

CULL_IDLE_TIMEOUT = 20
"""Seconds a kernel without a page may idle before the scratch app reclaims it. Not less:
a kernel has no connection yet between the end of the notebook's run and the moment its
page's scripts connect, which takes seconds on a loaded machine."""
CULL_INTERVAL = 1

FAILING_NOTEBOOK = "failing.ipynb"
FAILING_SECRET = "secret-detail-7f3a"
"""Appears in the failing notebook's exception; a viewer must never see it."""

QUIZ_NOTEBOOK = "quiz_06.ipynb"
"""Lesson 06's quiz, for the quiz test while notebooks/06_*.ipynb does not exist yet."""

EXPECT_TIMEOUT = 30_000
"""ms an ``expect(...)`` without its own timeout waits. Playwright's 5 s is too short for
a click's round trip to a kernel on a loaded 2-core machine."""

# Console errors a page may show, each with the reason it is harmless. Keep this short.
EXPECTED_CONSOLE_ERRORS: dict[str, str] = {}


def _missing_browser(reason: str) -> None:
    message = f"{reason}: {INSTALL_HINT}"
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests, but {message}")
    pytest.skip(message)


def wait_until(
    condition: Callable[[], Any], timeout_ms: float, what: str | Callable[[], str]
) -> Any:
    """Poll ``condition`` until it returns something true (returned) or ``timeout_ms``
    passes (AssertionError naming ``what``, or what it returns then): for a state no single ``expect`` can
    describe, e.g. several widgets the kernel updates one message at a time."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            said = what() if callable(what) else what
            raise AssertionError(f"timed out after {timeout_ms / 1000:.0f} s waiting for {said}")
        time.sleep(0.1)


@pytest.fixture(scope="session", autouse=True)
def _patient_expect() -> None:
    """Every test's ``expect`` waits EXPECT_TIMEOUT unless told otherwise (set once for
    the session, so no test depends on another having set it)."""
    try:
        from playwright.sync_api import expect
    except ImportError:  # the browser fixture says how to install it
        return
    expect.set_options(timeout=EXPECT_TIMEOUT)


@pytest.fixture(scope="session")
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    """Debian's Chromium, launched once per session through Playwright."""
    if chromium_path() is None:
        _missing_browser("Chromium was not found")
    try:
        import playwright  # noqa: F401
    except ImportError:
        _missing_browser("the playwright Python package is missing (bash scripts/setup_env.sh)")
    chromium = launch_chromium(request.getfixturevalue("playwright_driver"))
    yield chromium
    chromium.close()


@pytest.fixture(scope="session")
def scratch_app() -> Iterator[AppServer]:
    """The same app on a scratch folder: the worked example, a failing notebook, lesson
    06's quiz; kernels without a page are reclaimed after CULL_IDLE_TIMEOUT seconds."""
    folder = scratch_notebooks(
        {
            FAILING_NOTEBOOK: (
                "def hidden_helper():\n"
                f"    raise RuntimeError('{FAILING_SECRET}')\n\n"
                "hidden_helper()"
            ),
            QUIZ_NOTEBOOK: (
                "from tutor.display import show_quiz\n"
                "from tutor.teaching.lesson_loader import load_lesson\n\n"
                'show_quiz(load_lesson("06"))'
            ),
        }
    )
    server = AppServer(
        notebooks=folder,
        env={
            "TUTOR_CULL_IDLE_TIMEOUT": str(CULL_IDLE_TIMEOUT),
            "TUTOR_CULL_INTERVAL": str(CULL_INTERVAL),
        },
    ).start()
    yield server
    server.close()
    shutil.rmtree(folder, ignore_errors=True)


@dataclass
class PageLog:
    """Every request a page made and every console error it showed."""

    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def outside_requests(self) -> list[str]:
        """Requests that left the machine (anything but 127.0.0.1, data: and blob:)."""
        return [
            url
            for url in self.requests
            if urlparse(url).scheme not in ("data", "blob")
            and urlparse(url).hostname != "127.0.0.1"
        ]

    def unexpected_errors(self) -> list[str]:
        return [
            error
            for error in self.errors
            if not any(known in error for known in EXPECTED_CONSOLE_ERRORS)
        ]

    def assert_clean(self) -> None:
        assert self.requests, "no request was recorded: the log is not attached"
        assert self.outside_requests() == []
        assert self.unexpected_errors() == []


@pytest.fixture
def page(browser: Any) -> Iterator[tuple[Any, PageLog]]:
    """A fresh browser page (its own context: no shared cookies) and its log."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    new_page = context.new_page()
    log = PageLog()
    new_page.on("request", lambda request: log.requests.append(request.url))
    new_page.on(
        "console",
        lambda message: log.errors.append(message.text) if message.type == "error" else None,
    )
    new_page.on("pageerror", lambda error: log.errors.append(f"page error: {error}"))
    yield new_page, log
    context.close()


def lesson_notebook(number: str) -> Path | None:
    """notebooks/<number>_*.ipynb, if the lesson's notebook exists yet."""
    found = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob(f"{number}_*.ipynb"))
    return found[0] if found else None
