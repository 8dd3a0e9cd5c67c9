"""The real app (``--classroom``) stopped and started again in the middle of a lesson: the
same room code, the pupils' keys and their answers, a new teacher key (tests learn both
from what the app prints, as a teacher does)."""

from __future__ import annotations

import csv
import io

import pytest
from browser.app_process import AppServer
from browser.room_client import PupilClient, TeacherClient
from web.test_room import MANY, ONE, key

pytestmark = pytest.mark.slow


def teacher_of(app: AppServer) -> TeacherClient:
    teacher = TeacherClient(app.url("").rstrip("/"))
    key_printed = app.teacher_key()
    assert key_printed, app.log()
    assert teacher.start(key_printed)[0] == 302
    return teacher


def test_a_restart_keeps_the_room_its_pupils_and_their_answers() -> None:
    with AppServer(classroom=True) as app:
        code = app.room_code()
        teacher = teacher_of(app)
        teacher.act("open", {"lesson": ONE[0], "item": ONE[1]})
        pupils = [PupilClient(app.url("").rstrip("/"), str(code)) for _ in range(3)]
        for n, pupil in enumerate(pupils):
            assert pupil.join(f"p{n}")[0] == 201
            assert pupil.answer(key(ONE), n)[0] == 200
        before = teacher.call("GET", "/room/api/state")[1]
        old_key = app.teacher_key()

        app.stop()
        app.start()

        assert app.room_code() == code
        assert app.teacher_key() != old_key
        stale = TeacherClient(app.url("").rstrip("/"))
        assert stale.start(str(old_key))[0] == 403  # yesterday's key opens nothing
        teacher = teacher_of(app)
        after = teacher.call("GET", "/room/api/state")[1]
        for field in ("code", "phase", "present", "answered", "counts", "choice_counts"):
            assert after[field] == before[field], field
        for n, pupil in enumerate(pupils):
            assert pupil.state()["my_answer"] == n  # the same key, the same answer
        assert pupils[0].answer(key(ONE), 2)[0] == 200  # still changeable
        teacher.act("open", {"lesson": MANY[0], "item": MANY[1]})
        assert pupils[1].answer(key(MANY), [0])[0] == 200
        summary = csv.DictReader(io.StringIO(teacher.call("GET", "/room/summary.csv")[1]))
        assert [(row["lesson"], row["item"], row["answered"]) for row in summary] == [
            (*ONE, "3"),
            (*MANY, "1"),
        ]
