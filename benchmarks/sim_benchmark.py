"""Speed of whole-round playouts: the fast path, the reference engine and OpenSpiel.

Random legal playouts of a 4-player, 12-card round (deal, trump reveal, bids, 48 cards,
scores), measured in the same run for:

- the fast path (tutor.play.fastsim: deal_batch + simulate, NumPy batches);
- the reference engine (tutor.rules.round.Round, pure Python), driven two ways: random legal
  actions straight from Round.legal_bids/legal_plays, and RandomBot through
  tutor.play.bots.play_round (a SeatView for every action);
- OpenSpiel's ``oh_hell`` (4 players, 12 fixed tricks), if ``pyspiel`` is installed
  (``pip install open-spiel``): the nearest standard trick-taking game with bids, played
  with random legal actions and chance outcomes sampled by their probabilities.

Then the bidding coach's time for 2,000 simulated deals of a 10-card 4-player round.
Each figure is the median of several runs (the machine may be shared: medians are
steadier than means). Run: ``.venv/bin/python benchmarks/sim_benchmark.py``.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from tutor.play.bots import RandomBot, play_round
from tutor.play.coach import advise_bid
from tutor.play.fastsim import Policy, deal_batch, simulate
from tutor.rules.round import Phase, Round
from tutor.rules.variants import Rules

PLAYERS = 4
CARDS = 12
COACH_CARDS = 10
COACH_SIMULATIONS = 2000


def median_rate(run: Callable[[], int], repeats: int) -> float:
    """Rounds per second: the median over ``repeats`` runs of ``run`` (which returns the
    number of rounds it played)."""
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        rounds = run()
        rates.append(rounds / (time.perf_counter() - start))
    return statistics.median(rates)


def fast_path(rounds: int, seed: int, policy: Policy) -> Callable[[], int]:
    rng = np.random.default_rng(seed)

    def run() -> int:
        batch = deal_batch(
            rounds, players=PLAYERS, cards=CARDS, rng=rng, dealer=int(rng.integers(PLAYERS))
        )
        playout = simulate(batch, policies=policy, rng=rng)
        assert int(playout.taken.sum()) == rounds * CARDS
        return rounds

    return run


def engine_actions(rounds: int, seed: int) -> Callable[[], int]:
    rng = random.Random(seed)

    def run() -> int:
        for number in range(rounds):
            rnd = Round(players=PLAYERS, cards=CARDS, dealer=number % PLAYERS, rng=rng)
            while not rnd.finished:
                if rnd.phase is Phase.TRUMP_CHOICE:
                    rnd.choose_trump(rng.choice("YRGB"))
                elif rnd.phase is Phase.BIDDING:
                    rnd.bid(rng.choice(rnd.legal_bids()))
                else:
                    rnd.play(rng.choice(rnd.legal_plays()))
            rnd.scores()
        return rounds

    return run


def engine_bots(rounds: int, seed: int) -> Callable[[], int]:
    rng = random.Random(seed)
    bots = [RandomBot(random.Random(seed + seat)) for seat in range(PLAYERS)]

    def run() -> int:
        for number in range(rounds):
            rnd = Round(players=PLAYERS, cards=CARDS, dealer=number % PLAYERS, rng=rng)
            play_round(rnd, bots)
        return rounds

    return run


def openspiel(rounds: int, seed: int) -> Callable[[], int] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": CARDS})
    rng = random.Random(seed)

    def run() -> int:
        for _ in range(rounds):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, chances = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(actions, chances)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            state.returns()
        return rounds

    return run


def coach_times(runs: int, seed: int) -> list[float]:
    rnd = Round(players=PLAYERS, cards=COACH_CARDS, dealer=0, seed=seed, rules=Rules())
    if rnd.phase is Phase.TRUMP_CHOICE:
        rnd.choose_trump("R")
    view = rnd.view(rnd.first_seat)
    advise_bid(view, simulations=COACH_SIMULATIONS, seed=seed)  # warm-up
    times = []
    for run in range(runs):
        start = time.perf_counter()
        advise_bid(view, simulations=COACH_SIMULATIONS, seed=seed + run)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--fast-rounds", type=int, default=20_000, help="rounds per fast-path run (default 20000)"
    )
    parser.add_argument(
        "--engine-rounds",
        type=int,
        default=200,
        help="rounds per reference-engine run (default 200)",
    )
    parser.add_argument(
        "--openspiel-rounds", type=int, default=1000, help="rounds per OpenSpiel run (default 1000)"
    )
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    print(
        f"Python {platform.python_version()}, NumPy {np.__version__}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}"
    )
    print(
        f"Random legal playouts, {PLAYERS} players, {CARDS} cards "
        f"(deal, reveal, bids, {PLAYERS * CARDS} plays, scores); median of {args.repeats} runs"
    )
    fast = median_rate(fast_path(args.fast_rounds, args.seed, Policy.RANDOM), args.repeats)
    sensible = median_rate(fast_path(args.fast_rounds, args.seed, Policy.SENSIBLE), args.repeats)
    actions = median_rate(engine_actions(args.engine_rounds, args.seed), args.repeats)
    bots = median_rate(engine_bots(args.engine_rounds, args.seed), args.repeats)
    rows = [
        ("fast path (tutor.play.fastsim), random policy", fast),
        ("fast path (tutor.play.fastsim), sensible policy", sensible),
        ("reference Round, random legal actions", actions),
        ("reference Round + RandomBot via play_round", bots),
    ]
    spiel_run = openspiel(args.openspiel_rounds, args.seed)
    spiel = median_rate(spiel_run, args.repeats) if spiel_run is not None else None
    if spiel is not None:
        import pyspiel

        rows.append((f"OpenSpiel {pyspiel.__version__} oh_hell, random legal", spiel))
    width = max(len(name) for name, _ in rows)
    for name, rate in rows:
        print(f"  {name:<{width}}  {rate:>10,.0f} rounds/s")
    print(f"  fast path / reference Round (random legal actions): {fast / actions:,.0f}x")
    if spiel is None:
        print(
            "  OpenSpiel: pyspiel is not installed (pip install open-spiel); "
            "fast path figure shown alone"
        )
    else:
        print(
            f"  fast path / OpenSpiel oh_hell: {fast / spiel:,.1f}x (target: at least 1x, aim 10x)"
        )

    times = coach_times(max(args.repeats, 7), args.seed)
    print(
        f"Bidding coach, {COACH_SIMULATIONS} deals of a {COACH_CARDS}-card "
        f"{PLAYERS}-player round: median {statistics.median(times) * 1000:.0f} ms "
        f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}; target 250 ms)"
    )


if __name__ == "__main__":
    main()
