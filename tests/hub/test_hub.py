"""A class of two on a real JupyterHub, as a teacher starts it (deploy/hub.sh, class
password, local processes), on 127.0.0.1 only: each learner logs in, gets a server of
their own, lands on the course index, opens the worked example and steps it (a widget
round trip through their kernel); neither can reach the other's server; each server is
locked down; the pages fetch nothing from outside; and stopping the hub leaves no
process behind.

Runs in the test command (marker ``hub``, and ``browser``: it drives Chromium). In CI it
must run: nothing here skips there. Takes about a minute on 2 cores.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tutor.display.course import course_entries
from tutor.teaching.text import text
from tutor.teaching.worked_example import worked_example

from .hub_harness import (
    INDEX_PAGE,
    REPO,
    WORKED_EXAMPLE_PAGE,
    RunningHub,
    is_loopback_url,
    running_hub,
)

pytestmark = [pytest.mark.hub, pytest.mark.browser, pytest.mark.slow]

LEARNERS = ("ada", "bo")
PASSWORD = secrets.token_urlsafe(12)
PAGE_TIMEOUT_MS = 120_000  # two servers and their kernels starting at once on 2 cores

# Widget messages only: what the locked-down server lets the browser send to a kernel.
PROBE_SCRIPT = """
async ([code]) => {
  const config = JSON.parse(document.getElementById('jupyter-config-data').textContent);
  const url = location.origin.replace(/^http/, 'ws') + config.baseUrl + 'api/kernels/'
    + config.kernelId + '/channels?session_id=hub-test-probe';
  const socket = new WebSocket(url);
  const replies = [];
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    replies.push(message.msg_type || message.header.msg_type);
  };
  await new Promise((resolve, reject) => { socket.onopen = resolve; socket.onerror = reject; });
  const send = (id, type, content) => socket.send(JSON.stringify({
    channel: 'shell', content, metadata: {}, parent_header: {}, buffers: [],
    header: {msg_id: id, msg_type: type, username: 'hub-test', session: 'hub-test-probe',
             date: new Date().toISOString(), version: '5.3'},
  }));
  send('probe-execute', 'execute_request', {code, silent: false, store_history: false,
       user_expressions: {}, allow_stdin: false, stop_on_error: true});
  send('probe-info', 'kernel_info_request', {});
  const deadline = Date.now() + 15000;
  while (!replies.includes('kernel_info_reply') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, 1500));  // time for a late execute_reply
  socket.close();
  return replies;
}
"""


@dataclass
class Learner:
    """One learner's browser context (their own cookies) and page, with what it saw."""

    name: str
    hub_url: str
    context: Any
    page: Any
    requests: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)

    def url(self, path: str, owner: str | None = None) -> str:
        """``path`` inside ``owner``'s server (default: this learner's own)."""
        return f"{self.hub_url}/user/{owner or self.name}/{path}"


@pytest.fixture(scope="module")
def class_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHub]:
    """The hub with learners ada and bo; stopping it must leave no process behind."""
    with running_hub(tmp_path_factory.mktemp("hub"), password=PASSWORD, learners=LEARNERS) as hub:
        yield hub


@pytest.fixture(scope="module")
def learners(class_hub: RunningHub, browser: Any) -> Iterator[dict[str, Learner]]:
    """Both learners logged in through the hub's login page, both servers started at
    once, each learner on the page the hub opened for them."""
    sessions: dict[str, Learner] = {}
    for name in LEARNERS:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        learner = Learner(name, class_hub.url, context, context.new_page())
        learner.page.set_default_timeout(PAGE_TIMEOUT_MS)
        # Every request is recorded; one leaving the machine is refused (and reported).
        context.route("**/*", _loopback_only)
        learner.page.on("request", lambda request, seen=learner: seen.requests.append(request.url))
        learner.page.on(
            "console",
            lambda message, seen=learner: (
                seen.console_errors.append(message.text) if message.type == "error" else None
            ),
        )
        learner.page.on(
            "pageerror", lambda error, seen=learner: seen.console_errors.append(str(error))
        )
        learner.page.goto(f"{class_hub.url}/hub/login")
        learner.page.fill("#username_input", name)
        learner.page.fill("#password_input", PASSWORD)
        learner.page.click("#login_submit")  # the hub starts the server; no waiting here
        sessions[name] = learner
    for learner in sessions.values():
        try:
            # The login page's language goes on to the index (the hub passes its ?lang= on).
            learner.page.wait_for_url(
                f"**/user/{learner.name}/{INDEX_PAGE}?lang=en", wait_until="commit"
            )
        except Exception as error:
            raise AssertionError(
                f"{learner.name} did not land on the index:\n{class_hub.log_tail()}"
            ) from error
    yield sessions
    for learner in sessions.values():
        learner.context.close()


def _loopback_only(route: Any) -> None:
    if is_loopback_url(route.request.url):
        route.continue_()
    else:
        route.abort()


def _position(number: int, total: int) -> str:
    return text("stepper.position", "en", number=number, total=total)


def test_each_learner_lands_on_the_course_index_in_their_own_server(
    learners: dict[str, Learner], class_hub: RunningHub
) -> None:
    titles = [entry.title for entry in course_entries(REPO / "notebooks")]
    assert titles, "the course index lists no notebook"
    for learner in learners.values():
        page = learner.page
        assert page.url == learner.url(f"{INDEX_PAGE}?lang=en")
        page.wait_for_selector("a[href='08_worked_example.ipynb?lang=en']")
        shown = page.inner_text("#rendered_cells")
        assert [title for title in titles if title not in shown] == []
        assert class_hub.server_ready(learner.name)
    servers = class_hub.learner_server_processes()
    assert sorted(servers) == sorted(LEARNERS), "one server process per learner"


def test_each_learner_steps_the_worked_example_through_their_own_kernel(
    learners: dict[str, Learner],
) -> None:
    total = len(worked_example().steps)
    for learner in learners.values():  # both pages render at once, as in a class
        learner.page.goto(learner.url(WORKED_EXAMPLE_PAGE), wait_until="commit")
    for learner in learners.values():
        page = learner.page
        position = page.locator(".tutor-step-position")
        position.wait_for()
        assert position.inner_text() == _position(1, total)
        # Next is a widget button: the click goes to the learner's kernel over the
        # websocket, the kernel draws step 2 and sends it back.
        page.click("button.tutor-step-next")
        page.wait_for_function(
            "([selector, expected]) => document.querySelector(selector)?.innerText === expected",
            arg=[".tutor-step-position", _position(2, total)],
        )
        assert learner.console_errors == []


def test_a_learner_cannot_reach_another_learners_server(
    learners: dict[str, Learner], class_hub: RunningHub
) -> None:
    for learner in learners.values():
        (other,) = (name for name in LEARNERS if name != learner.name)
        assert class_hub.server_ready(other)
        # The other's page: their server sends the browser to the hub, which refuses.
        # (In a second tab: the learner's own page stays open for the next test.)
        tab = learner.context.new_page()
        response = tab.goto(learner.url(INDEX_PAGE, owner=other))
        assert response is not None and response.status == 403, response and response.url
        tab.close()
        # The other's REST API with this learner's cookies: refused too.
        api = learner.context.request.get(learner.url("api/kernels", owner=other), max_redirects=0)
        assert api.status == 403, api.status
        # ...and this learner's own API still answers, so the refusal is about the owner.
        own = learner.context.request.get(learner.url("api/kernels"))
        assert own.status == 200
        assert isinstance(own.json(), list) and own.json()


def test_a_learners_server_runs_no_code_of_theirs_and_changes_no_file(
    learners: dict[str, Learner], class_hub: RunningHub
) -> None:
    learner = learners[LEARNERS[0]]
    page = learner.page  # a tutor page with its kernel (the worked example, still open)
    if WORKED_EXAMPLE_PAGE not in page.url:
        page.goto(learner.url(WORKED_EXAMPLE_PAGE))
    page.locator(".tutor-step-position").wait_for()
    marker = class_hub.state_dir / "code-ran"
    code = f"open({str(marker)!r}, 'w').write('ran')"
    replies = page.evaluate(PROBE_SCRIPT, [code])
    # Widget traffic passes (kernel_info is allowed), code does not: no execute_reply.
    assert "kernel_info_reply" in replies
    assert "execute_reply" not in replies and "execute_input" not in replies
    assert not marker.exists()
    assert 'Received message of type "execute_request", which is not allowed' in (
        class_hub.log_path.read_text(errors="replace")
    )
    # Uploading a notebook (which Voila would then run) is refused by the server's
    # authorizer, with a valid XSRF token, so the refusal is not a missing-token one.
    xsrf = {c["name"]: c["value"] for c in learner.context.cookies(learner.url(""))}["_xsrf"]
    notebook = {
        "type": "notebook",
        "content": {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5},
    }
    upload = learner.context.request.put(
        learner.url("api/contents/mine.ipynb"),
        data=json.dumps(notebook),
        headers={"X-XSRFToken": xsrf, "Content-Type": "application/json"},
    )
    assert upload.status == 403
    assert "not authorized to write" in upload.json()["message"]
    assert not (REPO / "notebooks" / "mine.ipynb").exists()
    new_kernel = learner.context.request.post(
        learner.url("api/kernels"), data="{}", headers={"X-XSRFToken": xsrf}
    )
    assert new_kernel.status == 403
    # No JupyterLab, no terminals, no notebook source.
    for path in ("lab", "tree", "api/terminals", "files/index.ipynb", "api/contents/index.ipynb"):
        status = learner.context.request.get(learner.url(path), max_redirects=0).status
        assert status in (403, 404), (path, status)


def test_the_pages_load_nothing_from_outside_the_machine(
    learners: dict[str, Learner],
) -> None:
    for learner in learners.values():
        assert learner.requests, "no request recorded: the log is not attached"
        assert [url for url in learner.requests if not is_loopback_url(url)] == []
        assert [e for e in learner.console_errors if "Content Security Policy" in e] == []


def test_only_the_listed_learners_may_log_in(class_hub: RunningHub, browser: Any) -> None:
    """JupyterHub 5 lets nobody in without an allow rule; here the rule is the class
    list (TUTOR_HUB_LEARNERS): the class password alone does not make a new learner."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{class_hub.url}/hub/login")
        page.fill("#username_input", "mallory")
        page.fill("#password_input", PASSWORD)
        page.click("#login_submit")
        page.wait_for_load_state()
        assert "/hub/login" in page.url
        assert page.locator("#login_submit").is_visible()
        assert "mallory" not in [user["name"] for user in class_hub.api("GET", "users")]
    finally:
        context.close()
