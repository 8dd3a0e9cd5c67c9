"""The play screen and the worked example on a phone (360 and 390 px), in every host and in
the three languages: nothing scrolls sideways (the score sheet and the round's results fit
the screen), and no badge on the table (a seat's "▶ bidding", the worked example's
"★ takes the trick", the names under the trick's cards) covers any words."""

from __future__ import annotations

from typing import Any

import pytest
from browser.play_hand import LEGAL_CARD, MESSAGE, after_one_played, ready_to_play

from tutor.rules.cards import Suit
from tutor.teaching.explain import suit_name
from tutor.teaching.text import text
from tutor.teaching.worked_example import StepKind, worked_example

from .hosts import ACTION_TIMEOUT, Host

PLAY = "11_play_a_round.ipynb"
WORKED = "08_worked_example.ipynb"
PHONES = (360, 390)
LANGUAGES = ("en", "ja", "zh-Hant")
TRICK_ENDS = tuple(
    number
    for number, step in enumerate(worked_example().steps, start=1)
    if step.kind is StepKind.TRICK
)
"""The worked example's steps where a trick is whole and its winner marked (7, 12, 17)."""
ROUNDS = 2
"""Rounds played before measuring (of the default game, four players: 1 card, then 2)."""

WIDE = """(root) => {
  // What is wider than the room it has: the window's document, a box that scrolls
  // sideways, or a table past the right edge of the play screen.
  const wide = [];
  const page = document.scrollingElement;
  if (page.scrollWidth > page.clientWidth + 1)
    wide.push(`the page: ${page.scrollWidth} px in ${page.clientWidth}`);
  const room = root.getBoundingClientRect();
  if (room.right > innerWidth + 1) wide.push(`the screen: to ${room.right} px of ${innerWidth}`);
  for (const element of root.querySelectorAll("*")) {
    if (element.closest("svg")) continue;
    const style = getComputedStyle(element);
    if (style.display === "none" || !element.getClientRects().length) continue;
    const name = `${element.tagName.toLowerCase()}.${element.className}`;
    if (/(auto|scroll|hidden)/.test(style.overflowX) && element.scrollWidth > element.clientWidth + 1)
      wide.push(`${name} scrolls: ${element.scrollWidth} px in ${element.clientWidth}`);
    if (element.tagName === "TABLE" && element.getBoundingClientRect().right > room.right + 1)
      wide.push(`${name} past the screen's edge: ${element.getBoundingClientRect().width} px`);
  }
  return wide;
}"""

COVERED = """(root) => {
  // Each badge of a table drawn on the felt whose box covers words that are not its own,
  // and words cut at the edge of their seat's plate.
  const covered = [];
  const overlap = (a, b) =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  for (const felt of root.querySelectorAll(".tutor-felt")) {
    if (!felt.getClientRects().length) continue;
    const words = [];
    const walker = document.createTreeWalker(felt, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.data.trim() || node.parentElement.closest("svg")) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const box of range.getClientRects()) words.push({node, box});
    }
    // and words that spill out of their seat's plate (or the felt) are cut at its edge
    for (const word of words) {
      const plate = word.node.parentElement.closest(".tutor-seat") || felt;
      const edge = plate.getBoundingClientRect();
      if (word.box.left < edge.left - 1 || word.box.right > edge.right + 1)
        covered.push(`"${word.node.data}" spills out of ${plate.className}`);
    }
    const badges = felt.querySelectorAll(".tutor-seat-mark, .tutor-trick-name, .tutor-dealer-chip");
    for (const badge of badges) {
      const box = badge.getBoundingClientRect();
      for (const word of words) {
        if (badge.contains(word.node) || !overlap(box, word.box)) continue;
        covered.push(`"${badge.textContent}" covers "${word.node.data}"`);
      }
    }
  }
  return covered;
}"""


def _narrowed(host: Host, page: Any, width: int) -> None:
    host.narrow(page, {"width": width, "height": 800})


def _play_a_round(host: Host, page: Any, number: int, lang: str) -> None:
    """The learner's part of round ``number`` (``number`` cards each): trump if a Wizard
    was turned on their deal, a bid of 0, then the first card allowed each time."""
    from playwright.sync_api import expect

    content = host.content(page)
    bid = content.get_by_role(
        "button", name=text("play-screen.bid-button", lang, bid=0), exact=True
    )
    red = text("play-screen.trump-button", lang, colour=suit_name(Suit.RED, lang), letter="R")
    trump = content.get_by_role("button", name=red, exact=True)
    expect(bid.or_(trump)).to_be_visible(timeout=ACTION_TIMEOUT)
    if trump.is_visible():
        trump.click()
    expect(bid).to_be_enabled(timeout=ACTION_TIMEOUT)
    # the learner's seat is lit, "▶ bidding" on it, the other seats' "no bid yet" beside
    screen = content.locator(".tutor-play").first
    assert not screen.evaluate(COVERED), (number, screen.evaluate(COVERED))
    bid.click()
    for _ in range(number):
        held = ready_to_play(page, lang, ACTION_TIMEOUT)
        said = content.locator(MESSAGE).inner_text()
        content.locator(LEGAL_CARD).first.click()
        after_one_played(page, held, said, lang, ACTION_TIMEOUT)
    expect(content.locator(".tutor-play-results")).to_be_visible(timeout=ACTION_TIMEOUT)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_play_screen_fits_a_phone_after_some_rounds(host: Host, page: Any, lang: str) -> None:
    """Played on a phone: no badge covers a seat's words when the learner bids; then the
    score sheet (with rounds in it) and the round's results fit 360 and 390 px with
    nothing scrolling sideways."""
    from playwright.sync_api import expect

    host.open(page, PLAY, lang=lang)
    _narrowed(host, page, PHONES[0])  # played on the phone
    content = host.content(page)
    for number in range(1, ROUNDS + 1):
        if number > 1:
            content.get_by_role(
                "button", name=text("play-screen.next-round", lang), exact=True
            ).click()
        _play_a_round(host, page, number, lang)
    expect(content.locator(".score-sheet-narrow .bid-taken")).to_have_count(4 * ROUNDS)
    screen = content.locator(".tutor-play").first
    for width in PHONES:
        _narrowed(host, page, width)
        expect(content.locator(".score-sheet-narrow")).to_be_visible()
        assert not screen.evaluate(WIDE), (width, screen.evaluate(WIDE))
        assert not screen.evaluate(COVERED), (width, screen.evaluate(COVERED))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_worked_examples_badges_cover_no_words_on_a_phone(
    host: Host, page: Any, lang: str
) -> None:
    """At each trick's last card (steps 7, 12 and 17) the winner's seat says "★ takes the
    trick" and the winning card's name says "C ★ wins": at 360 px neither covers the
    other, nor any other words on the table."""
    from playwright.sync_api import expect

    host.open(page, WORKED, lang=lang)
    content = host.content(page)
    _narrowed(host, page, PHONES[0])
    step_page = content.locator(".tutor-step-page")
    position = content.locator(".tutor-step-position")
    next_button = content.locator("button.tutor-step-next")
    total = len(worked_example().steps)
    for number in range(1, max(TRICK_ENDS) + 1):
        if number > 1:
            next_button.click()
        expect(position).to_have_text(
            text("stepper.position", lang, number=number, total=total), timeout=ACTION_TIMEOUT
        )
        if number in TRICK_ENDS:
            expect(step_page.locator(".tutor-trick-card.is-winner")).to_have_count(1)
            assert not step_page.evaluate(COVERED), (number, step_page.evaluate(COVERED))
