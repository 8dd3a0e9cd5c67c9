"""RULES.md "Playing a trick", "Who takes the trick" and "Small cases from the sources",
one test per rule, through the pure functions (lead_of, led_suit, legal_plays,
judge_play, explain_trick, trick_winner)."""

from __future__ import annotations

import pytest

from tutor.errors import InvalidCardError
from tutor.rules.cards import DECK, Card, Suit, parse_cards
from tutor.rules.seats import seat_order
from tutor.rules.trick import (
    ILLEGAL_RULES,
    Lead,
    PlayJudgement,
    PlayRule,
    WinRule,
    card_power,
    explain_trick,
    followers_in,
    judge_play,
    lead_after,
    lead_of,
    led_suit,
    legal_plays,
    opening_state,
    play_rule,
    trick_winner,
)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


# -- playing a trick: who may play what ---------------------------------------------------


def test_leader_may_play_any_card() -> None:
    hand = "B7 R12 G10 W J"
    assert legal_plays(hand, "") == cards(hand)
    for card in cards(hand):
        judgement = judge_play(hand, [], card)
        assert judgement.rule is PlayRule.LEADS and judgement.legal


def test_must_follow_led_number_suit_when_holding_it() -> None:
    assert legal_plays("B7 B2 R12 G10", "B5") == cards("B7 B2")
    judgement = judge_play("B7 B2 R12 G10", "B5", "R12")
    assert judgement.rule is PlayRule.MUST_FOLLOW and not judgement.legal
    assert judgement.led_suit is Suit.BLUE
    assert judgement.followers == tuple(cards("B7 B2"))
    assert judge_play("B7 B2 R12 G10", "B5", "B2").rule is PlayRule.FOLLOWS_SUIT


def test_wizard_may_be_played_even_when_able_to_follow() -> None:
    assert legal_plays("B7 R12 W", "B5") == cards("B7 W")
    judgement = judge_play("B7 R12 W", "B5", "W")
    assert judgement.rule is PlayRule.WIZARD_ANY_TIME and judgement.legal


def test_jester_may_be_played_even_when_able_to_follow() -> None:
    assert legal_plays("B7 R12 J", "B5") == cards("B7 J")
    judgement = judge_play("B7 R12 J", "B5", "J")
    assert judgement.rule is PlayRule.JESTER_ANY_TIME and judgement.legal


def test_holding_no_card_of_led_suit_play_anything_trump_or_other_suit() -> None:
    hand = "R12 G10 Y1"
    assert legal_plays(hand, "B5") == cards(hand)
    for card in cards(hand):
        assert judge_play(hand, "B5", card).rule is PlayRule.CANNOT_FOLLOW


def test_holding_only_wizards_and_jesters_of_no_suit_does_not_bind() -> None:
    # Wizards and Jesters have no suit: holding them is not holding the led suit.
    hand = "W J R3"
    assert legal_plays(hand, "B5") == cards(hand)
    assert judge_play(hand, "B5", "R3").rule is PlayRule.CANNOT_FOLLOW


def test_wizard_led_no_suit_to_follow_everyone_may_play_anything() -> None:
    hand = "B7 R12 G10"
    assert lead_of("W") == (Lead.WIZARD_FIRST, None)
    assert legal_plays(hand, "W") == cards(hand)
    assert legal_plays(hand, "W B5") == cards(hand)
    assert judge_play(hand, "W B5", "R12").rule is PlayRule.NO_SUIT_AFTER_WIZARD


def test_jester_led_first_number_card_sets_the_suit() -> None:
    assert lead_of("J") == (Lead.ONLY_JESTERS, None)
    assert judge_play("B5 W G3", "J", "B5").rule is PlayRule.NO_SUIT_YET
    assert lead_of("J B5") == (Lead.SUIT, Suit.BLUE)
    assert legal_plays("B11 R4 J", "J B5") == cards("B11 J")


def test_jester_led_then_wizard_frees_the_suit() -> None:
    assert lead_of("J W") == (Lead.WIZARD_FIRST, None)
    # the number card after the Wizard sets nothing either
    assert led_suit("J W R13") is None
    hand = "B7 R12 G10"
    assert legal_plays(hand, "J W R13") == cards(hand)
    assert judge_play(hand, "J W R13", "B7").rule is PlayRule.NO_SUIT_AFTER_WIZARD


def test_several_jesters_in_a_row_set_nothing() -> None:
    assert lead_of("J J J") == (Lead.ONLY_JESTERS, None)
    hand = "B7 R12 G10"
    assert legal_plays(hand, "J J J") == cards(hand)
    assert judge_play(hand, "J J", "G10").rule is PlayRule.NO_SUIT_YET
    assert led_suit("J J J G2") is Suit.GREEN


def test_number_led_then_wizard_still_binds_later_players() -> None:
    assert lead_of("B6 W") == (Lead.SUIT, Suit.BLUE)
    assert legal_plays("B7 R12 G10", "B6 W") == cards("B7")
    judgement = judge_play("B7 R12 G10", "B6 W", "G10")
    assert judgement.rule is PlayRule.MUST_FOLLOW and judgement.led_suit is Suit.BLUE


def test_jester_led_number_then_wizard_still_binds_later_players() -> None:
    assert lead_of("J G4 W") == (Lead.SUIT, Suit.GREEN)
    assert legal_plays("B7 G10 J", "J G4 W") == cards("G10 J")


def test_holding_trump_does_not_excuse_following_the_led_suit() -> None:
    # Whatever the trump (say red), a hand with blue must follow blue: legal_plays needs no
    # trump, and the red 12 is refused.
    assert legal_plays("B7 R12", "B5") == cards("B7")
    assert judge_play("B7 R12", "B5", "R12").rule is PlayRule.MUST_FOLLOW


def test_legal_plays_lists_each_of_several_wizards() -> None:
    assert legal_plays("W W B7 R2", "B5") == cards("W W B7")


# -- who takes the trick ----------------------------------------------------------------


def test_first_wizard_wins_later_wizards_never_beat_it() -> None:
    why = explain_trick("B13 W R13 W", "R")
    assert why.rule is WinRule.FIRST_WIZARD
    assert why.winner == 1
    assert why.contenders == (1, 3)
    assert trick_winner("J W W W", None) == 1


def test_wizard_beats_highest_trump() -> None:
    assert trick_winner("R4 R12 R2 W", "R") == 3


def test_highest_trump_wins_without_wizard() -> None:
    why = explain_trick("B13 R2 R9 B12", "R")
    assert why.rule is WinRule.HIGHEST_TRUMP
    assert why.winner == 2
    assert why.contenders == (1, 2)


def test_any_trump_beats_the_highest_card_of_the_led_suit() -> None:
    assert trick_winner("B13 R1", "R") == 1


def test_highest_trump_wins_when_trump_is_also_led() -> None:
    why = explain_trick("R4 R12 R2", "R")
    assert (why.rule, why.winner) == (WinRule.HIGHEST_TRUMP, 1)


def test_highest_led_suit_wins_without_wizard_or_trump() -> None:
    why = explain_trick("G5 G11 Y13 G7", "R")
    assert why.rule is WinRule.HIGHEST_LED
    assert why.led_suit is Suit.GREEN
    assert why.winner == 1
    assert why.contenders == (0, 1, 3)


def test_higher_card_of_another_suit_does_not_win() -> None:
    assert trick_winner("G2 Y13 B13", None) == 0


def test_only_jesters_first_jester_wins() -> None:
    why = explain_trick("J J J J", "R")
    assert why.rule is WinRule.FIRST_JESTER
    assert why.winner == 0
    assert trick_winner("J J J", None) == 0


def test_jester_loses_to_any_number_card() -> None:
    assert trick_winner("J Y1", "R") == 1
    assert trick_winner("J J G1", None) == 2


def test_five_or_six_players_cannot_all_play_jesters() -> None:
    with pytest.raises(InvalidCardError, match="J appears 5 times"):
        trick_winner("J J J J J", None)


def test_wizards_and_jesters_keep_their_powers_without_trump() -> None:
    assert explain_trick("R13 W", None).rule is WinRule.FIRST_WIZARD
    assert trick_winner("J R2", None) == 1


def test_trick_winner_is_the_index_of_the_explained_winner() -> None:
    why = explain_trick("J B5 B11 B7", "R")
    assert trick_winner("J B5 B11 B7", "R") == why.winner == 2
    assert str(why.winning_card) == "B11"


# -- small cases from the sources (RULES.md, each one) -----------------------------------


def test_source_case_jester_jester_blue6_blue10_d_wins_and_had_to_follow_blue() -> None:
    # A Jester, B Jester, C B6, D B10: D wins; C's blue 6 set blue; D had to follow blue.
    assert trick_winner("J J B6 B10", "R") == 3
    assert led_suit("J J B6") is Suit.BLUE
    assert legal_plays("B10 R13 G1", "J J B6") == cards("B10")


def test_source_case_jester_then_wizard_b_wins_c_and_d_play_anything() -> None:
    assert lead_of("J W") == (Lead.WIZARD_FIRST, None)
    assert legal_plays("B10 R13 G1", "J W") == cards("B10 R13 G1")
    assert legal_plays("Y3 Y4", "J W B10") == cards("Y3 Y4")
    assert trick_winner("J W B10 Y3", "Y") == 1


def test_source_case_wizard_red13_wizard_jester_first_wizard_wins() -> None:
    # B's red 13 after the Wizard sets no suit: C may play anything.
    assert led_suit("W R13") is None
    assert legal_plays("W R2 B4", "W R13") == cards("W R2 B4")
    why = explain_trick("W R13 W J", "R")
    assert (why.rule, why.winner) == (WinRule.FIRST_WIZARD, 0)


def test_source_case_blue6_then_wizard_c_and_d_must_still_follow_blue() -> None:
    assert legal_plays("B2 R9 J", "B6 W") == cards("B2 J")
    assert legal_plays("B3 W G9", "B6 W B2") == cards("B3 W")
    assert legal_plays("R9 G9", "B6 W") == cards("R9 G9")  # no blue: anything


# -- helpers -----------------------------------------------------------------------------


def test_seats_go_clockwise_from_the_leader() -> None:
    assert list(seat_order(2, 4)) == [2, 3, 0, 1]
    assert list(seat_order(0, 3)) == [0, 1, 2]


def test_not_in_hand_is_judged_illegal() -> None:
    judgement = judge_play("B7 R12", "B5", "G10")
    assert judgement.rule is PlayRule.NOT_IN_HAND and not judgement.legal


# -- the trick states the round looks cards up in -------------------------------------------


def test_trick_states_are_the_rule_functions_tabulated() -> None:
    # Every state reachable from a trick's opening, for every trump: each table entry is
    # what the rule function says for that card (the round plays from these tables).
    for trump in (*Suit, None):
        seen: set[int] = set()
        todo = [opening_state(trump)]
        while todo:
            state = todo.pop()
            if id(state) in seen:
                continue
            seen.add(id(state))
            assert state.trump is trump
            for card in set(DECK):
                holding = play_rule(card, state.lead, state.suit, True)
                assert state.bound[card] is holding
                assert (card in state.legal_when_bound) is (holding not in ILLEGAL_RULES)
                assert (card in state.followers) is bool(followers_in([card], state.suit))
                assert state.free[card] == PlayJudgement(
                    card, play_rule(card, state.lead, state.suit, False), state.lead, state.suit, ()
                )
                after = state.after[card]
                assert (after.lead, after.suit) == lead_after(state.lead, state.suit, card)
                assert state.powers[card] == card_power(card, trump, after.suit)
                todo.append(after)
        # nothing played, only Jesters, a Wizard first, and each of the four led suits
        assert len(seen) == 7
