"""Where the live room keeps its rooms, learners and answers, for the app and the hub alike:
one schema (the tables below), one store (:class:`RoomStore`), so that a server restarted
in the middle of a lesson continues the same room (the same code, the learners' keys, every
answer given so far) and the summary survives the lesson.

- **The app** keeps them in a SQLite file of its own (:meth:`RoomStore.open_file`), with
  its secrets in classroom mode (:class:`ClassroomKeys`: the classroom token, the teacher's
  key, the secret that signs the browsers' cookies), so that a restart on the same file
  keeps the links handed out and every browser signed in. The file is therefore readable
  by its owner only (0600), as are SQLite's ``-wal`` and ``-shm`` files beside it (SQLite
  gives them the database's permissions). WAL mode with ``synchronous=NORMAL``: a commit is
  not flushed to the disk at once, and still survives the server being killed; only the
  machine losing power may lose the last moments.
- **The hub** keeps them in the class results' database (SQLite, or PostgreSQL when
  ``TUTOR_CLASS_DB_URL`` names one), each teacher's rooms under their hub name (``owner``),
  the codes unique across teachers since a learner finds a room by its code alone.

Why SQLAlchemy Core, not the standard library's ``sqlite3``: the hub needs PostgreSQL as
well as SQLite, and a well-kept library that writes each dialect's SQL is one schema and one
set of statements for both, where our own SQL would be two. It costs the app's classroom
mode about 0.15 s of CPU once, importing it when the server starts (the room is imported
only there: tests/test_light_imports.py; a lesson's page and its kernel never import it),
and about 0.3 ms of CPU per answer on the app's file, where ``sqlite3`` took 0.03 ms: far
under the 10 ms an answer may cost (benchmarks/hub_room_store_benchmark.py).

Every table is named ``room_...`` (the hub's database holds the class's tables beside
them), and ``room_schema`` holds the schema's version: a file or database of an older
version is migrated when opened, in one transaction (every room, learner and answer
kept), and one of a newer version is refused, left as it was.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

ROOM_DB_VARIABLE = "TUTOR_ROOM_DB"
"""The app's room file, chosen by whoever starts the app (else :func:`default_room_db`)."""

CONTINUE_HOURS = 12.0
"""A room used this recently is continued by a server started on the same file."""

SCHEMA_VERSION = 1
"""The version of the tables below (``room_schema``); 0 was the two stores before them
(the app's ``rooms``, ``pupils``...; the hub's ``room_pupils`` and its ``pupil`` column)."""

KEY_LENGTH = 64
"""A learner's key: 43 characters of a browser's token, or ``hub:<login name>`` on the hub
(names are at most 32 characters)."""

schema = MetaData()

rooms = Table(
    "room_rooms",
    schema,
    Column("code", String(8), primary_key=True),
    Column("owner", String(128), nullable=False, index=True),  # "" in the app's file
    Column("created", Float, nullable=False),
    Column("used", Float, nullable=False),
    Column("question", String(200)),
    Column("phase", String(16), nullable=False),
    Column("counts_shown", Boolean, nullable=False),
    Column("version", Integer, nullable=False),
)
learners = Table(
    "room_learners",
    schema,
    Column("seq", Integer, primary_key=True, autoincrement=True),  # the joining order
    Column("room", String(8), nullable=False, index=True),
    Column("key", String(KEY_LENGTH), nullable=False),
    Column("nickname", String(128), nullable=False),
    Column("joined", Float, nullable=False),
)
questions = Table(
    "room_questions",
    schema,
    Column("room", String(8), nullable=False),
    Column("question", String(200), nullable=False),
    Column("opened", Float, nullable=False),
    PrimaryKeyConstraint("room", "question"),
)
answers = Table(
    "room_answers",
    schema,
    Column("room", String(8), nullable=False),
    Column("question", String(200), nullable=False),
    Column("learner", String(KEY_LENGTH), nullable=False),
    Column("answer", Text, nullable=False),  # JSON
    Column("first_answer", Text, nullable=False),  # JSON: the first, for the summary
    Column("answered", Float, nullable=False),
    PrimaryKeyConstraint("room", "question", "learner"),
)
classroom_keys = Table(  # the app's (the hub has its own login)
    "room_classroom_keys",
    schema,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
    Column("made", Float, nullable=False),
)
schema_version = Table("room_schema", schema, Column("version", Integer, nullable=False))


def default_room_db() -> Path:
    """``$TUTOR_ROOM_DB`` if set, else ``~/.wizard-tutor/live-room.sqlite3`` (beside the
    progress file the app keeps in the same folder)."""
    override = os.environ.get(ROOM_DB_VARIABLE)
    if override:
        return Path(override).expanduser()
    return Path.home() / ".wizard-tutor" / "live-room.sqlite3"


@dataclass
class StoredRoom:
    """A room as the store has it."""

    code: str
    question: str | None
    phase: str
    counts_shown: bool
    version: int
    learners: dict[str, str] = field(default_factory=dict)
    """learner key -> nickname, in joining order."""
    questions: list[str] = field(default_factory=list)
    """question keys, in the order first opened."""
    answers: dict[str, dict[str, tuple[object, object]]] = field(default_factory=dict)
    """question key -> learner key -> (answer, first answer)."""


@dataclass(frozen=True)
class ClassroomKeys:
    """The secrets of the app in classroom mode that outlive a restart on the same room's
    file (new ones only when the teacher asks: ``--new-token``)."""

    token: str
    """The classroom token: part of every course address handed out."""
    teacher: str
    """The teacher's key: part of the teacher's start address."""
    cookie_secret: bytes
    """Signs the browsers' cookies (the course's login, the teacher's sign-in): kept, a
    browser signed in before a restart is still signed in after it."""

    @classmethod
    def made_now(cls) -> ClassroomKeys:
        return cls(
            token=secrets.token_urlsafe(24),
            teacher=secrets.token_urlsafe(24),
            cookie_secret=secrets.token_bytes(32),
        )

    def __repr__(self) -> str:
        return "ClassroomKeys(<secret>)"  # never in a log or a traceback


class RoomStoreError(RuntimeError):
    """The room's file or database cannot be used (not a database, or a newer schema's):
    the message names it and what to do; nothing in it was changed."""


_FILE_ADVICE = (
    "start the app with another file (--room-db FILE, or TUTOR_ROOM_DB), or move this one away"
)
_HUB_ADVICE = "point the class results' service at another database (TUTOR_CLASS_DB_URL)"


class RoomStore:
    """The rooms of ``owner`` (a teacher's hub name; ``""`` in the app) in ``engine``'s
    database, its tables made or migrated to :data:`SCHEMA_VERSION` when opened. ``where``
    names the database in errors, ``advice`` says what to do about one."""

    def __init__(
        self, engine: Engine, *, owner: str = "", where: str = "", advice: str = _HUB_ADVICE
    ) -> None:
        self.engine, self.owner = engine, owner
        self.where = where or f"the class database {engine.url.render_as_string()!r}"
        try:
            with self._schema_change() as db:
                prepare_schema(db, self.where, advice)
        except SQLAlchemyError as error:
            raise RoomStoreError(
                f"{self.where} cannot be used: {_reason(error)}; {advice}"
            ) from None

    @classmethod
    def open_file(cls, path: Path | str) -> RoomStore:
        """The app's store: the SQLite file ``path``, made (its owner's only) if new."""
        path = Path(path)
        where = f"the live room's file {str(path)!r}"
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            with contextlib.suppress(FileExistsError):  # a new file: its owner's only
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except OSError as error:
            raise RoomStoreError(f"{where} cannot be used: {error}; {_FILE_ADVICE}") from None
        engine = create_engine(f"sqlite:///{path}", connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _write_ahead_log)
        try:
            with engine.connect() as db:  # a database at all? (before anything is changed)
                db.exec_driver_sql("SELECT count(*) FROM sqlite_master")
        except SQLAlchemyError as error:
            engine.dispose()
            raise RoomStoreError(
                f"{where} cannot be opened as a database ({_reason(error)}): {_FILE_ADVICE}; "
                "it was left as it was"
            ) from None
        for suffix in ("", "-wal", "-shm"):  # a file made by an older version, or copied,
            with contextlib.suppress(FileNotFoundError):  # may be readable by everyone
                os.chmod(f"{path}{suffix}", 0o600)
        try:
            return cls(engine, where=where, advice=_FILE_ADVICE)
        except RoomStoreError:
            engine.dispose()
            raise

    def close(self) -> None:
        self.engine.dispose()

    @contextlib.contextmanager
    def _schema_change(self) -> Iterator[Connection]:
        """A transaction that holds changes of tables too: SQLite's Python driver begins
        none before ``CREATE`` or ``ALTER`` (it does before ``INSERT``), so it is begun
        here, and a migration is kept whole or not at all."""
        with self.engine.begin() as db:
            driver = db.connection.dbapi_connection
            if db.dialect.name == "sqlite" and not getattr(driver, "in_transaction", True):
                db.exec_driver_sql("BEGIN IMMEDIATE")
            yield db

    def _insert(self, table: Table) -> Any:
        """An ``INSERT`` that can say what to do on a conflict (each dialect its own)."""
        dialect = self.engine.dialect.name
        if dialect == "sqlite":
            return sqlite.insert(table)
        if dialect == "postgresql":
            return postgresql.insert(table)
        raise ValueError(
            f"the live room: database {dialect!r} is not supported; use sqlite or postgresql"
        )

    # -- rooms -----------------------------------------------------------------------------

    def recent_room(self, *, now: float | None = None) -> StoredRoom | None:
        """The owner's room used last, if within :data:`CONTINUE_HOURS`, with everything
        in it."""
        now = time.time() if now is None else now
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
                    answers.c.question, answers.c.learner, answers.c.answer, answers.c.first_answer
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
        """Every room's code, of every owner (a new code must be none of them)."""
        with self.engine.connect() as db:
            return set(db.scalars(select(rooms.c.code)))

    def owner_of(self, code: str) -> str | None:
        """Whose room ``code`` is (a teacher's hub name), if it is a room here."""
        with self.engine.connect() as db:
            return db.scalar(select(rooms.c.owner).where(rooms.c.code == code))

    def add_room(self, code: str) -> None:
        now = time.time()
        with self.engine.begin() as db:
            db.execute(
                rooms.insert().values(
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
        """The room's current question and phase (and, for a question opened for the first
        time, its place in the summary's order)."""
        now = time.time()
        with self.engine.begin() as db:
            db.execute(
                update(rooms)
                .where(rooms.c.code == code)
                .values(
                    used=now,
                    question=question,
                    phase=phase,
                    counts_shown=counts_shown,
                    version=version,
                )
            )
            if question is not None:
                db.execute(
                    self._insert(questions)
                    .values(room=code, question=question, opened=now)
                    .on_conflict_do_nothing()
                )

    # -- the classroom's keys ---------------------------------------------------------------

    def classroom_keys(self, *, renew: bool = False) -> ClassroomKeys:
        """The keys kept here, made (and kept) the first time, or new ones when ``renew``:
        the course addresses and the teacher's start address of the last start stop
        working, and every browser must sign in again."""
        with self.engine.begin() as db:
            kept = dict(db.execute(select(classroom_keys.c.name, classroom_keys.c.value)).all())
            if renew or not {"token", "teacher", "cookie_secret"} <= kept.keys():
                made = ClassroomKeys.made_now()
                kept = {
                    "token": made.token,
                    "teacher": made.teacher,
                    "cookie_secret": made.cookie_secret.hex(),
                }
                now = time.time()
                db.execute(delete(classroom_keys))
                db.execute(
                    classroom_keys.insert(),
                    [{"name": name, "value": value, "made": now} for name, value in kept.items()],
                )
        return ClassroomKeys(
            token=kept["token"],
            teacher=kept["teacher"],
            cookie_secret=bytes.fromhex(kept["cookie_secret"]),
        )

    # -- learners and answers ----------------------------------------------------------------

    def add_learner(self, code: str, key: str, nickname: str) -> None:
        with self.engine.begin() as db:
            db.execute(
                learners.insert().values(room=code, key=key, nickname=nickname, joined=time.time())
            )

    def save_answer(
        self, code: str, question: str, learner: str, answer: object, first: object, version: int
    ) -> None:
        """The learner's answer to ``question`` (replacing their earlier one; ``first`` is
        their first answer to it, kept for the summary)."""
        now = time.time()
        insert = self._insert(answers).values(
            room=code,
            question=question,
            learner=learner,
            answer=json.dumps(answer),
            first_answer=json.dumps(first),
            answered=now,
        )
        with self.engine.begin() as db:
            db.execute(
                insert.on_conflict_do_update(
                    index_elements=["room", "question", "learner"],
                    set_={"answer": insert.excluded.answer, "answered": insert.excluded.answered},
                )
            )
            db.execute(update(rooms).where(rooms.c.code == code).values(used=now, version=version))


def _reason(error: SQLAlchemyError) -> str:
    """The database's own words for ``error`` (not SQLAlchemy's wrapping of them)."""
    return str(getattr(error, "orig", None) or error)


def _write_ahead_log(connection: Any, _record: object) -> None:
    """The app's file: WAL, commits not flushed at once (see the module's docstring)."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


# -- the schema's versions ---------------------------------------------------------------------

_APP_TABLES_0 = {"rooms", "pupils", "questions", "answers", "classroom_keys"}
"""The app's file before :data:`SCHEMA_VERSION` 1 (stdlib ``sqlite3``, no version kept)."""
_HUB_TABLES_0 = {"room_rooms", "room_pupils", "room_questions", "room_answers"}
"""The hub's room tables before version 1 (learners in ``room_pupils``, ``pupil`` columns)."""


def prepare_schema(db: Connection, where: str, advice: str) -> None:
    """The room's tables in ``db`` at :data:`SCHEMA_VERSION`: made if there are none,
    migrated from an older version, refused (:class:`RoomStoreError`) if newer."""
    tables = set(inspect(db).get_table_names())
    if schema_version.name in tables:
        found = db.scalar(select(schema_version.c.version)) or 0
        if found > SCHEMA_VERSION:
            raise RoomStoreError(
                f"{where} holds the live room of a newer wizard-tutor (its schema {found}, "
                f"this one knows up to {SCHEMA_VERSION}): upgrade wizard-tutor, or {advice}; "
                "nothing in it was changed"
            )
        if found == SCHEMA_VERSION:
            return
    if tables >= _APP_TABLES_0:
        _migrate_app_file_0(db)
    elif tables >= _HUB_TABLES_0:
        _migrate_hub_tables_0(db)
    schema.create_all(db)
    db.execute(delete(schema_version))
    db.execute(schema_version.insert().values(version=SCHEMA_VERSION))


def _migrate_app_file_0(db: Connection) -> None:
    """The app's file of version 0 (SQLite only): every row copied into the new tables in
    its order (learners by joining), the old tables dropped."""
    schema.create_all(db)
    for statement in (
        "INSERT INTO room_rooms (code, owner, created, used, question, phase, counts_shown,"
        " version) SELECT code, '', created, used, question, phase, counts_shown, version"
        " FROM rooms",
        "INSERT INTO room_learners (room, key, nickname, joined)"
        " SELECT room, key, nickname, joined FROM pupils ORDER BY joined, rowid",
        "INSERT INTO room_questions (room, question, opened)"
        " SELECT room, question, opened FROM questions",
        "INSERT INTO room_answers (room, question, learner, answer, first_answer, answered)"
        " SELECT room, question, pupil, answer, first_answer, answered FROM answers",
        "INSERT INTO room_classroom_keys (name, value, made) SELECT name, value, made"
        " FROM classroom_keys",
    ):
        db.execute(text(statement))
    for old in sorted(_APP_TABLES_0):
        db.execute(text(f"DROP TABLE {old}"))


def _migrate_hub_tables_0(db: Connection) -> None:
    """The hub's tables of version 0 (SQLite or PostgreSQL): ``room_pupils`` renamed
    ``room_learners`` (its index, and on PostgreSQL its key and sequence, with it), the
    answers' ``pupil`` column renamed ``learner``; no row is copied."""
    statements = [
        "ALTER TABLE room_pupils RENAME TO room_learners",
        "ALTER TABLE room_answers RENAME COLUMN pupil TO learner",
        "DROP INDEX IF EXISTS ix_room_pupils_room",
    ]
    if db.dialect.name == "postgresql":
        statements += [
            "ALTER INDEX IF EXISTS room_pupils_pkey RENAME TO room_learners_pkey",
            "ALTER SEQUENCE IF EXISTS room_pupils_seq_seq RENAME TO room_learners_seq_seq",
        ]
    for statement in statements:
        db.execute(text(statement))
    for index in learners.indexes:
        index.create(db, checkfirst=True)
