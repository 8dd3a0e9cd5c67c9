"""A widget the page could not start in time, or could not draw, never shows a widget
manager's error to a learner, in the app (Voila) and on the static site (Voici): both pages
carry static/tutor-widgets.js (tutor/app/jupyter/nbconvert/templates/tutor/).

Each trouble is provoked on purpose by a notebook of this test (never a learner's page):

- a model that takes longer to start than anywidget's 2 s (a class opening pages at once on
  slow machines), whose kernel answers it while it starts: without the recovery anywidget
  drops the answer ("[anywidget] Failed to initialize model."), and the widget never hears;
- an output naming a widget model the page does not have (the app: "Error displaying
  widget: model not found"; the site: "Loading widget..." for ever): the page says in its
  language that this part did not load, and how to see it.
"""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tutor.site.build_inputs import browser_wheels, runtime_dir
from tutor.site.build_pages import render_pages
from tutor.teaching.text import text

from .app_process import AppServer, scratch_notebooks
from .fixtures import StaticSite

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LOAD_TIMEOUT = 240_000  # ms: the site starts Python in the browser, on a loaded machine
# The site says a widget did not load after the page's wait: 60 s for learners; the page's
# ?load_wait= (README "The page's wait") shortens it there. Not in the app, which says so
# at once, and whose page watch would reload the page after that wait.
LOAD_WAIT = "load_wait=5"

SLOW_START = "slow_start.ipynb"
NO_MODEL = "no_model.ipynb"

SLOW_START_CODE = '''
import anywidget
import traitlets

class SlowStart(anywidget.AnyWidget):
    """Asks its kernel a question, then takes 3 s to start (anywidget allows 2)."""

    _esm = """
    function initialize({ model }) {
      model.send({ op: "hello" });
      return new Promise((resolve) => setTimeout(resolve, 3000));
    }
    function render({ model, el }) {
      const show = () => { el.className = "slow-start"; el.textContent = model.get("heard"); };
      model.on("change:heard", show);
      show();
    }
    export default { initialize, render };
    """
    heard = traitlets.Unicode("not yet").tag(sync=True)

    def __init__(self) -> None:
        super().__init__()
        self.on_msg(lambda widget, content, buffers: setattr(self, "heard", "the kernel answered"))

SlowStart()
'''

NO_MODEL_CODE = """
from IPython.display import display

# What a page shows when an output names a widget model the page has not got.
display(
    {"application/vnd.jupyter.widget-view+json":
        {"model_id": "0123456789abcdef", "version_major": 2, "version_minor": 0},
     "text/plain": "a widget"},
    raw=True,
)
"""

ANYWIDGET_FAILED = "[anywidget] Failed to initialize model"
WIDGET_ERROR = "Error displaying widget"


def _overlay_handler(
    site: Path, pages: dict[str, Path]
) -> type[http.server.BaseHTTPRequestHandler]:
    """Serves ``site`` (not changed: other tests share it), with ``pages`` (URL path ->
    file) beside its own."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(site), **kwargs)

        def translate_path(self, path: str) -> str:
            extra = pages.get(path.split("?", 1)[0])
            return str(extra) if extra else super().translate_path(path)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@pytest.fixture(scope="module")
def notebooks() -> Path:
    return scratch_notebooks({SLOW_START: SLOW_START_CODE, NO_MODEL: NO_MODEL_CODE})


@pytest.fixture(scope="module", params=["app", "site"])
def page_url(
    request: pytest.FixtureRequest, notebooks: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Any]:
    """``page_url(notebook, query)`` of each host serving the test's notebooks. On the
    site: the session's built site (the ``site`` fixture, built once per run) with the
    test's two pages rendered beside its own, rather than a second whole build."""
    if request.param == "app":
        app = AppServer(notebooks=notebooks).start()
        try:
            yield app.render_url
        finally:
            app.close()
        return
    site: StaticSite = request.getfixturevalue("site")
    out = tmp_path_factory.mktemp("recovery-pages") / "pages"
    # the build's own render step, with the site's template and page config
    render_pages(
        [notebooks / SLOW_START, notebooks / NO_MODEL],
        out,
        browser_wheels(runtime_dir() / "wheels"),
    )
    pages = {}
    for notebook in (SLOW_START, NO_MODEL):
        page = out / "voici" / "render" / notebook.replace(".ipynb", ".html")
        pages[f"/voici/render/{page.name}"] = page
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _overlay_handler(site.folder, pages))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/voici/render"
    try:
        yield lambda notebook, query="": f"{base}/{notebook.replace('.ipynb', '.html')}?{query}"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def _opened(browser: Any, url: str) -> Iterator[tuple[Any, list[str]]]:
    """A page of a context of its own that went to ``url``, and its console's messages."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        messages: list[str] = []
        page.on("console", lambda message: messages.append(message.text))
        page.on("pageerror", lambda error: messages.append(str(error)))
        page.goto(url)
        yield page, messages
    finally:
        context.close()


def test_a_model_slower_to_start_than_anywidget_allows_still_hears_its_kernel(
    browser: Any, page_url: Any
) -> None:
    with _opened(browser, page_url(SLOW_START, "lang=en")) as (page, console):
        page.locator(".slow-start").wait_for(timeout=LOAD_TIMEOUT)
        page.wait_for_function(
            "() => document.querySelector('.slow-start').textContent === 'the kernel answered'",
            timeout=60_000,
        )
        assert [m for m in console if ANYWIDGET_FAILED in m] == []
        assert WIDGET_ERROR not in page.locator("body").inner_text()


@pytest.mark.parametrize("lang", ["ja", "zh-Hant"])
def test_a_widget_whose_model_is_missing_says_what_to_do_in_the_page_s_language(
    browser: Any, page_url: Any, lang: str, request: pytest.FixtureRequest
) -> None:
    on_site = request.node.callspec.params["page_url"] == "site"
    query = f"lang={lang}" + (f"&{LOAD_WAIT}" if on_site else "")
    with _opened(browser, page_url(NO_MODEL, query)) as (page, console):
        failed = page.locator(".tutor-widget-failed")
        failed.wait_for(timeout=LOAD_TIMEOUT)
        assert page.evaluate("window.wizardTutor.settings.loadWait") == (
            5000 if on_site else 60_000
        )
        shown = failed.inner_text()
        assert shown.startswith(text("page-notice.widget-failed", lang)), shown
        assert WIDGET_ERROR not in page.locator("body").inner_text()
        button = failed.get_by_role("button", name=text("page-notice.reload", lang))
        assert button.is_visible()
        assert any("a widget was not drawn" in m for m in console)  # for whoever debugs
        with page.expect_navigation(timeout=LOAD_TIMEOUT):
            button.click()


def test_a_load_wait_that_is_not_seconds_is_named_in_the_console_and_left_at_its_default(
    browser: Any, page_url: Any
) -> None:
    with _opened(browser, page_url(NO_MODEL, "lang=en&load_wait=soon")) as (page, console):
        page.wait_for_function("() => window.wizardTutor !== undefined", timeout=LOAD_TIMEOUT)
        warned = [m for m in console if m.startswith("[tutor] load_wait")]
        assert warned == [
            '[tutor] load_wait="soon" ignored: give seconds from 1 to 600; waiting 60 s'
        ], console
        assert page.evaluate("window.wizardTutor.settings.loadWait") == 60_000
