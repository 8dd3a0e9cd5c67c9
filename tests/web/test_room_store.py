"""The app's room file across versions of the tutor (tutor/web/room_store.py): a file made
by the store before the one schema (stdlib sqlite3; tables ``rooms``, ``pupils``...) is
migrated with every room, learner, answer and key; a file of a newer schema, or one whose
migration fails, is refused with its name and what to do, and left as it was."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import stat
import time
from pathlib import Path
from typing import Any

import pytest

from tutor.web.room import Room
from tutor.web.room_store import SCHEMA_VERSION, RoomStore, RoomStoreError

from .test_room import NUMBER, ONE, a_wrong_index, engine_answer, key

OLD_APP_SCHEMA = """
CREATE TABLE rooms (
    code TEXT PRIMARY KEY, created REAL NOT NULL, used REAL NOT NULL, question TEXT,
    phase TEXT NOT NULL, counts_shown INTEGER NOT NULL, version INTEGER NOT NULL
);
CREATE TABLE pupils (
    room TEXT NOT NULL, key TEXT NOT NULL, nickname TEXT NOT NULL, joined REAL NOT NULL,
    PRIMARY KEY (room, key)
);
CREATE TABLE questions (
    room TEXT NOT NULL, question TEXT NOT NULL, opened REAL NOT NULL, PRIMARY KEY (room, question)
);
CREATE TABLE classroom_keys (name TEXT PRIMARY KEY, value TEXT NOT NULL, made REAL NOT NULL);
CREATE TABLE answers (
    room TEXT NOT NULL, question TEXT NOT NULL, pupil TEXT NOT NULL, answer TEXT NOT NULL,
    first_answer TEXT NOT NULL, answered REAL NOT NULL, PRIMARY KEY (room, question, pupil)
);
"""
"""The app's room file before the one schema (version 0), as its store wrote it."""


def old_app_file(path: Path) -> dict[str, Any]:
    """A room file of version 0 in the middle of a lesson, and what it holds."""
    now = time.time()
    wrong, right = a_wrong_index(*ONE), engine_answer(*ONE)
    learners = {"key-chen": "Chen", "key-aiko": "Aiko", "key-ben": "Ben"}  # joining order
    db = sqlite3.connect(path)
    db.executescript(OLD_APP_SCHEMA)
    db.execute(
        "INSERT INTO rooms VALUES ('KMNP', ?, ?, ?, 'revealed', 0, 9)", (now - 60, now, key(NUMBER))
    )
    db.execute("INSERT INTO rooms VALUES ('ACDE', ?, ?, NULL, 'waiting', 1, 0)", (now - 9e5,) * 2)
    for n, (learner, nickname) in enumerate(learners.items()):
        db.execute("INSERT INTO pupils VALUES ('KMNP', ?, ?, ?)", (learner, nickname, now - 50 + n))
    db.execute("INSERT INTO questions VALUES ('KMNP', ?, ?)", (key(ONE), now - 40))
    db.execute("INSERT INTO questions VALUES ('KMNP', ?, ?)", (key(NUMBER), now - 20))
    rows = [
        (key(ONE), "key-aiko", right, wrong),  # changed her mind: first wrong, now right
        (key(ONE), "key-ben", right, right),
        (key(ONE), "key-chen", wrong, wrong),
        (key(NUMBER), "key-ben", engine_answer(*NUMBER), engine_answer(*NUMBER)),
    ]
    for n, (question, learner, answer, first) in enumerate(rows):
        db.execute(
            "INSERT INTO answers VALUES ('KMNP', ?, ?, ?, ?, ?)",
            (question, learner, json.dumps(answer), json.dumps(first), now - 30 + n),
        )
    keys = {"token": "kept-token", "teacher": "kept-teacher", "cookie_secret": "ab" * 32}
    for name, value in keys.items():
        db.execute("INSERT INTO classroom_keys VALUES (?, ?, ?)", (name, value, now - 99))
    db.commit()
    db.close()
    return {"learners": learners, "answers": rows, "keys": keys}


def tables_of(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def test_an_old_app_file_keeps_every_room_learner_answer_and_key(tmp_path: Path) -> None:
    path = tmp_path / "live-room.sqlite3"
    held = old_app_file(path)
    path.chmod(0o644)  # an old file may be readable by everyone

    store = RoomStore.open_file(path)
    room = Room(store)
    assert room.continued and room.code == "KMNP"  # the recent room, not the old ACDE
    assert (room.current, room.phase, room.counts_shown, room.version) == (
        key(NUMBER),
        "revealed",
        False,
        9,
    )
    assert {k: learner.nickname for k, learner in room.learners.items()} == held["learners"]
    assert list(room.learners) == list(held["learners"])  # in their joining order
    assert room.asked == [key(ONE), key(NUMBER)]
    assert room.answers == {
        question: {
            learner: (answer, first)
            for q, learner, answer, first in held["answers"]
            if q == question
        }
        for question in (key(ONE), key(NUMBER))
    }
    first = room.summary("en")[0]
    assert (first["answered"], first["right_first"]) == (3, 1)
    kept = store.classroom_keys()
    assert (kept.token, kept.teacher, kept.cookie_secret) == (
        "kept-token",
        "kept-teacher",
        b"\xab" * 32,
    )
    assert "ACDE" in store.codes()
    store.close()

    assert not tables_of(path) & {"rooms", "pupils", "questions", "answers", "classroom_keys"}
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version FROM room_schema").fetchall() == [(SCHEMA_VERSION,)]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = Room(RoomStore.open_file(path))  # opened again: nothing migrated twice
    assert again.code == "KMNP" and again.answers == room.answers
    again.reopen()  # and the room goes on: a new learner joins last and answers
    dana = again.add_learner("Dana")
    again.answer(dana.key, key(NUMBER), engine_answer(*NUMBER))
    assert list(again.learners)[-1] == dana.key and again.counts("en")["answered"] == 2


def fingerprint(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_file_of_a_newer_schema_is_refused_named_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "from-the-future.sqlite3"
    store = RoomStore.open_file(path)
    Room(store)
    with store.engine.begin() as db:
        db.exec_driver_sql(f"UPDATE room_schema SET version = {SCHEMA_VERSION + 1}")
    store.close()
    before = fingerprint(path)
    with pytest.raises(RoomStoreError) as refused:
        RoomStore.open_file(path)
    message = str(refused.value)
    assert "from-the-future.sqlite3" in message and "newer wizard-tutor" in message
    assert "upgrade wizard-tutor" in message and "--room-db" in message
    assert fingerprint(path) == before
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM room_rooms").fetchone() == (1,)


def test_a_migration_that_fails_changes_nothing(tmp_path: Path) -> None:
    """An old file the migration cannot read whole (here its keys' table lacks a column):
    refused with the file's name, every old table and row still there, no new table."""
    path = tmp_path / "odd.sqlite3"
    old_app_file(path)
    with sqlite3.connect(path) as db:  # the column the migration needs, gone
        db.execute("ALTER TABLE classroom_keys DROP COLUMN made")
    before = tables_of(path)
    with pytest.raises(RoomStoreError, match=r"odd\.sqlite3.*--room-db"):
        RoomStore.open_file(path)
    assert (
        tables_of(path) == before == {"rooms", "pupils", "questions", "answers", "classroom_keys"}
    )
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM answers").fetchone() == (4,)
