"""One trick: which suit binds, which cards may be played, and who takes it.

These are pure functions of the cards, the single home of the playing rules. Their
reasons come back as data (:class:`PlayJudgement`, :class:`TrickExplanation`); the
teaching layer (:mod:`tutor.teaching.explain`) turns them into words.

Two doors lead in. The public functions (:func:`lead_of`, :func:`legal_plays`,
:func:`judge_play`, :func:`explain_trick`, :func:`trick_winner`) take a trick's cards in
play order, leader first, as :class:`Card` values or as notation (``"J B5 B11 B7"``), and
check them: notation, one deck, at most six cards. Then they apply the rules, which are
the functions of the last part of this module (:func:`lead_after`, :func:`play_rule`,
:func:`card_power`, ...): those take :class:`Card` values only and check nothing, for
the callers whose own invariants already vouch for the cards: the round
(:class:`tutor.rules.round.Round` checks every card once, when it is played), the bots,
and the fast simulator, which tabulates them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from tutor.errors import InvalidCardError
from tutor.rules.cards import (
    DECK,
    Card,
    Suit,
    check_cards_from_one_deck,
    parse_card,
    parse_cards,
)
from tutor.rules.records import quick_init
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
    return lead_of_cards(_trick_cards(plays, allow_empty=True))


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


ILLEGAL_RULES = frozenset({PlayRule.MUST_FOLLOW, PlayRule.NOT_IN_HAND})
"""The rules that refuse a card; every other rule allows it."""

# The members the rules below name on every card played, as module globals: on Python
# 3.11 ``Lead.SUIT`` goes through the enum's member descriptor, about ten times the cost
# of a global, and a round of 48 cards asks hundreds of times.
_NOTHING_PLAYED, _ONLY_JESTERS = Lead.NOTHING_PLAYED, Lead.ONLY_JESTERS
_WIZARD_FIRST, _SUIT = Lead.WIZARD_FIRST, Lead.SUIT
_LEADS, _FOLLOWS_SUIT = PlayRule.LEADS, PlayRule.FOLLOWS_SUIT
_WIZARD_ANY_TIME, _JESTER_ANY_TIME = PlayRule.WIZARD_ANY_TIME, PlayRule.JESTER_ANY_TIME
_NO_SUIT_AFTER_WIZARD, _NO_SUIT_YET = PlayRule.NO_SUIT_AFTER_WIZARD, PlayRule.NO_SUIT_YET
_MUST_FOLLOW, _CANNOT_FOLLOW = PlayRule.MUST_FOLLOW, PlayRule.CANNOT_FOLLOW


@quick_init
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
        return self.rule not in ILLEGAL_RULES


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
    lead, suit = lead_of_cards(played)
    followers = followers_in(cards_in_hand, suit)
    return judge_card(cards_in_hand, lead, suit, followers, parse_card(card))


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
    return legal_cards(cards_in_hand, followers_in(cards_in_hand, lead_of_cards(played)[1]))


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


@quick_init
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
    return explain_cards(_trick_cards(plays, allow_empty=False), parse_trump(trump))


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


# -- the rules, on cards the caller vouches for ------------------------------------------
# No checks here: the cards are Card values, from one deck, at most one per player. The
# public functions above check what they are given and then call these.


def lead_after(lead: Lead, suit: Suit | None, card: Card) -> tuple[Lead, Suit | None]:
    """The lead of a trick once ``card`` is played on a trick whose lead was ``lead``
    (with ``suit``): the first card that is not a Jester decides, for the whole trick.

    >>> lead_after(Lead.ONLY_JESTERS, None, Card.parse("B5"))
    (<Lead.SUIT: 'suit'>, <Suit.BLUE: 'B'>)
    >>> lead_after(Lead.SUIT, Suit.BLUE, Card.wizard())
    (<Lead.SUIT: 'suit'>, <Suit.BLUE: 'B'>)
    """
    if suit is not None or lead is _WIZARD_FIRST:
        return lead, suit  # a number card or a Wizard came first: settled
    if card.is_jester:
        return _ONLY_JESTERS, None
    if card.is_wizard:
        return _WIZARD_FIRST, None
    return _SUIT, card.suit


def lead_of_cards(cards: Iterable[Card]) -> tuple[Lead, Suit | None]:
    """:func:`lead_of` for Card values (not checked): :func:`lead_after`, card by card."""
    lead: Lead = Lead.NOTHING_PLAYED
    suit: Suit | None = None
    for card in cards:
        lead, suit = lead_after(lead, suit, card)
    return lead, suit


def play_rule(card: Card, lead: Lead, suit: Suit | None, holds_suit: bool) -> PlayRule:
    """The rule that allows (or forbids) playing ``card`` from the hand on a trick whose
    lead is ``lead`` with led ``suit``; ``holds_suit``: the hand holds a number card of
    that suit. (Whether the card is in the hand is for the caller to know.)

    >>> play_rule(Card.parse("R12"), Lead.SUIT, Suit.BLUE, holds_suit=True)
    <PlayRule.MUST_FOLLOW: 'must-follow'>
    """
    if lead is _NOTHING_PLAYED:
        return _LEADS
    if card.is_wizard:
        return _WIZARD_ANY_TIME
    if card.is_jester:
        return _JESTER_ANY_TIME
    if suit is None:  # no suit binds: a Wizard came first, or only Jesters so far
        if lead is _WIZARD_FIRST:
            return _NO_SUIT_AFTER_WIZARD
        return _NO_SUIT_YET
    if card.suit is suit:
        return _FOLLOWS_SUIT
    if holds_suit:
        return _MUST_FOLLOW
    return _CANNOT_FOLLOW


def followers_in(hand: Iterable[Card], suit: Suit | None) -> tuple[Card, ...]:
    """The cards of ``hand`` that follow ``suit``: its number cards of that suit (only
    number cards have a suit; none when no suit binds, ``suit`` ``None``).

    >>> followers_in(parse_cards("B7 R12 B2 W"), Suit.BLUE)
    (Card.parse('B7'), Card.parse('B2'))
    """
    if suit is None:
        return ()
    return tuple([card for card in hand if card.suit is suit])


def legal_cards(hand: Sequence[Card], followers: Sequence[Card]) -> list[Card]:
    """:func:`legal_plays` for Card values (not checked), given the hand's ``followers``
    of the led suit (:func:`followers_in`): the cards :func:`play_rule` allows, found
    in one pass (the property tests check that both agree).

    >>> hand = parse_cards("B7 R12 G10 W")
    >>> legal_cards(hand, followers_in(hand, Suit.BLUE))
    [Card.parse('B7'), Card.parse('W')]
    """
    if not followers:  # nothing binds the player: the whole hand
        return list(hand)
    suit = followers[0].suit
    # the led suit, and the Wizards and Jesters (the cards without a suit)
    return [card for card in hand if card.suit is suit or card.suit is None]


def judge_card(
    hand: Sequence[Card],
    lead: Lead,
    suit: Suit | None,
    followers: tuple[Card, ...],
    card: Card,
) -> PlayJudgement:
    """:func:`judge_play` for Card values (not checked), given the trick's lead and the
    hand's ``followers`` of the led suit (:func:`followers_in`).

    >>> hand = parse_cards("B7 R12")
    >>> judge_card(hand, Lead.SUIT, Suit.BLUE, followers_in(hand, Suit.BLUE), hand[1]).legal
    False
    """
    if card not in hand:
        return PlayJudgement(card, PlayRule.NOT_IN_HAND, lead, suit, followers)
    if not followers:
        return free_judgements(lead, suit)[card]
    return PlayJudgement(card, play_rule(card, lead, suit, True), lead, suit, followers)


@cache
def free_judgements(lead: Lead, suit: Suit | None) -> dict[Card, PlayJudgement]:
    """The judgement of each card played from a hand that holds no number card of the led
    ``suit`` (or while no suit binds): decided by the card and the lead alone, so each is
    built once (a table per lead, 4 x 5 at most) and handed out again after.

    >>> free_judgements(Lead.SUIT, Suit.BLUE)[Card.parse("R12")].rule
    <PlayRule.CANNOT_FOLLOW: 'cannot-follow'>
    """
    return {
        card: PlayJudgement(card, play_rule(card, lead, suit, False), lead, suit, ())
        for card in DECK
    }


WIZARD_POWER = 100
"""A Wizard's power in :func:`card_power`: above every other card."""
TRUMP_POWER = 40
"""A trump's power is this plus its rank (41-53): above every card of the led suit."""
LED_POWER = 20
"""A card of the led suit (not trump) has this plus its rank (21-33)."""


def card_power(card: Card, trump: Suit | None, suit: Suit | None) -> int:
    """How strongly ``card`` bids for a trick with ``trump`` whose led suit is ``suit``:
    the trick goes to the first card of the highest power.

    That is the trick-winner rule of RULES.md, line by line: the first Wizard (Wizards
    tie, so the first keeps the trick); else the highest trump; else the highest card of
    the led suit; else (only Jesters were played) the first Jester. Another suit and a
    Jester have power 0 and never take a trick that holds a number card or a Wizard.

    >>> [card_power(card, Suit.RED, Suit.BLUE) for card in parse_cards("W R2 B13 G13 J")]
    [100, 42, 33, 0, 0]
    """
    if card.is_wizard:
        return WIZARD_POWER
    if card.is_jester:
        return 0
    assert card.rank is not None
    if card.suit is trump:
        return TRUMP_POWER + card.rank
    if card.suit is suit:
        return LED_POWER + card.rank
    return 0


@cache
def next_card_powers(trump: Suit | None, lead: Lead, suit: Suit | None) -> dict[Card, int]:
    """The :func:`card_power` each card would have if played next on a trick whose lead
    is ``lead`` (with ``suit``): its power once it has played its part in the lead
    (:func:`lead_after`). A table per trump and lead (5 x 4 x 5 at most), built once:
    the round and the coach look a card's power up instead of working it out.

    >>> next_card_powers(Suit.RED, Lead.ONLY_JESTERS, None)[Card.parse("B5")]
    25
    """
    return {card: card_power(card, trump, lead_after(lead, suit, card)[1]) for card in DECK}


def winning_position(cards: Sequence[Card], trump: Suit | None) -> int:
    """:func:`trick_winner` for Card values (not checked): the first card of the highest
    :func:`card_power`.

    >>> winning_position(parse_cards("J B5 B11 B7"), Suit.RED)
    2
    """
    return _winner(cards, trump)[2]


def _winner(cards: Iterable[Card], trump: Suit | None) -> tuple[Lead, Suit | None, int]:
    # One pass: the lead as it builds up, and each card's power once the card has played
    # its part in the lead (a card that sets the led suit counts as a card of that suit;
    # cards before it are Jesters, power 0 whatever the suit).
    lead: Lead = Lead.NOTHING_PLAYED
    suit: Suit | None = None
    best, winner = -1, 0
    for index, card in enumerate(cards):
        lead, suit = lead_after(lead, suit, card)
        power = card_power(card, trump, suit)
        if power > best:
            best, winner = power, index
    return lead, suit, winner


def explain_cards(cards: Sequence[Card], trump: Suit | None) -> TrickExplanation:
    """:func:`explain_trick` for Card values (not checked): the winner by
    :func:`card_power`; the deciding rule is the winning card's line of the rule, and the
    contenders the cards that line compares."""
    cards = tuple(cards)
    lead, suit, winner = _winner(cards, trump)
    won_by = cards[winner]
    if won_by.is_wizard:
        rule = WinRule.FIRST_WIZARD
        contenders = [index for index, card in enumerate(cards) if card.is_wizard]
    elif won_by.is_jester:  # only Jesters were played
        rule, contenders = WinRule.FIRST_JESTER, list(range(len(cards)))
    elif won_by.suit is trump:
        rule = WinRule.HIGHEST_TRUMP
        contenders = [index for index, card in enumerate(cards) if card.suit is trump]
    else:
        rule = WinRule.HIGHEST_LED
        contenders = [index for index, card in enumerate(cards) if card.suit is suit]
    return TrickExplanation(cards, trump, suit, lead, rule, winner, tuple(contenders))


@dataclass(frozen=True, slots=True, eq=False)
class TrickState:
    """The rules of the next card of a trick, as tables over the deck: what a card
    played next is allowed by, how strongly it bids for the trick, and where it leaves
    the lead. One state per lead (nothing played, only Jesters, a Wizard first, each led
    suit) and trump, built once from the rule functions above (:func:`play_rule`,
    :func:`followers_in`, :func:`free_judgements`, :func:`card_power`,
    :func:`lead_after`), so that a round looks a card up instead of working its rules
    out: the rules keep their one home here.

    >>> state = opening_state(Suit.RED).after[Card.parse("B5")]
    >>> state.lead, state.suit, state.powers[Card.parse("B7")], state.powers[Card.parse("R2")]
    (<Lead.SUIT: 'suit'>, <Suit.BLUE: 'B'>, 27, 42)
    >>> state.bound[Card.parse("R2")], Card.parse("R2") in state.legal_when_bound
    (<PlayRule.MUST_FOLLOW: 'must-follow'>, False)
    """

    trump: Suit | None
    lead: Lead
    suit: Suit | None
    followers: frozenset[Card]
    """The cards that follow the led suit (none while no suit binds): a hand holding one
    must follow."""
    legal_when_bound: frozenset[Card]
    """The cards :func:`play_rule` allows from a hand that must follow."""
    bound: dict[Card, PlayRule]
    """:func:`play_rule` for each card played from a hand that must follow."""
    free: dict[Card, PlayJudgement]
    """The judgement of each card played from a hand that need not follow."""
    powers: dict[Card, int]
    """The power of each card played next (:func:`next_card_powers`)."""
    after: dict[Card, TrickState]
    """The state once the card is played (:func:`lead_after`)."""


@cache
def opening_state(trump: Suit | None) -> TrickState:
    """The :class:`TrickState` of a trick with ``trump`` before its first card; the
    states after it are reached through :attr:`TrickState.after`."""
    states: dict[tuple[Lead, Suit | None], TrickState] = {}

    def state_of(lead: Lead, suit: Suit | None) -> TrickState:
        state = states.get((lead, suit))
        if state is None:
            state = states[lead, suit] = TrickState(
                trump,
                lead,
                suit,
                frozenset(followers_in(DECK, suit)),
                frozenset(
                    card for card in DECK if play_rule(card, lead, suit, True) not in ILLEGAL_RULES
                ),
                {card: play_rule(card, lead, suit, True) for card in DECK},
                free_judgements(lead, suit),
                next_card_powers(trump, lead, suit),
                {},
            )
            # filled after the state is known, as the lead may stay where it is
            state.after.update({card: state_of(*lead_after(lead, suit, card)) for card in DECK})
        return state

    return state_of(Lead.NOTHING_PLAYED, None)
