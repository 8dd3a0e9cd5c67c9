"""The live room's HTTP API (docs/live-room.md) through its own handlers in a thread: the
teacher's cookie and XSRF check, learners who can only answer for themselves, malformed
requests, the event streams. The real app's routes are tests/browser/test_room_phone.py's."""

from __future__ import annotations

import re
import shutil
import threading
from collections.abc import Iterator
from html import escape
from pathlib import Path
from typing import Any

import pytest
from browser.room_client import Client, EventReader, LearnerClient, RoomServer

from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.text import text
from tutor.web import room_server
from tutor.web.room_server import MAX_BODY, STATIC, TEACHER_COOKIE, RoomFiles

from .test_room import ONE, a_wrong_index, engine_answer, key

TEACHER_ROUTES = [
    ("GET", "/room/api/state"),
    ("GET", "/room/api/questions"),
    ("GET", "/room/api/events"),
    ("GET", "/room/qr.svg"),
    ("GET", "/room/summary"),
    ("GET", "/room/summary.csv"),
    ("POST", "/room/api/open"),
    ("POST", "/room/api/reveal"),
    ("POST", "/room/api/reopen"),
    ("POST", "/room/api/close"),
    ("POST", "/room/api/counts"),
]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RoomServer]:
    running = RoomServer(tmp_path / "room.sqlite3").start()
    yield running
    running.stop()


def error_code(reply: Any) -> str:
    assert isinstance(reply, dict), reply
    return str(reply["error"]["code"])


@pytest.mark.parametrize(("method", "path"), TEACHER_ROUTES)
def test_no_teacher_route_answers_without_the_teachers_cookie(
    server: RoomServer, method: str, path: str
) -> None:
    body = {"lesson": ONE[0], "item": ONE[1]} if method == "POST" else None
    learner = server.learner("Aiko")  # a learner's key is no teacher's
    learner.headers["Cookie"] = f"{TEACHER_COOKIE}={server.teacher.session}"  # not signed: forged
    for client in (Client(server.base), learner):
        status, reply, _ = client.call(method, path, body)
        assert (status, error_code(reply)) == (403, "not-teacher")
    assert server.room.current is None and server.room.version == 1  # the join only


def test_the_projectors_probe_answers_200_to_anyone_and_the_state_only_to_the_teacher(
    server: RoomServer,
) -> None:
    """A learner presenting on their own asks the probe too: no refusal in their console."""
    learner = server.learner("Aiko")
    learner.headers["Cookie"] = f"{TEACHER_COOKIE}={server.teacher.session}"  # forged
    for client in (Client(server.base), learner):
        status, reply, _ = client.call("GET", "/room/api/probe?lang=ja")
        assert (status, reply) == (200, {"teacher": False})
    status, reply, _ = server.teacher_client().call("GET", "/room/api/probe?lang=ja")
    assert status == 200 and reply["teacher"] is True
    assert reply["state"]["code"] == server.room.code
    assert reply["state"]["learners"] == [{"nickname": "Aiko", "answered": False}]


def test_the_start_address_needs_the_teachers_key(server: RoomServer) -> None:
    client = Client(server.base)
    key = server.teacher.key
    other_last = "y" if key.endswith("x") else "x"  # (a key may end in x: 1 run in 64 did)
    for wrong in ("", "?key=", f"?key={key[:-1]}{other_last}", f"?key={server.room.code}"):
        status, page, _ = client.call("GET", f"/room/teacher{wrong}")
        assert status == 403 and "<html" in page
        assert client.cookie(TEACHER_COOKIE) is None
    status, _, headers = client.call("GET", f"/room/teacher?key={server.teacher.key}")
    assert status == 302
    assert headers["Location"] == "/voila/render/index.ipynb?present=1&token=classroom-token"
    cookie = next(cookie for cookie in client.jar if cookie.name == TEACHER_COOKIE)
    assert cookie.has_nonstandard_attr("HttpOnly")
    assert cookie.get_nonstandard_attr("SameSite") == "Strict"
    assert cookie.value is not None and server.teacher.key not in cookie.value  # not the key
    assert client.call("GET", "/room/api/state")[0] == 200


def test_a_teacher_post_needs_the_xsrf_header(server: RoomServer) -> None:
    teacher = server.teacher_client()
    del teacher.headers["X-XSRFToken"]
    status, reply, _ = teacher.call("POST", "/room/api/open", {"lesson": ONE[0], "item": ONE[1]})
    assert (status, error_code(reply)) == (403, "xsrf")
    teacher.headers["X-XSRFToken"] = "2|00000000|" + "0" * 32 + "|1"
    assert teacher.call("POST", "/room/api/open", {"lesson": ONE[0], "item": ONE[1]})[0] == 403
    assert server.room.current is None


def test_a_lesson_through_the_api(server: RoomServer) -> None:
    teacher = server.teacher_client()
    listed = teacher.call("GET", "/room/api/questions?lang=ja")[1]
    lesson = next(entry for entry in listed if entry["lesson"] == ONE[0])
    assert ONE[1] in [item["item"] for item in lesson["items"]]
    state = teacher.act("open", {"lesson": ONE[0], "item": ONE[1]})
    assert state["phase"] == "open" and state["question"]["key"] == key(ONE)
    right, wrong = engine_answer(*ONE), a_wrong_index(*ONE)
    learners = [server.learner(f"p{n}") for n in range(3)]
    for learner, answer in zip(learners, (right, wrong, right), strict=True):
        status, reply, _ = learner.answer(key(ONE), answer)
        assert status == 200 and reply["answer"] == answer and reply["first"] is True
        assert reply["version"] == server.room.version
    state = teacher.call("GET", "/room/api/state")[1]
    assert (state["present"], state["answered"], state["right"]) == (3, 3, 2)
    assert [p["answered"] for p in state["learners"]] == [True, True, True]
    assert learners[0].state()["reveal"] is None
    teacher.act("reveal")
    reveal = learners[1].state("ja")["reveal"]
    assert reveal["correct"] is False and reveal["right_answer"] == right
    assert reveal["answered"] == 3
    status, reply, _ = learners[1].answer(key(ONE), right)  # too late
    assert (status, error_code(reply)) == (409, "not-open")
    teacher.act("counts", {"shown": False})
    assert "counts" not in learners[1].state()["reveal"]
    teacher.act("close")
    assert learners[0].state()["question"] is None
    status, csv_text, headers = teacher.call("GET", "/room/summary.csv")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    assert csv_text.splitlines()[1].startswith(f"{ONE[0]},{ONE[1]},")
    status, page, _ = teacher.call("GET", "/room/summary?lang=ja")
    prompt = load_lesson(ONE[0]).item(ONE[1]).question.prompt("ja")
    assert status == 200 and prompt in page
    assert text("room.summary-right-first", "ja") in page
    assert "<td>3</td><td>2</td>" in page  # answered 3, right at the first answer 2
    status, svg, headers = teacher.call("GET", "/room/qr.svg")
    assert headers["Content-Type"] == "image/svg+xml" and svg.startswith("<svg")
    assert server.room.join in svg  # its title: the address it encodes


def test_a_learner_cannot_answer_for_another(server: RoomServer) -> None:
    server.teacher_client().act("open", {"lesson": ONE[0], "item": ONE[1]})
    aiko, ben = server.learner("Aiko"), server.learner("Ben")
    aiko.answer(key(ONE), 0)
    impostor = LearnerClient(server.base, server.room.code)
    for forged in ("", ben.key[:-1] + ("A" if ben.key[-1] != "A" else "B"), None, 7):
        impostor.key = forged  # type: ignore[assignment]
        status, reply, _ = impostor.call(
            "POST",
            f"/room/{server.room.code}/api/answer",
            {"learner": forged, "question": key(ONE), "answer": 1},
        )
        assert (status, error_code(reply)) == (403, "unknown-learner")
    assert ben.state()["my_answer"] is None and aiko.state()["my_answer"] == 0
    status, reply, _ = impostor.call("GET", f"/room/{server.room.code}/api/state?learner=not-a-key")
    assert (status, error_code(reply)) == (403, "unknown-learner")


@pytest.mark.parametrize(
    ("raw", "status", "code"),
    [
        (b"{not json", 400, "bad-json"),
        (b"[1, 2]", 400, "bad-json"),
        (b'"text"', 400, "bad-json"),
        (b"[" * 100000 + b"]" * 100000, 413, "too-large"),
        (b'{"learner": "x", "answer": 1, "pad": "' + b"x" * MAX_BODY + b'"}', 413, "too-large"),
        (b'{"question": "06_trick_winner/quiz-trump-led"}', 400, "bad-field"),
    ],
)
def test_a_malformed_request_gets_a_clear_json_error_and_changes_nothing(
    server: RoomServer, raw: bytes, status: int, code: str
) -> None:
    server.teacher_client().act("open", {"lesson": ONE[0], "item": ONE[1]})
    learner = server.learner("Aiko")
    version = server.room.version
    got, reply, _ = learner.call("POST", f"/room/{server.room.code}/api/answer", raw=raw)
    assert (got, error_code(reply)) == (status, code)
    assert reply["error"]["message"]
    assert server.room.version == version and server.room.counts("en")["answered"] == 0


def test_an_unknown_room_code_opens_nothing(server: RoomServer) -> None:
    other = "".join("A" if letter != "A" else "C" for letter in server.room.code)
    client = Client(server.base)
    status, reply, _ = client.call("POST", f"/room/{other}/api/join", {"nickname": "x"})
    assert (status, error_code(reply)) == (404, "unknown-room")
    status, page, _ = client.call("GET", f"/room/{other}?lang=ja")
    assert status == 404 and other in page and "<html" in page
    status, _, headers = client.call("GET", f"/room/{server.room.code.lower()}")
    assert status == 302 and headers["Location"] == f"/room/{server.room.code}"
    assert len(server.room.learners) == 0


@pytest.mark.parametrize(
    ("accept", "query", "lang"),
    [
        ("ja-JP,ja;q=0.9,en;q=0.5", "", "ja"),
        ("zh-TW,zh;q=0.9", "", "zh-Hant"),
        ("ja-JP", "?lang=en", "en"),  # the language the learner chose on the page wins
    ],
)
def test_a_wrong_room_code_is_said_in_the_phones_language(
    server: RoomServer, accept: str, query: str, lang: str
) -> None:
    """Seen: a Japanese phone that mistyped the code got the page in English."""
    other = "".join("A" if letter != "A" else "C" for letter in server.room.code)
    client = Client(server.base)
    client.headers["Accept-Language"] = accept
    status, page, _ = client.call("GET", f"/room/{other}{query}")
    assert status == 404 and f'<html lang="{lang}">' in page
    assert escape(text("room.error-unknown-room", lang, code=other)) in page


def test_a_nickname_is_limited_and_given_as_json_text_never_as_markup(server: RoomServer) -> None:
    client = LearnerClient(server.base, server.room.code)
    status, reply, _ = client.join("x" * 25)
    assert (status, error_code(reply)) == (400, "bad-field")
    assert "25 characters" in reply["error"]["message"]
    marked = "<b onclick=x>Aiko</b>"
    status, reply, _ = client.join(marked)
    assert status == 201 and reply["nickname"] == marked
    status, state, headers = server.teacher_client().call("GET", "/room/api/state")
    assert state["learners"] == [{"nickname": marked, "answered": False}]
    # JSON, and a browser may not guess otherwise (the pages draw it with textContent:
    # tests/browser/test_room_phone.py)
    assert headers["Content-Type"].startswith("application/json")
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_the_projector_hears_every_answer_and_learners_only_the_questions_changes(
    server: RoomServer,
) -> None:
    teacher = server.teacher_client()
    projector = EventReader("127.0.0.1", server.port, "/room/api/events", teacher.cookie_header())
    learner = server.learner("Aiko")
    listening = EventReader(
        "127.0.0.1", server.port, f"/room/{server.room.code}/api/events?learner={learner.key}"
    )
    try:
        assert projector.next_event()[1]["present"] == 0  # at once on connect
        assert projector.next_event()[1]["present"] == 1  # the join
        assert listening.next_event()[1]["question_key"] is None
        teacher.act("open", {"lesson": ONE[0], "item": ONE[1]})
        assert projector.next_event()[1]["question_key"] == key(ONE)
        event, live = listening.next_event()
        assert (event, live["question_key"], live["phase"]) == ("room", key(ONE), "open")
        learner.answer(key(ONE), 1)
        live = projector.next_event()[1]
        assert (live["answered"], live["choice_counts"][1]) == (1, 1)
        teacher.act("reveal")
        assert projector.next_event()[1]["phase"] == "revealed"
        # the learner's next event is the reveal: the answer sent it nothing
        assert listening.next_event()[1]["phase"] == "revealed"
    finally:
        projector.close()
        listening.close()


def test_a_learners_stream_needs_a_learners_key(server: RoomServer) -> None:
    status, reply, _ = Client(server.base).call(
        "GET", f"/room/{server.room.code}/api/events?learner=nobody"
    )
    assert (status, error_code(reply)) == (403, "unknown-learner")


def test_answers_sent_at_once_are_each_counted_once(server: RoomServer) -> None:
    server.teacher_client().act("open", {"lesson": ONE[0], "item": ONE[1]})
    learners = [server.learner() for _ in range(20)]
    threads = [
        threading.Thread(target=learner.answer, args=(key(ONE), n % 4))
        for n, learner in enumerate(learners)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    counts = server.room.counts("en")
    assert counts["answered"] == 20 and sum(counts["choice_counts"]) == 20


def page_files(page: str) -> list[str]:
    """The addresses of the page's stylesheet and script, in that order."""
    return re.findall(r'<link rel="stylesheet" href="([^"]+)">|<script src="([^"]+)"', page)


def test_the_pages_files_are_kept_for_good_at_their_versioned_address_only(
    server: RoomServer,
) -> None:
    """tornado's static files: the page names them with ``?v=`` (the file's hash), kept for a
    year or more; the same file without it is asked again each time (and answered 304 while
    it is the same)."""
    client = Client(server.base)
    page = client.call("GET", f"/room/{server.room.code}")[1]
    (css, _), (_, script) = page_files(page)
    for address, name, kind in ((css, "room.css", "text/css"), (script, "room.js", "javascript")):
        path, _, version = address.partition("?v=")
        assert path == f"/room/assets/{name}" and version, address
        status, body, headers = client.call("GET", address)
        assert status == 200 and body == (STATIC / name).read_text(encoding="utf-8")
        assert kind in headers["Content-Type"] and "charset=utf-8" in headers["Content-Type"]
        assert headers["X-Content-Type-Options"] == "nosniff"
        age = re.search(r"max-age=(\d+)", headers["Cache-Control"])
        assert age and int(age.group(1)) >= 365 * 24 * 3600, headers["Cache-Control"]
        status, _, headers = client.call("GET", path)
        assert status == 200 and headers["Cache-Control"] == "no-cache"
        client.headers["If-None-Match"] = headers["Etag"]
        assert client.call("GET", path)[0] == 304
        del client.headers["If-None-Match"]
    status, missing, headers = client.call("GET", "/room/assets/nothing.js?lang=ja")
    assert status == 404 and 'lang="ja"' in missing  # the tutor's page, not tornado's
    assert client.call("GET", "/room/assets/%2E%2E/room_server.py")[0] in (403, 404)


def test_a_changed_file_gets_a_new_address(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new version of room.js (a new install, so a new server: tornado reads a file's
    hash once) is named by a new address, and the phones fetch it at once."""
    files = tmp_path / "room_static"
    shutil.copytree(STATIC, files)
    monkeypatch.setattr(room_server, "STATIC", files)
    before = RoomFiles.url("/room/", "room.js"), RoomFiles.url("/room/", "room.css")
    (files / "room.js").write_text("// a new version\n", encoding="utf-8")
    RoomFiles.reset()  # what a new server starts with
    running = RoomServer(tmp_path / "room.sqlite3").start()
    try:
        client = Client(running.base)
        (css, _), (_, script) = page_files(client.call("GET", f"/room/{running.room.code}")[1])
        assert script != before[0] and css == before[1]
        assert client.call("GET", script)[1] == "// a new version\n"
    finally:
        running.stop()
