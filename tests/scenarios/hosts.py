"""The places a learner meets the course, behind one interface, so that a scenario is
written once and runs in each: the app (Voilà), the static site (Pyodide in the browser)
and JupyterLab (a learner's copy). A behaviour that differs between them is a failing
scenario: never special-case a host to make one pass.

The harness (tests/scenarios/conftest.py)
-----------------------------------------
Fixtures, for every scenario:

``host`` (session, parametrized ``app``, ``site``, ``lab``; ``-k app`` selects one)
    A :class:`Host`. Its server is started once per run and shared with tests/browser
    (one app, one built site; Lab is started for the scenarios only, once per language).
``presenter_host`` (session, parametrized ``app``, ``site``)
    The hosts with presenter mode (:attr:`Host.supports_present`), for presenter
    scenarios: Lab has none by design, so they are not asked of it.
``page``
    A fresh Playwright page in a browser context of its own (its own localStorage and
    cookies), 1280x900, for a new learner: the host's progress starts empty (Lab's
    progress file removed, its copies of the notebooks the course's again). Every request
    and console error is recorded in ``page_log`` (a :class:`PageLog`); after the test,
    a request that left 127.0.0.1 or an unexpected console error fails it.

:class:`Host`:

``host.name``: ``"app"``, ``"site"`` or ``"lab"``.
``host.open(page, notebook, *, lang="en", present=False)``
    Open ``notebook`` (``"06_trick_winner.ipynb"``) as a learner does in this host (in
    Lab: open it, then Run ▸ Run All Cells), and return once its page is drawn: every
    page of the course shows the progress notice with its first widget, so the page's
    widgets are there (in Lab, also the kernel idle after the run). A click made then is
    handled once the kernel is free: wait for what it shows, never for a time.
``host.reload(page)``
    What a learner does to come back to the page: reload it (in Lab: reload, Run All),
    and return once it is drawn again.
``with host.reload_when_shown(page, selector): ...``
    Reload the page from within the moment ``selector`` appears in it (as a learner who
    reloads as soon as an answer's feedback shows), while the block does what shows it;
    return once the page is drawn again (in Lab: Run All again).
``host.supports_present``: whether ``present=True`` exists (not in Lab).
``host.course_part``
    A CSS selector of what the course draws in the window, or ``None`` for all of it (in
    Lab: the notebook's outputs, not JupyterLab's own menus, panels and cell editors).
``host.narrow(page, size)``
    Show the drawn page in a window of ``size`` (``{"width": 390, "height": 844}``): the
    text flows again at that width (in Lab, its file browser closed first).
``host.content(page)``
    A Locator of the notebook's drawn page (Voilà's ``#rendered_cells``, Lab's notebook):
    read what the learner sees there, never the whole window (Lab has its menus).
``host.keep_events(page, events)``
    Add ``events`` (JSON objects of docs/progress.md) to this learner's store, as pages of
    earlier days wrote them (answers dated in the past), once a page of the host is open
    (the browser's store is its origin's); the pages opened next read them.

Timeouts: :data:`LOAD_TIMEOUT` for a page to be drawn, :data:`ACTION_TIMEOUT` for a
click's round trip to the kernel.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

from browser.app_process import AppServer
from browser.fixtures import SITE_CONSOLE_ERRORS, PageLog, StaticSite, wait_until
from browser.lab_process import LabServer

from tutor.teaching.progress_stores import BROWSER_STORAGE_KEY

LOAD_TIMEOUT = 240_000
"""ms a page may take to be drawn: the static site starts Python in the browser, Lab
starts a kernel and runs the notebook; on a loaded 2-core machine. Also the navigation's
own limit (Playwright's default is 30 s): the app's page loads while its kernel runs the
notebook, which took longer than 30 s at load 66."""
ACTION_TIMEOUT = 60_000
"""ms a click's round trip to the kernel may take on a loaded machine."""

READY = ".tutor-progress-notice"
"""Every page of the course ends its first widget output with the progress notice (hidden
unless there is something to say): once it is in the page, the page's widgets are."""

HOST_NAMES = ("app", "site", "lab")
PRESENTER_HOSTS = ("app", "site")


class Host:
    """One place the course runs; see the module's docstring."""

    name = ""
    supports_present = True
    course_part: str | None = None
    """A CSS selector of what the course draws in the host's window, where that is not the
    whole window (tests/scenarios/test_accessibility.py checks it)."""

    def open(self, page: Any, notebook: str, *, lang: str = "en", present: bool = False) -> None:
        raise NotImplementedError

    def content(self, page: Any) -> Any:
        return page.locator("#rendered_cells")

    def reload(self, page: Any) -> None:
        page.reload(timeout=LOAD_TIMEOUT)
        self.drawn_again(page)

    def drawn_again(self, page: Any) -> None:
        """Return once the page, reloaded, is drawn again."""
        _wait_drawn(page, self)

    @contextlib.contextmanager
    def reload_when_shown(self, page: Any, selector: str) -> Iterator[None]:
        """See the module's docstring."""
        page.evaluate(_RELOAD_WHEN_SHOWN, selector)
        with page.expect_navigation(wait_until="commit", timeout=ACTION_TIMEOUT):
            yield
        self.drawn_again(page)

    def narrow(self, page: Any, size: dict[str, int]) -> None:
        """Show the drawn page in a window of ``size`` (a phone's width): the text flows
        again at that width. Lab first closes its file browser, as a learner with a narrow
        window does (it would take the width)."""
        page.set_viewport_size(size)
        # the text has flowed again once two frames were drawn at the new size
        page.evaluate(
            "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
        )

    def saved_events(self, page: Any) -> int:
        """How many progress events this learner's store holds now (the browser's
        localStorage here): what a reload finds."""
        stored = page.evaluate(f"localStorage.getItem({json.dumps(BROWSER_STORAGE_KEY)})")
        return len(json.loads(stored)) if stored else 0

    def keep_events(self, page: Any, events: list[dict[str, Any]]) -> None:
        """See the module's docstring: here, the browser's localStorage."""
        key = json.dumps(BROWSER_STORAGE_KEY)
        page.evaluate(
            f"""(events) => {{
                const kept = JSON.parse(localStorage.getItem({key}) || "[]");
                localStorage.setItem({key}, JSON.stringify(kept.concat(events)));
            }}""",
            events,
        )

    def new_learner(self, log: PageLog) -> None:
        """Called for each new ``page``: the host forgets the last learner; ``log`` learns
        the console errors known to be harmless here."""

    def end_learner(self) -> None:
        """Called when the page is closed."""

    def close(self) -> None:
        """Stop what this host started itself."""

    def __repr__(self) -> str:
        return f"<host {self.name}>"


_RELOAD_WHEN_SHOWN = """(selector) => {
    // The reload starts in the same turn as the change that shows `selector`, as early as
    // a learner's can: whatever the page has not handled by then races the reload.
    const observer = new MutationObserver(() => {
        if (document.querySelector(selector)) {
            observer.disconnect();
            window.location.reload();
        }
    });
    observer.observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def _query(lang: str, present: bool) -> str:
    return f"lang={lang}" + ("&present=1" if present else "")


def _wait_drawn(page: Any, host: Host) -> None:
    host.content(page).locator(READY).first.wait_for(state="attached", timeout=LOAD_TIMEOUT)


class AppHost(Host):
    """The Voilà app (one per run, the ``app`` fixture's)."""

    name = "app"

    def __init__(self, app: AppServer) -> None:
        self.app = app

    def open(self, page: Any, notebook: str, *, lang: str = "en", present: bool = False) -> None:
        page.goto(self.app.render_url(notebook, _query(lang, present)), timeout=LOAD_TIMEOUT)
        _wait_drawn(page, self)


class SiteHost(Host):
    """The static site (built once per run, the ``site`` fixture's)."""

    name = "site"

    def __init__(self, site: StaticSite) -> None:
        self.site = site

    def new_learner(self, log: PageLog) -> None:
        log.expected_whole.update(SITE_CONSOLE_ERRORS)

    def open(self, page: Any, notebook: str, *, lang: str = "en", present: bool = False) -> None:
        page.goto(self.site.page_url(notebook, _query(lang, present)), timeout=LOAD_TIMEOUT)
        _wait_drawn(page, self)


# -- JupyterLab ------------------------------------------------------------------------------


_WATCH_RUN = """() => {
    // The run has started once a cell shows [*]: then its old outputs (the hint to run it,
    // or what an earlier run saved) are marked, so that only the new page counts as drawn.
    window.scenarioRun = 'waiting';
    const running = () => [...document.querySelectorAll('.jp-InputPrompt')]
        .some(prompt => prompt.textContent.includes('*'));
    const observer = new MutationObserver(() => {
        if (window.scenarioRun === 'waiting' && running()) {
            window.scenarioRun = 'started';
            document.querySelectorAll('.jp-OutputArea-output')
                .forEach(output => { output.dataset.scenarioOld = '1'; });
            observer.disconnect();
        }
    });
    observer.observe(document.body, {subtree: true, childList: true, characterData: true});
}"""
_RUN_STARTED = "() => window.scenarioRun === 'started'"
_NEW_PAGE_DRAWN = """(ready) => [...document.querySelectorAll(ready)]
    .some(el => !el.closest('[data-scenario-old]'))"""
RUN_ALL_RETRY = 15_000
"""ms to see Run All start before choosing it again: while Lab is still starting, the menu
item can be there but not yet act on the notebook."""


class LabHost(Host):
    """JupyterLab as ``wizard-tutor lab`` starts it: one server per language used (the
    language of Lab is chosen when it starts, ``--lang``), started on first use."""

    name = "lab"
    supports_present = False
    # the notebook's outputs: around them are JupyterLab's own menus, panels, cell editors
    course_part = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea"

    def __init__(self) -> None:
        self.servers: dict[str, LabServer] = {}
        self._lang: dict[int, str] = {}  # id(page) -> the language its server speaks
        self.kernel_asked = 0  # times Lab asked which kernel to start

    def server(self, lang: str) -> LabServer:
        if lang not in self.servers:
            self.servers[lang] = LabServer(lang=lang).start(LOAD_TIMEOUT / 1000)
        return self.servers[lang]

    def content(self, page: Any) -> Any:
        return page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")

    def narrow(self, page: Any, size: dict[str, int]) -> None:
        # the open panel of the left side bar (the file browser): its tab, pressed, closes it
        opened = page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current")
        if opened.count():
            opened.first.click()
            opened.first.wait_for(state="detached", timeout=ACTION_TIMEOUT)
        super().narrow(page, size)

    def saved_events(self, page: Any) -> int:
        """The events in the progress file of the page's server (Lab keeps progress there)."""
        path = self.server(self._lang.get(id(page), "en")).progress_file
        if not path.exists():
            return 0
        return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())

    def keep_events(self, page: Any, events: list[dict[str, Any]]) -> None:
        """Lab keeps progress in its server's file: the events as lines at its end."""
        path = self.server(self._lang.get(id(page), "en")).progress_file
        with path.open("a", encoding="utf-8") as file:
            file.writelines(json.dumps(event) + "\n" for event in events)

    def new_learner(self, log: PageLog) -> None:
        # No console error is expected of Lab either: JupyterLite's kernel extension, which
        # the static site's tools install beside it, is kept out of its page
        # (tutor/app/lab_page.py).
        for server in self.servers.values():
            server.forget_learner()

    def end_learner(self) -> None:
        for server in self.servers.values():
            server.forget_learner()

    def open(self, page: Any, notebook: str, *, lang: str = "en", present: bool = False) -> None:
        if present:
            raise ValueError("JupyterLab has no presenter mode: use the presenter_host fixture")
        server = self.server(lang)
        self._lang[id(page)] = lang
        # ?reset: the workspace holds this notebook only (no tabs of earlier tests reopened)
        page.goto(server.notebook_url(notebook), timeout=LOAD_TIMEOUT)
        self._run_all(page, server)

    def drawn_again(self, page: Any) -> None:
        self._run_all(page, self.server(self._lang.get(id(page), "en")))

    def _run_all(self, page: Any, server: LabServer) -> None:
        """Run ▸ Run All Cells once the notebook's kernel is ready, then wait until the
        page drawn by that run is there (not the outputs saved in the copy) and the
        kernel is idle."""
        # the notebook is loaded once its saved outputs are drawn (a course notebook
        # always has one: the hint to run it); Run All before that may do nothing
        self.content(page).locator(".jp-OutputArea-output").first.wait_for(timeout=LOAD_TIMEOUT)
        status = page.locator(
            ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator"
        )
        wait_until(
            lambda: status.get_attribute("data-status") == "idle",
            LOAD_TIMEOUT,
            "the notebook's kernel to be ready",
        )
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        page.evaluate(_WATCH_RUN)
        deadline = time.monotonic() + LOAD_TIMEOUT / 1000
        while True:
            dialog = page.locator(".jp-Dialog")
            if dialog.count():
                asked = dialog.first.inner_text()
                if not asked.startswith("Select Kernel") or self.kernel_asked:
                    raise AssertionError(f"Lab asks: {asked!r}")
                # Lab, loaded, sometimes asks for the kernel of a notebook that names its
                # own: a learner accepts the one offered (the notebook's). Once per run at
                # most; the report of the run says so (kernel_asked).
                self.kernel_asked += 1
                dialog.first.get_by_role("button", name="Select", exact=True).click()
            page.get_by_role("menuitem", name="Run", exact=True).click()
            item = page.get_by_role("menuitem", name="Run All Cells", exact=True)
            item.wait_for(timeout=LOAD_TIMEOUT)
            if item.get_attribute("aria-disabled") == "true":
                page.keyboard.press("Escape")  # not yet: the menu's commands are not ready
            else:
                item.click()
                try:
                    page.wait_for_function(_RUN_STARTED, timeout=RUN_ALL_RETRY)
                    break
                except PlaywrightTimeout:
                    pass
            if time.monotonic() > deadline:
                raise AssertionError(f"Run All Cells never started in Lab:\n{server.log()}")
            time.sleep(0.5)
        try:
            page.wait_for_function(_NEW_PAGE_DRAWN, arg=READY, timeout=LOAD_TIMEOUT)
        except PlaywrightTimeout:
            page.screenshot(path=str(server.home.parent / f"{server.home.name}-failed.png"))
            shown = self.content(page).inner_text()[-2000:]
            raise AssertionError(
                f"Lab ran the notebook but its page was not drawn; the notebook shows:\n{shown}"
                f"\n-- Lab's log:\n{server.log()[-3000:]}"
            ) from None
        wait_until(server.kernels_idle, LOAD_TIMEOUT, "Lab's kernel to be idle after Run All")

    def close(self) -> None:
        for server in self.servers.values():
            server.close()
        self.servers.clear()
