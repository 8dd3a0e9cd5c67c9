"""RULES.md "Trump reveal": each line of the table, through reveal_trump and Round."""

from __future__ import annotations

import random

import pytest

from tutor.errors import IllegalTrumpChoiceError, OutOfTurnError
from tutor.rules.cards import Suit, parse_card
from tutor.rules.round import Phase, Round, TrumpChosen
from tutor.rules.schedule import cards_per_round
from tutor.rules.trick import trick_winner
from tutor.rules.trump import RevealRule, parse_trump, reveal_trump

# 4 players, 3 cards each, dealer seat 3; the turned card is given per test.
HANDS = ("J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10")


def test_number_card_turned_makes_its_suit_trump() -> None:
    reveal = reveal_trump("R9")
    assert (reveal.turned, reveal.trump, reveal.rule) == (
        parse_card("R9"),
        Suit.RED,
        RevealRule.NUMBER_CARD,
    )
    assert not reveal.dealer_chooses
    rnd = Round(hands=HANDS, turned="G1", dealer=3)
    assert rnd.trump is Suit.GREEN and rnd.phase is Phase.BIDDING


def test_trump_is_whole_suit_not_the_turned_card() -> None:
    # R9 turned: every red card is trump, the low red 2 beats the led blue 13 ...
    trump = reveal_trump("R9").trump
    assert trick_winner("B13 R2", trump) == 1
    # ... and a red card higher than the turned 9 is trump as well.
    assert trick_winner("R12 R13 W", trump) == 2
    assert trick_winner("B13 R12", trump) == 1


def test_turned_card_belongs_to_nobodys_hand() -> None:
    rnd = Round(hands=HANDS, turned="R9", dealer=3)
    assert rnd.turned == parse_card("R9")
    assert all(parse_card("R9") not in hand for hand in rnd.hands)
    rng = random.Random(5)
    for _ in range(200):
        dealt = Round(players=rng.randint(3, 6), cards=rng.randint(1, 9), seed=rng.random())
        turned = dealt.turned
        assert turned is not None
        if turned.is_number:
            assert all(turned not in hand for hand in dealt.hands)


def test_jester_turned_no_trump() -> None:
    reveal = reveal_trump("J")
    assert (reveal.trump, reveal.rule) == (None, RevealRule.JESTER)
    rnd = Round(hands=("R2 G8", "B5 G3", "B11 R4"), turned="J", dealer=0)
    assert rnd.trump is None and rnd.phase is Phase.BIDDING


def test_wizard_turned_dealer_chooses_a_suit_after_looking_at_their_hand() -> None:
    reveal = reveal_trump("W")
    assert reveal.dealer_chooses and reveal.rule is RevealRule.WIZARD and reveal.trump is None
    rnd = Round(hands=HANDS, turned="W", dealer=3)
    assert rnd.phase is Phase.TRUMP_CHOICE
    assert rnd.to_act == 3
    assert rnd.view(3).hand == tuple(parse_card(c) for c in HANDS[3].split())
    assert rnd.legal_bids() == []  # nobody bids before the choice
    with pytest.raises(OutOfTurnError):
        rnd.bid(1)
    event = rnd.choose_trump("G")
    assert event == TrumpChosen(seat=3, suit=Suit.GREEN)
    assert rnd.trump is Suit.GREEN and rnd.phase is Phase.BIDDING and rnd.to_act == 0


@pytest.mark.parametrize("no_trump", [None, "none", "", "no trump"])
def test_wizard_turned_dealer_chooses_no_trump_refused(no_trump: str | None) -> None:
    rnd = Round(hands=HANDS, turned="W", dealer=3)
    before = rnd.snapshot()
    with pytest.raises(IllegalTrumpChoiceError, match="no trump"):
        rnd.choose_trump(no_trump)
    assert rnd.snapshot() == before
    assert not rnd.can_choose_trump(no_trump)


def test_wizard_turned_only_the_dealer_chooses() -> None:
    rnd = Round(hands=HANDS, turned="W", dealer=3)
    assert not rnd.can_choose_trump("R", seat=0)
    with pytest.raises(OutOfTurnError, match="seat 0"):
        rnd.choose_trump("R", seat=0)
    assert rnd.can_choose_trump("R", seat=3)


def test_no_trump_choice_when_a_number_card_or_jester_is_turned() -> None:
    for turned in ("R9", "J"):
        rnd = Round(hands=HANDS, turned=turned, dealer=3)
        with pytest.raises(IllegalTrumpChoiceError, match="'B'"):
            rnd.choose_trump("B")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_last_round_nothing_turned_no_trump(players: int) -> None:
    last = cards_per_round(players)[-1]
    rnd = Round(players=players, cards=last, dealer=0, seed=players)
    assert last * players == 60
    assert rnd.turned is None
    assert rnd.reveal.rule is RevealRule.NOTHING_LEFT
    assert rnd.trump is None and rnd.phase is Phase.BIDDING
    assert reveal_trump(None).trump is None


def test_round_before_the_last_turns_a_card() -> None:
    rnd = Round(players=4, cards=14, dealer=0, seed=1)
    assert rnd.turned is not None


def test_parse_trump_takes_suits_letters_and_no_trump_words() -> None:
    assert parse_trump(Suit.YELLOW) is Suit.YELLOW
    assert parse_trump("g") is Suit.GREEN
    assert parse_trump(None) is None
    assert parse_trump("none") is None
