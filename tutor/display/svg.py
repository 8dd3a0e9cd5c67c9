"""Cards as SVG pictures: one card, a hand, a trick, and a face-down card.

Every picture is a self-contained SVG string (no external fonts, images or ids, so many
can sit on one page and the app works offline). This module lays the cards out and puts
words under them; each card's face (colours, suit shapes, emblems: colour is never the
only cue) is drawn by :mod:`tutor.display.card_face`. Each card carries classes naming
what it is (``card number suit-R rank-9``, ``card wizard``), ``role="img"``, and its name
in words (from :func:`tutor.teaching.explain.card_name`, so it follows the learner's
language) as ``aria-label`` and ``<title>``.

Sizes are in CSS pixels at ``scale=1`` (a card with its margin is about 91 × 123);
``scale=2`` suits a projector.

>>> svg = card_svg("R9")
>>> 'class="card number suit-R rank-9"' in svg, 'aria-label="red 9"' in svg
(True, True)
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Collection, Iterable, Sequence
from html import escape

from tutor.display.card_face import (
    FACE_HEIGHT,
    FACE_WIDTH,
    RING_MARGIN,
    _n,
    _points,
    card_classes,
    card_drawing,
    star_points,
)
from tutor.errors import InvalidCardError, InvalidPlayersError
from tutor.rules.cards import Card, parse_card, parse_cards
from tutor.teaching.explain import card_name
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, text

LABEL_UNITS = 16
"""Words under a card, in face units; never below :data:`MIN_LABEL_PIXELS` on screen."""
MIN_LABEL_PIXELS = 12
PIXELS_PER_UNIT = 0.8
FONT_FAMILY = "system-ui, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif"
_SLOT_WIDTH = FACE_WIDTH + 2 * RING_MARGIN
_SLOT_HEIGHT = FACE_HEIGHT + 2 * RING_MARGIN
_GAP = 8


def _attrs(**values: object) -> str:
    """XML attributes from keywords (``class_`` -> ``class``, ``aria_label`` -> ``aria-label``)."""
    parts = []
    for key, value in values.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = _n(value)
        parts.append(f'{name}="{escape(str(value))}"')
    return " ".join(parts)


def _label_units(scale: float) -> float:
    """The font size of words under cards, in face units: small cards keep readable words."""
    return max(LABEL_UNITS, MIN_LABEL_PIXELS / (PIXELS_PER_UNIT * scale))


def _line_units(scale: float) -> float:
    """The height of one line of words under the cards, in face units."""
    return round(_label_units(scale) * 1.45, 2)


def _text_width(words: str, size: float) -> float:
    """A generous estimate of the width of ``words`` (wide CJK characters count as 1 em)."""
    ems = sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.62 for ch in words)
    return ems * size


def _fit(words: str, size: float, width: float = _SLOT_WIDTH) -> str:
    """``words`` shortened with an ellipsis to fit ``width``, so neighbours never overlap.
    The full words stay in the picture's title and aria-label."""
    if _text_width(words, size) <= width:
        return words
    while words and _text_width(words + "…", size) > width:
        words = words[:-1]
    return words + "…"


def _wrap(words: str, size: float, width: float = _SLOT_WIDTH, lines: int = 3) -> list[str]:
    """``words`` broken at spaces into at most ``lines`` lines that fit ``width``."""
    result: list[str] = []
    for word in words.split():
        if result and _text_width(f"{result[-1]} {word}", size) <= width:
            result[-1] = f"{result[-1]} {word}"
        else:
            result.append(word)
    if len(result) > lines:
        result = [*result[: lines - 1], " ".join(result[lines - 1 :])]
    return result or [""]


def _label(
    words: str,
    x: float,
    y: float,
    size: float,
    *,
    klass: str = "label",
    bold: bool = False,
    width: float = _SLOT_WIDTH,
) -> str:
    """A line of words centred on x with its baseline at y, in the page's text colour,
    shortened to ``width`` if it must be."""
    weight = ' font-weight="700"' if bold else ""
    shown = _fit(words, size, width)
    title = f"<title>{escape(words)}</title>" if shown != words else ""
    return (
        f'<text class="{klass}" x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}"{weight} '
        f'text-anchor="middle" fill="currentColor">{title}{escape(shown)}</text>'
    )


def _card_words(card: Card | None, highlight: bool, dimmed: bool, lang: str) -> tuple[str, str]:
    """The card's classes and its name in words (``None``: face down)."""
    name = text("display.card-back", lang) if card is None else card_name(card, lang)
    klass = "card back" if card is None else card_classes(card)
    # "is-" prefixes: a bare "highlight" class picks up Pygments' code-block background
    # in JupyterLab and Voila.
    state = (" is-highlighted" if highlight else "") + (" is-dimmed" if dimmed else "")
    return klass + state, name


def _card_group(
    card: Card | None,
    *,
    x: float,
    y: float,
    highlight: bool,
    dimmed: bool,
    lang: str,
    extra_class: str = "",
) -> str:
    """One card (``None``: face down) as an image of its own at (x, y) in a larger picture."""
    klass, name = _card_words(card, highlight, dimmed, lang)
    return (
        f"<g {_attrs(class_=klass + extra_class, role='img', aria_label=name)} "
        f'transform="translate({_n(x)} {_n(y)})"><title>{escape(name)}</title>'
        + card_drawing(card, highlight=highlight, dimmed=dimmed)
        + "</g>"
    )


def _svg_root(
    body: str, *, width: float, height: float, scale: float, klass: str, label: str, role: str
) -> str:
    """The outer ``<svg>``: viewBox in face units, size in CSS pixels."""
    if not (isinstance(scale, int | float) and scale > 0 and math.isfinite(scale)):
        raise ValueError(f"invalid scale {scale!r}: a picture's scale is a positive number")
    view = f"{-RING_MARGIN} {-RING_MARGIN} {_n(width)} {_n(height)}"
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" '
        + _attrs(
            class_=klass,
            role=role,
            aria_label=label,
            width=_n(width * PIXELS_PER_UNIT * scale),
            height=_n(height * PIXELS_PER_UNIT * scale),
            viewBox=view,
            font_family=FONT_FAMILY,
        )
        + f"><title>{escape(label)}</title>{body}</svg>"
    )


def card_svg(
    card: Card | str,
    *,
    scale: float = 1.0,
    highlight: bool = False,
    dimmed: bool = False,
    label: str | None = None,
    lang: str = DEFAULT_LANGUAGE,
) -> str:
    """One card as an SVG picture.

    ``highlight`` draws a ring round it (e.g. selected), ``dimmed`` fades it (e.g. may not
    be played: say so in words too, with ``label``, words under the card, wrapped to fit).

    >>> svg = card_svg("W", scale=2)
    >>> 'class="card wizard"' in svg, 'width="182.4"' in svg, '>W</text>' in svg
    (True, True, True)
    >>> card_svg("R14")
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: invalid card 'R14': write a suit letter Y, R, G or B followed by a rank 1-13 (e.g. 'R9'), 'W' for a Wizard or 'J' for a Jester
    """
    return _single(parse_card(card), scale, highlight, dimmed, label, lang)


def face_down_svg(
    *, scale: float = 1.0, label: str | None = None, lang: str = DEFAULT_LANGUAGE
) -> str:
    """A face-down card (an opponent's hidden card, the stock).

    >>> 'class="card back"' in face_down_svg(), 'aria-label="face-down card"' in face_down_svg()
    (True, True)
    """
    return _single(None, scale, False, False, label, lang)


def _single(
    card: Card | None,
    scale: float,
    highlight: bool,
    dimmed: bool,
    label: str | None,
    lang: str,
) -> str:
    klass, name = _card_words(card, highlight, dimmed, lang)
    body = card_drawing(card, highlight=highlight, dimmed=dimmed)
    height: float = _SLOT_HEIGHT
    if label is not None:
        size = _label_units(scale)
        y = FACE_HEIGHT + RING_MARGIN + size
        for line in _wrap(label, size):
            body += _label(line, FACE_WIDTH / 2, y, size)
            y += _line_units(scale)
            height += _line_units(scale)
    return _svg_root(
        body, width=_SLOT_WIDTH, height=height, scale=scale, klass=klass, label=name, role="img"
    )


def _check_indices(indices: Collection[int], count: int, what: str) -> frozenset[int]:
    chosen = frozenset(indices)
    bad = sorted(i for i in chosen if not isinstance(i, int) or not 0 <= i < count)
    if bad:
        raise InvalidCardError(
            f"{what} {bad!r} out of range: the picture has {count} cards (indices 0 to {count - 1})"
        )
    return chosen


def hand_svg(
    cards: str | Iterable[Card | str],
    *,
    scale: float = 1.0,
    highlight: Collection[int] = (),
    dimmed: Collection[int] = (),
    labels: Sequence[str] | None = None,
    per_row: int | None = None,
    lang: str = DEFAULT_LANGUAGE,
) -> str:
    """A hand: the cards side by side in the given order (sort with ``Card.sort_key``).

    ``highlight`` and ``dimmed`` are card positions; ``labels`` a line of words under each
    card; ``per_row`` wraps a long hand onto several rows.

    >>> svg = hand_svg("W R9 B2 J", highlight=[1], dimmed=[3])
    >>> svg.count('role="img"'), 'class="card number suit-R rank-9 is-highlighted"' in svg
    (4, True)
    >>> hand_svg("R9 B2", dimmed=[2])
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: dimmed cards [2] out of range: the picture has 2 cards (indices 0 to 1)
    """
    hand = parse_cards(cards)
    lit = _check_indices(highlight, len(hand), "highlighted cards")
    faded = _check_indices(dimmed, len(hand), "dimmed cards")
    if labels is not None and len(labels) != len(hand):
        raise InvalidCardError(f"{len(labels)} labels for {len(hand)} cards: {list(labels)!r}")
    columns = max(1, min(per_row or len(hand) or 1, len(hand) or 1))
    rows = max(1, math.ceil(len(hand) / columns))
    size = _label_units(scale)
    row_height = _SLOT_HEIGHT + (_line_units(scale) if labels is not None else 0)
    body = []
    for index, card in enumerate(hand):
        x = (index % columns) * (_SLOT_WIDTH + _GAP)
        y = (index // columns) * (row_height + _GAP)
        body.append(
            _card_group(card, x=x, y=y, highlight=index in lit, dimmed=index in faded, lang=lang)
        )
        if labels is not None:
            words = labels[index]
            body.append(
                _label(words, x + FACE_WIDTH / 2, y + FACE_HEIGHT + RING_MARGIN + size, size)
            )
    words = join_words((card_name(card, lang) for card in hand), lang)
    label = text("display.hand", lang, cards=words) if hand else text("display.hand-empty", lang)
    return _svg_root(
        "".join(body),
        width=columns * _SLOT_WIDTH + (columns - 1) * _GAP,
        height=rows * row_height + (rows - 1) * _GAP,
        scale=scale,
        klass="hand",
        label=label,
        role="group",
    )


def trick_svg(
    cards: str | Iterable[Card | str],
    *,
    winner: int | None = None,
    players: Sequence[str] | None = None,
    scale: float = 1.0,
    lang: str = DEFAULT_LANGUAGE,
) -> str:
    """A trick: the cards in play order (leader first, left to right), each player's name
    under their card, and the winner (an index in play order, as the engine's
    :func:`tutor.trick_winner` gives it) marked by a ring AND the word "wins".

    >>> from tutor.rules.trick import trick_winner
    >>> svg = trick_svg("J B5 B11 B7", winner=trick_winner("J B5 B11 B7", "R"),
    ...                 players="ABCD")
    >>> svg.count('class="winner-mark"'), 'C takes the trick' in svg
    (1, True)
    >>> trick_svg("J B5", winner=2)
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: winner [2] out of range: the picture has 2 cards (indices 0 to 1)
    """
    plays = parse_cards(cards)
    names = tuple(players) if players is not None else None
    if names is not None and len(names) != len(plays):
        raise InvalidPlayersError(
            f"{len(names)} player names for {len(plays)} cards: {list(names)!r}"
        )
    if winner is not None:
        _check_indices([winner], len(plays), "winner")
    body = []
    size = _label_units(scale)
    lines = (1 if names is not None else 0) + (1 if winner is not None else 0)
    # Each card's column is wide enough for its player's name and the winner's mark, so
    # no name is cut ("A（あなた）" under a small card): the cards move apart instead.
    # A name longer than two cards' width is still shortened (its title keeps it whole).
    words = [*(names or ()), *([_winner_words(lang)] if winner is not None else [])]
    column = max([_SLOT_WIDTH, *(_text_width(w, size) + 0.6 * size for w in words)])
    column = min(column, 2 * _SLOT_WIDTH)
    if winner is not None:
        column = max(column, _text_width(_winner_words(lang), size) + 2.4 * size)
    for index, card in enumerate(plays):
        x = index * (column + _GAP) + (column - _SLOT_WIDTH) / 2
        won = index == winner
        body.append(
            _card_group(
                card,
                x=x,
                y=0,
                highlight=won,
                dimmed=False,
                lang=lang,
                extra_class=" winner" if won else "",
            )
        )
        y = FACE_HEIGHT + RING_MARGIN + size
        if names is not None:
            body.append(
                _label(names[index], x + FACE_WIDTH / 2, y, size, klass="player", width=column)
            )
            y += _line_units(scale)
        if won:
            body.append(_winner_mark(x + FACE_WIDTH / 2, y, size, lang, width=column))
    described = [
        text("display.played-by", lang, player=names[i], card=card_name(card, lang))
        if names is not None
        else card_name(card, lang)
        for i, card in enumerate(plays)
    ]
    if not plays:
        label = text("display.trick-empty", lang)
    elif winner is None:
        label = text("display.trick", lang, cards=join_words(described, lang))
    else:
        who = names[winner] if names is not None else card_name(plays[winner], lang)
        who = who[:1].upper() + who[1:]  # it starts a sentence: "Blue 11 takes the trick."
        label = text("display.trick-won", lang, cards=join_words(described, lang), winner=who)
    count = max(len(plays), 1)
    return _svg_root(
        "".join(body),
        width=count * column + (count - 1) * _GAP,
        height=_SLOT_HEIGHT + lines * _line_units(scale),
        scale=scale,
        klass="trick",
        label=label,
        role="group",
    )


def _winner_words(lang: str) -> str:
    return text("display.wins", lang)


def _winner_mark(cx: float, y: float, size: float, lang: str, *, width: float = _SLOT_WIDTH) -> str:
    """A star and the word "wins" under the winning card (not colour alone)."""
    words = _winner_words(lang)
    # The star sits left of the word; the pair is centred under the card.
    half = min(_text_width(words, size), width - 2 * size) / 2
    text_x = cx + 0.6 * size
    star_x = text_x - half - 0.7 * size
    star = _points(star_points(star_x, y - 0.35 * size, 0.45 * size))
    return (
        f'<g class="winner-mark"><polygon points="{star}" fill="currentColor"/>'
        + _label(words, text_x, y, size, klass="winner-label", bold=True, width=width)
        + "</g>"
    )
