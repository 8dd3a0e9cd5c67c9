"""A trick-winner item's picture: the trick, its winner marked by the engine."""

from __future__ import annotations

from tutor.display.item_view import ItemView
from tutor.display.svg import trick_svg
from tutor.teaching.kinds.trick_winner import TrickWinnerQuestion


def picture(subject: TrickWinnerQuestion, lang: str, answered: bool) -> str:
    return trick_svg(
        subject.plays,
        winner=subject.correct_answer() if answered else None,
        players=subject.names(),
        lang=lang,
    )


VIEW = ItemView(picture)
