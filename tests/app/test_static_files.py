"""The front end's files (tutor/app/static_files.py): a gzip copy for a browser that accepts
it, the file itself for one that does not or asks for a byte range, and the year-long
cache only for an address that changes with the file. Served here by tornado's own static
file handler with the tutor's mixin, over HTTP; the app's real files in
tests/browser/test_app_security.py."""

from __future__ import annotations

import gzip
import os
import tempfile
from pathlib import Path

import tornado.web
from tornado.httpclient import HTTPResponse
from tornado.testing import AsyncHTTPTestCase

from tutor.app.static_files import COPIES, IMMUTABLE, compressed

SCRIPT = "".join(
    f"export const card{n} = {{ suit: 'spades', rank: {n % 13} }};\n" for n in range(400)
)


class StaticFilesTest(AsyncHTTPTestCase):
    def get_app(self) -> tornado.web.Application:
        self.folder = Path(tempfile.mkdtemp())
        self.addCleanup(lambda: [p.unlink() for p in self.folder.iterdir()] and None)
        (self.folder / "app.js").write_text(SCRIPT)
        (self.folder / "5764.voila.js").write_text(SCRIPT)
        (self.folder / "7.2a0ce575775f5aad.js").write_text(SCRIPT)
        (self.folder / "tiny.css").write_text("body { margin: 0 }\n")
        (self.folder / "card.png").write_bytes(os.urandom(4096))
        handler = compressed(tornado.web.StaticFileHandler)
        return tornado.web.Application([(r"/static/(.*)", handler, {"path": str(self.folder)})])

    def get(self, path: str, **headers: str) -> HTTPResponse:
        return self.fetch(path, headers=headers, decompress_response=False, raise_error=False)

    def test_a_browser_accepting_gzip_gets_the_files_bytes_compressed(self) -> None:
        response = self.get("/static/app.js", **{"Accept-Encoding": "gzip, deflate, br"})
        assert response.code == 200
        assert response.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(response.body) == SCRIPT.encode()
        assert len(response.body) < len(SCRIPT) / 4
        assert int(response.headers["Content-Length"]) == len(response.body)
        assert response.headers["Content-Type"].startswith("text/javascript")
        assert response.headers["Vary"] == "Accept-Encoding"

    def test_a_browser_without_gzip_or_asking_for_a_range_gets_the_file_as_it_is(self) -> None:
        plain = self.get("/static/app.js")
        assert plain.body == SCRIPT.encode()
        assert "Content-Encoding" not in plain.headers
        assert plain.headers["Vary"] == "Accept-Encoding"  # the answer depends on it
        refused = self.get("/static/app.js", **{"Accept-Encoding": "gzip;q=0, br"})
        assert refused.body == SCRIPT.encode()
        ranged = self.get("/static/app.js", **{"Accept-Encoding": "gzip", "Range": "bytes=0-99"})
        assert ranged.code == 206
        assert ranged.body == SCRIPT.encode()[:100]
        assert "Content-Encoding" not in ranged.headers

    def test_the_two_forms_have_their_own_etag_and_each_revalidates(self) -> None:
        zipped = self.get("/static/app.js", **{"Accept-Encoding": "gzip"})
        plain = self.get("/static/app.js")
        assert zipped.headers["Etag"] != plain.headers["Etag"]
        again = self.get(
            "/static/app.js", **{"Accept-Encoding": "gzip", "If-None-Match": zipped.headers["Etag"]}
        )
        assert again.code == 304

    def test_small_files_and_pictures_go_as_they_are(self) -> None:
        for name in ("tiny.css", "card.png"):
            response = self.get(f"/static/{name}", **{"Accept-Encoding": "gzip"})
            assert response.body == (self.folder / name).read_bytes(), name
            assert "Content-Encoding" not in response.headers, name

    def test_a_changed_file_gets_a_new_copy(self) -> None:
        first = self.get("/static/app.js", **{"Accept-Encoding": "gzip"})
        changed = SCRIPT.replace("spades", "hearts")
        path = self.folder / "app.js"
        path.write_text(changed)
        stat = path.stat()
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
        second = self.get("/static/app.js", **{"Accept-Encoding": "gzip"})
        assert gzip.decompress(first.body) == SCRIPT.encode()
        assert gzip.decompress(second.body) == changed.encode()

    def test_only_addresses_that_change_with_the_file_are_cached_for_good(self) -> None:
        versioned = self.get("/static/app.js?v=3f2a9c", **{"Accept-Encoding": "gzip"})
        hashed = self.get("/static/7.2a0ce575775f5aad.js")
        assert versioned.headers["Cache-Control"] == IMMUTABLE
        assert "Expires" not in versioned.headers
        assert hashed.headers["Cache-Control"] == IMMUTABLE
        for path in ("/static/app.js", "/static/5764.voila.js"):  # names without a hash
            assert "immutable" not in self.get(path).headers.get("Cache-Control", ""), path

    def test_a_path_out_of_the_folder_is_refused_without_a_copy(self) -> None:
        made = len(list(COPIES.folder().iterdir()))
        response = self.get("/static/..%2F..%2Fetc%2Fpasswd", **{"Accept-Encoding": "gzip"})
        assert response.code in (403, 404)
        assert b"Traceback" not in response.body
        assert len(list(COPIES.folder().iterdir())) == made

    def test_a_copy_removed_behind_the_servers_back_is_made_again(self) -> None:
        first = self.get("/static/app.js", **{"Accept-Encoding": "gzip"})
        assert first.headers["Content-Encoding"] == "gzip"
        for copy in COPIES.folder().iterdir():
            copy.unlink()
        meanwhile = self.get("/static/app.js", **{"Accept-Encoding": "gzip"})
        assert meanwhile.code == 200 and meanwhile.body == SCRIPT.encode()  # as it is
        again = self.get("/static/app.js", **{"Accept-Encoding": "gzip"})
        assert again.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(again.body) == SCRIPT.encode()
