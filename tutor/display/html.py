"""HTML views of the engine's values: the score sheet and a round in progress.

Plain, accessible markup (a real ``<table>`` with ``<caption>`` and header scopes, words
for every state) with inline styles only, so it shows the same in JupyterLab, Voilà and a
static page, on light and dark themes (text keeps the page's colour).

>>> from tutor.rules.scoring import ScoreSheet
>>> sheet = ScoreSheet(players=3, names=["Ann", "Ben", "Cleo"])
>>> _ = sheet.record(bids=[1, 0, 1], taken=[1, 0, 0])
>>> page = score_sheet_html(sheet)
>>> "<caption" in page, "−10" in page, "+30" in page
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Iterator
from html import escape

from tutor.display.svg import card_svg, hand_svg, trick_svg
from tutor.display.words import words_html
from tutor.rules.round import Phase, Round
from tutor.rules.scoring import ScoreRow, ScoreSheet
from tutor.rules.trump import RevealRule
from tutor.teaching.explain import (
    MINUS,
    describe_reveal,
    describe_trick,
    format_points,
    unbroken,
)
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, text, text_for_count

__all__ = [
    "MINUS",
    "format_points",
    "round_html",
    "score_sheet_html",
]  # the first two from tutor.teaching.explain

_TABLE = "border-collapse:collapse;font-variant-numeric:tabular-nums;margin:0.5em 0"
_CELL = "padding:0.2em 0.6em;border:1px solid #8a8a8a;text-align:right;white-space:nowrap"
HEAD_STYLE = (
    "padding:0.2em 0.6em;border:1px solid #8a8a8a;text-align:center;"
    # Japanese and Chinese words have no spaces: keep-all breaks a heading only where a
    # space is (e.g. around an arrow), never inside 取ったトリック or 預報.
    "word-break:keep-all;overflow-wrap:normal"
)
"""The style of a header cell: centred, never broken inside a word."""
_HEAD = HEAD_STYLE
_CAPTION = "caption-side:top;text-align:left;font-weight:600;padding-bottom:0.3em"
_CAPTION_WORDS = (
    # A caption is as wide as its table: in a box that scrolls the table (scroll_box, a
    # container), its words wrap at the box's width instead and stay in view as it scrolls.
    "display:block;max-width:100cqi;position:sticky;left:0"
)
_PAGE = "var(--jp-layout-color0, #ffffff)"
_STICKY = f"position:sticky;left:0;z-index:1;background:{_PAGE}"
SCROLL_STYLE = (
    # width 0 and min-width 100%: as wide as its box, but never widening it (a box that
    # grows with the table, as a Jupyter output does, would never need to scroll).
    "overflow-x:auto;width:0;min-width:100%;"
    # its width is the unit of a caption's words inside (caption_html)
    "container-type:inline-size;"
    # Shadows at an edge with more table beyond it, so a phone shows that it scrolls: the
    # page-coloured covers scroll with the content and hide a shadow at the very end.
    f"background:linear-gradient(to right,{_PAGE} 30%,transparent) left/2.5em 100% no-repeat local,"
    f"linear-gradient(to left,{_PAGE} 30%,transparent) right/2.5em 100% no-repeat local,"
    "radial-gradient(farthest-side at 0 50%,rgba(0,0,0,0.35),transparent) left/1em 100% no-repeat scroll,"
    "radial-gradient(farthest-side at 100% 50%,rgba(0,0,0,0.35),transparent) right/1em 100% no-repeat scroll"
)
"""The style of a box that scrolls sideways inside itself, showing it can."""


KEYS_HINT_CLASS = "tutor-keys-hint"
"""Words about keys (Tab, Enter, the arrow keys): shown only where there is a keyboard."""
KEYS_HINT_CSS = f"""<style>
/* A phone or a tablet (no fine pointer that hovers) has no Tab or arrow keys to press. */
@media not ((hover: hover) and (pointer: fine)) {{
  .{KEYS_HINT_CLASS} {{ display: none !important; }}
}}
</style>"""


WITHOUT_ITALICS = ("ja", "zh-Hant")
"""Languages whose script has no italics: a browser slants their characters instead, which
reads as a mistake. Their emphasis is the words themselves."""


def title_markdown(title: str, lead: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """A page's title and its lead paragraph as Markdown: the lead in italics where the
    language has italics.

    >>> print(title_markdown("Trump", "Which suit wins.", "en"))
    # Trump
    <BLANKLINE>
    *Which suit wins.*
    >>> print(title_markdown("切り札", "どのスートが勝つか。", "ja"))
    # 切り札
    <BLANKLINE>
    どのスートが勝つか。
    >>> title_markdown("Play", "", "en")
    '# Play'
    """
    if not lead:
        return f"# {title}"
    lead = unbroken(lead)  # Markdown: a card's name kept whole with plain characters
    return f"# {title}\n\n" + (lead if lang in WITHOUT_ITALICS else f"*{lead}*")


def scroll_box(inner: str, *, label: str) -> str:
    """``inner`` (a wide table) in a box that scrolls sideways when the page is narrower,
    with a shadow at the edge that has more beyond it; the box takes keyboard focus, so
    the arrow keys scroll it too.

    >>> box = scroll_box("<table></table>", label="Score sheet")
    >>> 'role="region"' in box, 'tabindex="0"' in box, "overflow-x:auto" in box
    (True, True, True)
    """
    return (
        f'<div class="tutor-scroll" role="region" tabindex="0" aria-label="{escape(label)}" '
        f'style="{SCROLL_STYLE}">{inner}</div>'
    )


def caption_html(words: str) -> str:
    """A table's caption, ``words`` escaped, readable however wide the table: in a
    :func:`scroll_box` its words wrap within what the box shows, never cut at its edge.

    >>> caption_html("Score sheet & totals")
    '<caption style="caption-side:top;...">Score sheet &amp; totals</span></caption>'
    """
    return (
        f'<caption style="{_CAPTION}"><span style="{_CAPTION_WORDS}">{escape(words)}</span>'
        "</caption>"
    )


def _sign_class(points: int) -> str:
    return "negative" if points < 0 else "positive" if points > 0 else "zero"


def _seat_entries(row: ScoreRow) -> Iterator[tuple[tuple[str, str], ...]]:
    """Each seat's entries of a round's row, as (class, words): bid → taken, the round's
    points, the running total."""
    for bid, taken, points, total in zip(row.bids, row.taken, row.points, row.totals, strict=True):
        yield (
            ("bid-taken", f"{bid} → {taken}"),
            (f"points {_sign_class(points)}", format_points(points, signed=True)),
            (f"total {_sign_class(total)}", format_points(total)),
        )


def _sheet_box(klass: str, style: str, inner: str, lang: str) -> str:
    """A score sheet's table (class ``klass``, its rows ``inner``) with its caption, in a
    box that scrolls sideways if it must (:func:`scroll_box`)."""
    caption = text("display.score-caption", lang)
    return scroll_box(
        f'<table class="{klass}" style="{style}">{caption_html(caption)}{inner}</table>',
        label=caption,
    )


def _no_rounds_row(columns: int, style: str, lang: str) -> str:
    """A sheet's only row before any round is scored: it says so."""
    return (
        f'<tr><td colspan="{columns}" style="{style}">'
        f"{escape(text('display.score-no-rounds', lang))}</td></tr>"
    )


def _leaders(sheet: ScoreSheet) -> set[int]:
    """The seats that lead (★) once a round is scored."""
    return set(sheet.leaders()) if sheet.rows else set()


def score_sheet_html(
    sheet: ScoreSheet, *, over: bool = False, lang: str = DEFAULT_LANGUAGE, narrow: bool = False
) -> str:
    """The score sheet as a table: per round and player the bid → tricks taken, the points
    and the running total; the totals at the foot, marking who leads (★ leads) or, once
    the game is ``over``, who won (★ wins).

    ``narrow=True`` adds the same sheet one column a player, for a phone: the page shows
    one form or the other by the width of its box (with :data:`SHEET_SWITCH_CSS`).

    >>> from tutor.rules.scoring import ScoreSheet
    >>> sheet = ScoreSheet(players=3)
    >>> _ = sheet.record(bids=[2, 0, 1], taken=[2, 0, 0])
    >>> page = score_sheet_html(sheet)
    >>> "2 → 2" in page, '<th scope="colgroup" colspan="3"' in page, page.count("<tr")
    (True, True, 4)
    >>> both = score_sheet_html(sheet, narrow=True)
    >>> both.count('class="score-sheet"'), both.count('class="score-sheet-narrow"')
    (1, 1)
    >>> "★ leads" in page, "★ wins" in score_sheet_html(sheet, over=True)
    (True, True)
    """
    if narrow:
        return (
            f'<div class="{SHEET_WIDE_CLASS}">{score_sheet_html(sheet, over=over, lang=lang)}</div>'
            f'<div class="{SHEET_NARROW_CLASS}">{_narrow_sheet_html(sheet, over, lang)}</div>'
        )
    names = sheet.names
    head_top = "".join(
        f'<th scope="colgroup" colspan="3" style="{_HEAD}">{escape(name)}</th>' for name in names
    )
    sub_heads = "".join(
        f'<th scope="col" style="{_HEAD}">{escape(text(f"display.score-{key}", lang))}</th>'
        for _ in names
        for key in ("bid-taken", "points", "total")
    )
    rows = []
    for number, row in enumerate(sheet.rows, start=1):
        cells = [
            f'<td class="{klass}" style="{_CELL}">{words}</td>'
            for seat in _seat_entries(row)
            for klass, words in seat
        ]
        rows.append(
            f'<tr><th scope="row" style="{_HEAD};{_STICKY}">{number}</th>'
            f'<td style="{_CELL}">{row.cards}</td>{"".join(cells)}</tr>'
        )
    rows = rows or [_no_rounds_row(2 + 3 * len(names), _HEAD, lang)]
    leaders = _leaders(sheet)
    mark = "winner" if over else "leader"
    foot = "".join(
        f'<td colspan="3" class="grand-total {_sign_class(total)}" style="{_CELL};'
        f'font-weight:{700 if seat in leaders else 400}">{format_points(total)}'
        + (f" ★ {escape(text(f'display.score-{mark}', lang))}" if seat in leaders else "")
        + "</td>"
        for seat, total in enumerate(sheet.totals)
    )
    return _sheet_box(
        "score-sheet",
        _TABLE,
        f"<thead><tr>"
        f'<th scope="col" rowspan="2" style="{_HEAD};{_STICKY}">'
        f"{escape(text('display.score-round', lang))}</th>"
        f'<th scope="col" rowspan="2" style="{_HEAD}">'
        f"{escape(text('display.score-cards', lang))}</th>{head_top}</tr>"
        f"<tr>{sub_heads}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody>"
        f'<tfoot><tr><th scope="row" colspan="2" style="{_HEAD};{_STICKY}">'
        f"{escape(text('display.score-totals', lang))}</th>{foot}</tr></tfoot>",
        lang,
    )


_NARROW_CELL = "padding:0.2em 0.25em;border:1px solid #8a8a8a;text-align:right;vertical-align:top"
_NARROW_HEAD = f"{_HEAD};padding:0.2em 0.25em"
_LINE = "display:block;white-space:nowrap"
_SMALL = f"{_LINE};font-size:0.85em"
_NARROW_LINES = (_SMALL, _SMALL, f"{_LINE};font-weight:700")
_SMALL_WORDS = "display:block;font-size:0.85em"
"""Words under a number (the round's cards, ★ leads): they may wrap, in Japanese between
any two characters, so that a phone's narrow column (240 px in Lab) holds the sheet."""
"""The styles of a seat's entries one under another (the total stands out)."""

SHEET_WIDE_CLASS = "tutor-sheet-wide"
SHEET_NARROW_CLASS = "tutor-sheet-narrow"
SHEET_SWITCH_CSS = f"""<style>
/* A score sheet in both forms (score_sheet_html(..., narrow=True)) shows one: the whole
   sheet, three columns a player, where its box is wide; on a phone, one column a player
   (bid → taken, points and total one under another), which fits without scrolling. */
.{SHEET_NARROW_CLASS} {{ display: none; }}
@container (max-width: 899.98px) {{
  .{SHEET_WIDE_CLASS} {{ display: none; }}
  .{SHEET_NARROW_CLASS} {{ display: block; }}
}}
</style>"""
"""The style that switches the two forms by the width of the box they are in (a
container: the play screen)."""


def _narrow_sheet_html(sheet: ScoreSheet, over: bool, lang: str) -> str:
    """The score sheet one column a player: per round each player's bid → taken, the
    round's points and the running total one under another (the whole sheet's three
    columns, in their order); the round's cards under its number."""
    words = {
        key: escape(text(f"display.score-{key}", lang))
        for key in ("round", "cards", "bid-taken", "points", "total", "totals")
    }
    legend = (
        f'<span style="{_SMALL_WORDS}">{words["bid-taken"]}</span>'
        f'<span style="{_SMALL_WORDS}">{words["points"]}</span>'
        f'<span style="{_SMALL_WORDS};font-weight:700">{words["total"]}</span>'
    )
    heads = "".join(
        f'<th scope="col" style="{_NARROW_HEAD}">{escape(name)}</th>' for name in sheet.names
    )
    rows = []
    for number, row in enumerate(sheet.rows, start=1):
        cells = "".join(
            f'<td style="{_NARROW_CELL}">'
            + "".join(
                f'<span class="{klass}" style="{style}">{words}</span>'
                for (klass, words), style in zip(seat, _NARROW_LINES, strict=True)
            )
            + "</td>"
            for seat in _seat_entries(row)
        )
        rows.append(
            f'<tr><th scope="row" style="{_NARROW_HEAD}">{number}'
            f'<span style="{_SMALL_WORDS};font-weight:400">{words["cards"]} {row.cards}</span></th>'
            f"{cells}</tr>"
        )
    rows = rows or [_no_rounds_row(1 + len(sheet.names), _NARROW_HEAD, lang)]
    leaders = _leaders(sheet)
    mark = "winner" if over else "leader"
    foot = "".join(
        f'<td class="grand-total {_sign_class(total)}" style="{_NARROW_CELL};'
        f'font-weight:{700 if seat in leaders else 400}">{format_points(total)}'
        + (
            f'<span style="{_SMALL_WORDS}">★ {escape(text(f"display.score-{mark}", lang))}</span>'
            if seat in leaders
            else ""
        )
        + "</td>"
        for seat, total in enumerate(sheet.totals)
    )
    return _sheet_box(
        "score-sheet-narrow",
        f"{_TABLE};width:100%;font-size:0.9em",
        f'<thead><tr><th scope="col" style="{_NARROW_HEAD}">{words["round"]}</th>{heads}</tr>'
        f'<tr><td style="{_NARROW_HEAD}"></td><td colspan="{len(sheet.names)}" '
        f'style="{_NARROW_HEAD};text-align:right">{legend}</td></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody>"
        f'<tfoot><tr><th scope="row" style="{_NARROW_HEAD}">{words["totals"]}</th>{foot}</tr></tfoot>',
        lang,
    )


def _bid_words(rnd: Round, owner: int, seat: int | None, lang: str) -> str:
    bid = rnd.bids[owner]
    if bid is None:
        return text("display.round-bid-none", lang)
    if not rnd.bid_visible(owner, to=seat):
        return text("display.round-bid-hidden", lang)
    return str(bid)


def round_html(
    rnd: Round, *, seat: int | None = None, scale: float = 0.7, lang: str = DEFAULT_LANGUAGE
) -> str:
    """A round as the table shows it: the turned card and trump, each player's hand, bid
    and tricks taken, the trick being played and the tricks played so far (each with the
    engine's reason for its winner).

    ``seat=None`` is the teacher's view: every hand face up; bids shown as the variant lets
    an onlooker see them. With a ``seat``, only that seat's hand is face up and bids follow
    what that seat may see (:meth:`Round.bid_visible`).

    >>> from tutor.rules.round import Round
    >>> rnd = Round(hands=["J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10"], turned="R9",
    ...             dealer=3)
    >>> page = round_html(rnd)
    >>> "red is trump" in page, page.count('class="hand"'), "D (dealer)" in page
    (True, 4, True)
    >>> round_html(rnd, seat=0).count('class="hand"')
    1
    """
    if seat is not None:
        rnd.view(seat)  # validates the seat (InvalidPlayersError names the range)
    names = rnd.names
    chosen = rnd.trump if rnd.reveal.rule is RevealRule.WIZARD else None
    if rnd.turned is not None:
        turned = card_svg(rnd.turned, scale=scale, lang=lang)
    else:
        turned = f"<span>{escape(text('display.round-nothing-turned', lang))}</span>"
    reveal = describe_reveal(rnd.reveal, chosen, lang)
    header = text_for_count(
        "display.round-title",
        rnd.cards,
        lang,
        cards=rnd.cards,
        players=rnd.players,
        dealer=names[rnd.dealer],
    )
    seat_rows = []
    for owner, name in enumerate(names):
        who = name
        if owner == rnd.dealer:
            who = text("display.round-dealer", lang, name=who)
        if owner == rnd.to_act and rnd.phase is not Phase.FINISHED:
            who = text("display.round-to-act", lang, name=who)
        count = len(rnd.hands[owner])
        if not count:
            hand = escape(text("display.round-hand-empty", lang))
        elif seat is None or owner == seat:
            hand = hand_svg(rnd.hands[owner], scale=scale, lang=lang)
        else:
            hand = escape(text_for_count("display.round-hand-hidden", count, lang, count=count))
        seat_rows.append(
            f'<tr><th scope="row" style="{_HEAD};text-align:left">{escape(who)}</th>'
            f'<td style="{_CELL};text-align:left">{hand}</td>'
            f'<td style="{_CELL}">{escape(_bid_words(rnd, owner, seat, lang))}</td>'
            f'<td style="{_CELL}">{rnd.taken[owner]}</td></tr>'
        )
    seats_table = (
        f'<table class="seats" style="{_TABLE}">'
        f"{caption_html(text('display.round-seats-caption', lang))}<thead><tr>"
        + "".join(
            f'<th scope="col" style="{_HEAD}">{escape(text(f"display.round-{key}", lang))}</th>'
            for key in ("player", "hand", "bid", "taken")
        )
        + f"</tr></thead><tbody>{''.join(seat_rows)}</tbody></table>"
    )
    parts = [
        f'<section class="wizard-round" aria-label="{escape(header)}">',
        f'<p style="font-weight:700;margin:0.3em 0">{escape(header)}</p>',
        '<div class="reveal" style="display:flex;gap:1em;align-items:center">',
        f"<div>{turned}</div><p>{words_html(reveal)}</p></div>",
        seats_table,
    ]
    if rnd.current_trick:
        number = len(rnd.tricks) + 1
        parts.append(
            f'<p style="font-weight:600;margin:0.5em 0 0.2em">'
            f"{escape(text('display.round-current-trick', lang, number=number))}</p>"
            + trick_svg(
                [card for _, card in rnd.current_trick],
                players=[names[who] for who, _ in rnd.current_trick],
                scale=scale,
                lang=lang,
            )
        )
    if rnd.tricks:
        parts.append(
            f'<p style="font-weight:600;margin:0.5em 0 0.2em">'
            f'{escape(text("display.round-tricks", lang))}</p><ol class="tricks">'
        )
        for trick in rnd.tricks:
            players = [names[who] for who in trick.seats]
            picture = trick_svg(
                trick.cards,
                winner=trick.explanation.winner,
                players=players,
                scale=scale,
                lang=lang,
            )
            reason = describe_trick(trick.explanation, players, lang)
            parts.append(f'<li><p style="margin:0.2em 0">{words_html(reason)}</p>{picture}</li>')
        parts.append("</ol>")
    if rnd.finished:
        points = join_words(
            (
                f"{name} {format_points(score, signed=True)}"
                for name, score in zip(names, rnd.scores(), strict=True)
            ),
            lang,
        )
        parts.append(f"<p>{escape(text('display.round-finished', lang, points=points))}</p>")
    parts.append("</section>")
    return "".join(parts)
