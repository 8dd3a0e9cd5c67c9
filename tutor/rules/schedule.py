"""How many cards each round deals, for each game length."""

from __future__ import annotations

from enum import StrEnum

from tutor.errors import UnknownVariantError
from tutor.rules.cards import DECK_SIZE
from tutor.rules.seats import check_players


class GameLength(StrEnum):
    """The game lengths: the standard game, five rounds, and the AMIGO tournament."""

    STANDARD = "standard"
    """Rounds of 1, 2, 3, ... cards until every card is dealt (60 / players rounds)."""
    FIVE = "five"
    """Five rounds of 1 to 5 cards."""
    TOURNAMENT = "tournament"
    """Ten rounds on the AMIGO tournament schedule; the last deals every card."""


_TOURNAMENT = {
    3: (2, 4, 6, 8, 10, 12, 14, 16, 18, 20),
    4: (1, 3, 5, 7, 9, 11, 12, 13, 14, 15),
    5: (2, 4, 5, 6, 7, 8, 9, 10, 11, 12),
    6: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
}


def parse_length(length: GameLength | str) -> GameLength:
    """A :class:`GameLength` from itself or its name.

    >>> parse_length("tournament")
    <GameLength.TOURNAMENT: 'tournament'>
    >>> parse_length("forever")
    Traceback (most recent call last):
    ...
    tutor.errors.UnknownVariantError: unknown game length: 'forever'; known: 'standard', 'five', 'tournament'
    """
    if isinstance(length, GameLength):
        return length
    if isinstance(length, str):
        name = length.strip().lower()
        aliases = {"5": "five", "five rounds": "five", "5 rounds": "five", "amigo": "tournament"}
        name = aliases.get(name, name)
        for known in GameLength:
            if name == known.value:
                return known
    raise UnknownVariantError(
        f"unknown game length: {length!r}; known: "
        + ", ".join(repr(known.value) for known in GameLength)
    )


def cards_per_round(players: int, length: GameLength | str = "standard") -> list[int]:
    """The cards dealt to each player in each round of a game, in order.

    >>> cards_per_round(4)[-3:], len(cards_per_round(3)), len(cards_per_round(6))
    ([13, 14, 15], 20, 10)
    >>> cards_per_round(5, "five")
    [1, 2, 3, 4, 5]
    >>> cards_per_round(4, "tournament")
    [1, 3, 5, 7, 9, 11, 12, 13, 14, 15]
    >>> cards_per_round(2)
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidPlayersError: invalid number of players 2: Wizard is played by 3 to 6 players
    """
    players = check_players(players)
    chosen = parse_length(length)
    if chosen is GameLength.FIVE:
        return [1, 2, 3, 4, 5]
    if chosen is GameLength.TOURNAMENT:
        return list(_TOURNAMENT[players])
    return list(range(1, DECK_SIZE // players + 1))
