"""The score chart: each player's total after each round, as an inline SVG line chart.

Matplotlib is imported only when a chart is drawn, and never through ``pyplot``: the
figure gets its own Agg canvas, so drawing a chart changes no global backend or state.
Players differ by line style and marker as well as colour (Okabe-Ito palette), and the
legend names them. Text stays text in the SVG (``svg.fonttype: none``), so the browser
draws it with the page's fonts, including Japanese and Chinese.

>>> from tutor.rules.scoring import ScoreSheet
>>> sheet = ScoreSheet(players=3, names=["Ann", "Ben", "Cleo"])
>>> _ = sheet.record(bids=[1, 0, 1], taken=[1, 0, 0])
>>> figure = score_chart_html(sheet)
>>> figure.startswith("<figure"), "<svg" in figure, ">Ann<" in figure
(True, True, True)
"""

from __future__ import annotations

import io
import re
import warnings
from html import escape

from tutor.display.html import format_points
from tutor.rules.scoring import ScoreSheet
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, text

INK = "#000000"
"""Matplotlib's colour for words, ticks and the frame: drawn in the page's text colour."""
NEUTRAL = "#808080"
"""The zero line and the grid: mid grey, seen on light and dark pages."""
LINE_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")
LINE_STYLES = ("-", "--", "-.", ":", (0, (6, 2, 1, 2, 1, 2)), (0, (1, 1)))
MARKERS = ("o", "s", "^", "D", "v", "P")


def score_chart_svg(
    sheet: ScoreSheet, *, width: float = 6.4, height: float = 3.2, lang: str = DEFAULT_LANGUAGE
) -> str:
    """The chart as an SVG string (without the XML prolog), ``width`` × ``height`` inches.

    The output is the same for the same sheet (fixed ids, no date), so notebooks stay
    stable.

    >>> from tutor.rules.scoring import ScoreSheet
    >>> sheet = ScoreSheet(players=3)
    >>> _ = sheet.record(bids=[1, 0, 1], taken=[1, 0, 0])
    >>> score_chart_svg(sheet) == score_chart_svg(sheet)
    True

    It has no background of its own and draws its words in the page's text colour, so a
    dark theme shows no white box:

    >>> svg = score_chart_svg(sheet)
    >>> "#ffffff" in svg, "#000000" in svg, "currentColor" in svg
    (False, False, True)
    """
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    # Text as text (the browser's fonts draw any language); fixed ids: stable output.
    with matplotlib.rc_context(
        {
            "svg.fonttype": "none",
            "svg.hashsalt": "wizard-tutor",
            "font.family": ["sans-serif"],
            "font.size": 10,
        }
    ):
        figure = Figure(figsize=(width, height), layout="constrained")
        FigureCanvasAgg(figure)
        figure.patch.set_alpha(0)  # no white box on a dark page: the page shows through
        axes = figure.add_subplot()
        axes.set_facecolor("none")
        rounds = list(range(0, len(sheet.rows) + 1))
        for seat, name in enumerate(sheet.names):
            totals = [0, *(row.totals[seat] for row in sheet.rows)]
            axes.plot(
                rounds,
                totals,
                label=name,
                color=LINE_COLOURS[seat % len(LINE_COLOURS)],
                linestyle=LINE_STYLES[seat % len(LINE_STYLES)],
                marker=MARKERS[seat % len(MARKERS)],
                linewidth=2,
                markersize=6,
            )
        axes.axhline(0, color=NEUTRAL, linewidth=0.8)
        axes.set_xlabel(text("display.score-chart-x", lang))
        axes.set_ylabel(text("display.score-chart-y", lang))
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        axes.grid(True, color=NEUTRAL, alpha=0.35, linewidth=0.6)
        axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        buffer = io.StringIO()
        no_metadata = {"Date": None, "Creator": None, "Format": None, "Type": None}
        with warnings.catch_warnings():
            # Matplotlib measures Japanese and Chinese labels with a font that lacks them,
            # and warns; the browser draws the text (fonttype none), with its own fonts.
            warnings.filterwarnings("ignore", "Glyph .* missing from font", UserWarning)
            figure.savefig(buffer, format="svg", metadata=no_metadata)
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg") :]
    # Matplotlib's <style> sets "*{...}" for the whole page once inlined; the same settings
    # on the root element reach only the chart (both properties inherit).
    svg = re.sub(r"\s*<style[^>]*>.*?</style>", "", svg, count=1, flags=re.DOTALL)
    # Words, ticks and frame in the page's text colour, so light and dark themes both read.
    svg = svg.replace(INK, "currentColor")
    return svg.replace("<svg ", '<svg style="stroke-linejoin:round;stroke-linecap:butt" ', 1)


def score_chart_html(sheet: ScoreSheet, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The chart in a ``<figure>`` with a caption, described in words for screen readers
    (every player's total now); an empty sheet gives an empty string."""
    if not sheet.rows:
        return ""
    totals = join_words((
        f"{name} {format_points(total)}"
        for name, total in zip(sheet.names, sheet.totals, strict=True)
    ), lang)
    summary = text("display.score-chart-label", lang, totals=totals)
    return (
        '<figure class="score-chart" style="margin:0.5em 0">'
        f'<div role="img" aria-label="{escape(summary)}">'
        f"{score_chart_svg(sheet, lang=lang)}</div>"
        f"<figcaption>{escape(text('display.score-chart-title', lang))}</figcaption>"
        "</figure>"
    )
