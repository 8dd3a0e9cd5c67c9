"""The play screen, driven as a learner would: buttons clicked, cards selected, settings
chosen. The engine is the judge everywhere: which cards are legal, why a card is refused,
who takes a trick, what a round scores. The tests compare what the screen shows with what
the engine says, and what it hides with what the variant hides."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from html import escape

import ipywidgets as widgets
import pytest
from ipywidgets.widgets.widget_description import DescriptionWidget

from tutor.display.html import format_points
from tutor.display.play import PlayScreen, played_message
from tutor.display.play_style import CARD_CLASS
from tutor.display.words import words_html
from tutor.errors import OutOfTurnError
from tutor.play.bots import SensibleBot
from tutor.play.coach import BidAdvice, advise_bid
from tutor.play.session import NothingToUndoError, PlaySession
from tutor.rules.cards import Card, Suit
from tutor.rules.game import Game
from tutor.rules.round import CardPlayed, Phase, Round, SeatView, TrumpChosen
from tutor.rules.trick import PlayRule, judge_play
from tutor.rules.trump import reveal_trump
from tutor.rules.variants import Rules
from tutor.teaching.explain import (
    card_name,
    describe_play,
    describe_reveal,
    describe_score,
    describe_trick,
)
from tutor.teaching.text import LANGUAGES, text

COACH_SIMULATIONS = 300


# -- driving the screen through its controls ---------------------------------------------


def all_widgets(widget: widgets.Widget) -> Iterator[widgets.Widget]:
    yield widget
    for child in getattr(widget, "children", ()):
        yield from all_widgets(child)


def shown_text(screen: PlayScreen) -> str:
    """Every word and picture the screen holds: HTML values, button words, tooltips and
    drop-down labels (hidden parts too: hidden is not secret)."""
    parts = []
    for widget in all_widgets(screen):
        for name in ("value", "description", "tooltip"):
            value = getattr(widget, name, None)
            if isinstance(value, str):
                parts.append(value)
        parts += [str(label) for label in getattr(widget, "_options_labels", ())]
    return "\n".join(parts)


def seat_bids(screen: PlayScreen) -> list[str]:
    """The bid each seat's plate on the table shows, in seat order."""
    plates = re.findall(
        r'data-seat="(\d)">.*?<span class="tutor-seat-bid">([^<]*)</span>', screen.table.value
    )
    return [words for _, words in sorted(plates)]


def is_shown(widget: widgets.Widget) -> bool:
    return widget.layout.display != "none"


def card_button(screen: PlayScreen, card: Card) -> widgets.Button:
    return screen.hand.card_buttons[screen.hand.cards.index(card)]


def play_card(screen: PlayScreen, card: Card) -> None:
    """Press the card in the hand (what a click, or Enter on the focused card, does)."""
    card_button(screen, card).click()


def offered(screen: PlayScreen, widget: widgets.Widget) -> bool:
    """Whether ``widget`` is among the actions the screen offers now."""
    return is_shown(screen.actions) and widget in screen.actions.children and is_shown(widget)


def first_legal(view: SeatView) -> Card:
    return view.legal_plays[0]


def take_turn(screen: PlayScreen, choose: Callable[[SeatView], Card] = first_legal) -> None:
    """One learner action through the controls: trump, bid, card, or the next round."""
    view = screen.session.view()
    if view.phase is Phase.FINISHED:
        screen.next_round_button.click()
    elif view.phase is Phase.TRUMP_CHOICE:
        screen.trump_buttons[0].click()
    elif view.phase is Phase.BIDDING:
        screen.bid_buttons[view.legal_bids[0]].click()
    else:
        play_card(screen, choose(view))


def learner_cards(screen: PlayScreen) -> int:
    return sum(
        isinstance(event, CardPlayed) and event.seat == screen.session.learner
        for event in screen.session.round.events
    )


class FixedBidBot(SensibleBot):
    """Bids ``amount`` (if legal) and plays its first legal card whatever it bid, so two
    tables that differ only in this bid play the same cards."""

    def __init__(self, amount: int) -> None:
        self.amount = amount

    def bid(self, view: SeatView) -> int:
        return self.amount if self.amount in view.legal_bids else view.legal_bids[0]

    def play(self, view: SeatView) -> Card:
        return view.legal_plays[0]


def fixed_bid_screen(variant: str, amount: int, *, cards: int = 3) -> PlayScreen:
    """4 players, one round; the learner (seat 0) deals, so the three bots bid first."""
    session = PlaySession(
        players=4,
        variant=variant,
        seed=21,
        cards=cards,
        bots={seat: FixedBidBot(amount) for seat in (1, 2, 3)},
    )
    return PlayScreen(session=session, coach_simulations=COACH_SIMULATIONS)


# -- a whole round -----------------------------------------------------------------------


def test_a_whole_seeded_round_is_played_with_the_controls_and_scored_with_formulas() -> None:
    screen = PlayScreen(players=4, seed=11, cards=4, coach_simulations=COACH_SIMULATIONS)
    session = screen.session
    assert all(offered(screen, button) for button in screen.bid_buttons)
    assert all(button.disabled for button in screen.hand.card_buttons)  # cards wait for the bids
    while not session.round.finished:
        view = session.view()
        if view.phase is Phase.PLAYING:
            assert is_shown(screen.hand) and sorted(screen.hand.cards, key=str) == sorted(
                view.hand, key=str
            )
            assert not any(offered(screen, button) for button in screen.bid_buttons)
            legal = {card_button(screen, card).description for card in view.legal_plays}
            assert all(not screen.hand.card_buttons[i].disabled for i in range(len(view.hand)))
            assert legal == {card_name(card) for card in view.legal_plays}
        take_turn(screen)
    rnd = session.round
    assert learner_cards(screen) == 4  # every card of the learner went through the Play button
    assert len(rnd.tricks) == 4 and sum(rnd.taken) == 4
    summary = screen.summary.value
    assert is_shown(screen.summary)
    # a row of numbers a player, and under it a row of how they score (fits a phone)
    numbers = re.findall(r'<tr data-seat="(\d)">(.*?)</tr><tr class="tutor-play-how">', summary)
    assert [int(seat) for seat, _ in numbers] == list(range(len(rnd.names)))
    assert all(row.count("<td") == 3 for _, row in numbers)  # bid, taken, points
    for seat, (bid, taken) in enumerate(zip(rnd.final_bids, rnd.taken, strict=True)):
        assert words_html(describe_score(bid, taken)) in summary
        assert format_points(rnd.scores()[seat], signed=True) in summary
    history = screen.history.value
    for trick in rnd.tricks:  # after each trick: the winner and why, in the engine's words
        reason = describe_trick(trick.explanation, [rnd.names[s] for s in trick.seats])
        assert words_html(reason) in history
    assert screen.score_sheet_widget.sheet.rows[0].points == rnd.scores()
    # a single round ends there: the result screen names who scored most, and deals again
    result = screen.result.words.value
    best = max(rnd.scores())
    leaders = [rnd.names[seat] for seat, points in enumerate(rnd.scores()) if points == best]
    assert all(escape(name) in result for name in leaders)
    assert f"{best} points" in result or f"most points: {best}" in result
    assert not is_shown(screen.next_round_button)
    assert is_shown(screen.result) and is_shown(screen.result.play_again_button)
    # the last trick stays on the table, its winner marked
    last = rnd.tricks[-1]
    assert screen.table.value.count('class="tutor-trick-card') == 4
    winners = re.findall(
        r'class="tutor-trick-card is-winner[^"]*" data-seat="(\d)"', screen.table.value
    )
    assert winners == [str(last.winner)]


def test_after_each_trick_the_last_trick_shows_its_winner_and_the_reason() -> None:
    screen = PlayScreen(players=3, seed=5, cards=3, coach_simulations=COACH_SIMULATIONS)
    session = screen.session
    assert not is_shown(screen.last_trick_text)
    seen = 0
    while not session.round.finished:
        take_turn(screen)
        view = session.view()
        if len(view.tricks) > seen:
            seen = len(view.tricks)
            trick = view.tricks[-1]
            reason = describe_trick(trick.explanation, [view.names[s] for s in trick.seats])
            assert is_shown(screen.last_trick_text)
            assert words_html(reason) in screen.last_trick_text.value
            assert 'class="winner-mark"' in screen.last_trick_view.value
    assert seen == 3


# -- the rules coach ---------------------------------------------------------------------


def screen_with_an_illegal_card() -> tuple[PlayScreen, Card]:
    """A seeded screen where the learner must follow and holds a card that may not go."""
    for seed in range(60):
        session = PlaySession(players=3, seed=seed, cards=4, first_dealer=1)
        screen = PlayScreen(session=session, coach_simulations=COACH_SIMULATIONS)
        while not session.round.finished:
            view = session.view()
            if view.phase is Phase.PLAYING and view.current_trick:
                illegal = [card for card in view.hand if card not in view.legal_plays]
                if illegal:
                    return screen, illegal[0]
            take_turn(screen)
    raise AssertionError("no seed in 0-59 gives the learner an illegal card")


def test_an_illegal_card_is_refused_with_the_engines_reason_and_nothing_changes() -> None:
    screen, card = screen_with_an_illegal_card()
    rnd = screen.session.round
    judgement = rnd.judge(card)
    assert judgement.rule is PlayRule.MUST_FOLLOW
    before = rnd.snapshot()
    play_card(screen, card)
    assert screen.session.round.snapshot() == before
    message = screen.message.value
    assert words_html(describe_play(judgement)) in message
    assert "Not allowed." in message and "✘" in message and "✔" not in message
    suit = judgement.led_suit
    assert suit is not None and f"Follow {suit.colour}, or play a Wizard or a Jester" in message
    legal = screen.session.view().legal_plays[0]
    play_card(screen, legal)  # a legal card goes, with the rule that allows it
    assert screen.session.round.snapshot() != before
    mine = [
        e
        for e in screen.session.round.events
        if isinstance(e, CardPlayed) and e.seat == screen.session.learner
    ]
    assert mine[-1].card == legal
    assert words_html(describe_play(mine[-1].judgement)) in screen.message.value
    assert "✔" in screen.message.value


def test_cards_the_rules_refuse_are_marked_with_the_reason_before_any_press(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    screen, illegal = screen_with_an_illegal_card()
    view = screen.session.view()
    # The screen draws each card's judgement from the learner's view: it never asks the
    # round to judge a card again.
    expected = {card: describe_play(screen.session.round.judge(card)) for card in view.hand}
    monkeypatch.setattr(Round, "judge", lambda *_: pytest.fail("the screen judged a card"))
    screen.refresh()
    for card, button in zip(screen.hand.cards, screen.hand.card_buttons, strict=True):
        assert CARD_CLASS in button._dom_classes and not button.disabled
        if card in view.legal_plays:
            assert "is-illegal" not in button._dom_classes
            assert button.description == card_name(card)
            assert button.tooltip == text("play-screen.card-tooltip", card=card_name(card))
        else:  # marked in words (not only faded), the engine's reason as its tooltip
            assert "is-illegal" in button._dom_classes
            assert button.description == text("play-screen.card-not-playable", card=card_name(card))
            assert button.tooltip == expected[card]
    led = view.judgement_of(illegal).led_suit
    assert led is not None
    assert f"Cards marked ✕ may not be played now: {led.colour} was led" in screen.prompt.value


def test_a_card_is_played_by_pressing_it_once_and_the_hand_loses_it() -> None:
    screen = PlayScreen(players=3, seed=5, cards=3, coach_simulations=COACH_SIMULATIONS)
    take_turn(screen)  # the bid
    view = screen.session.view()
    card = view.legal_plays[-1]
    assert len(screen.hand.card_buttons) == 3
    play_card(screen, card)
    mine = [
        e
        for e in screen.session.round.events
        if isinstance(e, CardPlayed) and e.seat == screen.session.learner
    ]
    assert [event.card for event in mine] == [card]
    assert len(screen.hand.card_buttons) == 2 and card not in screen.hand.cards
    assert card_name(card) in screen.message.value


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_played_card_is_named_once_whether_or_not_the_reason_names_it(lang: str) -> None:
    """Seen: "You played green 5. You follow green with green 5."; and a lead's reason
    ("You lead: ...") names no card, so the message must."""
    follow = judge_play("B7 R12 G10", "B5", "B7")
    lead = judge_play("B7 R12 G10", "", "R12")
    for judgement in (follow, lead):
        message = played_message(judgement.card, describe_play(judgement, lang=lang), lang)
        assert message.count(card_name(judgement.card, lang)) == 1, message


# -- undo ----------------------------------------------------------------------------------


def without_message(screen: PlayScreen) -> str:
    return shown_text(screen).replace(screen.message.value, "")


def test_undo_restores_the_round_exactly_as_it_was_before_the_learners_card() -> None:
    screen = PlayScreen(players=4, seed=3, cards=5, coach_simulations=COACH_SIMULATIONS)
    session = screen.session
    take_turn(screen)  # bid
    assert screen.undo_button.disabled  # nothing played yet
    with pytest.raises(NothingToUndoError):
        session.undo()
    for _ in range(2):  # two tricks in, so undo cuts into the middle of the log
        take_turn(screen)
    before = session.round.snapshot()
    shown_before = without_message(screen)
    card = session.view().legal_plays[-1]
    play_card(screen, card)
    after_play = session.round.snapshot()
    assert after_play != before
    bot_cards_after = len(session.last_bot_events)
    assert bot_cards_after >= 1  # the bots answered: undo must take their cards back too
    assert not screen.undo_button.disabled
    screen.undo_button.click()
    assert session.round.snapshot() == before
    assert without_message(screen) == shown_before
    assert words_html(card_name(card)) in screen.message.value
    # the same card again gives the same bots' answers (they are deterministic)
    play_card(screen, card)
    assert session.round.snapshot() == after_play


def test_undo_is_off_once_the_round_is_scored() -> None:
    screen = PlayScreen(players=3, variant="five-rounds", seed=8)
    session = screen.session
    while not (
        session.round.phase is Phase.PLAYING
        and len(session.view().hand) == 1
        and session.round_number == 2
    ):
        take_turn(screen)
    rows_before = len(screen.score_sheet_widget.sheet.rows)
    assert not screen.undo_button.disabled  # a card of this round can still be taken back
    take_turn(screen)  # the learner's last card; the bots finish the round
    assert session.round.finished
    assert len(screen.score_sheet_widget.sheet.rows) == rows_before + 1
    assert offered(screen, screen.next_round_button)
    assert screen.undo_button.disabled and not offered(screen, screen.undo_button)
    finished = session.round.snapshot()
    screen.undo_button.click()  # a disabled button does nothing, even if pressed
    assert session.round.snapshot() == finished
    assert len(screen.score_sheet_widget.sheet.rows) == rows_before + 1


def test_undo_twice_takes_back_two_cards() -> None:
    screen = PlayScreen(players=3, seed=12, cards=4, coach_simulations=COACH_SIMULATIONS)
    session = screen.session
    take_turn(screen)  # bid
    first = session.round.snapshot()
    take_turn(screen)
    take_turn(screen)
    assert learner_cards(screen) == 2
    screen.undo_button.click()
    screen.undo_button.click()
    assert session.round.snapshot() == first
    assert screen.undo_button.disabled
    # a press that reached the kernel before the button was drawn off (a quick third click,
    # seen by the widget-message fuzzing as NothingToUndoError in the callback): nothing
    # left to take back, so nothing changes and nothing is raised (called as the button's
    # callback does: ipywidgets' dispatcher would only print what it raised)
    screen.undo()
    assert session.round.snapshot() == first


# -- what the learner may see --------------------------------------------------------------


def test_hidden_bids_are_not_shown_before_the_reveal() -> None:
    low, high = fixed_bid_screen("hidden-bids", 0), fixed_bid_screen("hidden-bids", 2)
    for screen in (low, high):
        view = screen.session.view()
        assert view.phase is Phase.BIDDING and all(view.has_bid[1:])  # the bots have bid
        assert seat_bids(screen)[1:] == [text("table.bid-hidden")] * 3
    assert low.session.round.bids[1:] != high.session.round.bids[1:]  # the bots did bid apart
    assert shown_text(low) == shown_text(high)  # nothing on screen depends on the hidden bids
    # the reveal: once everyone has bid, all bids are shown together
    low.bid_buttons[1].click()
    high.bid_buttons[1].click()
    assert low.session.view().phase is Phase.PLAYING
    assert seat_bids(high) == [text("table.bid", bid=bid) for bid in high.session.round.bids]
    assert shown_text(low) != shown_text(high)


def test_secret_bids_stay_hidden_until_the_end_of_the_round() -> None:
    low, high = fixed_bid_screen("secret-bids", 0), fixed_bid_screen("secret-bids", 2)
    while not low.session.round.finished:
        assert shown_text(low) == shown_text(high)
        assert "B bids" not in low.history.value and "B has bid" in low.history.value
        take_turn(low)
        take_turn(high)
    assert high.session.round.finished
    shown = shown_text(high)
    assert shown != shown_text(low)  # at scoring every bid is shown
    assert words_html(describe_score(2, high.session.round.taken[1])) in shown


def test_open_bids_are_shown_as_they_are_made() -> None:
    # the control for the two tests above: with open bids the screens do differ
    low, high = fixed_bid_screen("standard", 0), fixed_bid_screen("standard", 2)
    assert seat_bids(high)[1:] == [
        text("table.bid", bid=bid) for bid in high.session.round.bids[1:]
    ]
    assert shown_text(low) != shown_text(high)


# -- the bidding coach -----------------------------------------------------------------------


def test_the_coach_shows_the_chance_of_each_trick_count_and_the_value_of_each_bid() -> None:
    screen = PlayScreen(players=4, seed=31, cards=4, coach_simulations=COACH_SIMULATIONS)
    session = screen.session
    assert offered(screen, screen.coach_button) and screen.coach_output.value == ""
    screen.coach_button.click()
    page = screen.coach_output.value
    rows = re.findall(r'data-tricks="(\d+)" data-probability="([0-9.e-]+)"', page)
    assert [int(tricks) for tricks, _ in rows] == list(range(5))
    chances = [float(chance) for _, chance in rows]
    assert sum(chances) == pytest.approx(1.0, abs=1e-12)
    # the coach's own numbers, from the learner's view (same random deals)
    expected = advise_bid(
        session.view(),
        simulations=COACH_SIMULATIONS,
        seed=session.coach_seed(),
    )
    assert tuple(chances) == expected.probabilities
    assert screen.coach_advice == expected
    for chance in expected.probabilities:  # words, not a bar alone
        assert text("play-coach.percent", value=chance) in page
    assert text("play-coach.best") in page
    assert f"The best bid on average: {expected.best_bid} (" in page
    # once the learner has bid, the advice goes away with the bid buttons
    screen.bid_buttons[expected.best_bid].click()
    assert screen.coach_output.value == "" and not offered(screen, screen.coach_button)
    with pytest.raises(OutOfTurnError):
        session.advise(simulations=COACH_SIMULATIONS)


def test_plus_minus_one_disables_the_forbidden_bid_and_says_why() -> None:
    for seed in range(40):
        screen = PlayScreen(
            players=3,
            variant="plus-minus-one",
            seed=seed,
            cards=3,
            coach_simulations=COACH_SIMULATIONS,
        )
        forbidden = screen.session.round.forbidden_bid()
        if forbidden is not None:
            break
    else:
        raise AssertionError("no seed in 0-39 leaves the learner a forbidden bid")
    button = screen.bid_buttons[forbidden]
    assert button.disabled and "not allowed" in button.description
    assert [b.disabled for b in screen.bid_buttons].count(True) == 1
    assert f"a bid of {forbidden} would make the total equal" in screen.bid_note.value


# -- the dealer's trump choice ---------------------------------------------------------------


def test_the_learner_dealing_after_a_turned_wizard_chooses_trump_with_suit_buttons() -> None:
    seed = next(s for s in range(400) if str(Game(players=3, seed=s).round.turned) == "W")
    screen = PlayScreen(
        players=3, variant="five-rounds", seed=seed, coach_simulations=COACH_SIMULATIONS
    )
    session = screen.session
    assert session.round.dealer == session.learner and session.view().phase is Phase.TRUMP_CHOICE
    assert all(offered(screen, button) for button in screen.trump_buttons)
    assert not any(offered(screen, button) for button in screen.bid_buttons)
    assert [b.description for b in screen.trump_buttons] == [
        "yellow (Y)",
        "red (R)",
        "green (G)",
        "blue (B)",
    ]
    screen.trump_buttons[3].click()
    assert session.round.trump is Suit.BLUE
    assert TrumpChosen(session.learner, Suit.BLUE) in session.round.events
    reveal = describe_reveal(reveal_trump("W"), Suit.BLUE)
    assert words_html(reveal) in screen.reveal.value
    assert text("table.trump", suit="blue") in screen.table.value
    assert not any(offered(screen, button) for button in screen.trump_buttons)
    assert all(offered(screen, button) for button in screen.bid_buttons)


# -- replaying a trick -------------------------------------------------------------------------


def test_a_finished_trick_replays_card_by_card_with_its_reason() -> None:
    screen = PlayScreen(players=4, seed=2, cards=3, coach_simulations=COACH_SIMULATIONS)
    session = screen.session
    assert not is_shown(screen.replay.picker)
    while len(session.view().tricks) < 2:
        take_turn(screen)
    assert [number for _, number in screen.replay.picker.options] == [1, 2]
    screen.replay.picker.value = 1
    trick = session.view().tricks[0]
    names = [session.names[seat] for seat in trick.seats]
    reason = describe_trick(trick.explanation, names)
    assert words_html(reason) in screen.replay.words.value  # the whole trick first
    assert (
        'class="winner-mark"' in screen.replay.trick_view.value
        and screen.replay.next_button.disabled
    )
    for _ in range(3):
        screen.replay.back_button.click()
    assert screen.replay.step == 1 and screen.replay.back_button.disabled
    first = words_html(f"Card 1 of 4: {names[0]} leads {card_name(trick.cards[0])}.")
    assert first in screen.replay.words.value
    assert screen.replay.trick_view.value.count('role="img"') == 1  # one card shown
    screen.replay.next_button.click()
    assert screen.replay.trick_view.value.count('role="img"') == 2
    second = words_html(f"Card 2 of 4: {names[1]} plays {card_name(trick.cards[1])}.")
    assert second in screen.replay.words.value


# -- a whole game ------------------------------------------------------------------------------


def play_to_the_end(screen: PlayScreen) -> None:
    """The learner's actions through the controls until the game (or round) is over."""
    for _ in range(200):
        if screen.session.finished:
            return
        take_turn(screen)
    raise AssertionError(f"not over after 200 actions: {screen.session!r}")


STANDING_ROW = re.compile(
    r'<tr data-seat="(\d)"( class="is-winner")?><td class="place">(\d+)</td>'
    r'<th scope="row">(.*?)</th><td class="total">(.*?)</td><td class="met">(.*?)</td></tr>'
)


def standings_shown(screen: PlayScreen) -> list[tuple[int, bool, int, str, str, str]]:
    """The result screen's standings, top to bottom: seat, marked a winner, place, the
    player's cell, the total and the bids met, as shown."""
    return [
        (int(seat), bool(won), int(place), player, total, met)
        for seat, won, place, player, total, met in STANDING_ROW.findall(screen.result.words.value)
    ]


def sheet_foot(screen: PlayScreen) -> str:
    return screen.score_sheet_widget.table.value.split("<tfoot>")[1]


def test_a_five_round_game_ends_on_a_result_screen_with_the_engines_totals() -> None:
    screen = PlayScreen(
        players=3, variant="five-rounds", seed=17, coach_simulations=COACH_SIMULATIONS
    )
    session = screen.session
    assert session.game is not None
    while session.round_number < 5 or not session.round.finished:
        assert not is_shown(screen.result)  # no result before the last round is scored
        if session.round.finished:  # the sheet marks who leads while the game goes on
            assert "★ leads" in sheet_foot(screen) and "★ wins" not in sheet_foot(screen)
        take_turn(screen)
    assert session.finished and session.round_number == 5
    game = session.game
    assert game.finished
    totals = tuple(sum(rnd.scores()[seat] for rnd in game.rounds) for seat in range(3))
    assert screen.score_sheet_widget.sheet.totals == game.score_sheet.totals == totals
    foot = sheet_foot(screen)
    for total in totals:
        assert format_points(total) in foot
    # the sheet marks the winners now, not who leads
    assert foot.count("★ wins") == len(game.winners()) and "★ leads" not in foot
    # the result screen: the heading and the winners as a status, the totals from first to last
    assert is_shown(screen.result) and not is_shown(screen.next_round_button)
    words = screen.result.words.value
    assert 'role="status"><h2>The game is over</h2>' in words
    assert escape(session.winners_text()) in words
    shown = standings_shown(screen)
    assert [seat for seat, *_ in shown] == sorted(range(3), key=lambda s: (-totals[s], s))
    for seat, won, place, player, total, met in shown:
        assert player.startswith(escape(session.names[seat]))
        assert total == format_points(totals[seat])
        assert place == 1 + sum(other > totals[seat] for other in totals)
        assert won == (seat in game.winners()) == ("★ wins" in player)
        met_rounds = sum(rnd.final_bids[seat] == rnd.taken[seat] for rnd in game.rounds)
        assert met == f"{met_rounds} of 5 rounds"
    assert is_shown(screen.result.play_again_button) and is_shown(screen.result.same_deal_button)
    assert screen.prompt.value.count(text("play-screen.turn-game-over")) == 1


def learner_takes_first_choices(session: PlaySession) -> None:
    """The learner's choices :func:`take_turn` makes through the controls, on a session: the
    first suit, the first legal bid, the first legal card, the next round."""
    while not session.finished:
        view = session.view()
        if view.phase is Phase.FINISHED:
            session.next_round()
        elif view.phase is Phase.TRUMP_CHOICE:
            session.choose_trump(next(iter(Suit)))  # the first trump button
        elif view.phase is Phase.BIDDING:
            session.bid(view.legal_bids[0])
        else:
            session.play(view.legal_plays[0])


def tied_seed() -> int:
    """The first seed whose five-round game for three ends in a tie when the learner takes
    the first choices (the bots are deterministic)."""
    for seed in range(1, 500):
        session = PlaySession(players=3, variant="five-rounds", seed=seed)
        learner_takes_first_choices(session)
        if len(session.winners()) > 1:
            return seed
    raise AssertionError("no tied game below seed 500")


def test_a_tied_game_names_every_winner_and_they_share_first_place() -> None:
    screen = PlayScreen(
        players=3, variant="five-rounds", seed=tied_seed(), coach_simulations=COACH_SIMULATIONS
    )
    play_to_the_end(screen)
    session = screen.session
    winners = session.winners()
    assert len(winners) > 1
    total = session.score_sheet().totals[winners[0]]
    names = [session.names[seat] for seat in winners]
    sentence = f"{', '.join(names[:-1])} and {names[-1]} win with {total} points."
    assert session.winners_text() == sentence
    assert escape(sentence) in screen.result.words.value
    shown = standings_shown(screen)
    assert [(seat, place) for seat, won, place, *_ in shown if won] == [(s, 1) for s in winners]
    assert all(place > 1 for seat, won, place, *_ in shown if not won)
    assert sheet_foot(screen).count("★ wins") == len(winners)


def test_a_tied_single_round_shares_the_most_points() -> None:
    """Everyone bids 0 on one card each: one player takes the trick, the other two tie."""
    session = PlaySession(
        players=3, seed=4, cards=1, bots={seat: FixedBidBot(0) for seat in (1, 2)}
    )
    screen = PlayScreen(session=session, coach_simulations=COACH_SIMULATIONS)
    screen.bid_buttons[0].click()
    play_to_the_end(screen)
    winners = [session.names[seat] for seat in session.winners()]
    assert len(winners) == 2
    words = screen.result.words.value
    assert "<h2>The round is over</h2>" in words
    assert escape(f"{winners[0]} and {winners[1]} share the most points: 20.") in words
    assert [met for *_, met in standings_shown(screen)] == ["1 of 1 round"] * 2 + ["0 of 1 round"]


def finished_game(seed: int = 17) -> PlayScreen:
    screen = PlayScreen(
        players=3, variant="five-rounds", seed=seed, coach_simulations=COACH_SIMULATIONS
    )
    play_to_the_end(screen)
    return screen


def first_deal(screen: PlayScreen) -> object:
    """The first round's deal (hands and turned card) of the screen's game."""
    return screen.session.rounds[0].events[0]


def test_play_again_deals_a_new_game_with_a_new_seed_shown_in_the_seed_box() -> None:
    screen = finished_game()
    old = screen.session
    screen.result.play_again_button.click()
    new = screen.session
    assert new is not old and new.seed != old.seed
    assert (new.players, new.rules, new.round_count, new.round_number) == (3, old.rules, 5, 1)
    assert first_deal(screen) != old.rounds[0].events[0]
    assert (
        first_deal(screen)
        == PlaySession(players=3, variant="five-rounds", seed=new.seed).rounds[0].events[0]
    )
    assert screen.settings.seed_input.value == new.seed
    assert f"Seed: {new.seed}." in screen.status.value
    assert not is_shown(screen.result) and not screen.score_sheet_widget.sheet.rows


def test_same_deal_again_deals_the_same_cards() -> None:
    screen = finished_game()
    old = screen.session
    screen.result.same_deal_button.click()
    assert screen.session is not old and screen.session.seed == old.seed == 17
    assert first_deal(screen) == old.rounds[0].events[0]
    assert screen.session.round_number == 1 and not screen.session.finished
    assert screen.settings.seed_input.value == 17 and not is_shown(screen.result)
    assert "(seed 17)" in screen.result.same_deal_button.tooltip


def test_new_game_draws_a_new_seed_unless_the_learner_typed_one_and_closes_the_settings() -> None:
    screen = finished_game()
    old = screen.session
    screen.settings.toggle.value = True
    assert is_shown(screen.settings)
    screen.settings.start_button.click()  # the seed box still shows the game's seed: new cards
    drawn = screen.session
    assert drawn.seed != old.seed and screen.settings.seed_input.value == drawn.seed
    assert first_deal(screen) != old.rounds[0].events[0]
    assert not is_shown(screen.settings) and screen.settings.toggle.value is False
    assert screen.settings.toggle.description == text("play-screen.settings")
    screen.settings.toggle.value = True
    screen.settings.seed_input.value = 17  # a seed the learner typed deals that game
    screen.settings.start_button.click()
    assert screen.session.seed == 17 and first_deal(screen) == old.rounds[0].events[0]
    assert not is_shown(screen.settings)
    screen.settings.toggle.value = True
    screen.settings.start_button.click()  # the box shows 17 as the screen wrote it: new cards again
    assert screen.session.seed != 17 and screen.settings.seed_input.value == screen.session.seed


# -- settings and keyboard ------------------------------------------------------------------------


def test_new_game_uses_the_chosen_players_variant_seed_and_length() -> None:
    screen = PlayScreen(players=4, seed=1, coach_simulations=COACH_SIMULATIONS)
    assert not is_shown(screen.settings) and not is_shown(screen.settings.cards_input)
    screen.settings.toggle.value = True  # open the settings
    assert is_shown(screen.settings)
    screen.settings.players_input.value = 5
    screen.settings.variant_input.value = "hidden-bids"
    screen.settings.seed_input.value = 9
    screen.settings.length_input.value = "round"
    assert is_shown(screen.settings.cards_input) and screen.settings.cards_input.max == 12
    screen.settings.cards_input.value = 2
    screen.settings.start_button.click()
    session = screen.session
    assert (session.players, session.seed, session.round.cards) == (5, 9, 2)
    assert session.rules == Rules.preset("hidden-bids") and session.game is None
    assert "Variant: Hidden bids. Seed: 9." in screen.status.value
    # the same settings deal the same cards
    assert (
        session.round.events[0]
        == PlaySession(players=5, variant="hidden-bids", seed=9, cards=2).round.events[0]
    )


def test_every_control_is_a_keyboard_widget() -> None:
    screen = PlayScreen(players=3, seed=5, cards=3, coach_simulations=COACH_SIMULATIONS)
    take_turn(screen)  # now the hand is a row of card buttons
    keyboard = (
        widgets.Button,
        widgets.ToggleButton,
        widgets.ToggleButtons,
        widgets.Dropdown,
        widgets.BoundedIntText,
    )
    passive = (widgets.HTML, widgets.Box)
    kinds = {type(w) for w in all_widgets(screen)}
    assert all(issubclass(kind, keyboard + passive) for kind in kinds), kinds
    assert len(screen.hand.card_buttons) == 3
    assert all(type(button) is widgets.Button for button in screen.hand.card_buttons)


def test_no_control_has_a_null_tooltip() -> None:
    """ipywidgets writes a missing tooltip as the word "null" on a widget's label."""
    screen = PlayScreen(players=4, seed=11, cards=4, coach_simulations=COACH_SIMULATIONS)
    while not screen.session.round.finished:
        for widget in all_widgets(screen):
            if isinstance(widget, DescriptionWidget):
                assert widget.tooltip is not None, widget
        take_turn(screen)


# -- the table ------------------------------------------------------------------------------------


def test_the_table_shows_the_seats_clockwise_the_dealer_and_whose_turn_it_is() -> None:
    screen = PlayScreen(players=4, seed=11, cards=4, learner=2, coach_simulations=COACH_SIMULATIONS)
    view = screen.session.view()
    page = screen.table.value
    by_seat = {
        int(seat): side
        for side, seat in re.findall(r'class="tutor-seat side-(\w+)[^"]*" data-seat="(\d)"', page)
    }
    # the learner (seat 2) at the bottom, then clockwise: left, top, right
    assert by_seat == {2: "bottom", 3: "left", 0: "top", 1: "right"}
    dealer = re.findall(r'class="tutor-seat [^"]*is-dealer[^"]*" data-seat="(\d)"', page)
    assert dealer == [str(view.dealer)]
    lit = re.findall(r'class="tutor-seat [^"]*is-lit[^"]*" data-seat="(\d)"', page)
    assert lit == [str(view.to_act)] and text("table.mark-to-bid") in page
    take_turn(screen)  # the bid: now the trick is on the table, each card at its seat
    view = screen.session.view()
    on_table = re.findall(r'class="tutor-trick-card[^"]*" data-seat="(\d)"', screen.table.value)
    assert [int(seat) for seat in on_table] == [seat for seat, _ in view.current_trick]
    assert text("table.mark-to-play") in screen.table.value


def test_the_coach_explains_a_best_bid_other_than_the_one_played_for() -> None:
    for seed in range(30):
        screen = PlayScreen(players=4, seed=seed, cards=3, coach_simulations=COACH_SIMULATIONS)
        advice: BidAdvice = screen.ask_coach()
        if advice.best_bid != advice.played_for:
            break
    else:
        raise AssertionError("no seed in 0-29 gives a best bid other than the one played for")
    page = screen.coach_output.value
    assert text("play-coach.played-for", bid=advice.played_for) in page
    best = format(advice.expected_scores[advice.best_bid], "+.1f").replace("-", "−")
    played = format(advice.expected_scores[advice.played_for], "+.1f").replace("-", "−")
    why = text(
        "play-coach.best-differs",
        best=advice.best_bid,
        played=advice.played_for,
        best_points=best,
        played_points=played,
    )
    assert words_html(why) in page
    # the control: with the two equal, no "why" is needed
    for seed in range(30):
        same = PlayScreen(players=4, seed=seed, cards=3, coach_simulations=COACH_SIMULATIONS)
        advice = same.ask_coach()
        if advice.best_bid == advice.played_for:
            assert "Why bid" not in same.coach_output.value
            break
    else:
        raise AssertionError("no seed in 0-29 gives a best bid equal to the one played for")


@pytest.mark.parametrize("lang", ["ja", "zh-Hant"])
def test_the_status_line_puts_no_ascii_space_after_a_full_width_stop(lang: str) -> None:
    for cards in (3, None):  # one round, a whole game
        screen = PlayScreen(
            players=4, seed=11, cards=cards, coach_simulations=COACH_SIMULATIONS, lang=lang
        )
        assert not re.search(r"[。！？：]\s", re.sub(r"<[^>]+>", "", screen.status.value))


def test_a_stale_press_of_a_bid_or_trump_button_changes_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A second click on a bid button before the screen has redrawn, or a message for a
    button that is hidden now, is not the learner's move: nothing changes, nothing raises
    (the widget fuzz once found a trump press during bidding raising inside the callback)."""
    screen = fixed_bid_screen("hidden-bids", 0)
    view = screen.session.view()
    assert view.phase is Phase.BIDDING
    events = len(screen.session.round.events)
    screen.trump_buttons[0].click()  # no trump to choose now
    assert len(screen.session.round.events) == events
    illegal = [bid for bid in range(len(screen.bid_buttons)) if bid not in view.legal_bids]
    for bid in illegal:  # a bid the engine refuses is never offered: its press does nothing
        screen.bid_buttons[bid].click()
    assert len(screen.session.round.events) == events
    screen.bid_buttons[view.legal_bids[0]].click()
    after = screen.session.round.events
    assert screen.session.view().phase is Phase.PLAYING
    screen.bid_buttons[view.legal_bids[0]].click()  # the same button again: stale
    assert screen.session.round.events == after
    # ipywidgets logs an exception raised in a click's callback (a traceback in the kernel's
    # log) instead of raising it: there must be none
    assert not [
        record for record in caplog.records if "Exception in callback" in record.getMessage()
    ]


@pytest.mark.parametrize("cards", [None, 4], ids=["game", "single round"])
def test_a_press_of_the_hidden_next_round_button_changes_nothing(
    cards: int | None, caplog: pytest.LogCaptureFixture
) -> None:
    # Shown only once a round is over; a press before (a stale or tampered message: the
    # fuzz suite sent one) raised OutOfTurnError inside the widget's callback, which
    # ipywidgets logs with its traceback.
    screen = PlayScreen(players=3, variant="five-rounds", seed=8, cards=cards)
    session = screen.session
    assert not offered(screen, screen.next_round_button)
    before, shown_before = session.round.snapshot(), shown_text(screen)
    with caplog.at_level("WARNING"):
        screen.next_round_button.click()
    assert [record.getMessage() for record in caplog.records if record.exc_info] == []
    assert session.round.snapshot() == before
    assert shown_text(screen) == shown_before
