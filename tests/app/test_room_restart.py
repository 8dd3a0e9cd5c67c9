"""The real app (``--classroom``) stopped and started again in the middle of a lesson: the
same room code, the learners' keys and their answers, the same classroom token and teacher
key (the teacher's browser stays signed in), new ones only with ``--new-token`` (tests
learn them from what the app prints, as a teacher does)."""

from __future__ import annotations

import csv
import io

import pytest
from browser.app_process import AppServer
from browser.room_client import LearnerClient, TeacherClient
from web.test_room import MANY, ONE, key

pytestmark = pytest.mark.slow


def teacher_of(app: AppServer) -> TeacherClient:
    teacher = TeacherClient(app.url("").rstrip("/"))
    key_printed = app.teacher_key()
    assert key_printed, app.log()
    assert teacher.start(key_printed)[0] == 302
    return teacher


def test_a_restart_keeps_the_room_its_learners_and_their_answers() -> None:
    with AppServer(classroom=True) as app:
        code = app.room_code()
        teacher = teacher_of(app)
        teacher.act("open", {"lesson": ONE[0], "item": ONE[1]})
        learners = [LearnerClient(app.url("").rstrip("/"), str(code)) for _ in range(3)]
        for n, learner in enumerate(learners):
            assert learner.join(f"p{n}")[0] == 201
            assert learner.answer(key(ONE), n)[0] == 200
        before = teacher.call("GET", "/room/api/state")[1]
        old_key = app.teacher_key()

        old_token = app.token()

        app.stop()
        app.start()

        assert app.room_code() == code
        assert (app.teacher_key(), app.token()) == (old_key, old_token)  # the links handed out
        after = teacher.call("GET", "/room/api/state")[1]  # still signed in: its cookie
        for field in ("code", "phase", "present", "answered", "counts", "choice_counts"):
            assert after[field] == before[field], field
        for n, learner in enumerate(learners):
            assert learner.state()["my_answer"] == n  # the same key, the same answer
        assert learners[0].answer(key(ONE), 2)[0] == 200  # still changeable
        teacher.act("open", {"lesson": MANY[0], "item": MANY[1]})
        assert learners[1].answer(key(MANY), [0])[0] == 200
        summary = csv.DictReader(io.StringIO(teacher.call("GET", "/room/summary.csv")[1]))
        assert [(row["lesson"], row["item"], row["answered"]) for row in summary] == [
            (*ONE, "3"),
            (*MANY, "1"),
        ]


def signed_in_by(app: AppServer, token: str) -> bool:
    """Whether a learner's course address (the printed one, with ``token``) lets them in,
    rather than sending them to the page asking for the link."""
    status, _page, headers = app.get(f"/?token={token}")
    return status in (200, 302) and "/login" not in headers.get("Location", "")


def test_only_new_token_makes_new_keys_and_ends_every_sign_in() -> None:
    with AppServer(classroom=True) as app:
        token, key = app.token(), app.teacher_key()
        assert token and key and token != key
        teacher = teacher_of(app)
        assert signed_in_by(app, token)
        learner_page = app.get(f"/room/{app.room_code()}")[1]
        assert token not in learner_page and key not in learner_page  # the phones never see them

        app.args = ["--new-token"]
        app.stop()
        app.start()

        assert "New classroom keys" in app.log()
        assert app.token() != token and app.teacher_key() != key
        assert not signed_in_by(app, token)  # the old links: "ask for the link"
        assert signed_in_by(app, str(app.token()))
        assert teacher.call("GET", "/room/api/state")[0] == 403  # signed in with the old key
        assert TeacherClient(app.url("").rstrip("/")).start(key)[0] == 403
        assert teacher_of(app).call("GET", "/room/api/state")[0] == 200
