"""The app page's tab title and same-tab course links (``app_page.js``), as a widget with
nothing to see. Only the app shows it: JupyterLab keeps its own tab titles and opens the
course's links itself.

>>> AppPage(title="Who takes the trick").title
'Who takes the trick'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

NAV_LINK_CLASS = "tutor-nav-link"
"""The class of every link between the course's pages (``app_page.js`` keeps them in the
same tab)."""


class AppPage(anywidget.AnyWidget):
    """Sets the browser tab's title to :attr:`title`; course links stay in the tab."""

    _esm = Path(__file__).with_name("app_page.js")
    title = traitlets.Unicode("").tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.layout.display = "none"
