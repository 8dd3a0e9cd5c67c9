"""The app's front-end files as a browser gets them (tutor/app/static_files.py): gzip when
asked for, decoding to the very bytes of the file, and cached for good only at addresses
that change with the file: the template's files (``?v=``) and the widget managers' chunks
(a content hash in their name), never Voila's own unversioned chunks; and the widget
manager's script with the page's own wait for its kernel's widgets."""

from __future__ import annotations

import gzip
import http.client
import json
import re
from typing import Any

import pytest

from tutor import resources
from tutor.app.static_files import IMMUTABLE

from .app_process import AppServer
from .fixtures import PageLog, reach_question

pytestmark = pytest.mark.browser

LESSON = "06_trick_winner.ipynb"
LOAD_TIMEOUT = 120_000  # ms

# The page's messages to its kernel reach the server HELD_MS after its websocket opened,
# as in a class where the server opens 40 websockets at once (tutor/app/static_files.py).
HELD_MS = 6_000
HOLD_KERNEL_MESSAGES = """
(() => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (!String(this.url).includes("/api/kernels/") || this.tutorReleased) {
      return send.call(this, data);
    }
    if (!this.tutorHeld) {
      this.tutorHeld = [];
      setTimeout(() => {
        this.tutorReleased = true;
        this.tutorHeld.forEach((held) => send.call(this, held));
      }, HELD_MS);
    }
    this.tutorHeld.push(data);
  };
})();
""".replace("HELD_MS", str(HELD_MS))


def fetch(app: AppServer, path: str, gzip_ok: bool) -> tuple[int, bytes, dict[str, str]]:
    connection = http.client.HTTPConnection("127.0.0.1", app.port, timeout=60)
    headers = {"Accept-Encoding": "gzip, deflate, br"} if gzip_ok else {}
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body, {name.lower(): value for name, value in response.getheaders()}


def decoded(body: bytes, headers: dict[str, str]) -> bytes:
    return gzip.decompress(body) if headers.get("content-encoding") == "gzip" else body


def test_the_pages_files_come_compressed_and_decode_to_the_files_bytes(app: AppServer) -> None:
    _, page, _ = app.get(f"/voila/render/{LESSON}")
    script = re.search(
        r'src="(/voila/templates/tutor/static/tutor-presenter\.js\?v=[0-9a-f]+)"', page
    )
    assert script is not None, "the page loads tutor-presenter.js at a versioned address"
    status, body, headers = fetch(app, script.group(1), gzip_ok=True)
    template = resources.jupyter_data_dir() / "nbconvert" / "templates" / "tutor"
    on_disk = (template / "static" / "tutor-presenter.js").read_bytes()
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == on_disk
    assert len(body) < len(on_disk) / 2
    assert headers["vary"] == "Accept-Encoding"
    assert headers["cache-control"] == IMMUTABLE

    _, plain, plain_headers = fetch(app, script.group(1), gzip_ok=False)
    assert plain == on_disk and "content-encoding" not in plain_headers


def test_the_page_loads_every_script_of_its_template_the_shared_settings_first(
    app: AppServer,
) -> None:
    # Each job of the page's scripts is a file (the keyboard, the presenter, the room on
    # the projector...): a file the template does not name would be a job left undone.
    _, page, _ = app.get(f"/voila/render/{LESSON}")
    loaded = re.findall(r'src="/voila/templates/tutor/static/([\w-]+\.js)\?v=[0-9a-f]+"', page)
    static = resources.jupyter_data_dir() / "nbconvert" / "templates" / "tutor" / "static"
    ours = [name for name in loaded if (static / name).is_file()]  # not Voila's own
    assert sorted(ours) == sorted(path.name for path in static.glob("*.js"))
    assert ours[0] == "tutor-settings.js"  # what the others read when they start
    assert ours[-1] == "tutor-page.js"  # "the last thing of the page" (its own words)


def test_only_addresses_that_change_with_the_file_are_cached_for_good(app: AppServer) -> None:
    _, page, _ = app.get(f"/voila/render/{LESSON}")
    config = re.search(
        r'id="jupyter-config-data" type="application/json">\s*(\{.*?\})\s*<', page, re.S
    )
    assert config is not None
    extensions = {
        item["name"]: item for item in json.loads(config.group(1))["federated_extensions"]
    }
    manager = extensions["@jupyter-widgets/jupyterlab-manager"]
    entry = f"/voila/labextensions/{manager['name']}/{manager['load']}"
    status, body, headers = fetch(app, entry, gzip_ok=True)
    assert status == 200, entry
    assert headers["cache-control"] == IMMUTABLE
    _, plain, _ = fetch(app, entry, gzip_ok=False)
    assert decoded(body, headers) == plain

    # Voila's front end: its chunks are named by number, the same names in a new Voila
    status, body, headers = fetch(app, "/voila/static/voila.js", gzip_ok=True)
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert "immutable" not in headers.get("cache-control", "")
    _, plain, _ = fetch(app, "/voila/static/voila.js", gzip_ok=False)
    assert gzip.decompress(body) == plain


def test_a_missing_or_escaping_file_is_refused_without_a_traceback(app: AppServer) -> None:
    for path in (
        "/voila/static/no-such-file.js",
        "/voila/labextensions/anywidget/static/..%2F..%2F..%2Fetc%2Fpasswd",
        "/voila/templates/tutor/static/..%2F..%2Fconf.json",
    ):
        status, body, _ = fetch(app, path, gzip_ok=True)
        assert 400 <= status < 500, (path, status)
        text = decoded(body, {}).decode("utf-8", "replace")
        assert "Traceback" not in text and "site-packages" not in text, path


def test_a_page_slow_to_reach_its_kernel_asks_for_its_widgets_once(
    app: AppServer, page: tuple[Any, PageLog]
) -> None:
    # ipywidgets' own wait (4 s) would run out here, and the page would then ask for the
    # list of comms and for each widget's state, one message each.
    content, log = page
    sent: list[bytes] = []

    def watch(socket: Any) -> None:
        if "/api/kernels/" in socket.url:
            socket.on(
                "framesent",
                lambda payload: sent.append(
                    payload.encode() if isinstance(payload, str) else bytes(payload)
                ),
            )

    content.on("websocket", watch)
    content.add_init_script(HOLD_KERNEL_MESSAGES)
    content.goto(app.render_url(LESSON, "lang=en"))
    question = reach_question(content, 0, LOAD_TIMEOUT)
    question.locator("button.tutor-quiz-choice").first.wait_for(timeout=LOAD_TIMEOUT)
    frames = b"\n".join(sent)
    assert frames.count(b'"request_states"') == 1
    assert b"comm_info_request" not in frames
    assert frames.count(b'"request_state"') == 0
    log.assert_clean()
