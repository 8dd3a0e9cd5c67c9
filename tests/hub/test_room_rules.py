"""The live room's rules on the hub (tutor/hub/room_service.py), fast: the service's room
routes in a tornado server of the test, with the hub's login stood in for by a header (who
the hub says asks: ``X-Test-Login``) and its XSRF check by a header that must be present
(``X-Test-Xsrf``). What is checked is the service's own part: a learner is their login and
answers for themselves only, only a teacher controls the room, malformed requests get
JSON errors naming the value and the rule, answers are rate-limited. The hub's real login
and XSRF check are tests/hub/test_room_hub.py's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import tornado.httpclient
import tornado.testing
import tornado.web
from sqlalchemy import create_engine
from web.test_room import ONE, a_wrong_index, engine_answer, key

from tutor.hub.room_service import HubRoomMixin, HubRooms, room_routes
from tutor.teaching.text import LANGUAGES, text

PREFIX = "/services/class-results/"
TEACHERS = {"teach"}


class StandIn:
    """The hub's part, stood in for: who asks, and whether the XSRF token came."""

    @staticmethod
    def get_current_user(handler: Any) -> dict[str, str] | None:
        name = handler.request.headers.get("X-Test-Login")
        return {"name": name, "kind": "user"} if name else None

    @staticmethod
    def check_xsrf_cookie(handler: Any) -> None:
        if not handler.request.headers.get("X-Test-Xsrf"):
            raise tornado.web.HTTPError(403, "'_xsrf' argument missing from POST")


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setattr(HubRoomMixin, "get_current_user", StandIn.get_current_user)
    monkeypatch.setattr(HubRoomMixin, "check_xsrf_cookie", StandIn.check_xsrf_cookie)
    monkeypatch.setattr(HubRoomMixin, "xsrf_token", property(lambda handler: b"test-token"))

    async def is_teacher(name: str) -> bool:
        return name in TEACHERS

    engine = create_engine(f"sqlite:///{tmp_path / 'class-results.sqlite'}")
    rooms = HubRooms(engine, PREFIX)
    app = tornado.web.Application(room_routes(PREFIX, rooms, is_teacher))

    class Case(tornado.testing.AsyncHTTPTestCase):
        def get_app(self) -> tornado.web.Application:
            return app

        def runTest(self) -> None:
            pass

    # The server runs on a thread of its own: tornado's test case runs its event loop with
    # run_sync, which asyncio refuses in a thread where a loop is already running (the
    # session's Playwright browser runs one in the main thread once browser tests ran).
    with ThreadPoolExecutor(1) as thread:
        case = Case()
        thread.submit(case.setUp).result()
        yield OnItsThread(case, thread)
        thread.submit(case.tearDown).result()


class OnItsThread:
    """The test case's ``fetch``, called on the thread its event loop belongs to."""

    def __init__(self, case: tornado.testing.AsyncHTTPTestCase, thread: ThreadPoolExecutor):
        self.case = case
        self.thread = thread

    def fetch(self, path: str, **options: Any) -> tornado.httpclient.HTTPResponse:
        return self.thread.submit(self.case.fetch, path, **options).result()


def call(
    service: Any, method: str, path: str, login: str | None, body: object = None, **kw: Any
) -> tuple[int, Any]:
    headers = {"X-Test-Xsrf": "1", **({"X-Test-Login": login} if login else {})}
    headers.update(kw.get("headers", {}))
    raw = body if isinstance(body, str) else None if body is None else json.dumps(body)
    response = service.fetch(
        PREFIX + "room/" + path, method=method, body=raw, headers=headers, raise_error=False
    )
    try:
        return response.code, json.loads(response.body)
    except ValueError:
        return response.code, response.body.decode()


def open_question(service: Any) -> str:
    status, state = call(service, "POST", "api/open", "teach", {"lesson": ONE[0], "item": ONE[1]})
    assert status == 200, state
    return str(state["code"])


def test_a_learner_is_their_login_and_answers_for_themselves_only(service: Any) -> None:
    code = open_question(service)
    for name in ("aiko", "ben"):
        status, joined = call(service, "POST", f"{code}/api/join", name, {})
        assert (status, joined) == (201, {"learner": f"hub:{name}", "nickname": name})
    right = engine_answer(*ONE)
    status, reply = call(
        service,
        "POST",
        f"{code}/api/answer",
        "ben",
        {"learner": "hub:aiko", "question": key(ONE), "answer": right},
    )
    assert (status, reply["error"]["code"]) == (403, "unknown-learner")
    status, reply = call(service, "GET", f"{code}/api/state?learner=hub:aiko", "ben")
    assert (status, reply["error"]["code"]) == (403, "unknown-learner")
    status, reply = call(
        service,
        "POST",
        f"{code}/api/answer",
        None,
        {"learner": "hub:aiko", "question": key(ONE), "answer": right},
    )
    assert (status, reply["error"]["code"]) == (403, "unknown-learner")  # no login, no learner
    status, reply = call(
        service,
        "POST",
        f"{code}/api/answer",
        "aiko",
        {"learner": "hub:aiko", "question": key(ONE), "answer": right},
    )
    assert status == 200 and reply["first"] is True
    status, mine = call(service, "GET", f"{code}/api/state?learner=hub:aiko&lang=ja", "aiko")
    assert status == 200 and mine["my_answer"] == right and mine["nickname"] == "aiko"
    status, state = call(service, "GET", "api/state", "teach")
    assert state["answered"] == 1 and [p["nickname"] for p in state["learners"]] == ["aiko", "ben"]


def test_only_a_teacher_controls_the_room_and_their_posts_need_the_xsrf_token(
    service: Any,
) -> None:
    code = open_question(service)
    for path in ("api/state", "api/questions", "summary", "summary.csv", "qr.svg"):
        status, reply = call(service, "GET", path, "aiko")
        assert (status, reply["error"]["code"]) == (403, "not-teacher"), path
    for action in ("reveal", "reopen", "close", "counts"):
        status, reply = call(service, "POST", f"api/{action}", "aiko", {"shown": False})
        assert (status, reply["error"]["code"]) == (403, "not-teacher"), action
    status, reply = call(service, "POST", "api/reveal", "teach", {}, headers={"X-Test-Xsrf": ""})
    assert (status, reply["error"]["code"]) == (403, "xsrf")
    status, state = call(service, "GET", "api/state", "teach")
    assert state["phase"] == "open" and state["code"] == code  # nothing changed
    assert call(service, "GET", "api/probe", "aiko")[1]["teacher"] is False
    assert call(service, "GET", "api/probe", "teach")[1]["state"]["code"] == code


def test_each_teacher_has_their_own_room(service: Any) -> None:
    TEACHERS.add("mina")
    try:
        teach = open_question(service)
        status, mina = call(service, "GET", "api/state", "mina")
        assert status == 200 and mina["code"] != teach and mina["question"] is None
        assert mina["join"].endswith(f"{PREFIX}room/{mina['code']}")
    finally:
        TEACHERS.discard("mina")


def test_the_join_address_is_the_hubs_public_address_never_this_machines_own(
    service: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The join address (and QR code) is the hub's as the class reaches it: the address the
    teacher's browser used, as a proxy forwards it, or the configured public URL over
    both; on an address only this machine opens, the projector says so and names the
    setting that fixes it (TUTOR_HUB_PUBLIC_URL), in the teacher's language."""
    room = f"{PREFIX}room/"

    def join(headers: dict[str, str], lang: str = "en") -> tuple[str, str | None]:
        status, state = call(service, "GET", f"api/state?lang={lang}", "teach", headers=headers)
        assert status == 200, state
        return state["join"].removesuffix(state["code"]), state["join_warning"]

    assert join({"Host": "tutor.school.example:8000"}) == (
        f"http://tutor.school.example:8000{room}",
        None,
    )
    behind_proxy = {
        "Host": "127.0.0.1:8000",
        "X-Forwarded-Host": "hub.school.example, 10.0.0.5:8000",
        "X-Forwarded-Proto": "https, http",
    }
    assert join(behind_proxy) == (f"https://hub.school.example{room}", None)
    status, qr = call(service, "GET", "qr.svg", "teach", headers=behind_proxy)
    assert status == 200 and f"https://hub.school.example{room}" in qr  # its title
    for lang in LANGUAGES:
        for local in ("127.0.0.1:8000", "localhost:8000"):
            address, warning = join({"Host": local}, lang)
            assert address == f"http://{local}{room}"
            assert warning is not None and text("projector.join-local", lang) in warning
            assert "TUTOR_HUB_PUBLIC_URL=http://" in warning
            suggested = warning.split("TUTOR_HUB_PUBLIC_URL=")[1].split()[0]
            assert "127.0.0.1" not in suggested and "localhost" not in suggested

    monkeypatch.setenv("JUPYTERHUB_PUBLIC_URL", "https://class.example.org:8443/services/x/")
    assert join({"Host": "127.0.0.1:8000"}) == (f"https://class.example.org:8443{room}", None)


def test_malformed_requests_get_json_errors_naming_the_value_and_the_rule(service: Any) -> None:
    code = open_question(service)
    call(service, "POST", f"{code}/api/join", "aiko", {})
    answer = f"{code}/api/answer"
    status, reply = call(service, "POST", answer, "aiko", "[1, 2")
    assert (status, reply["error"]["code"]) == (400, "bad-json")
    status, reply = call(
        service, "POST", answer, "aiko", {"learner": "hub:aiko", "question": key(ONE), "answer": 99}
    )
    assert (status, reply["error"]["code"]) == (400, "bad-field")
    assert "99" in reply["error"]["message"] and "give 0 to" in reply["error"]["message"]
    status, reply = call(
        service, "POST", answer, "aiko", {"learner": "hub:aiko", "question": "01_x/y", "answer": 0}
    )
    assert (status, reply["error"]["code"]) == (409, "not-open")
    status, reply = call(service, "POST", "api/open", "teach", {"lesson": "../etc", "item": "x"})
    assert (status, reply["error"]["code"]) == (400, "bad-field") and "../etc" in reply["error"][
        "message"
    ]
    status, reply = call(service, "POST", answer, "aiko", "x" * 5000)
    assert (status, reply["error"]["code"]) == (413, "too-large")
    status, reply = call(service, "GET", "ZZZZ/api/state?learner=hub:aiko", "aiko")
    assert (status, reply["error"]["code"]) == (404, "unknown-room")
    status, state = call(service, "GET", "api/state", "teach")
    assert state["answered"] == 0  # none of it was counted


def test_answers_are_rate_limited_per_learner(service: Any) -> None:
    code = open_question(service)
    call(service, "POST", f"{code}/api/join", "aiko", {})
    wrong, right = a_wrong_index(*ONE), engine_answer(*ONE)
    statuses = []
    for number in range(9):
        body = {
            "learner": "hub:aiko",
            "question": key(ONE),
            "answer": right if number % 2 else wrong,
        }
        status, reply = call(service, "POST", f"{code}/api/answer", "aiko", body)
        statuses.append(status)
    assert statuses == [200] * 8 + [429]
    assert reply["error"]["code"] == "too-many"
    status, reply = call(service, "POST", f"{code}/api/join", "ben", {})
    assert status == 201  # another learner is not slowed down by aiko
