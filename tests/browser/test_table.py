"""The card table in the browser, at the learners' screen sizes: the play screen on a
1280 x 800 laptop (table, hand and controls in view without scrolling; a card played by
click and by keyboard), the worked example (Next never moves; on a 390 x 844 phone it stays
in reach and nothing is cut), score sheets on a phone, and Japanese and Chinese headers
and names never broken or cut.

Measured, not looked up: bounding boxes, scroll sizes, and for "no break inside a word"
the rectangles a text range covers (a word split over two lines covers two lines).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tutor.teaching.text import text
from tutor.teaching.worked_example import StepKind, worked_example

from .app_process import AppServer
from .conftest import PageLog, wait_until
from .play_hand import LEGAL_CARD, after_one_played, ready_to_play

pytestmark = pytest.mark.browser

LOAD_TIMEOUT = 90_000  # ms: a page waits for its kernel to run the notebook
ACTION_TIMEOUT = 20_000
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PLAY = "11_play_a_round.ipynb"
WORKED = "08_worked_example.ipynb"
SCROLLER = "#rendered_cells"
"""Voilà's page scrolls inside this element, not the document."""


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def _open(page: Any, app: AppServer, notebook: str, lang: str, ready: str) -> None:
    page.goto(app.render_url(notebook, f"lang={lang}"))
    page.locator(ready).first.wait_for(timeout=LOAD_TIMEOUT)


def _new_game(page: Any, *, players: int, seed: int, cards: int, lang: str = "en") -> None:
    """A single round through the settings, as a learner sets it up."""
    expect = _expect()
    page.get_by_role("button", name=text("play-screen.settings", lang)).click()
    settings = page.locator(".tutor-play-settings")
    expect(settings).to_be_visible(timeout=ACTION_TIMEOUT)
    count = text("play-screen.players-option", lang, count=players)
    settings.get_by_role("button", name=count, exact=True).click()
    seed_box = settings.locator("input[type=number]").first
    seed_box.fill(str(seed))
    seed_box.press("Enter")
    settings.get_by_role("button", name=text("play-screen.length-round", lang)).click()
    cards_box = settings.locator("input[type=number]").nth(1)
    cards_box.fill(str(cards))
    cards_box.press("Enter")
    settings.get_by_role("button", name=text("play-screen.start", lang)).click()
    status = text("play-screen.status-round", lang, cards=cards, dealer="")
    expect(page.locator(".tutor-play-status")).to_contain_text(status[:12], timeout=ACTION_TIMEOUT)
    expect(page.locator("button.tutor-card-button")).to_have_count(cards, timeout=ACTION_TIMEOUT)
    expect(settings).to_be_hidden(timeout=ACTION_TIMEOUT)  # folded away once it starts


def _bid(page: Any, lang: str = "en") -> list[str]:
    """Bid 0 and wait until the hand is ready to play (every card's mark in place: a card
    found half-way could still lack its ✕); the hand's cards."""
    page.get_by_role("button", name=text("play-screen.bid-button", lang, bid=0)).click()
    return ready_to_play(page, lang, ACTION_TIMEOUT)


def _in_view(page: Any, selector: str) -> dict[str, float]:
    """The element's box, asserted wholly inside the window."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    viewport = page.viewport_size
    assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= viewport["width"] + 0.5, (selector, box)
    assert box["y"] + box["height"] <= viewport["height"] + 0.5, (selector, box)
    return box


def _scrolled(page: Any) -> dict[str, float]:
    return page.evaluate(
        f"""() => {{ const s = document.querySelector('{SCROLLER}');
        return {{top: s.scrollTop, left: s.scrollLeft, width: s.scrollWidth,
                 client: s.clientWidth, doc: document.documentElement.scrollWidth}}; }}"""
    )


def _no_null_tooltips(page: Any) -> None:
    assert page.locator('[title="null"]').count() == 0


# -- the play screen -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "players", "seed", "cards"),
    [("en", 4, 7, 15), ("en", 3, 7, 20), ("ja", 5, 9, 8), ("zh-Hant", 6, 3, 10)],
)
def test_a_laptop_shows_the_table_the_hand_and_the_controls_without_scrolling(
    app: AppServer, page: tuple[Any, PageLog], lang: str, players: int, seed: int, cards: int
) -> None:
    """The most a laptop must hold: the longest hand (20 cards), six seats, and Japanese
    words for the refused cards and the verdict on the card just played."""
    browser_page, log = page
    browser_page.set_viewport_size(LAPTOP)
    _open(browser_page, app, PLAY, lang, ".tutor-play-table .tutor-felt")
    _new_game(browser_page, players=players, seed=seed, cards=cards, lang=lang)
    for phase in ("bidding", "playing", "played"):
        if phase == "playing":
            held = _bid(browser_page, lang)
        if phase == "played":
            said = browser_page.locator(".tutor-play-message").inner_text()
            browser_page.locator(LEGAL_CARD).first.click()
            # measured once the screen shows the card played, not half-way through
            assert (
                len(after_one_played(browser_page, held, said, lang, ACTION_TIMEOUT)) == cards - 1
            )
            cards -= 1
        felt = _in_view(browser_page, ".tutor-play-table .tutor-felt")
        hand = _in_view(browser_page, ".tutor-play-hand")
        act = _in_view(browser_page, ".tutor-play-act")
        assert felt["y"] + felt["height"] <= act["y"] + 1 <= hand["y"] + 1  # table, act, hand
        buttons = browser_page.locator(".tutor-play-actions button:visible").all()
        assert buttons  # the bids, or Undo
        for button in buttons:
            box = button.bounding_box()
            assert box is not None and box["y"] + box["height"] <= LAPTOP["height"]
        cards_shown = browser_page.locator("button.tutor-card-button")
        assert cards_shown.count() == cards
        for card in (cards_shown.first, cards_shown.last):  # the whole fan is on screen
            box = card.bounding_box()
            assert box is not None and box["y"] + box["height"] <= LAPTOP["height"]
            assert box["x"] >= 0 and box["x"] + 0.5 <= LAPTOP["width"]
        seats = browser_page.locator(".tutor-play-table .tutor-seat")
        assert seats.count() == players
        for index in range(players):
            _in_view(browser_page, f".tutor-play-table .tutor-seat[data-seat='{index}']")
        scroll = _scrolled(browser_page)
        assert scroll["top"] == 0 and scroll["doc"] <= LAPTOP["width"]
        if phase == "bidding":  # the coach's table in the side panel, every column whole
            browser_page.get_by_role("button", name=text("play-coach.ask", lang)).click()
            _expect()(browser_page.locator(".tutor-play-side td.note").first).to_be_attached(
                timeout=ACTION_TIMEOUT
            )
        assert _side_panel_cut(browser_page) == []
    _no_null_tooltips(browser_page)
    log.assert_clean()


def _side_panel_cut(page: Any) -> list[str]:
    """What the play screen's side panel does not show whole: the panel scrolls inside
    itself, or a line or a table cell runs past its edges."""
    return page.evaluate(
        """() => {
        const side = document.querySelector('.tutor-play-side');
        const box = side.getBoundingClientRect();
        const cut = [];
        if (side.scrollHeight > side.clientHeight + 1) cut.push('the panel scrolls down');
        side.querySelectorAll('*').forEach((element) => {
          const own = element.getBoundingClientRect();
          if (own.width > 0 && (own.right > box.right + 1 || own.bottom > box.bottom + 1)) {
            const words = element.textContent.trim().slice(0, 40);
            cut.push(`${element.tagName.toLowerCase()}.${element.getAttribute('class')}: ${words}`);
          }
        });
        return cut;
    }"""
    )


def test_a_card_is_played_by_click_and_by_keyboard_and_a_refused_one_says_why(
    app: AppServer, page: tuple[Any, PageLog]
) -> None:
    browser_page, log = page
    expect = _expect()
    browser_page.set_viewport_size(LAPTOP)
    _open(browser_page, app, PLAY, "en", ".tutor-play-table .tutor-felt")
    # 3 players, 6 cards: the learner deals, so bots lead and a suit is usually led
    _new_game(browser_page, players=3, seed=11, cards=6)
    held = _bid(browser_page)
    hand = browser_page.locator("button.tutor-card-button")
    message = browser_page.locator(".tutor-play-message")

    def play_one(how: str) -> None:
        nonlocal held
        said = message.inner_text()
        card = browser_page.locator(LEGAL_CARD).first
        if how == "click":
            card.click()
        else:  # Tab lands on a card like on any button; Enter or Space plays it
            card.focus()
            assert browser_page.evaluate(
                "document.activeElement.classList.contains('tutor-card-button')"
            )
            browser_page.keyboard.press(how)
        held = after_one_played(browser_page, held, said, "en", ACTION_TIMEOUT)

    play_one("click")
    play_one("Enter")
    # the focus stays in the hand (on the card now in the played one's place): the
    # keyboard player goes on from there
    assert browser_page.evaluate("document.activeElement.classList.contains('tutor-card-button')")
    play_one(" ")
    illegal = browser_page.locator("button.tutor-card-button.is-illegal")
    for _ in range(3):  # play on until a trick binds the learner to a suit
        if illegal.count():
            break
        play_one("click")
    if illegal.count():
        card = illegal.first
        # the engine's reason, before any press (the tooltip follows the ✕ mark: wait for it)
        expect(card).to_have_attribute("title", re.compile(r"^You may not play"))
        reason = card.get_attribute("title") or ""
        before = hand.count()
        card.click()
        expect(message).to_contain_text(reason, timeout=ACTION_TIMEOUT)
        assert "✘" in message.inner_text() and hand.count() == before
        assert "✕" in browser_page.locator(".tutor-play-prompt").inner_text()
    _no_null_tooltips(browser_page)
    log.assert_clean()


def test_a_phone_stacks_the_table_and_keeps_the_hand_in_rows(
    app: AppServer, page: tuple[Any, PageLog]
) -> None:
    browser_page, log = page
    browser_page.set_viewport_size(PHONE)
    _open(browser_page, app, PLAY, "ja", ".tutor-play-table .tutor-felt")
    _new_game(browser_page, players=6, seed=3, cards=9, lang="ja")
    _bid(browser_page, "ja")
    felt = _in_view(browser_page, ".tutor-play-table .tutor-felt")
    assert felt["width"] <= PHONE["width"]
    for seat in browser_page.locator(".tutor-play-table .tutor-seat").all():
        box = seat.bounding_box()  # every seat plate whole, inside the felt
        assert box is not None and box["x"] >= felt["x"] - 0.5
        assert box["x"] + box["width"] <= felt["x"] + felt["width"] + 0.5
        assert seat.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    tops = [
        round(card.bounding_box()["y"])
        for card in browser_page.locator("button.tutor-card-button").all()
    ]
    rows = sorted(set(tops))
    assert len(rows) <= 2 and min(tops.count(row) for row in rows[:-1] or rows) >= 5, tops
    # the table first, then the action, then the hand: a phone reads down the screen
    act = browser_page.locator(".tutor-play-act").bounding_box()
    hand = browser_page.locator(".tutor-play-hand").bounding_box()
    assert felt["y"] + felt["height"] <= act["y"] + 1 <= hand["y"] + 1
    assert _scrolled(browser_page)["doc"] <= PHONE["width"]
    # names on the table and under the last trick are whole (「A（あなた）」, not 「A（あな…」)
    browser_page.locator(LEGAL_CARD).first.click()
    players = browser_page.locator(".tutor-play-side svg.trick text.player")
    you = text("play-screen.you-name", "ja", name="A")

    def drawn() -> list[str]:  # the words drawn, not the title
        return players.evaluate_all(
            "ts => ts.map(t => [...t.childNodes].filter(n => n.nodeType === 3)"
            ".map(n => n.textContent).join(''))"
        )

    # the last trick is drawn by the kernel's later messages: wait for the learner's name
    names = wait_until(lambda: you in (now := drawn()) and now, ACTION_TIMEOUT, drawn)
    assert all("…" not in name for name in names)
    for tag in browser_page.locator(".tutor-trick-name").all():
        assert tag.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    log.assert_clean()


# -- the worked example ----------------------------------------------------------------------


def _next_box(page: Any) -> dict[str, float]:
    box = page.locator("button.tutor-step-next").bounding_box()
    assert box is not None
    return box


READ_TO_THE_STEPS_END = """(scroller) => {
  const s = document.querySelector(scroller);
  const end = document.querySelector('.tutor-stepper').getBoundingClientRect().bottom;
  s.scrollTop += Math.max(0, end - s.getBoundingClientRect().bottom);
}"""
"""Scrolls the page until the stepper's end (the end of the step) is at the window's foot."""

SMALL_PHONE = {"width": 360, "height": 600}
"""A small phone with the browser's bars: steps are taller than the window."""


@pytest.mark.parametrize("size", [LAPTOP, PHONE, SMALL_PHONE], ids=["laptop", "phone", "small"])
def test_the_worked_example_keeps_next_in_one_place_and_in_reach(
    app: AppServer, page: tuple[Any, PageLog], size: dict[str, int]
) -> None:
    browser_page, log = page
    expect = _expect()
    browser_page.set_viewport_size(size)
    _open(browser_page, app, WORKED, "en", "button.tutor-step-next")
    position = browser_page.locator(".tutor-step-position")
    steps = worked_example().steps
    first = _next_box(browser_page)
    taller = 0  # steps taller than the window: there Next must follow the reader down
    for number in range(1, len(steps) + 1):
        expect(position).to_have_text(f"Step {number} of {len(steps)}", timeout=ACTION_TIMEOUT)
        browser_page.evaluate(f"document.querySelector('{SCROLLER}').scrollTop = 0")
        assert _next_box(browser_page) == first, number  # the same place on every step
        # Read to the end of the step: Next is still on screen (the control row sticks).
        # The step ends where the stepper does (the example's quiz follows it on the page).
        browser_page.evaluate(READ_TO_THE_STEPS_END, SCROLLER)
        _in_view(browser_page, "button.tutor-step-next")
        scroll = _scrolled(browser_page)
        taller += scroll["top"] > 0
        assert scroll["doc"] <= size["width"] and scroll["width"] <= scroll["client"] + 1
        felt = browser_page.locator(".tutor-felt")
        if felt.count():  # the table fits the width: no seat cut
            box = felt.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
        if number < len(steps):
            browser_page.locator("button.tutor-step-next").click()
    if size is SMALL_PHONE:
        assert taller > len(steps) // 2  # the check above did follow the reader down
    _no_null_tooltips(browser_page)
    log.assert_clean()


# Each word of a header (split at spaces) must lie on one line: a word broken in two covers
# two line boxes. Returns the headers that break, with their line count.
BROKEN_HEADERS = """(selector) => {
  const broken = [];
  for (const cell of document.querySelectorAll(selector)) {
    const node = [...cell.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    if (!node) continue;
    const words = node.textContent.split(/(\\s+)/);
    let offset = 0;
    for (const word of words) {
      if (word.trim()) {
        const range = document.createRange();
        range.setStart(node, offset);
        range.setEnd(node, offset + word.length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(`${word} (${lines.size} lines)`);
      }
      offset += word.length;
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("lang", ["ja", "zh-Hant"])
def test_cjk_score_headers_never_break_inside_a_word_and_sheets_scroll_on_a_phone(
    app: AppServer, page: tuple[Any, PageLog], lang: str
) -> None:
    browser_page, log = page
    expect = _expect()
    steps = worked_example(lang).steps
    kinds = [step.kind for step in steps]
    scores, sheet = kinds.index(StepKind.ROUND_SCORES), kinds.index(StepKind.SCORE_SHEET)
    for visit, size in enumerate((LAPTOP, PHONE)):
        browser_page.set_viewport_size(size)
        _open(browser_page, app, WORKED, lang, "button.tutor-step-next")
        title = browser_page.locator(".tutor-step-page h3")
        if visit:  # the page opens at the step the first visit reached: back to step 1
            expect(title).to_have_text(steps[sheet].title, timeout=ACTION_TIMEOUT)
            browser_page.locator("button.tutor-step-first").click()
            expect(title).to_have_text(steps[0].title, timeout=ACTION_TIMEOUT)
        for index in range(1, sheet + 1):
            browser_page.locator("button.tutor-step-next").click()
            expect(title).to_have_text(steps[index].title, timeout=ACTION_TIMEOUT)
            if index not in (scores, sheet):
                continue
            table = ".round-scores" if index == scores else ".score-sheet"
            headers = browser_page.locator(f"{table} th")
            assert headers.count() >= 5
            assert browser_page.evaluate(BROKEN_HEADERS, f"{table} th") == [], (size, table)
            box = browser_page.locator(f".tutor-scroll:has({table})")
            # it fits, or it scrolls inside itself (with shadows at the edges), never the page
            style = box.evaluate("e => getComputedStyle(e)")
            assert style["overflowX"] == "auto" and "gradient" in style["backgroundImage"]
            assert _scrolled(browser_page)["doc"] <= size["width"]
            outer = box.bounding_box()
            assert outer is not None and outer["x"] + outer["width"] <= size["width"] + 0.5
    log.assert_clean()


def test_a_six_player_score_sheet_fits_a_phone_one_column_a_player(
    app: AppServer, page: tuple[Any, PageLog]
) -> None:
    """On a phone the play screen shows the score sheet one column a player (bid → taken,
    points and total one under another): six players fit 390 px, seat F's column in view
    with nothing to scroll; the whole sheet (three columns a player) is the laptop's."""
    browser_page, log = page
    expect = _expect()
    browser_page.set_viewport_size(PHONE)
    _open(browser_page, app, PLAY, "en", ".tutor-play-table .tutor-felt")
    _new_game(browser_page, players=6, seed=5, cards=1)
    _bid(browser_page)
    browser_page.locator(LEGAL_CARD).first.click()  # one card each: the round is over
    sheet = browser_page.locator(".tutor-scroll:has(.score-sheet-narrow)")
    expect(sheet.locator(".points")).to_have_count(6, timeout=ACTION_TIMEOUT)  # scored
    expect(browser_page.locator(".score-sheet")).to_be_hidden()
    sizes = sheet.evaluate("e => ({scroll: e.scrollWidth, client: e.clientWidth})")
    assert sizes["scroll"] <= sizes["client"], sizes  # six players fit 390 px
    assert _scrolled(browser_page)["doc"] <= PHONE["width"]
    last = sheet.locator("thead th[scope=col]").last
    assert last.inner_text() == "F"
    box, outer = last.bounding_box(), sheet.bounding_box()
    assert box is not None and outer is not None
    assert box["x"] + box["width"] <= outer["x"] + outer["width"] + 1
    results = browser_page.locator(".tutor-scroll:has(.tutor-play-results)")
    sizes = results.evaluate("e => ({scroll: e.scrollWidth, client: e.clientWidth})")
    assert sizes["scroll"] <= sizes["client"], sizes  # the round's results fit too
    browser_page.set_viewport_size(LAPTOP)  # the whole sheet again
    expect(browser_page.locator(".score-sheet")).to_be_visible()
    expect(sheet).to_be_hidden()
    log.assert_clean()


@pytest.mark.parametrize("phone", [False, True], ids=["laptop", "phone"])
def test_words_about_keys_show_only_where_there_is_a_keyboard(
    app: AppServer, browser: Any, phone: bool
) -> None:
    """ "Tab to it and press Enter" and the arrow keys are for a keyboard and a mouse; a
    phone (touch, no hover) shows neither hint."""
    expect = _expect()
    context = browser.new_context(
        viewport=PHONE if phone else LAPTOP, is_mobile=phone, has_touch=phone
    )
    try:
        page = context.new_page()
        hints = [
            (WORKED, ".tutor-stepper", page.locator(".tutor-step-keys")),
            (
                PLAY,
                ".tutor-play-table .tutor-felt",
                page.get_by_text(text("play-screen.intro-keys")),
            ),
        ]
        for notebook, ready, hint in hints:
            _open(page, app, notebook, "en", ready)
            expect(hint).to_have_count(1, timeout=ACTION_TIMEOUT)  # on the page, for a keyboard
            if phone:
                expect(hint).to_be_hidden()
            else:
                expect(hint).to_be_visible()
    finally:
        context.close()


_BROKEN_WORDS = """([selector, words]) => {
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector(selector), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const word of words) {
      for (let at = node.textContent.indexOf(word); at >= 0; at = node.textContent.indexOf(word, at + 1)) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + word.length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(word);
      }
    }
  }
  return broken;
}"""


@pytest.mark.parametrize(
    ("lang", "words"),
    [("ja", ["新しいゲーム", "ラウンド", "プレイヤー"]), ("zh-Hant", ["新遊戲", "電腦對手"])],
)
def test_the_play_screens_side_column_never_breaks_inside_a_word(
    app: AppServer, page: tuple[Any, PageLog], lang: str, words: list[str]
) -> None:
    browser_page, log = page
    browser_page.set_viewport_size(LAPTOP)
    _open(browser_page, app, PLAY, lang, ".tutor-play-table .tutor-felt")
    side = ".tutor-play-side"
    _expect()(browser_page.locator(side)).to_contain_text(words[0], timeout=ACTION_TIMEOUT)
    assert browser_page.evaluate(_BROKEN_WORDS, [side, words]) == []
    log.assert_clean()
