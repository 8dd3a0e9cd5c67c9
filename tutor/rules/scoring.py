"""Scoring: points for one round, and the score sheet over a game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tutor.errors import InvalidPlayersError, InvalidScoreError
from tutor.rules.checks import is_whole_number
from tutor.rules.seats import check_players, default_names

POINTS_FOR_MEETING_BID = 20
POINTS_PER_TRICK_WHEN_MET = 10
PENALTY_PER_TRICK_OFF = 10


def _count(value: object, what: str) -> int:
    if not is_whole_number(value) or value < 0:
        raise InvalidScoreError(f"invalid {what} {value!r}: it must be a whole number, 0 or more")
    return value


def round_score(bid: int, taken: int) -> int:
    """Points for one round: 20 + 10 per trick if the bid is met exactly, else -10 per trick off.

    >>> round_score(0, 0), round_score(2, 2), round_score(3, 1), round_score(1, 3)
    (20, 40, -20, -20)
    >>> round_score(-1, 0)
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidScoreError: invalid bid -1: it must be a whole number, 0 or more
    """
    return points_for(_count(bid, "bid"), _count(taken, "number of tricks taken"))


def points_for(bid: int, taken: int) -> int:
    """:func:`round_score` for counts the caller vouches for (not checked): a finished
    round's own bids and tricks.

    >>> points_for(2, 2), points_for(3, 1)
    (40, -20)
    """
    if bid_met(bid, taken):
        return POINTS_FOR_MEETING_BID + POINTS_PER_TRICK_WHEN_MET * taken
    return -PENALTY_PER_TRICK_OFF * abs(bid - taken)


def bid_met(bid: int, taken: int) -> bool:
    """Whether a bid is met: exactly the tricks bid were taken, no more and no fewer.

    >>> bid_met(2, 2), bid_met(0, 0), bid_met(2, 3)
    (True, True, False)
    """
    return bid == taken


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One round on the score sheet: per seat the bid, the tricks taken and the points."""

    cards: int
    bids: tuple[int, ...]
    taken: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]

    @property
    def met(self) -> tuple[bool, ...]:
        """Per seat, whether the bid was met this round (:func:`bid_met`)."""
        return tuple(bid_met(b, t) for b, t in zip(self.bids, self.taken, strict=True))


class ScoreSheet:
    """Cumulative scores over the rounds of a game.

    >>> sheet = ScoreSheet(players=4)
    >>> sheet.record(bids=[0, 1, 0, 0], taken=[0, 1, 0, 0]).points
    (20, 30, 20, 20)
    >>> sheet.totals
    (20, 30, 20, 20)
    >>> sheet.record(bids=[0, 1, 0], taken=[0, 1, 0, 0])
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidScoreError: the score sheet has 4 players, got 3 bids: [0, 1, 0]
    """

    def __init__(self, *, players: int, names: Sequence[str] | None = None) -> None:
        self.players = check_players(players)
        self.names = tuple(names) if names is not None else default_names(players)
        if len(self.names) != players:
            raise InvalidPlayersError(
                f"{len(self.names)} names given for {players} players: {list(self.names)!r}"
            )
        self.rows: list[ScoreRow] = []

    def record(
        self, *, bids: Sequence[int], taken: Sequence[int], cards: int | None = None
    ) -> ScoreRow:
        """Add one round (bids and tricks taken per seat) and return its row.

        ``cards`` (the round's cards per player) is optional; given, the tricks taken must
        add up to it.
        """
        for values, what in ((bids, "bids"), (taken, "trick counts")):
            if len(values) != self.players:
                raise InvalidScoreError(
                    f"the score sheet has {self.players} players, "
                    f"got {len(values)} {what}: {list(values)!r}"
                )
        points = tuple(round_score(b, t) for b, t in zip(bids, taken, strict=True))
        if cards is not None and sum(taken) != cards:
            raise InvalidScoreError(
                f"tricks taken {list(taken)!r} add up to {sum(taken)}, "
                f"but the round had {cards} tricks"
            )
        totals = tuple(t + p for t, p in zip(self.totals, points, strict=True))
        row = ScoreRow(
            cards=cards if cards is not None else sum(taken),
            bids=tuple(bids),
            taken=tuple(taken),
            points=points,
            totals=totals,
        )
        self.rows.append(row)
        return row

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total so far (0 before the first round)."""
        return self.rows[-1].totals if self.rows else (0,) * self.players

    def leaders(self) -> list[int]:
        """The seats with the highest total; ties share the win.

        >>> sheet = ScoreSheet(players=3)
        >>> _ = sheet.record(bids=[1, 0, 1], taken=[1, 0, 0])
        >>> sheet.leaders()
        [0]
        """
        best = max(self.totals)
        return [seat for seat, total in enumerate(self.totals) if total == best]

    def bids_met(self) -> tuple[int, ...]:
        """Per seat, in how many of the recorded rounds the bid was met.

        >>> sheet = ScoreSheet(players=3)
        >>> _ = sheet.record(bids=[1, 0, 1], taken=[1, 0, 0])
        >>> _ = sheet.record(bids=[0, 2, 0], taken=[1, 1, 0])
        >>> sheet.bids_met(), len(sheet.rows)
        ((1, 1, 1), 2)
        """
        return tuple(sum(row.met[seat] for row in self.rows) for seat in range(self.players))

    def _repr_html_(self) -> str:
        from tutor.display.html import score_sheet_html

        return score_sheet_html(self)

    def __repr__(self) -> str:
        return f"<ScoreSheet players={self.players} rounds={len(self.rows)} totals={self.totals}>"
