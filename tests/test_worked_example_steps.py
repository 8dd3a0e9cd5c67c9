"""The worked example as steps (tutor.worked_example) and its stepper (tutor.display.stepper).

The expected facts are those of RULES.md, "The worked example (4 players, round 3)" and
its three-round score table; the steps must get every one of them from the engine.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tutor.cards import parse_cards
from tutor.display.course import course_entries, course_index_html
from tutor.display.stepper import (
    NEXT_CLASS,
    Stepper,
    presenter_requested,
    worked_example_stepper,
    worked_step_html,
)
from tutor.explain import describe_play, describe_score
from tutor.trick import WinRule, judge_play
from tutor.worked_example import StepKind, worked_example

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
    sheet = STEPS[-1].sheet
    assert sheet is not None
    assert [row.points for row in sheet.rows] == [
        (20, 30, 20, 20),
        (30, -10, -10, 20),
        (-10, -10, -10, -10),
    ]
    assert sheet.totals == (40, 10, 0, 30)
    assert STEPS[-1].sentences[-1] == "A leads with 40 points."


# -- the stepper (display layer) ------------------------------------------------------------


def test_stepper_moves_within_bounds() -> None:
    stepper = Stepper(3, lambda index, present: f"<p>{index} {present}</p>")
    stepper.back()
    assert stepper.index == 0
    stepper.next()
    stepper.next()
    stepper.next()
    assert stepper.index == 2 and stepper.page_html() == "<p>2 False</p>"
    stepper.set_present(True)
    assert stepper.page_html() == "<p>2 True</p>"
    with pytest.raises(ValueError, match="no step 3"):
        stepper.go(3)
    with pytest.raises(ValueError, match="at least one step"):
        Stepper(0, lambda index, present: "")


def test_stepper_widget_buttons_step_and_disable_at_the_ends() -> None:
    stepper = worked_example_stepper(present=False)
    box = stepper.widget
    assert "tutor-stepper" in box._dom_classes
    back, next_ = stepper._back, stepper._next
    assert NEXT_CLASS in next_._dom_classes
    assert back.disabled and not next_.disabled
    assert "Round 3: the deal" in stepper._page.value
    for _ in range(len(STEPS) - 1):
        next_.click()
    assert stepper.index == len(STEPS) - 1 and next_.disabled and not back.disabled
    assert stepper._position.value == "<span>Step 20 of 20</span>"
    assert "score-sheet" in stepper._page.value
    back.click()
    assert "round-scores" in stepper._page.value
    stepper._present_toggle.value = True
    assert stepper.present and "tutor-present" in box._dom_classes


def test_presenter_mode_draws_larger_cards() -> None:
    step = TRICK_STEPS[0]
    normal = worked_step_html(EXAMPLE, step, present=False)
    large = worked_step_html(EXAMPLE, step, present=True)

    def trick_width(page: str) -> float:
        start = page.index('class="trick"')
        tag = page[page.rindex("<svg", 0, start) : page.index(">", start)]
        return float(tag.split('width="')[1].split('"')[0])

    assert trick_width(large) >= 1.4 * trick_width(normal)


def test_presenter_requested_reads_the_query_string(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "present=1")
    assert presenter_requested()
    assert worked_example_stepper().present
    monkeypatch.setenv("QUERY_STRING", "")
    assert not presenter_requested()


def test_stepper_module_asks_no_rule_module() -> None:
    """The display layer shows steps; rules stay in the engine (tutor.worked_example asks)."""
    source = Path(__file__).parent.parent / "tutor" / "display" / "stepper.py"
    imported = {
        node.module
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module
    }
    rule_modules = {
        "tutor.trick",
        "tutor.round",
        "tutor.scoring",
        "tutor.rules",
        "tutor.trump",
        "tutor.game",
        "tutor.schedule",
    }
    assert imported & rule_modules == set()
    assert "tutor.worked_example" in imported


# -- the course index ----------------------------------------------------------------------


def test_course_index_lists_notebooks_in_order_with_app_and_presenter_links(
    tmp_path: Path,
) -> None:
    for name in ("02_trump.ipynb", "01_cards.ipynb", "index.ipynb", "08_worked_example.ipynb"):
        (tmp_path / name).write_text('{"cells": [], "metadata": {}}', encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a notebook", encoding="utf-8")
    entries = course_entries(tmp_path, lessons=["Cards", "Trump"])
    assert [(entry.file, entry.title) for entry in entries] == [
        ("01_cards.ipynb", "Cards"),
        ("02_trump.ipynb", "Trump"),
        ("08_worked_example.ipynb", "08 worked example"),
    ]
    page = course_index_html(tmp_path, lessons=["Cards", "Trump"])
    assert page.index('href="01_cards.ipynb?lang=en"') < page.index('href="02_trump.ipynb?lang=en"')
    assert 'href="02_trump.ipynb?present=1&amp;lang=en"' in page
    assert 'class="tutor-open" href="index.ipynb' not in page  # only the language links


def test_worked_example_notebook_titles_itself_from_the_catalog() -> None:
    notebooks = Path(__file__).parent.parent / "notebooks"
    titles = {entry.file: entry.title for entry in course_entries(notebooks)}
    assert titles["08_worked_example.ipynb"] == "The worked example: one round, card by card"


def test_card_lists_in_the_data_are_valid_notation() -> None:
    from tutor import worked_example as module

    cards = [card for hand in module.HANDS for card in parse_cards(hand)]
    assert len(cards) == 12 and len(parse_cards(" ".join(module.TRICKS))) == 12
    assert sorted(map(str, cards)) == sorted(" ".join(module.TRICKS).split())
