"""The front end's files (tutor/app/static_files.py): a gzip copy for a browser that accepts
it, the file itself for one that does not or asks for a byte range, and the year-long
cache only for an address that changes with the file. Served here by tornado's own static
file handler with the tutor's mixin, over HTTP; the app's real files in
tests/browser/test_app_static.py."""

from __future__ import annotations

import gzip
import os
import sys
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
import tornado.web
from tornado.httpclient import AsyncHTTPClient, HTTPResponse
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets

from tutor.app.static_files import CONTROL_COMM_WAIT_MS, COPIES, IMMUTABLE, compressed, served_bytes

SCRIPT = "".join(
    f"export const card{n} = {{ suit: 'spades', rank: {n % 13} }};\n" for n in range(400)
)

# ipywidgets' widget manager as its labextension ships it (minified), and Voila's own copy
WIDGET_MANAGER = (
    SCRIPT + 'o.send({method:"request_states"},{}),setTimeout(()=>l("Control comm did not '
    'respond in time"),4e3)}),o.close()}catch(e){return this._loadFromKernelModels()}\n'
)
VOILA_MANAGER = 'setTimeout((()=>i("Control comm did not respond in time")),4e3)'

Get = Callable[..., Awaitable[HTTPResponse]]
Runner = Callable[[Coroutine[Any, Any, Any]], Any]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "app.js").write_text(SCRIPT)
    (tmp_path / "5764.voila.js").write_text(SCRIPT)
    (tmp_path / "7.2a0ce575775f5aad.js").write_text(SCRIPT)
    (tmp_path / "tiny.css").write_text("body { margin: 0 }\n")
    (tmp_path / "32.3281b05d23655ae8.js").write_text(WIDGET_MANAGER)
    (tmp_path / "card.png").write_bytes(os.urandom(4096))
    return tmp_path


def serve(run_coroutine: Runner, folder: Path, scenario: Callable[[Get], Awaitable[None]]) -> None:
    """Run ``scenario(get)`` against ``folder`` served at /static/ (in a thread of its own:
    see the run_coroutine fixture); ``get(path, **headers)`` answers without decoding."""

    async def main() -> None:
        handler = compressed(tornado.web.StaticFileHandler)
        app = tornado.web.Application([(r"/static/(.*)", handler, {"path": str(folder)})])
        sockets = bind_sockets(0, "127.0.0.1")
        server = HTTPServer(app)
        server.add_sockets(sockets)
        port = sockets[0].getsockname()[1]
        client = AsyncHTTPClient(force_instance=True)

        async def get(path: str, **headers: str) -> HTTPResponse:
            return await client.fetch(
                f"http://127.0.0.1:{port}{path}",
                headers=headers,
                decompress_response=False,
                raise_error=False,
            )

        try:
            await scenario(get)
        finally:
            client.close()
            server.stop()

    run_coroutine(main())


def test_a_browser_accepting_gzip_gets_the_files_bytes_compressed(
    run_coroutine: Runner, folder: Path
) -> None:
    async def scenario(get: Get) -> None:
        response = await get("/static/app.js", **{"Accept-Encoding": "gzip, deflate, br"})
        assert response.code == 200
        assert response.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(response.body) == SCRIPT.encode()
        assert len(response.body) < len(SCRIPT) / 4
        assert int(response.headers["Content-Length"]) == len(response.body)
        assert response.headers["Content-Type"].startswith("text/javascript")
        assert response.headers["Vary"] == "Accept-Encoding"

    serve(run_coroutine, folder, scenario)


def test_a_browser_without_gzip_or_asking_for_a_range_gets_the_file_as_it_is(
    run_coroutine: Runner, folder: Path
) -> None:
    async def scenario(get: Get) -> None:
        plain = await get("/static/app.js")
        assert plain.body == SCRIPT.encode()
        assert "Content-Encoding" not in plain.headers
        assert plain.headers["Vary"] == "Accept-Encoding"  # the answer depends on it
        refused = await get("/static/app.js", **{"Accept-Encoding": "gzip;q=0, br"})
        assert refused.body == SCRIPT.encode()
        ranged = await get("/static/app.js", **{"Accept-Encoding": "gzip", "Range": "bytes=0-99"})
        assert ranged.code == 206
        assert ranged.body == SCRIPT.encode()[:100]
        assert "Content-Encoding" not in ranged.headers

    serve(run_coroutine, folder, scenario)


def test_the_two_forms_have_their_own_etag_and_each_revalidates(
    run_coroutine: Runner, folder: Path
) -> None:
    async def scenario(get: Get) -> None:
        zipped = await get("/static/app.js", **{"Accept-Encoding": "gzip"})
        plain = await get("/static/app.js")
        assert zipped.headers["Etag"] != plain.headers["Etag"]
        again = await get(
            "/static/app.js", **{"Accept-Encoding": "gzip", "If-None-Match": zipped.headers["Etag"]}
        )
        assert again.code == 304

    serve(run_coroutine, folder, scenario)


def test_small_files_and_pictures_go_as_they_are(run_coroutine: Runner, folder: Path) -> None:
    async def scenario(get: Get) -> None:
        for name in ("tiny.css", "card.png"):
            response = await get(f"/static/{name}", **{"Accept-Encoding": "gzip"})
            assert response.body == (folder / name).read_bytes(), name
            assert "Content-Encoding" not in response.headers, name

    serve(run_coroutine, folder, scenario)


def test_a_changed_file_gets_a_new_copy(run_coroutine: Runner, folder: Path) -> None:
    async def scenario(get: Get) -> None:
        first = await get("/static/app.js", **{"Accept-Encoding": "gzip"})
        changed = SCRIPT.replace("spades", "hearts")
        path = folder / "app.js"
        path.write_text(changed)
        stat = path.stat()
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
        second = await get("/static/app.js", **{"Accept-Encoding": "gzip"})
        assert gzip.decompress(first.body) == SCRIPT.encode()
        assert gzip.decompress(second.body) == changed.encode()

    serve(run_coroutine, folder, scenario)


def test_only_addresses_that_change_with_the_file_are_cached_for_good(
    run_coroutine: Runner, folder: Path
) -> None:
    async def scenario(get: Get) -> None:
        versioned = await get("/static/app.js?v=3f2a9c", **{"Accept-Encoding": "gzip"})
        hashed = await get("/static/7.2a0ce575775f5aad.js")
        assert versioned.headers["Cache-Control"] == IMMUTABLE
        assert "Expires" not in versioned.headers
        assert hashed.headers["Cache-Control"] == IMMUTABLE
        for path in ("/static/app.js", "/static/5764.voila.js"):  # names without a hash
            response = await get(path)
            assert "immutable" not in response.headers.get("Cache-Control", ""), path

    serve(run_coroutine, folder, scenario)


def test_a_path_out_of_the_folder_is_refused_without_a_copy(
    run_coroutine: Runner, folder: Path
) -> None:
    async def scenario(get: Get) -> None:
        made = len(list(COPIES.folder().iterdir()))
        response = await get("/static/..%2F..%2Fetc%2Fpasswd", **{"Accept-Encoding": "gzip"})
        assert response.code in (403, 404)
        assert b"Traceback" not in response.body
        assert len(list(COPIES.folder().iterdir())) == made

    serve(run_coroutine, folder, scenario)


def test_a_copy_removed_behind_the_servers_back_is_made_again(
    run_coroutine: Runner, folder: Path
) -> None:
    async def scenario(get: Get) -> None:
        first = await get("/static/app.js", **{"Accept-Encoding": "gzip"})
        assert first.headers["Content-Encoding"] == "gzip"
        for copy in COPIES.folder().iterdir():
            copy.unlink()
        again = await get("/static/app.js", **{"Accept-Encoding": "gzip"})
        assert again.code == 200 and again.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(again.body) == SCRIPT.encode()

    serve(run_coroutine, folder, scenario)


def test_the_widget_managers_wait_for_its_kernels_widgets_is_the_pages_wait() -> None:
    wait = f",{CONTROL_COMM_WAIT_MS})".encode()
    served = served_bytes("32.3281b05d23655ae8.js", WIDGET_MANAGER.encode())
    assert served == WIDGET_MANAGER.encode().replace(b",4e3)", wait)
    assert served_bytes("324.js", VOILA_MANAGER.encode()).endswith(b'time")),60000)')
    assert served_bytes("app.js", SCRIPT.encode()) == SCRIPT.encode()
    assert served_bytes("notes.txt", WIDGET_MANAGER.encode()) == WIDGET_MANAGER.encode()


def test_the_installed_widget_manager_is_the_one_the_fix_knows() -> None:
    # An ipywidgets that writes its wait otherwise fails here, not silently in a classroom.
    manager = Path(sys.prefix) / "share/jupyter/labextensions/@jupyter-widgets/jupyterlab-manager"
    waiting = [
        path
        for path in sorted((manager / "static").glob("*.js"))
        if b"Control comm did not respond in time" in path.read_bytes()
    ]
    assert waiting, "no script of the widget manager waits on its control comm"
    for path in waiting:
        served = served_bytes(path.name, path.read_bytes())
        assert served.count(b'"Control comm did not respond in time"),60000)') == 1, path.name


def test_the_widget_managers_script_is_served_with_the_fix_in_every_form(
    run_coroutine: Runner, folder: Path
) -> None:
    fixed = served_bytes("m.js", WIDGET_MANAGER.encode())
    assert fixed != WIDGET_MANAGER.encode()

    async def scenario(get: Get) -> None:
        path = "/static/32.3281b05d23655ae8.js"
        zipped = await get(path, **{"Accept-Encoding": "gzip"})
        assert zipped.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(zipped.body) == fixed
        assert zipped.headers["Content-Type"].startswith("text/javascript")
        assert zipped.headers["Cache-Control"] == IMMUTABLE
        plain = await get(path)
        assert plain.body == fixed and "Content-Encoding" not in plain.headers
        assert int(plain.headers["Content-Length"]) == len(fixed)
        assert plain.headers["Content-Type"].startswith("text/javascript")
        ranged = await get(path, **{"Range": f"bytes={len(fixed) - 60}-"})
        assert ranged.code == 206 and ranged.body == fixed[-60:]
        for copy in COPIES.folder().iterdir():  # gone behind the server's back: made again
            copy.unlink()
        again = await get(path)
        assert again.body == fixed

    serve(run_coroutine, folder, scenario)
