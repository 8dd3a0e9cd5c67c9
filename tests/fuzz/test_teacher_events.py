"""The teacher page's events API (``POST <prefix>api/events`` of
:mod:`tutor.hub.teacher_service`), in-process over HTTP: the service's own application,
its database in a tmp folder, and the hub's part (who holds which token) played by a
stand-in for ``get_current_user``. Whatever a learner's server (or a learner holding its
token) posts gets a JSON answer with a message, a 4xx for what is refused, never a 5xx or
a traceback, within time and memory bounds; a refused report keeps nothing."""

from __future__ import annotations

import http.client
import json
import logging
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from threaded_server import serving

from tutor.hub import teacher_service
from tutor.hub.class_events import EventStore
from tutor.hub.teacher_service import MAX_BODY_BYTES, MAX_EVENTS_PER_REPORT, make_app
from tutor.teaching.lesson_loader import list_lessons

from .bounds import bounded, examples, load_per_core, load_scaled

ENTRY = "teacher page's events API"
PREFIX = "/services/class-results/"
SECONDS, MEGABYTES = 20.0, 64.0
LEARNER, OTHER_SERVICE = "token ada-server", "token some-service"


def fake_current_user(handler: Any) -> dict[str, str] | None:
    """The hub's answer for the request's token: ada's server, a service, or nobody."""
    token = handler.request.headers.get("Authorization", "")
    return {
        LEARNER: {"name": "ada", "kind": "user"},
        OTHER_SERVICE: {"name": "x", "kind": "service"},
    }.get(token)


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, EventStore]]:
    """The service on a free port of 127.0.0.1, in a thread of its own."""
    patch = pytest.MonkeyPatch()
    patch.setattr(teacher_service.EventsAPI, "get_current_user", fake_current_user)
    folder: Path = tmp_path_factory.mktemp("class")
    store = EventStore(f"sqlite:///{folder / 'class-results.sqlite'}")
    with serving(make_app(store, list_lessons(), PREFIX), max_body_size=MAX_BODY_BYTES) as port:
        yield port, store
    patch.undo()


def post(
    port: int, body: bytes, *, token: str | None = LEARNER, headers: dict[str, str] | None = None
) -> tuple[int, str, float]:
    import time

    # (the socket's own timeout: far past the bound, which bounded() checks)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=load_scaled(SECONDS) * 2)
    sent = {"Content-Type": "application/json", **(headers or {})}
    if token:
        sent["Authorization"] = token
    start = time.perf_counter()
    # The service runs in this process: its allocations are traced too.
    with bounded(ENTRY, repr(body[:60]), seconds=SECONDS, megabytes=MEGABYTES):
        try:
            connection.request("POST", PREFIX + "api/events", body=body, headers=sent)
            response = connection.getresponse()
            status, text = response.status, response.read().decode("utf-8", errors="replace")
        except (ConnectionResetError, BrokenPipeError):
            status, text = 400, "(the server closed the connection: the body was too big)"
        finally:
            connection.close()
    return status, text, time.perf_counter() - start


def check(
    case: str, status: int, text: str, seconds: float, *, accepted: bool | None = False
) -> None:
    # Wall-clock, so scaled by the load (bounded() also holds the case to SECONDS of CPU).
    assert seconds < load_scaled(SECONDS), (case, seconds, f"load {load_per_core():.1f} per core")
    assert status < 500, (case, status, text[:300])
    assert "Traceback" not in text and "site-packages" not in text, case
    if accepted is not None:
        assert (status == 200) == accepted, (case, status, text[:300])
    if status != 200 and text.startswith("{"):
        answer = json.loads(text)
        assert answer["status"] == status and answer["message"], answer
        assert len(answer["message"]) < 2000


def event(**fields: object) -> dict[str, object]:
    base: dict[str, object] = {
        "v": 1,
        "id": uuid.uuid4().hex,
        "time": "2026-12-01T10:00:00Z",
        "kind": "practice",
        "lesson": None,
        "item": None,
        "topic": "trick-winner",
        "correct": True,
        "first_try": True,
    }
    base.update(fields)
    return base


def report(*events: object) -> bytes:
    return json.dumps({"events": list(events)}).encode()


BODIES: dict[str, bytes] = {
    "not JSON": b"events please",
    "empty": b"",
    "not UTF-8": b'{"events": ["\xff\xfe"]}',
    "JSON but a list": b"[1, 2, 3]",
    "JSON null": b"null",
    "events not a list": b'{"events": {"a": 1}}',
    "no events key": b'{"evnts": []}',
    "100,000 nested arrays": b'{"events": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "a number of 5000 digits": b'{"events": [' + b"9" * 5000 + b"]}",
    "a NaN": b'{"events": [NaN]}',
    "an event that is text": report("quiz"),
    "an event of a later version": report(event(v=99)),
    "an event of version 0": report(event(v=0)),
    "a version of 5000 digits": b'{"events": [{"v": ' + b"9" * 5000 + b"}]}",
    "an id that is not hex": report(event(id="../../etc/passwd")),
    "a time that is not a time": report(event(time="yesterday")),
    "a time of 10,000 characters": report(event(time="2026" + "9" * 10_000)),
    "an unknown kind": report(event(kind="exam")),
    "an unknown topic": report(event(topic="x" * 100_000)),
    "correct as a number": report(event(correct=1)),
    "a practice naming a lesson": report(event(lesson="06_trick_winner")),
    "a quiz without an item": report(event(kind="quiz", lesson="06_trick_winner")),
    "a quiz of a lesson id with a path": report(event(kind="quiz", lesson="../06", item="a")),
    "one good event, one bad": report(event(), event(kind="exam")),
    "too many events": report(*[event() for _ in range(MAX_EVENTS_PER_REPORT + 1)]),
    "a body over the limit": b'{"events": ["' + b"x" * (MAX_BODY_BYTES + 10) + b'"]}',
}


@pytest.mark.parametrize("body", BODIES.values(), ids=BODIES.keys())
def test_a_nasty_report_is_refused_with_a_message_and_keeps_nothing(
    service: tuple[int, EventStore], caplog: pytest.LogCaptureFixture, body: bytes
) -> None:
    port, store = service
    kept = store.events_by_learner()
    status, text, seconds = post(port, body)
    check(repr(body[:40]), status, text, seconds)
    assert 400 <= status < 500
    assert store.events_by_learner() == kept
    assert not [r for r in caplog.records if r.exc_info], "a traceback in the service's log"


def test_who_may_report(service: tuple[int, EventStore]) -> None:
    port, _ = service
    for token, headers in (
        (None, {}),  # nobody
        (OTHER_SERVICE, {}),  # not a learner's server
        ("token " + "x" * 10_000, {}),
        (None, {"Cookie": "jupyterhub-session-id=abc; _xsrf=" + "9" * 5000}),
    ):
        status, text, seconds = post(port, report(event()), token=token, headers=headers)
        check(f"token {str(token)[:20]}", status, text, seconds)
        assert status == 403, (token, status, text[:200])


def test_a_good_report_is_kept_once(service: tuple[int, EventStore]) -> None:
    port, store = service
    body = report(
        event(), event(kind="quiz", lesson="06_trick_winner", item="quiz-a", first_try=False)
    )
    for new in (2, 0):
        status, text, seconds = post(port, body)
        check("a good report", status, text, seconds, accepted=True)
        assert json.loads(text) == {"received": 2, "new": new}
    assert len(store.events_by_learner()["ada"]) >= 2


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=15,
)
_FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "v": st.sampled_from([1, 2, "1", None]) | _JSON,
        "id": st.just(uuid.uuid4().hex) | st.text(max_size=40),
        "time": st.sampled_from(["2026-12-01T10:00:00Z", "2026-13-45T99:00:00", ""])
        | st.text(max_size=30),
        "kind": st.sampled_from(["quiz", "practice", "reset", "exam"]) | _JSON,
        "lesson": st.sampled_from(["06_trick_winner", None, "../x"]) | _JSON,
        "item": st.sampled_from(["quiz-a", None, ""]) | _JSON,
        "topic": st.sampled_from(["trick-winner", "nope"]) | _JSON,
        "correct": st.booleans() | _JSON,
        "first_try": st.booleans() | _JSON,
    },
)


@examples(120)
@given(events=st.lists(_FIELDS | _JSON, max_size=5), wrapper=st.sampled_from(["events", "other"]))
def test_any_report_is_answered_with_json_never_a_5xx(
    service: tuple[int, EventStore],
    caplog: pytest.LogCaptureFixture,
    events: list[object],
    wrapper: str,
) -> None:
    caplog.set_level(logging.INFO)
    port, _ = service
    status, text, seconds = post(port, json.dumps({wrapper: events}).encode())
    check(json.dumps(events)[:60], status, text, seconds, accepted=None)
    assert status in (200, 400, 413), (status, text[:200])
    assert not [r for r in caplog.records if r.exc_info], "a traceback in the service's log"
