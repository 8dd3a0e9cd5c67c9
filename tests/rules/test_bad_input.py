"""Bad input at every entry point of the engine: each raises the right tutor.errors class
(a ValueError), quotes the offending value and names the rule; a refused action leaves
the round exactly as it was."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tutor.errors import (
    IllegalBidError,
    IllegalPlayError,
    IllegalTrumpChoiceError,
    InvalidCardError,
    InvalidDealError,
    InvalidPlayersError,
    InvalidRulesError,
    InvalidScoreError,
    InvalidTrumpError,
    OutOfTurnError,
    UnknownVariantError,
    WizardRuleError,
)
from tutor.rules.cards import DECK, Card, parse_card, parse_cards
from tutor.rules.game import Game
from tutor.rules.round import Round
from tutor.rules.schedule import cards_per_round
from tutor.rules.scoring import ScoreSheet, round_score
from tutor.rules.trick import judge_play, legal_plays, trick_winner
from tutor.rules.variants import Rules

HANDS = ["J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10"]  # the worked example, D deals


def refused(error: type[WizardRuleError], action: Callable[[], object], *fragments: str) -> str:
    """Run ``action``, expect ``error`` whose message holds every fragment; the message."""
    with pytest.raises(error) as caught:
        action()
    message = str(caught.value)
    assert isinstance(caught.value, ValueError)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    return message


def refused_action(
    rnd: Round, error: type[WizardRuleError], action: Callable[[], object], *fragments: str
) -> None:
    before = rnd.snapshot()
    refused(error, action, *fragments)
    assert rnd.snapshot() == before


def bidding_done() -> Round:
    rnd = Round(hands=HANDS, turned="R9", dealer=3)
    for amount in (1, 2, 0, 0):
        rnd.bid(amount)
    return rnd


# -- cards ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["R14", "X3", "", "R0", "R01", "R 9", "W1", "B-1", "R٩", "10R", "JJ"]
)
def test_parse_card_refuses_bad_notation(text: str) -> None:
    refused(InvalidCardError, lambda: parse_card(text), f"invalid card {text!r}", "rank 1-13")


@pytest.mark.parametrize("value", [5, None, 9.0, ["R9"]])
def test_parse_card_refuses_what_is_not_text(value: object) -> None:
    refused(InvalidCardError, lambda: parse_card(value), repr(value), "written as text")


def test_parse_cards_names_the_bad_card() -> None:
    refused(InvalidCardError, lambda: parse_cards("J B5 X3"), "'X3'")
    refused(InvalidCardError, lambda: parse_cards(["R9", 7]), "invalid card 7")


@pytest.mark.parametrize("value", [None, 5, parse_card("R9")])
def test_parse_cards_refuses_what_is_not_several_cards(value: object) -> None:
    refused(InvalidCardError, lambda: parse_cards(value), repr(value))


def test_card_refuses_a_rank_out_of_range() -> None:
    refused(InvalidCardError, lambda: Card.number("R", 14), "14", "from 1 to 13")


# -- tricks --------------------------------------------------------------------------------


def test_trick_winner_refuses_an_empty_trick() -> None:
    refused(InvalidCardError, lambda: trick_winner("", "R"), "at least one card")
    refused(InvalidCardError, lambda: trick_winner([], None), "at least one card")


def test_trick_winner_refuses_seven_cards() -> None:
    plays = "R1 R2 R3 R4 R5 R6 R7"
    refused(InvalidCardError, lambda: trick_winner(plays, None), "at most 6", "got 7", plays)


def test_trick_winner_refuses_a_card_twice() -> None:
    refused(InvalidCardError, lambda: trick_winner("R9 B2 R9", "G"), "R9 appears 2 times")


def test_trick_winner_refuses_a_fifth_wizard() -> None:
    refused(InvalidCardError, lambda: trick_winner("W W W W W", "G"), "W appears 5 times")


@pytest.mark.parametrize("trump", ["X", "purple", "R9", 3])
def test_trick_winner_refuses_a_bad_trump(trump: object) -> None:
    refused(InvalidTrumpError, lambda: trick_winner("R9 B2", trump), f"invalid trump {trump!r}")


def test_legal_plays_refuses_a_card_both_in_hand_and_in_the_trick() -> None:
    refused(InvalidCardError, lambda: legal_plays("B7 R9", "J B7"), "B7 appears 2 times")
    refused(InvalidCardError, lambda: judge_play("B7 R9", "J B7", "R9"), "B7 appears 2 times")


def test_legal_plays_refuses_a_bad_card() -> None:
    refused(InvalidCardError, lambda: legal_plays("B7 Q9", "J"), "'Q9'")


# -- scoring and schedules -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "taken", "bad"), [(-1, 0, "-1"), (0, -2, "-2"), (True, 1, "True"), (1.5, 1, "1.5")]
)
def test_round_score_refuses_counts_that_are_not_whole_numbers(
    bid: object, taken: object, bad: str
) -> None:
    refused(InvalidScoreError, lambda: round_score(bid, taken), bad, "whole number, 0 or more")  # type: ignore[arg-type]


def test_score_sheet_refuses_the_wrong_number_of_bids() -> None:
    sheet = ScoreSheet(players=4)
    refused(InvalidScoreError, lambda: sheet.record(bids=[0, 1, 0], taken=[0, 1, 0, 0]), "3 bids")
    assert sheet.rows == []


@pytest.mark.parametrize("players", [2, 7, 0, "4", True])
def test_cards_per_round_refuses_player_counts_outside_3_to_6(players: object) -> None:
    refused(
        InvalidPlayersError,
        lambda: cards_per_round(players),
        repr(players),
        "3 to 6 players",  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("length", ["forever", "", None, 10])
def test_cards_per_round_refuses_an_unknown_game_length(length: object) -> None:
    refused(
        UnknownVariantError,
        lambda: cards_per_round(4, length),  # type: ignore[arg-type]
        f"unknown game length: {length!r}",
        "'standard', 'five', 'tournament'",
    )


# -- rules ---------------------------------------------------------------------------------


def test_rules_refuse_an_unknown_bidding_mode() -> None:
    refused(InvalidRulesError, lambda: Rules(bidding="loud"), "'loud'", "'open', 'hidden'")


@pytest.mark.parametrize("flag", ["yes", 1, None])
def test_rules_refuse_a_plus_minus_one_that_is_not_a_bool(flag: object) -> None:
    refused(InvalidRulesError, lambda: Rules(plus_minus_one=flag), repr(flag), "True or False")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["speed", "", "plus-minus-two", 5, ["standard"]])
def test_rules_preset_refuses_an_unknown_name(name: object) -> None:
    refused(
        UnknownVariantError,
        lambda: Rules.preset(name),  # type: ignore[arg-type]
        f"unknown variant: {name!r}",
        "'standard', 'plus-minus-one'",
    )


# -- building a round ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 7])
def test_round_refuses_player_counts_outside_3_to_6(players: int) -> None:
    refused(
        InvalidPlayersError,
        lambda: Round(players=players, cards=1, seed=1),
        f"invalid number of players {players}",
        "3 to 6 players",
    )


@pytest.mark.parametrize(("players", "cards"), [(4, 0), (4, 16), (3, 21), (6, 11), (4, -1)])
def test_round_refuses_a_card_count_the_deck_cannot_deal(players: int, cards: int) -> None:
    refused(
        InvalidDealError,
        lambda: Round(players=players, cards=cards, seed=1),
        f"invalid number of cards {cards}",
        f"1 to {60 // players} cards",
    )


@pytest.mark.parametrize("dealer", [4, -1, True])
def test_round_refuses_a_dealer_seat_that_does_not_exist(dealer: object) -> None:
    refused(
        InvalidPlayersError,
        lambda: Round(players=4, cards=1, dealer=dealer, seed=1),  # type: ignore[arg-type]
        f"invalid dealer seat {dealer!r}",
        "0 to 3",
    )
    refused(
        InvalidPlayersError,
        lambda: Round(hands=HANDS, turned="R9", dealer=dealer),  # type: ignore[arg-type]
        repr(dealer),
    )


def test_explicit_deal_refuses_unequal_hands() -> None:
    hands = ["J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12"]
    refused(InvalidDealError, lambda: Round(hands=hands, turned="R9"), "same number", "3, 3, 3, 2")


def test_explicit_deal_refuses_a_card_dealt_twice() -> None:
    hands = ["J R2 G8", "B5 W G3", "B11 R2 J", "B7 R12 G10"]
    refused(InvalidDealError, lambda: Round(hands=hands, turned="R9"), "R2 appears 2 times")


def test_explicit_deal_refuses_five_wizards() -> None:
    hands = ["W W G8", "B5 W G3", "B11 W J", "B7 R12 G10"]
    refused(InvalidDealError, lambda: Round(hands=hands, turned="W"), "W appears 5 times")


def test_explicit_deal_refuses_a_turned_card_that_is_also_in_a_hand() -> None:
    refused(InvalidDealError, lambda: Round(hands=HANDS, turned="R12"), "R12 appears 2 times")


def test_explicit_deal_refuses_nothing_turned_while_cards_remain() -> None:
    refused(InvalidDealError, lambda: Round(hands=HANDS, turned=None), "48 cards remain")
    refused(InvalidDealError, lambda: Round(hands=HANDS), "48 cards remain")


def test_explicit_deal_refuses_a_turned_card_when_every_card_was_dealt() -> None:
    deck = [str(card) for card in DECK]
    hands = [" ".join(deck[seat::3]) for seat in range(3)]
    assert Round(hands=hands).turned is None  # 3 x 20 cards: nothing left, no trump
    refused(InvalidDealError, lambda: Round(hands=hands, turned="R9"), "turned card R9", "nothing")


def test_explicit_deal_refuses_two_hands() -> None:
    refused(InvalidPlayersError, lambda: Round(hands=HANDS[:2], turned="R9"), "2", "3 to 6")


def test_explicit_deal_refuses_a_player_count_that_disagrees() -> None:
    refused(InvalidDealError, lambda: Round(hands=HANDS, turned="R9", players=5), "players=5")


def test_round_refuses_rules_that_are_not_rules() -> None:
    refused(
        WizardRuleError,
        lambda: Round(players=3, cards=1, rules="plus-minus-one"),
        "'plus-minus-one'",
    )  # type: ignore[arg-type]


# -- actions -------------------------------------------------------------------------------


def test_bid_out_of_turn() -> None:
    rnd = Round(hands=HANDS, turned="R9", dealer=3)
    refused_action(
        rnd,
        OutOfTurnError,
        lambda: rnd.bid(1, seat=2),
        "seat 2 (C) cannot bid",
        "seat 0 (A)'s turn",
    )
    refused_action(rnd, OutOfTurnError, lambda: rnd.bid(1, seat=3), "seat 3")


def test_play_out_of_turn() -> None:
    rnd = bidding_done()
    refused_action(rnd, OutOfTurnError, lambda: rnd.play("B5", seat=1), "seat 1 (B) cannot play")


def test_action_by_a_seat_that_does_not_exist() -> None:
    rnd = bidding_done()
    refused_action(rnd, InvalidPlayersError, lambda: rnd.play("J", seat=9), "invalid seat 9")
    refused(InvalidPlayersError, lambda: rnd.view(4), "invalid seat 4")


def test_play_of_a_card_not_in_hand() -> None:
    rnd = bidding_done()
    refused_action(rnd, IllegalPlayError, lambda: rnd.play("W"), "'W'", "not in the hand")
    refused_action(rnd, IllegalPlayError, lambda: rnd.play("R9"), "'R9'", "not in the hand")


def test_play_breaking_follow_suit() -> None:
    rnd = bidding_done()
    rnd.play("J")
    rnd.play("B5")
    refused_action(
        rnd, IllegalPlayError, lambda: rnd.play("R4"), "'R4'", "blue was led", "follow suit"
    )


def test_play_of_bad_notation() -> None:
    rnd = bidding_done()
    refused_action(rnd, IllegalPlayError, lambda: rnd.play("X3"), "'X3'")
    refused_action(rnd, IllegalPlayError, lambda: rnd.play(5), "5")


def test_play_before_bidding_is_over() -> None:
    rnd = Round(hands=HANDS, turned="R9", dealer=3)
    refused_action(rnd, OutOfTurnError, lambda: rnd.play("J"), "'J'", "bidding phase")


@pytest.mark.parametrize("amount", [4, -1, 1.5, True, "1", None])
def test_bid_out_of_range(amount: object) -> None:
    rnd = Round(hands=HANDS, turned="R9", dealer=3)
    refused_action(
        rnd, IllegalBidError, lambda: rnd.bid(amount), f"invalid bid {amount!r}", "0 to 3"
    )


def test_bid_after_bidding_is_over() -> None:
    rnd = bidding_done()
    refused_action(rnd, OutOfTurnError, lambda: rnd.bid(2), "bid 2", "playing phase")


def test_bid_forbidden_by_plus_minus_one() -> None:
    rnd = Round(hands=HANDS, turned="R9", dealer=3, rules=Rules(plus_minus_one=True))
    for amount in (1, 2, 0):
        rnd.bid(amount)
    refused_action(
        rnd,
        IllegalBidError,
        lambda: rnd.bid(0),
        "bid 0",
        "forbidden by plus/minus one",
        "add up to 3",
    )


def test_trump_choice_when_none_is_due() -> None:
    rnd = Round(hands=HANDS, turned="R9", dealer=3)
    refused_action(
        rnd,
        IllegalTrumpChoiceError,
        lambda: rnd.choose_trump("B", seat=3),
        "'B'",
        "only when a Wizard is turned",
    )


def test_no_trump_choice_after_a_wizard() -> None:
    rnd = Round(hands=HANDS, turned="W", dealer=3)
    refused_action(
        rnd, IllegalTrumpChoiceError, lambda: rnd.choose_trump("none"), "'none'", "not allowed"
    )
    refused_action(
        rnd, IllegalTrumpChoiceError, lambda: rnd.choose_trump(None), "None", "not allowed"
    )


def test_trump_choice_of_something_that_is_not_a_suit() -> None:
    rnd = Round(hands=HANDS, turned="W", dealer=3)
    refused_action(rnd, IllegalTrumpChoiceError, lambda: rnd.choose_trump("X"), "'X'")


# -- game ----------------------------------------------------------------------------------


def test_game_refuses_bad_settings() -> None:
    refused(InvalidPlayersError, lambda: Game(players=7), "7", "3 to 6 players")
    refused(InvalidPlayersError, lambda: Game(players=4, first_dealer=4), "invalid dealer seat 4")
    refused(InvalidPlayersError, lambda: Game(players=3, names=["A", "B"]), "2 names", "3 players")
    refused(
        InvalidDealError,
        lambda: Game(players=3, seed=1, rng=random.Random()),
        "not both",
    )
