"""The bidding coach's estimate in NumPy batches. The coach (:mod:`tutor.play.coach`) plays
its deals one by one in plain Python, so that it runs in the browser too. The same
estimate in batches is the yardstick its figures are checked against
(``tests/play/test_coach.py``, ``benchmarks/coach_benchmark.py``): the same simulated
players, many more deals in the same time.
"""

from __future__ import annotations

import numpy as np

from tutor.errors import WizardRuleError
from tutor.play.fastsim.codes import NO_CARD, encode_cards
from tutor.play.fastsim.deals import DealBatch
from tutor.play.fastsim.playout import NO_BID, Policy, simulate
from tutor.rules.cards import DECK_SIZE
from tutor.rules.checks import is_whole_number
from tutor.rules.round import SeatView


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
    if not is_whole_number(simulations) or simulations < 1:
        raise WizardRuleError(
            f"invalid number of simulations {simulations!r}: simulate at least one deal"
        )
    own = encode_cards([*view.hand, *([] if view.turned is None else [view.turned])])
    hand_codes = sorted(own[: len(view.hand)])
    turned_code = own[-1] if view.turned is not None else NO_CARD
    unseen = np.setdiff1d(np.arange(DECK_SIZE), own).astype(np.int8)
    others = view.players - 1
    shuffled = rng.permuted(np.tile(unseen, (simulations, 1)), axis=1)[:, : others * view.cards]
    other_hands = np.sort(shuffled.reshape(simulations, others, view.cards), axis=2)
    hands = np.empty((simulations, view.players, view.cards), dtype=np.int8)
    hands[:, view.seat] = np.array(hand_codes, dtype=np.int8)
    other_seats = [seat for seat in range(view.players) if seat != view.seat]
    hands[:, other_seats] = other_hands
    return DealBatch(
        hands=hands,
        turned=np.full(simulations, turned_code, dtype=np.int8),
        dealer=np.full(simulations, view.dealer, dtype=np.int8),
    )


def trick_chances(
    view: SeatView, *, play_for: int, simulations: int, rng: np.random.Generator
) -> tuple[float, ...]:
    """The chances of 0, 1, ... ``view.cards`` tricks for ``view``'s seat playing for
    ``play_for``, as :func:`tutor.play.coach.advise_bid` estimates them (the bids the view
    shows kept, the others the sensible bot's, every seat playing like it), from
    ``simulations`` deals of :func:`sample_deals`.

    >>> from tutor.rules.round import Round
    >>> rnd = Round(hands=["W W W", "B5 R13 G3", "B11 R4 J", "B7 R12 G10"], turned="R9",
    ...             dealer=3)
    >>> trick_chances(rnd.view(0), play_for=3, simulations=100, rng=np.random.default_rng(1))
    (0.0, 0.0, 0.0, 1.0)
    """
    batch = sample_deals(view, simulations, rng)
    bids = np.full((simulations, view.players), NO_BID, dtype=np.int64)
    for seat, shown in enumerate(view.bids):
        if shown is not None:
            bids[:, seat] = shown
    bids[:, view.seat] = play_for
    playout = simulate(
        batch, policies=Policy.SENSIBLE, rules=view.rules, bids=bids, dealer_choice=view.trump
    )
    taken = np.bincount(playout.taken[:, view.seat].astype(np.int64), minlength=view.cards + 1)
    return tuple(float(times) / simulations for times in taken)
