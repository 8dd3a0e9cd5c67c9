"""A legal-plays item's picture: the trick so far, and the hand with the legal cards
marked by the engine (the others dimmed)."""

from __future__ import annotations

from tutor.display.item_view import ROW, ItemView, figure
from tutor.display.svg import hand_svg, trick_svg
from tutor.teaching.kinds.legal_plays import LegalPlaysQuestion


def picture(subject: LegalPlaysQuestion, lang: str, answered: bool) -> str:
    legal = subject.correct_answer() if answered else frozenset(subject.hand)
    hand = hand_svg(
        subject.hand,
        highlight=[i for i, card in enumerate(subject.hand) if card in legal and answered],
        dimmed=[i for i, card in enumerate(subject.hand) if card not in legal],
        lang=lang,
    )
    trick = (
        figure("lesson.picture-trick", trick_svg(subject.plays, scale=0.8, lang=lang), lang)
        if subject.plays
        else ""
    )
    return f"{ROW}{trick}{figure('lesson.picture-hand', hand, lang)}</div>"


VIEW = ItemView(picture)
