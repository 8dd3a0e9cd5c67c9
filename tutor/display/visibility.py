"""Showing and hiding a widget: the one way the display layer does it.

A hidden widget's layout says ``display: none``; shown again, the layout's ``display`` is
``None``, which the widget manager reads as "no style of its own" (in the static site's
browser Python too: :func:`tutor.site.kernel.send_nulls` sends ``None`` as ``null``). The
widget takes the shared layout that says so (:func:`tutor.display.looks.restyle`): layouts
are shared by the widgets that look alike, so none is changed in place.

>>> import ipywidgets as widgets
>>> button = widgets.Button()
>>> set_visible(button, False)
>>> button.layout.display
'none'
>>> set_visible(button, True)
>>> button.layout.display is None
True
"""

from __future__ import annotations

from typing import Any

from tutor.display.looks import restyle

HIDDEN = "none"
"""The layout's ``display`` of a hidden widget."""


def set_visible(widget: Any, visible: bool) -> None:
    """Show ``widget`` (``visible``) or hide it; it keeps its place among its siblings."""
    restyle(widget, display=None if visible else HIDDEN)
