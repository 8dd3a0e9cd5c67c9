"""The play screen: a game of Wizard against bots at a card table, with a rules coach and
a bidding coach.

:class:`PlayScreen` is a thin widget over :class:`tutor.play.session.PlaySession`: the
session runs the game through the engine and tells it in words; the screen shows the
learner's view (:meth:`tutor.rules.round.Round.view`) as a card table
(:mod:`tutor.display.table`: seats clockwise, the learner at the bottom) and turns presses
into the session's actions. No rule lives here: a card is refused by the engine's
judgement, a trick's winner and a score come with the engine's reasons, and a bid the
variant hides is never in the view, so never on screen.

The learner's hand lies along the bottom, one real button per card: a click (or Tab to
it, then Enter or Space) plays it. A card the rules do not allow now is marked ✕ and
faded, its reason in its tooltip, and pressing it says why and changes nothing. Every
other control is a real button, drop-down or number box too, and every child is an
attribute, so tests play a game by pressing them:

>>> screen = PlayScreen(players=3, variant="five-rounds", seed=4)
>>> screen.session.round_number, [button.description for button in screen.bid_buttons]
(1, ['Bid 0', 'Bid 1'])
>>> screen.bid_buttons[0].click()
>>> screen.message.value.count("You bid 0.")
1
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping
from html import escape
from typing import Any

import ipywidgets as widgets

from tutor.display.game_result import GameResult
from tutor.display.html import (
    HEAD_STYLE,
    KEYS_HINT_CLASS,
    KEYS_HINT_CSS,
    MINUS,
    SHEET_SWITCH_CSS,
    caption_html,
    format_points,
    scroll_box,
)
from tutor.display.svg import card_svg
from tutor.display.table import scene_from_view, table_html
from tutor.display.visibility import set_visible
from tutor.display.widgets import ScoreSheetWidget, TrickView, html_widget
from tutor.display.words import words_html
from tutor.play.bots import Bot
from tutor.play.coach import DEFAULT_SIMULATIONS, BidAdvice
from tutor.play.session import PlaySession
from tutor.rules.cards import Card, Suit
from tutor.rules.round import Phase, SeatView
from tutor.rules.schedule import cards_per_round
from tutor.rules.seats import check_players, default_names
from tutor.rules.trick import PlayJudgement, PlayRule
from tutor.rules.variants import variant_names
from tutor.teaching.explain import (
    card_name,
    describe_play,
    describe_reveal,
    describe_trick,
    suit_name,
)
from tutor.teaching.narrate import trick_step_text
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, sentence_gap, text

PLAY_CLASS = "tutor-play"
"""CSS class of the screen; its parts add a suffix (``-message``, ``-table``, ...)."""
CARD_CLASS = "tutor-card-button"
"""CSS class of a card in the learner's hand (a button); ``is-illegal`` marks a card the
rules do not allow now."""

MAX_SEED = 2**32 - 1
GAME = "game"
ROUND = "round"

_TABLE = "border-collapse:collapse;font-variant-numeric:tabular-nums;margin:0.4em 0"
_CELL = "padding:0.2em 0.6em;border:1px solid #8a8a8a;text-align:right"
_HEADING = "font-size:1.05em;margin:0.6em 0 0.2em"

# The page keeps its own colours (light and dark themes); the table and the cards keep
# theirs. On a wide box (a laptop) the table, the actions and the hand sit left of a side
# panel: table, hand and controls fit 1280 x 800 without scrolling. On a narrow box (a
# phone) everything stacks: status, table, actions, hand, then the side panel.
PLAY_CSS = f"""
<style>
.{PLAY_CLASS} {{ container-type: inline-size; max-width: 84rem; }}
.{PLAY_CLASS} .{PLAY_CLASS}-main {{
  --hand-w: 74px; --hand-h: 100px; --hand-basis: 30px; --hand-step: 80px; }}
.{PLAY_CLASS} .widget-html-content {{ line-height: 1.4; }}
.{PLAY_CLASS} .{PLAY_CLASS}-top {{ align-items: center; gap: 0.6rem; flex-wrap: wrap; }}
.{PLAY_CLASS} .{PLAY_CLASS}-status {{ flex: 1 1 20rem; min-width: 0; }}
.{PLAY_CLASS} .{PLAY_CLASS}-status p {{ margin: 0; }}
.{PLAY_CLASS} .{PLAY_CLASS}-settings {{ border: 1px solid #8a8a8a; border-radius: 0.3rem;
  padding: 0.3rem 0.6rem; margin-bottom: 0.4rem; }}
.{PLAY_CLASS} .{PLAY_CLASS}-main {{ display: grid; gap: 0.2rem 1rem;
  grid-template-columns: minmax(0, 1fr);
  grid-template-areas: "table" "act" "message" "hand" "side"; }}
.{PLAY_CLASS} .{PLAY_CLASS}-table {{ grid-area: table; min-width: 0; }}
.{PLAY_CLASS} .{PLAY_CLASS}-act {{ grid-area: act; min-width: 0; }}
.{PLAY_CLASS} .{PLAY_CLASS}-handarea {{ grid-area: hand; min-width: 0; }}
.{PLAY_CLASS} .{PLAY_CLASS}-side {{ grid-area: side; min-width: 0; }}
.{PLAY_CLASS} .{PLAY_CLASS}-side h3 {{ font-size: 1rem; margin: 0.5rem 0 0.2rem; }}
/* A narrow column of Japanese or Chinese: lines break between phrases (Japanese) or at
   punctuation, never inside a word (ラウンド, 新しいゲーム), and inside one only if it is
   longer than the line; so do the headers of the coach's table, which fits the column. */
.{PLAY_CLASS} .{PLAY_CLASS}-side {{ word-break: keep-all; overflow-wrap: anywhere; }}
.{PLAY_CLASS} .{PLAY_CLASS}-side th {{ overflow-wrap: anywhere !important; }}
.{PLAY_CLASS} .{PLAY_CLASS}-side:lang(ja),
.{PLAY_CLASS} .{PLAY_CLASS}-side:lang(ja) th {{ word-break: auto-phrase !important; }}
/* How a player scores wraps between words (between phrases in Japanese), never inside. */
.{PLAY_CLASS} .{PLAY_CLASS}-how td {{ word-break: keep-all; overflow-wrap: anywhere; }}
.{PLAY_CLASS} .{PLAY_CLASS}-how td:lang(ja) {{ word-break: auto-phrase; }}
.{PLAY_CLASS} .{PLAY_CLASS}-side ul {{ margin: 0.2em 0; padding-left: 1.2em; }}
/* The last trick of five or six players is drawn smaller to fit the column, not cut. */
.{PLAY_CLASS} .{PLAY_CLASS}-side svg {{ max-width: 100%; height: auto; }}
.{PLAY_CLASS} .{PLAY_CLASS}-actions {{ flex-wrap: wrap; align-items: center; }}
.{PLAY_CLASS} .{PLAY_CLASS}-message {{ grid-area: message; min-width: 0; }}
.{PLAY_CLASS} .{PLAY_CLASS}-prompt p {{ margin: 0.15rem 0; }}
.{PLAY_CLASS} .{PLAY_CLASS}-message .widget-html-content {{ font-size: 1.02em; }}
.{PLAY_CLASS} button.jupyter-button {{ margin-right: 0.4rem; }}
.{PLAY_CLASS} .{PLAY_CLASS}-hand {{ display: flex; flex-wrap: wrap; justify-content: center;
  align-items: flex-end; padding: 0.75rem 2.4rem 0.2rem 0.2rem; row-gap: 0.5rem; }}
.{PLAY_CLASS} .{PLAY_CLASS}-hand > .widget-html {{ display: none; }}
.{PLAY_CLASS} button.{CARD_CLASS} {{ position: relative; flex: 1 1 var(--hand-basis);
  max-width: var(--hand-step); min-width: 0; width: auto; height: var(--hand-h);
  padding: 0; margin: 0; border: none; background: none; box-shadow: none;
  overflow: visible; color: transparent; font-size: 1px; cursor: pointer; opacity: 1; }}
.{PLAY_CLASS} button.{CARD_CLASS}:hover, .{PLAY_CLASS} button.{CARD_CLASS}:active,
.{PLAY_CLASS} button.{CARD_CLASS}:focus {{ box-shadow: none; background: none; }}
.{PLAY_CLASS} button.{CARD_CLASS}::before {{ content: ""; position: absolute; left: 0; top: 0;
  width: var(--hand-w); height: var(--hand-h); background: var(--face) center / contain no-repeat;
  border-radius: 8px; transition: transform 0.12s ease-out; }}
.{PLAY_CLASS} button.{CARD_CLASS}:disabled {{ cursor: default; opacity: 1; }}
.{PLAY_CLASS} button.{CARD_CLASS}:not(:disabled):not(.is-illegal):hover,
.{PLAY_CLASS} button.{CARD_CLASS}:focus-visible {{ z-index: 5; }}
.{PLAY_CLASS} button.{CARD_CLASS}:not(:disabled):not(.is-illegal):hover::before,
.{PLAY_CLASS} button.{CARD_CLASS}:focus-visible::before {{ transform: translateY(-12px); }}
/* The focus ring goes round the card's picture, not round the button's narrow strip. */
.{PLAY_CLASS} button.{CARD_CLASS}:focus,
.{PLAY_CLASS} button.{CARD_CLASS}:focus-visible {{ outline: none !important; }}
.{PLAY_CLASS} button.{CARD_CLASS}:focus-visible::before {{
  outline: 3px solid var(--tutor-focus, #1a56db); outline-offset: 1px; }}
.{PLAY_CLASS} button.{CARD_CLASS}.is-illegal {{ cursor: not-allowed; }}
.{PLAY_CLASS} button.{CARD_CLASS}.is-illegal::before {{
  filter: grayscale(0.85) brightness(1.12) contrast(0.6); }}
.{PLAY_CLASS} button.{CARD_CLASS}.is-illegal::after {{ content: "✕"; position: absolute;
  left: 3px; bottom: 6px; width: 22px; height: 22px; border-radius: 50%;
  display: flex; align-items: center; justify-content: center; font: 700 15px/1 sans-serif;
  color: #ffffff; background: #b3261e; border: 2px solid #ffffff; }}
@container (min-width: 900px) {{
  /* The verdict on the learner's move heads the side panel, level with the table. The
     panel runs down beside the table, the actions and the hand, and shows all it holds
     (no box that scrolls and cuts words off): a long panel adds room under the hand,
     never between the table and the hand (it spans the last, flexible row, so the other
     rows are sized without it). */
  .{PLAY_CLASS} .{PLAY_CLASS}-main {{ grid-template-columns: minmax(0, 1fr) 22rem;
    grid-template-rows: auto auto auto auto 1fr;
    grid-template-areas: "table message" "table side" "act side" "hand side" ". side"; }}
  .{PLAY_CLASS} .{PLAY_CLASS}-side {{ align-self: start; }}
}}
@container (max-width: 560px) {{
  /* the round's results in a phone's width: tighter cells, and Japanese headers broken
     between phrases (取った / トリック), never inside a word */
  .{PLAY_CLASS} .{PLAY_CLASS}-results th, .{PLAY_CLASS} .{PLAY_CLASS}-results td {{
    padding: 0.2em 0.3em !important; }}
  .{PLAY_CLASS} .{PLAY_CLASS}-results th:lang(ja) {{ word-break: auto-phrase !important; }}
  .{PLAY_CLASS} .{PLAY_CLASS}-main {{
    --hand-w: 56px; --hand-h: 76px; --hand-basis: 40px; --hand-step: 60px; }}
  .{PLAY_CLASS} .{PLAY_CLASS}-hand {{ padding-right: 1.4rem; }}
}}
</style>
"""


def _button(description: str, tooltip: str, *, primary: bool = False) -> widgets.Button:
    return widgets.Button(
        description=description,
        tooltip=tooltip,
        button_style="primary" if primary else "",
        layout=widgets.Layout(width="auto", min_width="6em", margin="0.15em 0.4em 0.15em 0"),
    )


def _html(value: str = "", *, klass: str = "") -> widgets.HTML:
    widget = html_widget(value)
    if klass:
        widget.add_class(klass)
    return widget


def played_message(card: Card, reason: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """What the play screen says of a card the learner played, naming it once: the
    engine's ``reason`` names it where it matters ("You follow green with green 5."), not
    where any card would do ("You lead: ..."), and then the card comes first."""
    name = card_name(card, lang)
    key = "play-screen.played-named" if name in reason else "play-screen.played"
    return text(key, lang, card=name, reason=reason)


def _heading(words: str) -> str:
    return f'<h3 style="{_HEADING}">{escape(words)}</h3>'


def _paragraph(words: str, *, klass: str = "") -> str:
    attribute = f' class="{klass}"' if klass else ""
    return f'<p{attribute} style="margin:0.25em 0">{words_html(words)}</p>'


def _most_cards(players: int) -> int:
    """The most cards a round deals each player (the standard game's last round)."""
    return max(cards_per_round(players))


def _sorted_hand(hand: tuple[Card, ...]) -> tuple[Card, ...]:
    """The hand in the usual showing order (Wizards, suits high to low, Jesters)."""
    return tuple(sorted(hand, key=lambda card: card.sort_key))


def _face_class(card: Card) -> str:
    return f"tutor-face-{card}"


def card_faces_css(cards: tuple[Card, ...], *, lang: str = DEFAULT_LANGUAGE) -> str:
    """A style giving each card's button (class ``tutor-face-<card>``) its picture: an
    ipywidgets button shows only words, so the card's SVG is its background.

    >>> css = card_faces_css((Card.parse("R9"), Card.parse("W"), Card.parse("W")))
    >>> css.count(".tutor-face-R9"), css.count(".tutor-face-W"), "data:image/svg+xml;base64," in css
    (1, 1, True)
    """
    rules = []
    for card in dict.fromkeys(cards):  # each face once, in hand order
        picture = base64.b64encode(card_svg(card, lang=lang).encode()).decode("ascii")
        rules.append(
            f".{PLAY_CLASS} .{_face_class(card)} "
            f'{{ --face: url("data:image/svg+xml;base64,{picture}"); }}'
        )
    return "<style>\n" + "\n".join(rules) + "\n</style>"


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
            f'<td class="chance" style="{_CELL};text-align:left;white-space:nowrap">'
            f"{escape(percent)}{bar}</td>"
            f'<td class="expected" style="{_CELL}">'
            f"{escape(_points(advice.expected_scores[tricks], lang))}</td>"
            f'<td class="note" style="{_CELL};text-align:left">'
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
            f'<table class="{PLAY_CLASS}-advice" style="{_TABLE}">'
            f"{caption_html(caption)}<thead><tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table>",
            label=caption,
        )
        + "".join(_paragraph(sentence) for sentence in sentences)
        + "</div>"
    )


def _points(value: float, lang: str) -> str:
    return text("play-coach.points", lang, value=value).replace("-", MINUS)


def _lines_html(lines: list[str], *, klass: str) -> str:
    items = "".join(f"<li>{words_html(line)}</li>" for line in lines)
    return f'<ul class="{klass}" style="margin:0.2em 0;padding-left:1.4em">{items}</ul>'


# -- the screen -----------------------------------------------------------------------------


class PlayScreen(widgets.VBox):  # type: ignore[misc]
    """A game (or one round) against bots, at a card table.

    At the top, the round's status and the settings (players, variant, seed, a whole game
    or one round; folded away while playing). Then the table (:attr:`table`: seats
    clockwise with bids and tricks taken, the dealer marked, the seat to act lit, the
    trick in the middle, trump in a corner), the learner's action (:attr:`prompt`; trump
    suit buttons, bid buttons with "Ask the coach", Undo, the next round) and the verdict
    on it (:attr:`message`), and the hand along the bottom: a button per card
    (:attr:`card_buttons`). Beside the table, a side panel: the last trick with the
    engine's reason, what happened since the learner's last move, the coach. Below: the
    round's result with each score's formula, a replay of any finished trick card by card,
    the score sheet with its chart, and the whole round's story. At the end, the result
    screen (:attr:`result`, :mod:`tutor.display.game_result`) takes the hand's place: who
    won, the final totals, "Play again" and "Same deal again".

    ``session`` plays an existing :class:`tutor.play.session.PlaySession` (e.g. with
    chosen bots); otherwise one is made from the other arguments.
    """

    def __init__(
        self,
        *,
        players: int = 4,
        variant: str = "standard",
        seed: int | None = None,
        cards: int | None = None,
        learner: int = 0,
        bots: Mapping[int, Bot] | None = None,
        session: PlaySession | None = None,
        coach_simulations: int = DEFAULT_SIMULATIONS,
        scale: float = 0.75,
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        super().__init__()
        self.lang = lang
        self.scale = scale
        self.learner = learner
        self.coach_simulations = coach_simulations
        if session is None:
            session = PlaySession(
                players=players,
                variant=variant,
                seed=seed,
                cards=cards,
                learner=learner,
                bots=bots,
                lang=lang,
            )
        self.session = session
        self.coach_advice: BidAdvice | None = None
        self._round_over_callbacks: list[Callable[[], object]] = []
        self._build_settings(session, cards)
        self._build_table()
        self._build_actions()
        self._build_results()
        self.add_class(PLAY_CLASS)
        top = widgets.HBox([self.status, self.settings_toggle])
        top.add_class(f"{PLAY_CLASS}-top")
        act = widgets.VBox([self.prompt, self.actions])
        act.add_class(f"{PLAY_CLASS}-act")
        hand_area = widgets.VBox([self.hand_box, self.result, self.summary])
        hand_area.add_class(f"{PLAY_CLASS}-handarea")
        side = widgets.VBox(
            [
                self.reveal,
                self.coach_output,
                self.bid_note,
                self.last_trick_heading,
                self.last_trick_view,
                self.last_trick_text,
                self.latest,
                self.intro,
            ]
        )
        side.add_class(f"{PLAY_CLASS}-side")
        main = widgets.Box([self.table, self.message, act, hand_area, side])
        main.add_class(f"{PLAY_CLASS}-main")
        self.children = [
            _html(PLAY_CSS + KEYS_HINT_CSS + SHEET_SWITCH_CSS),
            top,
            self.settings,
            main,
            self.replay_heading,
            widgets.HBox(
                [self.replay_picker, self.replay_back, self.replay_next],
                layout=widgets.Layout(flex_flow="row wrap"),
            ),
            self.replay_view,
            self.replay_text,
            self.score_sheet_widget,
            self.history,
        ]
        self.refresh()

    # -- building -------------------------------------------------------------------------

    def _build_settings(self, session: PlaySession, cards: int | None) -> None:
        lang = self.lang
        self.intro = _html(klass=f"{PLAY_CLASS}-intro")
        counts = list(range(3, 7))
        self.players_input = widgets.ToggleButtons(
            options=[(text("play-screen.players-option", lang, count=n), n) for n in counts],
            value=session.players,
            description=text("play-screen.players", lang),
            tooltip=text("play-screen.players-tooltip", lang),
            tooltips=[text("play-screen.players-tooltip", lang)] * len(counts),
            style={"button_width": "3em"},
        )
        names = variant_names()
        chosen = session.variant_names[0] if len(session.variant_names) == 1 else names[0]
        self.variant_input = widgets.Dropdown(
            options=[(text(f"play-variant.{name}", lang), name) for name in names],
            value=chosen if chosen in names else names[0],
            description=text("play-screen.variant", lang),
            tooltip=text("play-screen.variant-tooltip", lang),
        )
        self.seed_input = widgets.BoundedIntText(
            value=session.seed % (MAX_SEED + 1),
            min=0,
            max=MAX_SEED,
            description=text("play-screen.seed", lang),
            tooltip=text("play-screen.seed-tooltip", lang),
            layout=widgets.Layout(width="16em"),
        )
        self.length_input = widgets.ToggleButtons(
            options=[
                (text("play-screen.length-game", lang), GAME),
                (text("play-screen.length-round", lang), ROUND),
            ],
            value=GAME if session.game is not None else ROUND,
            description=text("play-screen.length", lang),
            tooltip=text("play-screen.length-tooltip", lang),
            tooltips=[
                text("play-screen.length-game-tooltip", lang),
                text("play-screen.length-round-tooltip", lang),
            ],
            style={"button_width": "auto"},
        )
        self.cards_input = widgets.BoundedIntText(
            value=min(cards or session.round.cards, _most_cards(session.players)),
            min=1,
            max=_most_cards(session.players),
            description=text("play-screen.cards", lang),
            tooltip=text("play-screen.cards-tooltip", lang),
            layout=widgets.Layout(width="10em"),
        )
        self.start_button = _button(
            text("play-screen.start", lang), text("play-screen.start-tooltip", lang), primary=True
        )
        self._seed_shown = int(self.seed_input.value)
        self.start_button.on_click(lambda _button: self.start())
        self.players_input.observe(self._players_changed, names="value")
        self.length_input.observe(lambda _change: self._show_cards_input(), names="value")
        self._show_cards_input()
        # The settings stay folded away while playing; a toggle button opens them.
        self.settings_toggle = widgets.ToggleButton(
            value=False,
            description=text("play-screen.settings", lang),
            tooltip=text("play-screen.settings-tooltip", lang),
            icon="",
            layout=widgets.Layout(width="auto"),
        )
        self.settings_toggle.observe(lambda _change: self._show_settings(), names="value")
        self.settings = widgets.VBox(
            [
                self.players_input,
                widgets.HBox([self.variant_input, self.seed_input]),
                widgets.HBox([self.length_input, self.cards_input]),
                widgets.HBox([self.start_button]),
            ]
        )
        self.settings.add_class(f"{PLAY_CLASS}-settings")
        self._show_settings()

    def _build_table(self) -> None:
        self.status = _html(klass=f"{PLAY_CLASS}-status")
        self.reveal = _html(klass=f"{PLAY_CLASS}-reveal")
        self.table = _html(klass=f"{PLAY_CLASS}-table")
        self.last_trick_heading = _html()
        self.last_trick_view = TrickView(scale=self.scale * 0.5, lang=self.lang)
        self.last_trick_view.tooltip = ""
        self.last_trick_text = _html()

    def _build_actions(self) -> None:
        lang = self.lang
        self.prompt = _html(klass=f"{PLAY_CLASS}-prompt")
        self.message = _html(klass=f"{PLAY_CLASS}-message")
        self.trump_buttons = []
        for suit in Suit:
            words = text(
                "play-screen.trump-button", lang, colour=suit_name(suit, lang), letter=suit.value
            )
            button = _button(words, words)
            button.on_click(lambda _button, suit=suit: self._trump_pressed(suit))
            self.trump_buttons.append(button)
        self.bid_buttons: list[widgets.Button] = []
        self._bid_key: tuple[object, ...] = ()
        self.bid_note = _html()
        self.coach_button = _button(
            text("play-coach.ask", lang), text("play-coach.ask-tooltip", lang)
        )
        self.coach_button.on_click(lambda _button: self.ask_coach())
        self.coach_output = _html()
        self.undo_button = _button(
            text("play-screen.undo", lang), text("play-screen.undo-tooltip", lang)
        )
        self.undo_button.on_click(lambda _button: self.undo())
        self.actions = widgets.Box([])
        self.actions.add_class(f"{PLAY_CLASS}-actions")
        # The hand: a style with the faces of the round's cards, then one button per card.
        self.hand_cards: tuple[Card, ...] = ()
        self.card_buttons: list[widgets.Button] = []
        self._faces = _html()
        self._faces_key: tuple[Card, ...] = ()
        self.hand_box = widgets.Box([self._faces])
        self.hand_box.add_class(f"{PLAY_CLASS}-hand")

    def _build_results(self) -> None:
        lang = self.lang
        self.latest = _html()
        self.summary = _html()
        self.result = GameResult(lang=lang)  # at the end: who won, Play again
        self.result.play_again_button.on_click(lambda _button: self.play_again())
        self.result.same_deal_button.on_click(lambda _button: self.same_deal_again())
        self.next_round_button = _button(
            text("play-screen.next-round", lang), self._next_round_tooltip(), primary=True
        )
        self.next_round_button.on_click(lambda _button: self._next_round_pressed())
        self.replay_heading = _html(_heading(text("play-screen.replay", lang)))
        self.replay_picker = widgets.Dropdown(
            options=[],
            description=text("play-screen.replay-trick", lang),
            tooltip=text("play-screen.replay-trick-tooltip", lang),
            # within its row on a phone, its margins (2 px each side) included
            layout=widgets.Layout(width="24em", max_width="calc(100% - 4px)"),
        )
        self.replay_back = _button(
            text("play-screen.replay-back", lang), text("play-screen.replay-back-tooltip", lang)
        )
        self.replay_next = _button(
            text("play-screen.replay-next", lang), text("play-screen.replay-next-tooltip", lang)
        )
        self.replay_view = TrickView(scale=self.scale * 0.8, lang=lang)
        self.replay_view.tooltip = ""
        self.replay_text = _html()
        self.replay_step = 0
        self._replay_syncing = False
        self.replay_picker.observe(self._replay_chosen, names="value")
        self.replay_back.on_click(lambda _button: self.show_replay(self.replay_step - 1))
        self.replay_next.on_click(lambda _button: self.show_replay(self.replay_step + 1))
        self.score_sheet_widget = ScoreSheetWidget(
            self.session.score_sheet(), narrow=True, lang=lang
        )
        for part in (self.score_sheet_widget.table, self.score_sheet_widget.chart):
            part.tooltip = ""
        self._sheet_key: tuple[object, ...] = self._sheet_state()
        self.history = _html()

    # -- actions (what the buttons do) ---------------------------------------------------

    def start(self) -> None:
        """Start a new game (or round) with the settings shown, and fold them away.

        The seed box shows the seed of the game on the table. A seed the learner typed
        there deals that game (to play one again, or a friend's); left as the screen wrote
        it, the box would deal the very same cards again, so a new seed is drawn instead
        (and shown). "Same deal again" on the result screen is the way to replay a game.
        """
        single = self.length_input.value == ROUND
        seed = int(self.seed_input.value)
        self._begin(
            PlaySession(
                players=check_players(self.players_input.value),
                variant=str(self.variant_input.value),
                seed=seed if seed != self._seed_shown else None,
                cards=int(self.cards_input.value) if single else None,
                learner=min(self.learner, int(self.players_input.value) - 1),
                lang=self.lang,
            )
        )
        self.settings_toggle.value = False

    def play_again(self) -> None:
        """Deal a new game like the one played (players, variant, length): new cards."""
        self._begin(self.session.again())

    def same_deal_again(self) -> None:
        """Deal the game just played again: the same seed, so the same cards."""
        self._begin(self.session.again(same_deal=True))

    def _begin(self, session: PlaySession) -> None:
        """Play ``session`` from its start; the seed box shows its seed."""
        self.session = session
        self._seed_shown = session.seed % (MAX_SEED + 1)
        self.seed_input.value = self._seed_shown
        self.coach_advice = None
        self.coach_output.value = ""
        self.message.value = ""
        self._sheet_key = ()  # a new sheet, drawn afresh
        self._bid_key = ()
        self.refresh()

    def ask_coach(self) -> BidAdvice:
        """Show the bidding coach's table for the learner's hand (during their bid)."""
        advice = self.session.advise(simulations=self.coach_simulations)
        self.coach_advice = advice
        self.coach_output.value = bid_advice_html(advice, lang=self.lang)
        return advice

    def undo(self) -> None:
        """Take back the learner's last card (and the bots' cards after it). A scored
        round stays scored: once it is over, Undo is off and does nothing."""
        if self.session.round.finished:
            return
        card = self.session.undo()
        self._say(text("play-screen.undone", self.lang, card=card_name(card, self.lang)))
        self.refresh()

    def next_round(self) -> None:
        """Deal the next round of the game."""
        self.session.next_round()
        self.message.value = ""
        self.refresh()

    def play(self, card: Card) -> None:
        """Play ``card`` from the hand, as pressing its button does. The engine judges it:
        a card it refuses changes nothing, and the message says why."""
        outcome = self.session.play(card)
        if not outcome.accepted:  # the engine refused it: nothing changed, say why
            self._say(text("play-screen.refused", self.lang, reason=outcome.reason), ok=False)
            return
        self._say(played_message(outcome.judgement.card, outcome.reason, self.lang))
        self.refresh()
        if self.session.round.finished:  # the learner's card ended the round
            for callback in list(self._round_over_callbacks):
                callback()

    def on_round_over(self, callback: Callable[[], object], *, remove: bool = False) -> None:
        """Register (or remove) ``callback()``, called each time a round is over."""
        if remove:
            self._round_over_callbacks.remove(callback)
        else:
            self._round_over_callbacks.append(callback)

    def _learner_may(self, phase: Phase) -> bool:
        """Whether a press of ``phase``'s buttons is the learner's move now. A press that
        is not (a second click on a bid button before the first one's refresh, or a
        message for a button that is hidden) is stale: it changes nothing."""
        session = self.session
        return session.round.phase is phase and session.round.to_act == session.learner

    def _trump_pressed(self, suit: Suit) -> None:
        if not self._learner_may(Phase.TRUMP_CHOICE):
            return
        self.session.choose_trump(suit)
        self._say(text("play-screen.trump-chosen", self.lang, trump=suit_name(suit, self.lang)))
        self.refresh()

    def _bid_pressed(self, bid: int) -> None:
        if not self._learner_may(Phase.BIDDING) or bid not in self.session.view().legal_bids:
            return
        self.session.bid(bid)
        self.coach_advice = None
        self.coach_output.value = ""
        self._say(text("play-screen.bid-made", self.lang, bid=bid))
        self.refresh()

    def _next_round_pressed(self) -> None:
        # shown only once the round is over: a press before (a stale or tampered message
        # for the hidden button) changes nothing
        if self.session.can_deal_next:
            self.next_round()

    def _card_pressed(self, index: int) -> None:
        if index < len(self.hand_cards) and self.session.view().phase is Phase.PLAYING:
            self.play(self.hand_cards[index])

    def _say(self, words: str, *, ok: bool = True) -> None:
        """Show a verdict on the learner's action: done (✔) or refused (✘), in words."""
        icon = text("play-screen.accepted-icon" if ok else "play-screen.refused-icon", self.lang)
        state = "accepted" if ok else "refused"
        self.message.value = (
            f'<div class="{PLAY_CLASS}-verdict {state}" role="status" '
            'style="border-left:0.35em solid currentColor;padding:0.15em 0.7em;margin:0.2em 0">'
            f'<span aria-hidden="true" style="font-weight:700">{escape(icon)}</span> '
            f"{words_html(words)}</div>"
        )

    # -- showing the state -----------------------------------------------------------------

    def refresh(self) -> None:
        """Show the session as it is now, from the learner's view."""
        session = self.session
        view = session.view()
        seat = default_names(session.players)[session.learner]
        intro = text("play-screen.intro", self.lang, seat=seat)
        keys = text("play-screen.intro-keys", self.lang)
        self.intro.value = (
            f"<small>{escape(intro)}{sentence_gap(intro)}"
            f'<span class="{KEYS_HINT_CLASS}">{escape(keys)}</span></small>'
        )
        self._show_status(view)
        self.table.value = table_html(scene_from_view(view), lang=self.lang)
        self._show_last_trick(view)
        self._show_action(view)
        self._show_hand(view)
        self._show_results(view)
        self.result.show(session)
        self._show_replay_options(view)
        state = self._sheet_state()
        if state != self._sheet_key:  # the chart is drawn only when the sheet changed
            self._sheet_key = state
            self.score_sheet_widget.update(session.score_sheet(), over=session.finished)

    def _sheet_state(self) -> tuple[object, ...]:
        sheet = self.session.score_sheet()
        return (sheet.names, len(sheet.rows), sheet.totals, self.session.finished)

    def _show_status(self, view: SeatView) -> None:
        lang = self.lang
        session = self.session
        dealer = view.names[view.dealer]
        if session.game is not None:
            status = text(
                "play-screen.status-game",
                lang,
                number=session.round_number,
                count=session.round_count,
                cards=view.cards,
                dealer=dealer,
            )
        else:
            status = text("play-screen.status-round", lang, cards=view.cards, dealer=dealer)
        variant = text("list.separator", lang).join(
            text(f"play-variant.{name}", lang) for name in session.variant_names
        )
        if variant:
            rules = text("play-screen.rules", lang, variant=variant, seed=session.seed)
        else:  # rules given as a value that matches no named preset
            rules = text("play-screen.rules-seed", lang, seed=session.seed)
        gap = sentence_gap(status)  # none after 「。」
        self.status.value = f"<p><strong>{words_html(status)}</strong>{gap}{words_html(rules)}</p>"
        self.reveal.value = _paragraph(describe_reveal(view.reveal, view.chosen_trump, lang))

    def _show_last_trick(self, view: SeatView) -> None:
        lang = self.lang
        has_last = bool(view.tricks)
        for part in (self.last_trick_heading, self.last_trick_view, self.last_trick_text):
            set_visible(part, has_last)
        if has_last:
            trick = view.tricks[-1]
            players = [view.names[seat] for seat in trick.seats]
            self.last_trick_heading.value = _heading(
                text("play-screen.trick-last", lang, number=trick.number)
            )
            self.last_trick_view.update(
                trick.cards, winner=trick.explanation.winner, players=players
            )
            self.last_trick_text.value = _paragraph(
                describe_trick(trick.explanation, players, lang)
            )

    def _show_action(self, view: SeatView) -> None:
        lang = self.lang
        session = self.session
        mine = view.to_act == view.seat
        choosing = mine and view.phase is Phase.TRUMP_CHOICE
        bidding = mine and view.phase is Phase.BIDDING
        playing = mine and view.phase is Phase.PLAYING
        finished = view.phase is Phase.FINISHED
        lines = []
        if choosing:
            lines.append(text("play-screen.turn-trump", lang))
        elif bidding:
            lines.append(text("play-screen.turn-bid", lang, cards=view.cards))
        elif playing:
            lines.append(text("play-screen.turn-play", lang))
            refused = [judgement for judgement in view.judgements if not judgement.legal]
            if refused:
                lines.append(self._not_playable_words(refused[0]))
        elif session.finished and session.game is not None:
            lines.append(text("play-screen.turn-game-over", lang))
        elif finished:
            lines.append(text("play-screen.turn-over", lang))
        keys = ""
        if playing:  # how to play without a mouse, on the same line (no taller box)
            hint = text("play-screen.turn-play-keys", lang)
            keys = f'{sentence_gap(lines[0])}<span class="{KEYS_HINT_CLASS}">{escape(hint)}</span>'
        self.prompt.value = "".join(
            f"<p><strong>{words_html(line)}</strong>{keys}</p>" if index == 0 else _paragraph(line)
            for index, line in enumerate(lines)
        )
        set_visible(self.prompt, bool(lines))
        for button in self.trump_buttons:
            button.disabled = not choosing
        self.coach_button.disabled = not bidding
        if not bidding:
            self.coach_output.value = ""
        self._show_bids(view, bidding)
        # Undo takes back a card of the round being played; a scored round stays scored.
        self.undo_button.disabled = finished or not session.can_undo
        shown: list[widgets.Widget] = []
        if choosing:
            shown += self.trump_buttons
        if bidding:
            shown += [*self.bid_buttons, self.coach_button]
        if view.phase is Phase.PLAYING:
            shown.append(self.undo_button)
        if session.can_deal_next:
            shown.append(self.next_round_button)
        self.actions.children = shown
        set_visible(self.actions, bool(shown))

    def _next_round_tooltip(self) -> str:
        """What "Deal the next round" deals: the next round's cards per player, from the
        game's own schedule (a tournament's rounds grow by 2 or 1, a standard game's by 1);
        ``""`` when there is no next round (a single round, or the game's last)."""
        game = self.session.game
        if game is None or game.round_number >= len(game.schedule):
            return ""
        return text(
            "play-screen.next-round-tooltip",
            self.lang,
            number=game.round_number + 1,
            count=len(game.schedule),
            cards=game.schedule[game.round_number],
        )

    def _not_playable_words(self, judgement: PlayJudgement) -> str:
        """Why the cards marked ✕ may not go: the led suit binds every one of them alike,
        so one sentence says it for all (from the engine's judgement of one)."""
        lang = self.lang
        if judgement.rule is not PlayRule.MUST_FOLLOW or judgement.led_suit is None:
            reason = describe_play(judgement, lang=lang)
            return text("play-screen.not-playable-other", lang, reason=reason)
        led = suit_name(judgement.led_suit, lang)
        followers = join_words((card_name(c, lang) for c in judgement.followers), lang)
        return text("play-screen.not-playable", lang, led=led, followers=followers)

    def _show_bids(self, view: SeatView, bidding: bool) -> None:
        lang = self.lang
        set_visible(self.bid_note, bidding)
        if not bidding:
            self.bid_note.value = ""
            for button in self.bid_buttons:
                button.disabled = True
            return
        key = (self.session.round_number, view.cards, view.legal_bids)
        if key != self._bid_key:  # new buttons only for a new bidding turn
            self._bid_key = key
            self.bid_buttons = []
            for bid in range(view.cards + 1):
                allowed = bid in view.legal_bids
                word = "bid-button" if allowed else "bid-forbidden-button"
                button = _button(
                    text(f"play-screen.{word}", lang, bid=bid),
                    text("play-screen.bid-tooltip", lang, bid=bid),
                )
                button.disabled = not allowed
                button.on_click(lambda _button, bid=bid: self._bid_pressed(bid))
                self.bid_buttons.append(button)
        forbidden = view.forbidden_bid  # plus/minus one: the bid refused, and why
        self.bid_note.value = (
            _paragraph(
                text(
                    "play-screen.bid-forbidden",
                    lang,
                    bid=forbidden.bid,
                    others=forbidden.others,
                    cards=forbidden.tricks,
                )
            )
            if forbidden is not None
            else ""
        )

    def _show_hand(self, view: SeatView) -> None:
        """The learner's cards as buttons: pressable when it is their turn to play, a card
        the rules do not allow marked ✕ with the engine's reason as its tooltip."""
        lang = self.lang
        hand = _sorted_hand(view.hand)
        playing = view.phase is Phase.PLAYING and view.to_act == view.seat
        faces = _sorted_hand(tuple(dict.fromkeys(hand)))
        if not set(faces) <= set(self._faces_key):  # a new deal: its faces, once
            self._faces_key = faces
            self._faces.value = card_faces_css(faces, lang=lang)
        if hand != self.hand_cards:
            # The buttons stay by position and take the cards now in the hand: a played
            # card takes one button away at the end, so the keyboard's focus stays in the
            # hand, on the card that moved into the played one's place.
            while len(self.card_buttons) < len(hand):
                self.card_buttons.append(self._card_button(len(self.card_buttons)))
            del self.card_buttons[len(hand) :]
            for old, new, button in zip(self.hand_cards, hand, self.card_buttons, strict=False):
                if old != new:
                    button.remove_class(_face_class(old))
            for card, button in zip(hand, self.card_buttons, strict=True):
                button.add_class(_face_class(card))
            self.hand_cards = hand
            self.hand_box.children = [self._faces, *self.card_buttons]
        for card, button in zip(hand, self.card_buttons, strict=True):
            judgement = view.judgement_of(card)
            name = card_name(card, lang)
            button.disabled = not playing
            if playing and judgement is not None and not judgement.legal:
                button.add_class("is-illegal")
                button.description = text("play-screen.card-not-playable", lang, card=name)
                button.tooltip = describe_play(judgement, lang=lang)
            else:
                button.remove_class("is-illegal")
                button.description = name
                key = "card-tooltip" if playing else "card-tooltip-wait"
                button.tooltip = text(f"play-screen.{key}", lang, card=name)
        set_visible(self.hand_box, bool(hand))

    def _card_button(self, index: int) -> widgets.Button:
        """The button at ``index`` in the hand (it plays whichever card lies there)."""
        button = widgets.Button(description="", tooltip="")
        button.add_class(CARD_CLASS)
        button.on_click(lambda _button: self._card_pressed(index))
        return button

    def _show_results(self, view: SeatView) -> None:
        lang = self.lang
        session = self.session
        log = session.log()
        latest = session.latest()
        self.latest.value = _heading(text("play-screen.latest", lang)) + _lines_html(
            [entry.text for entry in latest], klass=f"{PLAY_CLASS}-latest"
        )
        self.history.value = (
            f'<details class="{PLAY_CLASS}-history"><summary>'
            f"{escape(text('play-screen.history', lang))}</summary>"
            + _lines_html([entry.text for entry in log], klass=f"{PLAY_CLASS}-log")
            + "</details>"
        )
        finished = view.phase is Phase.FINISHED
        set_visible(self.summary, finished)
        set_visible(self.next_round_button, session.can_deal_next)
        self.next_round_button.disabled = not session.can_deal_next
        self.next_round_button.tooltip = self._next_round_tooltip()
        if not finished:
            self.summary.value = ""
            return
        # Each player's numbers on one row and, under them, how they score in words: the
        # sentence has the table's width, so the results fit a phone.
        rows = "".join(
            f'<tr data-seat="{result.seat}"><th scope="row" rowspan="2" '
            f'style="{HEAD_STYLE};text-align:left;vertical-align:top">{escape(result.name)}</th>'
            f'<td style="{_CELL}">{result.bid}</td><td style="{_CELL}">{result.taken}</td>'
            f'<td style="{_CELL};white-space:nowrap">'
            f"{escape(format_points(result.points, signed=True))}</td></tr>"
            f'<tr class="{PLAY_CLASS}-how"><td colspan="3" style="{_CELL};text-align:left">'
            f"{words_html(result.how)}</td></tr>"
            for result in session.results()
        )
        heads = "".join(
            f'<th scope="col" style="{HEAD_STYLE}">{escape(text(f"play-screen.summary-{key}", lang))}'
            "</th>"
            for key in ("player", "bid", "taken", "points")
        )
        caption = text("play-screen.round-over", lang)
        self.summary.value = scroll_box(
            f'<table class="{PLAY_CLASS}-results" style="{_TABLE}">'
            f"{caption_html(caption)}<thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>",
            label=caption,
        )

    # -- trick replay ------------------------------------------------------------------------

    def _show_replay_options(self, view: SeatView) -> None:
        lang = self.lang
        options = [
            (
                text(
                    "play-screen.replay-option",
                    lang,
                    number=trick.number,
                    winner=view.names[trick.winner],
                ),
                trick.number,
            )
            for trick in view.tricks
        ]
        if list(self.replay_picker.options) != options:  # a trick was finished (or undone)
            self._replay_syncing = True
            try:
                self.replay_picker.options = options
                self.replay_picker.value = options[-1][1] if options else None
            finally:
                self._replay_syncing = False
            self._replay_reset()
        has_tricks = bool(options)
        for part in (self.replay_picker, self.replay_back, self.replay_next, self.replay_view):
            set_visible(part, has_tricks)
        if not has_tricks:
            self.replay_text.value = _paragraph(text("play-screen.replay-none", lang))

    def _replay_chosen(self, _change: dict[str, Any]) -> None:
        if not self._replay_syncing:
            self._replay_reset()

    def _replay_reset(self) -> None:
        """A trick was chosen: show it whole, with the reason for its winner."""
        number = self.replay_picker.value
        if number is None:
            self.replay_step = 0
            return
        self.show_replay(len(self.session.view().tricks[int(number) - 1].cards))

    def show_replay(self, cards_shown: int) -> None:
        """Show the chosen finished trick up to its card ``cards_shown`` (1 = the lead);
        with every card shown, the winner and the engine's reason."""
        number = self.replay_picker.value
        if number is None:
            return
        view = self.session.view()
        trick = view.tricks[int(number) - 1]
        size = len(trick.cards)
        cards_shown = max(1, min(cards_shown, size))
        self.replay_step = cards_shown
        whole = cards_shown == size
        self.replay_view.update(
            trick.cards[:cards_shown],
            winner=trick.explanation.winner if whole else None,
            players=[view.names[seat] for seat in trick.seats[:cards_shown]],
        )
        self.replay_text.value = _paragraph(
            trick_step_text(view, int(number), cards_shown, lang=self.lang)
        )
        self.replay_back.disabled = cards_shown == 1
        self.replay_next.disabled = whole

    # -- settings ----------------------------------------------------------------------------

    def _players_changed(self, change: dict[str, Any]) -> None:
        self.cards_input.max = _most_cards(int(change["new"]))

    def _show_settings(self) -> None:
        opened = bool(self.settings_toggle.value)
        key = "settings-open" if opened else "settings"
        self.settings_toggle.description = text(f"play-screen.{key}", self.lang)
        set_visible(self.settings, opened)

    def _show_cards_input(self) -> None:
        set_visible(self.cards_input, self.length_input.value == ROUND)

    def show(self) -> None:
        """Display the screen in a notebook."""
        import IPython.display

        ipython: Any = IPython.display  # untyped
        ipython.display(self)


__all__ = ["CARD_CLASS", "PLAY_CLASS", "PlayScreen", "bid_advice_html", "card_faces_css"]
