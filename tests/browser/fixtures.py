"""The browser fixtures every browser test shares, registered for the whole test tree by
tests/conftest.py (``pytest_plugins``), so that one pytest run starts ONE Chromium, ONE app
and builds ONE static site for tests/browser and tests/scenarios alike: the CI budget is
the sum of what each starts.

- ``browser``: Debian's Chromium through Playwright (session), the only one: the hub's
  tests use it too;
- ``app``: the app as the README starts it (``bash scripts/app.sh``), serving notebooks/
  (session);
- ``site``: the course built by ``wizard-tutor build-site`` and served by a plain static
  file server on 127.0.0.1 (session);
- ``room_app``: the app in classroom mode with its live room (docs/live-room.md), the
  room's answers in a temporary SQLite file (session);
- ``page``: a fresh page in a browser context of its own, and its :class:`PageLog`
  (tests/browser's; tests/scenarios has its own ``page``);
- :func:`wait_until`, for a state no single ``expect`` can describe;
- :func:`reach_question` and :func:`reach_every_question`: a lesson's questions, scrolled
  to as a learner does (each is built when it is reached).

Without Chromium the browser tests skip with a message saying how to install it, except
in CI (env ``CI`` set), where a missing Chromium fails them: they must run there.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import psutil
import pytest

from .app_process import INSTALL_HINT, AppServer, chromium_path, launch_chromium_profile

VIEWPORT = {"width": 1280, "height": 900}
"""A laptop's window: the pages' size unless a test chooses another."""

EXPECT_TIMEOUT = 30_000
"""ms an ``expect(...)`` without its own timeout waits. Playwright's 5 s is too short for
a click's round trip to a kernel on a loaded 2-core machine."""

# Console errors a page of the app may show, each with the reason it is harmless. Keep
# this short.
EXPECTED_CONSOLE_ERRORS: dict[str, str] = {}

# Console errors a page of the static site shows, each with why it is harmless (matched
# as the whole message). Keep this short.
SITE_CONSOLE_ERRORS = {
    # Voici 0.9 logs the rejection of JupyterLite's service-worker promise with
    # console.error(reason), and the site's page script makes registering fail on purpose
    # (tutor/site/page.js: the pages run without a service worker on every origin).
    "undefined": "no service worker, on purpose",
}


def _missing_browser(reason: str) -> None:
    message = f"{reason}: {INSTALL_HINT}"
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests, but {message}")
    pytest.skip(message)


def wait_until(
    condition: Callable[[], Any],
    timeout_ms: float,
    what: str | Callable[[], str],
    *,
    every: float = 0.1,
) -> Any:
    """Poll ``condition`` every ``every`` seconds until it returns something true
    (returned) or ``timeout_ms`` passes (AssertionError naming ``what``, or what it returns
    then): for a state no single ``expect`` can describe, e.g. several widgets the kernel
    updates one message at a time, or a page reloaded until it shows a report."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            said = what() if callable(what) else what
            raise AssertionError(f"timed out after {timeout_ms / 1000:.0f} s waiting for {said}")
        time.sleep(every)


QUESTION_PLACE = ".tutor-quiz-place"
"""A lesson question's place on the page (tutor.display.lesson_quiz.PLACE_CLASS): its
stand-in until the learner reaches it, then its quiz."""


def reach_question(content: Any, index: int = 0, timeout_ms: float = EXPECT_TIMEOUT) -> Any:
    """The quiz of question ``index`` (from 0) of the lesson page ``content`` (a Page or a
    Locator), after scrolling to its place as a learner does: a question is built when the
    learner reaches it, not when the page opens."""
    place = content.locator(QUESTION_PLACE).nth(index)
    place.scroll_into_view_if_needed(timeout=timeout_ms)
    return place.locator(".tutor-quiz")


def reach_every_question(content: Any, timeout_ms: float = EXPECT_TIMEOUT) -> None:
    """Scroll to each question of the lesson page ``content`` in turn, as a learner
    reading it to its end does, until every one is built."""
    places = content.locator(QUESTION_PLACE)
    places.first.wait_for(timeout=timeout_ms)
    for index in range(places.count()):
        reach_question(content, index, timeout_ms).locator("button").first.wait_for(
            timeout=timeout_ms
        )


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
def browser_profile(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Any]:
    """Debian's Chromium, launched once per session through Playwright: the one browser
    of every test that drives one (tests/browser, tests/scenarios, tests/hub, tests/fuzz).
    This is its own browser context, on a profile folder of the run's: Chromium keeps its
    HTTP cache and compiled code there between pages (Pyodide's WebAssembly, Lab's
    JavaScript), as a learner's browser does; the scenarios' ``page`` opens in it.
    Closing it must leave none of its processes running."""
    if chromium_path() is None:
        _missing_browser("Chromium was not found")
    try:
        import playwright  # noqa: F401
    except ImportError:
        _missing_browser("the playwright Python package is missing (bash scripts/setup_env.sh)")
    driver = request.getfixturevalue("playwright_driver")  # started before the count below
    already_running = {proc.pid for proc in psutil.Process().children(recursive=True)}
    profile = launch_chromium_profile(driver, tmp_path_factory.mktemp("chromium"), VIEWPORT)
    started = [
        proc
        for proc in psutil.Process().children(recursive=True)
        if proc.pid not in already_running
    ]
    yield profile
    profile.close()
    _gone, alive = psutil.wait_procs(started, timeout=10)
    assert alive == [], f"browser processes left running: {alive}"


@pytest.fixture(scope="session")
def browser(browser_profile: Any) -> Any:
    """The run's Chromium as a Playwright Browser: ``browser.new_context()`` is a context
    of the test's own (no cookies, no storage, no cache)."""
    return browser_profile.browser


@pytest.fixture(scope="session")
def app() -> Iterator[AppServer]:
    """The app as the README starts it (bash scripts/app.sh), serving notebooks/: one for
    the whole session, shared by tests/browser, tests/scenarios and tests/fuzz."""
    server = AppServer().start()
    yield server
    server.close()


@dataclass
class RoomApp:
    """The app started with ``--classroom``, and its live room as the app's log gives it."""

    server: AppServer
    code: str
    """The room's code (4 letters), as printed."""
    teacher_start: str
    """The teacher's start address (sets the room's teacher cookie), as printed."""
    teacher_lesson: Path
    """A teacher's own lesson the app serves (``--lessons``), as ``new-lesson`` writes it."""

    def learner_url(self, lang: str) -> str:
        """The join address, on this machine (the printed one names the room's network)."""
        return self.server.url(f"/room/{self.code}?lang={lang}")


@pytest.fixture(scope="session")
def room_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RoomApp]:
    """The app in classroom mode, its live room's answers kept in a file of this run, with
    a teacher's own lesson beside the course's: one for the whole session (a classroom app
    starts slowly, and each has a room of its own)."""
    from tutor.cli import main

    folder = tmp_path_factory.mktemp("live-room")
    database = folder / "room.sqlite3"
    lesson = folder / "lessons" / "12_room_check.toml"
    lesson.parent.mkdir()
    assert main(["new-lesson", str(lesson)]) == 0
    server = AppServer(
        classroom=True,
        env={"TUTOR_ROOM_DB": str(database)},
        args=["--lessons", str(lesson.parent)],
    ).start()
    try:
        log = server.log()  # the room's addresses come before "Voila is running at"
        code = re.search(r"The live room ([A-Z]{4})", log)
        start = re.search(r"(http://127\.0\.0\.1:\d+/room/teacher\?key=\S+)", log)
        assert code and start, f"no live room in the app's log:\n{log}"
        yield RoomApp(server, code.group(1), start.group(1), lesson)
    finally:
        server.close()


# -- the static site -------------------------------------------------------------------------


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@dataclass
class StaticSite:
    """The built course (``folder``) as a web server serves it at ``base``."""

    folder: Path
    base: str

    def page_url(self, notebook: str, query: str = "lang=en") -> str:
        return f"{self.base}/voici/render/{notebook.replace('.ipynb', '.html')}?{query}"


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StaticSite]:
    """The site, built once per run by the command the README gives, served by
    http.server (no kernel, no tutor code on the server)."""
    from tutor.cli import main

    folder = tmp_path_factory.mktemp("static-site") / "course"
    assert main(["build-site", str(folder)]) == 0
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield StaticSite(folder, f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
        server.server_close()


# -- a page and its log ------------------------------------------------------------------------


@dataclass
class PageLog:
    """Every request a page made and every console error and warning it showed.
    ``expected`` maps console errors known to be harmless (a part of the message) to why,
    ``expected_whole`` those matched as the whole message."""

    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    expected: dict[str, str] = field(default_factory=lambda: dict(EXPECTED_CONSOLE_ERRORS))
    expected_whole: dict[str, str] = field(default_factory=dict)
    _listening: list[tuple[str, Callable[[Any], None]]] = field(default_factory=list, repr=False)

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
            if error.strip() not in self.expected_whole
            and not any(known in error for known in self.expected)
        ]

    def assert_clean(self) -> None:
        assert self.requests, "no request was recorded: the log is not attached"
        assert self.outside_requests() == []
        assert self.unexpected_errors() == []

    def attach(self, target: Any) -> None:
        """Record the requests and console errors of ``target`` (a page or a context)
        until :meth:`detach`."""
        self._listening = [
            ("request", lambda request: self.requests.append(request.url)),
            ("console", self._console),
            (
                ("weberror", lambda error: self.errors.append(f"page error: {error.error}"))
                if hasattr(target, "pages")  # a context
                else ("pageerror", lambda error: self.errors.append(f"page error: {error}"))
            ),
        ]
        for event, listener in self._listening:
            target.on(event, listener)

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(message.text)
        elif message.type == "warning":
            self.warnings.append(message.text)

    def detach(self, target: Any) -> None:
        """Stop recording ``target`` (a context that outlives the test: the run's profile)."""
        for event, listener in self._listening:
            target.remove_listener(event, listener)
        self._listening = []

    def origins(self) -> set[str]:
        """The web origins the page requested (``http://127.0.0.1:PORT``)."""
        return {
            f"{url.scheme}://{url.netloc}"
            for url in map(urlparse, self.requests)
            if url.scheme in ("http", "https")
        }


@pytest.fixture
def page(browser: Any) -> Iterator[tuple[Any, PageLog]]:
    """A fresh browser page (its own context: no shared cookies) and its log."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    new_page = context.new_page()
    log = PageLog()
    log.attach(new_page)
    yield new_page, log
    context.close()
