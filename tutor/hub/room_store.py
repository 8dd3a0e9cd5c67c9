"""The live room's answers on the hub: in the class results' database, through
SQLAlchemy (the engine and URL of :mod:`tutor.hub.teacher_service`'s events: SQLite by
default, PostgreSQL when ``TUTOR_CLASS_DB_URL`` names one), so that a restart of the
service, or of the whole hub, continues each teacher's room and keeps its summary.

The same methods as the app's SQLite store (:class:`tutor.web.room_store.RoomStore`), so
that the one room of :mod:`tutor.web.room` runs on either; here each teacher has rooms of
their own (``owner``: the teacher's hub name) and the codes are unique across teachers,
since a learner finds a room by its code alone.
"""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Float,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite

from tutor.web.room_store import CONTINUE_HOURS, StoredRoom

KEY_LENGTH = 64
"""A learner's key on the hub is ``hub:<login name>`` (names are at most 32 characters)."""


def room_tables(metadata: MetaData) -> dict[str, Table]:
    """The room's tables, added to ``metadata`` (the class results' own) unless there."""
    names = {"rooms": "room_rooms", "learners": "room_pupils", "questions": "room_questions"}
    names["answers"] = "room_answers"
    if all(name in metadata.tables for name in names.values()):
        return {kind: metadata.tables[name] for kind, name in names.items()}
    return {
        "rooms": Table(
            "room_rooms",
            metadata,
            Column("code", String(8), primary_key=True),
            Column("owner", String(128), nullable=False, index=True),
            Column("created", Float, nullable=False),
            Column("used", Float, nullable=False),
            Column("question", String(200)),
            Column("phase", String(16), nullable=False),
            Column("counts_shown", Boolean, nullable=False),
            Column("version", Integer, nullable=False),
        ),
        "learners": Table(
            "room_pupils",
            metadata,
            Column("seq", Integer, primary_key=True, autoincrement=True),
            Column("room", String(8), nullable=False, index=True),
            Column("key", String(KEY_LENGTH), nullable=False),
            Column("nickname", String(128), nullable=False),
            Column("joined", Float, nullable=False),
        ),
        "questions": Table(
            "room_questions",
            metadata,
            Column("room", String(8), nullable=False),
            Column("question", String(200), nullable=False),
            Column("opened", Float, nullable=False),
            PrimaryKeyConstraint("room", "question"),
        ),
        "answers": Table(
            "room_answers",
            metadata,
            Column("room", String(8), nullable=False),
            Column("question", String(200), nullable=False),
            Column("pupil", String(KEY_LENGTH), nullable=False),
            Column("answer", Text, nullable=False),
            Column("first_answer", Text, nullable=False),
            Column("answered", Float, nullable=False),
            PrimaryKeyConstraint("room", "question", "pupil"),
        ),
    }


class HubRoomStore:
    """One teacher's rooms in the class results' database."""

    def __init__(self, engine: Engine, tables: dict[str, Table], owner: str) -> None:
        self.engine, self.tables, self.owner = engine, tables, owner

    def _insert(self, table: Table) -> Any:
        dialect = self.engine.dialect.name
        if dialect == "sqlite":
            return sqlite.insert(table)
        if dialect == "postgresql":
            return postgresql.insert(table)
        raise ValueError(
            f"the live room: database {dialect!r} is not supported; use sqlite or postgresql"
        )

    def recent_room(self, *, now: float | None = None) -> StoredRoom | None:
        """The teacher's room used last, if within :data:`CONTINUE_HOURS`."""
        now = time.time() if now is None else now
        rooms, learners = self.tables["rooms"], self.tables["learners"]
        questions, answers = self.tables["questions"], self.tables["answers"]
        with self.engine.connect() as db:
            row = (
                db.execute(
                    select(rooms).where(rooms.c.owner == self.owner).order_by(rooms.c.used.desc())
                )
                .mappings()
                .first()
            )
            if row is None or now - row["used"] > CONTINUE_HOURS * 3600:
                return None
            room = StoredRoom(
                row["code"],
                row["question"],
                row["phase"],
                bool(row["counts_shown"]),
                row["version"],
            )
            for key, nickname in db.execute(
                select(learners.c.key, learners.c.nickname)
                .where(learners.c.room == room.code)
                .order_by(learners.c.seq)
            ):
                room.learners[key] = nickname
            room.questions = list(
                db.scalars(
                    select(questions.c.question)
                    .where(questions.c.room == room.code)
                    .order_by(questions.c.opened)
                )
            )
            for question, learner, answer, first in db.execute(
                select(
                    answers.c.question, answers.c.pupil, answers.c.answer, answers.c.first_answer
                )
                .where(answers.c.room == room.code)
                .order_by(answers.c.answered)
            ):
                room.answers.setdefault(question, {})[learner] = (
                    json.loads(answer),
                    json.loads(first),
                )
        return room

    def codes(self) -> set[str]:
        """Every room's code, of every teacher."""
        with self.engine.connect() as db:
            return set(db.scalars(select(self.tables["rooms"].c.code)))

    def add_room(self, code: str) -> None:
        now = time.time()
        with self.engine.begin() as db:
            db.execute(
                self.tables["rooms"]
                .insert()
                .values(
                    code=code,
                    owner=self.owner,
                    created=now,
                    used=now,
                    question=None,
                    phase="waiting",
                    counts_shown=True,
                    version=0,
                )
            )

    def save_room(
        self, code: str, *, question: str | None, phase: str, counts_shown: bool, version: int
    ) -> None:
        rooms = self.tables["rooms"]
        with self.engine.begin() as db:
            db.execute(
                update(rooms)
                .where(rooms.c.code == code)
                .values(
                    used=time.time(),
                    question=question,
                    phase=phase,
                    counts_shown=counts_shown,
                    version=version,
                )
            )
            if question is not None:
                db.execute(
                    self._insert(self.tables["questions"])
                    .values(room=code, question=question, opened=time.time())
                    .on_conflict_do_nothing()
                )

    def add_learner(self, code: str, key: str, nickname: str) -> None:
        with self.engine.begin() as db:
            db.execute(
                self.tables["learners"]
                .insert()
                .values(room=code, key=key, nickname=nickname, joined=time.time())
            )

    def save_answer(
        self, code: str, question: str, learner: str, answer: object, first: object, version: int
    ) -> None:
        """The learner's answer (replacing their earlier one; ``first`` kept for the summary)."""
        now = time.time()
        answers, rooms = self.tables["answers"], self.tables["rooms"]
        insert = self._insert(answers).values(
            room=code,
            question=question,
            pupil=learner,
            answer=json.dumps(answer),
            first_answer=json.dumps(first),
            answered=now,
        )
        with self.engine.begin() as db:
            db.execute(
                insert.on_conflict_do_update(
                    index_elements=["room", "question", "pupil"],
                    set_={"answer": insert.excluded.answer, "answered": insert.excluded.answered},
                )
            )
            db.execute(update(rooms).where(rooms.c.code == code).values(used=now, version=version))
