"""A score-sheet item: the sheet, then the chart of its totals (a slide each); the
sheet's table is all its words."""

from __future__ import annotations

from tutor.display.chart import score_chart_html
from tutor.display.html import score_sheet_html
from tutor.display.item_view import ItemView
from tutor.teaching.lesson import ScoreSheetFact


def slides(subject: ScoreSheetFact, lang: str) -> tuple[str, ...]:
    sheet = subject.sheet()
    return score_sheet_html(sheet, lang=lang), score_chart_html(sheet, lang=lang)


def picture(subject: ScoreSheetFact, lang: str, answered: bool) -> str:
    return "".join(slides(subject, lang))


def words(subject: ScoreSheetFact, lang: str) -> str:
    return ""  # the sheet's table is in the picture


VIEW = ItemView(picture, words=words, slides=slides)
