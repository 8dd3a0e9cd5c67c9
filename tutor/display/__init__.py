"""The display layer: cards as SVG pictures, HTML views, and ipywidgets components.

:mod:`tutor.display.svg` and :mod:`tutor.display.html` need nothing beyond the standard
library; :mod:`tutor.display.widgets` needs ipywidgets (and matplotlib for the score chart)
and is imported only when asked for, so the engine's rich display stays light.

>>> from tutor.display import card_svg
>>> card_svg("J").startswith("<svg")
True
"""

from tutor.display.html import format_points, round_html, score_sheet_html
from tutor.display.svg import card_svg, face_down_svg, hand_svg, trick_svg

__all__ = [
    "card_svg",
    "face_down_svg",
    "format_points",
    "hand_svg",
    "round_html",
    "score_sheet_html",
    "trick_svg",
]
