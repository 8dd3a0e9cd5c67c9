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
from dataclasses import dataclass, field
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


@dataclass(frozen=True, slots=True, init=False, eq=False)
class Card:
    """One card. Build it with :func:`parse_card` or the class methods.

    There are 54 different cards (52 number cards, the Wizard, the Jester), and each exists
    as one object, built once when this module loads: ``Card(...)``, :func:`parse_card`,
    ``copy`` and ``pickle`` all hand back that object. Cards are compared by value, and as
    one value is one object, that is identity: Python's own fast ``==`` and ``hash``,
    which matters because the engine looks cards up in hands on every play.

    The constructor takes exactly a card: a :class:`Kind`, and for a number card a
    :class:`Suit` and a rank 1-13. Anything else is refused (notation such as ``"W"`` goes
    through :func:`parse_card`).

    >>> Card.number(Suit.RED, 9)
    Card.parse('R9')
    >>> str(Card.wizard()), Card.jester().is_jester, Card(Kind.WIZARD) is Card.wizard()
    ('W', True, True)
    >>> Card.number(Suit.RED, 14)
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: invalid rank 14 for a red card: ranks run from 1 to 13
    >>> Card("W")
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: invalid card kind 'W': Card() takes Kind.NUMBER, Kind.WIZARD or Kind.JESTER; to read notation such as 'R9' or 'W', use parse_card
    """

    kind: Kind
    suit: Suit | None = None
    rank: int | None = None
    # What kind of card, stored rather than computed: each card is built once, and the
    # rules ask on every card played (comparing with a Kind member costs several times a
    # stored attribute on Python 3.11).
    is_wizard: bool = field(init=False, repr=False, compare=False)
    is_jester: bool = field(init=False, repr=False, compare=False)
    is_number: bool = field(init=False, repr=False, compare=False)

    def __new__(cls, kind: Kind, suit: Suit | None = None, rank: int | None = None) -> Card:
        # Exact types: Kind and Suit are str enums, so "W" == Kind.WIZARD and a looser
        # check would let the text "W" pass for a Wizard.
        if type(kind) is not Kind:
            raise InvalidCardError(
                f"invalid card kind {kind!r}: Card() takes Kind.NUMBER, Kind.WIZARD or "
                "Kind.JESTER; to read notation such as 'R9' or 'W', use parse_card"
            )
        if kind is Kind.NUMBER:
            if type(suit) is not Suit:
                raise InvalidCardError(
                    f"a number card needs a suit (Suit.YELLOW, Suit.RED, Suit.GREEN or "
                    f"Suit.BLUE), not {suit!r}; Card.number('R', 9) also takes the letter"
                )
            if type(rank) is not int or not MIN_RANK <= rank <= MAX_RANK:
                raise InvalidCardError(
                    f"invalid rank {rank!r} for a {suit.colour} card: "
                    f"ranks run from {MIN_RANK} to {MAX_RANK}"
                )
        elif suit is not None or rank is not None:
            raise InvalidCardError(
                f"a {kind.name.title()} has no suit and no rank (got suit={suit!r}, rank={rank!r})"
            )
        return _THE_CARDS[kind, suit, rank]

    def __reduce__(self) -> tuple[type[Card], tuple[Kind, Suit | None, int | None]]:
        # copy and pickle rebuild through the constructor, so they get the one object too
        return (Card, (self.kind, self.suit, self.rank))

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


def _build(kind: Kind, suit: Suit | None = None, rank: int | None = None) -> Card:
    # The one place a Card object is made (Card() hands out these): past the constructor,
    # which only looks cards up.
    card: Card = object.__new__(Card)
    object.__setattr__(card, "kind", kind)
    object.__setattr__(card, "suit", suit)
    object.__setattr__(card, "rank", rank)
    object.__setattr__(card, "is_wizard", kind is Kind.WIZARD)
    object.__setattr__(card, "is_jester", kind is Kind.JESTER)
    object.__setattr__(card, "is_number", kind is Kind.NUMBER)
    return card


_THE_CARDS: dict[tuple[Kind, Suit | None, int | None], Card] = {
    (Kind.NUMBER, suit, rank): _build(Kind.NUMBER, suit, rank)
    for suit in Suit
    for rank in range(MIN_RANK, MAX_RANK + 1)
}
_THE_CARDS[Kind.WIZARD, None, None] = _build(Kind.WIZARD)
_THE_CARDS[Kind.JESTER, None, None] = _build(Kind.JESTER)
_BY_NOTATION = {str(card): card for card in _THE_CARDS.values()}
"""Every card by its notation, for the usual case of :func:`parse_card`."""
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
        raise InvalidCardError(
            f"invalid card {text!r}: a card is written as text; {_NOTATION_HELP}"
        )
    known = _BY_NOTATION.get(text)
    if known is not None:
        return known
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
    return numbers + (Card(Kind.WIZARD),) * WIZARDS_IN_DECK + (Card(Kind.JESTER),) * JESTERS_IN_DECK


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
        limit = WIZARDS_IN_DECK if card.is_wizard else JESTERS_IN_DECK if card.is_jester else 1
        if count > limit:
            raise InvalidCardError(
                f"{what} cannot come from one deck: {card} appears {count} times, "
                f"but the deck has {limit}"
            )
