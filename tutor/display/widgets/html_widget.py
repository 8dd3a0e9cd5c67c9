"""An HTML widget without ipywidgets' stray "null" tooltip, with a shared look: the one
every page part uses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets

from tutor.display import looks


def html_widget(value: str = "", *, classes: Sequence[str] = (), **options: Any) -> widgets.HTML:
    """An HTML widget with an empty tooltip (ipywidgets writes a missing one as the
    tooltip "null" on the widget's hidden label), the CSS ``classes`` given, and the
    shared default layout and style unless ``options`` give others (:mod:`~tutor.display.looks`)."""
    options.setdefault("layout", looks.layout())
    options.setdefault("style", looks.style(widgets.HTML))
    return widgets.HTML(value, tooltip="", _dom_classes=tuple(classes), **options)
