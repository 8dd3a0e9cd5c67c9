"""A quiz's number box with its own Check button (``answer_box.js``): the text the learner
typed travels with the submit, for Enter and for Check alike.

A text box synced key by key and a separate Check button would not do: the widget manager
holds back a state update while an earlier one is unanswered, but sends a click at once,
so "12" typed and checked at once was graded on the box's previous value (issue 19).

The box draws and forwards; what the text means is decided by whoever listens
(:meth:`AnswerBox.on_submit`):

>>> box = AnswerBox(description="Points")
>>> heard = []
>>> box.on_submit(heard.append)
>>> box.submit("12")                 # what Enter or Check does in the browser
>>> heard, box.value
(['12'], '12')
>>> box.disabled = True; box.submit("13"); heard
['12']
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

SubmitCallback = Callable[[str], None]


class AnswerBox(anywidget.AnyWidget):
    """A labelled text box and a Check button; Enter in the box or Check submits the text
    in the box (see the module)."""

    _esm = Path(__file__).with_name("answer_box.js")
    value = traitlets.Unicode("").tag(sync=True)
    """What the box shows: the text last submitted (``""``: empty, for a fresh try)."""
    description = traitlets.Unicode("").tag(sync=True)
    """The box's label."""
    tooltip = traitlets.Unicode("").tag(sync=True)
    check_label = traitlets.Unicode("").tag(sync=True)
    check_tooltip = traitlets.Unicode("").tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)
    """Locked: the box and Check refuse input (an answer is shown)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._submit_callbacks: list[SubmitCallback] = []
        self.on_msg(self._message)

    def on_submit(self, callback: SubmitCallback, *, remove: bool = False) -> None:
        """Register (or remove) ``callback(typed)``, called with the text of each submit."""
        if remove:
            self._submit_callbacks.remove(callback)
        else:
            self._submit_callbacks.append(callback)

    def submit(self, typed: str) -> None:
        """The learner submitted ``typed`` (Enter or Check): the box shows it and the
        listeners hear it. A locked box takes nothing."""
        if self.disabled:
            return
        self.value = typed
        for callback in list(self._submit_callbacks):
            callback(typed)

    def clear(self) -> None:
        """Empty the box for a fresh try."""
        self.value = ""

    def focus(self) -> None:
        """Put the keyboard's focus in the box."""
        self.send({"op": "focus"})

    def _message(self, _widget: object, content: Any, _buffers: object) -> None:
        # Only a submit carrying text counts; anything else (or a value that is not text,
        # which only a broken or hostile page sends) is ignored.
        if isinstance(content, dict) and content.get("event") == "submit":
            typed = content.get("value")
            if isinstance(typed, str):
                self.submit(typed)
