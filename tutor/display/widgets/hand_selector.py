"""A hand of cards to select from (:class:`HandSelector`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tutor.display.widgets.toggle_choices import ToggleChoices
from tutor.rules.cards import Card, parse_cards
from tutor.teaching.explain import card_name
from tutor.teaching.text import DEFAULT_LANGUAGE


class HandSelector(ToggleChoices):
    """A hand of cards to select from: each card's picture above a toggle button named
    with the card's words. ``multiple=False`` keeps at most one card selected.

    ``on_change(selected_cards)`` is called after every change.

    >>> hand = HandSelector("B7 R12 W")
    >>> hand.toggles[0].value = True; hand.toggles[2].value = True
    >>> hand.selected, hand.toggles[0].description
    ((Card.parse('B7'), Card.parse('W')), '✓ blue 7')
    >>> single = HandSelector("B7 R12", multiple=False)
    >>> single.toggles[0].value = True; single.toggles[1].value = True
    >>> single.selected
    (Card.parse('R12'),)
    """

    def __init__(
        self,
        cards: str | Iterable[Card | str],
        *,
        multiple: bool = True,
        scale: float = 0.9,
        lang: str = DEFAULT_LANGUAGE,
        on_change: Callable[[tuple[Card, ...]], None] | None = None,
    ) -> None:
        hand = parse_cards(cards)
        self.on_change = on_change
        super().__init__(
            [card_name(card, lang) for card in hand],
            cards=hand,
            multiple=multiple,
            scale=scale,
            lang=lang,
        )

    @property
    def selected(self) -> tuple[Card, ...]:
        """The selected cards, in hand order."""
        return tuple(self.cards[i] for i in self.selected_indices)

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self.selected)
