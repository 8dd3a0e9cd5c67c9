"""How each kind of lesson item is shown in an example: :data:`ITEM_VIEWS`, the display
layer's registry beside the teaching layer's :data:`tutor.teaching.kinds.ITEM_KINDS`, by
the same names. A kind that draws something has its module here (its picture, or its
words when they are a table); a kind that is words alone shows :data:`WORDS_ONLY`.
``tests/test_kinds.py`` checks that every kind of item has its view.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from tutor.display.item_view import ItemView
from tutor.display.kinds import (
    bids_met,
    deck,
    legal_plays,
    next_leader,
    round_tricks,
    schedule_table,
    score_sheet,
    trick_winner,
    trump,
)

WORDS_ONLY = ItemView()
"""The view of a kind that shows no cards: the item's words alone."""

ITEM_VIEWS: Mapping[str, ItemView] = MappingProxyType(
    {
        "trick-winner": trick_winner.VIEW,
        "legal-plays": legal_plays.VIEW,
        "score": WORDS_ONLY,
        "trump": trump.VIEW,
        "trump-choice": WORDS_ONLY,
        "next-leader": next_leader.VIEW,
        "round-tricks": round_tricks.VIEW,
        "bids-met": bids_met.VIEW,
        "score-total": WORDS_ONLY,
        "game-winners": WORDS_ONLY,
        "schedule": WORDS_ONLY,
        "dealer": WORDS_ONLY,
        "first-bidder": WORDS_ONLY,
        "legal-bids": WORDS_ONLY,
        "bid-visibility": WORDS_ONLY,
        "deck-count": WORDS_ONLY,
        "rule-check": WORDS_ONLY,
        "deck": deck.VIEW,
        "schedule-table": schedule_table.VIEW,
        "score-sheet": score_sheet.VIEW,
        "variants": WORDS_ONLY,
    }
)
"""Each kind of item's view, by the name a lesson file gives the kind."""
