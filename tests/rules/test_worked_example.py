"""RULES.md "The worked example (4 players, round 3)", replayed through Round with its
explicit deal: seats 0-3 are A-D clockwise, D (seat 3) deals, R9 is turned."""

from __future__ import annotations

import pytest

from tutor.rules.cards import Suit, parse_card, parse_cards
from tutor.rules.round import CardPlayed, Phase, Round
from tutor.rules.scoring import ScoreSheet
from tutor.rules.trick import PlayRule, WinRule
from tutor.teaching.explain import describe_play, describe_trick

NAMES = ("A", "B", "C", "D")
HANDS = ("J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10")
BIDS = (1, 2, 0, 0)
TRICKS = ("J B5 B11 B7", "R4 R12 R2 W", "G3 J G10 G8")
# The rule that allowed each card, in play order (leader first), trick by trick.
PLAY_RULES = (
    (PlayRule.LEADS, PlayRule.NO_SUIT_YET, PlayRule.FOLLOWS_SUIT, PlayRule.FOLLOWS_SUIT),
    (PlayRule.LEADS, PlayRule.FOLLOWS_SUIT, PlayRule.FOLLOWS_SUIT, PlayRule.WIZARD_ANY_TIME),
    (PlayRule.LEADS, PlayRule.JESTER_ANY_TIME, PlayRule.FOLLOWS_SUIT, PlayRule.FOLLOWS_SUIT),
)


def new_round() -> Round:
    return Round(hands=HANDS, turned="R9", dealer=3, names=NAMES)


def bid(rnd: Round) -> None:
    for amount in BIDS:
        rnd.bid(amount)


def played_round() -> Round:
    rnd = new_round()
    bid(rnd)
    for trick in TRICKS:
        for card in trick.split():
            rnd.play(card)
    return rnd


def test_red_9_turned_red_is_trump_and_the_9_stays_on_the_stock() -> None:
    rnd = new_round()
    assert rnd.trump is Suit.RED
    assert rnd.turned == parse_card("R9")
    assert all(parse_card("R9") not in hand for hand in rnd.hands)
    assert [len(hand) for hand in rnd.hands] == [3, 3, 3, 3]


def test_a_left_of_dealer_d_bids_first_then_clockwise() -> None:
    rnd = new_round()
    assert rnd.to_act == 0
    bid(rnd)
    assert rnd.final_bids == BIDS
    assert rnd.phase is Phase.PLAYING and rnd.to_act == 0  # A leads trick 1


def test_trick_winners_are_c_b_d() -> None:
    rnd = played_round()
    assert [trick.winner for trick in rnd.tricks] == [2, 1, 3]
    assert [trick.leader for trick in rnd.tricks] == [0, 2, 1]
    assert [trick.cards for trick in rnd.tricks] == [tuple(parse_cards(t)) for t in TRICKS]
    assert [trick.plays[0][0] for trick in rnd.tricks] == [0, 2, 1]  # (seat, card) pairs


def test_trick_reasons_as_rules() -> None:
    rnd = played_round()
    assert all(trick.reason == trick.explanation for trick in rnd.tricks)
    assert all(trick.explanation.winner == trick.winning_index for trick in rnd.tricks)
    first, second, third = (trick.reason for trick in rnd.tricks)
    assert (first.rule, first.led_suit, first.trump) == (WinRule.HIGHEST_LED, Suit.BLUE, Suit.RED)
    assert (second.rule, str(second.winning_card)) == (WinRule.FIRST_WIZARD, "W")
    assert (third.rule, third.led_suit) == (WinRule.HIGHEST_LED, Suit.GREEN)
    assert [str(first.cards[i]) for i in first.contenders] == ["B5", "B11", "B7"]


def test_trick_reasons_in_english() -> None:
    rnd = played_round()
    sentences = [
        describe_trick(trick.explanation, [NAMES[seat] for seat in trick.seats])
        for trick in rnd.tricks
    ]
    assert sentences == [
        "C takes the trick with blue 11: nobody played a Wizard or a trump, "
        "so the highest blue card wins.",
        "B takes the trick with the Wizard: the first Wizard played always wins.",
        "D takes the trick with green 10: nobody played a Wizard or a trump, "
        "so the highest green card wins.",
    ]


def test_each_card_is_judged_by_the_rule_rules_md_gives() -> None:
    rnd = played_round()
    plays = [event for event in rnd.events if isinstance(event, CardPlayed)]
    rules = [event.judgement.rule for event in plays]
    assert rules == [rule for trick in PLAY_RULES for rule in trick]
    # B's blue 5 sets blue for the rest of trick 1
    assert plays[1].judgement.card == parse_card("B5")
    assert plays[2].judgement.led_suit is Suit.BLUE


@pytest.mark.parametrize(
    ("before", "seat", "card", "rule"),
    [
        # trick 1: C and D hold blue, so a red or green number card would break follow-suit
        ("J B5", 2, "R4", PlayRule.MUST_FOLLOW),
        ("J B5 B11", 3, "R12", PlayRule.MUST_FOLLOW),
        ("J B5 B11", 3, "G10", PlayRule.MUST_FOLLOW),
        # trick 2: D and A hold red and must follow; B holds no red, so anything goes
        ("J B5 B11 B7 R4", 3, "G10", PlayRule.MUST_FOLLOW),
        ("J B5 B11 B7 R4 R12", 0, "G8", PlayRule.MUST_FOLLOW),
        ("J B5 B11 B7 R4 R12 R2", 1, "G3", PlayRule.CANNOT_FOLLOW),
        ("J B5 B11 B7 R4", 3, "B7", PlayRule.NOT_IN_HAND),
    ],
)
def test_what_else_the_players_could_have_played(
    before: str, seat: int, card: str, rule: PlayRule
) -> None:
    rnd = new_round()
    bid(rnd)
    for earlier in before.split():
        rnd.play(earlier)
    assert rnd.to_act == seat
    assert rnd.judge(card).rule is rule


def test_b_holds_no_red_and_may_play_anything_in_trick_2() -> None:
    rnd = new_round()
    bid(rnd)
    for card in parse_cards("J B5 B11 B7 R4 R12 R2"):
        rnd.play(card)
    assert rnd.legal_plays() == parse_cards("W G3")
    sentence = describe_play(rnd.judge("W"), "B")
    assert sentence == (
        "B may play the Wizard: a Wizard may be played at any time, "
        "even by a player who could follow."
    )


def test_tricks_taken_0_1_1_1_and_every_bid_missed() -> None:
    rnd = played_round()
    assert rnd.finished
    assert rnd.taken == rnd.tricks_taken == (0, 1, 1, 1)
    assert sum(rnd.taken) == 3
    assert rnd.scores() == (-10, -10, -10, -10)


def test_three_round_score_table() -> None:
    sheet = ScoreSheet(players=4, names=NAMES)
    round_3 = played_round()
    rounds = [  # (bids, taken) by seat A-D, rounds 1 and 2 from the table, round 3 played
        ((0, 1, 0, 0), (0, 1, 0, 0)),
        ((1, 1, 0, 0), (1, 0, 1, 0)),
        (round_3.final_bids, round_3.taken),
    ]
    rows = [
        sheet.record(bids=bids, taken=taken, cards=number)
        for number, (bids, taken) in enumerate(rounds, start=1)
    ]
    assert [row.points for row in rows] == [
        (20, 30, 20, 20),
        (30, -10, -10, 20),
        (-10, -10, -10, -10),
    ]
    assert rows[2].points == round_3.scores()
    assert sheet.totals == (40, 10, 0, 30)
    assert sheet.leaders() == [0]
