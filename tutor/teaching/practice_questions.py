"""Practice's questions: fresh ones built with the engine, made to reach every situation a
trick can be in (:class:`tutor.teaching.situations.Situation`).

A question about a trick comes from a :class:`tutor.rules.round.Round`: dealt, trump
revealed (the dealer picks a suit after a Wizard), bid, and the first trick played with
:meth:`Round.play`, every card one of :meth:`Round.legal_plays`. Left to chance, some
situations would hardly ever come (a trick of Jesters only needs a Jester in every hand;
in 3,000 questions of chance alone it came 0 times), so each question aims at one: a
:class:`Plan` names the situation, the card wanted at each place of the trick (a Wizard or
a Jester wanted there is dealt to that player, so the deal makes it possible) and the
trump. The players then play a wanted card whenever it is legal, else any legal card; the
question is kept when the engine finds the situation in it (a few deals at most). No
situation is ever made by hand: a trick of Jesters only is planned with 3 or 4 players
only, and the engine would refuse a fifth Jester anyway.

Everything is drawn from the ``random.Random`` given: a seed gives the same questions.

>>> question = random_question(random.Random(3), Topic.JESTER_LEAD)
>>> question.topic, question.plays[0]
(<Topic.JESTER_LEAD: 'jester-lead'>, Card.parse('J'))
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from tutor.rules.cards import DECK, JESTERS_IN_DECK, Card, Suit
from tutor.rules.round import Phase, Round
from tutor.rules.seats import default_names
from tutor.rules.trick import lead_of_cards
from tutor.teaching.lesson import ScoreSheetFact
from tutor.teaching.progress_summary import check_practice_topic
from tutor.teaching.quiz import (
    BidsMetQuestion,
    GameWinnersQuestion,
    LegalPlaysQuestion,
    NextLeaderQuestion,
    RoundTricksQuestion,
    ScoreQuestion,
    ScoreTotalQuestion,
    ShortRound,
    Topic,
    TrickWinnerQuestion,
    TrumpQuestion,
)
from tutor.teaching.situations import Situation

PracticeQuestion = (
    TrickWinnerQuestion
    | LegalPlaysQuestion
    | ScoreQuestion
    | TrumpQuestion
    | NextLeaderQuestion
    | RoundTricksQuestion
    | BidsMetQuestion
    | ScoreTotalQuestion
    | GameWinnersQuestion
)
"""Every kind of question practice asks."""

SHORT_ROUND_CARDS = 3
"""The cards of a round practice plays through: three tricks, as in the worked example."""

MAX_ATTEMPTS = 200
"""Deals tried to reach a plan's situation and topic (a few usually do); after that the
last question is kept, and it is recorded under its own topic."""

NO_TRUMP_SHARE = 0.12
"""How often a plan that does not need trump turns a Jester (a round without trump): by
chance alone it comes about once in fifteen deals."""


# -- what the players play -------------------------------------------------------------------


class Want(StrEnum):
    """The card a plan wants at a place of the trick (played when the player holds one
    that is legal)."""

    ANY = "any"
    """Any legal card."""
    WIZARD = "wizard"
    """A Wizard (one is dealt to that player)."""
    JESTER = "jester"
    """A Jester (one is dealt to that player)."""
    NUMBER = "number"
    """A number card."""
    PLAIN = "plain"
    """A number card that is not trump."""
    TRUMP = "trump"
    """A trump."""
    FOLLOW = "follow"
    """A card of the led suit."""
    DISCARD = "discard"
    """A number card of neither the led suit nor trump."""
    QUIET = "quiet"
    """Neither a Wizard nor a trump, so the led suit keeps the trick."""
    NO_WIZARD = "no-wizard"
    """Anything but a Wizard."""

    def fits(self, card: Card, rnd: Round) -> bool:
        """Whether ``card`` is wanted, played next in ``rnd`` (its trick so far).

        >>> rnd = Round(hands=["B5 R2", "B9 G3", "R4 J"], turned="R9", dealer=2)
        >>> for bid in (0, 0, 0):
        ...     _ = rnd.bid(bid)
        >>> _ = rnd.play("B5")
        >>> [str(card) for card in rnd.hands[1] if Want.DISCARD.fits(card, rnd)]
        ['G3']
        """
        is_trump = card.is_number and card.suit is rnd.trump
        match self:
            case Want.ANY:
                return True
            case Want.WIZARD:
                return card.is_wizard
            case Want.JESTER:
                return card.is_jester
            case Want.NO_WIZARD:
                return not card.is_wizard
            case Want.QUIET:
                return not card.is_wizard and not is_trump
            case Want.NUMBER:
                return card.is_number
            case Want.PLAIN:
                return card.is_number and not is_trump
            case Want.TRUMP:
                return is_trump
            case Want.FOLLOW:
                return card.is_number and card.suit is _led_suit(rnd)
            case Want.DISCARD:
                return card.is_number and card.suit is not _led_suit(rnd) and not is_trump


def _led_suit(rnd: Round) -> Suit | None:
    return lead_of_cards(card for _, card in rnd.current_trick)[1]


_PLANTED = {Want.WIZARD: Card.wizard(), Want.JESTER: Card.jester()}
"""The cards a wanted place is dealt: a Wizard or a Jester is too rare to wait for."""


class TrumpWanted(StrEnum):
    """What a plan needs of the trump."""

    ANY = "any"
    """Whatever is turned (and a Jester turned on purpose now and then: no trump)."""
    SOME = "some"
    """A trump suit: a turned Jester is put back and another card turned."""
    NONE = "none"
    """No trump: a Jester is turned."""


@dataclass(frozen=True, slots=True)
class Plan:
    """How a question reaches ``situation``: the card wanted at each place of the trick
    (``places``, the leader's first), then ``rest`` at the places after them; ``players``
    the range of players; ``trump`` what it needs of the trump. A legal-plays question
    asks the hand of the player after the ``places``.

    >>> JESTERS_ONLY.situation, len(JESTERS_ONLY.places), JESTERS_ONLY.players
    (<Situation.JESTERS_ONLY: 'jesters-only'>, 4, (4, 4))
    """

    situation: Situation | None
    places: tuple[Want, ...]
    rest: Want = Want.ANY
    players: tuple[int, int] = (3, 6)
    trump: TrumpWanted = TrumpWanted.ANY

    @classmethod
    def of(
        cls,
        situation: Situation | None,
        places: str,
        *,
        rest: str = "any",
        players: tuple[int, int] = (3, 6),
        trump: str = "any",
    ) -> Plan:
        """A plan with its wants written as words (``"jester jester number"``).

        >>> Plan.of(Situation.JESTER_THEN_WIZARD, "jester wizard").places
        (<Want.JESTER: 'jester'>, <Want.WIZARD: 'wizard'>)
        """
        wants = tuple(Want(word) for word in places.split())
        return cls(situation, wants, Want(rest), players, TrumpWanted(trump))

    def __post_init__(self) -> None:
        planted = [_PLANTED[want] for want in self.places if want in _PLANTED]
        jesters = planted.count(Card.jester()) + (self.trump is TrumpWanted.NONE)
        if jesters > JESTERS_IN_DECK or len(self.places) > self.players[0]:
            raise ValueError(
                f"a plan the deck or the table cannot hold: {len(self.places)} places "
                f"({' '.join(self.places)}) and {jesters} Jesters (the deck has "
                f"{JESTERS_IN_DECK}) for {self.players[0]} to {self.players[1]} players"
            )


JESTERS_ONLY = Plan.of(Situation.JESTERS_ONLY, "jester jester jester jester", players=(4, 4))
"""A trick of Jesters only, 4 players (another plan has 3): never 5 or 6, the deck has 4."""

_S = Situation
_Weighted = tuple[tuple[Plan, float], ...]

# What each topic asks, as plans with their weights: the rarer situations weigh more, as
# a topic's questions are shared among its plans. A plan whose trick the engine would put
# under another topic is never kept for this one (see random_question).
_WINNER_PLANS: Mapping[Topic, _Weighted] = MappingProxyType(
    {
        Topic.TRICK_WINNER: (
            (Plan.of(_S.WIZARD_LED, "wizard"), 1.0),
            (Plan.of(_S.SEVERAL_WIZARDS, "wizard any wizard"), 0.5),
            (Plan.of(_S.NO_TRUMP, "number", rest="no-wizard", trump="none"), 1.0),
            (Plan.of(_S.TRUMP_LED, "trump", rest="no-wizard", trump="some"), 0.5),
            (Plan.of(_S.LED_SUIT_FOLLOWED, "plain follow", rest="quiet"), 1.0),
            (Plan.of(_S.CANNOT_FOLLOW_DISCARD, "plain discard", rest="quiet"), 1.0),
        ),
        Topic.JESTER_LEAD: (
            (Plan.of(_S.JESTER_THEN_NUMBER, "jester number"), 1.0),
            (Plan.of(_S.JESTERS_THEN_NUMBER, "jester jester number"), 1.0),
            (Plan.of(_S.JESTER_THEN_WIZARD, "jester wizard"), 0.5),
            (Plan.of(_S.JESTER_THEN_WIZARD, "jester jester wizard"), 0.5),
            (Plan.of(_S.JESTERS_ONLY, "jester jester jester", players=(3, 3)), 0.75),
            (JESTERS_ONLY, 0.75),
        ),
        Topic.WIZARD_AFTER_NUMBER: (
            (Plan.of(_S.ONE_WIZARD, "number wizard", rest="no-wizard"), 1.0),
            (Plan.of(_S.ONE_WIZARD, "number follow wizard", rest="no-wizard"), 1.0),
            (Plan.of(_S.SEVERAL_WIZARDS, "number wizard wizard"), 1.0),
        ),
        Topic.TRUMP_VS_LED: (
            (Plan.of(_S.TRUMP_IN, "plain trump", rest="no-wizard", trump="some"), 1.0),
            (Plan.of(_S.CANNOT_FOLLOW_TRUMP, "plain any trump"), 1.0),
        ),
    }
)
"""Who takes the trick? The plans of each topic."""

_PLAY_PLANS: Mapping[Topic, _Weighted] = MappingProxyType(
    {
        Topic.LEGAL_PLAYS: (
            (Plan.of(None, ""), 0.5),
            (Plan.of(_S.LED_SUIT_FOLLOWED, "plain", rest="quiet"), 1.0),
            (Plan.of(_S.CANNOT_FOLLOW_DISCARD, "plain"), 1.0),
            (Plan.of(_S.CANNOT_FOLLOW_TRUMP, "plain", trump="some"), 1.0),
            (Plan.of(_S.TRUMP_LED, "trump", trump="some"), 1.0),
            (Plan.of(_S.WIZARD_LED, "wizard"), 1.0),
        ),
        Topic.JESTER_LEAD: (
            (Plan.of(_S.JESTERS_SO_FAR, "jester"), 1.5),
            (Plan.of(_S.JESTERS_SO_FAR, "jester jester"), 1.5),
            (Plan.of(_S.JESTER_THEN_NUMBER, "jester number"), 1.0),
            (Plan.of(_S.JESTERS_THEN_NUMBER, "jester jester number", players=(4, 6)), 1.0),
            (Plan.of(_S.JESTER_THEN_WIZARD, "jester wizard"), 1.0),
        ),
        Topic.WIZARD_AFTER_NUMBER: (
            (Plan.of(_S.NUMBER_THEN_WIZARD, "number wizard"), 1.0),
            (Plan.of(_S.NUMBER_THEN_WIZARD, "number any wizard", players=(4, 6)), 1.0),
        ),
    }
)
"""Which cards may be played? The plans of each topic: the hand asked is the next player's
after the plan's places (a plan without a situation: after a random number of cards)."""


def winner_plans() -> tuple[Plan, ...]:
    """Every plan of a who-takes-the-trick question, whatever its topic: the tricks that
    other questions show (who leads next, a round played through) are drawn from them.

    >>> {plan.situation for plan in winner_plans()} >= {Situation.JESTERS_ONLY}
    True
    """
    return tuple(plan for plans in _WINNER_PLANS.values() for plan, _weight in plans)


def play_plans() -> tuple[Plan, ...]:
    """Every plan of a which-cards-may-be-played question, whatever its topic.

    >>> all(len(plan.places) < plan.players[0] for plan in play_plans())  # one to ask
    True
    """
    return tuple(plan for plans in _PLAY_PLANS.values() for plan, _weight in plans)


# -- the deal ----------------------------------------------------------------------------


def deal_for(rng: random.Random, plan: Plan, *, cards: int | None = None) -> Round:
    """A round bid and ready for its first card, dealt so that ``plan`` can happen:
    ``cards`` each (default 3-8), the Wizards and Jesters the plan wants in the hands of
    the players at those places, and the trump it needs. The :class:`Round` checks the
    deal.

    >>> rnd = deal_for(random.Random(5), JESTERS_ONLY)
    >>> rnd.players, [Card.jester() in hand for hand in rnd.hands]
    (4, [True, True, True, True])
    """
    players = rng.randint(*plan.players)
    if cards is None:
        cards = rng.randint(3, min(8, len(DECK) // players))
    dealer = rng.randrange(players)
    first = (dealer + 1) % players  # leads the first trick
    hands: list[list[Card]] = [[] for _ in range(players)]
    stock = list(DECK)
    for place, want in enumerate(plan.places):
        if want in _PLANTED:
            hands[(first + place) % players].append(_PLANTED[want])
            stock.remove(_PLANTED[want])
    no_trump = plan.trump is TrumpWanted.NONE or (
        plan.trump is TrumpWanted.ANY and Card.jester() in stock and rng.random() < NO_TRUMP_SHARE
    )
    if no_trump:
        stock.remove(Card.jester())
    rng.shuffle(stock)
    for hand in hands:
        while len(hand) < cards:
            hand.append(stock.pop())
        rng.shuffle(hand)  # a planted card is not always first
    turned = Card.jester() if no_trump else stock.pop()
    while plan.trump is TrumpWanted.SOME and turned.is_jester:
        turned = stock.pop()
    return _bid(rng, Round(hands=hands, turned=turned, dealer=dealer))


def _bid(rng: random.Random, rnd: Round) -> Round:
    """The dealer's trump (after a turned Wizard) and every bid: half the players bid
    their sure tricks (Wizards and high trumps), the others any legal bid, so that some
    bids are met and some missed."""
    if rnd.phase is Phase.TRUMP_CHOICE:
        rnd.choose_trump(rng.choice(list(Suit)))
    while rnd.phase is Phase.BIDDING:
        seat = rnd.to_act
        assert seat is not None
        legal = rnd.legal_bids()
        sure = sum(
            card.is_wizard or (card.suit is rnd.trump and (card.rank or 0) >= 10)
            for card in rnd.hands[seat]
        )
        rnd.bid(sure if sure in legal and rng.random() < 0.5 else rng.choice(legal))
    return rnd


def _play_out(rng: random.Random, rnd: Round) -> Round:
    """Every card left, each a legal one chosen at random."""
    while not rnd.finished:
        rnd.play(rng.choice(rnd.legal_plays()))
    return rnd


def play_plan(rng: random.Random, rnd: Round, plan: Plan, cards: int) -> None:
    """Play ``cards`` cards of the current trick: at each place a legal card the plan
    wants there, if the player holds one, else any legal card."""
    for _ in range(cards):
        place = len(rnd.current_trick)
        want = plan.places[place] if place < len(plan.places) else plan.rest
        legal = rnd.legal_plays()
        wanted = [card for card in legal if want.fits(card, rnd)]
        rnd.play(rng.choice(wanted or legal))


# -- the questions ---------------------------------------------------------------------


def _pick(rng: random.Random, plans: _Weighted) -> Plan:
    return rng.choices([plan for plan, _ in plans], weights=[weight for _, weight in plans])[0]


def _trick_winner_question(rng: random.Random, plan: Plan) -> TrickWinnerQuestion:
    rnd = deal_for(rng, plan)
    play_plan(rng, rnd, plan, rnd.players)
    trick = rnd.tricks[0]
    names = [rnd.names[seat] for seat in trick.seats]
    return TrickWinnerQuestion.of(trick.cards, rnd.trump, names)


def _legal_plays_question(rng: random.Random, plan: Plan) -> LegalPlaysQuestion:
    rnd = deal_for(rng, plan)
    before = len(plan.places) if plan.situation else rng.randint(0, rnd.players - 1)
    play_plan(rng, rnd, plan, before)
    seat = rnd.to_act
    assert seat is not None
    plays = [card for _, card in rnd.current_trick]
    hand: list[Card] = sorted(rnd.hands[seat], key=lambda card: card.sort_key)
    return LegalPlaysQuestion.of(hand, plays, rnd.trump)


def _score_question(rng: random.Random, topic: Topic) -> ScoreQuestion:
    bid = 0 if topic is Topic.BID_ZERO else rng.randint(1, 7)
    if rng.random() < 0.5:
        return ScoreQuestion(bid=bid, taken=bid)
    taken = rng.choice([n for n in range(0, max(bid, 1) + 4) if n != bid])
    return ScoreQuestion(bid=bid, taken=taken)


def _trump_question(rng: random.Random) -> TrumpQuestion:
    # Mostly the special cases: a number card is easy after the first few.
    roll = rng.random()
    if roll < 0.15:
        return TrumpQuestion.of(None)
    if roll < 0.35:
        return TrumpQuestion.of(Card.jester())
    if roll < 0.55:
        return TrumpQuestion.of(Card.wizard())
    return TrumpQuestion.of(Card.number(rng.choice(list(Suit)), rng.randint(1, 13)))


def _next_leader_question(rng: random.Random) -> NextLeaderQuestion:
    """A trick of any situation (a plan of any topic), and who leads after it."""
    plan = rng.choice(winner_plans())
    rnd = deal_for(rng, plan)
    play_plan(rng, rnd, plan, rnd.players)
    trick = rnd.tricks[0]
    return NextLeaderQuestion.of(trick.cards, rnd.trump, rnd.names, led=trick.leader)


def _round_question(rng: random.Random) -> RoundTricksQuestion | BidsMetQuestion:
    """A round of three cards played through, its first trick by a plan of any topic:
    who takes one of its tricks, or whose bid it meets."""
    plan = rng.choice(winner_plans())
    rnd = deal_for(rng, plan, cards=SHORT_ROUND_CARDS)
    play_plan(rng, rnd, plan, rnd.players)
    played = ShortRound.from_round(_play_out(rng, rnd))
    if rng.random() < 0.5:
        return BidsMetQuestion(played)
    return RoundTricksQuestion(played, trick=rng.randint(1, SHORT_ROUND_CARDS))


def _score_sheet_question(rng: random.Random) -> ScoreTotalQuestion | GameWinnersQuestion:
    """The first rounds of a game played by the engine, then a player's total on its score
    sheet; or a five-round game's sheet, and who wins it."""
    # 3 or 4 players: a sheet is read in words, a cell a player and a round
    winners = rng.random() < 0.3
    players = rng.randint(3, 4)
    rounds = 5 if winners else rng.randint(2, 4)
    dealer = rng.randrange(players)
    bids, taken = [], []
    for number in range(1, rounds + 1):  # round n deals n cards: the sheet's rounds 1 to n
        rnd = Round(players=players, cards=number, dealer=(dealer + number - 1) % players, rng=rng)
        _play_out(rng, _bid(rng, rnd))
        bids.append(rnd.final_bids)
        taken.append(rnd.taken)
    sheet = ScoreSheetFact(names=default_names(players), bids=tuple(bids), taken=tuple(taken))
    if winners:
        return GameWinnersQuestion(sheet)
    return ScoreTotalQuestion(sheet, player=rng.randrange(players))


def _reached(question: PracticeQuestion, topic: Topic, plan: Plan, rng: random.Random) -> bool:
    """Whether the question is the plan's: its topic, and the situation the plan aims at.
    A hand led into where every card is legal teaches little: a quarter of those are kept."""
    if question.topic is not topic:
        return False
    if plan.situation is not None:
        return plan.situation in question.situations
    assert isinstance(question, LegalPlaysQuestion)
    return len(question.correct_answer()) < len(set(question.hand)) or rng.random() < 0.25


def random_question(rng: random.Random, topic: Topic) -> PracticeQuestion:
    """A fresh question on ``topic``, drawn with ``rng``.

    A question about a trick aims at one of the topic's situations (a :class:`Plan`) and
    deals until the engine finds it there (a few deals at most, usually one).

    >>> question = random_question(random.Random(3), Topic.WIZARD_AFTER_NUMBER)
    >>> question.topic, Situation.NUMBER_THEN_WIZARD in question.situations
    (<Topic.WIZARD_AFTER_NUMBER: 'wizard-after-number'>, True)
    >>> random_question(random.Random(3), Topic.BIDDING)
    Traceback (most recent call last):
    ...
    tutor.teaching.progress_summary.PracticeTopicError: practice asks no questions on topic 'bidding' (lessons do); practice topics: jester-lead, wizard-after-number, trump-vs-led, bid-zero, trick-winner, legal-plays, score, trump-reveal, next-leader, round-played, score-sheet
    """
    check_practice_topic(topic)
    if topic in (Topic.SCORE, Topic.BID_ZERO):
        return _score_question(rng, topic)
    if topic is Topic.TRUMP_REVEAL:
        return _trump_question(rng)
    if topic is Topic.NEXT_LEADER:
        return _next_leader_question(rng)
    if topic is Topic.ROUND_PLAYED:
        return _round_question(rng)
    if topic is Topic.SCORE_SHEET:
        return _score_sheet_question(rng)
    asks_play = topic in _PLAY_PLANS and (topic not in _WINNER_PLANS or rng.random() < 0.5)
    plans = _PLAY_PLANS[topic] if asks_play else _WINNER_PLANS[topic]
    plan = _pick(rng, plans)
    question: PracticeQuestion | None = None
    for _ in range(MAX_ATTEMPTS):
        if asks_play:
            question = _legal_plays_question(rng, plan)
        else:
            question = _trick_winner_question(rng, plan)
        if _reached(question, topic, plan, rng):
            return question
    assert question is not None
    return question


# -- the rules each generator asks ---------------------------------------------------------

_WINNER_RULES = (
    "first-wizard-wins",
    "later-wizards-never-win",
    "highest-trump-wins",
    "highest-led-suit-wins",
    "jester-never-wins-with-others",
    "only-jesters-first-wins",
    "jester-led-first-number-sets-suit",
    "jesters-set-nothing",
    "no-trump-keeps-wizards-jesters",
)
"""What naming the winner of practice's tricks asks (tutor.teaching.situations)."""

_SCORING_RULES = ("bid-met-scores", "bid-zero-met-scores-twenty", "bid-missed-loses")

_GENERATOR_RULES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "trick-winner": _WINNER_RULES,
        "legal-plays": (
            "leader-plays-any-card",
            "must-follow-suit",
            "wizard-jester-any-time",
            "cannot-follow-play-anything",
            "trump-led-must-follow",
            "wizard-led-no-suit",
            "number-then-wizard-still-binds",
            "jester-led-first-number-sets-suit",
            "jesters-set-nothing",
            "jester-then-wizard-no-suit",
        ),
        "score": _SCORING_RULES,
        "trump": (
            "number-turned-suit-is-trump",
            "jester-turned-no-trump",
            "wizard-turned-dealer-chooses",
            "nothing-turned-no-trump",
        ),
        "next-leader": ("winner-leads-next", *_WINNER_RULES),
        "round-tricks": _WINNER_RULES,
        "bids-met": ("bid-is-tricks-expected", "round-is-not-trick", *_WINNER_RULES),
        "score-total": ("scores-add-up", *_SCORING_RULES),
        "game-winners": ("highest-total-wins", "scores-add-up", *_SCORING_RULES),
    }
)


def rules_by_generator() -> Mapping[str, tuple[str, ...]]:
    """Which rules (ids of :mod:`tutor.teaching.rule_map`) each of practice's generators
    can ask, by the kind of question it makes (its name in
    :data:`tutor.teaching.kinds.ITEM_KINDS`): ``tests/teaching/test_practice.py`` checks
    that in 3,000 questions each asks every rule listed, and no other.

    >>> rules_by_generator()["score"]
    ('bid-met-scores', 'bid-zero-met-scores-twenty', 'bid-missed-loses')
    """
    return _GENERATOR_RULES
