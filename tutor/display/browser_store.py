"""The learner's progress kept in their browser (``localStorage``): a small widget that is
a :class:`tutor.teaching.progress_stores.Store`.

Its JavaScript (``browser_store.js``, plain ESM, no build step, no imports) only reads and
appends; this side checks what the browser holds with the same rules as a progress file
(:func:`tutor.teaching.progress_stores.parse_list`) and tells the learner's
:class:`~tutor.teaching.progress.Progress` when it arrives: the kernel runs the page before
the browser shows it, so a page starts with its progress loading.

>>> from tutor.teaching.progress import Progress, ProgressState
>>> from tutor.teaching.progress_events import AnswerSource
>>> store = BrowserStore()
>>> progress = Progress(store); store.serve(progress)
>>> progress.state
<ProgressState.LOADING: 'loading'>
>>> store.stored = "[]"                       # what the browser reports once the page is up
>>> progress.state
<ProgressState.READY: 'ready'>
>>> store.stored = "[1, 2]"
>>> progress.problem.message()
'this browser’s storage is damaged at line 1: it is not an answer the tutor wrote.'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

from tutor.display import looks
from tutor.display.visibility import HIDDEN
from tutor.teaching.progress import Progress
from tutor.teaching.progress_events import Event
from tutor.teaching.progress_stores import (
    BROWSER_SOURCE,
    BROWSER_STORAGE_KEY,
    ProgressStoreError,
    StoreProblem,
    aside_name,
    parse_list,
)
from tutor.teaching.text import DEFAULT_LANGUAGE, text


class BrowserStore(anywidget.AnyWidget):
    """The progress store in the browser that shows the page (see the module)."""

    _esm = Path(__file__).with_name("browser_store.js")
    key = traitlets.Unicode(BROWSER_STORAGE_KEY).tag(sync=True)
    stored = traitlets.Unicode(None, allow_none=True).tag(sync=True)
    """The browser's value, as it last reported it (``None``: not heard from yet)."""
    blocked = traitlets.Bool(False).tag(sync=True)
    """The browser lets the page keep nothing (storage switched off)."""

    def __init__(self, **kwargs: Any) -> None:
        # nothing to see (the page shows the progress): hidden from its first message
        # (tutor.display.looks.restyle says why)
        super().__init__(**{"layout": looks.layout(display=HIDDEN), **kwargs})
        self.progress: Progress | None = None
        self.on_msg(self._message)

    # -- the Store protocol --------------------------------------------------------------

    def load(self) -> list[Event] | None:
        """What the browser holds, or ``None`` until it has said."""
        if self.blocked:
            raise ProgressStoreError(StoreProblem.BROWSER_BLOCKED, BROWSER_SOURCE)
        if self.stored is None:
            return None
        return parse_list(self.stored, BROWSER_SOURCE)

    def append(self, event: Event) -> None:
        """Ask the browser to keep ``event`` (it says if it could not)."""
        if self.blocked:
            raise ProgressStoreError(StoreProblem.BROWSER_BLOCKED, BROWSER_SOURCE)
        self.send({"op": "append", "event": event.to_json()})

    def start_afresh(self) -> str | None:
        """Keep the browser's value under another key and start an empty list."""
        self.send({"op": "replace", "backup": aside_name(self.key)})
        self.stored = None  # until the browser reports the new, empty list
        return None

    def where(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("progress.where-browser", lang)

    # -- the browser's side --------------------------------------------------------------

    def serve(self, progress: Progress) -> None:
        """Report to ``progress`` whatever the browser says from now on."""
        self.progress = progress

    @traitlets.observe("stored", "blocked")
    def _reported(self, _change: dict[str, Any]) -> None:
        if self.progress is not None and (self.stored is not None or self.blocked):
            self.progress.reload()

    def _message(self, _widget: object, content: dict[str, Any], _buffers: object) -> None:
        if self.progress is not None and content.get("op") == "failed":
            problem = StoreProblem.BROWSER_BLOCKED if self.blocked else StoreProblem.BROWSER_WRITE
            self.progress.write_failed(
                ProgressStoreError(problem, BROWSER_SOURCE, detail=str(content.get("reason", "")))
            )
