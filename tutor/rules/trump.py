"""The trump reveal: which suit, if any, is trump for a round.

After dealing, the top card of the stock is turned:

- a number card makes its whole suit trump;
- a Jester means no trump;
- a Wizard means the dealer, after looking at their hand, chooses one of the four suits
  ("no trump" is not allowed);
- nothing left to turn (the last round deals every card) means no trump.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from tutor.errors import InvalidCardError, InvalidTrumpError
from tutor.rules.cards import Card, Suit, parse_card, parse_suit

_NO_TRUMP_WORDS = frozenset({"", "-", "none", "no", "no trump", "notrump", "nt"})


def parse_trump(value: Suit | str | None) -> Suit | None:
    """A trump suit from a :class:`Suit`, its letter, or ``None`` / ``"none"`` for no trump.

    >>> parse_trump("R"), parse_trump(None), parse_trump("none")
    (<Suit.RED: 'R'>, None, None)
    >>> parse_trump("purple")
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidTrumpError: invalid trump 'purple': give a suit letter Y, R, G or B, or None for no trump
    """
    if value is None or isinstance(value, Suit):
        return value
    if isinstance(value, str) and value.strip().lower() in _NO_TRUMP_WORDS:
        return None
    try:
        return parse_suit(value)
    except InvalidCardError:
        raise InvalidTrumpError(
            f"invalid trump {value!r}: give a suit letter Y, R, G or B, or None for no trump"
        ) from None


class RevealRule(StrEnum):
    """Which line of the trump-reveal table applied."""

    NUMBER_CARD = "number-card"
    """A number card was turned: its suit is trump."""
    JESTER = "jester"
    """A Jester was turned: no trump."""
    WIZARD = "wizard"
    """A Wizard was turned: the dealer chooses a suit."""
    NOTHING_LEFT = "nothing-left"
    """Every card was dealt, nothing to turn: no trump."""


@dataclass(frozen=True, slots=True)
class TrumpReveal:
    """The outcome of turning the stock's top card.

    ``trump`` is ``None`` both for no trump and while the dealer's choice is pending
    (``dealer_chooses``).
    """

    turned: Card | None
    trump: Suit | None
    rule: RevealRule

    @property
    def dealer_chooses(self) -> bool:
        return self.rule is _WIZARD_TURNED


_WIZARD_TURNED = RevealRule.WIZARD  # a global: asked on every seat view (see round.py)


def reveal_trump(turned: Card | str | None) -> TrumpReveal:
    """What turning ``turned`` means for trump (``None``: nothing was left to turn).

    >>> reveal_trump("R9").trump
    <Suit.RED: 'R'>
    >>> reveal_trump("J").trump is None, reveal_trump(None).rule
    (True, <RevealRule.NOTHING_LEFT: 'nothing-left'>)
    >>> reveal_trump("W").dealer_chooses
    True
    >>> reveal_trump("Q")
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: invalid card 'Q': write a suit letter Y, R, G or B followed by a rank 1-13 (e.g. 'R9'), 'W' for a Wizard or 'J' for a Jester
    """
    return _reveal(None if turned is None else parse_card(turned))


@cache
def _reveal(card: Card | None) -> TrumpReveal:
    # One value per card (and nothing turned), built once: every deal asks.
    if card is None:
        return TrumpReveal(None, None, RevealRule.NOTHING_LEFT)
    if card.is_wizard:
        return TrumpReveal(card, None, RevealRule.WIZARD)
    if card.is_jester:
        return TrumpReveal(card, None, RevealRule.JESTER)
    return TrumpReveal(card, card.suit, RevealRule.NUMBER_CARD)
