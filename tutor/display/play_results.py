"""What the play screen says of the round played: what happened since the learner's last
move (:func:`latest_html`), the whole round's story (:func:`story_html`) and, once the round
is scored, each player's result with how they scored in words (:func:`round_results_html`).

The words are the session's (:meth:`tutor.play.session.PlaySession.log`,
:meth:`~tutor.play.session.PlaySession.results`): this module only lays them out. The end
of a whole game has a panel of its own (:mod:`tutor.display.game_result`).

>>> from tutor.play.session import PlaySession
>>> session = PlaySession(players=3, seed=2, cards=1)
>>> "<li>" in story_html(session.log(), lang="en")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from tutor.display.html import HEAD_STYLE, caption_html, format_points, scroll_box
from tutor.display.play_style import (
    CELL_STYLE,
    PLAY_CLASS,
    TABLE_STYLE,
    heading_html,
    lines_html,
)
from tutor.play.session import SeatResult
from tutor.teaching.narrate import LogEntry
from tutor.teaching.text import text


def latest_html(entries: Sequence[LogEntry], *, lang: str) -> str:
    """The side panel's "since your last move": a heading and the entries as a list."""
    return heading_html(text("play-screen.latest", lang)) + lines_html(
        [entry.text for entry in entries], klass=f"{PLAY_CLASS}-latest"
    )


def story_html(entries: Sequence[LogEntry], *, lang: str) -> str:
    """The whole round's story, folded away under its summary line."""
    return (
        f'<details class="{PLAY_CLASS}-history"><summary>'
        f"{escape(text('play-screen.history', lang))}</summary>"
        + lines_html([entry.text for entry in entries], klass=f"{PLAY_CLASS}-log")
        + "</details>"
    )


def round_results_html(results: Sequence[SeatResult], *, lang: str) -> str:
    """The scored round: each player's bid, tricks taken and points on one row and, under
    them, how they scored in words. The sentence has the table's width, so the results fit
    a phone.

    >>> result = SeatResult(seat=0, name="A (you)", bid=1, taken=1, points=30, how="30 = 20 + 10")
    >>> page = round_results_html([result], lang="en")
    >>> 'data-seat="0"' in page, "+30" in page, "30 = 20 + 10" in page
    (True, True, True)
    """
    rows = "".join(
        f'<tr data-seat="{result.seat}"><th scope="row" rowspan="2" '
        f'style="{HEAD_STYLE};text-align:left;vertical-align:top">{escape(result.name)}</th>'
        f'<td style="{CELL_STYLE}">{result.bid}</td><td style="{CELL_STYLE}">{result.taken}</td>'
        f'<td style="{CELL_STYLE};white-space:nowrap">'
        f"{escape(format_points(result.points, signed=True))}</td></tr>"
        f'<tr class="{PLAY_CLASS}-how"><td colspan="3" style="{CELL_STYLE};text-align:left">'
        f"{escape(result.how, quote=False)}</td></tr>"
        for result in results
    )
    heads = "".join(
        f'<th scope="col" style="{HEAD_STYLE}">{escape(text(f"play-screen.summary-{key}", lang))}'
        "</th>"
        for key in ("player", "bid", "taken", "points")
    )
    caption = text("play-screen.round-over", lang)
    return scroll_box(
        f'<table class="{PLAY_CLASS}-results" style="{TABLE_STYLE}">'
        f"{caption_html(caption)}<thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>",
        label=caption,
    )
