"""The situations a trick can be in, read off the engine's judgement, and the rules a
question about it asks: each situation found where the rules put a trick in it and not
in the trick next to it that differs by one card."""

from __future__ import annotations

import random

import pytest

from tutor.rules.cards import Suit
from tutor.rules.round import Phase, Round
from tutor.rules.trick import WinRule, explain_trick
from tutor.teaching.rule_map import rule_map
from tutor.teaching.situations import (
    Situation,
    play_rules,
    play_situations,
    trick_situations,
    winner_rules,
)

S = Situation

# (situation, a trick in it, a trick next to it that is not, trump)
TRICKS = [
    (S.LED_SUIT_FOLLOWED, "B6 B9 R2", "B6 G9 R2", "Y"),
    (S.TRUMP_LED, "R6 R9 B2", "B6 R9 R2", "R"),
    (S.TRUMP_IN, "B6 R2 B9", "B6 W R2", "R"),
    (S.NO_TRUMP, "B6 R2 B9", "B6 R2 B9", None),
    (S.CANNOT_FOLLOW_TRUMP, "B6 W R2", "B6 W G2", "R"),
    (S.CANNOT_FOLLOW_DISCARD, "B6 G13 B2", "B6 R13 B2", "R"),
    (S.WIZARD_LED, "W B6 R2", "J W R2", "R"),
    (S.ONE_WIZARD, "J W R2", "W B6 R2", "R"),
    (S.SEVERAL_WIZARDS, "B6 W W", "B6 W J", "R"),
    (S.NUMBER_THEN_WIZARD, "J B6 W G2", "J W B6 G2", "R"),
    (S.JESTER_THEN_NUMBER, "J B6 G2", "J J B6", "R"),
    (S.JESTERS_THEN_NUMBER, "J J B6", "J B6 J", "R"),
    (S.JESTER_THEN_WIZARD, "J J W B6", "J B6 W", "R"),
    (S.JESTERS_ONLY, "J J J J", "J J J W", "R"),
]


def test_the_examples_name_every_situation_of_a_whole_trick() -> None:
    named = {situation for situation, *_ in TRICKS}
    assert named == set(Situation) - {S.JESTERS_SO_FAR}  # that one is before a play only


@pytest.mark.parametrize(("situation", "inside", "outside", "trump"), TRICKS)
def test_a_trick_is_in_its_situation_and_the_one_next_to_it_is_not(
    situation: Situation, inside: str, outside: str, trump: str | None
) -> None:
    assert situation in trick_situations(inside, trump)
    if situation is S.NO_TRUMP:
        assert situation not in trick_situations(outside, "G")
    else:
        assert situation not in trick_situations(outside, trump)


@pytest.mark.parametrize(
    ("hand", "plays", "trump", "situations"),
    [
        ("B7 R12 W", "J B5", "R", {S.LED_SUIT_FOLLOWED, S.JESTER_THEN_NUMBER}),
        ("R4 G2", "B6 W", "R", {S.CANNOT_FOLLOW_TRUMP, S.CANNOT_FOLLOW_DISCARD}),
        ("R4 G2", "B6 W", "R", {S.NUMBER_THEN_WIZARD}),
        ("R4 G2 B9", "W", "B", {S.WIZARD_LED}),
        ("R4 G2 B9", "J W", "B", {S.JESTER_THEN_WIZARD}),
        ("R4 G2 B9", "J J", "B", {S.JESTERS_SO_FAR}),
        ("R4 G2 B9", "R2", "R", {S.TRUMP_LED, S.LED_SUIT_FOLLOWED}),
    ],
)
def test_a_play_is_in_the_situations_of_the_trick_so_far_and_of_the_hand(
    hand: str, plays: str, trump: str, situations: set[Situation]
) -> None:
    assert situations <= set(play_situations(hand, plays, trump))


def test_a_hand_that_leads_is_in_no_situation_and_a_hand_led_into_freely_follows_nothing() -> None:
    assert play_situations("R4 W", "", "R") == ()
    # a Wizard led: nothing binds, so nobody "cannot follow"
    assert set(play_situations("R4 G2", "W", "R")) == {S.WIZARD_LED}


def test_a_trick_of_jesters_only_is_at_most_four_cards_and_five_jesters_are_refused() -> None:
    assert set(trick_situations("J J J J", None)) == {S.NO_TRUMP, S.JESTERS_ONLY}
    with pytest.raises(ValueError, match="J appears 5 times"):
        trick_situations("J J J J J", "R")


def test_situations_agree_with_the_engine_on_random_legal_tricks() -> None:
    """Whole tricks played by the rules: the winner-side situations are those of the
    engine's deciding rule, and a card off the led suit never coexists with a player who
    held that suit (the round refuses such a play)."""
    rng = random.Random(31)
    for _ in range(400):
        players = rng.randint(3, 6)
        rnd = Round(players=players, cards=rng.randint(1, 60 // players), rng=rng)
        if rnd.phase is Phase.TRUMP_CHOICE:
            rnd.choose_trump(rng.choice(list(Suit)))
        while rnd.phase is Phase.BIDDING:
            rnd.bid(rng.choice(rnd.legal_bids()))
        for _card in range(players):
            rnd.play(rng.choice(rnd.legal_plays()))
        cards, why = rnd.tricks[0].cards, explain_trick(rnd.tricks[0].cards, rnd.trump)
        found = set(trick_situations(cards, rnd.trump))
        wizards = sum(card.is_wizard for card in cards)
        assert (S.SEVERAL_WIZARDS in found) == (wizards > 1)
        assert (S.JESTERS_ONLY in found) == (why.rule is WinRule.FIRST_JESTER)
        assert (S.TRUMP_IN in found) == (
            why.rule is WinRule.HIGHEST_TRUMP and why.led_suit is not rnd.trump
        )
        assert (S.NO_TRUMP in found) == (rnd.trump is None)
        if S.TRUMP_IN in found:
            assert S.CANNOT_FOLLOW_TRUMP in found


def test_the_rules_asked_are_the_rule_maps_and_follow_the_deciding_line() -> None:
    assert winner_rules("W R13 W", "R") == ("first-wizard-wins", "later-wizards-never-win")
    assert winner_rules("J J J", "R") == ("only-jesters-first-wins",)
    assert winner_rules("J B5 B11 B7", "R")[0] == "highest-led-suit-wins"
    assert "jester-led-first-number-sets-suit" in winner_rules("J B5 B11 B7", "R")
    # the Jester lead does not decide a trick a trump takes
    assert "jester-led-first-number-sets-suit" not in winner_rules("J B5 R2 B7", "R")
    assert play_rules("B7 R12 G10 W", "J B5", "R") == (
        "must-follow-suit",
        "wizard-jester-any-time",
        "jester-led-first-number-sets-suit",
    )
    assert "jester-then-wizard-no-suit" in play_rules("R4 G2", "J W", "B")
    assert "wizard-led-no-suit" in play_rules("R4 G2", "W", "B")
    known = set(rule_map().ids())
    for trick, trump in (("J J J", "R"), ("B6 W W", None), ("J J B6 R2", "R")):
        assert set(winner_rules(trick, trump)) <= known
