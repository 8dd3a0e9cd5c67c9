"""Speed of whole-round playouts: the reference engine beside a plain playout and OpenSpiel.

Random legal playouts of a 4-player, 12-card round (deal, trump reveal, bids, 48 cards,
scores), all measured in the same run, in CPU seconds of this process
(``time.process_time``: other work on a shared machine slows the wall clock, much less
the CPU time):

- ``plain``: :func:`plain_playout` below, about 60 lines of pure Python (cards as tuples,
  a legal filter, the trick winner, the score): what a playout costs with no checks,
  no events and no explanations. The yardstick: every other figure is a ratio to it.
- ``tutor.Round``: the reference engine (:class:`tutor.rules.round.Round`) with random
  legal actions from ``legal_bids()`` / ``legal_plays()``: every action checked, judged
  and recorded as a frozen event. Driven the plainest way, phase by phase as the round
  goes (the trump choice if due, the bids, then the cards until it is finished), and
  also by one loop that asks the phase before each action: on Python 3.11 each
  ``Phase.X`` costs a slow class attribute lookup (``EnumType`` has a ``__getattr__``),
  about a tenth of a playout.
- ``tutor.Round + RandomBot``: the same through :func:`tutor.play.bots.play_round`, which
  builds a :class:`~tutor.rules.round.SeatView` for every action.
- OpenSpiel's ``oh_hell`` (4 players, 12 fixed tricks) if ``pyspiel`` is installed
  (``pip install -e '.[bench]'``): the nearest standard trick-taking game with bids,
  driven the plainest way, ``apply_action(rng.choice(state.legal_actions()))`` at every
  node (the script first checks that every chance node of the game is uniform, so that
  is a fair deal).
- the fast path (:mod:`tutor.play.fastsim`, NumPy batches of 20,000 deals), random and
  sensible policies.

Then the bidding coach's time for one advice (its default number of deals, plain Python)
on a 10-card 4-player round; ``coach_benchmark.py`` measures its quality and the other
round sizes.
The contenders take turns, run after run, so a change of load hits them alike; each
figure is the median of the runs. Run: ``.venv/bin/python benchmarks/sim_benchmark.py``.
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
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import numpy as np
from process_guard import sigterm_as_exit

from tutor.play.bots import RandomBot, play_round
from tutor.play.coach import DEFAULT_SIMULATIONS, advise_bid
from tutor.play.fastsim import Policy, deal_batch, simulate
from tutor.rules.round import Phase, Round
from tutor.rules.variants import Rules

PLAYERS = 4
CARDS = 12
COACH_CARDS = 10
COACH_SIMULATIONS = DEFAULT_SIMULATIONS

# -- the plain playout: the yardstick -------------------------------------------------
# A card is (suit, rank): suits 0-3 with ranks 1-13, WIZARD and JESTER as their own
# "suits". No checks, no events, no explanations: the least a playout can do.
WIZARD, JESTER = 4, 5
PLAIN_DECK = tuple(
    [(suit, rank) for suit in range(4) for rank in range(1, 14)]
    + [(WIZARD, 0)] * 4
    + [(JESTER, 0)] * 4
)


def plain_playout(rng: random.Random, players: int, cards: int, dealer: int) -> list[int]:
    """One random legal round in plain Python; each seat's points."""
    deck = list(PLAIN_DECK)
    rng.shuffle(deck)
    hands = [deck[seat * cards : (seat + 1) * cards] for seat in range(players)]
    turned = deck[players * cards] if players * cards < len(deck) else None
    if turned is None or turned[0] == JESTER:
        trump = None
    elif turned[0] == WIZARD:
        trump = rng.randrange(4)  # the dealer chooses
    else:
        trump = turned[0]
    bids = [rng.randint(0, cards) for _ in range(players)]
    taken = [0] * players
    leader = (dealer + 1) % players
    for _ in range(cards):
        led = None  # the suit to follow; WIZARD once a Wizard came first
        best, winner = -1, leader
        for position in range(players):
            seat = (leader + position) % players
            hand = hands[seat]
            legal = hand
            if led is not None and led != WIZARD:
                following = [card for card in hand if card[0] == led or card[0] >= WIZARD]
                if any(card[0] == led for card in following):
                    legal = following
            card = rng.choice(legal)
            hand.remove(card)
            suit, rank = card
            if led is None and suit != JESTER:
                led = suit
            if suit == WIZARD:  # strictly greater below: a later Wizard never beats it
                power = 100
            elif suit == JESTER:
                power = 0
            elif suit == trump:
                power = 40 + rank
            elif suit == led:
                power = 20 + rank
            else:
                power = 0
            if power > best:
                best, winner = power, seat
        taken[winner] += 1
        leader = winner
    return [
        20 + 10 * got if bid == got else -10 * abs(bid - got)
        for bid, got in zip(bids, taken, strict=True)
    ]


# -- the contenders ----------------------------------------------------------------------


def plain(rounds: int, seed: int) -> Callable[[], int]:
    rng = random.Random(seed)

    def run() -> int:
        for number in range(rounds):
            plain_playout(rng, PLAYERS, CARDS, number % PLAYERS)
        return rounds

    return run


def engine_actions(rounds: int, seed: int) -> Callable[[], int]:
    rng = random.Random(seed)

    def run() -> int:
        for number in range(rounds):
            rnd = Round(players=PLAYERS, cards=CARDS, dealer=number % PLAYERS, rng=rng)
            if rnd.phase is Phase.TRUMP_CHOICE:
                rnd.choose_trump(rng.choice("YRGB"))
            while rnd.phase is Phase.BIDDING:
                rnd.bid(rng.choice(rnd.legal_bids()))
            while not rnd.finished:
                rnd.play(rng.choice(rnd.legal_plays()))
            rnd.scores()
        return rounds

    return run


def engine_actions_one_loop(rounds: int, seed: int) -> Callable[[], int]:
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


def openspiel(rounds: int, seed: int) -> tuple[str, Callable[[], int]] | None:
    """The plainest driver of OpenSpiel's oh_hell, or ``None`` without pyspiel."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": CARDS})
    rng = random.Random(seed)
    check_uniform_chance(game, rng)

    def run() -> int:
        for _ in range(rounds):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            state.returns()
        return rounds

    return f"OpenSpiel {pyspiel.__version__} oh_hell", run


def check_uniform_chance(game: object, rng: random.Random, playouts: int = 20) -> None:
    """Choosing uniformly among ``legal_actions()`` at a chance node samples it exactly
    when its outcomes are equally likely: check that on a few playouts."""
    for _ in range(playouts):
        state = game.new_initial_state()  # type: ignore[attr-defined]
        while not state.is_terminal():
            if state.is_chance_node():
                chances = {round(p, 12) for _, p in state.chance_outcomes()}
                if len(chances) != 1:
                    raise SystemExit("oh_hell has a chance node that is not uniform")
            state.apply_action(rng.choice(state.legal_actions()))


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


def cpu_rates(contenders: dict[str, Callable[[], int]], repeats: int) -> dict[str, float]:
    """Rounds per CPU second of each contender: the median over ``repeats`` runs, the
    contenders taking turns within each repeat."""
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, run in contenders.items():
            start = time.process_time()
            rounds = run()
            rates[name].append(rounds / (time.process_time() - start))
    return {name: statistics.median(values) for name, values in rates.items()}


def coach_times(runs: int, seed: int) -> list[float]:
    rnd = Round(players=PLAYERS, cards=COACH_CARDS, dealer=0, seed=seed, rules=Rules())
    if rnd.phase is Phase.TRUMP_CHOICE:
        rnd.choose_trump("R")
    view = rnd.view(rnd.first_seat)
    advise_bid(view, simulations=COACH_SIMULATIONS, seed=seed)  # warm-up
    times = []
    for run in range(runs):
        start = time.process_time()
        advise_bid(view, simulations=COACH_SIMULATIONS, seed=seed + run)
        times.append(time.process_time() - start)
    return times


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} CPUs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rounds", type=int, default=1000, help="rounds per pure-Python run (default 1000)"
    )
    parser.add_argument(
        "--fast-rounds", type=int, default=20_000, help="rounds per fast-path run (default 20000)"
    )
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    print(f"Python {platform.python_version()}, NumPy {np.__version__}; at start: {load()}")
    print(
        f"Random legal playouts, {PLAYERS} players, {CARDS} cards (deal, reveal, bids, "
        f"{PLAYERS * CARDS} plays, scores); rounds per CPU second, median of {args.repeats} runs"
    )
    contenders = {
        "plain Python playout (the yardstick)": plain(args.rounds, args.seed),
        "tutor.Round, random legal actions": engine_actions(args.rounds, args.seed),
        "tutor.Round, the same asking the phase each action": engine_actions_one_loop(
            args.rounds, args.seed
        ),
        "tutor.Round + RandomBot via play_round": engine_bots(args.rounds, args.seed),
    }
    spiel = openspiel(args.rounds, args.seed)
    if spiel is not None:
        name, run = spiel
        contenders[f"{name}, plainest driver"] = run
    rates = cpu_rates(contenders, args.repeats)
    yardstick = rates["plain Python playout (the yardstick)"]
    width = max(len(name) for name in rates)
    for name, rate in rates.items():
        print(f"  {name:<{width}}  {rate:>9,.0f} rounds/s  {rate / yardstick:6.3f}x plain")
    if spiel is None:
        print("  OpenSpiel: pyspiel is not installed (pip install -e '.[bench]'): not compared")

    fast = cpu_rates(
        {
            "fast path (NumPy batches), random policy": fast_path(
                args.fast_rounds, args.seed, Policy.RANDOM
            ),
            "fast path (NumPy batches), sensible policy": fast_path(
                args.fast_rounds, args.seed, Policy.SENSIBLE
            ),
        },
        args.repeats,
    )
    for name, rate in fast.items():
        print(f"  {name:<{width}}  {rate:>9,.0f} rounds/s  {rate / yardstick:6.1f}x plain")

    times = coach_times(max(args.repeats, 7), args.seed)
    print(
        f"Bidding coach, {COACH_SIMULATIONS} deals of a {COACH_CARDS}-card "
        f"{PLAYERS}-player round: median {statistics.median(times) * 1000:.0f} ms CPU "
        f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f})"
    )
    print(f"At end: {load()}")


if __name__ == "__main__":
    sigterm_as_exit()
    main()
