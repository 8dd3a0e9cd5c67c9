"""The app's front-end files as a browser gets them (tutor/app/static_files.py): gzip when
asked for, decoding to the very bytes of the file, and cached for good only at addresses
that change with the file: the template's files (``?v=``) and the widget managers' chunks
(a content hash in their name), never Voila's own unversioned chunks."""

from __future__ import annotations

import gzip
import http.client
import json
import re

import pytest

from tutor import resources
from tutor.app.static_files import IMMUTABLE

from .app_process import AppServer

pytestmark = pytest.mark.browser

LESSON = "06_trick_winner.ipynb"


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
    script = re.search(r'src="(/voila/templates/tutor/static/tutor\.js\?v=[0-9a-f]+)"', page)
    assert script is not None, "the page loads tutor.js at a versioned address"
    status, body, headers = fetch(app, script.group(1), gzip_ok=True)
    template = resources.jupyter_data_dir() / "nbconvert" / "templates" / "tutor"
    on_disk = (template / "static" / "tutor.js").read_bytes()
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == on_disk
    assert len(body) < len(on_disk) / 2
    assert headers["vary"] == "Accept-Encoding"
    assert headers["cache-control"] == IMMUTABLE

    _, plain, plain_headers = fetch(app, script.group(1), gzip_ok=False)
    assert plain == on_disk and "content-encoding" not in plain_headers


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
