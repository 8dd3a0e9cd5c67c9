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


@pytest.fixture
def page(request: pytest.FixtureRequest, browser: Any, page_log: PageLog) -> Iterator[Any]:
    """A new learner's page: a browser context of its own, the host's progress empty.
    After the test: nothing requested outside 127.0.0.1, no unexpected console error."""
    host = _the_host(request)
    host.new_learner(page_log)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page_log.attach(context)
    new_page = context.new_page()
    try:
        yield new_page
        page_log.assert_clean()  # while the page is still open, as a learner sees it
    finally:
        context.close()
        host.end_learner()
