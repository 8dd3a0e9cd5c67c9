"""One trick: which suit binds, which cards may be played, and who takes it.

These are pure functions of the cards, the single home of the playing rules. Their
reasons come back as data (:class:`PlayJudgement`, :class:`TrickExplanation`); the
teaching layer (:mod:`tutor.teaching.explain`) turns them into words.

A trick's cards are given in play order, leader first, as :class:`Card` values or as
notation (``"J B5 B11 B7"``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from tutor.errors import InvalidCardError
from tutor.rules.cards import Card, Suit, check_cards_from_one_deck, parse_card, parse_cards
from tutor.rules.trump import parse_trump

MAX_TRICK_SIZE = 6
"""A trick holds one card per player, and a game has at most six players."""

CardsLike = str | Iterable[Card | str]


def _trick_cards(plays: CardsLike, *, allow_empty: bool) -> tuple[Card, ...]:
    cards = tuple(parse_cards(plays))
    if not cards and not allow_empty:
        raise InvalidCardError("a trick needs at least one card played, got none")
    if len(cards) > MAX_TRICK_SIZE:
        raise InvalidCardError(
            f"a trick holds one card per player, at most {MAX_TRICK_SIZE}; "
            f"got {len(cards)}: {' '.join(map(str, cards))}"
        )
    check_cards_from_one_deck(cards, "the cards of the trick")
    return cards


class Lead(StrEnum):
    """What the cards played so far say about the suit to follow."""

    NOTHING_PLAYED = "nothing-played"
    """No card yet: the next card leads."""
    ONLY_JESTERS = "only-jesters"
    """Only Jesters so far: no suit yet; the first number card will set it."""
    WIZARD_FIRST = "wizard-first"
    """A Wizard came before any number card: no suit to follow in this trick."""
    SUIT = "suit"
    """A number card (the first one, before any Wizard) set the suit to follow."""


def lead_of(plays: CardsLike) -> tuple[Lead, Suit | None]:
    """Why the trick has the led suit it has, and that suit.

    >>> lead_of("J B5 W")
    (<Lead.SUIT: 'suit'>, <Suit.BLUE: 'B'>)
    >>> lead_of("J W B5")
    (<Lead.WIZARD_FIRST: 'wizard-first'>, None)
    """
    cards = _trick_cards(plays, allow_empty=True)
    if not cards:
        return Lead.NOTHING_PLAYED, None
    for card in cards:
        if card.is_wizard:
            return Lead.WIZARD_FIRST, None
        if card.is_number:
            return Lead.SUIT, card.suit
    return Lead.ONLY_JESTERS, None


def led_suit(plays: CardsLike) -> Suit | None:
    """The suit the other players must follow, or ``None`` when no suit binds.

    The first number card sets the suit, unless a Wizard was played before it: Jesters
    before it set nothing, and a Wizard played after it does not free anyone.

    >>> led_suit("B6 W"), led_suit("J J B6"), led_suit("J W R13"), led_suit("J J")
    (<Suit.BLUE: 'B'>, <Suit.BLUE: 'B'>, None, None)
    """
    return lead_of(plays)[1]


class PlayRule(StrEnum):
    """The rule that makes a card legal or illegal as the next play of a trick."""

    LEADS = "leads"
    """The first card of a trick may be anything."""
    WIZARD_ANY_TIME = "wizard-any-time"
    """A Wizard may always be played, even by a player who could follow."""
    JESTER_ANY_TIME = "jester-any-time"
    """A Jester may always be played, even by a player who could follow."""
    NO_SUIT_AFTER_WIZARD = "no-suit-after-wizard"
    """A Wizard came before any number card: no suit binds, anything may be played."""
    NO_SUIT_YET = "no-suit-yet"
    """Only Jesters so far: anything may be played (a number card sets the suit)."""
    FOLLOWS_SUIT = "follows-suit"
    """A card of the led suit."""
    CANNOT_FOLLOW = "cannot-follow"
    """The player holds no number card of the led suit, so may play anything."""
    MUST_FOLLOW = "must-follow"
    """Illegal: the player holds the led suit and played another number card."""
    NOT_IN_HAND = "not-in-hand"
    """Illegal: the card is not in the player's hand."""


_ILLEGAL_RULES = frozenset({PlayRule.MUST_FOLLOW, PlayRule.NOT_IN_HAND})


@dataclass(frozen=True, slots=True)
class PlayJudgement:
    """Whether ``card`` may be played next, and the rule that decides it.

    ``followers`` are the hand's number cards of the led suit: for ``MUST_FOLLOW`` the cards
    the player should have chosen from (besides any Wizard or Jester).
    """

    card: Card
    rule: PlayRule
    lead: Lead
    led_suit: Suit | None
    followers: tuple[Card, ...]

    @property
    def legal(self) -> bool:
        return self.rule not in _ILLEGAL_RULES


def judge_play(hand: CardsLike, plays: CardsLike, card: Card | str) -> PlayJudgement:
    """Whether a player holding ``hand`` may play ``card`` after ``plays``, and why.

    >>> judge_play("B7 R12 G10", "J B5", "B7").rule
    <PlayRule.FOLLOWS_SUIT: 'follows-suit'>
    >>> judge_play("B7 R12 G10", "J B5", "R12").rule
    <PlayRule.MUST_FOLLOW: 'must-follow'>
    >>> judge_play("B7 R12 W", "J B5", "W").legal
    True
    """
    cards_in_hand = tuple(parse_cards(hand))
    played = _trick_cards(plays, allow_empty=True)
    check_cards_from_one_deck(cards_in_hand + played, "the hand and the trick together")
    chosen = parse_card(card)
    lead, suit = lead_of(played)
    followers = tuple(c for c in cards_in_hand if c.is_number and c.suit is suit)

    def judged(rule: PlayRule) -> PlayJudgement:
        return PlayJudgement(chosen, rule, lead, suit, followers)

    if chosen not in cards_in_hand:
        return judged(PlayRule.NOT_IN_HAND)
    if lead is Lead.NOTHING_PLAYED:
        return judged(PlayRule.LEADS)
    if chosen.is_wizard:
        return judged(PlayRule.WIZARD_ANY_TIME)
    if chosen.is_jester:
        return judged(PlayRule.JESTER_ANY_TIME)
    if lead is Lead.WIZARD_FIRST:
        return judged(PlayRule.NO_SUIT_AFTER_WIZARD)
    if lead is Lead.ONLY_JESTERS:
        return judged(PlayRule.NO_SUIT_YET)
    if chosen.suit is suit:
        return judged(PlayRule.FOLLOWS_SUIT)
    if followers:
        return judged(PlayRule.MUST_FOLLOW)
    return judged(PlayRule.CANNOT_FOLLOW)


def legal_plays(hand: CardsLike, plays: CardsLike) -> list[Card]:
    """The cards of ``hand`` that may be played next after ``plays``, in hand order.

    A hand holding two Wizards lists both: they are two cards of the hand.

    >>> legal_plays("B7 R12 G10 W", "J B5")
    [Card.parse('B7'), Card.parse('W')]
    >>> legal_plays("R4 G2", "B6 W")
    [Card.parse('R4'), Card.parse('G2')]
    >>> legal_plays("B7 R9", "B7")
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: the hand and the trick together cannot come from one deck: B7 appears 2 times, but the deck has 1
    """
    cards_in_hand = parse_cards(hand)
    played = _trick_cards(plays, allow_empty=True)
    check_cards_from_one_deck((*cards_in_hand, *played), "the hand and the trick together")
    suit = led_suit(played)
    if suit is None or not any(c.is_number and c.suit is suit for c in cards_in_hand):
        return list(cards_in_hand)
    return [c for c in cards_in_hand if not c.is_number or c.suit is suit]


class WinRule(StrEnum):
    """The line of the trick-winner rule that decided a trick (RULES.md, in this order)."""

    FIRST_WIZARD = "first-wizard"
    """A Wizard was played: the first Wizard wins."""
    HIGHEST_TRUMP = "highest-trump"
    """No Wizard, at least one trump: the highest trump wins."""
    HIGHEST_LED = "highest-led"
    """No Wizard, no trump: the highest card of the led suit wins."""
    FIRST_JESTER = "first-jester"
    """Only Jesters: the first Jester wins."""


@dataclass(frozen=True, slots=True)
class TrickExplanation:
    """Who takes a trick and why, as data.

    ``winner`` indexes ``cards`` (play order, leader first). ``contenders`` are the indices
    of the cards the deciding rule compared: every Wizard, every trump, every card of the
    led suit, or every Jester.
    """

    cards: tuple[Card, ...]
    trump: Suit | None
    led_suit: Suit | None
    lead: Lead
    rule: WinRule
    winner: int
    contenders: tuple[int, ...]

    @property
    def winning_card(self) -> Card:
        return self.cards[self.winner]


def explain_trick(plays: CardsLike, trump: Suit | str | None) -> TrickExplanation:
    """Who takes the trick ``plays`` with ``trump`` (``None``: no trump), and why.

    >>> why = explain_trick("J B5 B11 B7", trump="R")
    >>> why.winner, str(why.winning_card), why.rule
    (2, 'B11', <WinRule.HIGHEST_LED: 'highest-led'>)
    >>> explain_trick("R4 R12 R2 W", "R").rule
    <WinRule.FIRST_WIZARD: 'first-wizard'>
    """
    cards = _trick_cards(plays, allow_empty=False)
    trump_suit = parse_trump(trump)
    lead, suit = lead_of(cards)

    def decided(rule: WinRule, contenders: list[int], winner: int) -> TrickExplanation:
        return TrickExplanation(cards, trump_suit, suit, lead, rule, winner, tuple(contenders))

    def highest(indices: list[int]) -> int:
        return max(indices, key=lambda i: cards[i].rank or 0)

    wizards = [i for i, c in enumerate(cards) if c.is_wizard]
    if wizards:
        return decided(WinRule.FIRST_WIZARD, wizards, wizards[0])
    trumps = [i for i, c in enumerate(cards) if c.is_number and c.suit is trump_suit]
    if trump_suit is not None and trumps:
        return decided(WinRule.HIGHEST_TRUMP, trumps, highest(trumps))
    if suit is not None:
        led = [i for i, c in enumerate(cards) if c.is_number and c.suit is suit]
        return decided(WinRule.HIGHEST_LED, led, highest(led))
    jesters = list(range(len(cards)))  # no Wizard and no number card: every card is a Jester
    return decided(WinRule.FIRST_JESTER, jesters, 0)


def trick_winner(plays: CardsLike, trump: Suit | str | None) -> int:
    """Index (in play order, leader first) of the card that takes the trick.

    >>> trick_winner("J B5 B11 B7", trump="R")
    2
    >>> trick_winner("W R13 W J", trump=None)
    0
    >>> trick_winner("J J B6 B10", trump="Y")
    3
    >>> trick_winner("", trump="R")
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: a trick needs at least one card played, got none
    """
    return explain_trick(plays, trump).winner
