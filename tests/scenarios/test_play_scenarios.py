"""A learner plays a whole game on the play screen, in every host: a five-round game for
three players set up in "Settings for a new game", a round where the learner deals, a
Wizard is turned and they choose trump, bids, legal cards, each round's results, "Deal the
next round", the end of the game on its result screen, "Play again" (a new deal), then a
new game from the settings again.

What the page shows is checked against the engine: the same game is replayed here with the
same seed and the learner's same choices (the bots are deterministic), so the hand, the
cards the page lets the learner play, each round's bids, tricks and points, the last
trick and the totals must be the engine's. And within the page, every round's points are
the scoring rule applied to the bids and tricks it shows, and the totals add them up.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from typing import Any

from browser.fixtures import wait_until
from browser.play_hand import HAND, LEGAL_CARD, MESSAGE, after_one_played, ready_to_play

from tutor.display.svg import trick_svg
from tutor.play.bots import SensibleBot, play_round
from tutor.play.session import PlaySession
from tutor.rules.cards import DECK, Card, Suit
from tutor.rules.game import Game
from tutor.rules.round import Phase
from tutor.rules.scoring import round_score
from tutor.rules.variants import Rules
from tutor.teaching.explain import MINUS, card_name, describe_trick, suit_name
from tutor.teaching.text import text

from .hosts import ACTION_TIMEOUT, Host

PLAY = "11_play_a_round.ipynb"
PLAYERS = 3
VARIANT = "five-rounds"
"""The shortest whole game the settings offer: five rounds of 1 to 5 cards."""
LEARNER = 0
"""The learner's seat on the play screen (A); with three players A deals rounds 1 and 4."""
WIZARD = Card.parse("W")
TRUMP_CHOICE = Suit.GREEN
"""What the learner chooses when a Wizard is turned on their deal."""


def _learner_trump_seed() -> tuple[int, int]:
    """The first seed whose five-round game for three players turns a Wizard on a round
    the learner deals after the first (so two rounds come before it): (seed, round).

    The deals come from the game's seed alone (the players' choices never touch the
    deck), so bots at every seat find the same deals the learner will get."""
    rules = Rules.preset(VARIANT)
    for seed in range(1, 1000):
        game = Game(players=PLAYERS, rules=rules, seed=seed)
        for number in range(1, len(game.schedule) + 1):
            if number > 1:
                game.next_round()
            rnd = game.round
            if number > 2 and rnd.dealer == LEARNER and rnd.turned == WIZARD:
                return seed, number
            play_round(rnd, [SensibleBot() for _ in range(PLAYERS)])
    raise AssertionError("no seed below 1000 turns a Wizard on the learner's deal")


def _number(words: str) -> int:
    """A number as the page writes it ("−10", "+30", "40 ★ leads")."""
    found = re.match(r"\s*([+−-]?\d+)", words.replace(MINUS, "-"))
    assert found, words
    return int(found.group(1))


def _label(svg: str) -> str:
    found = re.search(r'aria-label="([^"]*)"', svg)
    assert found, svg[:200]
    return html.unescape(found.group(1))


CARDS_BY_NAME = {card_name(card): card for card in DECK}

PHONE = {"width": 360, "height": 780}
DESK = {"width": 1280, "height": 900}

_OVERFLOW = """panel => {
  const box = panel.getBoundingClientRect();
  const wider = [...panel.querySelectorAll("*")].filter(
    e => e.getBoundingClientRect().right > box.right + 1);
  return {width: box.width, scroll: panel.scrollWidth - panel.clientWidth,
          outside: box.right - window.innerWidth, wider: wider.map(e => e.outerHTML.slice(0, 80))};
}"""
"""How far the result panel (or anything in it) reaches past its own edge or the window's."""


class PlayedGame:
    """The page's game and the engine's copy of it, moved on together."""

    def __init__(self, page: Any, host: Host, seed: int) -> None:
        self.page = page
        self.content = host.content(page)
        self.seed = seed
        self.engine = PlaySession(players=PLAYERS, variant=VARIANT, seed=seed, learner=LEARNER)
        self.shown_totals = [0] * PLAYERS
        self.shown_met = [0] * PLAYERS
        self.trump_chosen_in: list[int] = []
        self.dealt: list[int] = []

    def button(self, key: str, **values: Any) -> Any:
        return self.content.get_by_role("button", name=text(key, **values), exact=True)

    def wait_for_round(self, number: int) -> None:
        from playwright.sync_api import expect

        view = self.engine.view()
        status = text(
            "play-screen.status-game",
            number=number,
            count=5,
            cards=view.cards,
            dealer=view.names[view.dealer],
        )
        rules = text("play-screen.rules", variant=text(f"play-variant.{VARIANT}"), seed=self.seed)
        # the seed too: a new game's round 1 can read like the one before it
        shown = self.content.locator(".tutor-play-status")
        expect(shown).to_contain_text(rules, timeout=ACTION_TIMEOUT)
        expect(shown).to_contain_text(status, timeout=ACTION_TIMEOUT)

    def play_round(self, number: int) -> None:
        """The learner's part of round ``number``: trump if theirs to choose, a bid, every
        card (the first the page lets them play); then the round's results."""
        from playwright.sync_api import expect

        engine = self.engine
        self.wait_for_round(number)
        view = engine.view()
        if view.dealer == LEARNER:
            self.dealt.append(number)
        if view.phase is Phase.TRUMP_CHOICE and view.to_act == LEARNER:
            prompt = self.content.locator(".tutor-play-prompt")
            expect(prompt).to_contain_text(text("play-screen.turn-trump"), timeout=ACTION_TIMEOUT)
            choice = text(
                "play-screen.trump-button",
                colour=suit_name(TRUMP_CHOICE),
                letter=TRUMP_CHOICE.value,
            )
            self.content.get_by_role("button", name=choice, exact=True).click()
            engine.choose_trump(TRUMP_CHOICE)
            said = text("play-screen.trump-chosen", trump=suit_name(TRUMP_CHOICE))
            expect(self.content.locator(MESSAGE)).to_contain_text(said, timeout=ACTION_TIMEOUT)
            self.trump_chosen_in.append(number)
            expect(self.content.locator(".tutor-play-table")).to_contain_text(
                text("table.trump", suit=suit_name(TRUMP_CHOICE)), timeout=ACTION_TIMEOUT
            )
        view = engine.view()
        assert view.phase is Phase.BIDDING and view.to_act == LEARNER, view.phase
        bid = number % 2  # 1, 0, 1, 0, 1: bids met and missed
        self.button("play-screen.bid-button", bid=bid).click()
        engine.bid(bid)
        held = ready_to_play(self.page, "en", ACTION_TIMEOUT)
        for _ in range(view.cards):
            now = engine.view()
            assert Counter(held) == Counter(card_name(card) for card in now.hand)
            legal = self.content.locator(LEGAL_CARD).evaluate_all(
                "bs => bs.map(b => b.innerText.trim())"
            )
            assert sorted(legal) == sorted(card_name(card) for card in now.legal_plays), legal
            said = self.content.locator(MESSAGE).inner_text()
            self.content.locator(LEGAL_CARD).first.click()
            left = after_one_played(self.page, held, said, "en", ACTION_TIMEOUT)
            (gone,) = Counter(held) - Counter(left)
            outcome = engine.play(CARDS_BY_NAME[gone])
            assert outcome.accepted, outcome.reason
            held = left
        assert engine.view().phase is Phase.FINISHED
        self.check_results(number)

    def check_results(self, number: int) -> None:
        """The round's results table, the last trick and the score sheet, as the learner
        sees them once the round is over."""
        from playwright.sync_api import expect

        engine = self.engine
        results = self.content.locator(".tutor-play-results")
        expect(results).to_be_visible(timeout=ACTION_TIMEOUT)
        # each player's row of numbers, then the row of how they score, in words
        rows = results.locator("tbody tr[data-seat]").evaluate_all(
            "rows => rows.map(r => [...r.children, r.nextElementSibling]"
            ".map(c => c.innerText.trim()))"
        )
        assert len(rows) == PLAYERS, rows
        shown = []
        for name, bid, taken, points, how in rows:
            shown.append((name, int(bid), int(taken), _number(points), how))
            # the page's own numbers agree with the scoring rule
            assert _number(points) == round_score(int(bid), int(taken)), (name, bid, taken, points)
        expected = [(r.name, r.bid, r.taken, r.points, r.how) for r in engine.results()]
        assert shown == expected, (number, shown, expected)
        for seat, (_, bid, taken, points, _) in enumerate(shown):
            self.shown_totals[seat] += points
            self.shown_met[seat] += bid == taken

        view = engine.view()
        last = view.tricks[-1]
        players = [view.names[seat] for seat in last.seats]
        side = self.content.locator(".tutor-play-side")
        heading = text("play-screen.trick-last", number=last.number)
        expect(side).to_contain_text(heading, timeout=ACTION_TIMEOUT)
        assert last.number == view.cards
        expect(side).to_contain_text(describe_trick(last.explanation, players))
        expected_label = _label(
            trick_svg(last.cards, winner=last.explanation.winner, players=players)
        )
        expect(side.locator("svg.trick")).to_have_attribute("aria-label", expected_label)

        # the replay offers every trick of the round, and shows the last one whole
        replay = self.content.get_by_role("combobox", name=text("play-screen.replay-trick"))
        options = [
            text("play-screen.replay-option", number=trick.number, winner=view.names[trick.winner])
            for trick in view.tricks
        ]
        expect(replay.locator("option")).to_have_text(options, timeout=ACTION_TIMEOUT)
        expect(replay).to_be_visible()
        pictures = self.content.get_by_role("group", name=expected_label, exact=True)
        # the round's last trick stays on the table, heads the side panel and is replayed
        expect(pictures).to_have_count(3)

        sheet = self.content.locator(".score-sheet")
        expect(sheet.locator("td.bid-taken")).to_have_count(
            number * PLAYERS, timeout=ACTION_TIMEOUT
        )
        totals = [_number(cell) for cell in sheet.locator("tfoot td.grand-total").all_inner_texts()]
        assert totals == self.shown_totals == list(engine.score_sheet().totals), totals
        row = sheet.locator("tbody tr").nth(number - 1).locator("td").all_inner_texts()
        # the round's row: cards, then bid → taken, points, running total for each seat
        assert int(row[0]) == view.cards
        for seat, (_, bid, taken, points, _) in enumerate(shown):
            bid_taken, row_points, running = row[1 + 3 * seat : 4 + 3 * seat]
            assert bid_taken == f"{bid} → {taken}"
            assert _number(row_points) == points
            assert _number(running) == self.shown_totals[seat]


def test_a_whole_game_with_a_trump_choice_its_result_then_play_again(host: Host, page: Any) -> None:
    from playwright.sync_api import expect

    seed, trump_round = _learner_trump_seed()
    host.open(page, PLAY)
    content = host.content(page)
    game = PlayedGame(page, host, seed)

    # Set up the game in "Settings for a new game", as a learner does.
    game.button("play-screen.settings").click()
    settings = content.locator(".tutor-play-settings")
    expect(settings).to_be_visible(timeout=ACTION_TIMEOUT)
    settings.get_by_role(
        "button", name=text("play-screen.players-option", count=PLAYERS), exact=True
    ).click()
    settings.locator("select").select_option(label=text(f"play-variant.{VARIANT}"))
    seed_box = settings.locator("input[type=number]").first
    seed_box.fill(str(seed))
    seed_box.press("Enter")
    settings.get_by_role("button", name=text("play-screen.length-game"), exact=True).click()
    game.button("play-screen.start").click()
    game.wait_for_round(1)
    expect(content.locator(HAND)).to_have_count(1, timeout=ACTION_TIMEOUT)
    expect(settings).to_be_hidden(timeout=ACTION_TIMEOUT)  # folded away once the game starts

    next_round = game.button("play-screen.next-round")
    for number in range(1, 6):
        game.play_round(number)
        if number < 5:
            expect(next_round).to_be_visible(timeout=ACTION_TIMEOUT)
            next_round.click()
            game.engine.next_round()
    assert game.trump_chosen_in == [trump_round]
    assert game.dealt == [1, 4]  # the learner dealt (A, then the dealer moves clockwise)

    # The game is over: its result screen says who won, the totals from first to last and
    # each player's bids met, as the page's own rounds add them up; no next round.
    assert game.engine.finished
    expect(next_round).to_be_hidden(timeout=ACTION_TIMEOUT)
    result = content.locator(".tutor-play-result")
    expect(result).to_be_visible(timeout=ACTION_TIMEOUT)
    announced = result.locator("[role=status]")
    expect(announced.get_by_role("heading", name=text("play-screen.result-game"))).to_be_visible()
    expect(announced).to_contain_text(game.engine.winners_text())
    totals = game.shown_totals
    order = sorted(range(PLAYERS), key=lambda seat: (-totals[seat], seat))
    winners = [seat for seat in range(PLAYERS) if totals[seat] == max(totals)]
    rows = result.locator("tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.children].map(c => c.innerText.trim()))"
    )
    names = game.engine.names
    mark = f"★ {text('display.score-winner')}"
    assert [row[1].removesuffix(mark).strip() for row in rows] == [names[s] for s in order], rows
    for seat, (_, player, total, met) in zip(order, rows, strict=True):
        assert _number(total) == totals[seat]
        assert met == f"{game.shown_met[seat]} of 5 rounds"
        assert player.endswith(mark) == (seat in winners)
    # the score sheet marks the winners now, not who leads
    grand = content.locator(".score-sheet tfoot td.grand-total").all_inner_texts()
    assert [seat for seat, words in enumerate(grand) if mark in words] == winners, grand
    assert not any(text("display.score-leader") in words for words in grand), grand
    # on a phone the panel fits the width: nothing in it scrolls or reaches sideways
    host.narrow(page, PHONE)
    seen: list[Any] = []

    def fits() -> bool:
        seen[:] = [result.evaluate(_OVERFLOW)]
        found = seen[0]
        return (
            found["width"] < PHONE["width"]
            and found["scroll"] <= 1
            and (found["outside"] <= 1 and not found["wider"])
        )

    wait_until(fits, ACTION_TIMEOUT, lambda: f"the result panel at 360 px: {seen}")
    host.narrow(page, DESK)

    # Play again: a new deal, its seed shown in the status and in the seed box.
    game.button("play-screen.play-again").click()
    status = content.locator(".tutor-play-status")
    expect(status).not_to_contain_text(f"Seed: {seed}.", timeout=ACTION_TIMEOUT)
    found = re.search(r"Seed: (\d+)\.", status.inner_text())
    assert found, status.inner_text()
    again = PlayedGame(page, host, int(found.group(1)))
    again.wait_for_round(1)
    expect(result).to_be_hidden(timeout=ACTION_TIMEOUT)
    expect(seed_box).to_have_value(str(again.seed), timeout=ACTION_TIMEOUT)
    assert again.seed != seed
    # the page deals the engine's cards for the new seed
    (card,) = again.engine.view().hand
    expect(content.locator(HAND)).to_have_text([card_name(card)], timeout=ACTION_TIMEOUT)
    expect(content.locator(".score-sheet tbody tr")).to_have_text(
        [text("display.score-no-rounds")], timeout=ACTION_TIMEOUT
    )

    # A new game from the settings: round 1 again, an empty score sheet.
    game.button("play-screen.settings").click()
    expect(settings).to_be_visible(timeout=ACTION_TIMEOUT)
    seed_box.fill(str(seed + 1))
    seed_box.press("Enter")
    game.button("play-screen.start").click()
    fresh = PlayedGame(page, host, seed + 1)
    fresh.wait_for_round(1)
    expect(settings).to_be_hidden(timeout=ACTION_TIMEOUT)
    expect(content.locator(".score-sheet tbody tr")).to_have_text(
        [text("display.score-no-rounds")], timeout=ACTION_TIMEOUT
    )
    expect(content.locator(".tutor-play-results")).to_have_count(0)
    if fresh.engine.view().phase is Phase.BIDDING:
        expect(fresh.button("play-screen.bid-button", bid=0)).to_be_visible()
