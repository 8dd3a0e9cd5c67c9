"""The score chart: each player's total after each round, as an SVG line chart drawn here.

Why our own small drawing rather than a plotting library: Matplotlib (and NumPy under it)
cannot be installed in the browser build of the course (Pyodide has no wheels for them
here), and importing it cost a lesson page most of a second. The pure-Python SVG chart
libraries name lines in a legend rather than at their ends, draw words in fixed colours,
and pygal loads its tooltips' script from another site; each would also add a package to
every learner's download. A chart of a few polylines needs none of that.

What a reader gets:

- a title (the figure's caption), both axes labelled, tick numbers written like the rest
  of the page (:func:`tutor.display.html.format_points`: the one minus sign);
- one line per player with its own dash pattern and marker shape as well as its colour,
  and the player's name at the line's end (names of close totals are moved apart and tied
  to their line by a thin leader);
- line colours with at least 3.5:1 contrast on a white page and on a dark one (#212121);
  words, axes and grid in the page's own text colour (``currentColor``) and no background,
  so light and dark themes both read;
- a ``viewBox``, so the chart scales with its container, up to the width of a column of
  text; the browser draws the words with the page's fonts, Japanese and Chinese included;
- ``role="img"`` with a name that says what it shows and every player's total now (the
  score sheet beside it holds every number).

>>> from tutor.rules.scoring import ScoreSheet
>>> sheet = ScoreSheet(players=3, names=["Ann", "Ben", "Cleo"])
>>> _ = sheet.record(bids=[1, 0, 1], taken=[1, 0, 0])
>>> figure = score_chart_html(sheet)
>>> figure.startswith("<figure"), "<svg" in figure, ">Ann<" in figure
(True, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from tutor.display.card_face import _n, _points
from tutor.display.html import format_points
from tutor.display.svg import _fit, _text_width
from tutor.rules.scoring import ScoreSheet
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, text

WIDTH = 400.0
HEIGHT = 250.0
"""The drawing's size in its own units (CSS pixels at full size): its words are about
11.5 px on a phone's 350 px column and 15.6 px at the largest size (:data:`MAX_WIDTH`)."""
MAX_WIDTH = "30rem"
FONT = 13.0
NAME_FONT = 13.0
NAME_GAP = 7.0
"""From a line's last point to the start of the player's name."""
MAX_NAME_WIDTH = 92.0
"""Longer names are shortened with an ellipsis (the full name is in the chart's name)."""

LINE_COLOURS = ("#2a7fd4", "#c75a00", "#008a63", "#b5549c", "#9a6f00", "#8e6bd6")
"""Blue, vermilion, green, purple, ochre, violet (after Okabe and Ito), darkened or
lightened to 3.5-4.6:1 on white and on #212121."""
DASHES = ("", "7 4", "2 3", "10 3 2 3", "4 4", "13 4")
"""A dash pattern per seat (the first solid): colour is never the only cue."""
MARKERS = ("circle", "square", "triangle", "diamond", "triangle-down", "plus")
MARKER_SIZE = 3.8


def _nice_step(span: float, ticks: int = 5) -> int:
    """A tick step of 1, 2 or 5 times a power of ten, giving about ``ticks`` ticks.

    >>> _nice_step(90), _nice_step(350), _nice_step(7)
    (20, 100, 2)
    """
    raw = max(span / ticks, 1.0)
    magnitude = 10 ** math.floor(math.log10(raw))
    return int(next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw))


def _marker(shape: str, x: float, y: float, colour: str) -> str:
    r = MARKER_SIZE
    if shape == "circle":
        return f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{colour}"/>'
    if shape == "square":
        corners = [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]
    elif shape == "triangle":
        corners = [(x, y - 1.3 * r), (x + 1.2 * r, y + 0.9 * r), (x - 1.2 * r, y + 0.9 * r)]
    elif shape == "triangle-down":
        corners = [(x, y + 1.3 * r), (x + 1.2 * r, y - 0.9 * r), (x - 1.2 * r, y - 0.9 * r)]
    elif shape == "diamond":
        corners = [(x, y - 1.4 * r), (x + 1.4 * r, y), (x, y + 1.4 * r), (x - 1.4 * r, y)]
    else:  # plus: a cross of two bars
        a, b = 1.3 * r, 0.45 * r
        corners = [
            (x - b, y - a),
            (x + b, y - a),
            (x + b, y - b),
            (x + a, y - b),
            (x + a, y + b),
            (x + b, y + b),
            (x + b, y + a),
            (x - b, y + a),
            (x - b, y + b),
            (x - a, y + b),
            (x - a, y - b),
            (x - b, y - b),
        ]
    return f'<polygon points="{_points(corners)}" fill="{colour}"/>'


def _spread(wanted: Sequence[float], gap: float, high: float) -> list[float]:
    """Label heights as close to ``wanted`` as they can be, at least ``gap`` apart, none
    below ``high`` if there is room (SVG: down is larger). Labels are pushed down below
    the one above them, then, if the last one went past ``high``, back up.

    >>> _spread([50, 52, 200], 15, 240), _spread([230, 236], 15, 240)
    ([50.0, 65.0, 200.0], [225.0, 240.0])
    """
    order = sorted(range(len(wanted)), key=lambda index: wanted[index])
    placed = [float(wanted[index]) for index in order]
    for k in range(1, len(placed)):
        placed[k] = max(placed[k], placed[k - 1] + gap)
    placed[-1] = min(placed[-1], max(float(high), wanted[order[-1]]))
    for k in range(len(placed) - 2, -1, -1):
        placed[k] = min(placed[k], placed[k + 1] - gap)
    result = [0.0] * len(placed)
    for rank, index in enumerate(order):
        result[index] = placed[rank]
    return [round(value, 2) for value in result]


@dataclass(frozen=True, slots=True)
class _Frame:
    """The plotting area in drawing units, and the rounds and points at its edges."""

    left: float
    right: float
    top: float
    bottom: float
    rounds: int
    low: int
    high: int
    step: int

    @classmethod
    def around(cls, series: Sequence[Sequence[int]], names: Sequence[str]) -> _Frame:
        """Room for the tick numbers at the left, the names at the right, and every
        total (and zero) between ticks of a round step."""
        lowest = min(0, *(min(points) for points in series))
        highest = max(0, *(max(points) for points in series))
        step = _nice_step(highest - lowest or 10)
        low, high = math.floor(lowest / step) * step, math.ceil(highest / step) * step
        high = high if high > low else low + step
        tick_width = max(_text_width(format_points(value), FONT) for value in (low, high))
        return cls(
            left=FONT * 1.6 + tick_width + 6,
            right=WIDTH - NAME_GAP - max(_text_width(name, NAME_FONT) for name in names) - 4,
            top=10.0,
            bottom=HEIGHT - FONT * 2.9,
            rounds=len(series[0]) - 1,
            low=low,
            high=high,
            step=step,
        )

    def x(self, round_number: float) -> float:
        return self.left + (self.right - self.left) * round_number / max(self.rounds, 1)

    def y(self, points: float) -> float:
        return self.bottom - (self.bottom - self.top) * (points - self.low) / (self.high - self.low)


def _axes(frame: _Frame, lang: str) -> str:
    """The grid (zero stands out), the tick numbers and both axes' labels."""
    y_ticks = range(frame.low, frame.high + 1, frame.step)
    x_step = 1 if frame.rounds <= 10 else 2  # a game has at most 20 rounds
    left, right, bottom = _n(frame.left), _n(frame.right), frame.bottom
    parts = ['<g class="grid" stroke="currentColor" stroke-width="1">']
    for value in y_ticks:
        opacity = "0.55" if value == 0 else "0.16"
        y = _n(frame.y(value))
        parts.append(
            f'<line x1="{left}" x2="{right}" y1="{y}" y2="{y}" stroke-opacity="{opacity}"/>'
        )
    parts.append(
        f'<line x1="{left}" x2="{left}" y1="{_n(frame.top)}" y2="{_n(bottom)}" '
        'stroke-opacity="0.55"/></g><g class="y-ticks" text-anchor="end" fill="currentColor">'
    )
    parts.extend(
        f'<text x="{_n(frame.left - 5)}" y="{_n(frame.y(value))}" dominant-baseline="central">'
        f"{format_points(value)}</text>"
        for value in y_ticks
    )
    parts.append('</g><g class="x-ticks" text-anchor="middle" fill="currentColor">')
    parts.extend(
        f'<text x="{_n(frame.x(number))}" y="{_n(bottom + FONT * 1.2)}">{number}</text>'
        for number in range(0, frame.rounds + 1, x_step)
    )
    x_label = escape(text("display.score-chart-x", lang))
    y_label = escape(text("display.score-chart-y", lang))
    middle = (frame.top + bottom) / 2
    parts.append(
        f'</g><text class="axis-label x-label" x="{_n((frame.left + frame.right) / 2)}" '
        f'y="{_n(HEIGHT - 4)}" text-anchor="middle" fill="currentColor">{x_label}</text>'
        f'<text class="axis-label y-label" transform="translate({_n(FONT * 0.9)} {_n(middle)}) '
        f'rotate(-90)" text-anchor="middle" fill="currentColor">{y_label}</text>'
    )
    return "".join(parts)


def _player_line(seat: int, points: Sequence[int], name: str, label_y: float, frame: _Frame) -> str:
    """One player's totals: the line in the seat's colour and dashes, a marker on each
    round, and the name at the end (``label_y``; tied to the line by a leader if moved)."""
    colour = LINE_COLOURS[seat % len(LINE_COLOURS)]
    dash = DASHES[seat % len(DASHES)]
    coordinates = [(frame.x(number), frame.y(value)) for number, value in enumerate(points)]
    polyline = _points(coordinates)
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    parts = [
        f'<g class="player-line"><polyline points="{polyline}" fill="none" '
        f'stroke="{colour}" stroke-width="2.4" stroke-linejoin="round"{dashes}/>'
    ]
    shape = MARKERS[seat % len(MARKERS)]
    parts.extend(_marker(shape, x, y, colour) for x, y in coordinates)
    end_x, end_y = coordinates[-1]
    if abs(label_y - end_y) > 1:
        parts.append(
            f'<line x1="{_n(end_x + MARKER_SIZE + 1)}" y1="{_n(end_y)}" '
            f'x2="{_n(end_x + NAME_GAP - 1)}" y2="{_n(label_y)}" stroke="{colour}" '
            'stroke-width="1.2"/>'
        )
    parts.append(
        f'<text class="player-name" x="{_n(end_x + NAME_GAP)}" y="{_n(label_y)}" '
        f'dominant-baseline="central" font-size="{_n(NAME_FONT)}" font-weight="600" '
        f'fill="currentColor">{escape(name)}</text></g>'
    )
    return "".join(parts)


def score_chart_svg(sheet: ScoreSheet, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The chart as an ``<svg>`` element: totals by round, one line per player.

    The output is the same for the same sheet, so notebooks stay stable. It has no
    background of its own and draws its words in the page's text colour, so a dark theme
    shows no white box:

    >>> from tutor.rules.scoring import ScoreSheet
    >>> sheet = ScoreSheet(players=3)
    >>> _ = sheet.record(bids=[1, 0, 1], taken=[1, 0, 0])
    >>> svg = score_chart_svg(sheet)
    >>> svg == score_chart_svg(sheet), svg.count('class="player-line"')
    (True, 3)
    >>> "#ffffff" in svg, "currentColor" in svg, "−10" in svg
    (False, True, True)
    """
    series = [[0, *(row.totals[seat] for row in sheet.rows)] for seat in range(sheet.players)]
    names = [_fit(name, NAME_FONT, MAX_NAME_WIDTH) for name in sheet.names]
    frame = _Frame.around(series, names)
    parts = [_axes(frame, lang)]
    label_ys = _spread([frame.y(points[-1]) for points in series], NAME_FONT * 1.2, frame.bottom)
    for seat, points in enumerate(series):
        parts.append(_player_line(seat, points, names[seat], label_ys[seat], frame))
    summary = escape(_summary(sheet, lang))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="score-chart-svg" role="img" '
        f'aria-label="{summary}" viewBox="0 0 {_n(WIDTH)} {_n(HEIGHT)}" width="100%" '
        f'font-size="{_n(FONT)}" style="display:block;max-width:{MAX_WIDTH};height:auto;'
        f'overflow:visible;font-family:inherit"><title>{summary}</title>'
        + "".join(parts)
        + "</svg>"
    )


def _summary(sheet: ScoreSheet, lang: str) -> str:
    totals = join_words(
        (
            f"{name} {format_points(total)}"
            for name, total in zip(sheet.names, sheet.totals, strict=True)
        ),
        lang,
    )
    return text("display.score-chart-label", lang, totals=totals)


def score_chart_html(sheet: ScoreSheet, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The chart in a ``<figure>`` whose caption is its title; an empty sheet gives an
    empty string (nothing to plot yet)."""
    if not sheet.rows:
        return ""
    title = escape(text("display.score-chart-title", lang))
    return (
        '<figure class="score-chart" style="margin:0.5em 0">'
        f'<figcaption style="font-weight:600;margin:0 0 0.3em">{title}</figcaption>'
        f"{score_chart_svg(sheet, lang=lang)}</figure>"
    )
