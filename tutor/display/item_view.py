"""How the display layer shows one kind of lesson item in an example (:class:`ItemView`):
its picture, and its words when they are more than the item's text. Each kind's view is
found by the kind's name in :data:`tutor.display.kinds.ITEM_VIEWS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import Any

from tutor.teaching.text import text


def no_picture(subject: Any, lang: str, answered: bool) -> str:
    """The picture of an item that shows no cards."""
    return ""


@dataclass(frozen=True, slots=True)
class ItemView:
    """What an example of one kind shows besides its words.

    ``picture(subject, lang, answered)`` draws the item's cards as SVG/HTML ('' when it has
    none); the engine marks the winner and the legal cards, and ``answered=False`` draws
    the same cards with nothing marked (a presenter's slide before the answer).
    ``words(subject, lang)``, when given, is the example's words as HTML instead of the
    item's text (a table); ``slides(subject, lang)``, when given, splits the picture into
    parts a presenter shows one per slide (the first beside the example's heading).
    """

    picture: Callable[[Any, str, bool], str] = no_picture
    words: Callable[[Any, str], str] | None = None
    slides: Callable[[Any, str], tuple[str, ...]] | None = None


def figure(caption_key: str, picture: str, lang: str) -> str:
    """A picture with its caption (the catalog's ``caption_key``)."""
    caption = escape(text(caption_key, lang), quote=False)
    return (
        '<figure class="lesson-cards" style="margin:0 2em 0.5em 0">'
        f'<figcaption style="font-weight:600">{caption}</figcaption>{picture}</figure>'
    )


ROW = '<div class="lesson-example" style="display:flex;flex-wrap:wrap;align-items:flex-end">'
"""Opens a row of figures (close it with ``</div>``)."""
