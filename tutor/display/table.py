"""The card table as players know it (Board Game Arena's Wizard table): the seats around a
felt in clockwise order with the viewer at the bottom, the dealer marked, the seat whose
turn it is lit (a ring AND words, never colour alone), the trick in the middle with each
card in front of the seat that played it, bids and tricks taken at every seat, and the
turned card with trump in a corner.

One component for every screen that shows a table: :func:`table_html` draws a
:class:`TableScene`, plain data (names, cards, numbers, flags). Two adapters build a scene
from what the engine says, so no screen re-derives a rule: :func:`scene_from_view` from a
seat's :class:`tutor.rules.round.SeatView` (the play screen: other hands face down, hidden
bids hidden) and :func:`scene_from_step` from a step of the worked example (every hand face
up, the card just played ringed, the trick's winner marked).

The HTML is self-contained (its own ``<style>``, no scripts, nothing fetched) and fits its
box: seat plates and cards shrink on a phone-sized box (a container query), and
``big=True`` draws everything larger for a projector.

>>> from tutor.teaching.worked_example import worked_example
>>> example = worked_example()
>>> page = table_html(scene_from_step(example, example.steps[6]))
>>> page.count('class="tutor-seat '), 'aria-label="Trick in play order: A: Jester' in page
(4, True)
>>> "C takes the trick." in page, page.count("tutor-trick-card is-winner")
(True, 1)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from html import escape

from tutor.display.svg import card_svg, face_down_svg, hand_svg
from tutor.display.words import words_html
from tutor.rules.cards import Card, Suit
from tutor.rules.round import Phase, SeatView
from tutor.teaching.explain import card_name, suit_name
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, text, text_for_count
from tutor.teaching.worked_example import Step, WorkedExample

TABLE_CLASS = "tutor-table"
"""CSS class of the table's outer box; its parts add a suffix (``-seat`` is ``tutor-seat``)."""


class SeatMark(StrEnum):
    """Why a seat is lit: whose turn it is, or what the seat just did."""

    TO_CHOOSE_TRUMP = "to-choose-trump"
    TO_BID = "to-bid"
    TO_PLAY = "to-play"
    PLAYS = "plays"
    """The worked example: this seat plays the card the step is about."""
    TAKES = "takes"
    """The trick is complete and this seat takes it."""


@dataclass(frozen=True, slots=True)
class SeatScene:
    """One seat as the table shows it.

    ``cards`` are the seat's cards face up (``None``: face down, ``hand_size`` of them;
    the viewer's own hand may be drawn elsewhere, with ``show_hand=False``). ``bid`` is
    ``None`` until the seat has bid, or while the variant hides it (``bid_hidden``).
    """

    name: str
    taken: int = 0
    bid: int | None = None
    bid_hidden: bool = False
    dealer: bool = False
    mark: SeatMark | None = None
    cards: tuple[Card, ...] | None = None
    hand_size: int = 0
    show_hand: bool = True


@dataclass(frozen=True, slots=True)
class TableScene:
    """A whole table at one moment.

    ``trick`` holds the cards on the table as ``(seat, card)`` in play order; ``winner``
    the seat that takes it once complete; ``just_played`` a seat whose card is ringed as
    the one just played. ``bottom`` is the seat drawn at the bottom (the viewer).
    ``trump_pending`` says the dealer has yet to choose trump (a Wizard was turned).
    ``leader`` names who leads while the trick is empty.
    """

    seats: tuple[SeatScene, ...]
    bottom: int = 0
    trick: tuple[tuple[int, Card], ...] = ()
    winner: int | None = None
    just_played: int | None = None
    turned: Card | None = None
    trump: Suit | None = None
    trump_pending: bool = False
    leader: int | None = None
    trick_number: int | None = None
    trick_count: int | None = None

    def __post_init__(self) -> None:
        count = len(self.seats)
        seats = [self.bottom, self.winner, self.just_played, self.leader]
        seats += [seat for seat, _ in self.trick]
        bad = [seat for seat in seats if seat is not None and not 0 <= seat < count]
        if not 3 <= count <= 6 or bad:
            raise ValueError(
                f"a table has 3 to 6 seats and names seats 0 to {count - 1}: "
                f"got {count} seats and seat numbers {bad!r}"
            )


# -- where each seat sits -------------------------------------------------------------------

TOP, LEFT, RIGHT, BOTTOM = "top", "left", "right", "bottom"

# Seats counted clockwise from the viewer (0, at the bottom): which side of the felt each
# sits on. Clockwise on screen runs bottom -> left -> top -> right, as at a real table
# seen from above (the player on your left plays after you).
_SIDES: dict[int, tuple[str, ...]] = {
    3: (BOTTOM, TOP, TOP),
    4: (BOTTOM, LEFT, TOP, RIGHT),
    5: (BOTTOM, LEFT, TOP, TOP, RIGHT),
    6: (BOTTOM, LEFT, LEFT, TOP, RIGHT, RIGHT),
}


def seat_side(seat: int, *, players: int, bottom: int = 0) -> str:
    """The side of the felt where ``seat`` sits, seen from the ``bottom`` seat.

    >>> [seat_side(seat, players=4) for seat in range(4)]
    ['bottom', 'left', 'top', 'right']
    >>> [seat_side(seat, players=3, bottom=2) for seat in range(3)]
    ['top', 'top', 'bottom']
    """
    return _SIDES[players][(seat - bottom) % players]


def trick_offset(seat: int, *, players: int, bottom: int = 0) -> tuple[float, float]:
    """Where ``seat``'s card lies on the felt: a unit vector from the middle towards the
    seat (x right, y down); clockwise from the viewer at the bottom.

    >>> [tuple(round(v, 2) for v in trick_offset(s, players=4)) for s in range(4)]
    [(0.0, 1.0), (-1.0, 0.0), (-0.0, -1.0), (1.0, -0.0)]
    """
    angle = math.pi / 2 + 2 * math.pi * ((seat - bottom) % players) / players
    return math.cos(angle), math.sin(angle)


# -- the picture --------------------------------------------------------------------------

# The table keeps its own colours in light and dark themes (a card table is green); every
# word on it sits on the felt in white, or on a light seat plate in dark ink (7:1 both).
TABLE_CSS = """
<style>
.tutor-table { container-type: inline-size; margin: 0.2rem 0; }
.tutor-felt { --trick-w: 64px; --mini-h: 50px; --felt: #1d6a43; --felt-light: #2b8556;
  --rim: #5c3b1e; --plate: #fbf8ef; --ink: #1b1b1b; --lit: #ffd23f;
  font-size: 0.95rem; line-height: 1.3; position: relative; display: grid; gap: 0.8em 0.6em; padding: 0.7em 0.8em;
  grid-template-columns: minmax(0, 1fr) auto minmax(0, 1fr);
  grid-template-areas: "top top top" "left center right" "foot foot foot";
  background: radial-gradient(ellipse at center, var(--felt-light) 0%, var(--felt) 72%);
  border: 0.45em solid var(--rim); border-radius: 2.2em; color: #ffffff;
  box-shadow: inset 0 0 1.6em rgba(0, 0, 0, 0.35); }
.tutor-side { display: flex; gap: 0.6em; min-width: 0; }
.tutor-side-top { grid-area: top; justify-content: space-evenly; }
.tutor-side-left { grid-area: left; flex-direction: column; justify-content: space-around;
  align-items: flex-start; }
.tutor-side-right { grid-area: right; flex-direction: column; justify-content: space-around;
  align-items: flex-end; }
.tutor-foot { grid-area: foot; display: flex; align-items: flex-end; gap: 0.3em 0.6em;
  justify-content: space-between; }
.tutor-side-bottom { justify-content: center; flex: 0 1 auto; }
.tutor-seat { position: relative; background: var(--plate); color: var(--ink);
  border: 2px solid rgba(0, 0, 0, 0.35); border-radius: 0.6em; padding: 0.3em 0.55em;
  min-width: 0; max-width: 100%; box-sizing: border-box; text-align: center;
  box-shadow: 0 2px 4px rgba(0, 0, 0, 0.35); }
.tutor-seat.is-lit { outline: 0.22em solid var(--lit); outline-offset: 1px;
  box-shadow: 0 0 0 0.45em rgba(255, 210, 63, 0.4), 0 2px 4px rgba(0, 0, 0, 0.35); }
.tutor-seat.side-bottom { display: flex; flex-wrap: wrap; align-items: center;
  justify-content: center; gap: 0.1em 0.7em; }
.tutor-seat-head { font-weight: 700; display: flex; flex-wrap: wrap; gap: 0.1em 0.4em;
  justify-content: center; align-items: baseline; }
.tutor-seat-name { white-space: nowrap; }
.tutor-dealer-chip { font-size: 0.78em; font-weight: 700; background: var(--ink);
  color: #ffffff; border-radius: 1em; padding: 0 0.5em; white-space: nowrap; }
.tutor-seat-facts { display: flex; flex-wrap: wrap; gap: 0 0.7em; justify-content: center;
  align-items: center;
  font-variant-numeric: tabular-nums; }
.tutor-seat-facts > span { white-space: nowrap; }
/* "No cards left" wraps between its words in a narrow seat (a phone), never inside one */
.tutor-seat-facts .tutor-seat-hand { margin: 0; white-space: normal; word-break: keep-all; }
.tutor-seat-hand { margin-top: 0.2em; display: flex; align-items: center;
  justify-content: center; gap: 0.3em; white-space: nowrap; }
.tutor-seat-hand svg { height: var(--mini-h); width: auto; display: block; }
.tutor-seat-hand .tutor-backs svg { height: calc(var(--mini-h) * 0.6); }
/* The seat's badge ("▶ bidding") is a line of the seat's plate, never laid over its
   words (in Japanese, "▶ ビッド中" once hid half of "ビッド前"). */
.tutor-seat-mark { width: fit-content; max-width: 100%; box-sizing: border-box;
  margin: 0.25em auto 0; text-align: center;
  font-weight: 700; font-size: 0.92em; background: var(--lit);
  color: var(--ink); border: 1px solid rgba(0, 0, 0, 0.4); border-radius: 0.5em;
  padding: 0 0.5em; }
.tutor-seat.side-bottom .tutor-seat-mark { margin: 0; }
/* In a narrow seat the badge wraps between words, in Japanese between phrases. */
.tutor-seat-mark:lang(ja) { word-break: auto-phrase; }
/* On a phone the trick's box holds its cards and the names under (or over) them, so that
   a name ("C ★ wins") never lies over a seat's words: a name's line above and below the
   cards, and room for a name a little wider than its card at the sides (a wider felt has
   room enough around the trick). */
.tutor-trick { grid-area: center; position: relative; margin: auto; --sx: 1.08; --sy: 0.56;
  --name-x: 0em; --name-y: 0em;
  width: calc(var(--trick-w) * (1 + 2 * var(--sx)) + 2 * var(--name-x));
  height: calc(var(--trick-w) * 1.35 * (1.08 + 2 * var(--sy)) + 2 * var(--name-y)); }
.tutor-table.seats-5 .tutor-trick, .tutor-table.seats-6 .tutor-trick { --sx: 1.22; --sy: 0.72; }
.tutor-trick-card { position: absolute; transform: translate(-50%, -50%);
  left: calc(50% + var(--dx) * var(--trick-w) * var(--sx));
  top: calc(50% + var(--dy) * var(--trick-w) * 1.35 * var(--sy)); }
.tutor-trick-card svg { width: var(--trick-w); height: auto; display: block; }
.tutor-trick-name { position: absolute; left: 50%; transform: translateX(-50%);
  top: 100%; white-space: nowrap; font-size: 0.8em; font-weight: 700; z-index: 10;
  background: rgba(0, 0, 0, 0.55); border-radius: 0.4em; padding: 0 0.35em; }
.tutor-trick-card.is-above .tutor-trick-name { top: auto; bottom: 100%; }
.tutor-trick-card.is-winner .tutor-trick-name { background: var(--lit); color: var(--ink); }
.tutor-trick-empty { position: absolute; inset: 0; display: flex; align-items: center;
  justify-content: center; text-align: center; font-weight: 600; padding: 0 0.5em; }
.tutor-corner { flex: 1 1 0; display: flex; align-items: center; gap: 0.4em;
  font-size: 0.9em; min-width: max-content; }
.tutor-corner svg { height: calc(var(--mini-h) * 0.8); width: auto; display: block; }
.tutor-counter { flex: 1 1 0; font-size: 0.9em; text-align: right; white-space: nowrap;
  font-variant-numeric: tabular-nums; }
/* The felt's sizes follow the width of its box (.tutor-table), not of the window. */
@container (min-width: 720px) {
  .tutor-felt { --trick-w: 74px; --mini-h: 56px; }
}
@container (max-width: 560px) {
  .tutor-felt { --trick-w: 46px; --mini-h: 36px; font-size: 0.82rem; }
  .tutor-trick { --name-x: 0.5em; --name-y: 1.3em; }
  .tutor-felt { padding: 0.5em 0.4em; gap: 0.4em 0.3em; border-radius: 1.4em; }
  .tutor-seat { padding: 0.2em 0.3em; }
  .tutor-seat-facts { gap: 0 0.4em; }
  .tutor-foot { flex-wrap: wrap; }
  .tutor-side-bottom { order: -1; flex: 1 0 100%; }
}
/* Narrower still (a phone's notebook, with its margins): the side seats sit in a row
   above the trick, each as wide as half the felt, so their words stay on their plates. */
@container (max-width: 340px) {
  .tutor-felt { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
    grid-template-areas: "top top" "left right" "center center" "foot foot"; }
  .tutor-side-left, .tutor-side-right { align-items: stretch; }
}
/* Presenter size: fixed px at a 16 px base (the presenter magnifies the whole slide), the
   trick's cards about 95 px tall there. */
.tutor-table.is-big .tutor-felt { --trick-w: 70px; --mini-h: 36px; font-size: 15px;
  gap: 0.35em 0.5em; padding: 0.45em 0.6em; }
.tutor-table.is-big .tutor-trick { --sy: 0.5; }
.tutor-table.is-big .tutor-seat.side-top { display: flex; flex-wrap: wrap; align-items: center;
  justify-content: center; gap: 0.1em 0.6em; }
</style>
"""


def _bid_words(seat: SeatScene, lang: str) -> str:
    if seat.bid is not None:
        return text("table.bid", lang, bid=seat.bid)
    return text("table.bid-hidden" if seat.bid_hidden else "table.bid-none", lang)


def _seat_html(scene: TableScene, index: int, lang: str) -> str:
    seat = scene.seats[index]
    classes = [
        "tutor-seat",
        f"side-{seat_side(index, players=len(scene.seats), bottom=scene.bottom)}",
    ]
    if seat.dealer:
        classes.append("is-dealer")
    if seat.mark is not None:
        classes.append("is-lit")
    head = f'<span class="tutor-seat-name">{escape(seat.name)}</span>'
    if seat.dealer:
        head += f'<span class="tutor-dealer-chip">{escape(text("table.dealer", lang))}</span>'
    facts = (
        f'<span class="tutor-seat-bid">{escape(_bid_words(seat, lang))}</span>'
        f'<span class="tutor-seat-taken">'
        f"{escape(text('table.taken', lang, taken=seat.taken))}</span>"
    )
    hand = ""
    if seat.show_hand and seat.cards:  # face up: a row of small cards of its own
        hand = f'<div class="tutor-seat-hand">{hand_svg(seat.cards, scale=0.5, lang=lang)}</div>'
    elif seat.show_hand and seat.hand_size and seat.cards is None:  # face down: a count
        count = text_for_count("table.cards-left", seat.hand_size, lang, count=seat.hand_size)
        facts += (
            f'<span class="tutor-seat-hand"><span class="tutor-backs" aria-hidden="true">'
            f"{face_down_svg(scale=0.3, lang=lang)}</span><span>{escape(count)}</span></span>"
        )
    elif seat.show_hand:
        facts += f'<span class="tutor-seat-hand">{escape(text("table.no-cards", lang))}</span>'
    parts = [
        f'<div class="{" ".join(classes)}" data-seat="{index}">',
        f'<div class="tutor-seat-head">{head}</div>',
        f'<div class="tutor-seat-facts">{facts}</div>',
        hand,
    ]
    if seat.mark is not None:
        parts.append(
            f'<div class="tutor-seat-mark">{escape(text(f"table.mark-{seat.mark}", lang))}</div>'
        )
    parts.append("</div>")
    return "".join(parts)


def _trick_label(scene: TableScene, lang: str) -> str:
    """The trick in words for screen readers (the same sentences as :func:`trick_svg`)."""
    if not scene.trick:
        return text("display.trick-empty", lang)
    played = join_words(
        (
            text(
                "display.played-by", lang, player=scene.seats[seat].name, card=card_name(card, lang)
            )
            for seat, card in scene.trick
        ),
        lang,
    )
    if scene.winner is None:
        return text("display.trick", lang, cards=played)
    return text("display.trick-won", lang, cards=played, winner=scene.seats[scene.winner].name)


def _trick_html(scene: TableScene, lang: str) -> str:
    players = len(scene.seats)
    cards = []
    for order, (seat, card) in enumerate(scene.trick):
        dx, dy = trick_offset(seat, players=players, bottom=scene.bottom)
        won = seat == scene.winner
        ringed = won or (scene.winner is None and seat == scene.just_played)
        classes = ["tutor-trick-card"]
        if won:
            classes.append("is-winner")
        if seat == scene.just_played:
            classes.append("is-new")
        if dy < -0.3:  # a seat above the middle: its name above its card
            classes.append("is-above")
        name = escape(scene.seats[seat].name)
        if won:
            name += f" ★ {escape(text('display.wins', lang))}"
        cards.append(
            f'<div class="{" ".join(classes)}" data-seat="{seat}" '
            f'style="--dx:{dx:.3f};--dy:{dy:.3f};z-index:{order + 1}">'
            f"{card_svg(card, highlight=ringed, lang=lang)}"
            f'<span class="tutor-trick-name">{name}</span></div>'
        )
    if not scene.trick and scene.leader is not None:
        leads = text("table.leads", lang, player=scene.seats[scene.leader].name)
        cards.append(f'<div class="tutor-trick-empty">{words_html(leads)}</div>')
    label = escape(_trick_label(scene, lang))
    return f'<div class="tutor-trick" role="group" aria-label="{label}">{"".join(cards)}</div>'


def _trump_words(scene: TableScene, lang: str) -> str:
    if scene.trump_pending:
        return text("table.trump-pending", lang)
    if scene.trump is None:
        return text("table.no-trump", lang)
    return text("table.trump", lang, suit=suit_name(scene.trump, lang))


def _corner_html(scene: TableScene, lang: str) -> str:
    if scene.turned is not None:
        picture = card_svg(scene.turned, scale=0.5, lang=lang)
        turned = text("table.turned", lang, card=card_name(scene.turned, lang))
    else:
        picture = ""
        turned = text("table.nothing-turned", lang)
    return (
        f'<div class="tutor-corner" title="{escape(turned)}">{picture}'
        f'<span><span class="tutor-trump">{words_html(_trump_words(scene, lang))}</span></span></div>'
    )


def table_html(
    scene: TableScene, *, big: bool = False, lang: str = DEFAULT_LANGUAGE, label: str | None = None
) -> str:
    """The table as HTML (with its own style): seat plates around the felt, the trick in
    the middle, trump in a corner and the trick counter in the other. ``big`` draws it
    larger (a projector); ``label`` names the table for screen readers.

    >>> scene = TableScene(
    ...     seats=(SeatScene("A", bid=1), SeatScene("B", dealer=True, mark=SeatMark.TO_PLAY),
    ...            SeatScene("C", bid_hidden=True)),
    ...     trick=((0, Card.parse("R9")),), turned=Card.parse("G2"), trump=Suit.GREEN)
    >>> page = table_html(scene)
    >>> "Bid 1" in page, "Bid: hidden" in page, "▶ to play" in page, "Trump: green" in page
    (True, True, True, True)
    >>> TableScene(seats=scene.seats, winner=3)
    Traceback (most recent call last):
    ...
    ValueError: a table has 3 to 6 seats and names seats 0 to 2: got 3 seats and seat numbers [3]
    """
    players = len(scene.seats)
    sides: dict[str, list[int]] = {TOP: [], LEFT: [], RIGHT: [], BOTTOM: []}
    for step in range(players):  # clockwise from the viewer
        seat = (scene.bottom + step) % players
        sides[seat_side(seat, players=players, bottom=scene.bottom)].append(seat)
    # Columns read top to bottom: the left side is met bottom-up going clockwise.
    sides[LEFT].reverse()

    def side_html(side: str) -> str:
        seats = "".join(_seat_html(scene, seat, lang) for seat in sides[side])
        return f'<div class="tutor-side tutor-side-{side}">{seats}</div>' if seats else ""

    counter = ""
    if scene.trick_number is not None and scene.trick_count is not None:
        counter = text(
            "table.trick-counter", lang, number=scene.trick_number, count=scene.trick_count
        )
    name = (
        label
        if label is not None
        else text("table.label", lang, player=scene.seats[scene.bottom].name)
    )
    classes = f"{TABLE_CLASS} seats-{players}" + (" is-big" if big else "")
    return (
        TABLE_CSS
        + f'<div class="{classes}" role="group" aria-label="{escape(name)}">'
        + '<div class="tutor-felt">'
        + side_html(TOP)
        + side_html(LEFT)
        + _trick_html(scene, lang)
        + side_html(RIGHT)
        # The viewer's seat between trump (left) and the trick counter (right).
        + '<div class="tutor-foot">'
        + _corner_html(scene, lang)
        + side_html(BOTTOM)
        + f'<div class="tutor-counter">{escape(counter)}</div>'
        + "</div></div></div>"
    )


# -- scenes from the engine's data -------------------------------------------------------------

_TURN_MARKS = {
    Phase.TRUMP_CHOICE: SeatMark.TO_CHOOSE_TRUMP,
    Phase.BIDDING: SeatMark.TO_BID,
    Phase.PLAYING: SeatMark.TO_PLAY,
}


def scene_from_view(view: SeatView) -> TableScene:
    """The table as one seat sees it (:meth:`tutor.rules.round.Round.view`): that seat at
    the bottom with its own hand left to the screen (drawn as buttons to press), every
    other hand face down, a bid the variant hides shown as hidden. Once the round is
    over, its last trick stays on the table with its winner.

    >>> from tutor.rules.round import Round
    >>> from tutor.rules.variants import Rules
    >>> rnd = Round(players=3, cards=3, dealer=0, seed=1, rules=Rules(bidding="secret"))
    >>> _ = rnd.bid(2)
    >>> scene = scene_from_view(rnd.view(2))
    >>> [(seat.bid, seat.bid_hidden) for seat in scene.seats]
    [(None, False), (None, True), (None, False)]
    >>> scene.bottom, scene.seats[2].mark, scene.seats[0].dealer
    (2, <SeatMark.TO_BID: 'to-bid'>, True)
    """
    mark = _TURN_MARKS.get(view.phase)
    seats = tuple(
        SeatScene(
            name=name,
            taken=view.taken[seat],
            bid=view.bids[seat],
            bid_hidden=view.bids[seat] is None and view.has_bid[seat],
            dealer=seat == view.dealer,
            mark=mark if seat == view.to_act else None,
            hand_size=view.hand_sizes[seat],
            show_hand=seat != view.seat,
        )
        for seat, name in enumerate(view.names)
    )
    playing = view.phase is Phase.PLAYING
    trick, winner = view.current_trick, None
    if view.phase is Phase.FINISHED and view.tricks:  # the last trick stays on the table
        trick, winner = view.tricks[-1].plays, view.tricks[-1].winner
    return TableScene(
        seats=seats,
        bottom=view.seat,
        trick=trick,
        winner=winner,
        turned=view.turned,
        trump=view.trump,
        trump_pending=view.phase is Phase.TRUMP_CHOICE,
        leader=view.current_leader if playing and not view.current_trick else None,
        trick_number=len(view.tricks) + 1 if playing else None,
        trick_count=view.cards if playing else None,
    )


def scene_from_step(example: WorkedExample, step: Step) -> TableScene:
    """The worked example's table at ``step``: every hand face up (the card a play step
    is about lies on the table, ringed, no longer in its hand), bids once all are made,
    tricks taken, and a complete trick's winner.

    >>> from tutor.teaching.worked_example import worked_example
    >>> example = worked_example()
    >>> scene = scene_from_step(example, example.steps[4])  # C plays blue 11
    >>> scene.trick[-1], scene.just_played, scene.seats[2].cards, scene.seats[2].mark
    ((2, Card.parse('B11')), 2, (Card.parse('R4'), Card.parse('J')), <SeatMark.PLAYS: 'plays'>)
    """
    played = step.played
    hands = [list(hand) for hand in step.hands]
    if played is not None:  # the step's hands are from before its card was played
        hands[played.seat].remove(played.card)
    winner = step.table[step.winner].seat if step.winner is not None else None
    seats = []
    for seat, name in enumerate(example.players):
        mark = None
        if seat == winner:
            mark = SeatMark.TAKES
        elif played is not None and seat == played.seat:
            mark = SeatMark.PLAYS
        seats.append(
            SeatScene(
                name=name,
                taken=step.taken[seat],
                bid=step.bids[seat] if step.bids is not None else None,
                dealer=seat == example.dealer,
                mark=mark,
                cards=tuple(hands[seat]),
                hand_size=len(hands[seat]),
            )
        )
    return TableScene(
        seats=tuple(seats),
        trick=tuple((play.seat, play.card) for play in step.table),
        winner=winner,
        just_played=played.seat if played is not None else None,
        turned=example.turned,
        trump=example.trump,
        trick_number=step.trick_number,
        trick_count=len(example.round.tricks) if step.trick_number is not None else None,
    )


__all__ = [
    "TABLE_CLASS",
    "SeatMark",
    "SeatScene",
    "TableScene",
    "scene_from_step",
    "scene_from_view",
    "seat_side",
    "table_html",
    "trick_offset",
]
