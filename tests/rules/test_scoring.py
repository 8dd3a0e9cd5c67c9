"""RULES.md "Scoring (each round)": points per round, the score sheet, the winners."""

from __future__ import annotations

import pytest

from tutor.errors import InvalidScoreError
from tutor.rules.scoring import ScoreSheet, round_score


@pytest.mark.parametrize(("bid", "points"), [(1, 30), (2, 40), (3, 50), (13, 150)])
def test_bid_met_scores_20_plus_10_per_trick(bid: int, points: int) -> None:
    assert round_score(bid, bid) == points


def test_bid_zero_met_scores_20() -> None:
    assert round_score(0, 0) == 20


def test_bid_3_took_1_scores_minus_20() -> None:
    assert round_score(3, 1) == -20


def test_bid_1_took_3_scores_minus_20() -> None:
    assert round_score(1, 3) == -20


@pytest.mark.parametrize(("bid", "taken"), [(0, 1), (2, 1), (0, 5), (5, 0), (4, 7)])
def test_bid_missed_minus_10_per_trick_off_tricks_earn_nothing(bid: int, taken: int) -> None:
    assert round_score(bid, taken) == -10 * abs(bid - taken)


def test_scores_add_up_over_rounds_and_can_go_negative() -> None:
    sheet = ScoreSheet(players=3)
    first = sheet.record(bids=[1, 0, 2], taken=[0, 1, 0], cards=1)
    assert first.points == (-10, -10, -20)
    assert sheet.totals == (-10, -10, -20)
    second = sheet.record(bids=[1, 1, 0], taken=[1, 1, 0], cards=2)
    assert second.points == (30, 30, 20)
    assert second.totals == sheet.totals == (20, 20, 0)
    assert [row.cards for row in sheet.rows] == [1, 2]


def test_highest_total_wins() -> None:
    sheet = ScoreSheet(players=3)
    sheet.record(bids=[1, 0, 0], taken=[1, 0, 0])
    assert sheet.leaders() == [0]


def test_ties_share_the_win() -> None:
    sheet = ScoreSheet(players=4)
    sheet.record(bids=[0, 0, 1, 0], taken=[0, 0, 0, 0])
    assert sheet.totals == (20, 20, -10, 20)
    assert sheet.leaders() == [0, 1, 3]


def test_every_seat_shares_the_win_before_any_round() -> None:
    assert ScoreSheet(players=3).leaders() == [0, 1, 2]


def test_tricks_taken_must_add_up_to_the_round_when_cards_given() -> None:
    sheet = ScoreSheet(players=3)
    with pytest.raises(InvalidScoreError, match="add up to 2"):
        sheet.record(bids=[1, 0, 0], taken=[1, 1, 0], cards=3)
    assert sheet.rows == []
