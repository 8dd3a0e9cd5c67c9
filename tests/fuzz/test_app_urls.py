"""The app's addresses and query strings (``wizard-tutor app``, one app for the session:
the ``app`` fixture of tests/conftest.py): every request gets an answer with a status,
never a 5xx; a refused one gets a 4xx with the tutor's own page (or the JSON of a JSON
API) and one short line in the server's log, never a traceback; within time bounds, and
the server's memory stays put."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tutor.resources import notebooks_dir

from .app_requests import Reply, ask, rss_megabytes
from .bounds import examples, record

ENTRY = "app URLs and query strings"
SECONDS = 30.0
"""Per request, on a loaded machine (a refusal takes milliseconds)."""
KERNEL = str(uuid.uuid4())
NOTEBOOKS = {path.name for path in notebooks_dir().glob("*.ipynb")}
ACCESS_LINE = re.compile(r"^\d{3} [A-Z]+ \S* \(", re.MULTILINE)


@pytest.fixture(scope="module")
def server(app: Any) -> Iterator[Any]:
    """The session's app; afterwards its log since this module began holds no traceback,
    and its memory grew by less than 64 MB."""
    offset = len(app.log())
    assert app.process is not None
    before = rss_megabytes(app.process.pid)
    yield app
    log = app.log()[offset:]
    assert "Traceback" not in log and "Uncaught exception" not in log, log[-3000:]
    grown = rss_megabytes(app.process.pid) - before
    record(ENTRY + " (server memory)", "growth", 0.0, grown)
    assert grown < 64, f"the server grew by {grown:.0f} MB"


def check(reply: Reply, case: str, *, refused: bool = True) -> None:
    record(ENTRY, case, reply.seconds)
    assert reply.seconds < SECONDS, (case, reply.seconds)
    assert reply.status < 500, (case, reply.status, reply.body[:300])
    assert "Traceback" not in reply.body and "site-packages" not in reply.body, case
    if refused:
        assert 400 <= reply.status < 500 or reply.status in (301, 302), (case, reply.status)
    if 400 <= reply.status < 500 and "text/html" in reply.headers:
        # The tutor's page, not Jupyter's, Voila's or tornado's.
        assert 'class="tutor-error"' in reply.body, (case, reply.body[:300])


def one_log_line(app: Any, offset: int, reply: Reply) -> None:
    """The log since ``offset``: one short line for the refused request of ``reply``
    (none for a redirect, or a request the HTTP layer refused), no traceback."""
    count = 1 if 400 <= reply.status < 500 and not reply.refused_by_http else 0
    deadline = time.monotonic() + 20
    while len(ACCESS_LINE.findall(app.log()[offset:])) < count and time.monotonic() < deadline:
        time.sleep(0.05)  # the server writes its log line after the reply
    log = app.log()[offset:]
    assert "Traceback" not in log and "Uncaught exception" not in log, log[-2000:]
    lines = ACCESS_LINE.findall(log)
    assert len(lines) == count, log[-2000:]
    assert all(len(line) < 400 for line in log.splitlines()), "a log line is not short"


# -- a corpus of nasty addresses ---------------------------------------------------------------

TARGETS: dict[str, bytes] = {
    "NUL before a file type": b"/voila/render/index.ipynb%00.txt",
    "CR LF header injection": b"/voila/render/index.ipynb%0d%0aSet-Cookie:%20x=1",
    "a raw control character": b"/voila/render/a\x01b.ipynb",
    "Voila's query socket": b"/voila/query/abc",
    "a missing notebook": b"/voila/render/nothing.ipynb",
    "dot-dot, encoded": b"/voila/render/%2e%2e/%2e%2e/etc/passwd",
    "dot-dot in files": b"/voila/files/..%2f..%2fetc%2fpasswd",
    "dot-dot in static": b"/voila/static/..%2f..%2fapp.py",
    "a template's outside": b"/voila/templates/tutor/static/..%2f..%2fconf.json",
    "bad percent-encoding": b"/%ff%fe%zz",
    "raw non-ASCII bytes": b"/voila/render/\xff\xfe.ipynb",
    "double slashes": b"//voila//render//index.ipynb/",
    "backslashes": b"/voila\\render\\index.ipynb",
    "an 8 KB path": b"/voila/static/" + b"a" * 8000,
    "a 9 KB address": b"/" + b"a" * 9000,
    "a 100 KB address": b"/" + b"a" * 100_000,
    "a kernel that does not exist": f"/api/kernels/{KERNEL}".encode(),
    "its websocket, no upgrade": f"/api/kernels/{KERNEL}/channels".encode(),
    "no such kernel to shut": f"/voila/api/shutdown/{KERNEL}".encode(),
    "kernel listing": b"/api/kernels",
    "sessions": b"/api/sessions",
    "contents": b"/api/contents",
    "the login page": b"/login",
    "log out": b"/logout",
    "a wrong token": b"/voila/render/nothing.ipynb?token=%00wrong",
    "lang NUL": b"/voila/render/nothing.ipynb?lang=%00",
    "lang 5000 characters": b"/voila/render/nothing.ipynb?lang=" + b"x" * 5000,
    "lang twice": b"/voila/render/nothing.ipynb?lang=ja&lang=zz",
    "lang HTML": b"/voila/render/nothing.ipynb?lang=%3Cscript%3Ealert(1)%3C/script%3E",
    "another template": b"/voila/render/nothing.ipynb?template=reveal&voila-theme=dark",
    "a thousand parameters": b"/voila/render/nothing.ipynb?" + b"&".join([b"a=1"] * 1000),
    "broken query": b"/voila/render/nothing.ipynb?%%%&&==&=a=b",
    "an absolute URL": b"http://attacker.example/voila/render/index.ipynb",
    "an asterisk": b"*",
}


@pytest.mark.parametrize("target", TARGETS.values(), ids=TARGETS.keys())
def test_a_nasty_address_gets_a_4xx_and_the_tutors_page(server: Any, target: bytes) -> None:
    offset = len(server.log())
    reply = ask(server.port, target)
    check(reply, repr(target[:60]))
    one_log_line(server, offset, reply)


REQUESTS: dict[str, tuple[bytes, bytes, bytes | None, bytes]] = {
    # method, target, headers (None: just the Host), body
    "DELETE": (b"DELETE", b"/", None, b""),
    "PUT a page": (b"PUT", b"/voila/render/index.ipynb", None, b"x"),
    "a made-up method": (b"FROB", b"/", None, b""),
    "TRACE": (b"TRACE", b"/", None, b""),
    "POST a shutdown without the cookie": (
        b"POST",
        f"/voila/api/shutdown/{KERNEL}".encode(),
        None,
        b"",
    ),
    "POST the login form": (b"POST", b"/login", None, b"password=x&new_password=y"),
    "no Host": (b"GET", b"/", b"", b""),
    "someone else's Host": (b"GET", b"/", b"Host: attacker.example\r\n", b""),
    "a Host of 5000 characters": (b"GET", b"/", b"Host: " + b"h" * 5000 + b"\r\n", b""),
    "a 100 KB header": (
        b"GET",
        b"/",
        b"Host: 127.0.0.1\r\nX-Big: " + b"a" * 100_000 + b"\r\n",
        b"",
    ),
    "a thousand cookies": (
        b"GET",
        b"/voila/render/nothing.ipynb",
        b"Host: 127.0.0.1\r\nCookie: "
        + b"; ".join(b"c%d=%d" % (i, i) for i in range(1000))
        + b"\r\n",
        b"",
    ),
    "a broken _xsrf cookie": (
        b"GET",
        b"/voila/render/nothing.ipynb",
        b"Host: 127.0.0.1\r\nCookie: _xsrf=2|zz|\x01|" + b"9" * 5000 + b"\r\n",
        b"",
    ),
    "a websocket upgrade to no kernel": (
        b"GET",
        f"/api/kernels/{KERNEL}/channels".encode(),
        b"Host: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n",
        b"",
    ),
    "a websocket upgrade from another site": (
        b"GET",
        f"/api/kernels/{KERNEL}/channels".encode(),
        b"Host: 127.0.0.1\r\nOrigin: http://attacker.example\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        b"Sec-WebSocket-Version: 13\r\n",
        b"",
    ),
    "Accept-Language garbage": (
        b"GET",
        b"/no/such",
        b"Host: 127.0.0.1\r\nAccept-Language: " + b"\xff;q=zz," * 500 + b"\r\n",
        b"",
    ),
}


@pytest.mark.parametrize("method, target, headers, body", REQUESTS.values(), ids=REQUESTS.keys())
def test_a_nasty_request_gets_a_4xx(
    server: Any, method: bytes, target: bytes, headers: bytes | None, body: bytes
) -> None:
    offset = len(server.log())
    if headers is not None and headers.startswith(b"Host: 127.0.0.1\r\n"):
        headers = headers.replace(b"127.0.0.1", f"127.0.0.1:{server.port}".encode(), 1)
    reply = ask(server.port, target, method=method, headers=headers, body=body)
    check(reply, f"{method!r} {target[:40]!r} {(headers or b'')[:40]!r}")
    one_log_line(server, offset, reply)


def test_a_page_with_a_nasty_query_is_still_the_page(server: Any) -> None:
    """Two real pages (each starts a kernel): an unknown language is English."""
    for query in (
        "lang=%3Cscript%3Ealert(1)%3C/script%3E&present=%00",
        "lang=" + "x" * 3000 + "&" + "b=2&" * 200,
    ):
        reply = ask(server.port, f"/voila/render/08_worked_example.ipynb?{query}".encode())
        check(reply, query[:40], refused=False)
        assert reply.status == 200 and "tutor-page" in reply.body
        assert "<script>alert(1)" not in reply.body


# -- generated addresses -----------------------------------------------------------------------

PREFIXES = [
    "/",
    "/voila/render/",
    "/voila/static/",
    "/voila/templates/",
    "/voila/templates/tutor/static/",
    "/voila/files/",
    "/voila/tree/",
    "/api/kernels/",
    "/voila/api/shutdown/",
    "/voila/api/themes/",
    "/login/",
    "/static/",
]
_PART = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40)


@examples(80)
@given(
    prefix=st.sampled_from(PREFIXES),
    parts=st.lists(
        _PART | st.sampled_from(["..", ".", "", "index.ipynb", "%00", "%2f"]), max_size=5
    ),
    query=st.lists(st.tuples(_PART, _PART), max_size=6),
    suffix=st.sampled_from(["", ".ipynb", ".py", ".png", "/"]),
)
def test_any_address_gets_an_answer_never_a_5xx(
    server: Any, prefix: str, parts: list[str], query: list[tuple[str, str]], suffix: str
) -> None:
    path = prefix + "/".join(quote(part, safe="%.") for part in parts) + suffix
    assume(not any(path.endswith(name) for name in NOTEBOOKS))  # a real page starts a kernel
    target = path + ("?" + "&".join(f"{quote(k)}={quote(v)}" for k, v in query) if query else "")
    reply = ask(server.port, target.encode())
    check(reply, target, refused=False)
