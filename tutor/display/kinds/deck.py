"""A deck item's picture: one card of each sort."""

from __future__ import annotations

from tutor.display.item_view import ItemView
from tutor.display.svg import hand_svg
from tutor.teaching.lesson import DeckFact


def picture(subject: DeckFact, lang: str, answered: bool) -> str:
    return hand_svg("Y1 R5 G9 B13 W J", scale=0.8, lang=lang)


VIEW = ItemView(picture)
