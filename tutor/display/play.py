"""The play screen: a game of Wizard against bots, with a rules coach and a bidding coach.

:class:`PlayScreen` is a thin widget over :class:`tutor.play.session.PlaySession`: the
session runs the game through the engine and tells it in words; the screen shows the
learner's view (:meth:`tutor.rules.round.Round.view`) and turns presses into the session's
actions. No rule lives here: a card is refused by the engine's judgement, a trick's winner
and a score come with the engine's reasons, and a bid the variant hides is never in the
view, so never on screen.

Every control is a real button, toggle button, drop-down or number box (Tab to it, then
Enter or Space), and every child is an attribute, so tests play a game by pressing them:

>>> screen = PlayScreen(players=3, variant="five-rounds", seed=4)
>>> screen.session.round_number, [button.description for button in screen.bid_buttons]
(1, ['Bid 0', 'Bid 1'])
>>> screen.bid_buttons[0].click()
>>> screen.message.value.count("You bid 0.")
1
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

import ipywidgets as widgets

from tutor.display.html import MINUS, format_points
from tutor.display.svg import card_svg, hand_svg
from tutor.display.widgets import HandSelector, ScoreSheetWidget, TrickView
from tutor.play.bots import Bot
from tutor.play.coach import DEFAULT_SIMULATIONS, BidAdvice
from tutor.play.session import PlaySession
from tutor.rules.cards import Card, Suit
from tutor.rules.round import Phase, SeatView
from tutor.rules.schedule import cards_per_round
from tutor.rules.seats import check_players, default_names
from tutor.rules.variants import variant_names
from tutor.teaching.explain import card_name, describe_reveal, describe_trick, suit_name
from tutor.teaching.narrate import trick_step_text
from tutor.teaching.text import DEFAULT_LANGUAGE, text

PLAY_CLASS = "tutor-play"
"""CSS class of the screen; its parts add a suffix (``-message``, ``-seats``, ...)."""

MAX_SEED = 2**32 - 1
GAME = "game"
ROUND = "round"

_TABLE = "border-collapse:collapse;font-variant-numeric:tabular-nums;margin:0.4em 0"
_CELL = "padding:0.2em 0.6em;border:1px solid #8a8a8a;text-align:right"
_HEAD = "padding:0.2em 0.6em;border:1px solid #8a8a8a;text-align:center"
_CAPTION = "caption-side:top;text-align:left;font-weight:600;padding-bottom:0.3em"
_HEADING = "font-size:1.05em;margin:0.6em 0 0.2em"

# Sizes and spacing only; the page keeps its own colours (light and dark themes).
PLAY_CSS = f"""
<style>
.{PLAY_CLASS} {{ max-width: 72rem; }}
.{PLAY_CLASS} .widget-html-content {{ line-height: 1.4; }}
.{PLAY_CLASS} .{PLAY_CLASS}-settings {{ border: 1px solid #8a8a8a; border-radius: 0.3rem;
  padding: 0.3rem 0.6rem; margin-bottom: 0.4rem; }}
.{PLAY_CLASS} .{PLAY_CLASS}-message .widget-html-content {{ font-size: 1.05em; }}
.{PLAY_CLASS} button.jupyter-button {{ margin-right: 0.4rem; }}
</style>
"""


def _button(description: str, tooltip: str, *, primary: bool = False) -> widgets.Button:
    return widgets.Button(
        description=description,
        tooltip=tooltip,
        button_style="primary" if primary else "",
        layout=widgets.Layout(width="auto", min_width="6em", margin="0.15em 0.4em 0.15em 0"),
    )


def _heading(words: str) -> str:
    return f'<h3 style="{_HEADING}">{escape(words)}</h3>'


def _paragraph(words: str, *, klass: str = "") -> str:
    attribute = f' class="{klass}"' if klass else ""
    return f'<p{attribute} style="margin:0.25em 0">{escape(words, quote=False)}</p>'


def _show(widget: widgets.Widget, visible: bool) -> None:
    widget.layout.display = None if visible else "none"


def _most_cards(players: int) -> int:
    """The most cards a round deals each player (the standard game's last round)."""
    return max(cards_per_round(players))


def _sorted_hand(hand: tuple[Card, ...]) -> tuple[Card, ...]:
    """The hand in the usual showing order (Wizards, suits high to low, Jesters)."""
    return tuple(sorted(hand, key=lambda card: card.sort_key))


# -- HTML parts (pure functions of the learner's view) ----------------------------------


def seats_html(view: SeatView, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The table as the learner sees it: each player's cards left, bid and tricks taken.
    A bid the variant hides reads "made (hidden)", never its number.

    >>> from tutor.rules.round import Round
    >>> from tutor.rules.variants import Rules
    >>> rnd = Round(players=3, cards=3, dealer=0, seed=1, rules=Rules(bidding="secret"))
    >>> _ = rnd.bid(2)
    >>> page = seats_html(rnd.view(2))
    >>> page.count("made (hidden)"), page.count("not yet"), ">2<" in page
    (1, 2, False)
    """
    rows = []
    for seat, name in enumerate(view.names):
        who = name
        if seat == view.dealer:
            who = text("play-screen.seat-dealer", lang, name=who)
        if seat == view.to_act and view.phase is not Phase.FINISHED:
            who = text("play-screen.seat-to-act", lang, name=who)
        bid = view.bids[seat]
        if bid is not None:
            bid_words = str(bid)
        elif view.has_bid[seat]:
            bid_words = text("play-screen.bid-hidden", lang)
        else:
            bid_words = text("play-screen.bid-not-yet", lang)
        rows.append(
            f'<tr data-seat="{seat}"><th scope="row" style="{_HEAD};text-align:left">'
            f"{escape(who)}</th>"
            f'<td class="cards" style="{_CELL}">{view.hand_sizes[seat]}</td>'
            f'<td class="bid" style="{_CELL}">{escape(bid_words)}</td>'
            f'<td class="taken" style="{_CELL}">{view.taken[seat]}</td></tr>'
        )
    heads = "".join(
        f'<th scope="col" style="{_HEAD}">{escape(text(f"play-screen.seat-{key}", lang))}</th>'
        for key in ("player", "cards", "bid", "taken")
    )
    return (
        f'<table class="{PLAY_CLASS}-seats" style="{_TABLE}">'
        f'<caption style="{_CAPTION}">{escape(text("play-screen.seats-caption", lang))}</caption>'
        f"<thead><tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def bid_advice_html(advice: BidAdvice, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The bidding coach's advice as a table: for each number of tricks, its chance (as a
    percentage and a bar) and the average points of bidding it; the best bid is starred
    and named in words, and a bid the rules forbid says so.

    >>> advice = BidAdvice(0, 1, None, (0.25, 0.75), (-2.5, 17.5), (0, 1), 1, 1, 4)
    >>> page = bid_advice_html(advice)
    >>> page.count('data-probability='), "75.0%" in page, "★ best bid" in page
    (2, True, True)
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
            f"height:0.7em;width:{chance * 8:.2f}em;background:currentColor;opacity:0.55;"
            'margin-left:0.4em"></span>'
        )
        weight = 700 if tricks == advice.best_bid else 400
        rows.append(
            f'<tr data-tricks="{tricks}" data-probability="{chance!r}" '
            f'style="font-weight:{weight}">'
            f'<th scope="row" style="{_HEAD}">{tricks}</th>'
            f'<td class="chance" style="{_CELL};text-align:left">{escape(percent)}{bar}</td>'
            f'<td class="expected" style="{_CELL}">'
            f"{escape(_points(advice.expected_scores[tricks], lang))}</td>"
            f'<td class="note" style="{_CELL};text-align:left">'
            f"{escape(text('list.separator', lang).join(notes))}</td></tr>"
        )
    heads = "".join(
        f'<th scope="col" style="{_HEAD}">{escape(text(f"play-coach.{key}", lang))}</th>'
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
        text("play-coach.how", lang),
    ]
    caption = text("play-coach.caption", lang, simulations=advice.simulations)
    return (
        f'<div class="{PLAY_CLASS}-coach">'
        f'<table class="{PLAY_CLASS}-advice" style="{_TABLE}">'
        f'<caption style="{_CAPTION}">{escape(caption)}</caption>'
        f"<thead><tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        + "".join(_paragraph(sentence) for sentence in sentences)
        + "</div>"
    )


def _points(value: float, lang: str) -> str:
    return text("play-coach.points", lang, value=value).replace("-", MINUS)


def _lines_html(lines: list[str], *, klass: str) -> str:
    items = "".join(f"<li>{escape(line, quote=False)}</li>" for line in lines)
    return f'<ul class="{klass}" style="margin:0.2em 0;padding-left:1.4em">{items}</ul>'


# -- the screen -----------------------------------------------------------------------------


class PlayScreen(widgets.VBox):  # type: ignore[misc]
    """A game (or one round) against bots, played with buttons.

    The settings row starts a new game (players, variant, seed, a whole game or one
    round). Below: the round's status and trump, the table (bids as the variant lets the
    learner see them), the trick so far and the last trick with the engine's reason, the
    learner's action (trump suit buttons, bid buttons with "Ask the coach", or the hand to
    select a card from and Play), Undo, what happened since the learner's last move, the
    round's result with each score's formula, a replay of any finished trick card by card,
    the score sheet with its chart, and the whole round's story.

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
        self._build_settings(session, cards)
        self._build_table()
        self._build_actions()
        self._build_results()
        self.add_class(PLAY_CLASS)
        self.children = [
            widgets.HTML(PLAY_CSS),
            self.intro,
            widgets.HBox([self.settings_toggle]),
            self.settings,
            self.status,
            self.seats,
            self.trick_heading,
            self.trick_view,
            self.last_trick_heading,
            self.last_trick_view,
            self.last_trick_text,
            self.prompt,
            self.trump_box,
            self.bid_box,
            self.bid_note,
            widgets.HBox([self.coach_button]),
            self.coach_output,
            self.hand_heading,
            self.hand_picture,
            self.hand_box,
            widgets.HBox([self.play_button, self.undo_button]),
            self.message,
            self.latest,
            self.summary,
            widgets.HBox([self.next_round_button]),
            self.replay_heading,
            widgets.HBox([self.replay_picker, self.replay_back, self.replay_next]),
            self.replay_view,
            self.replay_text,
            self.score_sheet_widget,
            self.history,
        ]
        self.refresh()

    # -- building -------------------------------------------------------------------------

    def _build_settings(self, session: PlaySession, cards: int | None) -> None:
        lang = self.lang
        self.intro = widgets.HTML()
        counts = list(range(3, 7))
        self.players_input = widgets.ToggleButtons(
            options=[(text("play-screen.players-option", lang, count=n), n) for n in counts],
            value=session.players,
            description=text("play-screen.players", lang),
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
        self.status = widgets.HTML()
        self.seats = widgets.HTML()
        self.trick_heading = widgets.HTML()
        self.trick_view = TrickView(scale=self.scale, lang=self.lang)
        self.last_trick_heading = widgets.HTML()
        self.last_trick_view = TrickView(scale=self.scale * 0.8, lang=self.lang)
        self.last_trick_text = widgets.HTML()
        self.status.add_class(f"{PLAY_CLASS}-status")
        self.seats.add_class(f"{PLAY_CLASS}-seats")

    def _build_actions(self) -> None:
        lang = self.lang
        self.prompt = widgets.HTML()
        self.message = widgets.HTML()
        self.message.add_class(f"{PLAY_CLASS}-message")
        self.trump_buttons = []
        for suit in Suit:
            words = text(
                "play-screen.trump-button", lang, colour=suit_name(suit, lang), letter=suit.value
            )
            button = _button(words, words)
            button.on_click(lambda _button, suit=suit: self._trump_pressed(suit))
            self.trump_buttons.append(button)
        self.trump_box = widgets.Box(
            self.trump_buttons, layout=widgets.Layout(flex_flow="row wrap")
        )
        self.bid_buttons: list[widgets.Button] = []
        self._bid_key: tuple[object, ...] = ()
        self.bid_box = widgets.Box([], layout=widgets.Layout(flex_flow="row wrap"))
        self.bid_note = widgets.HTML()
        self.coach_button = _button(
            text("play-coach.ask", lang), text("play-coach.ask-tooltip", lang)
        )
        self.coach_button.on_click(lambda _button: self.ask_coach())
        self.coach_output = widgets.HTML()
        self.hand_heading = widgets.HTML(_heading(text("play-screen.hand", lang)))
        self.hand_picture = widgets.HTML()
        self.hand_selector = HandSelector((), multiple=False, scale=self.scale, lang=lang)
        self.hand_box = widgets.Box([self.hand_selector])
        self.play_button = _button(
            text("play-screen.play", lang), text("play-screen.play-tooltip", lang), primary=True
        )
        self.play_button.on_click(lambda _button: self._play_pressed())
        self.undo_button = _button(
            text("play-screen.undo", lang), text("play-screen.undo-tooltip", lang)
        )
        self.undo_button.on_click(lambda _button: self.undo())

    def _build_results(self) -> None:
        lang = self.lang
        self.latest = widgets.HTML()
        self.summary = widgets.HTML()
        self.next_round_button = _button(
            text("play-screen.next-round", lang),
            text("play-screen.next-round-tooltip", lang),
            primary=True,
        )
        self.next_round_button.on_click(lambda _button: self.next_round())
        self.replay_heading = widgets.HTML(_heading(text("play-screen.replay", lang)))
        self.replay_picker = widgets.Dropdown(
            options=[],
            description=text("play-screen.replay-trick", lang),
            tooltip=text("play-screen.replay-trick-tooltip", lang),
            layout=widgets.Layout(width="24em"),
        )
        self.replay_back = _button(
            text("play-screen.replay-back", lang), text("play-screen.replay-back-tooltip", lang)
        )
        self.replay_next = _button(
            text("play-screen.replay-next", lang), text("play-screen.replay-next-tooltip", lang)
        )
        self.replay_view = TrickView(scale=self.scale * 0.8, lang=lang)
        self.replay_text = widgets.HTML()
        self.replay_step = 0
        self._replay_syncing = False
        self.replay_picker.observe(self._replay_chosen, names="value")
        self.replay_back.on_click(lambda _button: self.show_replay(self.replay_step - 1))
        self.replay_next.on_click(lambda _button: self.show_replay(self.replay_step + 1))
        self.score_sheet_widget = ScoreSheetWidget(self.session.score_sheet(), lang=lang)
        self._sheet_key: tuple[object, ...] = self._sheet_state()
        self.history = widgets.HTML()

    # -- actions (what the buttons do) ---------------------------------------------------

    def start(self) -> None:
        """Start a new game (or round) with the settings shown."""
        single = self.length_input.value == ROUND
        self.session = PlaySession(
            players=check_players(self.players_input.value),
            variant=str(self.variant_input.value),
            seed=int(self.seed_input.value),
            cards=int(self.cards_input.value) if single else None,
            learner=min(self.learner, int(self.players_input.value) - 1),
            lang=self.lang,
        )
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
        """Take back the learner's last card (and the bots' cards after it)."""
        card = self.session.undo()
        self._say(text("play-screen.undone", self.lang, card=card_name(card, self.lang)))
        self.refresh()

    def next_round(self) -> None:
        """Deal the next round of the game."""
        self.session.next_round()
        self.message.value = ""
        self.refresh()

    def _trump_pressed(self, suit: Suit) -> None:
        self.session.choose_trump(suit)
        self._say(text("play-screen.trump-chosen", self.lang, trump=suit_name(suit, self.lang)))
        self.refresh()

    def _bid_pressed(self, bid: int) -> None:
        self.session.bid(bid)
        self.coach_advice = None
        self.coach_output.value = ""
        self._say(text("play-screen.bid-made", self.lang, bid=bid))
        self.refresh()

    def _play_pressed(self) -> None:
        selected = self.hand_selector.selected
        if not selected:
            self._say(text("play-screen.no-card-selected", self.lang))
            return
        outcome = self.session.play(selected[0])
        if not outcome.accepted:  # the engine refused it: nothing changed, say why
            self._say(text("play-screen.refused", self.lang, reason=outcome.reason), ok=False)
            return
        card = card_name(outcome.judgement.card, self.lang)
        self._say(text("play-screen.played", self.lang, card=card, reason=outcome.reason))
        self.refresh()

    def _say(self, words: str, *, ok: bool = True) -> None:
        icon = text("play-screen.accepted-icon" if ok else "play-screen.refused-icon", self.lang)
        state = "accepted" if ok else "refused"
        self.message.value = (
            f'<div class="{PLAY_CLASS}-verdict {state}" role="status" '
            'style="border-left:0.35em solid currentColor;padding:0.2em 0.7em;margin:0.3em 0">'
            f'<span aria-hidden="true" style="font-weight:700">{escape(icon)}</span> '
            f"{escape(words, quote=False)}</div>"
        )

    # -- showing the state -----------------------------------------------------------------

    def refresh(self) -> None:
        """Show the session as it is now, from the learner's view."""
        session = self.session
        view = session.view()
        seat = default_names(session.players)[session.learner]
        self.intro.value = _paragraph(text("play-screen.intro", self.lang, seat=seat))
        self._show_status(view)
        self.seats.value = seats_html(view, lang=self.lang)
        self._show_tricks(view)
        self._show_action(view)
        self._show_results(view)
        self._show_replay_options(view)
        state = self._sheet_state()
        if state != self._sheet_key:  # the chart is drawn only when the sheet changed
            self._sheet_key = state
            self.score_sheet_widget.update(session.score_sheet())

    def _sheet_state(self) -> tuple[object, ...]:
        sheet = self.session.score_sheet()
        return (sheet.names, len(sheet.rows), sheet.totals)

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
        turned = (
            card_svg(view.turned, scale=self.scale * 0.8, lang=lang)
            if view.turned is not None
            else ""
        )
        self.status.value = (
            _heading(status)
            + _paragraph(rules)
            + '<div style="display:flex;gap:0.8em;align-items:center">'
            + f"<div>{turned}</div>{_paragraph(describe_reveal(view.reveal, view.chosen_trump, lang))}</div>"
        )

    def _show_tricks(self, view: SeatView) -> None:
        lang = self.lang
        playing = view.phase is Phase.PLAYING
        for part in (self.trick_heading, self.trick_view):
            _show(part, playing)
        if playing:
            number = len(view.tricks) + 1
            cards = [card for _, card in view.current_trick]
            players = [view.names[seat] for seat, _ in view.current_trick]
            if cards:
                heading = text("play-screen.trick-now", lang, number=number, count=view.cards)
            else:
                leader = view.names[view.current_leader if view.current_leader is not None else 0]
                heading = text(
                    "play-screen.trick-now-empty",
                    lang,
                    number=number,
                    count=view.cards,
                    leader=leader,
                )
            self.trick_heading.value = _heading(heading)
            self.trick_view.update(cards, players=players)
        has_last = bool(view.tricks)
        for part in (self.last_trick_heading, self.last_trick_view, self.last_trick_text):
            _show(part, has_last)
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
        mine = view.to_act == view.seat
        choosing = mine and view.phase is Phase.TRUMP_CHOICE
        bidding = mine and view.phase is Phase.BIDDING
        playing = mine and view.phase is Phase.PLAYING
        if choosing:
            prompt = text("play-screen.turn-trump", lang)
        elif bidding:
            prompt = text("play-screen.turn-bid", lang, cards=view.cards)
        elif playing:
            prompt = text("play-screen.turn-play", lang)
        else:
            prompt = ""
        self.prompt.value = f"<strong>{escape(prompt)}</strong>" if prompt else ""
        _show(self.prompt, bool(prompt))
        _show(self.trump_box, choosing)
        for button in self.trump_buttons:
            button.disabled = not choosing
        self._show_bids(view, bidding)
        _show(self.coach_button, bidding)
        self.coach_button.disabled = not bidding
        _show(self.coach_output, bidding)
        if not bidding:
            self.coach_output.value = ""
        hand = _sorted_hand(view.hand)
        _show(self.hand_heading, bool(hand))
        _show(self.hand_picture, bool(hand) and not playing)
        _show(self.hand_box, playing)
        _show(self.play_button, playing)
        self.play_button.disabled = not playing
        if playing:
            if self.hand_selector.cards != hand:  # a new hand: new toggles
                self.hand_selector = HandSelector(
                    hand, multiple=False, scale=self.scale, lang=lang
                )
                self.hand_box.children = [self.hand_selector]
        else:
            self.hand_picture.value = hand_svg(hand, scale=self.scale, lang=lang) if hand else ""
        self.undo_button.disabled = not self.session.can_undo
        _show(self.undo_button, view.phase in (Phase.PLAYING, Phase.FINISHED))

    def _show_bids(self, view: SeatView, bidding: bool) -> None:
        lang = self.lang
        _show(self.bid_box, bidding)
        _show(self.bid_note, bidding)
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
            self.bid_box.children = self.bid_buttons
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

    def _show_results(self, view: SeatView) -> None:
        lang = self.lang
        session = self.session
        log = session.log()
        latest = session.latest()
        self.latest.value = (
            _heading(text("play-screen.latest", lang))
            + _lines_html([entry.text for entry in latest], klass=f"{PLAY_CLASS}-latest")
        )
        self.history.value = (
            f'<details class="{PLAY_CLASS}-history"><summary>'
            f"{escape(text('play-screen.history', lang))}</summary>"
            + _lines_html([entry.text for entry in log], klass=f"{PLAY_CLASS}-log")
            + "</details>"
        )
        finished = view.phase is Phase.FINISHED
        _show(self.summary, finished)
        _show(self.next_round_button, session.can_deal_next)
        self.next_round_button.disabled = not session.can_deal_next
        if not finished:
            self.summary.value = ""
            return
        rows = "".join(
            f'<tr data-seat="{result.seat}"><th scope="row" style="{_HEAD};text-align:left">'
            f"{escape(result.name)}</th>"
            f'<td style="{_CELL}">{result.bid}</td><td style="{_CELL}">{result.taken}</td>'
            f'<td style="{_CELL}">{escape(format_points(result.points, signed=True))}</td>'
            f'<td style="{_CELL};text-align:left">{escape(result.how, quote=False)}</td></tr>'
            for result in session.results()
        )
        heads = "".join(
            f'<th scope="col" style="{_HEAD}">{escape(text(f"play-screen.summary-{key}", lang))}'
            "</th>"
            for key in ("player", "bid", "taken", "points", "how")
        )
        ending = ""
        if session.finished:
            ending = _paragraph(session.game_over_text())
            if session.game is None:
                ending += _paragraph(text("play-screen.round-alone-over", lang))
        self.summary.value = (
            f'<table class="{PLAY_CLASS}-results" style="{_TABLE}">'
            f'<caption style="{_CAPTION}">{escape(text("play-screen.round-over", lang))}'
            f"</caption><thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>{ending}"
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
            _show(part, has_tricks)
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
        _show(self.settings, opened)

    def _show_cards_input(self) -> None:
        _show(self.cards_input, self.length_input.value == ROUND)

    def show(self) -> None:
        """Display the screen in a notebook."""
        import IPython.display

        ipython: Any = IPython.display  # untyped
        ipython.display(self)


__all__ = ["PLAY_CLASS", "PlayScreen", "bid_advice_html", "seats_html"]
