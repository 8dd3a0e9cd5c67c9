"""A whole score sheet, a fact (``kind = "score-sheet"``; the fact is
:class:`tutor.teaching.lesson.ScoreSheetFact`)."""

from __future__ import annotations

from tutor.rules.checks import is_whole_number
from tutor.teaching.lesson import Fact, ScoreSheetFact
from tutor.teaching.lesson_reader import ItemKind, TableReader, describe_value, read_players


def _rows(r: TableReader, key: str, players: int) -> tuple[tuple[int, ...], ...]:
    rows = r._get(key, list)
    for row in rows:
        if (
            not isinstance(row, list)
            or len(row) != players
            or not all(is_whole_number(v) for v in row)
        ):
            raise r.fail(
                f"each row of {key!r} lists one whole number per player ({players}), "
                f"got {describe_value(row)}"
            )
    return tuple(tuple(row) for row in rows)


def read_sheet(r: TableReader) -> ScoreSheetFact:
    """The sheet an item states: ``players``, then ``bids`` and ``taken``, one row per
    round from round 1 (the questions about a sheet read it too)."""
    names = read_players(r)
    bids, taken = _rows(r, "bids", len(names)), _rows(r, "taken", len(names))
    return r.engine(lambda: ScoreSheetFact(names=names, bids=bids, taken=taken))  # type: ignore[no-any-return]


def read_item(r: TableReader) -> Fact:
    """A score-sheet item of a lesson file, what it states checked against the engine."""
    fact = read_sheet(r)
    stated, engine = r.integers("totals"), fact.sheet().totals
    if stated != engine:
        raise r.fail(f"states totals {list(stated)} but the engine says {list(engine)}")
    if r.has("winners"):
        stated_winners = r.names("winners")
        if list(stated_winners or ()) != fact.winners():
            raise r.fail(
                f"states winners {' '.join(stated_winners or ())!r} but the engine says "
                f"{' '.join(fact.winners())!r} (highest total; ties share the win)"
            )
    return fact


KIND = ItemKind(
    "score-sheet", ("players", "bids", "taken", "totals", "winners"), read_item, asks=False
)
