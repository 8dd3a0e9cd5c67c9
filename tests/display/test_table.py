"""The card table (tutor.display.table): seats clockwise around the felt from the viewer at
the bottom, the trick in front of the seats that played it, and scenes built from what the
engine says (a seat's view, a step of the worked example), never from a rule of its own."""

from __future__ import annotations

import math
import re
from collections import Counter

import pytest

from tutor.display.table import (
    SeatMark,
    SeatScene,
    TableScene,
    scene_from_step,
    scene_from_view,
    seat_side,
    table_html,
    trick_offset,
)
from tutor.rules.cards import Card
from tutor.rules.round import Round
from tutor.rules.variants import Rules
from tutor.teaching.text import text
from tutor.teaching.worked_example import Step, StepKind, worked_example

EXAMPLE = worked_example()


def plates(page: str) -> list[tuple[str, int]]:
    """(side, seat) of each seat plate, in the order the page lists them."""
    return [
        (side, int(seat))
        for side, seat in re.findall(r'class="tutor-seat side-(\w+)[^"]*" data-seat="(\d)"', page)
    ]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("bottom", [0, 2])
def test_seats_go_clockwise_from_the_viewer_at_the_bottom(players: int, bottom: int) -> None:
    """On screen, clockwise runs bottom -> left -> top -> right: the next player sits on
    the viewer's left, as at a real table seen from above."""
    angles = []
    for step in range(players):
        seat = (bottom + step) % players
        dx, dy = trick_offset(seat, players=players, bottom=bottom)
        side = seat_side(seat, players=players, bottom=bottom)
        expected = {"bottom": dy > 0.99, "top": dy < -0.25, "left": dx < -0.3, "right": dx > 0.3}
        assert expected[side], (seat, side, dx, dy)
        angles.append(math.atan2(dy, dx) % (2 * math.pi))
    unwrapped = [(angle - angles[0]) % (2 * math.pi) for angle in angles]
    assert unwrapped == sorted(unwrapped) and len(set(unwrapped)) == players  # clockwise


def test_the_left_column_reads_top_to_bottom_and_the_top_row_left_to_right() -> None:
    scene = TableScene(seats=tuple(SeatScene(name) for name in "ABCDEF"))
    assert plates(table_html(scene)) == [
        ("top", 3),
        ("left", 2),
        ("left", 1),
        ("right", 4),
        ("right", 5),
        ("bottom", 0),
    ]
    three = TableScene(seats=tuple(SeatScene(name) for name in "ABC"), bottom=1)
    assert plates(table_html(three)) == [("top", 2), ("top", 0), ("bottom", 1)]


def test_a_scene_refuses_seats_the_table_does_not_have() -> None:
    seats = tuple(SeatScene(name) for name in "ABCD")
    with pytest.raises(ValueError, match=r"seat numbers \[4\]"):
        TableScene(seats=seats, trick=((4, Card.parse("R9")),))
    with pytest.raises(ValueError, match="3 to 6 seats"):
        TableScene(seats=seats[:2])


def test_names_are_escaped_and_the_words_follow_the_language() -> None:
    seats = (
        SeatScene("<b>A</b>", dealer=True, mark=SeatMark.TO_PLAY),
        SeatScene("B"),
        SeatScene("C", bid=2),
    )
    page = table_html(TableScene(seats=seats), lang="ja")
    assert "<b>A</b>" not in page and "&lt;b&gt;A&lt;/b&gt;" in page
    for key in ("table.dealer", "table.mark-to-play", "table.bid-none"):
        assert text(key, "ja") in page
    assert text("table.bid", "ja", bid=2) in page


# -- scenes from the worked example -------------------------------------------------------------


DEALT = Counter(card for hand in EXAMPLE.steps[0].hands for card in hand)


@pytest.mark.parametrize("step", EXAMPLE.steps, ids=lambda step: f"step{step.number}")
def test_no_card_is_shown_twice_and_none_goes_missing(step: Step) -> None:
    """A card played lies on the table, no longer in its player's hand; a finished trick
    leaves the table once the next trick starts."""
    scene = scene_from_step(EXAMPLE, step)
    shown = Counter(card for seat in scene.seats for card in seat.cards or ())
    shown.update(card for _, card in scene.trick)
    assert not shown - DEALT  # nothing shown twice, nothing from outside the deal
    if step.trick_number is not None:
        collected = step.trick_number - 1
    else:
        collected = 0 if step.kind in (StepKind.DEAL, StepKind.BIDS) else len(EXAMPLE.round.tricks)
    assert shown.total() == DEALT.total() - len(EXAMPLE.players) * collected


def test_a_play_step_rings_the_card_in_front_of_its_player_and_lights_the_seat() -> None:
    for step in (s for s in EXAMPLE.steps if s.kind is StepKind.PLAY):
        scene = scene_from_step(EXAMPLE, step)
        played = step.played
        assert played is not None
        assert scene.trick[-1] == (played.seat, played.card) and scene.just_played == played.seat
        assert [seat.mark for seat in scene.seats].count(SeatMark.PLAYS) == 1
        assert scene.seats[played.seat].mark is SeatMark.PLAYS
        page = table_html(scene)
        new = re.findall(r'class="tutor-trick-card[^"]*is-new[^"]*" data-seat="(\d)"', page)
        assert new == [str(played.seat)]


def test_a_trick_step_marks_the_engines_winner_in_words_and_on_the_seat() -> None:
    tricks = [s for s in EXAMPLE.steps if s.kind is StepKind.TRICK]
    for step, trick in zip(tricks, EXAMPLE.round.tricks, strict=True):
        scene = scene_from_step(EXAMPLE, step)
        assert scene.winner == trick.winner
        assert scene.seats[trick.winner].mark is SeatMark.TAKES
        page = table_html(scene)
        winners = re.findall(r'class="tutor-trick-card is-winner[^"]*" data-seat="(\d)"', page)
        assert winners == [str(trick.winner)]
        name = EXAMPLE.players[trick.winner]
        assert f"{name} ★ {text('display.wins')}" in page
        assert f"{name} takes the trick." in page  # the trick's label for screen readers


def test_bids_appear_once_all_are_made_and_tricks_taken_as_they_are_won() -> None:
    deal, bids = (
        scene_from_step(EXAMPLE, EXAMPLE.steps[0]),
        scene_from_step(EXAMPLE, EXAMPLE.steps[1]),
    )
    assert [seat.bid for seat in deal.seats] == [None] * 4
    assert [seat.bid for seat in bids.seats] == [1, 2, 0, 0]
    last = scene_from_step(EXAMPLE, EXAMPLE.steps[-3])
    assert [seat.taken for seat in last.seats] == list(EXAMPLE.round.taken)
    assert [seat.dealer for seat in deal.seats] == [False, False, False, True]


# -- scenes from a seat's view -----------------------------------------------------------------


def test_a_seat_holding_one_card_says_1_card() -> None:
    scene = scene_from_view(Round(players=4, cards=1, dealer=3, seed=2).view(0))
    page = table_html(scene)
    assert page.count(">1 card<") == 3 and "1 cards" not in page


def test_a_seats_view_shows_other_hands_face_down_and_hidden_bids_hidden() -> None:
    rnd = Round(players=4, cards=3, dealer=3, seed=2, rules=Rules(bidding="hidden"))
    rnd.bid(1)
    rnd.bid(2)
    scene = scene_from_view(rnd.view(0))
    assert [seat.cards for seat in scene.seats] == [None] * 4  # the viewer's hand is drawn apart
    assert [seat.show_hand for seat in scene.seats] == [False, True, True, True]
    assert [(seat.bid, seat.bid_hidden) for seat in scene.seats] == [
        (1, False), (None, True), (None, False), (None, False)
    ]  # fmt: skip
    page = table_html(scene)
    assert "Bid 2" not in page and text("table.bid-hidden") in page
    assert page.count(text("table.cards-left", count=3)) == 3
    assert [seat.mark for seat in scene.seats] == [None, None, SeatMark.TO_BID, None]
