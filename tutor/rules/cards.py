"""Cards as values: the four suits, number cards, Wizards, Jesters and the 60-card deck.

Notation (from RULES.md): a suit letter ``Y R G B`` followed by a rank ``1``-``13``
(``R9``, ``B11``), ``W`` for a Wizard and ``J`` for a Jester.

Wizards are interchangeable values, like two white knights in chess: ``W == W``. The deck
holds four of them (and four Jesters) as separate entries, and a hand is a sequence, so it
can hold several.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from tutor.errors import InvalidCardError

MIN_RANK = 1
MAX_RANK = 13
WIZARDS_IN_DECK = 4
JESTERS_IN_DECK = 4
DECK_SIZE = 60


class Suit(StrEnum):
    """The four suits of the AMIGO deck, one letter each; the value is the letter."""

    YELLOW = "Y"
    RED = "R"
    GREEN = "G"
    BLUE = "B"

    @property
    def colour(self) -> str:
        """The English colour name, e.g. ``'red'``."""
        return self.name.lower()


class Kind(StrEnum):
    """What a card is: a number card, a Wizard or a Jester."""

    NUMBER = "N"
    WIZARD = "W"
    JESTER = "J"


@dataclass(frozen=True, slots=True)
class Card:
    """One card. Build it with :func:`parse_card` or the class methods.

    >>> Card.number(Suit.RED, 9)
    Card.parse('R9')
    >>> str(Card.wizard()), Card.jester().is_jester
    ('W', True)
    >>> Card.number(Suit.RED, 14)
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: invalid rank 14 for a red card: ranks run from 1 to 13
    """

    kind: Kind
    suit: Suit | None = None
    rank: int | None = None

    def __post_init__(self) -> None:
        if self.kind is Kind.NUMBER:
            if not isinstance(self.suit, Suit):
                raise InvalidCardError(f"a number card needs a suit, not {self.suit!r}")
            if (
                not isinstance(self.rank, int)
                or isinstance(self.rank, bool)
                or not MIN_RANK <= self.rank <= MAX_RANK
            ):
                raise InvalidCardError(
                    f"invalid rank {self.rank!r} for a {self.suit.colour} card: "
                    f"ranks run from {MIN_RANK} to {MAX_RANK}"
                )
        elif self.suit is not None or self.rank is not None:
            raise InvalidCardError(
                f"a {self.kind.name.title()} has no suit and no rank "
                f"(got suit={self.suit!r}, rank={self.rank!r})"
            )

    @classmethod
    def number(cls, suit: Suit | str, rank: int) -> Card:
        """A number card of ``suit`` (a :class:`Suit` or its letter) and ``rank``."""
        return cls(Kind.NUMBER, parse_suit(suit), rank)

    @classmethod
    def wizard(cls) -> Card:
        """A Wizard."""
        return cls(Kind.WIZARD)

    @classmethod
    def jester(cls) -> Card:
        """A Jester."""
        return cls(Kind.JESTER)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Same as :func:`parse_card`."""
        return parse_card(text)

    @property
    def is_wizard(self) -> bool:
        return self.kind is Kind.WIZARD

    @property
    def is_jester(self) -> bool:
        return self.kind is Kind.JESTER

    @property
    def is_number(self) -> bool:
        return self.kind is Kind.NUMBER

    @property
    def sort_key(self) -> tuple[int, int]:
        """Order for showing a hand: Wizards, then suits Y R G B high to low, then Jesters."""
        if self.kind is Kind.WIZARD:
            return (0, 0)
        if self.kind is Kind.JESTER:
            return (9, 0)
        assert self.suit is not None and self.rank is not None
        return (1 + _SUIT_ORDER[self.suit], -self.rank)

    def __str__(self) -> str:
        if self.kind is Kind.NUMBER:
            return f"{self.suit}{self.rank}"
        return str(self.kind)

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def _repr_svg_(self) -> str:
        from tutor.display.svg import card_svg

        return card_svg(self)


_SUIT_ORDER = {suit: index for index, suit in enumerate(Suit)}
# [0-9], not \d: \d would also accept other scripts' digits such as "R٩".
_CARD_PATTERN = re.compile(r"([YRGB])([0-9]{1,2})|([WJ])", re.IGNORECASE)
_NOTATION_HELP = (
    "write a suit letter Y, R, G or B followed by a rank 1-13 (e.g. 'R9'), "
    "'W' for a Wizard or 'J' for a Jester"
)


def parse_suit(value: Suit | str) -> Suit:
    """A :class:`Suit` from itself or its letter (any case).

    >>> parse_suit("r")
    <Suit.RED: 'R'>
    >>> parse_suit("X")
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: invalid suit 'X': the suits are Y (yellow), R (red), G (green), B (blue)
    """
    if isinstance(value, Suit):
        return value
    if isinstance(value, str):
        letter = value.strip().upper()
        for suit in Suit:
            if letter in (suit.value, suit.name):
                return suit
    raise InvalidCardError(
        f"invalid suit {value!r}: the suits are "
        + ", ".join(f"{suit.value} ({suit.colour})" for suit in Suit)
    )


def parse_card(text: str | Card) -> Card:
    """The card written as ``text`` in the project's notation (a :class:`Card` passes through).

    >>> parse_card("R9"), parse_card("b11"), parse_card("W"), parse_card("J")
    (Card.parse('R9'), Card.parse('B11'), Card.parse('W'), Card.parse('J'))
    >>> parse_card("R14")
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: invalid card 'R14': write a suit letter Y, R, G or B followed by a rank 1-13 (e.g. 'R9'), 'W' for a Wizard or 'J' for a Jester
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise InvalidCardError(f"invalid card {text!r}: a card is written as text; {_NOTATION_HELP}")
    match = _CARD_PATTERN.fullmatch(text.strip())
    if match is None:
        raise InvalidCardError(f"invalid card {text!r}: {_NOTATION_HELP}")
    letter, digits, special = match.groups()
    if special is not None:
        return Card(Kind(special.upper()))
    rank = int(digits)
    if not MIN_RANK <= rank <= MAX_RANK or digits.startswith("0"):
        raise InvalidCardError(f"invalid card {text!r}: {_NOTATION_HELP}")
    return Card(Kind.NUMBER, Suit(letter.upper()), rank)


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Cards from space- or comma-separated notation, or from an iterable of cards/notation.

    >>> parse_cards("J B5 B11 B7")
    [Card.parse('J'), Card.parse('B5'), Card.parse('B11'), Card.parse('B7')]
    >>> parse_cards("")
    []
    >>> parse_cards("J B5 X3")
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: invalid card 'X3': write a suit letter Y, R, G or B followed by a rank 1-13 (e.g. 'R9'), 'W' for a Wizard or 'J' for a Jester
    """
    if isinstance(text, str):
        return [parse_card(token) for token in text.replace(",", " ").split()]
    if isinstance(text, Card):
        raise InvalidCardError(f"expected several cards, got the single card {text!r}")
    if not isinstance(text, Iterable):
        raise InvalidCardError(f"invalid cards {text!r}: {_NOTATION_HELP}, separated by spaces")
    return [parse_card(item) for item in text]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards back in notation, separated by spaces.

    >>> format_cards(parse_cards("J,B5 , b11"))
    'J B5 B11'
    """
    return " ".join(str(card) for card in cards)


def full_deck() -> tuple[Card, ...]:
    """The 60-card deck: 52 number cards, four Wizards and four Jesters.

    >>> deck = full_deck()
    >>> len(deck), deck.count(Card.wizard()), deck.count(Card.jester())
    (60, 4, 4)
    """
    numbers = tuple(
        Card(Kind.NUMBER, suit, rank) for suit in Suit for rank in range(MIN_RANK, MAX_RANK + 1)
    )
    return (
        numbers
        + (Card(Kind.WIZARD),) * WIZARDS_IN_DECK
        + (Card(Kind.JESTER),) * JESTERS_IN_DECK
    )


DECK: tuple[Card, ...] = full_deck()


def check_cards_from_one_deck(cards: Iterable[Card], what: str = "these cards") -> None:
    """Raise :class:`InvalidCardError` unless ``cards`` could all come from one deck.

    A number card exists once; there are four Wizards and four Jesters.

    >>> check_cards_from_one_deck(parse_cards("W W R9 J"))
    >>> check_cards_from_one_deck(parse_cards("R9 B2 R9"), "the trick")
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: the trick cannot come from one deck: R9 appears 2 times, but the deck has 1
    """
    counts = Counter(cards)
    for card, count in counts.items():
        limit = (
            WIZARDS_IN_DECK if card.is_wizard else JESTERS_IN_DECK if card.is_jester else 1
        )
        if count > limit:
            raise InvalidCardError(
                f"{what} cannot come from one deck: {card} appears {count} times, "
                f"but the deck has {limit}"
            )
