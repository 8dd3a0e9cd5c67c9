"""The play screen's replay of a finished trick, card by card: choose a trick, step back
and forth through its cards, and see, with every card down, who won it and the engine's
reason (:func:`tutor.teaching.narrate.trick_step_text`).

>>> from tutor.play.session import PlaySession
>>> session = PlaySession(players=3, seed=4, cards=1)
>>> replay = TrickReplay(session.view)
>>> replay.show_tricks(session.view())
>>> replay.picker.options, replay.words.value.count("<p")  # no trick finished yet
((), 1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from tutor.display.play_style import action_button, heading_html, html_part, paragraph_html
from tutor.display.visibility import set_visible
from tutor.display.widgets import TrickView
from tutor.rules.round import SeatView
from tutor.teaching.narrate import trick_step_text
from tutor.teaching.text import DEFAULT_LANGUAGE, text


class TrickReplay(widgets.VBox):  # type: ignore[misc]
    """A heading, the trick's picker (:attr:`picker`) with Back and Next
    (:attr:`back_button`, :attr:`next_button`), the trick so far (:attr:`trick_view`) and
    its words (:attr:`words`). ``current_view()`` is the learner's view of the round now:
    the tricks replayed are its finished ones."""

    def __init__(
        self,
        current_view: Callable[[], SeatView],
        *,
        scale: float = 0.75,
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        # its parts were the play screen's own before it had a box: a widget box scrolls what
        # overflows it, which the screen's column in Lab at phone width did by a few px
        super().__init__(layout=widgets.Layout(overflow="visible"))
        self.lang = lang
        self._current_view = current_view
        self.heading = html_part(heading_html(text("play-screen.replay", lang)))
        self.picker = widgets.Dropdown(
            options=[],
            description=text("play-screen.replay-trick", lang),
            tooltip=text("play-screen.replay-trick-tooltip", lang),
            # within its row on a phone, its margins (2 px each side) included
            layout=widgets.Layout(width="24em", max_width="calc(100% - 4px)"),
        )
        self.back_button = action_button(
            text("play-screen.replay-back", lang), text("play-screen.replay-back-tooltip", lang)
        )
        self.next_button = action_button(
            text("play-screen.replay-next", lang), text("play-screen.replay-next-tooltip", lang)
        )
        self.trick_view = TrickView(scale=scale, lang=lang)
        self.trick_view.tooltip = ""
        self.words = html_part()
        self.step = 0
        self._syncing = False
        self.picker.observe(self._chosen, names="value")
        self.back_button.on_click(lambda _button: self.show_step(self.step - 1))
        self.next_button.on_click(lambda _button: self.show_step(self.step + 1))
        self.children = [
            self.heading,
            widgets.HBox(
                [self.picker, self.back_button, self.next_button],
                layout=widgets.Layout(flex_flow="row wrap"),
            ),
            self.trick_view,
            self.words,
        ]

    def show_tricks(self, view: SeatView) -> None:
        """Offer the finished tricks of ``view``; a newly finished one is chosen."""
        lang = self.lang
        options = [
            (
                text(
                    "play-screen.replay-option",
                    lang,
                    number=trick.number,
                    winner=view.names[trick.winner],
                ),
                trick.number,
            )
            for trick in view.tricks
        ]
        if list(self.picker.options) != options:  # a trick was finished (or undone)
            self._syncing = True
            try:
                self.picker.options = options
                self.picker.value = options[-1][1] if options else None
            finally:
                self._syncing = False
            self._reset()
        has_tricks = bool(options)
        for part in (self.picker, self.back_button, self.next_button, self.trick_view):
            set_visible(part, has_tricks)
        if not has_tricks:
            self.words.value = paragraph_html(text("play-screen.replay-none", lang))

    def _chosen(self, _change: dict[str, Any]) -> None:
        if not self._syncing:
            self._reset()

    def _reset(self) -> None:
        """A trick was chosen: show it whole, with the reason for its winner."""
        number = self.picker.value
        if number is None:
            self.step = 0
            return
        self.show_step(len(self._current_view().tricks[int(number) - 1].cards))

    def show_step(self, cards_shown: int) -> None:
        """Show the chosen finished trick up to its card ``cards_shown`` (1 = the lead);
        with every card shown, the winner and the engine's reason."""
        number = self.picker.value
        if number is None:
            return
        view = self._current_view()
        trick = view.tricks[int(number) - 1]
        size = len(trick.cards)
        cards_shown = max(1, min(cards_shown, size))
        self.step = cards_shown
        whole = cards_shown == size
        self.trick_view.update(
            trick.cards[:cards_shown],
            winner=trick.explanation.winner if whole else None,
            players=[view.names[seat] for seat in trick.seats[:cards_shown]],
        )
        self.words.value = paragraph_html(
            trick_step_text(view, int(number), cards_shown, lang=self.lang)
        )
        self.back_button.disabled = cards_shown == 1
        self.next_button.disabled = whole
