"""Cards with a button each; pressing one picks it (:class:`CardPicker`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

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
from tutor.rules.cards import Card, parse_cards
from tutor.teaching.explain import card_name
from tutor.teaching.text import DEFAULT_LANGUAGE, text


class CardPicker(widgets.Box):  # type: ignore[misc]
    """Cards with one button each: pressing a card's button picks it at once
    (``on_pick(index)``). Used to answer "which card?" and to play a card.

    ``players`` names who played each card (the buttons then say "blue 11 (C)");
    ``labels`` gives each button's words instead (by default the card's name);
    ``button_classes``, CSS classes every button has.

    >>> picked = []
    >>> picker = CardPicker("J B5 B11", players="ABC", on_pick=picked.append)
    >>> picker.buttons[2].description
    'blue 11 (C)'
    >>> picker.buttons[2].click(); picked
    [2]
    """

    def __init__(
        self,
        cards: str | Iterable[Card | str],
        *,
        players: Sequence[str] | None = None,
        labels: Sequence[str] | None = None,
        scale: float = 0.9,
        lang: str = DEFAULT_LANGUAGE,
        on_pick: Callable[[int], None] | None = None,
        button_classes: Sequence[str] = (),
    ) -> None:
        self.cards: tuple[Card, ...] = tuple(parse_cards(cards))
        self.players = tuple(players) if players is not None else None
        self.labels = tuple(labels) if labels is not None else None
        for given, what in ((self.players, "player names"), (self.labels, "labels")):
            if given is not None and len(given) != len(self.cards):
                raise ValueError(
                    f"{len(given)} {what} for {len(self.cards)} cards: {list(given)!r}"
                )
        self.scale = scale
        self.lang = lang
        self.on_pick = on_pick
        self.pictures = [html_widget(card_svg(card, scale=scale, lang=lang)) for card in self.cards]
        self.verdicts = [verdict_line() for _card in self.cards]
        self.buttons = [self._button(i, button_classes) for i in range(len(self.cards))]
        columns = [
            card_column(picture, verdict, button)
            for picture, verdict, button in zip(
                self.pictures, self.verdicts, self.buttons, strict=True
            )
        ]
        super().__init__(columns, layout=_row(aligned="flex-end"))

    def _button(self, index: int, classes: Sequence[str]) -> widgets.Button:
        description, tooltip = self._button_words(index)
        button = quiz_button(description, tooltip, classes=classes)
        button.on_click(lambda _button: self._picked(index))
        return button

    def _name_button(self, index: int, button: widgets.Button, icon: str = "") -> None:
        """The button's words: its label, else the card (and who played it); ``icon``
        (✔ or ✘) before them."""
        description, tooltip = self._button_words(index)
        button.description = f"{icon} {description}" if icon else description
        button.tooltip = tooltip

    def _button_words(self, index: int) -> tuple[str, str]:
        """The words of card ``index``'s button and its tooltip."""
        words = card_name(self.cards[index], self.lang)
        if self.labels is not None:
            description = tooltip = self.labels[index]
        elif self.players is not None:
            player = self.players[index]
            description = text("widgets.pick-card", self.lang, card=words, player=player)
            tooltip = text("widgets.pick-card-tooltip", self.lang, card=words, player=player)
        else:
            description = text("widgets.card-button", self.lang, card=words)
            tooltip = description
        return description, tooltip

    def _picked(self, index: int) -> None:
        if self.on_pick is not None:
            self.on_pick(index)

    def set_disabled(self, disabled: bool) -> None:
        """Lock (or unlock) every button."""
        for button in self.buttons:
            button.disabled = disabled

    def mark_answer(
        self,
        index: int,
        *,
        verdict: str,
        icon: str = "",
        style: str = "",
        ring: bool = False,
    ) -> None:
        """Say on one card what it turned out to be: ``verdict`` words under its picture,
        ``icon`` (✔ or ✘) before its button's words, ``style`` (``success``, ``danger``) as
        the button's colour, and a ring round it if ``ring``."""
        button = self.buttons[index]
        with button.hold_sync():  # its words, colour and class: one message
            self._name_button(index, button, icon)
            mark_button(button, style)
        self.pictures[index].value = card_svg(
            self.cards[index], scale=self.scale, lang=self.lang, highlight=ring
        )
        say_verdict(self.verdicts[index], verdict)
        looks.restyle(self, align_items="flex-start")

    def unmark(self) -> None:
        """Take back every verdict: the cards as they were before the answer."""
        for index, button in enumerate(self.buttons):
            with button.hold_sync():
                self._name_button(index, button)
                unmark(button)
            self.pictures[index].value = card_svg(
                self.cards[index], scale=self.scale, lang=self.lang
            )
            say_verdict(self.verdicts[index], "")
        looks.restyle(self, align_items="flex-end")


def _row(*, aligned: str) -> widgets.Layout:
    """Cards side by side, wrapping, lined up at their bottom (``flex-end``) or top."""
    return looks.layout(flex_flow="row wrap", align_items=aligned)
