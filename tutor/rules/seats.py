"""Seats at the table: how many players may play, their default names, and the order
clockwise from a seat."""

from __future__ import annotations

from collections.abc import Sequence
from string import ascii_uppercase

from tutor.errors import InvalidPlayersError
from tutor.rules.checks import is_whole_number

MIN_PLAYERS = 3
MAX_PLAYERS = 6


def check_players(players: object) -> int:
    """``players`` if it is a playable count (3 to 6), else :class:`InvalidPlayersError`.

    >>> check_players(4)
    4
    >>> check_players(7)
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidPlayersError: invalid number of players 7: Wizard is played by 3 to 6 players
    """
    if not is_whole_number(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidPlayersError(
            f"invalid number of players {players!r}: "
            f"Wizard is played by {MIN_PLAYERS} to {MAX_PLAYERS} players"
        )
    return players


def default_names(players: int) -> tuple[str, ...]:
    """Seat names A, B, C, ... for ``players`` seats.

    >>> default_names(4)
    ('A', 'B', 'C', 'D')
    """
    return tuple(ascii_uppercase[:players])


def seat_order(first: int, players: int) -> Sequence[int]:
    """Seats clockwise starting from ``first``.

    >>> list(seat_order(3, 4))
    [3, 0, 1, 2]
    """
    return [(first + offset) % players for offset in range(players)]
