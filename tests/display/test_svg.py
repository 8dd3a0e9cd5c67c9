"""The display layer's pictures and HTML views: every card says what it is in text and
shape (never colour alone), pictures are well-formed SVG with no outside resources, the
trick's winner mark sits where the engine says, and the HTML views show the engine's
numbers and reasons."""

from __future__ import annotations

import itertools
import random
import re
import xml.etree.ElementTree as ET

import pytest

from tutor.display.card_face import (
    JESTER_STYLE,
    SUIT_STYLES,
    WIZARD_STYLE,
    SuitStyle,
    card_classes,
)
from tutor.display.html import (
    MINUS,
    SHEET_NARROW_CLASS,
    SHEET_SWITCH_CSS,
    SHEET_WIDE_CLASS,
    format_points,
    round_html,
    score_sheet_html,
)
from tutor.display.svg import card_svg, face_down_svg, hand_svg, trick_svg
from tutor.display.words import words_html
from tutor.errors import InvalidCardError, InvalidPlayersError
from tutor.rules.cards import DECK, Card, Suit, parse_cards
from tutor.rules.round import Round
from tutor.rules.scoring import ScoreSheet
from tutor.rules.trick import explain_trick, trick_winner
from tutor.teaching.explain import card_name, describe_reveal, describe_trick
from tutor.teaching.text import text

SVG = "{http://www.w3.org/2000/svg}"
DISTINCT_CARDS = list(dict.fromkeys(DECK))


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def shown(text_element: ET.Element) -> str:
    """The words a <text> element shows (its <title>, a tooltip, left out)."""
    return ((text_element.text or "") + "".join(c.tail or "" for c in text_element)).strip()


def texts(element: ET.Element) -> list[str]:
    """The visible words of a picture: every <text> element's shown words."""
    return [shown(t) for t in element.iter(f"{SVG}text")]


def card_groups(root: ET.Element) -> list[ET.Element]:
    """The cards of a hand or trick picture, in drawing order."""
    return [g for g in root.iter(f"{SVG}g") if "card" in classes(g)]


def translate_x(group: ET.Element) -> float:
    match = re.fullmatch(r"translate\(([-\d.]+) [-\d.]+\)", group.get("transform", ""))
    assert match, group.get("transform")
    return float(match.group(1))


# -- one card ------------------------------------------------------------------------------


def test_the_deck_has_54_different_pictures_to_draw() -> None:
    assert len(DISTINCT_CARDS) == 54  # 52 number cards, the Wizard and the Jester
    assert len(DECK) == 60


@pytest.mark.parametrize("card", DISTINCT_CARDS, ids=str)
def test_every_card_shows_its_rank_and_letter_and_says_what_it_is(card: Card) -> None:
    root = parse(card_svg(card))
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert root.get("aria-label") == card_name(card)
    assert root.findtext(f"{SVG}title") == card_name(card)
    shown = texts(root)
    if card.is_number:
        assert classes(root) == {"card", "number", f"suit-{card.suit}", f"rank-{card.rank}"}
        assert str(card.rank) in shown and card.suit.value in shown
        shapes = [e for e in root.iter() if "suit-symbol" in classes(e)]
        assert shapes and all(SUIT_STYLES[card.suit].shape in classes(e) for e in shapes)
    else:
        kind = "wizard" if card.is_wizard else "jester"
        assert classes(root) == {"card", kind}
        assert str(card) in shown  # "W" or "J"
        emblem = "hat" if card.is_wizard else "cap"
        assert any(emblem in classes(e) for e in root.iter())


def test_every_deck_card_renders_for_the_engines_deck_in_a_hand() -> None:
    root = parse(hand_svg(DECK, per_row=10))
    groups = card_groups(root)
    assert [g.get("class") for g in groups] == [card_classes(card) for card in DECK]
    assert [g.get("aria-label") for g in groups] == [card_name(card) for card in DECK]
    assert all(g.get("role") == "img" for g in groups)


def test_suits_differ_in_outline_not_only_in_colour() -> None:
    outlines = {}
    for suit in Suit:
        root = parse(card_svg(Card.number(suit, 5)))
        shape = next(e for e in root.iter() if "suit-symbol" in classes(e))
        # The drawing itself (element kinds and geometry), colours removed.
        drawing = ET.tostring(shape, encoding="unicode")
        outlines[suit] = re.sub(r'(fill|stroke)="#[0-9a-f]{6}"', "", drawing)
    assert len(set(outlines.values())) == 4
    assert len({style.shape for style in SUIT_STYLES.values()}) == 4


def relative_luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("style", [*SUIT_STYLES.values(), WIZARD_STYLE, JESTER_STYLE])
def test_rank_and_letter_have_aaa_contrast_on_the_card_face(style: SuitStyle) -> None:
    assert contrast(style.ink, style.tint) >= 7.0


@pytest.mark.parametrize("style", [*SUIT_STYLES.values(), WIZARD_STYLE, JESTER_STYLE])
def test_card_outline_stands_out_on_a_white_page(style: SuitStyle) -> None:
    assert max(contrast(style.edge, "#ffffff"), contrast(style.tint, "#ffffff")) >= 3.0


def test_suit_colours_differ_in_lightness_too() -> None:
    """Shapes and letters carry the suit; lightness keeps the colours apart for readers
    who cannot tell the hues (red/green)."""
    fills = sorted((style.fill for style in SUIT_STYLES.values()), key=relative_luminance)
    assert all(contrast(a, b) >= 1.35 for a, b in itertools.pairwise(fills))


def test_highlight_adds_a_ring_and_dimmed_fades_but_words_stay() -> None:
    plain = parse(card_svg("R9"))
    lit = parse(card_svg("R9", highlight=True))
    faded = parse(card_svg("R9", dimmed=True, label="may not be played"))
    assert not [e for e in plain.iter() if "highlight-ring" in classes(e)]
    assert len([e for e in lit.iter() if "highlight-ring" in classes(e)]) == 1
    assert "is-highlighted" in classes(lit) and "is-dimmed" in classes(faded)
    veils = [e for e in faded.iter() if "dim-veil" in classes(e)]
    assert len(veils) == 1 and float(veils[0].get("fill-opacity")) < 1
    assert not any(e.get("opacity") for e in faded.iter())  # opaque: readable on dark pages
    assert " ".join(texts(faded)[5:]) == "may not be played"  # after 9 R 9 R 9
    assert texts(plain) == texts(lit)  # the ring changes no words


def test_scale_sizes_the_picture_for_a_projector() -> None:
    small, large = parse(card_svg("B11")), parse(card_svg("B11", scale=2.5))
    assert float(large.get("width")) == pytest.approx(2.5 * float(small.get("width")))
    assert float(large.get("height")) == pytest.approx(2.5 * float(small.get("height")))
    assert large.get("viewBox") == small.get("viewBox")
    with pytest.raises(ValueError, match="invalid scale 0"):
        card_svg("B11", scale=0)


def test_face_down_card_shows_no_suit_or_rank() -> None:
    root = parse(face_down_svg())
    assert classes(root) == {"card", "back"}
    assert root.get("aria-label") == text("display.card-back")
    assert texts(root) == []


@pytest.mark.parametrize("picture", [card_svg("W"), hand_svg("R9 J"), trick_svg("B5 W", winner=1)])
def test_pictures_load_nothing_from_outside(picture: str) -> None:
    without_namespace = picture.replace('xmlns="http://www.w3.org/2000/svg"', "")
    for outside in ("http", "href", "url(", "@import", "<image", "@font-face"):
        assert outside not in without_namespace
    assert 'font-family="system-ui' in picture


def test_pictures_need_no_ids_so_many_fit_on_one_page() -> None:
    assert " id=" not in trick_svg("J B5 B11 B7", winner=2, players="ABCD")


def test_bad_card_notation_is_refused_with_the_engines_error() -> None:
    with pytest.raises(InvalidCardError, match="'R14'"):
        card_svg("R14")
    with pytest.raises(InvalidCardError, match="'X3'"):
        hand_svg("R9 X3")


# -- hands and tricks ---------------------------------------------------------------------


def test_hand_keeps_the_given_order_and_marks_chosen_positions() -> None:
    root = parse(hand_svg("W R9 B2 J", highlight=[1], dimmed=[3], labels=["a", "b", "c", "d"]))
    groups = card_groups(root)
    assert [card_name(c) for c in parse_cards("W R9 B2 J")] == [g.get("aria-label") for g in groups]
    assert ["is-highlighted" in classes(g) for g in groups] == [False, True, False, False]
    assert ["is-dimmed" in classes(g) for g in groups] == [False, False, False, True]
    labels = [t for t in root.iter(f"{SVG}text") if "label" in classes(t)]
    assert [shown(t) for t in labels] == ["a", "b", "c", "d"]
    assert root.get("role") == "group"
    assert root.get("aria-label") == text("display.hand", cards="Wizard, red 9, blue 2, Jester")


def test_long_hand_wraps_onto_rows() -> None:
    root = parse(hand_svg(DECK[:20], per_row=10))
    ys = {g.get("transform", "").split()[1] for g in card_groups(root)}
    assert len(ys) == 2


TRICKS = [
    ("J B5 B11 B7", "R"),
    ("R4 R12 R2 W", "R"),
    ("W R13 W J", None),
    ("J J B6 B10", "Y"),
    ("J J J", "G"),
    ("G3 B13 G1 Y2 B1", "B"),
]


def random_tricks(count: int) -> list[tuple[list[Card], Suit | None]]:
    rng = random.Random(2024)
    tricks = []
    for _ in range(count):
        deck = list(DECK)
        rng.shuffle(deck)
        size = rng.randint(3, 6)
        tricks.append((deck[:size], rng.choice([*Suit, None])))
    return tricks


@pytest.mark.parametrize(
    ("plays", "trump"), [(parse_cards(p), t) for p, t in TRICKS] + random_tricks(40)
)
def test_winner_mark_sits_under_the_card_the_engine_names(
    plays: list[Card], trump: Suit | str | None
) -> None:
    players = [f"P{i}" for i in range(len(plays))]
    winner = trick_winner(plays, trump)
    root = parse(trick_svg(plays, winner=winner, players=players))
    groups = card_groups(root)
    assert [g.get("aria-label") for g in groups] == [card_name(c) for c in plays]
    ringed = [i for i, g in enumerate(groups) if "winner" in classes(g)]
    assert ringed == [winner]
    assert len([e for e in root.iter() if "highlight-ring" in classes(e)]) == 1
    marks = [e for e in root.iter() if "winner-mark" in classes(e)]
    assert len(marks) == 1
    word = next(t for t in marks[0].iter(f"{SVG}text"))
    assert shown(word) == text("display.wins")
    # The word sits within the winning card's slot, not its neighbours'.
    left = translate_x(groups[winner])
    assert left <= float(word.get("x")) <= left + 114
    assert f"{players[winner]} takes the trick" in root.get("aria-label")


def test_trick_names_each_player_under_their_card_in_play_order() -> None:
    root = parse(trick_svg("J B5 B11 B7", players=["Ann", "Ben", "Cleo", "Dev"]))
    names = [
        (shown(t), float(t.get("x"))) for t in root.iter(f"{SVG}text") if "player" in classes(t)
    ]
    assert [name for name, _ in names] == ["Ann", "Ben", "Cleo", "Dev"]
    assert [x for _, x in names] == sorted(x for _, x in names)
    assert not [e for e in root.iter() if "winner-mark" in classes(e)]


def test_long_names_are_shortened_but_kept_whole_in_the_title() -> None:
    root = parse(trick_svg("B5 B6 B7", players=["Bartholomew-Maximilian", "B", "C"], scale=0.5))
    first = next(t for t in root.iter(f"{SVG}text") if "player" in classes(t))
    assert first.findtext(f"{SVG}title") == "Bartholomew-Maximilian"
    assert shown(first).endswith("…") and len(shown(first)) < 16
    assert "Bartholomew-Maximilian" in root.get("aria-label")


@pytest.mark.parametrize("scale", [0.375, 0.6, 1.0])
def test_a_name_as_wide_as_a_card_is_never_cut_under_a_small_card(scale: float) -> None:
    """「A（あなた）」 under a small trick card: the cards move apart to make room."""
    names = ["A（あなた）", "B", "C"]
    root = parse(trick_svg("B5 B6 B7", players=names, winner=0, scale=scale, lang="ja"))
    labels = [shown(t) for t in root.iter(f"{SVG}text") if "player" in classes(t)]
    assert labels == names
    assert "…" not in shown(
        next(t for t in root.iter(f"{SVG}text") if "winner-label" in classes(t))
    )


def test_trick_refuses_a_winner_or_names_that_do_not_fit() -> None:
    with pytest.raises(InvalidCardError, match=r"winner \[4\] out of range"):
        trick_svg("J B5 B11 B7", winner=4)
    with pytest.raises(InvalidPlayersError, match="3 player names for 4 cards"):
        trick_svg("J B5 B11 B7", players="ABC")


def test_engine_values_draw_themselves_lazily() -> None:
    assert parse(Card.parse("G7")._repr_svg_()).get("aria-label") == "green 7"
    rnd = Round(hands=["J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10"], turned="R9", dealer=3)
    for amount in (1, 2, 0, 0):
        rnd.bid(amount)
    for card in parse_cards("J B5 B11 B7"):
        rnd.play(card)
    trick = rnd.tricks[0]
    root = parse(trick._repr_svg_())
    winner = [i for i, g in enumerate(card_groups(root)) if "winner" in classes(g)]
    assert winner == [trick.explanation.winner]
    assert "<section" in rnd._repr_html_()


# -- HTML views ---------------------------------------------------------------------------


def test_points_use_a_real_minus_sign() -> None:
    assert format_points(-30) == f"{MINUS}30"
    assert format_points(30, signed=True) == "+30"
    assert format_points(0, signed=True) == "0"


def test_score_sheet_table_shows_bid_taken_points_and_totals_per_round() -> None:
    sheet = ScoreSheet(players=3, names=["Ann", "Ben", "Cleo"])
    sheet.record(bids=[1, 0, 1], taken=[1, 0, 0], cards=1)
    sheet.record(bids=[0, 2, 1], taken=[1, 0, 1], cards=2)
    box = ET.fromstring(score_sheet_html(sheet))
    assert box.get("role") == "region" and "overflow-x:auto" in box.get("style", "")
    table = box.find("table")
    assert table is not None
    caption = table.find("caption")
    assert caption is not None and "".join(caption.itertext()) == text("display.score-caption")
    header = [th.text for th in table.find("thead").iter("th")]
    assert header[2:5] == ["Ann", "Ben", "Cleo"]
    rows = table.find("tbody").findall("tr")
    assert len(rows) == 2
    for row, cells in zip(sheet.rows, rows, strict=True):
        data = [td.text for td in cells.findall("td")]
        assert data[0] == str(row.cards)
        for seat in range(3):
            bid_taken, points, total = data[1 + 3 * seat : 4 + 3 * seat]
            assert bid_taken == f"{row.bids[seat]} → {row.taken[seat]}"
            assert points == format_points(row.points[seat], signed=True)
            assert total == format_points(row.totals[seat])
    foot = [td.text for td in table.find("tfoot").iter("td")]
    assert [cell.split()[0] for cell in foot] == [format_points(t) for t in sheet.totals]
    leaders = sheet.leaders()
    assert [("★" in cell) for cell in foot] == [seat in leaders for seat in range(3)]
    assert all(th.get("scope") for th in table.iter("th"))


def test_a_phones_score_sheet_is_one_column_a_player_with_the_same_numbers() -> None:
    """``narrow=True``: the whole sheet, and the same sheet one column a player (bid →
    taken, points and total one under another in each cell), for a phone."""
    sheet = ScoreSheet(players=3, names=["Ann", "Ben", "Cleo"])
    sheet.record(bids=[1, 0, 1], taken=[1, 0, 0], cards=1)
    sheet.record(bids=[0, 2, 1], taken=[1, 0, 1], cards=2)
    both = ET.fromstring(f"<div>{score_sheet_html(sheet, narrow=True)}</div>")
    wide, narrow = both.findall("div")
    assert wide.get("class") == SHEET_WIDE_CLASS and narrow.get("class") == SHEET_NARROW_CLASS
    assert ET.tostring(wide.find("div")) == ET.tostring(ET.fromstring(score_sheet_html(sheet)))
    table = narrow.find("div/table")
    assert table is not None and table.get("class") == "score-sheet-narrow"
    assert [th.text for th in table.find("thead/tr").findall("th")][1:] == ["Ann", "Ben", "Cleo"]
    rows = table.find("tbody").findall("tr")
    assert len(rows) == 2
    for number, (row, cells) in enumerate(zip(sheet.rows, rows, strict=True), start=1):
        assert cells.find("th").text == str(number)
        tds = cells.findall("td")
        assert len(tds) == 3  # one column a player
        for seat, td in enumerate(tds):
            lines = [span.text for span in td.findall("span")]
            assert lines == [
                f"{row.bids[seat]} → {row.taken[seat]}",
                format_points(row.points[seat], signed=True),
                format_points(row.totals[seat]),
            ]
    foot = table.find("tfoot/tr").findall("td")
    assert [td.text for td in foot] == [format_points(t) for t in sheet.totals]
    leaders = sheet.leaders()
    assert [("★" in "".join(td.itertext())) for td in foot] == [s in leaders for s in range(3)]
    # the page shows one form, by the width of the box they are in
    assert f".{SHEET_NARROW_CLASS} {{ display: none; }}" in SHEET_SWITCH_CSS
    assert "@container (max-width:" in SHEET_SWITCH_CSS


def test_empty_score_sheet_says_so() -> None:
    table = ET.fromstring(score_sheet_html(ScoreSheet(players=4))).find("table")
    assert text("display.score-no-rounds") in "".join(table.find("tbody").itertext())


def worked_round(plays: int) -> Round:
    rnd = Round(
        hands=["J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10"],
        turned="R9",
        dealer=3,
        names=["Ann", "Ben", "Cleo", "Dev"],
    )
    for amount in (1, 2, 0, 0):
        rnd.bid(amount)
    for card in parse_cards("J B5 B11 B7 R4 R12 R2 W G3 J G10 G8")[:plays]:
        rnd.play(card)
    return rnd


def test_round_view_shows_trump_hands_bids_and_the_engines_reasons() -> None:
    rnd = worked_round(9)
    page = round_html(rnd)
    section = ET.fromstring(page)  # well-formed markup, SVG included
    assert section.tag == "section"
    assert words_html(describe_reveal(rnd.reveal)) in page
    for trick in rnd.tricks:
        reason = describe_trick(trick.explanation, [rnd.names[s] for s in trick.seats])
        assert words_html(reason) in page
    seats = section.find("table").find("tbody").findall("tr")
    for seat, row in enumerate(seats):
        cells = row.findall("td")
        assert cells[1].text == str(rnd.bids[seat])
        assert cells[2].text == str(rnd.taken[seat])
        drawn = [g.get("aria-label") for g in card_groups(cells[0])] if len(cells[0]) else []
        assert drawn == [card_name(card) for card in rnd.hands[seat]]
    assert text("display.round-current-trick", number=3) in page


def test_round_view_for_one_seat_hides_the_other_hands() -> None:
    rnd = worked_round(0)
    page = round_html(rnd, seat=2)
    assert page.count('class="hand"') == 1
    assert page.count(text("display.round-hand-hidden", count=3)) == 3


def test_a_round_of_one_card_says_card_not_cards() -> None:
    """Round 1 deals one card each: "Round of 1 card each", "1 card, face down"."""
    rnd = Round(players=4, cards=1, dealer=0, seed=2)
    page = round_html(rnd, seat=1)
    assert "Round of 1 card each" in page and "1 card, face down" in page
    assert not re.search(r"\b1 cards\b", page)


def test_round_view_hides_secret_bids_from_onlookers() -> None:
    from tutor.rules.variants import Rules

    rnd = Round(players=3, cards=2, dealer=0, seed=5, rules=Rules(bidding="secret"))
    rnd.bid(1)
    page = round_html(rnd)
    assert text("display.round-bid-hidden") in page
    assert text("display.round-bid-none") in page


def test_finished_round_view_gives_each_players_points() -> None:
    rnd = worked_round(12)
    page = round_html(rnd)
    points = ", ".join(
        f"{name} {format_points(score, signed=True)}"
        for name, score in zip(rnd.names, rnd.scores(), strict=True)
    )
    assert text("display.round-finished", points=points) in page
    assert (
        explain_trick(rnd.tricks[-1].cards, rnd.trump).winner == rnd.tricks[-1].explanation.winner
    )
