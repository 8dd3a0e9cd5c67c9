"""The app page's tab title (``app_page.js``), as a widget with nothing to see. Only the
app shows it: JupyterLab keeps its own tab titles.

>>> AppPage(title="Who takes the trick").title
'Who takes the trick'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

from tutor.display import looks
from tutor.display.visibility import HIDDEN, set_visible


class AppPage(anywidget.AnyWidget):
    """Sets the browser tab's title to :attr:`title`."""

    _esm = Path(__file__).with_name("app_page.js")
    title = traitlets.Unicode("").tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        # hidden from its first message, with the shared look (tutor.display.looks)
        super().__init__(**{"layout": looks.layout(display=HIDDEN), **kwargs})
        set_visible(self, False)
