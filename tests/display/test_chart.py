"""The score chart (tutor.display.chart): an SVG drawn by the tutor, read back here as a
reader would read it: the title, the axes, one named line per player, and the values
where the axes' own numbers say they are."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest

from tutor.display.chart import LINE_COLOURS, score_chart_html, score_chart_svg
from tutor.display.html import MINUS, format_points
from tutor.rules.scoring import ScoreSheet
from tutor.teaching.text import text

SVG = "{http://www.w3.org/2000/svg}"


def _sheet(names: list[str], rounds: list[tuple[list[int], list[int]]]) -> ScoreSheet:
    sheet = ScoreSheet(players=len(names), names=names)
    for bids, taken in rounds:
        sheet.record(bids=bids, taken=taken)
    return sheet


# Four players over five rounds: totals spread above and below zero, two of them ending
# close together (their names must not overlap).
GAME = _sheet(
    ["Ann", "Ben", "Cleo", "Dan"],
    [
        ([1, 0, 1, 0], [1, 0, 0, 1]),
        ([0, 2, 0, 1], [0, 1, 1, 1]),
        ([1, 1, 0, 1], [1, 1, 0, 1]),
        ([2, 0, 2, 0], [1, 0, 3, 0]),
        ([0, 3, 1, 1], [0, 3, 1, 1]),
    ],
)


def _svg(sheet: ScoreSheet, lang: str = "en") -> ET.Element:
    return ET.fromstring(score_chart_svg(sheet, lang=lang))


def _number(words: str) -> int:
    return int(words.replace(MINUS, "-"))


def _points(element: ET.Element) -> list[tuple[float, float]]:
    """The points of a polyline or polygon."""
    return [
        (float(x), float(y))
        for x, y in (pair.split(",") for pair in element.attrib["points"].split())
    ]


def _scale(ticks: list[ET.Element], coordinate: str) -> tuple[float, float]:
    """The linear map from values to positions that the axis' tick labels show:
    position = a + b * value, from the first and last tick."""
    first, last = ticks[0], ticks[-1]
    v1, v2 = _number(first.text or ""), _number(last.text or "")
    p1, p2 = float(first.attrib[coordinate]), float(last.attrib[coordinate])
    slope = (p2 - p1) / (v2 - v1)
    return p1 - slope * v1, slope


def test_the_figure_has_a_title_and_the_chart_a_name_that_says_every_total() -> None:
    figure = ET.fromstring(score_chart_html(GAME))
    assert figure.tag == "figure"
    caption, svg = list(figure)
    assert caption.tag == "figcaption" and caption.text == text("display.score-chart-title")
    assert svg.attrib["role"] == "img"
    name = svg.attrib["aria-label"]
    assert svg.find(f"{SVG}title") is not None
    assert svg.find(f"{SVG}title").text == name  # type: ignore[union-attr]
    for player, total in zip(GAME.names, GAME.totals, strict=True):
        assert f"{player} {format_points(total)}" in name
    assert score_chart_html(ScoreSheet(players=3)) == ""  # nothing to draw yet


@pytest.mark.parametrize("lang", ["en", "ja", "zh-Hant"])
def test_both_axes_are_labelled_in_the_learners_language(lang: str) -> None:
    svg = _svg(GAME, lang)
    labels = {
        element.attrib["class"].split()[-1]: element.text
        for element in svg.iter(f"{SVG}text")
        if "axis-label" in element.attrib.get("class", "")
    }
    assert labels == {
        "x-label": text("display.score-chart-x", lang),
        "y-label": text("display.score-chart-y", lang),
    }
    assert text("display.score-chart-title", lang) in score_chart_html(GAME, lang=lang)


def test_one_line_per_player_with_the_players_name_at_its_end() -> None:
    svg = _svg(GAME)
    lines = [group for group in svg.iter(f"{SVG}g") if group.attrib.get("class") == "player-line"]
    assert len(lines) == GAME.players
    name_ys = []
    for seat, line in enumerate(lines):
        points = _points(line.find(f"{SVG}polyline"))  # type: ignore[arg-type]
        assert len(points) == len(GAME.rows) + 1  # the start at 0, then every round
        label = line.find(f"{SVG}text")
        assert label is not None and label.text == GAME.names[seat]
        end_x, end_y = points[-1]
        assert float(label.attrib["x"]) > end_x  # right of the line's last point
        label_y = float(label.attrib["y"])
        if abs(label_y - end_y) > 1:  # moved apart from a neighbour: a leader ties it
            leader = line.find(f"{SVG}line")
            assert leader is not None and float(leader.attrib["y2"]) == label_y
        name_ys.append(label_y)
    name_ys.sort()
    font = float(svg.attrib["font-size"])
    assert all(b - a >= font for a, b in pairwise(name_ys))


def test_the_values_are_plotted_where_the_axes_say() -> None:
    svg = _svg(GAME)
    y_ticks = list(next(g for g in svg.iter(f"{SVG}g") if g.attrib.get("class") == "y-ticks"))
    x_ticks = list(next(g for g in svg.iter(f"{SVG}g") if g.attrib.get("class") == "x-ticks"))
    y_at, y_per_point = _scale(y_ticks, "y")
    x_at, x_per_round = _scale(x_ticks, "x")
    assert y_per_point < 0 < x_per_round  # up is more points, right is later rounds
    values = [_number(tick.text or "") for tick in y_ticks]
    assert values == sorted(values) and min(values) <= min(min(r.totals) for r in GAME.rows)
    assert max(values) >= max(max(r.totals) for r in GAME.rows)
    lines = [g for g in svg.iter(f"{SVG}g") if g.attrib.get("class") == "player-line"]
    for seat, line in enumerate(lines):
        totals = [0, *(row.totals[seat] for row in GAME.rows)]
        points = _points(line.find(f"{SVG}polyline"))  # type: ignore[arg-type]
        for number, (total, (x, y)) in enumerate(zip(totals, points, strict=True)):
            assert x == pytest.approx(x_at + x_per_round * number, abs=0.15)
            assert y == pytest.approx(y_at + y_per_point * total, abs=0.15)


def test_negative_numbers_use_the_pages_minus_sign() -> None:
    svg = score_chart_svg(GAME)
    ticks = re.findall(r'dominant-baseline="central">([^<]*)</text>', svg)
    assert any(tick.startswith(MINUS) for tick in ticks)
    assert not any(tick.startswith("-") for tick in ticks)


def test_colour_is_never_the_only_cue() -> None:
    six = _sheet([f"P{seat}" for seat in range(6)], [([0] * 6, [0, 1, 0, 1, 0, 1])])
    svg = _svg(six)
    lines = [g for g in svg.iter(f"{SVG}g") if g.attrib.get("class") == "player-line"]
    dashes, shapes, colours = set(), set(), set()
    for line in lines:
        polyline = line.find(f"{SVG}polyline")
        assert polyline is not None
        dashes.add(polyline.attrib.get("stroke-dasharray", "solid"))
        colours.add(polyline.attrib["stroke"])
        # the first point's marker: a circle, or a polygon told by its corners' offsets
        x0, y0 = _points(polyline)[0]
        marker = line[1]
        shapes.add(
            "circle"
            if marker.tag == f"{SVG}circle"
            else tuple((round(x - x0), round(y - y0)) for x, y in _points(marker))
        )
    assert len(dashes) == len(shapes) == len(colours) == 6


def _luminance(colour: str) -> float:
    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


@pytest.mark.parametrize("page", ["#ffffff", "#212121"])
def test_lines_keep_their_contrast_on_light_and_dark_pages(page: str) -> None:
    for colour in LINE_COLOURS:
        high, low = sorted((_luminance(colour), _luminance(page)), reverse=True)
        assert (high + 0.05) / (low + 0.05) >= 3.5, colour  # WCAG: 3:1 for graphics
    svg = score_chart_svg(GAME)
    # words, axes and grid in the page's colour; no background box of its own
    assert "currentColor" in svg and "<rect" not in svg and "#ffffff" not in svg


def test_the_chart_scales_with_its_container() -> None:
    svg = _svg(GAME)
    assert svg.attrib["width"] == "100%" and "height" not in svg.attrib
    assert re.fullmatch(r"0 0 \d+ \d+", svg.attrib["viewBox"])
    assert "height:auto" in svg.attrib["style"] and "max-width" in svg.attrib["style"]


def test_names_are_escaped_and_long_ones_shortened_but_kept_whole_in_words() -> None:
    long_name = "Maximiliane-Josephine von Hohenzollern"
    sheet = _sheet(["<b>Ann</b>", long_name, "Cleo"], [([1, 0, 1], [1, 0, 0])])
    svg = score_chart_svg(sheet)
    assert "<b>" not in svg and "&lt;b&gt;Ann&lt;/b&gt;" in svg
    root = ET.fromstring(svg)
    shown = [t.text for t in root.iter(f"{SVG}text") if t.attrib.get("class") == "player-name"]
    assert shown[1] is not None and shown[1].endswith("…") and len(shown[1]) < len(long_name)
    assert long_name in root.attrib["aria-label"]


def test_a_game_without_points_still_draws_a_zero_line() -> None:
    sheet = _sheet(["A", "B", "C"], [([1, 1, 1], [0, 0, 0]), ([0, 0, 0], [1, 1, 1])])
    svg = _svg(sheet)  # every total -10, then -20: the axis still shows 0
    y_ticks = next(g for g in svg.iter(f"{SVG}g") if g.attrib.get("class") == "y-ticks")
    assert "0" in [tick.text for tick in y_ticks]
