"""The fast simulator's card codes: cards as integers 0-59, in the order of
:data:`tutor.rules.cards.DECK`: ``suit * 13 + rank - 1`` for number cards (suits Y R G B
are 0-3), 52-55 for the four Wizards and 56-59 for the four Jesters. Wizards (and
Jesters) are interchangeable values in the engine; here each copy has its own code so a
deal holds 60 different codes. Trump suits are indices 0-3, :data:`NO_TRUMP` for none.
"""

from __future__ import annotations

from collections.abc import Iterable

from tutor.errors import InvalidCardError
from tutor.rules.cards import DECK, DECK_SIZE, MAX_RANK, Card, Suit, parse_card
from tutor.rules.checks import is_whole_number

SUITS: tuple[Suit, ...] = tuple(Suit)
NUMBER_CARDS = len(SUITS) * MAX_RANK
WIZARD_CODES = range(NUMBER_CARDS, NUMBER_CARDS + 4)
JESTER_CODES = range(NUMBER_CARDS + 4, DECK_SIZE)
NO_CARD = -1
"""The turned-card code when every card was dealt and nothing was turned."""
NO_TRUMP = len(SUITS)
"""The trump index of a round without trump (suits are 0-3, in Y R G B order)."""


def card_code(card: Card | str, copy: int = 0) -> int:
    """The code (0-59) of ``card``; ``copy`` (0-3) picks one of the four Wizards or Jesters.

    >>> card_code("Y1"), card_code("R9"), card_code("B13"), card_code("W"), card_code("J", 3)
    (0, 21, 51, 52, 59)
    >>> card_code("W", 4)
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: invalid copy 4 of W: the deck has 4 of them, copies 0 to 3
    """
    parsed = parse_card(card)
    if parsed.is_number:
        if copy != 0:
            raise InvalidCardError(f"invalid copy {copy!r} of {parsed}: a number card is unique")
        assert parsed.suit is not None and parsed.rank is not None
        return SUITS.index(parsed.suit) * MAX_RANK + parsed.rank - 1
    codes = WIZARD_CODES if parsed.is_wizard else JESTER_CODES
    if not is_whole_number(copy) or not 0 <= copy < len(codes):
        raise InvalidCardError(
            f"invalid copy {copy!r} of {parsed}: the deck has {len(codes)} of them, "
            f"copies 0 to {len(codes) - 1}"
        )
    return codes[copy]


def encode_cards(cards: Iterable[Card | str]) -> list[int]:
    """Codes for ``cards``: the first Wizard is 52, the next 53, ...; Jesters likewise.

    >>> encode_cards("W R9 W J".split())
    [52, 21, 53, 56]
    >>> encode_cards(["R9", "R9"])
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: these cards cannot come from one deck: R9 appears 2 times, but the deck has 1
    """
    codes: list[int] = []
    copies = {"W": 0, "J": 0}
    for item in cards:
        card = parse_card(item)
        name = str(card)
        if name in copies:
            if copies[name] >= 4:
                raise InvalidCardError(
                    f"these cards cannot come from one deck: {name} appears "
                    f"{copies[name] + 1} times, but the deck has 4"
                )
            codes.append(card_code(card, copies[name]))
            copies[name] += 1
        else:
            code = card_code(card)
            if code in codes:
                raise InvalidCardError(
                    f"these cards cannot come from one deck: {name} appears 2 times, "
                    "but the deck has 1"
                )
            codes.append(code)
    return codes


def decode_card(code: int) -> Card:
    """The card of ``code``.

    >>> decode_card(21), decode_card(55), decode_card(56)
    (Card.parse('R9'), Card.parse('W'), Card.parse('J'))
    >>> decode_card(60)
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: invalid card code 60: codes run from 0 to 59
    """
    index = int(code)
    if not 0 <= index < DECK_SIZE:
        raise InvalidCardError(f"invalid card code {code!r}: codes run from 0 to {DECK_SIZE - 1}")
    return DECK[index]


def decode_cards(codes: Iterable[int]) -> list[Card]:
    """The cards of ``codes``.

    >>> decode_cards([52, 21, 53, 56])
    [Card.parse('W'), Card.parse('R9'), Card.parse('W'), Card.parse('J')]
    """
    return [decode_card(code) for code in codes]


def trump_index(trump: Suit | None) -> int:
    """The index of a trump suit (0-3 in Y R G B order), or :data:`NO_TRUMP`.

    >>> trump_index(Suit.RED), trump_index(None)
    (1, 4)
    """
    return NO_TRUMP if trump is None else SUITS.index(trump)


def trump_of_index(index: int) -> Suit | None:
    """The trump suit of an index from :func:`trump_index` (``None``: no trump).

    >>> trump_of_index(1), trump_of_index(4)
    (<Suit.RED: 'R'>, None)
    """
    return None if int(index) == NO_TRUMP else SUITS[int(index)]
