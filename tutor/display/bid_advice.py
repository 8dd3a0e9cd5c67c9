"""The bidding coach's advice on the play screen: for each bid, its chance and the average
points of bidding it, as a table, and in words why the best bid is best
(:func:`bid_advice_html`). The numbers are the coach's (:func:`tutor.play.coach.advise_bid`):
this module only draws them.
"""

from __future__ import annotations

from html import escape

from tutor.display.html import HEAD_STYLE, MINUS, caption_html, scroll_box
from tutor.display.play_style import CELL_STYLE, PLAY_CLASS, TABLE_STYLE, paragraph_html
from tutor.play.coach import BidAdvice
from tutor.teaching.text import DEFAULT_LANGUAGE, text


def bid_advice_html(advice: BidAdvice, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The bidding coach's advice as a table: for each number of tricks, its chance (as a
    percentage and a bar) and the average points of bidding it; the best bid is starred
    and named in words, and a bid the rules forbid says so. When the best bid differs from
    the bid the simulated hand played for, the words say why, with the two averages.

    >>> advice = BidAdvice(0, 1, None, (0.25, 0.75), (-2.5, 17.5), (0, 1), 1, 1, 4)
    >>> page = bid_advice_html(advice)
    >>> page.count('data-probability='), "75.0%" in page, "★ best bid" in page
    (2, True, True)
    >>> "Why bid" in page, "Why bid" in bid_advice_html(BidAdvice(
    ...     0, 2, None, (0.2, 0.45, 0.35), (-8.0, 4.5, 7.0), (0, 1, 2), 2, 1, 4))
    (False, True)
    """
    rows = []
    for tricks, chance in enumerate(advice.probabilities):
        notes = []
        if tricks == advice.best_bid:
            notes.append(text("play-coach.best", lang))
        if tricks not in advice.legal_bids:
            notes.append(text("play-coach.not-allowed", lang))
        percent = text("play-coach.percent", lang, value=chance)
        bar = (
            '<span aria-hidden="true" style="display:inline-block;vertical-align:middle;'
            f"height:0.7em;width:{chance * 4:.2f}em;background:currentColor;opacity:0.55;"
            'margin-left:0.4em"></span>'
        )
        weight = 700 if tricks == advice.best_bid else 400
        rows.append(
            f'<tr data-tricks="{tricks}" data-probability="{chance!r}" '
            f'style="font-weight:{weight}">'
            f'<th scope="row" style="{HEAD_STYLE}">{tricks}</th>'
            f'<td class="chance" style="{CELL_STYLE};text-align:left;white-space:nowrap">'
            f"{escape(percent)}{bar}</td>"
            f'<td class="expected" style="{CELL_STYLE}">'
            f"{escape(_points(advice.expected_scores[tricks], lang))}</td>"
            f'<td class="note" style="{CELL_STYLE};text-align:left">'
            f"{escape(text('list.separator', lang).join(notes))}</td></tr>"
        )
    heads = "".join(
        f'<th scope="col" style="{HEAD_STYLE}">{escape(text(f"play-coach.{key}", lang))}</th>'
        for key in ("tricks", "chance", "expected", "note")
    )
    likely = max(range(len(advice.probabilities)), key=lambda k: advice.probabilities[k])
    sentences = [
        text(
            "play-coach.likely",
            lang,
            tricks=likely,
            chance=text("play-coach.percent", lang, value=advice.probabilities[likely]),
        ),
        text(
            "play-coach.best-bid",
            lang,
            bid=advice.best_bid,
            points=_points(advice.expected_scores[advice.best_bid], lang),
        ),
        text("play-coach.played-for", lang, bid=advice.played_for),
    ]
    if advice.best_bid != advice.played_for:
        sentences.append(
            text(
                "play-coach.best-differs",
                lang,
                best=advice.best_bid,
                played=advice.played_for,
                best_points=_points(advice.expected_scores[advice.best_bid], lang),
                played_points=_points(advice.expected_scores[advice.played_for], lang),
            )
        )
    sentences.append(text("play-coach.how", lang))
    caption = text("play-coach.caption", lang, simulations=advice.simulations)
    return (
        f'<div class="{PLAY_CLASS}-coach">'
        + scroll_box(
            f'<table class="{PLAY_CLASS}-advice" style="{TABLE_STYLE}">'
            f"{caption_html(caption)}<thead><tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table>",
            label=caption,
        )
        + "".join(paragraph_html(sentence) for sentence in sentences)
        + "</div>"
    )


def _points(value: float, lang: str) -> str:
    return text("play-coach.points", lang, value=value).replace("-", MINUS)
