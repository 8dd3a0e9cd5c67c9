"""How good is the bidding coach's advice, and how long does it take?

The coach (:func:`tutor.play.coach.advise_bid`) plays its deals one by one in plain Python
(so that it runs in the browser too), :data:`~tutor.play.coach.DEFAULT_SIMULATIONS` of them.
Its yardstick is the same estimate from NumPy batches (:func:`tutor.play.fastsim.trick_chances`,
the same simulated players): with 20,000 deals, the "reference"; with 2,000, what the coach
used to compute when it ran on NumPy ("NumPy coach").

On ``--positions`` seeded positions (3-6 players, every round size, standard and
plus/minus one, the learner's bid due after 0 or more bots' bids), it prints:

- best bid: how often the coach's best bid is the reference's, and the same for the NumPy
  coach; where they differ, the points lost on average (the reference's expected score of
  its best bid minus that of the coach's: the "regret");
- the chances: the share of estimates within two standard errors of the reference (about
  95% if the coach is unbiased) and the largest difference seen;
- time per advice, in CPU seconds of this process, for the coach and the NumPy coach, and
  the load average (the machine is shared).

Run: ``.venv/bin/python benchmarks/coach_benchmark.py`` (``--help`` for the options).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import numpy as np
from process_guard import sigterm_as_exit

from tutor.play.bots import SensibleBot
from tutor.play.coach import DEFAULT_SIMULATIONS, advise_bid
from tutor.play.fastsim import trick_chances
from tutor.rules.round import Phase, Round, SeatView
from tutor.rules.scoring import round_score
from tutor.rules.variants import Rules

REFERENCE_DEALS = 20_000
NUMPY_COACH_DEALS = 2_000


def positions(count: int, seed: int) -> list[SeatView]:
    """Seeded views of the seat whose bid is due, in rounds of every size."""
    rng = random.Random(seed)
    bot = SensibleBot()
    views = []
    while len(views) < count:
        players = rng.randint(3, 6)
        cards = rng.randint(1, 60 // players)
        rules = Rules(plus_minus_one=rng.random() < 0.5)
        rnd = Round(
            players=players, cards=cards, dealer=rng.randrange(players), rules=rules, rng=rng
        )
        if rnd.phase is Phase.TRUMP_CHOICE:
            rnd.choose_trump(bot.choose_trump(rnd.view(rnd.dealer)), seat=rnd.dealer)
        for _ in range(rng.randrange(players)):
            seat = rnd.to_act
            assert seat is not None
            rnd.bid(bot.bid(rnd.view(seat)))
        seat = rnd.to_act
        assert seat is not None
        views.append(rnd.view(seat))
    return views


def expected_scores(chances: Sequence[float]) -> list[float]:
    return [
        sum(chance * round_score(bid, tricks) for tricks, chance in enumerate(chances))
        for bid in range(len(chances))
    ]


def best_bid(chances: Sequence[float], legal: Sequence[int]) -> int:
    scores = expected_scores(chances)
    return max(legal, key=lambda bid: (scores[bid], -bid))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--simulations", type=int, default=DEFAULT_SIMULATIONS)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
        f"({os.cpu_count()} cores)"
    )
    views = positions(args.positions, args.seed)
    agree = {"coach": 0, "numpy": 0}
    regret: dict[str, list[float]] = {"coach": [], "numpy": []}
    within, estimates, largest = 0, 0, 0.0
    coach_times, numpy_times = [], []
    np_rng = np.random.default_rng(args.seed)
    for index, view in enumerate(views):
        start = time.process_time()
        advice = advise_bid(view, simulations=args.simulations, seed=index)
        coach_times.append(time.process_time() - start)
        play_for = advice.played_for
        start = time.process_time()
        numpy_chances = trick_chances(
            view, play_for=play_for, simulations=NUMPY_COACH_DEALS, rng=np_rng
        )
        numpy_times.append(time.process_time() - start)
        reference = trick_chances(view, play_for=play_for, simulations=REFERENCE_DEALS, rng=np_rng)
        legal = advice.legal_bids
        truth = expected_scores(reference)
        best = best_bid(reference, legal)
        for name, chances in (("coach", advice.probabilities), ("numpy", numpy_chances)):
            chosen = best_bid(chances, legal)
            agree[name] += chosen == best
            regret[name].append(truth[best] - truth[chosen])
        for estimate, true in zip(advice.probabilities, reference, strict=True):
            variance = true * (1 - true) * (1 / args.simulations + 1 / REFERENCE_DEALS)
            error = abs(estimate - true)
            largest = max(largest, error)
            estimates += 1
            within += error <= 2 * variance**0.5 + 1e-12
    count = len(views)
    print(
        f"{count} positions; the coach plays {args.simulations} deals an advice, the NumPy "
        f"coach {NUMPY_COACH_DEALS}, the reference {REFERENCE_DEALS}"
    )
    for name, label in (
        ("coach", f"coach ({args.simulations} deals)"),
        ("numpy", f"NumPy coach ({NUMPY_COACH_DEALS} deals)"),
    ):
        lost = regret[name]
        print(
            f"  {label:24}: best bid = reference's in {agree[name] / count:6.1%}; points lost "
            f"a bid: mean {statistics.fmean(lost):.2f}, max {max(lost):.1f}"
        )
    print(
        f"  chances within 2 standard errors of the reference: {within / estimates:.1%} "
        f"of {estimates} (about 95% expected); largest difference {largest:.3f}"
    )
    coach_ms = statistics.median(coach_times) * 1000
    numpy_ms = statistics.median(numpy_times) * 1000
    print(
        f"  CPU time an advice (median): coach {coach_ms:.1f} ms, NumPy coach {numpy_ms:.1f} ms "
        f"(ratio {coach_ms / numpy_ms:.2f}); coach max {max(coach_times) * 1000:.0f} ms"
    )
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    sigterm_as_exit()
    main()
