"""The display layer: cards as SVG pictures, HTML views, and ipywidgets components.

:mod:`tutor.display.svg` and :mod:`tutor.display.html` need nothing beyond the standard
library; :mod:`tutor.display.widgets` needs ipywidgets and is imported only when asked
for, so the engine's rich display stays light.

Each notebook of the course is one call that shows its page: :func:`show_course_page`,
:func:`show_lesson_page`, :func:`show_worked_example_page`, :func:`show_practice_page`,
:func:`show_review_page` or :func:`show_play_page`; :func:`show_lesson` and :func:`show_quiz` show a lesson alone. They
load the widgets when first used.

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
    from tutor.display.lesson_view import show_lesson, show_lesson_page, show_quiz
    from tutor.display.page import show_course_page, show_play_page, show_worked_example_page
    from tutor.display.practice_view import show_practice_page
    from tutor.display.review_view import show_review_page

# The entry points that need ipywidgets, by module: imported on first use (PEP 562), because
# the engine's `_repr_svg_` imports tutor.display.svg, which runs this file first.
_WIDGET_ENTRY_POINTS = {
    "show_course_page": "tutor.display.page",
    "show_lesson": "tutor.display.lesson_view",
    "show_lesson_page": "tutor.display.lesson_view",
    "show_play_page": "tutor.display.page",
    "show_practice_page": "tutor.display.practice_view",
    "show_quiz": "tutor.display.lesson_view",
    "show_review_page": "tutor.display.review_view",
    "show_worked_example_page": "tutor.display.page",
}

__all__ = [
    "card_svg",
    "face_down_svg",
    "format_points",
    "hand_svg",
    "round_html",
    "score_sheet_html",
    "show_course_page",
    "show_lesson",
    "show_lesson_page",
    "show_play_page",
    "show_practice_page",
    "show_quiz",
    "show_review_page",
    "show_worked_example_page",
    "trick_svg",
]


def __getattr__(name: str) -> object:
    if name not in _WIDGET_ENTRY_POINTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_WIDGET_ENTRY_POINTS[name]), name)
    globals()[name] = value
    return value
