"""A schedule-table item's words: the table of rounds and cards per round by player count."""

from __future__ import annotations

from html import escape

from tutor.display.item_view import ItemView
from tutor.teaching.lesson import ScheduleTableFact
from tutor.teaching.question import length_name
from tutor.teaching.text import join_words, text


def words(fact: ScheduleTableFact, lang: str) -> str:
    cell = "padding:0.15em 0.6em;border:1px solid #8a8a8a"
    aligns = ("right", "right", "left")  # numbers to the right, the list of rounds to the left
    heads = "".join(
        f'<th scope="col" style="{cell};text-align:{align}">{escape(name)}</th>'
        for name, align in zip(fact.columns(lang), aligns, strict=True)
    )
    rows = "".join(
        f'<tr><td style="{cell};text-align:right">{players}</td>'
        f'<td style="{cell};text-align:right">{len(schedule)}</td>'
        f'<td style="{cell};text-align:left">{escape(join_words(schedule, lang))}</td></tr>'
        for players, schedule in fact.schedules().items()
    )
    length = text("lesson.schedule-length", lang, length=length_name(fact.length, lang))
    return (
        f"<p>{escape(length, quote=False)}</p>"
        '<table class="schedule-table" style="border-collapse:collapse">'
        f"<thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>"
    )


VIEW = ItemView(words=words)
