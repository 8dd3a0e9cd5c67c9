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
attribute (of the screen, or of the part that holds it), so tests play a game by pressing
them:

>>> screen = PlayScreen(players=3, variant="five-rounds", seed=4)
>>> screen.session.round_number, [button.description for button in screen.bid_buttons]
(1, ['Bid 0', 'Bid 1'])
>>> screen.bid_buttons[0].click()
>>> screen.message.value.count("You bid 0.")
1

The screen puts its parts together and turns their presses into the session's actions;
each part is a module of its own: the settings (:mod:`tutor.display.play_settings`), the
hand (:mod:`tutor.display.play_hand`), the bidding coach's advice
(:mod:`tutor.display.bid_advice`), the round's results and story
(:mod:`tutor.display.play_results`), the trick replay (:mod:`tutor.display.trick_replay`),
the game's result (:mod:`tutor.display.game_result`), and the look they share
(:mod:`tutor.display.play_style`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from html import escape
from typing import Any

import ipywidgets as widgets

from tutor.display.bid_advice import bid_advice_html
from tutor.display.game_result import GameResult
from tutor.display.html import KEYS_HINT_CLASS, KEYS_HINT_CSS, SHEET_SWITCH_CSS
from tutor.display.play_hand import PlayHand
from tutor.display.play_results import latest_html, round_results_html, story_html
from tutor.display.play_settings import PlaySettings
from tutor.display.play_style import (
    PLAY_CLASS,
    PLAY_CSS,
    action_button,
    heading_html,
    html_part,
    paragraph_html,
)
from tutor.display.table import scene_from_view, table_html
from tutor.display.trick_replay import TrickReplay
from tutor.display.visibility import set_visible
from tutor.display.widgets import ScoreSheetWidget, TrickView
from tutor.display.words import words_html
from tutor.play.bots import Bot
from tutor.play.coach import DEFAULT_SIMULATIONS, BidAdvice
from tutor.play.session import PlaySession
from tutor.rules.cards import Card, Suit
from tutor.rules.round import Phase, SeatView
from tutor.rules.seats import default_names
from tutor.rules.trick import PlayJudgement, PlayRule
from tutor.teaching.explain import (
    card_name,
    describe_play,
    describe_reveal,
    describe_trick,
    suit_name,
)
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, sentence_gap, text


def played_message(card: Card, reason: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """What the play screen says of a card the learner played, naming it once: the
    engine's ``reason`` names it where it matters ("You follow green with green 5."), not
    where any card would do ("You lead: ..."), and then the card comes first."""
    name = card_name(card, lang)
    key = "play-screen.played-named" if name in reason else "play-screen.played"
    return text(key, lang, card=name, reason=reason)


# -- the screen -----------------------------------------------------------------------------


class PlayScreen(widgets.VBox):  # type: ignore[misc]
    """A game (or one round) against bots, at a card table.

    At the top, the round's status and the settings (:attr:`settings`: players, variant,
    seed, a whole game or one round; folded away while playing). Then the table
    (:attr:`table`: seats clockwise with bids and tricks taken, the dealer marked, the seat
    to act lit, the trick in the middle, trump in a corner), the learner's action
    (:attr:`prompt`; trump suit buttons, bid buttons with "Ask the coach", Undo, the next
    round) and the verdict on it (:attr:`message`), and the hand along the bottom: a button
    per card (:attr:`hand`). Beside the table, a side panel: the last trick with the
    engine's reason, what happened since the learner's last move, the coach. Below: the
    round's result with each score's formula, a replay of any finished trick card by card
    (:attr:`replay`), the score sheet with its chart, and the whole round's story. At the
    end, the result screen (:attr:`result`, :mod:`tutor.display.game_result`) takes the
    hand's place: who won, the final totals, "Play again" and "Same deal again".

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
        self.settings = PlaySettings(session, cards=cards, lang=lang)
        self.settings.start_button.on_click(lambda _button: self.start())
        self._build_table()
        self._build_actions()
        self._build_results()
        self.add_class(PLAY_CLASS)
        top = widgets.HBox([self.status, self.settings.toggle])
        top.add_class(f"{PLAY_CLASS}-top")
        act = widgets.VBox([self.prompt, self.actions])
        act.add_class(f"{PLAY_CLASS}-act")
        hand_area = widgets.VBox([self.hand, self.result, self.summary])
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
            html_part(PLAY_CSS + KEYS_HINT_CSS + SHEET_SWITCH_CSS),
            top,
            self.settings,
            main,
            self.replay,
            self.score_sheet_widget,
            self.history,
        ]
        self.refresh()

    # -- building -------------------------------------------------------------------------

    def _build_table(self) -> None:
        self.intro = html_part(klass=f"{PLAY_CLASS}-intro")
        self.status = html_part(klass=f"{PLAY_CLASS}-status")
        self.reveal = html_part(klass=f"{PLAY_CLASS}-reveal")
        self.table = html_part(klass=f"{PLAY_CLASS}-table")
        self.last_trick_heading = html_part()
        self.last_trick_view = TrickView(scale=self.scale * 0.5, lang=self.lang)
        self.last_trick_view.tooltip = ""
        self.last_trick_text = html_part()

    def _build_actions(self) -> None:
        lang = self.lang
        self.prompt = html_part(klass=f"{PLAY_CLASS}-prompt")
        self.message = html_part(klass=f"{PLAY_CLASS}-message")
        self.trump_buttons = []
        for suit in Suit:
            words = text(
                "play-screen.trump-button", lang, colour=suit_name(suit, lang), letter=suit.value
            )
            button = action_button(words, words)
            button.on_click(lambda _button, suit=suit: self._trump_pressed(suit))
            self.trump_buttons.append(button)
        self.bid_buttons: list[widgets.Button] = []
        self._bid_key: tuple[object, ...] = ()
        self.bid_note = html_part()
        self.coach_button = action_button(
            text("play-coach.ask", lang), text("play-coach.ask-tooltip", lang)
        )
        self.coach_button.on_click(lambda _button: self.ask_coach())
        self.coach_output = html_part()
        self.undo_button = action_button(
            text("play-screen.undo", lang), text("play-screen.undo-tooltip", lang)
        )
        self.undo_button.on_click(lambda _button: self.undo())
        self.actions = widgets.Box([])
        self.actions.add_class(f"{PLAY_CLASS}-actions")
        self.hand = PlayHand(on_press=self._card_pressed, lang=lang)

    def _build_results(self) -> None:
        lang = self.lang
        self.latest = html_part()
        self.summary = html_part()
        self.result = GameResult(lang=lang)  # at the end: who won, Play again
        self.result.play_again_button.on_click(lambda _button: self.play_again())
        self.result.same_deal_button.on_click(lambda _button: self.same_deal_again())
        self.next_round_button = action_button(
            text("play-screen.next-round", lang), self._next_round_tooltip(), primary=True
        )
        self.next_round_button.on_click(lambda _button: self._next_round_pressed())
        self.replay = TrickReplay(lambda: self.session.view(), scale=self.scale * 0.8, lang=lang)
        self.score_sheet_widget = ScoreSheetWidget(
            self.session.score_sheet(), narrow=True, lang=lang
        )
        for part in (self.score_sheet_widget.table, self.score_sheet_widget.chart):
            part.tooltip = ""
        self._sheet_key: tuple[object, ...] = self._sheet_state()
        self.history = html_part()

    # -- actions (what the buttons do) ---------------------------------------------------

    def start(self) -> None:
        """Start a new game (or round) with the settings shown, and fold them away (the
        seed box's rule: :meth:`tutor.display.play_settings.PlaySettings.new_session`)."""
        self._begin(self.settings.new_session(learner=self.learner))
        self.settings.fold()

    def play_again(self) -> None:
        """Deal a new game like the one played (players, variant, length): new cards."""
        self._begin(self.session.again())

    def same_deal_again(self) -> None:
        """Deal the game just played again: the same seed, so the same cards."""
        self._begin(self.session.again(same_deal=True))

    def _begin(self, session: PlaySession) -> None:
        """Play ``session`` from its start; the seed box shows its seed."""
        self.session = session
        self.settings.show_seed(session.seed)
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
        # A second press that arrives before the first one's refresh disabled the button
        # (a quick double click) finds nothing left to take back: nothing to do, no error.
        if self.session.round.finished or not self.session.can_undo:
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

    def _card_pressed(self, card: Card) -> None:
        if self.session.view().phase is Phase.PLAYING:
            self.play(card)

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
        self.hand.show(view)
        self._show_results(view)
        self.result.show(session)
        self.replay.show_tricks(view)
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
        self.reveal.value = paragraph_html(describe_reveal(view.reveal, view.chosen_trump, lang))

    def _show_last_trick(self, view: SeatView) -> None:
        lang = self.lang
        has_last = bool(view.tricks)
        for part in (self.last_trick_heading, self.last_trick_view, self.last_trick_text):
            set_visible(part, has_last)
        if has_last:
            trick = view.tricks[-1]
            players = [view.names[seat] for seat in trick.seats]
            self.last_trick_heading.value = heading_html(
                text("play-screen.trick-last", lang, number=trick.number)
            )
            self.last_trick_view.update(
                trick.cards, winner=trick.explanation.winner, players=players
            )
            self.last_trick_text.value = paragraph_html(
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
            f"<p><strong>{words_html(line)}</strong>{keys}</p>"
            if index == 0
            else paragraph_html(line)
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
                button = action_button(
                    text(f"play-screen.{word}", lang, bid=bid),
                    text("play-screen.bid-tooltip", lang, bid=bid),
                )
                button.disabled = not allowed
                button.on_click(lambda _button, bid=bid: self._bid_pressed(bid))
                self.bid_buttons.append(button)
        forbidden = view.forbidden_bid  # plus/minus one: the bid refused, and why
        self.bid_note.value = (
            paragraph_html(
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
        self.latest.value = latest_html(session.latest(), lang=lang)
        self.history.value = story_html(session.log(), lang=lang)
        finished = view.phase is Phase.FINISHED
        set_visible(self.summary, finished)
        set_visible(self.next_round_button, session.can_deal_next)
        self.next_round_button.disabled = not session.can_deal_next
        self.next_round_button.tooltip = self._next_round_tooltip()
        self.summary.value = round_results_html(session.results(), lang=lang) if finished else ""

    def show(self) -> None:
        """Display the screen in a notebook."""
        import IPython.display

        ipython: Any = IPython.display  # untyped
        ipython.display(self)


__all__ = ["PlayScreen", "played_message"]
