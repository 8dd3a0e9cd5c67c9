"""The worked example as steps (tutor.teaching.worked_example); its stepper is
tests/display/test_stepper.py.

The expected facts are those of RULES.md, "The worked example (4 players, round 3)" and
its three-round score table; the steps must get every one of them from the engine.
"""

from __future__ import annotations

import pytest

from tutor.rules.cards import parse_cards
from tutor.rules.trick import WinRule, judge_play
from tutor.teaching.explain import describe_play, describe_score
from tutor.teaching.text import LANGUAGES
from tutor.teaching.worked_example import StepKind, worked_example

EXAMPLE = worked_example()
STEPS = EXAMPLE.steps
PLAY_STEPS = [step for step in STEPS if step.kind is StepKind.PLAY]
TRICK_STEPS = [step for step in STEPS if step.kind is StepKind.TRICK]

# RULES.md: the cards of each trick in the order played, with who played them.
PLAYS_BY_TRICK = (
    (("A", "J"), ("B", "B5"), ("C", "B11"), ("D", "B7")),
    (("C", "R4"), ("D", "R12"), ("A", "R2"), ("B", "W")),
    (("B", "G3"), ("C", "J"), ("D", "G10"), ("A", "G8")),
)
# RULES.md "why": C and D hold blue so they follow; D and A hold red so they follow, B holds
# no red; C holds no green and lets it pass with the Jester; D and A hold green.
HAD_TO_FOLLOW = (
    (False, False, True, True),
    (False, True, True, False),
    (False, False, True, True),
)


def test_steps_go_deal_bids_then_each_card_and_trick_then_scores() -> None:
    trick = [StepKind.PLAY] * 4 + [StepKind.TRICK]
    expected = [
        StepKind.DEAL,
        StepKind.BIDS,
        *trick,
        *trick,
        *trick,
        StepKind.TAKEN,
        StepKind.ROUND_SCORES,
        StepKind.SCORE_SHEET,
        StepKind.MISTAKES,
    ]
    assert [step.kind for step in STEPS] == expected
    assert [step.number for step in STEPS] == list(range(1, len(STEPS) + 1))


def test_deal_step_shows_the_hands_of_rules_md_red_9_turned_red_trump() -> None:
    deal = STEPS[0]
    assert [" ".join(map(str, hand)) for hand in deal.hands] == [
        "J R2 G8",
        "B5 W G3",
        "B11 R4 J",
        "B7 R12 G10",
    ]
    assert str(EXAMPLE.turned) == "R9" and EXAMPLE.trump is not None
    assert EXAMPLE.trump.value == "R"
    assert EXAMPLE.players[EXAMPLE.dealer] == "D"
    assert "red is trump" in " ".join(deal.sentences)
    assert "A bids first and leads the first trick" in " ".join(deal.sentences)
    assert deal.bids is None  # nobody has bid yet


def test_bids_step_lists_bids_from_the_dealers_left() -> None:
    bids = STEPS[1]
    assert bids.bids == (1, 2, 0, 0)
    assert bids.sentences[0] == "Bids, starting left of the dealer: A 1, B 2, C 0, D 0."


def test_cards_are_played_in_the_order_and_by_the_players_of_rules_md() -> None:
    played = [(step.played.player, str(step.played.card)) for step in PLAY_STEPS if step.played]
    assert played == [play for trick in PLAYS_BY_TRICK for play in trick]
    for step in PLAY_STEPS:
        assert step.trick_number is not None
        # The table shows the trick so far, ending with this card.
        assert [(p.player, str(p.card)) for p in step.table] == list(
            PLAYS_BY_TRICK[step.trick_number - 1][: len(step.table)]
        )


@pytest.mark.parametrize("index", range(12))
def test_each_card_says_whether_the_player_had_to_follow_and_why(index: int) -> None:
    step = PLAY_STEPS[index]
    trick, position = divmod(index, 4)
    assert step.had_to_follow is HAD_TO_FOLLOW[trick][position]
    played = step.played
    assert played is not None and step.active_seat == played.seat
    # The judgement is the engine's, on the hand and trick just before the card.
    hand = step.hands[played.seat]
    before = [play.card for play in step.table[:-1]]
    judgement = judge_play(hand, before, played.card)
    assert judgement.legal
    assert step.judgement == judgement
    assert step.sentences[1] == describe_play(judgement, played.player)
    follow = step.sentences[0]
    assert follow.startswith("Had to follow")
    assert ("Yes:" in follow) is HAD_TO_FOLLOW[trick][position]


def test_follow_reasons_name_the_cards_that_bind() -> None:
    sentences = {
        (step.played.player, str(step.played.card)): step.sentences[0]
        for step in PLAY_STEPS
        if step.played
    }
    assert sentences[("C", "B11")] == "Had to follow blue? Yes: C holds blue 11."
    assert sentences[("B", "W")] == "Had to follow red? No: B holds no red card."
    assert sentences[("C", "J")] == "Had to follow green? No: C holds no green card."
    assert sentences[("B", "B5")].endswith("only Jesters so far, so no suit is set yet.")


def test_tricks_are_won_by_c_with_blue_11_b_with_the_wizard_d_with_green_10() -> None:
    winners = [
        (step.table[step.winner].player, str(step.table[step.winner].card))
        for step in TRICK_STEPS
        if step.winner is not None
    ]
    assert winners == [("C", "B11"), ("B", "W"), ("D", "G10")]
    reasons = [step.sentences[0] for step in TRICK_STEPS]
    assert reasons[0].startswith("C takes the trick with blue 11")
    assert "highest blue card" in reasons[0]
    assert reasons[1].startswith("B takes the trick with the Wizard")
    assert reasons[2].startswith("D takes the trick with green 10")
    rules = [trick.explanation.rule for trick in EXAMPLE.round.tricks]
    assert rules == [WinRule.HIGHEST_LED, WinRule.FIRST_WIZARD, WinRule.HIGHEST_LED]
    assert [step.sentences[1] for step in TRICK_STEPS] == [
        "C leads the next trick.",
        "B leads the next trick.",
        "That was the last trick of the round.",
    ]


def test_hands_lose_one_card_per_play_and_are_empty_at_the_end() -> None:
    sizes = [sum(len(hand) for hand in step.hands) for step in STEPS]
    assert sizes[0] == 12
    for step in PLAY_STEPS:  # a play step shows the hands before its card leaves
        assert step.played is not None and step.played.card in step.hands[step.played.seat]
    assert sizes[-1] == 0


def test_tricks_taken_0_1_1_1_and_every_player_scores_minus_10() -> None:
    taken = next(step for step in STEPS if step.kind is StepKind.TAKEN)
    assert taken.taken == (0, 1, 1, 1)
    assert taken.sentences[0] == "Tricks taken: A 0, B 1, C 1, D 1 (3 in all, one per trick)."
    scores = next(step for step in STEPS if step.kind is StepKind.ROUND_SCORES)
    assert [(line.player, line.bid, line.taken, line.points) for line in scores.score_lines] == [
        ("A", 1, 0, -10),
        ("B", 2, 1, -10),
        ("C", 0, 1, -10),
        ("D", 0, 1, -10),
    ]
    for line in scores.score_lines:
        assert line.formula == describe_score(line.bid, line.taken)


def test_score_sheet_over_three_rounds_is_a_40_b_10_c_0_d_30() -> None:
    sheet_step = next(step for step in STEPS if step.kind is StepKind.SCORE_SHEET)
    sheet = sheet_step.sheet
    assert sheet is not None
    assert [row.points for row in sheet.rows] == [
        (20, 30, 20, 20),
        (30, -10, -10, 20),
        (-10, -10, -10, -10),
    ]
    assert sheet.totals == (40, 10, 0, 30)
    assert sheet_step.sentences[-1] == "A leads with 40 points."


def test_the_example_ends_with_the_two_scoring_mistakes_of_the_source() -> None:
    """B's one trick earns nothing when the bid was 2; D's met bid of 0 scores 20."""
    last = STEPS[-1]
    assert last.kind is StepKind.MISTAKES and last.sheet is not None
    b_round_3 = last.sheet.rows[2]
    assert (b_round_3.bids[1], b_round_3.taken[1], b_round_3.points[1]) == (2, 1, -10)
    d_round_2 = last.sheet.rows[1]
    assert (d_round_2.bids[3], d_round_2.taken[3], d_round_2.points[3]) == (0, 0, 20)
    missed, zero = last.sentences
    assert missed.startswith("B bid 2 in round 3 and took 1: 1 off, so −10.")
    assert "not +10 first" in missed
    assert zero == "D bid 0 in round 2 and took none: the bid is met, so D scores 20, not 0."
    for lang in LANGUAGES:
        words = worked_example(lang).steps[-1]
        assert [sentence.count("−10") for sentence in words.sentences] == [2, 0]
        assert all("20" in sentence for sentence in words.sentences[1:])


def test_card_lists_in_the_data_are_valid_notation() -> None:
    from tutor.teaching import worked_example as module

    cards = [card for hand in module.HANDS for card in parse_cards(hand)]
    assert len(cards) == 12 and len(parse_cards(" ".join(module.TRICKS))) == 12
    assert sorted(map(str, cards)) == sorted(" ".join(module.TRICKS).split())
