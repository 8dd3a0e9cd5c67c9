"""The score sheet and its chart (:class:`ScoreSheetWidget`)."""

from __future__ import annotations

import ipywidgets as widgets

from tutor.display.chart import score_chart_html
from tutor.display.html import score_sheet_html
from tutor.display.widgets.html_widget import html_widget
from tutor.rules.scoring import ScoreSheet
from tutor.teaching.text import DEFAULT_LANGUAGE


class ScoreSheetWidget(widgets.VBox):  # type: ignore[misc]
    """The score sheet as a table and, below it, a line chart of the totals by round;
    ``narrow``: the table also one column a player, shown on a phone (see
    :func:`tutor.display.html.score_sheet_html`).

    >>> from tutor.rules.scoring import ScoreSheet
    >>> sheet = ScoreSheet(players=3)
    >>> board = ScoreSheetWidget(sheet, chart=False)
    >>> _ = sheet.record(bids=[1, 0, 1], taken=[1, 0, 0]); board.update(sheet)
    >>> "−10" in board.table.value
    True
    """

    def __init__(
        self,
        sheet: ScoreSheet,
        *,
        chart: bool = True,
        narrow: bool = False,
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        self.lang = lang
        self.narrow = narrow
        self.show_chart = chart
        self.table = html_widget()
        self.chart = html_widget()
        super().__init__([self.table, self.chart])
        self.update(sheet)

    def update(self, sheet: ScoreSheet, *, over: bool = False) -> None:
        """Show ``sheet`` as it is now (call after each round); ``over``: the game is over,
        and the foot marks who won rather than who leads."""
        self.sheet = sheet
        self.table.value = score_sheet_html(sheet, over=over, lang=self.lang, narrow=self.narrow)
        self.chart.value = score_chart_html(sheet, lang=self.lang) if self.show_chart else ""
