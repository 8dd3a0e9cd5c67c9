"""What the deck holds, a fact an example states (``kind = "deck"``; the fact is
:class:`tutor.teaching.lesson.DeckFact`)."""

from __future__ import annotations

from tutor.teaching.lesson import DeckFact, Fact
from tutor.teaching.lesson_reader import ItemKind, TableReader


def read_item(r: TableReader) -> Fact:
    """A deck item of a lesson file, what it states checked against the engine."""
    fact = DeckFact()
    counts = fact.counts()
    stated_any = False
    for key, engine in counts.items():
        if r.has(key):
            stated_any = True
            stated = r.integer(key)
            if stated != engine:
                raise r.fail(f"states {key} {stated} but the engine's deck has {engine}")
    if not stated_any:
        raise r.fail("state at least one count: " + ", ".join(counts))
    return fact


KIND = ItemKind(
    "deck", ("cards", "suits", "ranks", "numbers", "wizards", "jesters"), read_item, asks=False
)
