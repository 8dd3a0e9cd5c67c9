"""An HTML widget without ipywidgets' stray "null" tooltip: the one every page part uses."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets


def html_widget(value: str = "", **options: Any) -> widgets.HTML:
    """An HTML widget with an empty tooltip: ipywidgets writes a missing one as the
    tooltip "null" on the widget's hidden label."""
    return widgets.HTML(value, tooltip="", **options)
