"""A card's face drawn in SVG: the suits' colours and shapes, the Wizard's hat, the
Jester's cap, the corner index, the card back and the highlight ring.

Everything here is drawn in face units (a face is 100 × 140) with no position of its own:
:mod:`tutor.display.svg` places faces in a card, a hand or a trick, with their words.
Colour is never the only cue: a number card shows its rank, its suit letter and a suit
shape whose outline differs per suit (yellow a sun, red a diamond, green a triangle, blue
a square with a wave); a Wizard shows ``W`` and a hat, a Jester ``J`` and a cap.

>>> from tutor.rules.cards import parse_card
>>> face = card_drawing(parse_card("G3"), highlight=True, dimmed=False)
>>> 'class="highlight-ring"' in face, 'class="suit-symbol triangle"' in face
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape

from tutor.rules.cards import Card, Suit

FACE_WIDTH = 100
FACE_HEIGHT = 140
RING_MARGIN = 7
"""Room around the face for the highlight ring, so highlighting never changes the size."""
RING_DARK = "#111111"
RING_LIGHT = "#ffffff"


@dataclass(frozen=True, slots=True)
class SuitStyle:
    """How one suit (or a Wizard, Jester, card back) is drawn: ``fill`` for the shape,
    ``tint`` the card face, ``ink`` the rank and letter (at least 7:1 against the tint),
    ``edge`` the card's border, the shape's name. The edge or the face stands out 3:1
    against a white page, so the card's outline is seen."""

    fill: str
    tint: str
    ink: str
    edge: str
    shape: str


# Hues near the printed deck, spaced in lightness so they stay apart without hue (red-green
# colour blindness, greyscale print); the shapes and letters carry the suit anyway.
SUIT_STYLES: dict[Suit, SuitStyle] = {
    Suit.YELLOW: SuitStyle("#f0c000", "#fff6d1", "#4d3a00", "#a67c00", "sun"),
    Suit.RED: SuitStyle("#cc3311", "#fde6e0", "#7a1c05", "#cc3311", "diamond"),
    Suit.GREEN: SuitStyle("#2fae72", "#dcf2e7", "#0b4d2e", "#1f8a57", "triangle"),
    Suit.BLUE: SuitStyle("#005a9c", "#dceaf6", "#003a66", "#005a9c", "wave-square"),
}

WIZARD_STYLE = SuitStyle("#9d8df1", "#2b2560", "#ffffff", "#9d8df1", "hat")
JESTER_STYLE = SuitStyle("#5a5a5a", "#f4f4f4", "#1a1a1a", "#5a5a5a", "cap")
BACK_STYLE = SuitStyle("#5b6e99", "#34425f", "#dfe6f5", "#34425f", "lattice")


def _n(value: float) -> str:
    """A coordinate, short: at most two decimals, no trailing zeros."""
    return f"{round(value, 2):g}"


# -- suit shapes ------------------------------------------------------------------------


def _suit_shape(suit: Suit, cx: float, cy: float, r: float) -> str:
    """The suit's shape centred on (cx, cy), about ``2r`` across, outlined in its ink."""
    style = SUIT_STYLES[suit]
    line = _n(max(r * 0.14, 0.8))
    common = f'fill="{style.fill}" stroke="{style.ink}" stroke-width="{line}"'
    klass = f"suit-symbol {style.shape}"
    if suit is Suit.YELLOW:  # a sun: a disc with eight rays
        rays = []
        for step in range(8):
            angle = step * math.pi / 4
            x1, y1 = cx + 0.66 * r * math.cos(angle), cy + 0.66 * r * math.sin(angle)
            x2, y2 = cx + r * math.cos(angle), cy + r * math.sin(angle)
            rays.append(f"M{_n(x1)} {_n(y1)}L{_n(x2)} {_n(y2)}")
        return (
            f'<g class="{klass}"><path d="{"".join(rays)}" stroke="{style.ink}" '
            f'stroke-width="{_n(r * 0.2)}" stroke-linecap="round"/>'
            f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r * 0.5)}" {common}/></g>'
        )
    if suit is Suit.RED:  # a tall diamond
        points = [(cx, cy - r), (cx + 0.7 * r, cy), (cx, cy + r), (cx - 0.7 * r, cy)]
        return f'<polygon class="{klass}" points="{_points(points)}" {common}/>'
    if suit is Suit.GREEN:  # a triangle standing on its base
        points = [(cx, cy - r), (cx + 0.95 * r, cy + 0.8 * r), (cx - 0.95 * r, cy + 0.8 * r)]
        return (
            f'<polygon class="{klass}" points="{_points(points)}" {common} '
            'stroke-linejoin="round"/>'
        )
    # blue: a square crossed by a wave
    side = 1.6 * r
    wave = (
        f"M{_n(cx - 0.62 * r)} {_n(cy + 0.05 * r)}"
        f"q{_n(0.31 * r)} {_n(-0.4 * r)} {_n(0.62 * r)} 0"
        f"t{_n(0.62 * r)} 0"
    )
    return (
        f'<g class="{klass}"><rect x="{_n(cx - side / 2)}" y="{_n(cy - side / 2)}" '
        f'width="{_n(side)}" height="{_n(side)}" rx="{_n(r * 0.22)}" {common}/>'
        f'<path d="{wave}" fill="none" stroke="{RING_LIGHT}" stroke-width="{_n(r * 0.22)}" '
        'stroke-linecap="round"/></g>'
    )


def _points(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _wizard_hat(cx: float, cy: float, r: float) -> str:
    """A pointed hat with a star, about ``2r`` across (the Wizard's emblem)."""
    style = WIZARD_STYLE
    cone = [(cx + 0.15 * r, cy - r), (cx + 0.62 * r, cy + 0.62 * r), (cx - 0.62 * r, cy + 0.62 * r)]
    star = star_points(cx, cy + 0.12 * r, 0.3 * r)
    return (
        f'<g class="emblem hat"><polygon points="{_points(cone)}" fill="{style.fill}" '
        f'stroke="{style.ink}" stroke-width="{_n(r * 0.08)}" stroke-linejoin="round"/>'
        f'<ellipse cx="{_n(cx)}" cy="{_n(cy + 0.66 * r)}" rx="{_n(r)}" ry="{_n(0.2 * r)}" '
        f'fill="{style.fill}" stroke="{style.ink}" stroke-width="{_n(r * 0.08)}"/>'
        f'<polygon points="{_points(star)}" fill="#ffd23f"/></g>'
    )


def star_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    points = []
    for step in range(10):
        radius = r if step % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + step * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def _jester_cap(cx: float, cy: float, r: float) -> str:
    """A three-pointed cap with bells, about ``2r`` across (the Jester's emblem)."""
    band_top = cy + 0.35 * r
    horns = (
        (-1.0, "#4a4a4a", (cx - 0.55 * r, band_top), (cx - 1.0 * r, cy - 0.55 * r)),
        (0.0, "#8a8a8a", (cx, band_top), (cx, cy - 0.95 * r)),
        (1.0, "#4a4a4a", (cx + 0.55 * r, band_top), (cx + 1.0 * r, cy - 0.55 * r)),
    )
    parts = ['<g class="emblem cap">']
    for side, colour, (bx, by), (tx, ty) in horns:
        half = 0.3 * r
        bend = 0.35 * r * side
        path = (
            f"M{_n(bx - half)} {_n(by)}Q{_n(bx - half + bend)} {_n((by + ty) / 2)} {_n(tx)} {_n(ty)}"
            f"Q{_n(bx + half + bend)} {_n((by + ty) / 2)} {_n(bx + half)} {_n(by)}Z"
        )
        parts.append(
            f'<path d="{path}" fill="{colour}" stroke="{JESTER_STYLE.ink}" '
            f'stroke-width="{_n(r * 0.07)}" stroke-linejoin="round"/>'
        )
    for _, _, _, (tx, ty) in horns:
        parts.append(
            f'<circle cx="{_n(tx)}" cy="{_n(ty)}" r="{_n(0.16 * r)}" fill="#f2b705" '
            f'stroke="{JESTER_STYLE.ink}" stroke-width="{_n(r * 0.06)}"/>'
        )
    parts.append(
        f'<rect x="{_n(cx - 0.95 * r)}" y="{_n(band_top)}" width="{_n(1.9 * r)}" '
        f'height="{_n(0.4 * r)}" rx="{_n(0.12 * r)}" fill="{JESTER_STYLE.fill}" '
        f'stroke="{JESTER_STYLE.ink}" stroke-width="{_n(r * 0.07)}"/></g>'
    )
    return "".join(parts)


# -- one card ---------------------------------------------------------------------------


def card_classes(card: Card) -> str:
    """The CSS classes of a card's picture: what it is, in words a test or style can read.

    >>> from tutor.rules.cards import parse_card
    >>> card_classes(parse_card("B11")), card_classes(parse_card("W"))
    ('card number suit-B rank-11', 'card wizard')
    """
    if card.is_wizard:
        return "card wizard"
    if card.is_jester:
        return "card jester"
    return f"card number suit-{card.suit} rank-{card.rank}"


def _corner(big: str, small: str | None, ink: str, emblem: str) -> str:
    """The corner index (rank, suit letter, small shape) seen even when cards overlap."""
    size = 19 if len(big) == 1 else 17  # "10"-"13" stay inside the card's edge
    parts = [
        f'<text class="corner-rank" x="15" y="23" font-size="{size}" font-weight="700" '
        f'text-anchor="middle" fill="{ink}">{escape(big)}</text>'
    ]
    if small is not None:
        parts.append(
            f'<text class="suit-letter" x="15" y="39" font-size="15" font-weight="700" '
            f'text-anchor="middle" fill="{ink}">{escape(small)}</text>'
        )
    parts.append(emblem)
    return "".join(parts)


def _face(card: Card) -> str:
    """The card's face, drawn in face units (0..100 × 0..140)."""
    if card.is_number:
        assert card.suit is not None
        style = SUIT_STYLES[card.suit]
        rank = str(card.rank)
        corner = _corner(rank, card.suit.value, style.ink, _suit_shape(card.suit, 15, 50, 6))
        centre = (
            f'<text class="rank" x="50" y="86" font-size="44" font-weight="800" '
            f'text-anchor="middle" fill="{style.ink}">{rank}</text>'
            + _suit_shape(card.suit, 50, 110, 12)
        )
    elif card.is_wizard:
        style = WIZARD_STYLE
        corner = _corner("W", None, style.ink, _star_tag(15, 38, 6))
        centre = (
            f'<text class="rank" x="50" y="82" font-size="46" font-weight="800" '
            f'text-anchor="middle" fill="{style.ink}">W</text>' + _wizard_hat(50, 106, 19)
        )
    else:
        style = JESTER_STYLE
        corner = _corner("J", None, style.ink, _bell_tag(15, 36, 5))
        centre = (
            f'<text class="rank" x="50" y="78" font-size="46" font-weight="800" '
            f'text-anchor="middle" fill="{style.ink}">J</text>' + _jester_cap(50, 112, 18)
        )
    return (
        f'<rect class="card-face" x="1.5" y="1.5" width="{FACE_WIDTH - 3}" '
        f'height="{FACE_HEIGHT - 3}" rx="9" fill="{style.tint}" stroke="{style.edge}" '
        'stroke-width="3"/>'
        + corner
        + f'<g transform="rotate(180 {FACE_WIDTH / 2:g} {FACE_HEIGHT / 2:g})">{corner}</g>'
        + centre
    )


def _star_tag(cx: float, cy: float, r: float) -> str:
    return f'<polygon points="{_points(star_points(cx, cy, r))}" fill="#ffd23f"/>'


def _bell_tag(cx: float, cy: float, r: float) -> str:
    return (
        f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r * 0.6)}" fill="#f2b705" '
        f'stroke="{JESTER_STYLE.ink}" stroke-width="1"/>'
    )


def _back_face() -> str:
    """A card back: a lattice of small diamonds inside a frame; no suit, no rank."""
    style = BACK_STYLE
    diamonds = []
    for row in range(9):
        for column in range(5):
            cx = 20 + column * 15 + (7.5 if row % 2 else 0)
            cy = 18 + row * 13
            if cx > 84:
                continue
            diamonds.append(
                f"M{_n(cx)} {_n(cy - 5)}L{_n(cx + 4)} {_n(cy)}L{_n(cx)} {_n(cy + 5)}"
                f"L{_n(cx - 4)} {_n(cy)}Z"
            )
    return (
        f'<rect class="card-face" x="1.5" y="1.5" width="{FACE_WIDTH - 3}" '
        f'height="{FACE_HEIGHT - 3}" rx="9" fill="{style.tint}" stroke="{style.edge}" '
        'stroke-width="3"/>'
        f'<rect x="9" y="9" width="82" height="122" rx="5" fill="none" '
        f'stroke="{style.ink}" stroke-width="1.5"/>'
        f'<path d="{"".join(diamonds)}" fill="{style.fill}"/>'
    )


def _ring() -> str:
    """The highlight ring: a dark line on a light halo, visible on light and dark pages."""
    geometry = (
        f'x="{-RING_MARGIN / 2 - 1:g}" y="{-RING_MARGIN / 2 - 1:g}" '
        f'width="{FACE_WIDTH + RING_MARGIN + 2:g}" height="{FACE_HEIGHT + RING_MARGIN + 2:g}" '
        'rx="13" fill="none"'
    )
    return (
        f'<g class="highlight-ring"><rect {geometry} stroke="{RING_LIGHT}" stroke-width="7"/>'
        f'<rect {geometry} stroke="{RING_DARK}" stroke-width="3.5"/></g>'
    )


def card_drawing(card: Card | None, *, highlight: bool, dimmed: bool) -> str:
    """The ring (if highlighted) and the face (faded if dimmed), in face units."""
    face = _back_face() if card is None else _face(card)
    if dimmed:  # washed out under a light veil: still opaque, so it reads on dark pages too
        face += (
            f'<rect class="dim-veil" x="1.5" y="1.5" width="{FACE_WIDTH - 3}" '
            f'height="{FACE_HEIGHT - 3}" rx="9" fill="{RING_LIGHT}" fill-opacity="0.6"/>'
        )
    return (_ring() if highlight else "") + face
