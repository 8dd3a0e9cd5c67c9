"""The display layer: cards as SVG pictures, HTML views, and ipywidgets components.

:mod:`tutor.display.svg` and :mod:`tutor.display.html` need nothing beyond the standard
library; :mod:`tutor.display.widgets` needs ipywidgets and is imported only when asked
for, so the engine's rich display stays light.

A notebook shows a lesson, its quiz or a practice session with :func:`show_lesson`,
:func:`show_quiz` and :func:`show_practice`; they load the widgets when first used.

>>> from tutor.display import card_svg
>>> card_svg("J").startswith("<svg")
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from tutor.display.html import format_points, round_html, score_sheet_html
from tutor.display.svg import card_svg, face_down_svg, hand_svg, trick_svg

if TYPE_CHECKING:
    from tutor.display.lesson_view import show_lesson, show_quiz
    from tutor.display.practice_view import show_practice

# The entry points that need ipywidgets, by module: imported on first use (PEP 562), because
# the engine's `_repr_svg_` imports tutor.display.svg, which runs this file first.
_WIDGET_ENTRY_POINTS = {
    "show_lesson": "tutor.display.lesson_view",
    "show_quiz": "tutor.display.lesson_view",
    "show_practice": "tutor.display.practice_view",
}

__all__ = [
    "card_svg",
    "face_down_svg",
    "format_points",
    "hand_svg",
    "round_html",
    "score_sheet_html",
    "show_lesson",
    "show_practice",
    "show_quiz",
    "trick_svg",
]


def __getattr__(name: str) -> object:
    if name not in _WIDGET_ENTRY_POINTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_WIDGET_ENTRY_POINTS[name]), name)
    globals()[name] = value
    return value
