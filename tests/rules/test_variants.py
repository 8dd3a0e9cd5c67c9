"""RULES.md "Bidding" and "Variants": open bidding, plus/minus one, hidden and secret bids,
five rounds, the AMIGO tournament, and the refusal of unplayable or unknown variants."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tutor.errors import IllegalBidError, InvalidRulesError, UnknownVariantError
from tutor.rules.game import Game
from tutor.rules.round import ForbiddenBid, Phase, Round
from tutor.rules.schedule import GameLength, cards_per_round
from tutor.rules.variants import PRESETS, Bidding, Rules, variant_names

FinishRound = Callable[[Round, random.Random], Round]


def bid_all(rnd: Round, bids: list[int]) -> None:
    for amount in bids:
        rnd.bid(amount)


# -- the basic game ----------------------------------------------------------------------


def test_basic_game_is_open_bidding_without_restriction() -> None:
    assert Rules() == Rules.preset("standard") == PRESETS["standard"]
    assert Rules().bidding is Bidding.OPEN
    assert not Rules().plus_minus_one
    assert Rules().length is GameLength.STANDARD


def test_bids_run_from_zero_to_the_cards_of_the_round() -> None:
    rnd = Round(players=4, cards=3, dealer=0, seed=1)
    assert rnd.legal_bids() == [0, 1, 2, 3]


def test_basic_game_allows_any_bid_total_including_equal_to_round() -> None:
    rnd = Round(players=4, cards=3, dealer=0, seed=1)
    bid_all(rnd, [1, 1, 0])
    assert rnd.legal_bids() == [0, 1, 2, 3]
    rnd.bid(1)  # total 3 == the round's 3 tricks: allowed
    assert sum(rnd.final_bids) == 3 and rnd.phase is Phase.PLAYING


def test_basic_game_allows_a_total_above_the_round() -> None:
    rnd = Round(players=3, cards=2, dealer=0, seed=1)
    bid_all(rnd, [2, 2, 2])
    assert rnd.final_bids == (2, 2, 2)


# -- plus/minus one ------------------------------------------------------------------


def test_plus_minus_one_forbids_the_total_for_the_last_bidder() -> None:
    rnd = Round(players=4, cards=3, dealer=0, seed=2, rules=Rules.preset("plus-minus-one"))
    bid_all(rnd, [1, 0, 0])
    assert rnd.forbidden_bid() == 2
    assert rnd.legal_bids() == [0, 1, 3]
    assert not rnd.can_bid(2)
    before = rnd.snapshot()
    with pytest.raises(IllegalBidError, match=r"bid 2 .*forbidden by plus/minus one"):
        rnd.bid(2)
    assert rnd.snapshot() == before
    rnd.bid(3)
    assert sum(rnd.final_bids) != rnd.cards


def test_plus_minus_one_the_last_bidders_view_says_which_bid_and_why() -> None:
    rnd = Round(players=4, cards=3, dealer=0, seed=2, rules=Rules.preset("plus-minus-one"))
    bid_all(rnd, [1, 0, 0])
    last = rnd.to_act
    assert last is not None
    assert rnd.view(last).forbidden_bid == ForbiddenBid(bid=2, others=1, tricks=3)
    assert rnd.view(last).legal_bids == (0, 1, 3)
    assert rnd.view((last + 1) % 4).forbidden_bid is None  # not that seat's turn
    rnd.bid(3)
    assert rnd.view(last).forbidden_bid is None  # bidding is over


def test_plus_minus_one_restricts_only_the_last_bidder() -> None:
    rnd = Round(players=4, cards=3, dealer=0, seed=2, rules=Rules(plus_minus_one=True))
    assert rnd.legal_bids() == [0, 1, 2, 3]  # first bidder may bid the whole round
    rnd.bid(3)
    assert rnd.forbidden_bid() is None
    assert rnd.legal_bids() == [0, 1, 2, 3]
    rnd.bid(0)  # total already equals 3 in the middle of bidding: allowed
    assert rnd.legal_bids() == [0, 1, 2, 3]
    rnd.bid(0)
    assert rnd.legal_bids() == [1, 2, 3]  # last bidder: 0 would make the total 3


def test_plus_minus_one_no_restriction_when_forbidden_value_is_out_of_range() -> None:
    rnd = Round(players=3, cards=1, dealer=0, seed=3, rules=Rules(plus_minus_one=True))
    bid_all(rnd, [1, 1])  # the forbidden bid would be -1
    assert rnd.forbidden_bid() is None
    assert rnd.legal_bids() == [0, 1]
    rnd.bid(1)
    assert rnd.phase is Phase.PLAYING


def test_plus_minus_one_last_bidder_is_the_dealer() -> None:
    rnd = Round(players=3, cards=2, dealer=1, seed=4, rules=Rules(plus_minus_one=True))
    bid_all(rnd, [1, 0])
    assert rnd.to_act == 1 == rnd.dealer
    assert rnd.legal_bids() == [0, 2]


# -- hidden and secret bids --------------------------------------------------------------


def test_open_bids_are_seen_as_they_are_made() -> None:
    rnd = Round(players=3, cards=2, dealer=2, seed=5)
    rnd.bid(1)
    assert rnd.view(1).bids == (1, None, None)
    assert rnd.view(2).bids == (1, None, None)


def test_hidden_bids_are_revealed_together_before_play() -> None:
    rnd = Round(players=3, cards=2, dealer=2, seed=5, rules=Rules.preset("hidden-bids"))
    rnd.bid(2)
    rnd.bid(0)
    # during bidding each seat sees its own bid only, and who has bid
    assert rnd.view(0).bids == (2, None, None)
    assert rnd.view(1).bids == (None, 0, None)
    assert rnd.view(2).bids == (None, None, None)
    assert rnd.view(2).has_bid == (True, True, False)
    assert not rnd.bid_visible(0, to=None)
    rnd.bid(1)
    # the last bid ends bidding: every bid is shown to everyone before the first card
    assert rnd.phase is Phase.PLAYING and rnd.tricks == [] and rnd.current_trick == []
    for seat in range(3):
        assert rnd.view(seat).bids == (2, 0, 1)
    assert rnd.bid_visible(0, to=None)


def test_secret_bids_stay_hidden_during_play_and_are_shown_when_finished(
    finish_round: FinishRound,
) -> None:
    rnd = Round(players=3, cards=2, dealer=2, seed=6, rules=Rules.preset("secret-bids"))
    bid_all(rnd, [2, 0, 1])
    assert rnd.phase is Phase.PLAYING
    assert rnd.view(0).bids == (2, None, None)
    assert rnd.view(2).bids == (None, None, 1)
    rnd.play(rnd.legal_plays()[0])
    assert rnd.view(1).bids == (None, 0, None)
    finish_round(rnd, random.Random(6))
    for seat in range(3):
        assert rnd.view(seat).bids == (2, 0, 1)
    assert rnd.bid_visible(2, to=None)


@pytest.mark.parametrize("bidding", ["hidden", "secret"])
def test_plus_minus_one_with_hidden_or_secret_bids_refused_with_clear_message(
    bidding: str,
) -> None:
    message = rf"plus/minus one cannot be combined with {bidding} bids.*last bidder"
    with pytest.raises(InvalidRulesError, match=message):
        Rules(bidding=bidding, plus_minus_one=True)
    with pytest.raises(InvalidRulesError, match=message):
        Rules.preset("plus-minus-one", f"{bidding}-bids")


def test_two_bidding_variants_at_once_refused() -> None:
    with pytest.raises(InvalidRulesError, match=r"'hidden-bids' and 'secret-bids'.*bidding"):
        Rules.preset("hidden-bids", "secret-bids")


# -- game lengths ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_five_rounds_of_one_to_five_cards(players: int, finish_round: FinishRound) -> None:
    assert cards_per_round(players, "five") == [1, 2, 3, 4, 5]
    game = Game(players=players, rules=Rules.preset("five-rounds"), seed=players)
    rng = random.Random(players)
    for _ in range(4):
        finish_round(game.round, rng)
        game.next_round()
    finish_round(game.round, rng)
    assert game.finished
    assert [rnd.cards for rnd in game.rounds] == [1, 2, 3, 4, 5]
    assert len(game.score_sheet.rows) == 5


def test_tournament_3_players_2_4_6_to_20() -> None:
    assert cards_per_round(3, "tournament") == [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]


def test_tournament_4_players_plus_2_to_round_6_then_plus_1() -> None:
    assert cards_per_round(4, "tournament") == [1, 3, 5, 7, 9, 11, 12, 13, 14, 15]


def test_tournament_5_players_plus_2_to_round_2_then_plus_1() -> None:
    assert cards_per_round(5, "tournament") == [2, 4, 5, 6, 7, 8, 9, 10, 11, 12]


def test_tournament_6_players_is_the_standard_game() -> None:
    assert cards_per_round(6, "tournament") == list(range(1, 11)) == cards_per_round(6)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_tournament_last_round_deals_all_cards_so_no_trump(
    players: int, finish_round: FinishRound
) -> None:
    game = Game(players=players, rules=Rules.preset("tournament"), seed=10 + players)
    rng = random.Random(players)
    while game.round_number < 10:
        finish_round(game.round, rng)
        game.next_round()
    last = game.round
    assert len(game.schedule) == 10
    assert last.cards * players == 60
    assert last.turned is None and last.trump is None
    finish_round(last, rng)
    assert game.finished


# -- presets by name ---------------------------------------------------------------------


def test_presets_are_found_by_name() -> None:
    assert variant_names() == [
        "standard",
        "plus-minus-one",
        "hidden-bids",
        "secret-bids",
        "five-rounds",
        "tournament",
    ]
    assert Rules.preset("plus-minus-one").plus_minus_one
    assert Rules.preset("hidden-bids").bidding is Bidding.HIDDEN
    assert Rules.preset("secret-bids").bidding is Bidding.SECRET
    assert Rules.preset("five-rounds").length is GameLength.FIVE
    assert Rules.preset("tournament").length is GameLength.TOURNAMENT
    assert Rules.preset("Plus Minus One") == Rules.preset("plus_minus_one")


def test_playable_presets_combine() -> None:
    assert Rules.preset("plus-minus-one", "tournament") == Rules(
        plus_minus_one=True, length="tournament"
    )
    assert Rules.preset("secret-bids", "five-rounds") == Rules(bidding="secret", length="five")


def test_two_game_lengths_at_once_refused() -> None:
    with pytest.raises(InvalidRulesError, match=r"'five-rounds' and 'tournament'.*length"):
        Rules.preset("five-rounds", "tournament")


def test_unknown_variant_refused_naming_the_value_and_listing_known_ones() -> None:
    with pytest.raises(UnknownVariantError) as caught:
        Rules.preset("speed")
    message = str(caught.value)
    assert "unknown variant: 'speed'" in message
    for name in variant_names():
        assert repr(name) in message
    assert isinstance(caught.value, ValueError)


def test_unknown_game_length_refused_naming_the_value_and_listing_known_ones() -> None:
    with pytest.raises(UnknownVariantError, match="'forever'; known: 'standard', 'five'"):
        Rules(length="forever")
