"""A next-leader item's picture: the trick, each card under its player, its winner (who
leads the next trick) marked by the engine."""

from __future__ import annotations

from tutor.display.item_view import ItemView
from tutor.display.svg import trick_svg
from tutor.teaching.kinds.next_leader import NextLeaderQuestion


def picture(subject: NextLeaderQuestion, lang: str, answered: bool) -> str:
    # the winner's place in play order: the trick is led by seat ``led``
    winner = (subject.correct_answer() - subject.led) % len(subject.players) if answered else None
    return trick_svg(subject.plays, winner=winner, players=subject.played_by(), lang=lang)


VIEW = ItemView(picture)
