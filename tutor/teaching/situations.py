"""The situations a trick can be in, and the rules a question about it asks.

A question shows a trick (who takes it?) or a trick so far and a hand (which cards may be
played?). What the learner has to know to answer is named twice here, both read off the
engine's own judgement (:func:`tutor.rules.trick.explain_trick` and
:func:`tutor.rules.trick.judge_play`), never from a second copy of a rule:

- its **situations** (:class:`Situation`): a Jester led then a number card, a trump in, a
  player who cannot follow and discards... Practice makes sure each comes up
  (:mod:`tutor.teaching.practice`);
- the **rules** it asks: ids of the course's rule map (:mod:`tutor.teaching.rule_map`),
  which spaced review keys on.

A trick given here is one played by the rules: a number card of another suit than the led
one, played after it, says that its player held none of the led suit.

>>> [str(one) for one in trick_situations("J J B5 R13", trump="R")]
['trump-in', 'cannot-follow-trump', 'jesters-then-number']
>>> winner_rules("J J B5 R13", trump="R")
('highest-trump-wins', 'jester-never-wins-with-others')
>>> winner_rules("J J B5 R13", trump="G")
('highest-led-suit-wins', 'jester-never-wins-with-others', 'jester-led-first-number-sets-suit', 'jesters-set-nothing')
>>> [str(one) for one in play_situations("B7 R12 W", "J B5", trump="R")]
['led-suit-followed', 'jester-then-number']
>>> play_rules("B7 R12 W", "J B5", trump="R")
('must-follow-suit', 'wizard-jester-any-time', 'jester-led-first-number-sets-suit')
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from tutor.rules.cards import Card, Suit, parse_cards
from tutor.rules.trick import (
    CardsLike,
    Lead,
    PlayRule,
    WinRule,
    explain_trick,
    judge_play,
    lead_of,
)
from tutor.rules.trump import parse_trump


class Situation(StrEnum):
    """A situation a trick can be in: what the cards played (and, before a play, the
    hand) show. A trick is often in several at once (a Jester led, then a number card,
    then a trump in)."""

    LED_SUIT_FOLLOWED = "led-suit-followed"
    """A number card set the suit and a later player follows it: in a trick, plays a card
    of that suit; before a play, holds one, so must play that suit (or a Wizard or a
    Jester)."""
    TRUMP_LED = "trump-led"
    """The led suit is trump: it is followed like any other suit."""
    TRUMP_IN = "trump-in"
    """A trump takes a trick whose led suit is another: any trump beats the led suit."""
    NO_TRUMP = "no-trump"
    """A round without trump (a Jester turned, or nothing left to turn): the highest card
    of the led suit wins unless a Wizard was played."""
    CANNOT_FOLLOW_TRUMP = "cannot-follow-trump"
    """A player without the led suit plays a trump (before a play: holds one)."""
    CANNOT_FOLLOW_DISCARD = "cannot-follow-discard"
    """A player without the led suit plays a number card of another suit that is not
    trump (before a play: holds one): it cannot win, whatever its number."""
    WIZARD_LED = "wizard-led"
    """A Wizard is led: no suit binds, and it takes the trick."""
    ONE_WIZARD = "one-wizard"
    """One Wizard, not led, takes the trick over every number card and trump."""
    SEVERAL_WIZARDS = "several-wizards"
    """Two or more Wizards: the first one takes the trick."""
    NUMBER_THEN_WIZARD = "number-then-wizard"
    """A number card set the suit, then a Wizard was played: the suit still binds the
    players after it."""
    JESTER_THEN_NUMBER = "jester-then-number"
    """One Jester led, then a number card: that number card sets the suit."""
    JESTERS_THEN_NUMBER = "jesters-then-number"
    """Two or more Jesters, then a number card: the Jesters set nothing, the number card
    sets the suit."""
    JESTER_THEN_WIZARD = "jester-then-wizard"
    """A Jester led (or several), then a Wizard before any number card: no suit binds, as
    if the Wizard had been led."""
    JESTERS_SO_FAR = "jesters-so-far"
    """Before a play: only Jesters so far, so no suit binds yet and the next card may be
    anything."""
    JESTERS_ONLY = "jesters-only"
    """A whole trick of Jesters (3 or 4 players only: the deck has 4): the first Jester
    takes it."""


_WIN_RULES = {
    WinRule.FIRST_WIZARD: "first-wizard-wins",
    WinRule.HIGHEST_TRUMP: "highest-trump-wins",
    WinRule.HIGHEST_LED: "highest-led-suit-wins",
    WinRule.FIRST_JESTER: "only-jesters-first-wins",
}
"""The rule (rule-map id) of each line of the trick-winner rule."""

_PLAY_RULES = {
    PlayRule.LEADS: "leader-plays-any-card",
    PlayRule.WIZARD_ANY_TIME: "wizard-jester-any-time",
    PlayRule.JESTER_ANY_TIME: "wizard-jester-any-time",
    PlayRule.FOLLOWS_SUIT: "must-follow-suit",
    PlayRule.MUST_FOLLOW: "must-follow-suit",
    PlayRule.CANNOT_FOLLOW: "cannot-follow-play-anything",
    # NO_SUIT_AFTER_WIZARD and NO_SUIT_YET: the rule of the lead, see _LEAD_RULES
}
"""The rule (rule-map id) that allows or refuses a card, by the engine's judgement."""

_LEAD_RULES = {
    Situation.TRUMP_LED: ("trump-led-must-follow",),
    Situation.WIZARD_LED: ("wizard-led-no-suit",),
    Situation.NUMBER_THEN_WIZARD: ("number-then-wizard-still-binds",),
    Situation.JESTER_THEN_NUMBER: ("jester-led-first-number-sets-suit",),
    Situation.JESTERS_THEN_NUMBER: ("jester-led-first-number-sets-suit", "jesters-set-nothing"),
    Situation.JESTER_THEN_WIZARD: ("jester-then-wizard-no-suit",),
    Situation.JESTERS_SO_FAR: ("jester-led-first-number-sets-suit",),
}
"""What a situation of the lead asks of a player choosing a card."""

_WINNER_RULES = {
    Situation.SEVERAL_WIZARDS: ("later-wizards-never-win",),
}
"""What a situation asks of a learner naming the winner, beyond the line of the
trick-winner rule that decides it."""

_LED_WINNER_RULES = {
    Situation.JESTER_THEN_NUMBER: ("jester-led-first-number-sets-suit",),
    Situation.JESTERS_THEN_NUMBER: ("jester-led-first-number-sets-suit", "jesters-set-nothing"),
}
"""What a situation of the lead asks of a learner naming the winner when the led suit
decides the trick (no Wizard, no trump played)."""


def trick_situations(plays: CardsLike, trump: Suit | str | None) -> tuple[Situation, ...]:
    """The situations of a whole trick (leader first) with ``trump``, in
    :class:`Situation` order.

    >>> [str(one) for one in trick_situations("B6 W B2 W", trump=None)]
    ['led-suit-followed', 'no-trump', 'several-wizards', 'number-then-wizard']
    >>> [str(one) for one in trick_situations("J J J", trump="G")]
    ['jesters-only']
    """
    why = explain_trick(plays, trump)
    found = set(_lead_situations(why.cards, why.trump))
    found.update(_follow_situations(why.cards, why.trump))
    if why.trump is None:
        found.add(Situation.NO_TRUMP)
    if why.rule is WinRule.FIRST_WIZARD:
        wizards = sum(card.is_wizard for card in why.cards)
        if wizards > 1:
            found.add(Situation.SEVERAL_WIZARDS)
        elif not why.cards[0].is_wizard:
            found.add(Situation.ONE_WIZARD)
    if why.rule is WinRule.HIGHEST_TRUMP and why.led_suit is not why.trump:
        found.add(Situation.TRUMP_IN)
    if why.rule is WinRule.FIRST_JESTER:
        found.add(Situation.JESTERS_ONLY)
    return _in_order(found)


def play_situations(
    hand: CardsLike, plays: CardsLike, trump: Suit | str | None
) -> tuple[Situation, ...]:
    """The situations of the next play: the trick so far (``plays``, leader first; may be
    empty) and the ``hand`` that plays next, with ``trump``. Trump matters to a play only
    where it is the led suit or the hand's way out, so a round without trump is no
    situation of a play.

    >>> [str(one) for one in play_situations("R4 G2 B9", "W", trump="B")]
    ['wizard-led']
    >>> [str(one) for one in play_situations("R4 G2", "B6 W", trump="R")]
    ['cannot-follow-trump', 'cannot-follow-discard', 'number-then-wizard']
    >>> play_situations("R4", "", trump="R")
    ()
    """
    cards, played = tuple(parse_cards(hand)), tuple(parse_cards(plays))
    found = set(_lead_situations(played, parse_trump(trump)))
    judgements = [judge_play(cards, played, card) for card in cards]
    for judgement in judgements:
        found.update(_follow_situation(judgement.rule, judgement.card, parse_trump(trump)))
    if lead_of(played)[0] is Lead.ONLY_JESTERS:
        found.add(Situation.JESTERS_SO_FAR)
    return _in_order(found)


def winner_rules(plays: CardsLike, trump: Suit | str | None) -> tuple[str, ...]:
    """The rules (rule-map ids) a learner naming the winner of the trick ``plays`` uses:
    the line of the trick-winner rule that decides it first, then what its situations
    add (a Jester that does not win; Jesters before the card that set the suit, when the
    led suit decides).

    >>> winner_rules("W R13 W", trump="R")
    ('first-wizard-wins', 'later-wizards-never-win')
    >>> winner_rules("B6 R13 B2", trump="G")
    ('highest-led-suit-wins',)
    """
    why = explain_trick(plays, trump)
    rules = [_WIN_RULES[why.rule]]
    if why.rule is not WinRule.FIRST_JESTER and any(card.is_jester for card in why.cards):
        rules.append("jester-never-wins-with-others")
    if why.trump is None and any(not card.is_number for card in why.cards):
        rules.append("no-trump-keeps-wizards-jesters")
    for situation in trick_situations(why.cards, why.trump):
        rules += _WINNER_RULES.get(situation, ())
        if why.rule is WinRule.HIGHEST_LED:
            rules += _LED_WINNER_RULES.get(situation, ())
    return _unique(rules)


def play_rules(hand: CardsLike, plays: CardsLike, trump: Suit | str | None) -> tuple[str, ...]:
    """The rules (rule-map ids) a learner choosing the legal cards of ``hand`` after
    ``plays`` uses: the rule the engine judges each card by, then what the lead asks.

    >>> play_rules("R4 G2 W", "B6 W", trump="R")
    ('cannot-follow-play-anything', 'wizard-jester-any-time', 'number-then-wizard-still-binds')
    >>> play_rules("R4 J", "", trump="R")
    ('leader-plays-any-card',)
    >>> play_rules("R4 G2", "J J", trump="B")
    ('jester-led-first-number-sets-suit', 'jesters-set-nothing')
    """
    cards, played = tuple(parse_cards(hand)), tuple(parse_cards(plays))
    rules = [
        _PLAY_RULES[judgement.rule]
        for judgement in (judge_play(cards, played, card) for card in cards)
        if judgement.rule in _PLAY_RULES
    ]
    for situation in play_situations(cards, played, trump):
        rules += _LEAD_RULES.get(situation, ())
        if situation is Situation.JESTERS_SO_FAR and len(played) > 1:
            rules.append("jesters-set-nothing")  # several in a row set nothing either
    return _unique(rules)


def score_rules(bid: int, taken: int) -> tuple[str, ...]:
    """The rule (rule-map id) a learner scoring ``bid`` and ``taken`` uses: the line of the
    scoring rule the engine's :func:`~tutor.rules.scoring.round_score` applies.

    >>> score_rules(0, 0), score_rules(2, 2), score_rules(1, 3)
    (('bid-zero-met-scores-twenty',), ('bid-met-scores',), ('bid-missed-loses',))
    """
    if bid != taken:
        return ("bid-missed-loses",)
    return ("bid-zero-met-scores-twenty",) if bid == 0 else ("bid-met-scores",)


# -- reading the engine's judgement ------------------------------------------------------


def _lead_situations(cards: Sequence[Card], trump: Suit | None) -> set[Situation]:
    """How the cards so far set (or do not set) the suit to follow."""
    lead, suit = lead_of(cards)
    found: set[Situation] = set()
    if lead is Lead.WIZARD_FIRST:
        found.add(Situation.WIZARD_LED if cards[0].is_wizard else Situation.JESTER_THEN_WIZARD)
    elif lead is Lead.SUIT:
        # the first card that is not a Jester set the suit (lead_of says it is a number)
        setter = next(index for index, card in enumerate(cards) if not card.is_jester)
        if setter == 1:
            found.add(Situation.JESTER_THEN_NUMBER)
        elif setter > 1:
            found.add(Situation.JESTERS_THEN_NUMBER)
        if any(card.is_wizard for card in cards[setter + 1 :]):
            found.add(Situation.NUMBER_THEN_WIZARD)
        if suit is trump:
            found.add(Situation.TRUMP_LED)
    return found


def _follow_situations(cards: Sequence[Card], trump: Suit | None) -> set[Situation]:
    """Who followed and who could not, card by card: each card judged as played from a
    hand that held only it (a trick played by the rules: a player who played another
    suit held none of the led one)."""
    found: set[Situation] = set()
    for index, card in enumerate(cards):
        rule = judge_play((card,), cards[:index], card).rule
        found.update(_follow_situation(rule, card, trump))
    return found


def _follow_situation(rule: PlayRule, card: Card, trump: Suit | None) -> set[Situation]:
    if rule is PlayRule.FOLLOWS_SUIT:
        return {Situation.LED_SUIT_FOLLOWED}
    if rule is PlayRule.CANNOT_FOLLOW:
        trumps = trump is not None and card.suit is trump
        return {Situation.CANNOT_FOLLOW_TRUMP if trumps else Situation.CANNOT_FOLLOW_DISCARD}
    return set()


def _in_order(found: set[Situation]) -> tuple[Situation, ...]:
    return tuple(situation for situation in Situation if situation in found)


def _unique(rules: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(rules))
