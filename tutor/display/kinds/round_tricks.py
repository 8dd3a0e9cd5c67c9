"""A round-tricks item's picture: each trick of the round up to the one asked about, each
card under its player; the winners of the tricks before it marked (they are where the
question starts from), its own winner marked by the engine once answered."""

from __future__ import annotations

from html import escape

from tutor.display.item_view import ROW, ItemView
from tutor.display.svg import trick_svg
from tutor.teaching.kinds.round_tricks import RoundTricksQuestion, ShortRound
from tutor.teaching.text import text


def tricks_picture(played: ShortRound, upto: int, *, hidden_from: int, lang: str) -> str:
    """Tricks 1 to ``upto`` of ``played``, the winners of tricks ``hidden_from`` and later
    unmarked (a question not answered yet)."""
    figures = []
    for trick in played.played().tricks[:upto]:
        svg = trick_svg(
            trick.cards,
            winner=trick.winning_index if trick.number < hidden_from else None,
            players=[played.names[seat] for seat in trick.seats],
            scale=0.8,
            lang=lang,
        )
        caption = escape(text("lesson.picture-round-trick", lang, number=trick.number))
        figures.append(
            '<figure class="lesson-cards" style="margin:0 2em 0.5em 0">'
            f'<figcaption style="font-weight:600">{caption}</figcaption>{svg}</figure>'
        )
    return f"{ROW}{''.join(figures)}</div>"


def picture(subject: RoundTricksQuestion, lang: str, answered: bool) -> str:
    hidden_from = subject.trick + 1 if answered else subject.trick
    return tricks_picture(subject.round, subject.trick, hidden_from=hidden_from, lang=lang)


VIEW = ItemView(picture)
