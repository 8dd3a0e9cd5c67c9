"""The bidding coach: how many tricks might this hand take, and what each bid is worth.

From the learner's seat view during bidding (:meth:`tutor.rules.round.Round.view`), the coach
deals the cards the learner cannot see (every card but their hand and the turned card) at
random to the other seats, many times, and plays each deal out with the sensible bot
(:class:`tutor.play.bots.SensibleBot`) at every seat, through the fast path
(:mod:`tutor.play.fastsim`). The tricks the learner's seat takes give the chances P(0),
P(1), ...; each bid's expected score follows from :func:`tutor.rules.scoring.round_score`.

What the simulated players know and do:

- bids the view shows are kept; a bid it does not show (not made yet, or hidden by the
  variant) is the sensible bot's bid for that seat's simulated hand;
- the learner's seat plays to make ``play_for``: their bid if already made, else the
  sensible bot's bid for their hand (another value can be asked for). The chances are
  those of that way of playing: a learner who bids 0 and ducks, or bids high and grabs,
  can steer the count somewhat, which is why :attr:`BidAdvice.played_for` is reported.

The advice is data (:class:`BidAdvice`); the words come from the message catalogs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from tutor.errors import IllegalBidError, OutOfTurnError, WizardRuleError
from tutor.play.bots import hand_quarters, nearest_bid
from tutor.play.fastsim import NO_BID, NO_CARD, DealBatch, Policy, encode_cards, simulate
from tutor.rules.cards import DECK_SIZE, Suit
from tutor.rules.checks import is_whole_number
from tutor.rules.round import Phase, SeatView
from tutor.rules.scoring import round_score

DEFAULT_SIMULATIONS = 2000


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


def sample_deals(view: SeatView, simulations: int, rng: np.random.Generator) -> DealBatch:
    """``simulations`` deals that agree with what ``view`` shows: the seat's own hand and
    the turned card stay put; every other card is shuffled and dealt to the other seats.

    >>> from tutor.rules.round import Round
    >>> rnd = Round(hands=["J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10"], turned="R9",
    ...             dealer=3)
    >>> batch = sample_deals(rnd.view(0), 500, np.random.default_rng(1))
    >>> batch.round(7).hands[0], batch.round(7).turned
    ([Card.parse('R2'), Card.parse('G8'), Card.parse('J')], Card.parse('R9'))
    """
    count = _check_simulations(simulations)
    own = encode_cards([*view.hand, *([] if view.turned is None else [view.turned])])
    hand_codes = sorted(own[: len(view.hand)])
    turned_code = own[-1] if view.turned is not None else NO_CARD
    unseen = np.setdiff1d(np.arange(DECK_SIZE), own).astype(np.int8)
    others = view.players - 1
    shuffled = rng.permuted(np.tile(unseen, (count, 1)), axis=1)[:, : others * view.cards]
    other_hands = np.sort(shuffled.reshape(count, others, view.cards), axis=2)
    hands = np.empty((count, view.players, view.cards), dtype=np.int8)
    hands[:, view.seat] = np.array(hand_codes, dtype=np.int8)
    other_seats = [seat for seat in range(view.players) if seat != view.seat]
    hands[:, other_seats] = other_hands
    return DealBatch(
        hands=hands,
        turned=np.full(count, turned_code, dtype=np.int8),
        dealer=np.full(count, view.dealer, dtype=np.int8),
    )


def advise_bid(
    view: SeatView,
    *,
    simulations: int = DEFAULT_SIMULATIONS,
    rng: np.random.Generator | None = None,
    seed: int | None = None,
    play_for: int | None = None,
) -> BidAdvice:
    """The chances of each trick count for ``view``'s hand, and each bid's expected score.

    Randomness comes from ``rng`` (a ``numpy.random.Generator``) or ``seed``; the same
    seed gives the same advice.

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
    count = _check_simulations(simulations)
    if rng is not None and seed is not None:
        raise WizardRuleError("give seed= or rng=, not both")
    generator = rng if rng is not None else np.random.default_rng(seed)
    own_bid = view.bids[view.seat]
    if play_for is None:
        play_for = (
            own_bid
            if own_bid is not None
            else nearest_bid(
                hand_quarters(view.hand, view.trump),
                view.legal_bids or range(view.cards + 1),
            )
        )
    play_for = _check_bid(play_for, view.cards)

    batch = sample_deals(view, count, generator)
    bids: NDArray[np.int64] = np.full((count, view.players), NO_BID, dtype=np.int64)
    for seat, shown in enumerate(view.bids):
        if shown is not None:
            bids[:, seat] = shown
    bids[:, view.seat] = play_for
    playout = simulate(
        batch,
        policies=Policy.SENSIBLE,
        rules=view.rules,
        bids=bids,
        dealer_choice=view.trump,
    )
    taken = np.bincount(playout.taken[:, view.seat].astype(np.int64), minlength=view.cards + 1)
    probabilities = tuple(float(times) / count for times in taken)
    expected_scores = tuple(
        sum(chance * round_score(bid, tricks) for tricks, chance in enumerate(probabilities))
        for bid in range(view.cards + 1)
    )
    legal = view.legal_bids or tuple(range(view.cards + 1))
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
