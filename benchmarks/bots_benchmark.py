"""How well the bots play: bid make rate and mean points, sensible against random.

Tables of 4 seats where two SensibleBots and two RandomBots alternate (seats swap every
round), through the reference engine (tutor.play.bots.play_round on tutor.rules.round.Round):
rounds of 1 to 15 cards, any dealer, all seeded. Then the same comparison on many more
rounds through the fast path (tutor.play.fastsim, whose policies make the bots' exact
choices), and the all-sensible and all-random tables for reference.

Run: ``.venv/bin/python benchmarks/bots_benchmark.py [--rounds 3000] [--seed 2024]``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import numpy as np
from process_guard import sigterm_as_exit

from tutor.play.bots import Bot, RandomBot, SensibleBot, play_round
from tutor.play.fastsim import Policy, deal_batch, simulate
from tutor.rules.round import Round

PLAYERS = 4
MAX_CARDS = 15


class Tally:
    """Bids made and points, per seat-round, for one kind of bot."""

    def __init__(self) -> None:
        self.seat_rounds = 0
        self.made = 0
        self.points: list[int] = []

    def add(self, *, made: bool, points: int) -> None:
        self.seat_rounds += 1
        self.made += made
        self.points.append(points)

    def line(self, name: str) -> str:
        rate = self.made / self.seat_rounds
        rate_error = math.sqrt(rate * (1 - rate) / self.seat_rounds)
        mean = sum(self.points) / self.seat_rounds
        spread = math.sqrt(sum((p - mean) ** 2 for p in self.points) / (self.seat_rounds - 1))
        return (
            f"  {name:<9} makes its bid {rate:6.1%} (± {rate_error:.1%}), "
            f"mean {mean:+6.1f} points a round (± {spread / math.sqrt(self.seat_rounds):.2f})"
            f"  [{self.seat_rounds} seat-rounds]"
        )


def engine_tables(rounds: int, seed: int) -> dict[str, Tally]:
    rng = random.Random(seed)
    tallies = {"sensible": Tally(), "random": Tally()}
    for number in range(rounds):
        rnd = Round(
            players=PLAYERS,
            cards=rng.randint(1, MAX_CARDS),
            dealer=rng.randrange(PLAYERS),
            rng=random.Random(rng.random()),
        )
        kinds = ["sensible", "random"] * 2 if number % 2 else ["random", "sensible"] * 2
        bots: list[Bot] = [
            SensibleBot() if kind == "sensible" else RandomBot(random.Random(rng.random()))
            for kind in kinds
        ]
        scores = play_round(rnd, bots)
        for seat, kind in enumerate(kinds):
            tallies[kind].add(made=rnd.final_bids[seat] == rnd.taken[seat], points=scores[seat])
    return tallies


def fast_tables(rounds_per_size: int, seed: int, policies: list[Policy]) -> dict[str, Tally]:
    rng = np.random.default_rng(seed)
    tallies = {policy.value: Tally() for policy in policies}
    for cards in range(1, MAX_CARDS + 1):
        for shift in (0, 1):  # swap seats, as at the engine tables
            seat_policies = [policies[(seat + shift) % len(policies)] for seat in range(PLAYERS)]
            batch = deal_batch(
                rounds_per_size,
                players=PLAYERS,
                cards=cards,
                rng=rng,
                dealer=int(rng.integers(PLAYERS)),
            )
            playout = simulate(batch, policies=seat_policies, rng=rng)
            for seat, policy in enumerate(seat_policies):
                tally = tallies[policy.value]
                made = playout.bids[:, seat] == playout.taken[:, seat]
                tally.seat_rounds += batch.size
                tally.made += int(made.sum())
                tally.points.extend(playout.scores[:, seat].tolist())
    return tallies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rounds",
        type=int,
        default=3000,
        help="rounds through the reference engine (default 3000)",
    )
    parser.add_argument(
        "--fast-rounds",
        type=int,
        default=4000,
        help="fast-path rounds per hand size and seat order (default 4000)",
    )
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()

    start = time.perf_counter()
    tallies = engine_tables(args.rounds, args.seed)
    print(
        f"Reference engine, {args.rounds} rounds, 2 sensible + 2 random bots per table "
        f"({time.perf_counter() - start:.1f} s):"
    )
    for name, tally in tallies.items():
        print(tally.line(name))

    fast_rounds = args.fast_rounds * MAX_CARDS * 2
    print(f"Fast path, {fast_rounds} rounds, same tables:")
    mixed = fast_tables(args.fast_rounds, args.seed, [Policy.SENSIBLE, Policy.RANDOM])
    for name, tally in mixed.items():
        print(tally.line(name))
    print(f"Fast path, {fast_rounds} rounds, tables of one kind:")
    for policy in Policy:
        alone = fast_tables(args.fast_rounds, args.seed, [policy])
        print(alone[policy.value].line(policy.value))


if __name__ == "__main__":
    sigterm_as_exit()
    main()
