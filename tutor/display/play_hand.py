"""The learner's hand on the play screen: one real button per card along the bottom.

A click (or Tab to it, then Enter or Space) plays the card. A card the rules do not allow
now is marked ✕ and faded, the engine's reason in its tooltip. An ipywidgets button shows
only words, so each card's picture is the button's background, from a style with the
faces of the round's cards (:func:`card_faces_css`).

The hand draws and forwards, like ipywidgets' own widgets: what a pressed card does is the
play screen's (:meth:`tutor.display.play.PlayScreen.play`).

>>> from tutor.play.session import PlaySession
>>> pressed = []
>>> hand = PlayHand(on_press=pressed.append)
>>> hand.show(PlaySession(players=3, seed=4, cards=2).view())
>>> [button.description == card_name(card) for card, button in zip(hand.cards, hand.card_buttons)]
[True, True]
>>> [button.disabled for button in hand.card_buttons]  # the round starts with the bids
[True, True]
>>> hand.card_buttons[1].click()  # a press is forwarded; whether it plays is the screen's
>>> pressed == [hand.cards[1]]
True
"""

from __future__ import annotations

import base64
from collections.abc import Callable

import ipywidgets as widgets

from tutor.display.play_style import CARD_CLASS, PLAY_CLASS, html_part
from tutor.display.svg import card_svg
from tutor.display.visibility import set_visible
from tutor.rules.cards import Card
from tutor.rules.round import Phase, SeatView
from tutor.teaching.explain import card_name, describe_play
from tutor.teaching.text import DEFAULT_LANGUAGE, text


def _sorted_hand(hand: tuple[Card, ...]) -> tuple[Card, ...]:
    """The hand in the usual showing order (Wizards, suits high to low, Jesters)."""
    return tuple(sorted(hand, key=lambda card: card.sort_key))


def _face_class(card: Card) -> str:
    return f"tutor-face-{card}"


def card_faces_css(cards: tuple[Card, ...], *, lang: str = DEFAULT_LANGUAGE) -> str:
    """A style giving each card's button (class ``tutor-face-<card>``) its picture: an
    ipywidgets button shows only words, so the card's SVG is its background.

    >>> css = card_faces_css((Card.parse("R9"), Card.parse("W"), Card.parse("W")))
    >>> css.count(".tutor-face-R9"), css.count(".tutor-face-W"), "data:image/svg+xml;base64," in css
    (1, 1, True)
    """
    rules = []
    for card in dict.fromkeys(cards):  # each face once, in hand order
        picture = base64.b64encode(card_svg(card, lang=lang).encode()).decode("ascii")
        rules.append(
            f".{PLAY_CLASS} .{_face_class(card)} "
            f'{{ --face: url("data:image/svg+xml;base64,{picture}"); }}'
        )
    return "<style>\n" + "\n".join(rules) + "\n</style>"


class PlayHand(widgets.Box):  # type: ignore[misc]
    """The learner's cards as buttons (:attr:`card_buttons`, showing :attr:`cards`);
    pressing one calls ``on_press(card)``."""

    def __init__(self, *, on_press: Callable[[Card], object], lang: str = DEFAULT_LANGUAGE) -> None:
        super().__init__()
        self.lang = lang
        self.cards: tuple[Card, ...] = ()
        self.card_buttons: list[widgets.Button] = []
        self._on_press = on_press
        # A style with the faces of the round's cards, then one button per card.
        self._faces = html_part()
        self._faces_key: tuple[Card, ...] = ()
        self.children = [self._faces]
        self.add_class(f"{PLAY_CLASS}-hand")

    def show(self, view: SeatView) -> None:
        """The learner's cards as buttons: pressable when it is their turn to play, a card
        the rules do not allow marked ✕ with the engine's reason as its tooltip."""
        lang = self.lang
        hand = _sorted_hand(view.hand)
        playing = view.phase is Phase.PLAYING and view.to_act == view.seat
        faces = _sorted_hand(tuple(dict.fromkeys(hand)))
        if not set(faces) <= set(self._faces_key):  # a new deal: its faces, once
            self._faces_key = faces
            self._faces.value = card_faces_css(faces, lang=lang)
        if hand != self.cards:
            # The buttons stay by position and take the cards now in the hand: a played
            # card takes one button away at the end, so the keyboard's focus stays in the
            # hand, on the card that moved into the played one's place.
            while len(self.card_buttons) < len(hand):
                self.card_buttons.append(self._card_button(len(self.card_buttons)))
            del self.card_buttons[len(hand) :]
            for old, new, button in zip(self.cards, hand, self.card_buttons, strict=False):
                if old != new:
                    button.remove_class(_face_class(old))
            for card, button in zip(hand, self.card_buttons, strict=True):
                button.add_class(_face_class(card))
            self.cards = hand
            self.children = [self._faces, *self.card_buttons]
        for card, button in zip(hand, self.card_buttons, strict=True):
            judgement = view.judgement_of(card)
            name = card_name(card, lang)
            button.disabled = not playing
            if playing and judgement is not None and not judgement.legal:
                button.add_class("is-illegal")
                button.description = text("play-screen.card-not-playable", lang, card=name)
                button.tooltip = describe_play(judgement, lang=lang)
            else:
                button.remove_class("is-illegal")
                button.description = name
                key = "card-tooltip" if playing else "card-tooltip-wait"
                button.tooltip = text(f"play-screen.{key}", lang, card=name)
        set_visible(self, bool(hand))

    def _card_button(self, index: int) -> widgets.Button:
        """The button at ``index`` in the hand (it plays whichever card lies there)."""
        button = widgets.Button(description="", tooltip="")
        button.add_class(CARD_CLASS)
        button.on_click(lambda _button: self._pressed(index))
        return button

    def _pressed(self, index: int) -> None:
        if index < len(self.cards):
            self._on_press(self.cards[index])
