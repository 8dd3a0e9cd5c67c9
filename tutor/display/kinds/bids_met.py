"""A bids-met item's picture: every trick of the round, each card under its player, the
winners marked by the engine once answered."""

from __future__ import annotations

from tutor.display.item_view import ItemView
from tutor.display.kinds.round_tricks import tricks_picture
from tutor.teaching.kinds.bids_met import BidsMetQuestion


def picture(subject: BidsMetQuestion, lang: str, answered: bool) -> str:
    count = len(subject.round.tricks)
    return tricks_picture(subject.round, count, hidden_from=count + 1 if answered else 1, lang=lang)


VIEW = ItemView(picture)
