"""The live room's store on the hub (tutor/hub/room_store.py): each teacher's room in the
class results' database through SQLAlchemy, kept across a new engine on the same database
(a restarted service), one room per teacher with codes unique across teachers, and a
learner who is their hub login. Fast: SQLite files, no hub."""

from __future__ import annotations

import pytest
from sqlalchemy import MetaData, create_engine
from web.test_room import MANY, NUMBER, ONE, a_wrong_index, engine_answer, key

from tutor.hub.room_store import HubRoomStore, room_tables
from tutor.hub.teacher_service import EventStore
from tutor.web.room import MAX_LEARNERS, Room, RoomError

BASE = "/services/class-results/room/"


def teachers_room(url: str, owner: str) -> Room:
    """A teacher's room as the service makes it: the class results' engine and tables."""
    metadata = MetaData()
    tables = room_tables(metadata)
    engine = create_engine(url)
    metadata.create_all(engine)
    return Room(HubRoomStore(engine, tables, owner), join="https://hub.example", path=BASE)


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
    from tutor.hub.teacher_service import metadata

    room_tables(metadata)
    store = EventStore(url)
    assert {"progress_events", "room_rooms", "room_answers"} <= set(
        store.engine.dialect.get_table_names(store.engine.connect())
    )


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
