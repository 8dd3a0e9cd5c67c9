"""Choices to select, a toggle button each (:class:`ToggleChoices`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets

from tutor.display import looks
from tutor.display.svg import card_svg
from tutor.display.widgets.html_widget import html_widget
from tutor.display.widgets.quiz_style import (
    card_column,
    mark_button,
    quiz_button,
    say_verdict,
    unmark,
    verdict_line,
)
from tutor.rules.cards import Card
from tutor.teaching.text import DEFAULT_LANGUAGE, text


class ToggleChoices(widgets.Box):  # type: ignore[misc]
    """Choices to select from: a toggle button each, named in words (``labels``), with a
    card's picture above it when ``cards`` are given. ``multiple=False`` keeps at most one
    selected. A selected choice gets a check mark in its button's words (and a ring in its
    picture).

    Under each card's picture a line of words (:attr:`verdicts`, empty until used) can say
    what the card turned out to be once an answer is checked (:meth:`mark`).

    >>> bids = ToggleChoices(["0", "1", "2"])
    >>> bids.toggles[2].value = True
    >>> bids.selected_indices, bids.toggles[2].description
    ((2,), '✓ 2')
    """

    def __init__(
        self,
        labels: Sequence[str],
        *,
        cards: Sequence[Card] | None = None,
        multiple: bool = True,
        scale: float = 0.9,
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        self.labels = tuple(labels)
        self.cards: tuple[Card, ...] = tuple(cards) if cards is not None else ()
        if self.cards and len(self.cards) != len(self.labels):
            raise ValueError(f"{len(self.labels)} labels for {len(self.cards)} cards")
        self.multiple = multiple
        self.scale = scale
        self.lang = lang
        self._syncing = False
        self.pictures = [html_widget(card_svg(card, scale=scale, lang=lang)) for card in self.cards]
        self.verdicts = [verdict_line() for _card in self.cards]
        self.toggles = [
            quiz_button(
                text("widgets.card-button", lang, card=label),
                text("widgets.card-tooltip", lang, card=label),
                toggle=True,
                value=False,
            )
            for label in self.labels
        ]
        for toggle in self.toggles:
            toggle.observe(self._toggled, names="value")
        columns = (
            [
                card_column(picture, verdict, toggle)
                for picture, verdict, toggle in zip(
                    self.pictures, self.verdicts, self.toggles, strict=True
                )
            ]
            if self.cards
            else self.toggles
        )
        super().__init__(columns, layout=looks.layout(flex_flow="row wrap", align_items="flex-end"))

    @property
    def selected_indices(self) -> tuple[int, ...]:
        """Positions of the selected choices, in order."""
        return tuple(i for i, toggle in enumerate(self.toggles) if toggle.value)

    def clear(self) -> None:
        """Unselect every choice and take back any verdict (:meth:`mark`)."""
        for toggle in self.toggles:
            toggle.value = False
        for index in range(len(self.toggles)):
            with self.toggles[index].hold_sync():
                self._show_state(index)
                unmark(self.toggles[index])
            if self.cards:
                say_verdict(self.verdicts[index], "")
        looks.restyle(self, align_items="flex-end")

    def set_disabled(self, disabled: bool) -> None:
        """Lock (or unlock) every toggle, e.g. once an answer is checked."""
        for toggle in self.toggles:
            toggle.disabled = disabled

    def mark(
        self,
        index: int,
        *,
        description: str,
        highlight: bool,
        dimmed: bool = False,
        verdict: str = "",
        tooltip: str | None = None,
        style: str = "",
    ) -> None:
        """Show a verdict on one choice: new words on its button (and ``tooltip``), a ring
        or fading on its picture and ``verdict`` words under it, ``style`` (``success``,
        ``danger``, ``warning``) as the button's colour. The words carry the meaning; the
        picture and the colour repeat it."""
        toggle = self.toggles[index]
        with toggle.hold_sync():  # its words, colour and class: one message
            toggle.description = description
            toggle.tooltip = tooltip if tooltip is not None else description
            mark_button(toggle, style)
        if self.cards:
            self.pictures[index].value = card_svg(
                self.cards[index],
                scale=self.scale,
                lang=self.lang,
                highlight=highlight,
                dimmed=dimmed,
            )
            say_verdict(self.verdicts[index], verdict)
            # Verdicts of different lengths: the cards line up at the top.
            looks.restyle(self, align_items="flex-start")

    def _changed(self) -> None:
        """Called after every change of the selection."""

    def _toggled(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        index = self.toggles.index(change["owner"])
        if change["new"] and not self.multiple:
            self._syncing = True
            try:
                for other, toggle in enumerate(self.toggles):
                    if other != index and toggle.value:
                        toggle.value = False
                        self._show_state(other)
            finally:
                self._syncing = False
        self._show_state(index)
        self._changed()

    def _show_state(self, index: int) -> None:
        words = self.labels[index]
        chosen = bool(self.toggles[index].value)
        key = "card-button-selected" if chosen else "card-button"
        tip = "card-tooltip-selected" if chosen else "card-tooltip"
        with self.toggles[index].hold_sync():
            self.toggles[index].description = text(f"widgets.{key}", self.lang, card=words)
            self.toggles[index].tooltip = text(f"widgets.{tip}", self.lang, card=words)
        if self.cards:
            self.pictures[index].value = card_svg(
                self.cards[index], scale=self.scale, lang=self.lang, highlight=chosen
            )
