"""RULES.md "Players, rounds, dealing" and "Scoring" over a whole Game, and a golden
transcript of one seeded game.

The golden file is compared by default; a mismatch fails. After an intended change of
the engine, regenerate it and review the diff before committing:

    TUTOR_REGENERATE_GOLDEN=1 .venv/bin/python -m pytest tests/rules/test_game.py -k golden
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from tutor.errors import OutOfTurnError
from tutor.rules.cards import Suit, format_cards
from tutor.rules.game import Game
from tutor.rules.round import Dealt, Phase, Round
from tutor.rules.scoring import round_score
from tutor.rules.variants import Rules

FinishRound = Callable[[Round, random.Random], Round]
GOLDEN = Path(__file__).parent / "golden" / "game_4p_seed2024_five_rounds.txt"
REGENERATE = "TUTOR_REGENERATE_GOLDEN"


def play_game(game: Game, finish_round: FinishRound, rng: random.Random) -> Game:
    while True:
        finish_round(game.round, rng)
        if game.finished:
            return game
        game.next_round()


@pytest.mark.parametrize(("players", "rounds"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_a_game_has_60_over_players_rounds(players: int, rounds: int) -> None:
    game = Game(players=players, seed=1)
    assert game.schedule == list(range(1, rounds + 1))
    assert game.schedule[-1] * players == 60


def test_round_r_deals_r_cards(finish_round: FinishRound) -> None:
    game = play_game(Game(players=5, seed=3), finish_round, random.Random(3))
    assert [rnd.cards for rnd in game.rounds] == list(range(1, 13))
    assert game.rounds[-1].turned is None  # the last round deals every card


@pytest.mark.parametrize("first_dealer", [0, 2])
def test_dealer_rotates_clockwise_each_round(first_dealer: int, finish_round: FinishRound) -> None:
    game = Game(players=4, rules=Rules.preset("five-rounds"), seed=4, first_dealer=first_dealer)
    play_game(game, finish_round, random.Random(4))
    dealers = [rnd.dealer for rnd in game.rounds]
    assert dealers == [(first_dealer + n) % 4 for n in range(5)]
    assert [rnd.first_seat for rnd in game.rounds] == [(d + 1) % 4 for d in dealers]


def test_next_round_only_after_the_current_one_is_finished(finish_round: FinishRound) -> None:
    game = Game(players=3, rules=Rules.preset("five-rounds"), seed=5)
    with pytest.raises(OutOfTurnError, match="round 1 is not finished"):
        game.next_round()
    assert game.round_number == 1
    finish_round(game.round, random.Random(5))
    assert game.next_round() is game.round and game.round_number == 2


def test_the_game_ends_after_its_last_round(finish_round: FinishRound) -> None:
    game = Game(players=6, rules=Rules.preset("five-rounds"), seed=6)
    with pytest.raises(OutOfTurnError, match="not over"):
        game.winners()
    play_game(game, finish_round, random.Random(6))
    assert game.finished
    with pytest.raises(OutOfTurnError, match="all 5 rounds"):
        game.next_round()


def test_score_sheet_adds_up_each_rounds_scores(finish_round: FinishRound) -> None:
    game = play_game(Game(players=4, seed=7), finish_round, random.Random(7))
    sheet = game.score_sheet
    assert len(sheet.rows) == 15
    for row, rnd in zip(sheet.rows, game.rounds, strict=True):
        assert row.points == rnd.scores()
        assert row.bids == rnd.final_bids and row.taken == rnd.taken
        assert row.points == tuple(map(round_score, rnd.final_bids, rnd.taken))
    for seat in range(4):
        assert sheet.totals[seat] == sum(rnd.scores()[seat] for rnd in game.rounds)


def test_highest_total_wins_ties_share(finish_round: FinishRound) -> None:
    for seed in range(20):
        game = play_game(
            Game(players=3, rules=Rules.preset("five-rounds"), seed=seed),
            finish_round,
            random.Random(seed),
        )
        totals = game.score_sheet.totals
        assert game.winners() == [s for s, total in enumerate(totals) if total == max(totals)]


def test_every_round_is_played_under_the_games_rules() -> None:
    rules = Rules.preset("plus-minus-one")
    game = Game(players=3, rules=rules, seed=8, names=["Ann", "Bo", "Cy"])
    assert game.round.rules == rules and game.round.names == ("Ann", "Bo", "Cy")


def test_a_seed_fixes_the_whole_game(finish_round: FinishRound) -> None:
    games = [
        play_game(
            Game(players=4, rules=Rules.preset("five-rounds"), seed=9),
            finish_round,
            random.Random(9),
        )
        for _ in range(2)
    ]
    assert [r.snapshot() for r in games[0].rounds] == [r.snapshot() for r in games[1].rounds]


# -- golden transcript --------------------------------------------------------------------


def choose_by_policy(rnd: Round) -> None:
    """Deterministic policy: the dealer picks the suit it holds most of (ties: Y R G B);
    bid 1 if allowed, else the lowest allowed bid; play the first legal card."""
    if rnd.phase is Phase.TRUMP_CHOICE:
        hand = rnd.hands[rnd.dealer]
        rnd.choose_trump(max(Suit, key=lambda s: sum(c.suit is s for c in hand)))
    elif rnd.phase is Phase.BIDDING:
        legal = rnd.legal_bids()
        rnd.bid(1 if 1 in legal else legal[0])
    else:
        rnd.play(rnd.legal_plays()[0])


def transcript(game: Game) -> str:
    names = game.names
    lines = [
        "Golden transcript: Game(players=4, seed=2024, rules=Rules.preset('five-rounds'))",
        "policy: dealer picks its most-held suit; bid 1 if allowed, else lowest; first legal card",
    ]
    while True:
        rnd = game.round
        deal = rnd.events[0]
        assert isinstance(deal, Dealt)
        while not rnd.finished:
            choose_by_policy(rnd)
        lines.append("")
        lines.append(
            f"round {game.round_number}: {rnd.cards} card(s) each, dealer {names[rnd.dealer]}"
        )
        for seat, hand in enumerate(deal.hands):
            lines.append(f"  hand {names[seat]}: {format_cards(hand)}")
        trump = rnd.trump.colour if rnd.trump else "none"
        lines.append(f"  turned: {rnd.turned or 'nothing'}; trump: {trump}")
        bidders = [(rnd.first_seat + k) % game.players for k in range(game.players)]
        lines.append("  bids: " + ", ".join(f"{names[s]} {rnd.bids[s]}" for s in bidders))
        for trick in rnd.tricks:
            plays = ", ".join(f"{names[seat]} {card}" for seat, card in trick.plays)
            lines.append(
                f"  trick {trick.number}: {plays} -> {names[trick.winner]} "
                f"({trick.explanation.rule.value})"
            )
        lines.append(
            "  taken:  " + " ".join(f"{n} {t}" for n, t in zip(names, rnd.taken, strict=True))
        )
        lines.append(
            "  points: " + " ".join(f"{n} {p}" for n, p in zip(names, rnd.scores(), strict=True))
        )
        lines.append(
            "  totals: "
            + " ".join(f"{n} {t}" for n, t in zip(names, game.score_sheet.totals, strict=True))
        )
        if game.finished:
            break
        game.next_round()
    lines.append("")
    lines.append("winners: " + " ".join(names[seat] for seat in game.winners()))
    return "\n".join(lines) + "\n"


def test_golden_transcript_of_a_seeded_five_round_game() -> None:
    actual = transcript(Game(players=4, seed=2024, rules=Rules.preset("five-rounds")))
    if os.environ.get(REGENERATE) == "1":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(actual, encoding="utf-8")
    assert GOLDEN.exists(), f"{GOLDEN} is missing: run with {REGENERATE}=1 to create it"
    assert actual == GOLDEN.read_text(encoding="utf-8"), (
        f"the seeded game no longer matches {GOLDEN.name}; if the engine change is intended, "
        f"regenerate with {REGENERATE}=1 and review the diff"
    )
