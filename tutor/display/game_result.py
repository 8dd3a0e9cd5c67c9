"""The end of a game on the play screen: a result panel that cannot be missed.

Once the last round is scored (or the single round, when the learner plays one), the panel
takes the hand's place under the table: a heading ("The game is over"), who won (ties share:
"C and D win with 110 points."), the final totals from first to last with each player's
bids met ("4 of 5 rounds", from the engine's score sheet) and the winners marked in words
(★ wins), not by colour alone; then two buttons, "Play again" (a new deal) and "Same deal
again" (the same seed: a rematch, or a class playing one game). The heading and the winners
are a status region, so a screen reader says them when they appear.

The panel draws and forwards, like ipywidgets' own widgets: what the buttons do is the play
screen's (:meth:`tutor.display.play.PlayScreen.play_again`).

>>> from tutor.play.session import PlaySession
>>> session = PlaySession(players=3, seed=2, cards=1)
>>> panel = GameResult()
>>> panel.show(session)
>>> panel.layout.display, panel.words.value
('none', '')
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import ipywidgets as widgets

from tutor.display.html import format_points
from tutor.display.visibility import set_visible
from tutor.display.widgets.html_widget import html_widget
from tutor.display.widgets.quiz_style import quiz_button
from tutor.play.session import PlaySession
from tutor.rules.scoring import ScoreSheet
from tutor.teaching.text import DEFAULT_LANGUAGE, text, text_for_count

RESULT_CLASS = "tutor-play-result"
"""CSS class of the panel; its parts add a suffix (``-words``, ``-standings``, ...)."""

# A box of its own with a heavier frame than the page's other parts; the standings are a
# narrow table that takes the panel's width (a phone's 360 px included) and wraps its words
# between words (between phrases in Japanese), never sideways.
RESULT_CSS = f"""<style>
.{RESULT_CLASS} {{ border: 2px solid currentColor; border-radius: 0.4rem;
  padding: 0.3rem 0.8rem 0.5rem; margin: 0.5rem 0; max-width: 34rem; min-width: 0; }}
.{RESULT_CLASS} h2 {{ font-size: 1.3rem; margin: 0.2rem 0; }}
.{RESULT_CLASS} p {{ margin: 0.2rem 0 0.4rem; font-size: 1.05em; }}
.{RESULT_CLASS} table {{ width: 100%; border-collapse: collapse;
  font-variant-numeric: tabular-nums; margin: 0.2rem 0 0.4rem; }}
.{RESULT_CLASS} caption {{ text-align: left; font-weight: 700; padding-bottom: 0.2em; }}
.{RESULT_CLASS} th, .{RESULT_CLASS} td {{ padding: 0.25em 0.4em; text-align: left;
  border-bottom: 1px solid #8a8a8a; vertical-align: top;
  word-break: keep-all; overflow-wrap: anywhere; }}
.{RESULT_CLASS} th:lang(ja), .{RESULT_CLASS} td:lang(ja) {{ word-break: auto-phrase; }}
.{RESULT_CLASS} .place, .{RESULT_CLASS} .total {{ text-align: right; white-space: nowrap; }}
.{RESULT_CLASS} tr.is-winner {{ font-weight: 700; }}
.{RESULT_CLASS} .{RESULT_CLASS}-mark {{ white-space: nowrap; }}
.{RESULT_CLASS} .{RESULT_CLASS}-buttons {{ flex-wrap: wrap; }}
</style>"""


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line of the final standings."""

    seat: int
    name: str
    place: int
    """1 for the best total; players with equal totals share a place (1, 1, 3)."""
    total: int
    bids_met: int
    rounds: int
    won: bool


def standings(sheet: ScoreSheet) -> tuple[Standing, ...]:
    """The players from the highest total to the lowest (equal totals in seat order), with
    their bids met, all from the engine's score sheet.

    >>> sheet = ScoreSheet(players=3)
    >>> _ = sheet.record(bids=[1, 0, 0], taken=[0, 0, 1])
    >>> [(s.name, s.place, s.total, s.bids_met, s.won) for s in standings(sheet)]
    [('B', 1, 20, 1, True), ('A', 2, -10, 0, False), ('C', 2, -10, 0, False)]
    """
    totals = sheet.totals
    met = sheet.bids_met()
    winners = set(sheet.leaders()) if sheet.rows else set()
    order = sorted(range(sheet.players), key=lambda seat: (-totals[seat], seat))
    return tuple(
        Standing(
            seat=seat,
            name=sheet.names[seat],
            place=1 + sum(total > totals[seat] for total in totals),
            total=totals[seat],
            bids_met=met[seat],
            rounds=len(sheet.rows),
            won=seat in winners,
        )
        for seat in order
    )


def game_result_html(session: PlaySession, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The result of a finished ``session`` in words: the heading and the winners (a status
    region), then the final standings as a narrow table.

    >>> session = PlaySession(players=3, seed=2, cards=1)
    >>> _ = session.bid(0)
    >>> _ = session.play(session.view().legal_plays[0])
    >>> page = game_result_html(session)
    >>> 'role="status"' in page, "<h2>The round is over</h2>" in page, page.count("<tr")
    (True, True, 4)
    """
    whole = session.game is not None
    heading = text("play-screen.result-game" if whole else "play-screen.result-round", lang)
    mark = f"★ {text('display.score-winner', lang)}"
    rows = []
    for standing in standings(session.score_sheet()):
        met = text_for_count(
            "play-screen.result-met-count",
            standing.rounds,
            lang,
            met=standing.bids_met,
            rounds=standing.rounds,
        )
        won = f' <span class="{RESULT_CLASS}-mark">{escape(mark)}</span>' if standing.won else ""
        winner = ' class="is-winner"' if standing.won else ""
        rows.append(
            f'<tr data-seat="{standing.seat}"{winner}>'
            f'<td class="place">{standing.place}</td>'
            f'<th scope="row">{escape(standing.name)}{won}</th>'
            f'<td class="total">{escape(format_points(standing.total))}</td>'
            f'<td class="met">{escape(met)}</td></tr>'
        )
    heads = "".join(
        f'<th scope="col" class="{key}">{escape(text(f"play-screen.{word}", lang))}</th>'
        for key, word in (
            ("place", "result-place"),
            ("player", "summary-player"),
            ("total", "summary-points"),
            ("met", "result-met"),
        )
    )
    return (
        f'<div class="{RESULT_CLASS}-words" role="status"><h2>{escape(heading)}</h2>'
        f"<p><strong>{escape(session.winners_text())}</strong></p></div>"
        f'<table class="{RESULT_CLASS}-standings">'
        f"<caption>{escape(text('play-screen.result-caption', lang))}</caption>"
        f"<thead><tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


class GameResult(widgets.VBox):  # type: ignore[misc]
    """The result panel: :attr:`words` (:func:`game_result_html`), then
    :attr:`play_again_button` and :attr:`same_deal_button`. Hidden until a session is
    over (:meth:`show`)."""

    def __init__(self, *, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = lang
        self.words = html_widget()
        self.play_again_button = quiz_button(
            text("play-screen.play-again", lang),
            text("play-screen.play-again-tooltip", lang),
            button_style="primary",
        )
        self.same_deal_button = quiz_button(text("play-screen.same-deal", lang))
        buttons = widgets.HBox(
            [self.play_again_button, self.same_deal_button],
            _dom_classes=(f"{RESULT_CLASS}-buttons",),
        )
        super().__init__(
            [html_widget(RESULT_CSS), self.words, buttons], _dom_classes=(RESULT_CLASS,)
        )
        set_visible(self, False)

    def show(self, session: PlaySession) -> None:
        """Show ``session``'s result once it is over; hide the panel before."""
        over = session.finished
        set_visible(self, over)
        if not over:
            self.words.value = ""
            return
        self.words.value = game_result_html(session, lang=self.lang)
        self.same_deal_button.tooltip = text(
            "play-screen.same-deal-tooltip", self.lang, seed=session.seed
        )


__all__ = ["RESULT_CLASS", "GameResult", "Standing", "game_result_html", "standings"]
