"""The class's events in a database, through SQLAlchemy (which JupyterHub already needs):
SQLite by default, PostgreSQL when ``TUTOR_CLASS_DB_URL`` names one. Each event is kept
once (by learner and event id), so a report sent twice changes nothing; a ``step`` event
is not kept as an event but moves the learner's place on its page (one row per learner
and page), unless a later step of that page or a later reset came first.

The teacher service (:mod:`tutor.hub.teacher_service`) fills it from the learners'
servers' reports and reads it at each load of the teacher's page.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Engine,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    and_,
    create_engine,
    delete,
    or_,
    select,
)
from sqlalchemy.dialects import postgresql, sqlite

from tutor.teaching.progress_events import (
    FINISHED,
    MAX_ANSWER_CHOICES,
    MAX_RULES,
    RESET,
    AnswerCode,
    AnswerEvent,
    AnswerSource,
    Event,
    FinishedEvent,
    ResetEvent,
    StepEvent,
)

DB_URL_VARIABLE = "TUTOR_CLASS_DB_URL"

metadata = MetaData()
events_table = Table(
    "progress_events",
    metadata,
    # the order events arrived in, which is the order each learner's file has them in
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("learner", String(128), nullable=False),
    Column("event_id", String(32), nullable=False),
    Column("time", String(40), nullable=False),
    Column("kind", String(16), nullable=False),
    # a quiz answer's lesson, or a finished event's page (one column: a database made
    # before the finished event came keeps working unchanged)
    Column("lesson", String(80)),
    Column("item", String(100)),
    Column("topic", String(40)),
    Column("correct", Boolean),
    Column("first_try", Boolean),
    Column("received", DateTime(timezone=True), nullable=False),
    UniqueConstraint("learner", "event_id", name="one_event_once"),
)
# The rules a practice or review answer named (version 4 events): a table of its own, one
# row an answer with rules, the ids joined by spaces (create_all adds tables to an older
# database, never columns).
rules_table = Table(
    "answer_rules",
    metadata,
    Column("learner", String(128), primary_key=True),
    Column("event_id", String(32), primary_key=True),
    Column("rules", String(MAX_RULES * 64), nullable=False),
)
# What a quiz answer was (version 5 events' ``answer``, as the event's JSON has it: a
# number, or a list of choice positions of up to two digits): a table of its own, one row an
# answer that says (create_all adds tables to an older database, never columns).
answers_table = Table(
    "quiz_answers",
    metadata,
    Column("learner", String(128), primary_key=True),
    Column("event_id", String(32), primary_key=True),
    Column("answer", String(3 * MAX_ANSWER_CHOICES + 2), nullable=False),
)
# Where each learner is on each stepped page: the latest step event since their last reset,
# one row updated in place (a table of its own: create_all adds tables to an older
# database, never columns).
places_table = Table(
    "step_places",
    metadata,
    Column("learner", String(128), primary_key=True),
    Column("page", String(80), primary_key=True),
    Column("step", Integer, nullable=False),
    Column("steps", Integer, nullable=False),
    # the event's time with nine digits after the second (:func:`_moment`): compared as text
    Column("moment", String(40), nullable=False),
    Column("event_id", String(32), nullable=False),
)


def _moment(time: str) -> str:
    """An event's ``time`` in one width, so that times compare as text in SQL ('10:00:00Z'
    sorts after '10:00:00.5Z' as written).

    >>> _moment("2026-12-01T10:00:00Z"), _moment("2026-12-01T10:00:00.5Z")
    ('2026-12-01T10:00:00.000000000Z', '2026-12-01T10:00:00.500000000Z')
    """
    second, _, fraction = time.removesuffix("Z").partition(".")
    return f"{second}.{fraction:0<9}Z"


class EventStore:
    """The class's events in a database (SQLite or PostgreSQL), each kept once."""

    def __init__(self, url: str) -> None:
        self.engine: Engine = create_engine(url, future=True, pool_pre_ping=True)
        metadata.create_all(self.engine)

    def _dialect(self) -> Any:
        dialect = self.engine.dialect.name
        if dialect == "sqlite":
            return sqlite
        if dialect == "postgresql":
            return postgresql
        raise ValueError(
            f"{DB_URL_VARIABLE}: database {dialect!r} is not supported; use sqlite or postgresql"
        )

    def add(self, learner: str, events: Sequence[Event]) -> int:
        """Keep ``events`` of ``learner`` (those already kept are left as they are); how
        many were new. A :class:`StepEvent` is no event kept: it moves the learner's place
        on its page (:meth:`places_by_learner`); in one transaction with the rest."""
        now = datetime.now(UTC)
        rows = [
            {"learner": learner, "received": now, **_row(event)}
            for event in events
            if not isinstance(event, StepEvent)
        ]
        named = [
            {"learner": learner, "event_id": event.id, "rules": " ".join(event.rules)}
            for event in events
            if isinstance(event, AnswerEvent) and event.rules
        ]
        answered = [
            {"learner": learner, "event_id": event.id, "answer": _answer_text(event)}
            for event in events
            if isinstance(event, AnswerEvent) and event.answer is not None
        ]
        steps = [event for event in events if isinstance(event, StepEvent)]
        resets = any(isinstance(event, ResetEvent) for event in events)
        if not rows and not steps:
            return 0
        dialect = self._dialect()
        new = 0
        with self.engine.begin() as connection:
            if rows:
                # the rows kept, counted by what the database returns: a statement's
                # rowcount over many rows is not that on PostgreSQL (psycopg gave 0)
                insert = dialect.insert(events_table).on_conflict_do_nothing()
                new = len(connection.execute(insert.returning(events_table.c.seq), rows).all())
            if named:
                connection.execute(dialect.insert(rules_table).on_conflict_do_nothing(), named)
            if answered:
                insert = dialect.insert(answers_table).on_conflict_do_nothing()
                connection.execute(insert, answered)
            if steps or resets:
                self._move_places(connection, dialect, learner, steps)
        return new

    def _move_places(
        self, connection: Any, dialect: Any, learner: str, steps: Sequence[StepEvent]
    ) -> None:
        """Each page's place of ``learner`` to the latest of ``steps``, unless a later step
        is kept already; a place from before the learner's last reset is forgotten, and a
        step from before it ignored. "Later" is by the events' times (then ids, so that
        the outcome does not depend on the order reports arrive in: a late or repeated
        report moves nothing back)."""
        reset_times = connection.execute(
            select(events_table.c.time).where(
                events_table.c.learner == learner, events_table.c.kind == RESET
            )
        ).scalars()
        last_reset = max(map(_moment, reset_times), default=None)
        if last_reset is not None:
            connection.execute(
                delete(places_table).where(
                    places_table.c.learner == learner, places_table.c.moment <= last_reset
                )
            )
        latest: dict[str, tuple[str, str, StepEvent]] = {}
        for event in steps:
            moment = _moment(event.time)
            if last_reset is not None and moment <= last_reset:
                continue
            kept = latest.get(event.page)
            if kept is None or (moment, event.id) > kept[:2]:
                latest[event.page] = (moment, event.id, event)
        if not latest:
            return
        rows = [
            {
                "learner": learner,
                "page": event.page,
                "step": event.step,
                "steps": event.steps,
                "moment": moment,
                "event_id": event_id,
            }
            for moment, event_id, event in latest.values()
        ]
        insert = dialect.insert(places_table)
        new, held = insert.excluded, places_table.c
        upsert = insert.on_conflict_do_update(
            index_elements=[held.learner, held.page],
            set_={name: new[name] for name in ("step", "steps", "moment", "event_id")},
            where=or_(
                new.moment > held.moment,
                and_(new.moment == held.moment, new.event_id > held.event_id),
            ),
        )
        connection.execute(upsert, rows)

    def places_by_learner(self) -> dict[str, dict[str, StepEvent]]:
        """Each learner's place on each stepped page: the page's latest step event since
        their last reset (its time as :func:`_moment` writes it)."""
        places: dict[str, dict[str, StepEvent]] = {}
        with self.engine.connect() as connection:
            for row in connection.execute(select(places_table)).mappings():
                places.setdefault(row["learner"], {})[row["page"]] = StepEvent(
                    row["page"], row["step"], row["steps"], id=row["event_id"], time=row["moment"]
                )
        return places

    def events_by_learner(self) -> dict[str, list[Event]]:
        """Every learner's events, in the order they arrived."""
        by_learner: dict[str, list[Event]] = {}
        query = (
            select(events_table, rules_table.c.rules, answers_table.c.answer)
            .outerjoin(
                rules_table,
                and_(
                    rules_table.c.learner == events_table.c.learner,
                    rules_table.c.event_id == events_table.c.event_id,
                ),
            )
            .outerjoin(
                answers_table,
                and_(
                    answers_table.c.learner == events_table.c.learner,
                    answers_table.c.event_id == events_table.c.event_id,
                ),
            )
            .order_by(events_table.c.seq)
        )
        with self.engine.connect() as connection:
            for row in connection.execute(query).mappings():
                by_learner.setdefault(row["learner"], []).append(_event(row))
        return by_learner


def _row(event: Event) -> dict[str, Any]:
    """The database's columns of ``event`` (every column, so rows of every kind go in
    one statement)."""
    row: dict[str, Any] = {"event_id": event.id, "time": event.time}
    row |= dict.fromkeys(("lesson", "item", "topic", "correct", "first_try"))
    if isinstance(event, AnswerEvent):
        row |= {
            "kind": event.kind.value,
            "lesson": event.lesson,
            "item": event.item,
            "topic": event.topic,
            "correct": event.correct,
            "first_try": event.first_try,
        }
    elif isinstance(event, FinishedEvent):
        row |= {"kind": FINISHED, "lesson": event.page}
    elif isinstance(event, ResetEvent):
        row |= {"kind": RESET}
    else:  # a new kind of event must get its columns here, not pass for another kind
        raise TypeError(f"no database row for {type(event).__name__}")
    return row


def _event(row: Mapping[Any, Any]) -> Event:
    """The event a database row holds (:func:`_row` in reverse). Rows are not parsed
    again: every event was parsed on its way in
    (:class:`tutor.hub.teacher_service.EventsAPI`), and a page reads every row of the
    class at each load."""
    kind = row["kind"]
    if kind == RESET:
        return ResetEvent(id=row["event_id"], time=row["time"])
    if kind == FINISHED:
        return FinishedEvent(row["lesson"], id=row["event_id"], time=row["time"])
    return AnswerEvent(
        AnswerSource(kind),
        row["topic"],
        row["correct"],
        row["first_try"],
        row["lesson"],
        row["item"],
        id=row["event_id"],
        time=row["time"],
        rules=tuple(row["rules"].split()) if row["rules"] else (),
        answer=_answer_code(row["answer"]),
    )


def _answer_text(event: AnswerEvent) -> str:
    """A quiz answer's ``answer`` as the database keeps it: its JSON, as in the event.

    >>> _answer_text(AnswerEvent(AnswerSource.QUIZ, "score", True, True, answer=(0, 2)))
    '[0,2]'
    """
    return json.dumps(event.to_json()["answer"], separators=(",", ":"))


def _answer_code(kept: str | None) -> AnswerCode | None:
    """:func:`_answer_text` read back (``None``: the answer does not say, as none did
    before version 5).

    >>> _answer_code("3"), _answer_code("[0,2]"), _answer_code(None)
    (3, (0, 2), None)
    """
    if kept is None:
        return None
    value = json.loads(kept)
    return tuple(value) if isinstance(value, list) else int(value)
