"""Where the live room keeps its learners and their answers: one SQLite file (stdlib
``sqlite3``), so that a server restarted in the middle of a lesson continues the same room
(the same code, the learners' keys, every answer given so far) and the summary survives the
lesson.

The server holds the room in memory (:class:`tutor.web.room.Room`) and writes every
change here before it answers the request that made it: an answer is counted once it is
in the file. WAL mode with ``synchronous=NORMAL``: a commit is not flushed to the disk at
once (an answer is ~0.1 ms of CPU, not a disk flush), and still survives the server being
killed; only the machine losing power may lose the last moments.

The app in classroom mode keeps its own secrets here too (:class:`ClassroomKeys`: the
classroom token, the teacher's key, the secret that signs the browsers' cookies), so that
a restart on the same file keeps the links handed out and every browser signed in. The
file is therefore readable by its owner only (0600), as are SQLite's ``-wal`` and ``-shm``
files beside it (SQLite gives them the database's permissions).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOM_DB_VARIABLE = "TUTOR_ROOM_DB"
"""The room's SQLite file, chosen by whoever starts the app (else :func:`default_room_db`)."""

CONTINUE_HOURS = 12.0
"""A room used this recently is continued by a server started on the same file."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    created REAL NOT NULL,
    used REAL NOT NULL,
    question TEXT,
    phase TEXT NOT NULL,
    counts_shown INTEGER NOT NULL,
    version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS pupils (
    room TEXT NOT NULL,
    key TEXT NOT NULL,
    nickname TEXT NOT NULL,
    joined REAL NOT NULL,
    PRIMARY KEY (room, key)
);
CREATE TABLE IF NOT EXISTS questions (
    room TEXT NOT NULL,
    question TEXT NOT NULL,
    opened REAL NOT NULL,
    PRIMARY KEY (room, question)
);
CREATE TABLE IF NOT EXISTS classroom_keys (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    made REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS answers (
    room TEXT NOT NULL,
    question TEXT NOT NULL,
    pupil TEXT NOT NULL,
    answer TEXT NOT NULL,
    first_answer TEXT NOT NULL,
    answered REAL NOT NULL,
    PRIMARY KEY (room, question, pupil)
);
"""


def default_room_db() -> Path:
    """``$TUTOR_ROOM_DB`` if set, else ``~/.wizard-tutor/live-room.sqlite3`` (beside the
    progress file the app keeps in the same folder)."""
    override = os.environ.get(ROOM_DB_VARIABLE)
    if override:
        return Path(override).expanduser()
    return Path.home() / ".wizard-tutor" / "live-room.sqlite3"


@dataclass
class StoredRoom:
    """A room as the file has it."""

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
    """The room's file cannot be opened or is not a room's file."""


class RoomStore:
    """The rooms of one SQLite file."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        try:
            if str(path) != ":memory:":
                self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                with contextlib.suppress(FileExistsError):  # a new file: its owner's only
                    os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self._db.execute("SELECT count(*) FROM sqlite_master")  # a database at all?
            if str(path) != ":memory:":
                self._owner_only()
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except (sqlite3.Error, OSError) as error:
            raise RoomStoreError(
                f"the live room's file {str(path)!r} cannot be used: {error}"
            ) from None

    def close(self) -> None:
        self._db.close()

    def _owner_only(self) -> None:
        """The file, and SQLite's files beside it, readable by their owner only: a file
        made before the store kept secrets (or copied) may be readable by everyone."""
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.chmod(f"{self.path}{suffix}", 0o600)

    def _write(self, *statements: tuple[str, tuple[object, ...]]) -> None:
        """Run ``statements`` in one transaction: all of them are kept, or none."""
        with self._transaction():
            for sql, values in statements:
                self._db.execute(sql, values)

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    # -- rooms -----------------------------------------------------------------------------

    def recent_room(self, *, now: float | None = None) -> StoredRoom | None:
        """The room used last, if within :data:`CONTINUE_HOURS`, with everything in it."""
        now = time.time() if now is None else now
        row = self._db.execute(
            "SELECT code, question, phase, counts_shown, version, used FROM rooms "
            "ORDER BY used DESC LIMIT 1"
        ).fetchone()
        if row is None or now - row[5] > CONTINUE_HOURS * 3600:
            return None
        room = StoredRoom(row[0], row[1], row[2], bool(row[3]), row[4])
        for key, nickname in self._db.execute(
            "SELECT key, nickname FROM pupils WHERE room = ? ORDER BY joined, rowid", (room.code,)
        ):
            room.learners[key] = nickname
        room.questions = [
            question
            for (question,) in self._db.execute(
                "SELECT question FROM questions WHERE room = ? ORDER BY opened, rowid", (room.code,)
            )
        ]
        for question, learner, answer, first in self._db.execute(
            "SELECT question, pupil, answer, first_answer FROM answers WHERE room = ? "
            "ORDER BY answered, rowid",
            (room.code,),
        ):
            room.answers.setdefault(question, {})[learner] = (json.loads(answer), json.loads(first))
        return room

    def codes(self) -> set[str]:
        return {code for (code,) in self._db.execute("SELECT code FROM rooms")}

    def add_room(self, code: str) -> None:
        now = time.time()
        self._write(
            (
                "INSERT INTO rooms (code, created, used, question, phase, counts_shown, version) "
                "VALUES (?, ?, ?, NULL, 'waiting', 1, 0)",
                (code, now, now),
            )
        )

    def save_room(
        self, code: str, *, question: str | None, phase: str, counts_shown: bool, version: int
    ) -> None:
        """The room's current question and phase (and, for a question opened for the first
        time, its place in the summary's order)."""
        statements: list[tuple[str, tuple[object, ...]]] = [
            (
                "UPDATE rooms SET used = ?, question = ?, phase = ?, counts_shown = ?, "
                "version = ? WHERE code = ?",
                (time.time(), question, phase, int(counts_shown), version, code),
            )
        ]
        if question is not None:
            statements.append(
                (
                    "INSERT OR IGNORE INTO questions (room, question, opened) VALUES (?, ?, ?)",
                    (code, question, time.time()),
                )
            )
        self._write(*statements)

    # -- the classroom's keys ---------------------------------------------------------------

    def classroom_keys(self, *, renew: bool = False) -> ClassroomKeys:
        """The keys kept in this file, made (and kept) the first time, or new ones when
        ``renew``: the course addresses and the teacher's start address of the last start
        stop working, and every browser must sign in again."""
        with self._transaction():
            kept = dict(self._db.execute("SELECT name, value FROM classroom_keys"))
            if renew or not {"token", "teacher", "cookie_secret"} <= kept.keys():
                made = ClassroomKeys.made_now()
                kept = {
                    "token": made.token,
                    "teacher": made.teacher,
                    "cookie_secret": made.cookie_secret.hex(),
                }
                now = time.time()
                self._db.executemany(
                    "INSERT OR REPLACE INTO classroom_keys (name, value, made) VALUES (?, ?, ?)",
                    [(name, value, now) for name, value in kept.items()],
                )
        return ClassroomKeys(
            token=kept["token"],
            teacher=kept["teacher"],
            cookie_secret=bytes.fromhex(kept["cookie_secret"]),
        )

    # -- learners and answers ----------------------------------------------------------------

    def add_learner(self, code: str, key: str, nickname: str) -> None:
        self._write(
            (
                "INSERT INTO pupils (room, key, nickname, joined) VALUES (?, ?, ?, ?)",
                (code, key, nickname, time.time()),
            )
        )

    def save_answer(
        self, code: str, question: str, learner: str, answer: object, first: object, version: int
    ) -> None:
        """The learner's answer to ``question`` (replacing their earlier one; ``first`` is
        their first answer to it, kept for the summary)."""
        now = time.time()
        self._write(
            (
                "INSERT INTO answers (room, question, pupil, answer, first_answer, answered) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (room, question, pupil) "
                "DO UPDATE SET answer = excluded.answer, answered = excluded.answered",
                (code, question, learner, json.dumps(answer), json.dumps(first), now),
            ),
            ("UPDATE rooms SET used = ?, version = ? WHERE code = ?", (now, version, code)),
        )


class _Transaction:
    """``BEGIN`` ... ``COMMIT`` (``ROLLBACK`` on an error) on an autocommit connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *rest: object) -> None:
        self._db.execute("ROLLBACK" if kind is not None else "COMMIT")
