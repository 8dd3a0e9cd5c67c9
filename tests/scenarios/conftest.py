"""The scenario harness: ``host``, ``presenter_host``, ``page`` and
``page_log`` (the API is described in tests/scenarios/hosts.py). Chromium, the app and the static site are the ones
every browser test shares (tests/browser/fixtures.py): one of each per run."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser.fixtures import PageLog

from .hosts import HOST_NAMES, PRESENTER_HOSTS, AppHost, Host, LabHost, SiteHost


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every scenario drives Chromium and takes seconds (the site's Pyodide, Lab's
    start): marked ``browser`` and ``slow`` as the tests of tests/browser are."""
    for item in items:
        if "/scenarios/" in str(item.path):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)


def _make_host(name: str, request: pytest.FixtureRequest) -> Host:
    if name == "app":
        return AppHost(request.getfixturevalue("app"))
    if name == "site":
        return SiteHost(request.getfixturevalue("site"))
    return LabHost()


@pytest.fixture(scope="session", params=HOST_NAMES)
def host(request: pytest.FixtureRequest) -> Iterator[Host]:
    """Each host in turn (the scenarios run per host: ``-k app`` selects one)."""
    request.getfixturevalue("browser")  # no Chromium: skipped (failed on CI) before starting
    made = _make_host(request.param, request)
    yield made
    made.close()


@pytest.fixture(scope="session", params=PRESENTER_HOSTS)
def presenter_host(request: pytest.FixtureRequest) -> Iterator[Host]:
    """Each host with presenter mode in turn."""
    request.getfixturevalue("browser")
    made = _make_host(request.param, request)
    assert made.supports_present
    yield made
    made.close()


def _the_host(request: pytest.FixtureRequest) -> Host:
    for name in ("host", "presenter_host"):
        if name in request.fixturenames:
            found: Host = request.getfixturevalue(name)
            return found
    raise pytest.UsageError("a scenario's page needs the host or presenter_host fixture")


@pytest.fixture
def page_log() -> PageLog:
    """What the test's ``page`` requested and the console errors it showed."""
    return PageLog()


LEARNER_STORAGE = (
    "cookies,local_storage,indexeddb,websql,file_systems,service_workers,cache_storage"
)
"""What a learner leaves in the browser (Storage.clearDataForOrigin's names): cleared for
the next learner. Not the HTTP cache nor the compiled code: those are the browser's."""


def _forget_learners(profile: Any, page: Any, origins: set[str]) -> None:
    """Clear what earlier learners left in the profile (``origins``: every origin the run's
    scenario pages requested), as if this were a browser of its own."""
    profile.clear_cookies()
    devtools = profile.new_cdp_session(page)
    try:
        for origin in sorted(origins):
            devtools.send(
                "Storage.clearDataForOrigin", {"origin": origin, "storageTypes": LEARNER_STORAGE}
            )
    finally:
        devtools.detach()


_VISITED: set[str] = set()
"""The origins the scenarios' pages requested so far in this run."""


@pytest.fixture
def page(request: pytest.FixtureRequest, browser_profile: Any, page_log: PageLog) -> Iterator[Any]:
    """A new learner's page: nothing of an earlier learner in the browser (no cookies, no
    storage), the host's progress empty. It opens in the run's own Chromium profile
    (``browser_profile``), which keeps only what a browser keeps for every site (the HTTP
    cache, compiled code), so Pyodide and Lab load as a returning browser loads them.
    After the test: nothing requested outside 127.0.0.1, no unexpected console error."""
    host = _the_host(request)
    host.new_learner(page_log)
    new_page = browser_profile.new_page()
    _forget_learners(browser_profile, new_page, _VISITED)
    page_log.attach(browser_profile)
    try:
        yield new_page
        page_log.assert_clean()  # while the page is still open, as a learner sees it
    finally:
        page_log.detach(browser_profile)
        _VISITED.update(page_log.origins())
        new_page.close()
        host.end_learner()
