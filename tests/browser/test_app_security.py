"""Hardening of the app (a whole class may open it at once): no sources, no tracebacks, no
template/theme override by URL, 127.0.0.1 unless in classroom mode (then a token that no
kernel and no process environment holds), only the app's own host names, 4xx for
malformed paths, no code run through the kernel websocket, a kernel reachable only from
the browser whose page started it, and kernels of closed pages reclaimed.

The tests that need no browser talk HTTP (and a websocket) to the app directly.
"""

from __future__ import annotations

import ast
import asyncio
import http.client
import json
import socket
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from event_loops import run_in_own_thread

from tutor.teaching.text import text
from tutor.teaching.worked_example import worked_example
from tutor.web.addresses import machine_hosts, room_addresses

from .app_process import AppServer
from .conftest import CULL_IDLE_TIMEOUT, CULL_INTERVAL, FAILING_NOTEBOOK, FAILING_SECRET, PageLog

WORKED = "08_worked_example.ipynb"
SECOND_STEP = text("stepper.position", number=2, total=len(worked_example().steps))
LOAD_TIMEOUT = 90_000
ACTION_TIMEOUT = 30_000  # ms: a click travels to the kernel and back, on a loaded machine
CLOSE_TIMEOUT = 30  # s: a closed page's kernel is shut down (well before the 120 s culling)


def test_viewers_get_no_sources_and_urls_cannot_change_template_or_theme(
    app: AppServer,
) -> None:
    status, page, headers = app.get(
        f"/voila/render/{WORKED}?template=reveal&theme=dark&voila-theme=dark"
    )
    assert status == 200
    assert "worked_example_stepper" not in page  # the cell's code is stripped
    assert "NBVAL_IGNORE_OUTPUT" not in page
    assert "voila/templates/tutor/static/tutor.js" in page  # still the tutor's template
    assert "reveal.js" not in page.lower() and "templates/reveal" not in page.lower()
    assert "theme-light.css" in page and "theme-dark" not in page
    assert 'data-jp-theme-name="JupyterLab Light"' in page
    assert "default-src 'self'" in headers["Content-Security-Policy"]


def test_pages_reference_nothing_outside_the_machine(app: AppServer) -> None:
    for path in ("/", "/voila/render/index.ipynb", f"/voila/render/{WORKED}", "/no-such-page"):
        _, page, _ = app.get(path)
        for url in ("https://", "http://", "//cdn", "fonts.googleapis"):
            hits = [line for line in page.splitlines() if url in line and "w3.org" not in line]
            assert hits == [], (path, hits)


def test_an_error_shows_no_traceback(scratch_app: AppServer) -> None:
    status, page, _ = scratch_app.get(f"/voila/render/{FAILING_NOTEBOOK}")
    assert status == 200
    assert "There was an error when executing cell" in page
    assert FAILING_SECRET not in page
    assert "Traceback" not in page and "hidden_helper" not in page


def _other_address() -> str | None:
    """A non-loopback IPv4 address of this machine, if it has one."""
    addresses = room_addresses(machine_hosts())
    return addresses[0] if addresses else None


def _reachable(address: str, port: int) -> bool:
    try:
        with socket.create_connection((address, port), timeout=2):
            return True
    except OSError:
        return False


def test_the_app_listens_on_127_0_0_1_only(app: AppServer) -> None:
    assert _reachable("127.0.0.1", app.port)
    other = _other_address()
    if other is not None:  # a machine with only loopback has nothing else to try
        assert not _reachable(other, app.port)
    assert f"http://127.0.0.1:{app.port}/" in app.log()


@pytest.mark.slow
def test_classroom_mode_listens_on_every_address_and_requires_the_token() -> None:
    chosen = "class-token-" + uuid.uuid4().hex
    with AppServer(classroom=True, env={"TUTOR_TOKEN": chosen}) as server:
        token = server.token()
        assert token == chosen
        assert f"http://127.0.0.1:{server.port}/?token={token}" in server.log()
        other = _other_address()
        if other is not None:
            assert _reachable(other, server.port)
            assert f"http://{other}:{server.port}/?token={token}" in server.log()
        # The room's addresses come first; loopback last, marked as this machine's only.
        listing = server.log().split("Give the pupils", 1)[-1].split("[TutorVoila]", 1)[0]
        handed_out, _, local = listing.partition("On this machine only:")
        assert "127." not in handed_out and f"http://127.0.0.1:{server.port}/?token=" in local
        # A learner without the token is told to ask the teacher for the link (403), in the
        # language of the page asked for; no developer login form, and posting one is 403.
        status, _, headers = server.get(f"/voila/render/{WORKED}?lang=ja")
        assert status == 302 and "/login" in headers["Location"]
        status, page, _ = server.get(
            urlparse(headers["Location"])._replace(scheme="", netloc="").geturl()
        )
        assert status == 403, page
        assert text("error-page.ask-for-link", "ja") in page and 'lang="ja"' in page
        for developers in ("jupyter server list", "Setup a Password", "password", "<form"):
            assert developers not in page
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        connection.request(
            "POST",
            "/login",
            body="password=x&new_password=yy",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        posted = connection.getresponse()
        assert posted.status == 403 and "Traceback" not in posted.read().decode()
        connection.close()
        status, page, _ = server.get(f"/voila/render/{WORKED}?token=wrong-{token}")
        assert status in (302, 403)
        status, page, _ = server.get(f"/voila/render/{WORKED}?token={token}&lang=ja")
        assert status == 200 and "tutor.js" in page
        status, _, _ = server.get(f"/voila/api/contents?token=wrong-{token}")
        assert status in (302, 403)
        # The token is in no process's environment: not the server's (it came through a
        # pipe, tutor/app/launch.py), not its fork server's, and not a kernel's (Voila
        # gives a kernel its page's address, with the token taken out first). The rest of
        # the address stays. A forked kernel's /proc environ is its fork server's: its own
        # environment is asked of the kernel itself.
        assert server.process is not None
        pids = [server.process.pid, *server.fork_server_pids(), *server.kernel_pids()]
        assert server.kernel_pids()
        for pid in pids:
            environment = Path(f"/proc/{pid}/environ").read_bytes()
            assert chosen.encode() not in environment and b"TUTOR_TOKEN" not in environment
        kernels = kernel_environments(server)
        assert kernels
        for environment in kernels:
            assert not [value for value in environment.values() if chosen in value]
            assert "TUTOR_TOKEN" not in environment
            assert environment["QUERY_STRING"] == "lang=ja"
        # Only this machine's addresses: a page elsewhere cannot reach the app through a
        # name of its own (DNS rebinding).
        assert _get_with_host(server.port, "attacker.example", token)[0] == 400


def kernel_environments(server: AppServer) -> list[dict[str, str]]:
    """Each of the app's kernels' environment, as the kernel itself sees it (asked through
    its connection file in the app's connection folder, as the server talks to it)."""
    from jupyter_client import BlockingKernelClient

    folder = server.log().split("Storing connection files in ", 1)[1].split(".\n", 1)[0]
    environments = []
    for connection_file in sorted(Path(folder).glob("kernel-*.json")):
        client = BlockingKernelClient(connection_file=str(connection_file))
        client.load_connection_file()
        client.start_channels()
        try:
            client.wait_for_ready(timeout=60)
            reply = client.execute_interactive(
                "", user_expressions={"env": "dict(__import__('os').environ)"}, timeout=60
            )
        finally:
            client.stop_channels()
        shown = reply["content"]["user_expressions"]["env"]["data"]["text/plain"]
        environments.append(ast.literal_eval(shown))
    return environments


def _get_with_host(port: int, host: str, token: str | None = None) -> tuple[int, str]:
    """GET the course index with ``Host: <host>``, as a browser that reached the app
    through that name would; returns the status and the body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    query = f"?token={token}" if token else ""
    connection.request("GET", f"/voila/render/index.ipynb{query}", headers={"Host": host})
    response = connection.getresponse()
    body = response.read().decode("utf-8", errors="replace")
    connection.close()
    return response.status, body


def _cookie_header(context: Any) -> str:
    """The cookies a browser context holds, as a Cookie header (what it sends the app)."""
    return "; ".join(f"{cookie['name']}={cookie['value']}" for cookie in context.cookies())


async def _send_on_kernel_socket(
    port: int, kernel_id: str, marker: Path, cookies: str
) -> dict[str, Any]:
    """Send kernel_info_request and an execute_request on the kernel websocket, like a
    viewer's browser (holding ``cookies``) could; return the replies that came back
    within a few seconds."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    session = uuid.uuid4().hex
    url = f"ws://127.0.0.1:{port}/api/kernels/{kernel_id}/channels?session_id={session}"
    connection = await websocket_connect(HTTPRequest(url, headers={"Cookie": cookies}))

    def message(msg_type: str, content: dict[str, Any]) -> dict[str, Any]:
        return {
            "header": {
                "msg_id": uuid.uuid4().hex,
                "msg_type": msg_type,
                "session": session,
                "username": "viewer",
                "version": "5.3",
                "date": "",
            },
            "parent_header": {},
            "metadata": {},
            "content": content,
            "channel": "shell",
            "buffers": [],
        }

    code = f"open({str(marker)!r}, 'w').write('the kernel ran viewer code')"
    execute = message(
        "execute_request",
        {
            "code": code,
            "silent": False,
            "store_history": False,
            "user_expressions": {},
            "allow_stdin": False,
            "stop_on_error": True,
        },
    )
    info = message("kernel_info_request", {})
    await connection.write_message(json.dumps(execute))
    await connection.write_message(json.dumps(info))
    replies: dict[str, Any] = {"execute": [], "info": []}
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            raw = await asyncio.wait_for(connection.read_message(), deadline - time.monotonic())
        except TimeoutError:
            break
        if raw is None:
            break
        if isinstance(raw, bytes):
            continue
        reply = json.loads(raw)
        parent = reply.get("parent_header", {}).get("msg_id")
        if parent == execute["header"]["msg_id"]:
            replies["execute"].append(reply["header"]["msg_type"])
        elif parent == info["header"]["msg_id"]:
            replies["info"].append(reply["header"]["msg_type"])
    connection.close()
    return replies


async def _open_kernel_socket(port: int, kernel_id: str, cookies: str) -> int:
    """The HTTP status of a websocket handshake to the kernel with ``cookies`` (101 when
    it opens)."""
    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    url = f"ws://127.0.0.1:{port}/api/kernels/{kernel_id}/channels?session_id={uuid.uuid4().hex}"
    try:
        connection = await websocket_connect(HTTPRequest(url, headers={"Cookie": cookies}))
    except HTTPClientError as error:
        return int(error.code)
    connection.close()
    return 101


def _page_kernel_id(browser_page: Any) -> str:
    return str(
        browser_page.evaluate(
            "JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
        )
    )


@pytest.mark.browser
def test_a_viewer_cannot_run_code_through_the_kernel_websocket(
    app: AppServer, page: tuple[Any, PageLog]
) -> None:
    browser_page, log = page
    browser_page.goto(app.render_url(WORKED))
    browser_page.locator("button.tutor-step-next").wait_for(timeout=LOAD_TIMEOUT)
    kernel_id = _page_kernel_id(browser_page)
    marker = Path(tempfile.mkdtemp()) / "ran.txt"
    cookies = _cookie_header(browser_page.context)
    replies = run_in_own_thread(
        _send_on_kernel_socket(app.port, kernel_id, marker, cookies), timeout=60
    )
    # The same connection carries the allowed kernel_info_request to the kernel and back...
    assert "kernel_info_reply" in replies["info"]
    # ...but the execute_request is dropped by the server: no reply, no status, no effect.
    assert replies["execute"] == []
    assert not marker.exists()
    assert 'Received message of type "execute_request", which is not allowed' in app.log()
    # The page itself still works.
    browser_page.locator("button.tutor-step-next").click()
    browser_page.get_by_text(SECOND_STEP).wait_for(timeout=ACTION_TIMEOUT)
    log.assert_clean()


@pytest.mark.browser
def test_a_kernel_answers_only_the_browser_whose_page_started_it(
    app: AppServer, browser: Any
) -> None:
    # (the app is the session's: kernels of other tests' closed pages may still be ending)
    others = set(app.kernel_pids())
    mine = browser.new_context()
    page = mine.new_page()
    page.goto(app.render_url(WORKED))
    page.locator("button.tutor-step-next").wait_for(timeout=LOAD_TIMEOUT)
    kernel_id = _page_kernel_id(page)
    pids = set(app.kernel_pids()) - others  # this page's kernel
    assert pids
    # Another learner who learned the kernel's id: their own browser (their own _xsrf
    # cookie, from a page of their own) can neither reach nor stop it.
    theirs = browser.new_context()
    their_page = theirs.new_page()
    their_page.goto(app.url("/voila/render/index.ipynb"))
    their_page.locator(".tutor-course-index").wait_for(timeout=LOAD_TIMEOUT)
    their_cookies = _cookie_header(theirs)
    assert "_xsrf=" in their_cookies
    assert (
        run_in_own_thread(_open_kernel_socket(app.port, kernel_id, their_cookies), timeout=60)
        == 404
    )
    assert run_in_own_thread(_open_kernel_socket(app.port, kernel_id, ""), timeout=60) == 404
    status = their_page.evaluate(
        """async (kernel) => {
            const xsrf = document.cookie.match(/\\b_xsrf=([^;]*)/)[1];
            const body = new FormData();
            body.append("_xsrf", xsrf);
            const shut = await fetch(`/voila/api/shutdown/${kernel}`, {method: "POST", body});
            const model = await fetch(`/api/kernels/${kernel}`);
            return [shut.status, model.status];
        }""",
        kernel_id,
    )
    assert status == [404, 404]
    assert set(app.kernel_pids()) >= pids
    # Its own page still works, and its own browser may reach it.
    assert (
        run_in_own_thread(
            _open_kernel_socket(app.port, kernel_id, _cookie_header(mine)), timeout=60
        )
        == 101
    )
    page.locator("button.tutor-step-next").click()
    page.get_by_text(SECOND_STEP).wait_for(timeout=ACTION_TIMEOUT)
    theirs.close()
    mine.close()


@pytest.mark.browser
def test_closing_a_page_gives_its_kernel_back_however_it_was_opened(
    app: AppServer, browser: Any
) -> None:
    """A direct link (no page of the app seen before: Voila's page-close request used to
    be refused for want of the _xsrf cookie), and a lesson opened from the index."""
    before = set(app.kernel_pids())
    log_start = len(app.log())  # (the app is the session's: other tests' requests are in its log)

    def ours() -> set[int]:
        return set(app.kernel_pids()) - before

    def wait_until(condition: Any, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if condition():
                return True
            time.sleep(0.2)
        return condition()

    context = browser.new_context()  # no cookie yet: as a bookmark opened in a fresh browser
    direct = context.new_page()
    direct.goto(app.render_url(WORKED))
    direct.locator("button.tutor-step-next").wait_for(timeout=LOAD_TIMEOUT)
    assert len(ours()) == 1
    direct.close(run_before_unload=True)  # as a learner closes the tab
    assert wait_until(lambda: not ours(), CLOSE_TIMEOUT), (
        "the closed page's kernel is still running"
    )

    page = context.new_page()
    page.goto(app.url("/voila/render/index.ipynb"))
    page.locator(".tutor-course-entry a.tutor-open").first.wait_for(timeout=LOAD_TIMEOUT)
    (index_kernel,) = ours()
    page.locator(".tutor-course-entry a.tutor-open").first.click()
    page.wait_for_url("**/voila/render/01_*", timeout=LOAD_TIMEOUT)
    # Leaving the index gave its kernel back; the lesson has its own.
    assert wait_until(lambda: index_kernel not in ours() and len(ours()) == 1, CLOSE_TIMEOUT)
    page.close(run_before_unload=True)
    assert wait_until(lambda: not ours(), CLOSE_TIMEOUT)
    context.close()
    assert "403 POST /voila/api/shutdown" not in app.log()[log_start:]


@pytest.mark.browser
def test_kernels_of_vanished_pages_are_reclaimed_and_open_pages_keep_theirs(
    scratch_app: AppServer, browser: Any
) -> None:
    """The backstop for pages that go without a word (a crashed browser, a phone that
    froze the tab: no page-close request), and for a page that never ran its scripts."""
    before = set(scratch_app.kernel_pids())  # other tests' kernels, not watched here

    def ours() -> set[int]:
        return set(scratch_app.kernel_pids()) - before

    context = browser.new_context()
    kept = context.new_page()  # a learner who keeps the page open, doing nothing
    kept.goto(scratch_app.render_url(WORKED))
    kept.locator("button.tutor-step-next").wait_for(timeout=LOAD_TIMEOUT)
    (kept_kernel,) = ours()
    mute = browser.new_context()  # a browser that will never say it leaves
    mute.add_init_script("navigator.sendBeacon = () => true;")
    opened_and_closed = 5
    for _ in range(opened_and_closed):
        visit = mute.new_page()
        visit.goto(scratch_app.render_url(WORKED))
        visit.locator("button.tutor-step-next").wait_for(timeout=LOAD_TIMEOUT)
        visit.close(run_before_unload=True)
    assert scratch_app.get(f"/voila/render/{WORKED}")[0] == 200  # a page that ran no script
    peak = ours()
    assert len(peak) >= 3, "the pages did not start kernels: nothing was measured"
    # Their kernels go within the idle timeout plus a culling interval or two.
    deadline = time.monotonic() + CULL_IDLE_TIMEOUT + 3 * CULL_INTERVAL + 15
    while ours() != {kept_kernel} and time.monotonic() < deadline:
        time.sleep(0.5)
    assert ours() == {kept_kernel}, f"kernels piled up: {len(peak)} after the visits"
    # The open page's kernel survived the idle time and still answers.
    kept.locator("button.tutor-step-next").click()
    kept.get_by_text(SECOND_STEP).wait_for(timeout=ACTION_TIMEOUT)
    mute.close()
    context.close()


def test_no_server_api_beyond_what_pages_need(app: AppServer) -> None:
    # Voila's standalone server: no kernel listing, sessions, terminals or file API, and
    # notebooks are never served as files (viewers could read their code).
    for path in ("/api/kernels", "/api/sessions", "/api/contents", "/api/terminals"):
        assert app.get(path)[0] == 404, path
    assert app.get(f"/voila/files/{WORKED}")[0] == 403


def test_only_the_apps_own_host_names_are_answered(app: AppServer) -> None:
    assert _get_with_host(app.port, f"127.0.0.1:{app.port}")[0] == 200
    assert _get_with_host(app.port, f"localhost:{app.port}")[0] == 200
    # A name of someone else's pointing at this machine (DNS rebinding), or none at all.
    for host in (f"attacker.example:{app.port}", "attacker.example", "10.1.2.3", ""):
        assert _get_with_host(app.port, host)[0] == 400, host


@pytest.mark.parametrize(
    "path",
    [
        "/logout",
        "/voila/templates/tutor/static/..%2f..%2f..%2fetc%2fpasswd",
        "/voila/templates/tutor/static/..%2fconf.json",
        "/voila/templates/..%2f..%2f/static/tutor.js",
        "/voila/templates/tutor",
        "/voila/templates/tutor/nostatic/tutor.js",
        "/voila/templates/tutor/static/",
        "/voila/static/..%2f..%2fapp.py",
        "/voila/files/..%2f..%2fetc%2fpasswd",
        "/voila/render/..%2f..%2fetc%2fpasswd",
        "/api/kernels/not-a-kernel",
        "/voila/api/shutdown/not-a-kernel",
        "/voila/tree/..%2f..",
        "/no/such/page",
    ],
)
def test_malformed_and_unknown_paths_answer_4xx(app: AppServer, path: str) -> None:
    status, body, headers = app.get(path)
    if status in (301, 302):  # Voila sends a render of a non-notebook to /voila/files
        status, body, _ = app.get(urlparse(headers["Location"]).path)
    assert 400 <= status < 500, (path, status)
    assert "Traceback" not in body and "site-packages" not in body


def test_the_apps_static_files_are_still_served(app: AppServer) -> None:
    for name in ("tutor.js", "tutor-page.js", "tutor.css", "tutor-page.css"):
        assert app.get(f"/voila/templates/tutor/static/{name}")[0] == 200, name
