"""Every kind of lesson item, each in one module: a question's class and its grading, the
keys a lesson file states it with and the reader that checks them against the engine
(a fact's reader, for the kinds an example states without asking).

:data:`ITEM_KINDS` is the one registry: the lesson loader reads items through it, and the
display layer finds each kind's picture by the same names
(:data:`tutor.display.kinds.ITEM_VIEWS`). Adding a kind touches its module here, its line
below, its module (or line) in :mod:`tutor.display.kinds`, and its catalog lines in the
three languages (``tutor/teaching/locale/*/``); ``tests/test_kinds.py`` checks
that every kind has them all. See ``lessons/README.md`` ("Adding a kind of item").

>>> list(ITEM_KINDS)[:4]
['trick-winner', 'legal-plays', 'score', 'trump']
>>> ITEM_KINDS["score"].keys
('bid', 'taken', 'points')
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from tutor.teaching.kinds import (
    bid_visibility,
    bids_met,
    dealer,
    deck,
    deck_count,
    first_bidder,
    game_winners,
    legal_bids,
    legal_plays,
    next_leader,
    round_tricks,
    rule_check,
    schedule,
    schedule_table,
    score,
    score_sheet,
    score_total,
    trick_winner,
    trump,
    trump_choice,
    variants,
)
from tutor.teaching.lesson_reader import ItemKind

ITEM_KINDS: Mapping[str, ItemKind] = MappingProxyType(
    {
        kind.name: kind
        for kind in (
            # questions about playing the cards
            trick_winner.KIND,
            legal_plays.KIND,
            score.KIND,
            trump.KIND,
            trump_choice.KIND,
            # questions about a round played through and a game's score sheet
            next_leader.KIND,
            round_tricks.KIND,
            bids_met.KIND,
            score_total.KIND,
            game_winners.KIND,
            # questions about setting up a round
            schedule.KIND,
            dealer.KIND,
            first_bidder.KIND,
            legal_bids.KIND,
            bid_visibility.KIND,
            # questions about the deck and the rules themselves, answered by the engine
            deck_count.KIND,
            rule_check.KIND,
            # facts: shown in examples, never asked
            deck.KIND,
            schedule_table.KIND,
            score_sheet.KIND,
            variants.KIND,
        )
    }
)
"""Every kind of item, by the name a lesson file gives it, in the order the guide lists them."""
