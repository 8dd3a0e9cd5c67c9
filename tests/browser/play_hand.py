"""The learner's hand on the play screen, read only once it has settled.

The hand's buttons stay by position and take their new cards one widget message at a
time (enabled, then the ✕ mark, then the words, then the tooltip), so a hand read half-way
can lack a card still held, or show a card playable whose ✕ has not arrived yet. These
helpers wait until the whole hand tells one story, and the verdict on the last play too.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from tutor.rules.cards import DECK
from tutor.teaching.explain import card_name
from tutor.teaching.text import text

from .conftest import wait_until

HAND = "button.tutor-card-button"
LEGAL_CARD = f"{HAND}:not([disabled]):not(.is-illegal)"
MESSAGE = ".tutor-play-message"

_STATE = "bs => bs.map(b => [b.innerText, b.classList.contains('is-illegal'), b.disabled, b.title])"
"""Each card button at one instant: its words, ✕ mark, disabled, tooltip."""


def card_names(button_words: list[str], lang: str = "en") -> list[str]:
    """The cards of a hand's buttons ("red 12 (may not be played now)" is red 12)."""
    names = sorted(
        {card_name(card, lang) for card in DECK}, key=len, reverse=True
    )  # "red 12" first
    return [
        next(name for name in names if words.strip().startswith(name)) for words in button_words
    ]


def _settled_for_play(state: list[Any], lang: str) -> list[str] | None:
    """The hand's cards if every button shows its final state for the learner's turn to
    play, else None: enabled, and its ✕ mark, words and tooltip (its last message) all
    telling the same verdict."""
    try:
        names = card_names([words for words, *_ in state], lang)
    except StopIteration:  # a button not yet given its card
        return None
    for (words, illegal, disabled, title), name in zip(state, names, strict=True):
        plain = words.strip() == name
        playable_tip = title == text("play-screen.card-tooltip", lang, card=name)
        waiting_tip = title == text("play-screen.card-tooltip-wait", lang, card=name)
        marked_alike = illegal != plain and illegal != playable_tip
        if disabled or not marked_alike or waiting_tip or not title:
            return None
    return names


def ready_to_play(page: Any, lang: str, timeout_ms: float) -> list[str]:
    """Wait until it is the learner's turn to play and every card is marked; the hand."""
    hand = page.locator(HAND)
    seen: list[Any] = []

    def ready() -> list[str] | None:
        seen[:] = hand.evaluate_all(_STATE)
        return _settled_for_play(seen, lang)

    names: list[str] = wait_until(ready, timeout_ms, lambda: f"a hand ready to play: {seen}")
    return names


def after_one_played(
    page: Any, held: list[str], said: str, lang: str, timeout_ms: float
) -> list[str]:
    """Wait until the hand is ``held`` less one card and settled again (the learner's turn
    comes back at once: the bots play in the same step), and the play screen's new verdict
    (it said ``said`` before) names that card and approves it; the hand now."""
    hand = page.locator(HAND)
    message = page.locator(MESSAGE)
    seen: list[Any] = []

    def settled() -> tuple[list[str]] | None:  # in a tuple: the last card leaves []
        state, verdict = hand.evaluate_all(_STATE), message.inner_text()
        seen[:] = [state, verdict]
        now = _settled_for_play(state, lang) if state else []
        if now is None or verdict == said or len(now) != len(held) - 1:
            return None
        gone = Counter(held) - Counter(now)
        if sum(gone.values()) != 1:
            return None
        (name,) = gone
        named = re.search(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", verdict)
        return (now,) if named and "✔" in verdict else None

    (now,) = wait_until(
        settled, timeout_ms, lambda: f"held {held}; the hand and the verdict now: {seen}"
    )
    return list(now)
