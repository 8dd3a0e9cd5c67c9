"""The live room's store on the hub (tutor/web/room_store.py): each teacher's room in the
class results' database, kept across a new engine on the same database
(a restarted service), one room per teacher with codes unique across teachers, and a
learner who is their hub login. Fast: SQLite files, no hub."""

from __future__ import annotations

import json
import time

import pytest
from sqlalchemy import create_engine, inspect, select, text, update
from web.test_room import MANY, NUMBER, ONE, a_wrong_index, engine_answer, key

from tutor.hub.room_service import HubRooms
from tutor.hub.teacher_service import EventStore
from tutor.web.room import Room
from tutor.web.room_checks import MAX_LEARNERS, RoomError
from tutor.web.room_store import SCHEMA_VERSION, RoomStore, RoomStoreError, schema_version

BASE = "/services/class-results/room/"


def teachers_room(url: str, owner: str) -> Room:
    """A teacher's room as the service makes it: the class results' engine (a new one:
    each call is a restarted service)."""
    store = RoomStore(create_engine(url), owner=owner)
    return Room(store, join="https://hub.example", path=BASE)


@pytest.fixture
def url(class_db: str) -> str:
    """The class's database: each test runs on SQLite and on PostgreSQL."""
    return class_db


def test_a_teachers_room_is_kept_across_a_new_engine_on_the_same_database(url: str) -> None:
    room = teachers_room(url, "teach")
    assert room.join == f"https://hub.example{BASE}{room.code}"
    aiko, ben = room.named_learner("aiko"), room.named_learner("ben")
    assert (aiko.key, aiko.nickname) == ("hub:aiko", "aiko")
    room.open(*ONE)
    wrong, right = a_wrong_index(*ONE), engine_answer(*ONE)
    room.answer(aiko.key, key(ONE), wrong)
    room.answer(aiko.key, key(ONE), right)  # changes her mind: her first stays wrong
    room.answer(ben.key, key(ONE), right)
    room.open(*NUMBER)
    room.answer(ben.key, key(NUMBER), engine_answer(*NUMBER))
    room.reveal()
    before = (room.summary("ja"), room.teacher_state("en"), room.summary_csv("en"))

    again = teachers_room(url, "teach")  # the service restarted: a new engine
    assert again.continued and again.code == room.code
    assert (again.summary("ja"), again.teacher_state("en"), again.summary_csv("en")) == before
    first = again.summary("en")[0]
    assert (first["answered"], first["right_first"]) == (2, 1)
    assert again.named_learner("aiko").key == aiko.key and len(again.learners) == 2  # no new join
    with pytest.raises(RoomError) as closed:  # still revealed after the restart
        again.answer(aiko.key, key(NUMBER), 0)
    assert closed.value.code == "not-open"


def test_each_teacher_has_a_room_of_their_own_with_its_own_code(url: str) -> None:
    teach, mina = teachers_room(url, "teach"), teachers_room(url, "mina")
    assert teach.code != mina.code
    teach.open(*MANY)
    teach.answer(teach.named_learner("aiko").key, key(MANY), engine_answer(*MANY))
    assert mina.current is None and mina.learners == {} and mina.summary("en") == []
    assert teachers_room(url, "mina").code == mina.code  # each continues their own


def test_the_rooms_tables_live_beside_the_class_events(url: str) -> None:
    """The service makes both in one database: the events' store and the rooms' tables."""
    store = EventStore(url)
    HubRooms(store.engine, "/services/class-results/")
    with store.engine.connect() as db:
        made = set(store.engine.dialect.get_table_names(db))
    assert {"progress_events", "room_rooms", "room_learners", "room_answers"} <= made


def test_a_hub_learner_joins_once_whatever_they_reload_and_the_room_has_a_limit(url: str) -> None:
    room = teachers_room(url, "teach")
    for _ in range(3):
        room.named_learner("aiko")
    assert list(room.learners) == ["hub:aiko"] and room.version == 1
    for number in range(MAX_LEARNERS - 1):
        room.learners[f"hub:p{number}"] = room.learners["hub:aiko"]  # a full room, quickly
    with pytest.raises(RoomError) as full:
        room.named_learner("late")
    assert full.value.code == "room-full"


OLD_HUB_TABLES = """
CREATE TABLE room_rooms (
    code VARCHAR(8) NOT NULL, owner VARCHAR(128) NOT NULL, created FLOAT NOT NULL,
    used FLOAT NOT NULL, question VARCHAR(200), phase VARCHAR(16) NOT NULL,
    counts_shown BOOLEAN NOT NULL, version INTEGER NOT NULL, PRIMARY KEY (code)
);
CREATE INDEX ix_room_rooms_owner ON room_rooms (owner);
CREATE TABLE room_pupils (
    seq {serial} NOT NULL, room VARCHAR(8) NOT NULL, key VARCHAR(64) NOT NULL,
    nickname VARCHAR(128) NOT NULL, joined FLOAT NOT NULL, PRIMARY KEY (seq)
);
CREATE INDEX ix_room_pupils_room ON room_pupils (room);
CREATE TABLE room_questions (
    room VARCHAR(8) NOT NULL, question VARCHAR(200) NOT NULL, opened FLOAT NOT NULL,
    PRIMARY KEY (room, question)
);
CREATE TABLE room_answers (
    room VARCHAR(8) NOT NULL, question VARCHAR(200) NOT NULL, pupil VARCHAR(64) NOT NULL,
    answer TEXT NOT NULL, first_answer TEXT NOT NULL, answered FLOAT NOT NULL,
    PRIMARY KEY (room, question, pupil)
)
"""
"""The hub's room tables before the one schema (version 0), as SQLAlchemy made them."""


def old_hub_database(url: str) -> None:
    """The class database of version 0 with two teachers' rooms in the middle of a lesson:
    teach's has aiko and ben (in that order), who answered ONE (aiko changed her mind)."""
    now = time.time()
    engine = create_engine(url)
    serial = "SERIAL" if engine.dialect.name == "postgresql" else "INTEGER"
    wrong, right = a_wrong_index(*ONE), engine_answer(*ONE)
    with engine.begin() as db:
        for statement in OLD_HUB_TABLES.format(serial=serial).split(";"):
            db.execute(text(statement))
        for code, owner, used in (("KMNP", "teach", now), ("ACDE", "mina", now - 5)):
            db.execute(
                text(
                    "INSERT INTO room_rooms VALUES (:code, :owner, :used, :used, :question, "
                    "'open', true, 4)"
                ),
                {"code": code, "owner": owner, "used": used, "question": key(ONE)},
            )
        for name in ("aiko", "ben"):
            db.execute(
                text(
                    "INSERT INTO room_pupils (room, key, nickname, joined) VALUES (:r, :k, :n, :t)"
                ),
                {"r": "KMNP", "k": f"hub:{name}", "n": name, "t": now},
            )
        db.execute(
            text("INSERT INTO room_questions VALUES ('KMNP', :q, :t)"), {"q": key(ONE), "t": now}
        )
        for name, answer, first in (("aiko", right, wrong), ("ben", right, right)):
            db.execute(
                text("INSERT INTO room_answers VALUES ('KMNP', :q, :p, :a, :f, :t)"),
                {
                    "q": key(ONE),
                    "p": f"hub:{name}",
                    "a": json.dumps(answer),
                    "f": json.dumps(first),
                    "t": now,
                },
            )
    engine.dispose()


def test_an_old_hub_database_keeps_every_room_learner_and_answer(url: str) -> None:
    old_hub_database(url)
    room = teachers_room(url, "teach")
    assert (
        room.continued and room.code == "KMNP" and (room.current, room.phase) == (key(ONE), "open")
    )
    assert list(room.learners) == ["hub:aiko", "hub:ben"]
    right, wrong = engine_answer(*ONE), a_wrong_index(*ONE)
    assert room.answers == {key(ONE): {"hub:aiko": (right, wrong), "hub:ben": (right, right)}}
    first = room.summary("en")[0]
    assert (first["answered"], first["right_first"]) == (2, 1)
    assert teachers_room(url, "mina").code == "ACDE"  # every teacher's room kept

    # the room goes on in the migrated tables: a new learner joins last, answers change
    chen = room.named_learner("chen")
    room.answer(chen.key, key(ONE), wrong)
    room.answer("hub:ben", key(ONE), wrong)
    again = teachers_room(url, "teach")  # a restart: nothing migrated twice
    assert list(again.learners) == ["hub:aiko", "hub:ben", "hub:chen"]
    assert again.answers[key(ONE)]["hub:ben"] == (wrong, right)
    engine = create_engine(url)
    with engine.connect() as db:
        tables = set(inspect(db).get_table_names())
        assert {"room_learners", "room_schema"} <= tables and "room_pupils" not in tables
        assert db.scalar(select(schema_version.c.version)) == SCHEMA_VERSION
        assert [i["name"] for i in inspect(db).get_indexes("room_learners")] == [
            "ix_room_learners_room"
        ]
        if engine.dialect.name == "postgresql":  # named as a new database names them
            assert inspect(db).get_pk_constraint("room_learners")["name"] == "room_learners_pkey"
            assert db.scalar(text("SELECT pg_get_serial_sequence('room_learners', 'seq')")) == (
                "public.room_learners_seq_seq"
            )
    engine.dispose()


def test_a_hub_database_of_a_newer_schema_is_refused_and_left_as_it_was(url: str) -> None:
    room = teachers_room(url, "teach")
    room.named_learner("aiko")
    engine = create_engine(url)
    with engine.begin() as db:
        db.execute(update(schema_version).values(version=SCHEMA_VERSION + 1))
    with pytest.raises(RoomStoreError) as refused:
        RoomStore(engine, owner="teach")
    message = str(refused.value)
    assert "the class database" in message and "newer wizard-tutor" in message
    assert "upgrade wizard-tutor" in message and "TUTOR_CLASS_DB_URL" in message
    with engine.connect() as db:
        assert db.scalar(select(schema_version.c.version)) == SCHEMA_VERSION + 1
        assert db.scalar(text("SELECT count(*) FROM room_learners")) == 1
    engine.dispose()
