"""The bidding coach: how many tricks might this hand take, and what each bid is worth.

From the learner's seat view during bidding (:meth:`tutor.rules.round.Round.view`), the coach
deals the cards the learner cannot see (every card but their hand and the turned card) at
random to the other seats, many times, and plays each deal out with the sensible bot's
choices at every seat. The tricks the learner's seat takes give the chances P(0), P(1),
...; each bid's expected score follows from :func:`tutor.rules.scoring.round_score`.

What the simulated players know and do:

- bids the view shows are kept; a bid it does not show (not made yet, or hidden by the
  variant) is the sensible bot's bid for that seat's simulated hand;
- the learner's seat plays to make ``play_for``: their bid if already made, else the
  sensible bot's bid for their hand (another value can be asked for). The chances are
  those of that way of playing: a learner who bids 0 and ducks, or bids high and grabs,
  can steer the count somewhat, which is why :attr:`BidAdvice.played_for` is reported.

How a deal is played: each simulated deal is a real :class:`~tutor.rules.round.Round`, so
the engine deals it, takes the dealer's trump choice and checks every bid (legal bids
only, plus/minus one included). The tricks are then played by :func:`play_out`, which
applies the engine's rule functions (:func:`~tutor.rules.trick.legal_cards`,
:func:`~tutor.rules.trick.lead_after`, :func:`~tutor.rules.trick.card_power`) and the
sensible bot's choice (:func:`tutor.play.bots.sensible_card`) directly, card by card, as
:meth:`Round.play <tutor.rules.round.Round.play>` does, but without a judgement, an event
and a seat view for every card: about seven times faster than the bots driven through the
engine (4 players, 12 cards), with the same tricks (``tests/play/test_coach.py`` plays the same deals both ways).

It is plain Python, so the coach runs wherever the tutor runs, the browser (Pyodide, where
NumPy cannot be installed) included. :mod:`tutor.play.fastsim`, the NumPy simulator, plays
the same bots in batches; it serves the benchmarks and checks this coach's figures
(``benchmarks/coach_benchmark.py``).

The advice is data (:class:`BidAdvice`); the words come from the message catalogs.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from tutor.errors import IllegalBidError, OutOfTurnError, WizardRuleError
from tutor.play.bots import card_strength, hand_quarters, nearest_bid, sensible_card
from tutor.rules.cards import DECK, Card, Suit
from tutor.rules.checks import is_whole_number
from tutor.rules.round import Phase, Round, SeatView
from tutor.rules.scoring import round_score
from tutor.rules.trick import Lead, followers_in, lead_after, legal_cards, next_card_powers

DEFAULT_SIMULATIONS = 600
"""Deals played for one piece of advice: the learner's wait against the estimate's error.

The error of a chance estimated from ``n`` deals is at most ``0.5 / sqrt(n)`` (one standard
deviation, at a chance of 50%): 2.0 percentage points at 600 deals. The wait grows with the
cards in play, most in the rounds that deal 60 cards (3 x 20, 4 x 15, 5 x 12, 6 x 10).
Measured there (``benchmarks/coach_pyodide.mjs``), 600 deals cost 0.13 s of CPU in CPython
and 0.25-0.28 s in Pyodide, the browser's Python; on this project's shared 2-core machine
under load (10-13) the median wait was 0.3-0.8 s in Pyodide. So a learner waits well
under the 2 s they should, with room for a computer several times slower; smaller rounds
are quicker. And 600 deals pick the same best bid as 20,000 NumPy deals in 97% of positions, as 2,000 did,
and where they differ the two bids are worth nearly the same: 0.05 points lost a bid on
average (``benchmarks/coach_benchmark.py``)."""


@dataclass(frozen=True, slots=True)
class BidAdvice:
    """The coach's estimate for one hand: chances of each trick count and bid values.

    ``probabilities[k]`` is the estimated chance of taking exactly ``k`` tricks
    (``k`` = 0 to ``cards``); ``expected_scores[b]`` the average points of bidding ``b``
    against that distribution. ``best_bid`` is the legal bid with the highest expected
    score (the lowest of equal ones). ``played_for`` is the bid the learner's seat
    played for in the simulations; ``simulations`` the number of deals played.
    """

    seat: int
    cards: int
    trump: Suit | None
    probabilities: tuple[float, ...]
    expected_scores: tuple[float, ...]
    legal_bids: tuple[int, ...]
    best_bid: int
    played_for: int
    simulations: int

    @property
    def expected_tricks(self) -> float:
        """The average number of tricks taken over the simulations."""
        return sum(tricks * chance for tricks, chance in enumerate(self.probabilities))

    def chance_to_make(self, bid: int) -> float:
        """The estimated chance of taking exactly ``bid`` tricks.

        >>> advice = BidAdvice(0, 1, None, (0.25, 0.75), (-2.5, 17.5), (0, 1), 1, 1, 4)
        >>> advice.chance_to_make(1)
        0.75
        >>> advice.chance_to_make(2)
        Traceback (most recent call last):
        ...
        tutor.errors.IllegalBidError: invalid bid 2: a bid is a whole number of tricks from 0 to 1 in a round of 1 cards
        """
        _check_bid(bid, self.cards)
        return self.probabilities[bid]

    def standard_error(self, tricks: int) -> float:
        """The sampling error of ``probabilities[tricks]`` (one standard deviation).

        >>> BidAdvice(0, 1, None, (0.25, 0.75), (-2.5, 17.5), (0, 1), 1, 1, 4800
        ...           ).standard_error(1) == (0.25 * 0.75 / 4800) ** 0.5
        True
        """
        _check_bid(tricks, self.cards)
        chance = self.probabilities[tricks]
        return float((chance * (1.0 - chance) / self.simulations) ** 0.5)


def _check_bid(bid: object, cards: int) -> int:
    if not is_whole_number(bid) or not 0 <= bid <= cards:
        raise IllegalBidError(
            f"invalid bid {bid!r}: a bid is a whole number of tricks from 0 to {cards} "
            f"in a round of {cards} cards"
        )
    return bid


def unseen_cards(view: SeatView) -> list[Card]:
    """The cards ``view``'s seat cannot see: the deck less its hand and the turned card.

    >>> from tutor.rules.round import Round
    >>> rnd = Round(hands=["W W Y2", "B5 R13 G3", "B11 R4 J", "B7 R12 G10"], turned="W",
    ...             dealer=3)
    >>> unseen = unseen_cards(rnd.view(0))
    >>> len(unseen), unseen.count(Card.wizard())
    (56, 1)
    """
    seen = Counter([*view.hand, *([] if view.turned is None else [view.turned])])
    unseen: list[Card] = []
    for card in DECK:  # a Wizard or a Jester is seen as often as the seat holds it
        if seen[card]:
            seen[card] -= 1
        else:
            unseen.append(card)
    return unseen


def sample_round(
    view: SeatView, rng: random.Random, *, play_for: int, unseen: Sequence[Card] | None = None
) -> Round:
    """One deal that agrees with what ``view`` shows, as an engine :class:`Round` with the
    trump chosen and every bid made: the seat's own hand and the turned card stay put, the
    other cards are shuffled and dealt to the other seats.

    Bids: the view's seat bids ``play_for``, the bids the view shows stay, and every other
    seat makes the sensible bot's bid for its simulated hand. The engine checks each.
    (``unseen``: :func:`unseen_cards` of the view, when the caller has it already.)

    >>> from tutor.rules.round import Round
    >>> rnd = Round(hands=["J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10"], turned="R9",
    ...             dealer=3)
    >>> deal = sample_round(rnd.view(0), random.Random(1), play_for=0)
    >>> deal.hands[0], deal.turned, deal.phase.value, deal.bids[0]
    ([Card.parse('J'), Card.parse('R2'), Card.parse('G8')], Card.parse('R9'), 'playing', 0)
    """
    others = view.players - 1
    cards = rng.sample(unseen_cards(view) if unseen is None else unseen, others * view.cards)
    hands: list[Sequence[Card]] = []
    dealt = 0
    for other in range(view.players):
        if other == view.seat:
            hands.append(view.hand)
        else:
            hands.append(cards[dealt : dealt + view.cards])
            dealt += view.cards
    rnd = Round(hands=hands, turned=view.turned, dealer=view.dealer, rules=view.rules)
    if rnd.phase is Phase.TRUMP_CHOICE:  # a Wizard was turned: the dealer chose view.trump
        assert view.trump is not None  # chosen before bidding began
        rnd.choose_trump(view.trump, seat=view.dealer)
    while rnd.phase is Phase.BIDDING:
        seat = rnd.to_act
        assert seat is not None  # someone is to bid until bidding is over
        shown = view.bids[seat]
        if seat == view.seat:
            rnd.bid(play_for)
        elif shown is not None:
            rnd.bid(shown)
        else:
            rnd.bid(nearest_bid(hand_quarters(rnd.hands[seat], rnd.trump), rnd.legal_bids()))
    return rnd


@cache
def _strengths(trump: Suit | None) -> dict[Card, int]:
    # tutor.play.bots.card_strength for each card: the order the sensible bot ranks a hand
    return {card: card_strength(card, trump) for card in DECK}


def play_out(rnd: Round) -> tuple[int, ...]:
    """The tricks each seat takes when every seat plays like the sensible bot from here:
    ``rnd`` has its bids made and no card played yet; it is left as it was.

    Each card is chosen by :func:`tutor.play.bots.sensible_card` among the cards
    :func:`~tutor.rules.trick.legal_cards` allows, and the trick goes to the first card of
    the highest :func:`~tutor.rules.trick.card_power`, as in :meth:`Round.play`.

    >>> rnd = Round(hands=["J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10"], turned="R9",
    ...             dealer=3)
    >>> for bid in (1, 2, 0, 0):
    ...     _ = rnd.bid(bid)
    >>> play_out(rnd), rnd.tricks
    ((0, 1, 0, 2), [])
    >>> _ = rnd.play("J")
    >>> play_out(rnd)
    Traceback (most recent call last):
    ...
    tutor.errors.OutOfTurnError: play_out plays a round from its first card: 1 card is played already
    """
    if rnd.phase is not Phase.PLAYING:
        raise OutOfTurnError(
            f"play_out plays a round from its first card: the round is in the "
            f"{rnd.phase.value} phase"
        )
    if rnd.tricks or rnd.current_trick:
        played = sum(len(trick.cards) for trick in rnd.tricks) + len(rnd.current_trick)
        raise OutOfTurnError(
            f"play_out plays a round from its first card: {played} "
            f"{'card is' if played == 1 else 'cards are'} played already"
        )
    trump, players = rnd.trump, rnd.players
    strength = _strengths(trump)
    # Hands weakest first: the legal cards come out in that order, as sensible_card wants.
    hands = [sorted(hand, key=strength.__getitem__) for hand in rnd.hands]
    bids = rnd.final_bids
    taken = [0] * players
    leader = rnd.first_seat
    for _ in range(rnd.cards):
        lead, suit = Lead.NOTHING_PLAYED, None
        best, winner = -1, leader
        for position in range(players):
            seat = (leader + position) % players
            hand = hands[seat]
            legal = legal_cards(hand, followers_in(hand, suit))
            power = next_card_powers(trump, lead, suit)
            card = sensible_card(
                legal,
                [power[card] > best for card in legal] if position else [],
                wants_tricks=bids[seat] > taken[seat],
                leading=position == 0,
                last_to_play=position == players - 1,
            )
            hand.remove(card)
            if power[card] > best:
                best, winner = power[card], seat
            lead, suit = lead_after(lead, suit, card)
        taken[winner] += 1
        leader = winner
    return tuple(taken)


def advise_bid(
    view: SeatView,
    *,
    simulations: int = DEFAULT_SIMULATIONS,
    rng: random.Random | None = None,
    seed: int | str | None = None,
    play_for: int | None = None,
) -> BidAdvice:
    """The chances of each trick count for ``view``'s hand, and each bid's expected score.

    Once the seat has bid, it plays for that bid unless told otherwise; a ``play_for`` the
    rules forbid (plus/minus one) is refused by the engine. Randomness comes from ``rng``
    (a ``random.Random``) or ``seed``; the same seed gives the same advice.

    >>> from tutor.rules.round import Round
    >>> rnd = Round(hands=["W W W", "B5 R13 G3", "B11 R4 J", "B7 R12 G10"], turned="R9",
    ...             dealer=3)
    >>> advice = advise_bid(rnd.view(0), seed=1)
    >>> advice.probabilities[3], advice.best_bid, advice.expected_scores[3]
    (1.0, 3, 50.0)
    >>> _ = rnd.bid(3)
    >>> advise_bid(rnd.view(0), simulations=0)
    Traceback (most recent call last):
    ...
    tutor.errors.WizardRuleError: invalid number of simulations 0: simulate at least one deal
    """
    if view.phase is not Phase.BIDDING:
        raise OutOfTurnError(
            f"the bidding coach advises during bidding: the round is in the "
            f"{view.phase.value} phase"
        )
    if (
        view.rules.plus_minus_one
        and view.seat == view.dealer
        and view.to_act != view.seat
        and not view.has_bid[view.seat]
    ):
        raise OutOfTurnError(
            f"under plus/minus one the dealer (seat {view.seat}) bids last, and which bid is "
            "forbidden depends on the bids still to come: ask the coach when the bid is due"
        )
    count = _check_simulations(simulations)
    if rng is not None and seed is not None:
        raise WizardRuleError("give seed= or rng=, not both")
    if rng is not None and not isinstance(rng, random.Random):
        raise TypeError(
            f"the coach needs a random.Random (seeded for repeatable advice), not {rng!r}"
        )
    generator = rng if rng is not None else random.Random(seed)
    own_bid = view.bids[view.seat]
    legal = view.legal_bids or tuple(range(view.cards + 1))
    if play_for is None:
        play_for = (
            own_bid
            if own_bid is not None
            else nearest_bid(hand_quarters(view.hand, view.trump), legal)
        )
    play_for = _check_bid(play_for, view.cards)

    unseen = unseen_cards(view)
    taken = [0] * (view.cards + 1)
    for _ in range(count):
        deal = sample_round(view, generator, play_for=play_for, unseen=unseen)
        taken[play_out(deal)[view.seat]] += 1
    probabilities = tuple(times / count for times in taken)
    expected_scores = tuple(
        sum(chance * round_score(bid, tricks) for tricks, chance in enumerate(probabilities))
        for bid in range(view.cards + 1)
    )
    best_bid = max(legal, key=lambda bid: (expected_scores[bid], -bid))
    return BidAdvice(
        seat=view.seat,
        cards=view.cards,
        trump=view.trump,
        probabilities=probabilities,
        expected_scores=expected_scores,
        legal_bids=tuple(legal),
        best_bid=best_bid,
        played_for=play_for,
        simulations=count,
    )


def _check_simulations(simulations: object) -> int:
    if not is_whole_number(simulations) or simulations < 1:
        raise WizardRuleError(
            f"invalid number of simulations {simulations!r}: simulate at least one deal"
        )
    return simulations
