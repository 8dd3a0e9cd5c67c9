"""A rule asked as a yes/no question that the engine answers (``kind = "rule-check"``):
the question, the registry of named checks (:data:`RULE_CHECKS`), and the reader that
checks what a lesson file states against the engine.

Each check is a small experiment with the rules engine: try to seat seven players, count
the Jesters against the players, deal rounds and look for the turned card in the hands,
try to play a card while bids are missing, ask for plus/minus one with hidden bids, play
a whole game and see whether its rules ever change. A lesson names the check and states
its answer; the answer a learner is graded on is always the experiment's outcome.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import FrozenInstanceError, dataclass
from functools import cache
from types import MappingProxyType
from typing import ClassVar

from tutor.errors import InvalidDealError, InvalidPlayersError, InvalidRulesError, WizardRuleError
from tutor.rules.cards import DECK, Card, Suit, parse_card
from tutor.rules.game import Game
from tutor.rules.round import Phase, Round
from tutor.rules.seats import MAX_PLAYERS, MIN_PLAYERS, check_players
from tutor.rules.trick import explain_trick
from tutor.rules.variants import Rules
from tutor.teaching.kinds.round_setup import ready_to_bid
from tutor.teaching.lesson_reader import ItemKind, TableReader
from tutor.teaching.question import AnswerKind, Feedback, Question, Topic
from tutor.teaching.text import DEFAULT_LANGUAGE, text

_DEALS = 12
"""How many seeded deals a check about dealing looks at (for each round size it tries)."""


@cache  # an experiment's outcome never changes: run it once
def _can_seat(players: int) -> bool:
    """Whether the engine deals a round to ``players`` players."""
    try:
        Round(players=players, cards=1, seed=0)
    except InvalidPlayersError:
        return False
    return True


@cache
def _jesters_only_trick(players: int) -> bool:
    """Whether a trick of ``players`` cards can be all Jesters: one Jester per player."""
    return sum(card.is_jester for card in DECK) >= players


def _deals(players: int) -> list[Round]:
    """Seeded rounds of ``players`` that leave cards over, so a card is turned."""
    rounds = []
    for cards in range(1, len(DECK) // players):  # the last size deals every card
        for seed in range(_DEALS):
            rounds.append(Round(players=players, cards=cards, dealer=seed % players, seed=seed))
    return rounds


def _beside(cards: Counter[Card], turned: Card | None) -> bool:
    """Whether ``cards`` and the turned card can all be cards of one deck. The deck holds
    4 Wizards and 4 Jesters that look alike: a Jester in a hand may be another Jester
    than the one turned, so the cards are counted, not looked up."""
    if turned is not None:
        cards = cards + Counter([turned])
    return all(count <= _DECK_COUNTS[card] for card, count in cards.items())


_DECK_COUNTS = Counter(DECK)


@cache
def _turned_card_in_a_hand(players: int) -> bool:
    """Whether a deal ever puts the turned card in a player's hand."""
    return not all(
        _beside(Counter(card for hand in rnd.hands for card in hand), rnd.turned)
        for rnd in _deals(players)
    )


@cache
def _turned_card_playable(players: int) -> bool:
    """Whether the turned card is ever played: each deal is played through (every bid 0,
    a seeded choice of legal cards), and the cards played counted beside it."""
    rng = random.Random(0)
    for rnd in _deals(players):
        turned = rnd.turned
        ready_to_bid(rnd)
        while rnd.phase is Phase.BIDDING:
            rnd.bid(0)
        played: Counter[Card] = Counter()
        while not rnd.finished:
            card = rng.choice(rnd.legal_plays())
            rnd.play(card)
            played[card] += 1
        if not _beside(played, turned):
            return True
    return False


@cache
def _play_before_every_bid(players: int) -> bool:
    """Whether any card may be played while the last bid is still missing."""
    for rnd in _deals(players)[:_DEALS]:
        ready_to_bid(rnd)
        for _ in range(players - 1):
            rnd.bid(0)
        for seat in range(players):
            if any(rnd.can_play(card, seat=seat) for card in rnd.hands[seat]):
                return True
    return False


@cache
def _one_trick_counts_as_players(players: int) -> bool:
    """Whether taking one trick (a card from each player) counts as ``players`` tricks."""
    rnd = ready_to_bid(Round(players=players, cards=2, seed=0))
    while rnd.phase is Phase.BIDDING:
        rnd.bid(0)
    for _ in range(players):
        rnd.play(rnd.legal_plays()[0])
    winner = rnd.tricks[0].winner
    return rnd.taken[winner] == len(rnd.tricks[0].cards)


@cache
def _several_wizards_in_a_hand(_players: int) -> bool:
    """Whether the engine deals one hand two Wizards and a Jester (its deal check refuses
    any card a deck does not hold that many times)."""
    try:
        Round(hands=["W W J", "J R1 R2", "G5 G6 G7"], turned="B1", dealer=2)
    except InvalidDealError:
        return False
    return True


def _two_card_tricks(special: Card) -> list[tuple[tuple[Card, ...], Suit | None]]:
    """Every trick of ``special`` and one number card, in both orders, under every trump."""
    return [
        (trick, trump)
        for card in DECK
        if card.is_number
        for trick in ((card, special), (special, card))
        for trump in (*Suit, None)
    ]


@cache
def _number_beats_wizard(_players: int) -> bool:
    """Whether any number card, trump or not, led or not, takes a trick from a Wizard."""
    wizard = parse_card("W")
    return any(
        trick[explain_trick(trick, trump).winner] != wizard
        for trick, trump in _two_card_tricks(wizard)
    )


@cache
def _jester_beats_number(_players: int) -> bool:
    """Whether a Jester, led or not, takes a trick from any number card, under any trump."""
    jester = parse_card("J")
    return any(
        trick[explain_trick(trick, trump).winner] == jester
        for trick, trump in _two_card_tricks(jester)
    )


@cache
def _plus_minus_one_with(bidding: str) -> bool:
    """Whether the engine's rules let plus/minus one go with ``bidding`` bids."""
    try:
        Rules.preset("plus-minus-one", f"{bidding}-bids")
    except InvalidRulesError:
        return False
    return True


@cache
def _rules_change_during_game(players: int) -> bool:
    """Whether a game's rules can change once it has started: a five-round game is played
    through (every bid 0, the first legal card), and each round's rules compared with the
    game's; and whether the rules value itself can be changed in place."""
    game = Game(players=players, rules=Rules.preset("five-rounds"), seed=0)
    dealt_with = set()
    while True:
        rnd = ready_to_bid(game.round)
        while rnd.phase is Phase.BIDDING:
            rnd.bid(rnd.legal_bids()[0])
        while not rnd.finished:
            rnd.play(rnd.legal_plays()[0])
        dealt_with.add(rnd.rules)
        if game.finished:
            break
        game.next_round()
    try:
        setattr(game.rules, "plus_minus_one", True)  # noqa: B010 (a frozen value refuses it)
    except (FrozenInstanceError, AttributeError):
        changeable = False
    else:
        changeable = True
    return changeable or dealt_with != {game.rules}


@dataclass(frozen=True, slots=True)
class RuleCheck:
    """One named experiment with the engine: its question and explanation (catalog keys
    ``rule-check.<name>`` and ``rule-check.<name>-why``), the rule it asks, what it
    exercises, whether it takes a number of ``players``, and the experiment (``answer``)."""

    name: str
    rule: str
    """The rule it asks (an id of :mod:`tutor.teaching.rule_map`)."""
    topic: Topic
    answer: Callable[[int], bool]
    players: bool = True
    """Whether the check takes a number of players (the lesson's ``players``)."""
    varies: bool = False
    """Whether the answer depends on the number of players: then the explanation has a
    line for each answer (``<name>-why-yes``, ``<name>-why-no``)."""


RULE_CHECKS: Mapping[str, RuleCheck] = MappingProxyType(
    {
        check.name: check
        for check in (
            RuleCheck(
                "several-wizards-in-a-hand",
                "wizard-jester-no-suit",
                Topic.CARDS_AND_ROUNDS,
                _several_wizards_in_a_hand,
                players=False,
            ),
            RuleCheck(
                "number-beats-wizard",
                "wizard-strongest-jester-weakest",
                Topic.TRICK_WINNER,
                _number_beats_wizard,
                players=False,
            ),
            RuleCheck(
                "jester-beats-number",
                "wizard-strongest-jester-weakest",
                Topic.TRICK_WINNER,
                _jester_beats_number,
                players=False,
            ),
            RuleCheck(
                "players-allowed",
                "three-to-six-players",
                Topic.CARDS_AND_ROUNDS,
                _can_seat,
                varies=True,
            ),
            RuleCheck(
                "one-trick-per-collection",
                "round-is-not-trick",
                Topic.CARDS_AND_ROUNDS,
                _one_trick_counts_as_players,
            ),
            RuleCheck(
                "turned-card-in-a-hand",
                "turned-card-belongs-to-nobody",
                Topic.TRUMP_REVEAL,
                _turned_card_in_a_hand,
            ),
            RuleCheck(
                "turned-card-playable",
                "turned-card-belongs-to-nobody",
                Topic.TRUMP_REVEAL,
                _turned_card_playable,
            ),
            RuleCheck(
                "play-before-every-bid",
                "bids-recorded-before-play",
                Topic.BIDDING,
                _play_before_every_bid,
            ),
            RuleCheck(
                "jesters-only-trick",
                "only-jesters-needs-four-or-fewer",
                Topic.JESTER_LEAD,
                _jesters_only_trick,
                varies=True,
            ),
            RuleCheck(
                "plus-minus-one-hidden-bids",
                "plus-minus-one-needs-open-bids",
                Topic.VARIANTS,
                lambda _players: _plus_minus_one_with("hidden"),
                players=False,
            ),
            RuleCheck(
                "plus-minus-one-secret-bids",
                "plus-minus-one-needs-open-bids",
                Topic.VARIANTS,
                lambda _players: _plus_minus_one_with("secret"),
                players=False,
            ),
            RuleCheck(
                "variants-change-during-game",
                "variants-agreed-before",
                Topic.VARIANTS,
                _rules_change_during_game,
            ),
        )
    }
)
"""Every named check, by the name a lesson file gives it."""


def _yes_no(value: bool, lang: str) -> str:
    return text("round-quiz.yes" if value else "round-quiz.no", lang)


@dataclass(frozen=True, slots=True)
class RuleCheckQuestion(Question):
    """A yes/no question about a rule, answered by one of :data:`RULE_CHECKS`.

    >>> q = RuleCheckQuestion.of("jesters-only-trick", players=5)
    >>> q.prompt()
    'With 5 players, can a trick be made of Jesters only?'
    >>> q.correct_answer(), q.choice_label(False)
    (False, 'no')
    >>> print(q.check(True).as_text())
    Not quite. The answer is no. There are only 4 Jesters in the deck: with 5 players, at least one card of every trick is not a Jester.
    >>> RuleCheckQuestion.of("players-allowed", players=7).correct_answer()
    False
    >>> RuleCheckQuestion.of("seven-players")
    Traceback (most recent call last):
    ...
    tutor.errors.WizardRuleError: unknown rule check 'seven-players'; known: several-wizards-in-a-hand, number-beats-wizard, jester-beats-number, players-allowed, one-trick-per-collection, turned-card-in-a-hand, turned-card-playable, play-before-every-bid, jesters-only-trick, plus-minus-one-hidden-bids, plus-minus-one-secret-bids, variants-change-during-game
    """

    check_name: str
    players: int | None = None
    answer_kind: ClassVar[AnswerKind] = AnswerKind.ONE_CHOICE

    @classmethod
    def of(cls, check: str, *, players: int | None = None) -> RuleCheckQuestion:
        question = cls(check, players)
        rule = question.rule_check()
        if rule.players and players is None:
            raise WizardRuleError(f"the rule check {check!r} needs a number of players")
        if not rule.players and players is not None:
            raise WizardRuleError(f"the rule check {check!r} takes no number of players")
        if rule.players and check != "players-allowed":
            check_players(players)  # the other checks are about a game that can be played
        elif players is not None and (not isinstance(players, int) or not 1 <= players <= 99):
            raise InvalidPlayersError(f"invalid number of players {players!r}")
        return question

    def rule_check(self) -> RuleCheck:
        try:
            return RULE_CHECKS[self.check_name]
        except KeyError:
            raise WizardRuleError(
                f"unknown rule check {self.check_name!r}; known: " + ", ".join(RULE_CHECKS)
            ) from None

    @property
    def topic(self) -> Topic:
        return self.rule_check().topic

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule its check asks, from the check's entry in :data:`RULE_CHECKS`.

        >>> RuleCheckQuestion.of("players-allowed", players=7).rules
        ('three-to-six-players',)
        """
        return (self.rule_check().rule,)

    def correct_answer(self) -> bool:
        return self.rule_check().answer(self.players or 0)

    def choices(self) -> tuple[bool, ...]:
        return (True, False)

    def choice_label(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        return _yes_no(bool(choice), lang)

    def _values(self) -> dict[str, object]:
        return {
            "players": self.players,
            "jesters": sum(card.is_jester for card in DECK),
            "fewest": MIN_PLAYERS,
            "most": MAX_PLAYERS,
        }

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text(f"rule-check.{self.check_name}", lang, **self._values())

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text(f"rule-check-hint.{self.check_name}", lang, **self._values())

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        right = self.correct_answer()
        why = f"rule-check.{self.check_name}-why"
        if self.rule_check().varies:
            why += "-yes" if right else "-no"
        return Feedback.graded(
            answer is right,
            text("round-quiz.answer", lang, value=_yes_no(right, lang)),
            text(why, lang, **self._values()),
            lang,
        )


def read_item(r: TableReader) -> Question:
    """A rule-check item of a lesson file, what it states checked against the engine."""
    name = r.string("check")
    players = r.integer("players") if r.has("players") else None
    question: RuleCheckQuestion = r.engine(lambda: RuleCheckQuestion.of(name, players=players))
    stated, engine = r.boolean("answer"), question.correct_answer()
    if stated != engine:
        raise r.fail(
            f"states answer = {str(stated).lower()} but the engine's check {name!r} says "
            f"{str(engine).lower()}"
        )
    return question


KIND = ItemKind("rule-check", ("check", "players", "answer"), read_item)
