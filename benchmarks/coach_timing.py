"""Time per advice of the bidding coach (:func:`tutor.play.coach.advise_bid`) at its default
number of deals, for small rounds and for the rounds that deal 60 cards.

Plain Python and the tutor's rules and play modules only, so the same file runs in
CPython and in Pyodide (``benchmarks/coach_pyodide.mjs`` runs it in both). Each figure is
the median wall time of ``--runs`` advices, each on a different seeded position.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor.play.coach import DEFAULT_SIMULATIONS, advise_bid
from tutor.rules.cards import Suit
from tutor.rules.round import Phase, Round

SIZES = ((4, 3), (4, 10), (3, 20), (4, 15), (5, 12), (6, 10))


def position(players: int, cards: int, seed: int) -> Round:
    """A seeded round at its first bid."""
    rnd = Round(players=players, cards=cards, dealer=0, seed=seed)
    if rnd.phase is Phase.TRUMP_CHOICE:
        rnd.choose_trump(Suit.RED)
    return rnd


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="advices per round size")
    parser.add_argument("--simulations", type=int, default=DEFAULT_SIMULATIONS)
    args = parser.parse_args()
    print(f"{sys.implementation.name} {sys.version.split()[0]}: {args.simulations} deals an advice")
    for players, cards in SIZES:
        times = []
        for run in range(args.runs):
            rnd = position(players, cards, seed=run)
            start = time.perf_counter()
            advise_bid(rnd.view(rnd.to_act), simulations=args.simulations, seed=run)
            times.append(time.perf_counter() - start)
        print(
            f"{players} players x {cards:2} cards: {statistics.median(times) * 1000:7.1f} ms "
            f"an advice (max {max(times) * 1000:.0f})"
        )


if __name__ == "__main__":
    main()
