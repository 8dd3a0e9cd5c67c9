"""A trick drawn in play order, its winner marked (:class:`TrickView`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import ipywidgets as widgets

from tutor.display import looks
from tutor.display.svg import trick_svg
from tutor.rules.cards import Card
from tutor.teaching.text import DEFAULT_LANGUAGE


class TrickView(widgets.HTML):  # type: ignore[misc]
    """A trick in play order, each player's name under their card, the winner (an index
    given by the engine) marked with a ring and the word "wins".

    >>> from tutor.rules.trick import trick_winner
    >>> view = TrickView("J B5 B11 B7", players="ABCD")
    >>> view.update("J B5 B11 B7", winner=trick_winner("J B5 B11 B7", "R"), players="ABCD")
    >>> "C takes the trick" in view.value
    True
    """

    def __init__(
        self,
        cards: str | Iterable[Card | str] = (),
        *,
        winner: int | None = None,
        players: Sequence[str] | None = None,
        scale: float = 0.9,
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        self.scale = scale
        self.lang = lang
        # see html_widget: no stray tooltip, the shared look
        super().__init__(tooltip="", layout=looks.layout(), style=looks.style(widgets.HTML))
        self.update(cards, winner=winner, players=players)

    def update(
        self,
        cards: str | Iterable[Card | str],
        *,
        winner: int | None = None,
        players: Sequence[str] | None = None,
    ) -> None:
        """Show another trick (or the same one, grown by a card)."""
        self.value = trick_svg(
            cards, winner=winner, players=players, scale=self.scale, lang=self.lang
        )
