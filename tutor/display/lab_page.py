"""A page's language in JupyterLab (``lab_page.js``), as a widget with nothing to see: Lab
keeps its own ``<html lang>``, so the page's output area carries the page's language, and
the tutor's CJK line breaking (:data:`LANGUAGE_CSS`) reaches Lab with it. The app and the
static site set both for the whole page (tutor-settings.js, tutor.css).

>>> page = LabPage(lang="ja")
>>> page.lang, ":lang(ja)" in page._css
('ja', True)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

from tutor.display import looks
from tutor.display.visibility import HIDDEN
from tutor.teaching.text import DEFAULT_LANGUAGE

LANGUAGE_CSS = """
:lang(ja),
:lang(zh) {
  line-break: strict;
}

:lang(ja) :is(h1, h2, h3, h4) {
  word-break: auto-phrase;
}
"""
"""Japanese and Chinese lines never start with a prolonged sound mark or a small kana;
Japanese headings break between phrases. The same rules as tutor.css's for the app and the
site (tests/display/test_lab_page.py holds them equal)."""


class LabPage(anywidget.AnyWidget):
    """Gives the output area that shows it the language :attr:`lang`."""

    _esm = Path(__file__).with_name("lab_page.js")
    _css = LANGUAGE_CSS
    lang = traitlets.Unicode(DEFAULT_LANGUAGE).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        # hidden from its first message (tutor.display.looks.restyle says why)
        super().__init__(**{"layout": looks.layout(display=HIDDEN), **kwargs})
