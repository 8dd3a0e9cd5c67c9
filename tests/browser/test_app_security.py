"""Hardening of the app (a whole class may open it at once): no sources, no tracebacks, no
template/theme override by URL, 127.0.0.1 unless in classroom mode (then a token), no
code run through the kernel websocket, and kernels of closed pages reclaimed.

The tests that need no browser talk HTTP (and a websocket) to the app directly.
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tutor.teaching.text import text
from tutor.teaching.worked_example import worked_example

from .app_process import AppServer
from .conftest import CULL_IDLE_TIMEOUT, CULL_INTERVAL, FAILING_NOTEBOOK, FAILING_SECRET, PageLog

WORKED = "08_worked_example.ipynb"
SECOND_STEP = text("stepper.position", number=2, total=len(worked_example().steps))
LOAD_TIMEOUT = 90_000


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
    try:
        output = subprocess.run(
            ["hostname", "-I"], capture_output=True, text=True, timeout=5, check=False
        ).stdout
    except OSError:
        return None
    addresses = [a for a in output.split() if "." in a and not a.startswith("127.")]
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
    with AppServer(classroom=True) as server:
        token = server.token()
        assert token and len(token) >= 24
        assert f"http://127.0.0.1:{server.port}/?token={token}" in server.log()
        other = _other_address()
        if other is not None:
            assert _reachable(other, server.port)
            assert f"http://{other}:{server.port}/?token={token}" in server.log()
        status, _, headers = server.get(f"/voila/render/{WORKED}")
        assert status in (302, 403)
        if status == 302:
            assert "/login" in headers["Location"]
        status, page, _ = server.get(f"/voila/render/{WORKED}?token=wrong-{token}")
        assert status in (302, 403)
        status, page, _ = server.get(f"/voila/render/{WORKED}?token={token}")
        assert status == 200 and "tutor.js" in page
        status, _, _ = server.get(f"/voila/api/contents?token=wrong-{token}")
        assert status in (302, 403)
        # app/voila.py takes the token out of the environment kernels inherit. (A kernel
        # still sees the URL of its own page, query string included: Voila passes it.)
        pids = server.kernel_pids()
        assert pids
        assert all(b"TUTOR_TOKEN=" not in Path(f"/proc/{pid}/environ").read_bytes() for pid in pids)


async def _send_on_kernel_socket(port: int, kernel_id: str, marker: Path) -> dict[str, Any]:
    """Send kernel_info_request and an execute_request on the kernel websocket, like a
    viewer's browser could; return the replies that came back within a few seconds."""
    from tornado.websocket import websocket_connect

    session = uuid.uuid4().hex
    url = f"ws://127.0.0.1:{port}/api/kernels/{kernel_id}/channels?session_id={session}"
    connection = await websocket_connect(url)

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


@pytest.mark.browser
def test_a_viewer_cannot_run_code_through_the_kernel_websocket(
    app: AppServer, page: tuple[Any, PageLog]
) -> None:
    browser_page, log = page
    browser_page.goto(app.render_url(WORKED))
    browser_page.locator("button.tutor-step-next").wait_for(timeout=LOAD_TIMEOUT)
    kernel_id = browser_page.evaluate(
        "JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
    )
    marker = Path(tempfile.mkdtemp()) / "ran.txt"
    # Playwright's sync API keeps an event loop in this thread: talk from another one.
    with ThreadPoolExecutor(max_workers=1) as pool:
        replies = pool.submit(
            asyncio.run, _send_on_kernel_socket(app.port, kernel_id, marker)
        ).result(timeout=60)
    # The same connection carries the allowed kernel_info_request to the kernel and back...
    assert "kernel_info_reply" in replies["info"]
    # ...but the execute_request is dropped by the server: no reply, no status, no effect.
    assert replies["execute"] == []
    assert not marker.exists()
    assert 'Received message of type "execute_request", which is not allowed' in app.log()
    # The page itself still works.
    browser_page.locator("button.tutor-step-next").click()
    browser_page.get_by_text(SECOND_STEP).wait_for(timeout=10_000)
    log.assert_clean()


@pytest.mark.browser
def test_kernels_of_closed_pages_are_reclaimed_and_open_pages_keep_theirs(
    scratch_app: AppServer, browser: Any
) -> None:
    before = set(scratch_app.kernel_pids())  # other tests' kernels, not watched here

    def ours() -> set[int]:
        return set(scratch_app.kernel_pids()) - before

    context = browser.new_context()
    kept = context.new_page()  # a learner who keeps the page open, doing nothing
    kept.goto(scratch_app.render_url(WORKED))
    kept.locator("button.tutor-step-next").wait_for(timeout=LOAD_TIMEOUT)
    (kept_kernel,) = ours()
    opened_and_closed = 6
    for _ in range(opened_and_closed):
        visit = context.new_page()
        visit.goto(scratch_app.render_url(WORKED))
        visit.locator("button.tutor-step-next").wait_for(timeout=LOAD_TIMEOUT)
        visit.close()
    peak = ours()
    assert len(peak) >= 3, "the pages did not start kernels: nothing was measured"
    # Closed pages' kernels go within the idle timeout plus a culling interval or two.
    deadline = time.monotonic() + CULL_IDLE_TIMEOUT + 3 * CULL_INTERVAL + 15
    while ours() != {kept_kernel} and time.monotonic() < deadline:
        time.sleep(0.5)
    assert ours() == {kept_kernel}, f"kernels piled up: {len(peak)} after the visits"
    # The open page's kernel survived the idle time and still answers.
    kept.locator("button.tutor-step-next").click()
    kept.get_by_text(SECOND_STEP).wait_for(timeout=10_000)
    context.close()


def test_no_server_api_beyond_what_pages_need(app: AppServer) -> None:
    # Voila's standalone server: no kernel listing, sessions, terminals or file API, and
    # notebooks are never served as files (viewers could read their code).
    for path in ("/api/kernels", "/api/sessions", "/api/contents", "/api/terminals"):
        assert app.get(path)[0] == 404, path
    assert app.get(f"/voila/files/{WORKED}")[0] == 403
