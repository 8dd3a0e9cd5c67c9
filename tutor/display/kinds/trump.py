"""A trump item's picture: the turned card, if one was turned."""

from __future__ import annotations

from tutor.display.item_view import ROW, ItemView, figure
from tutor.display.svg import card_svg
from tutor.teaching.kinds.trump import TrumpQuestion


def picture(subject: TrumpQuestion, lang: str, answered: bool) -> str:
    if subject.turned is None:
        return ""
    turned = figure("lesson.picture-turned", card_svg(subject.turned, lang=lang), lang)
    return f"{ROW}{turned}</div>"


VIEW = ItemView(picture)
