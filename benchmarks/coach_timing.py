"""Time per advice of the bidding coach (:func:`tutor.play.coach.advise_bid`) at its default
number of deals, for small rounds and for the rounds that deal 60 cards.

Plain Python and the tutor's rules and play modules only, so the same file runs in
CPython and in Pyodide (``benchmarks/coach_pyodide.mjs`` runs it in both). Each figure is
the median of ``--runs`` advices, each on a different seeded position: wall time (what a
learner waits, stretched by whatever else the machine runs) and CPU time of this process
(what it would wait on an idle machine; Pyodide has no such clock, so
``coach_pyodide.mjs`` measures Node's CPU time around the same calls instead).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from process_guard import sigterm_as_exit

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


def advise(players: int, cards: int, seed: int, simulations: int = DEFAULT_SIMULATIONS) -> None:
    """One advice on the seeded position ``seed`` of that size."""
    rnd = position(players, cards, seed=seed)
    seat = rnd.to_act
    assert seat is not None
    advise_bid(rnd.view(seat), simulations=simulations, seed=seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="advices per round size")
    parser.add_argument("--simulations", type=int, default=DEFAULT_SIMULATIONS)
    args = parser.parse_args()
    print(f"{sys.implementation.name} {sys.version.split()[0]}: {args.simulations} deals an advice")
    for players, cards in SIZES:
        times, cpu = [], []
        for run in range(args.runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            advise(players, cards, run, args.simulations)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        # Pyodide's process_time is no CPU clock (it stands still): coach_pyodide.mjs
        # reads Node's instead
        used = (
            "" if sys.platform == "emscripten" else f"; CPU {statistics.median(cpu) * 1000:.1f} ms"
        )
        print(
            f"{players} players x {cards:2} cards: {statistics.median(times) * 1000:7.1f} ms "
            f"an advice (max {max(times) * 1000:.0f}){used}"
        )


if __name__ == "__main__":
    sigterm_as_exit()
    main()
