"""The cards per round for several player counts, a fact (``kind = "schedule-table"``; the
fact is :class:`tutor.teaching.lesson.ScheduleTableFact`)."""

from __future__ import annotations

from tutor.rules.seats import check_players
from tutor.teaching.lesson import Fact, ScheduleTableFact
from tutor.teaching.lesson_reader import ItemKind, TableReader, read_length


def _player_counts(r: TableReader, key: str) -> dict[int, object]:
    table = r.data.get(key, {})
    if not isinstance(table, dict):
        raise r.fail(f"{key!r} must be a table by player count, e.g. {key} = {{ 4 = ... }}")
    counts: dict[int, object] = {}
    for count, value in table.items():
        if not count.isdigit():
            raise r.fail(f"{key!r} is keyed by a player count, not {count!r}")
        players = int(count)
        r.engine(lambda: check_players(players))  # noqa: B023 (called at once)
        counts[players] = value
    return counts


def read_item(r: TableReader) -> Fact:
    """A schedule-table item of a lesson file, what it states checked against the engine."""
    length = read_length(r)
    rounds = _player_counts(r, "rounds")
    schedules = _player_counts(r, "schedules")
    if not rounds and not schedules:
        raise r.fail("state 'rounds' or 'schedules' by player count, e.g. rounds = { 4 = 15 }")
    fact = ScheduleTableFact(players=tuple(sorted({*rounds, *schedules})), length=length)
    for players, engine in fact.schedules().items():
        if players in rounds and rounds[players] != len(engine):
            raise r.fail(
                f"states {rounds[players]!r} rounds for {players} players but the engine "
                f"says {len(engine)}"
            )
        if players in schedules and schedules[players] != engine:
            raise r.fail(
                f"states the schedule {schedules[players]!r} for {players} players but the "
                f"engine says {engine}"
            )
    return fact


KIND = ItemKind("schedule-table", ("length", "rounds", "schedules"), read_item, asks=False)
