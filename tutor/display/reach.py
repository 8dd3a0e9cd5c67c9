"""A widget built when the learner reaches it: :class:`Deferred` shows a light stand-in
(``reach.js``: some words, one model) until the browser says the place has come into the
learner's view, then puts the real widget there.

A lesson's eight questions cost some six hundred widget models, each paid for in kernel,
server and browser messages when the page opens; most learners read the first screen for
a while before they scroll, and a presenter shows one slide at a time.

>>> import ipywidgets as widgets
>>> made = []
>>> place = Deferred(lambda: made.append(widgets.Button()) or made[-1], html="<p>Q 2</p>")
>>> made, place.built
([], None)
>>> place.stand_in.reached = True      # what the browser does once it is in reach
>>> place.built is made[0], place.children == (made[0],)
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets as widgets
import traitlets

from tutor.display import looks


class StandIn(anywidget.AnyWidget):
    """The stand-in's one model: the words it shows, and whether the learner has come near."""

    _esm = Path(__file__).with_name("reach.js")
    html = traitlets.Unicode("").tag(sync=True)
    """What shows until the real widget comes (HTML written by the display layer)."""
    reached = traitlets.Bool(False).tag(sync=True)
    """Set by the browser once the place is within about a screen of the view."""


class Deferred(widgets.VBox):  # type: ignore[misc]
    """A place on the page for the widget ``build()`` makes, built when the learner
    reaches it (or when :meth:`build` is called); ``html`` shows until then. The place
    has the CSS ``classes`` given, and the shared look (:mod:`tutor.display.looks`)."""

    def __init__(
        self,
        build: Callable[[], widgets.Widget],
        *,
        html: str = "",
        classes: Sequence[str] = (),
        **kwargs: Any,
    ) -> None:
        self._builder = build
        self.built: widgets.Widget | None = None
        self.stand_in = StandIn(html=html, layout=looks.layout())
        kwargs.setdefault("layout", looks.layout())
        super().__init__([self.stand_in], _dom_classes=tuple(classes), **kwargs)
        self.stand_in.observe(self._reached, names="reached")

    def _reached(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self.build()

    def build(self) -> widgets.Widget:
        """The widget, built now if it was not yet, in the stand-in's place."""
        if self.built is None:
            self.built = self._builder()
            # The stand-in's model stays open: a page still drawing (the browser asking
            # for every model's state) must not meet a model that is gone.
            self.children = (self.built,)
        return self.built
