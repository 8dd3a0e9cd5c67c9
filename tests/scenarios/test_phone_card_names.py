"""A card's name is one thing: on a 360 px phone in Japanese no line ends inside one
(issue 34: "黄の / 1", the yellow 1 split over two lines), nor inside a Latin word among the
Japanese words. Measured where the learner reads card names in sentences, in every host:
a quiz's feedback, the worked example's narration, and the play screen's messages, log and
tables after a round."""

from __future__ import annotations

from typing import Any

from tutor.rules.cards import DECK
from tutor.teaching.explain import card_name
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.text import text
from tutor.teaching.worked_example import worked_example

from .hosts import ACTION_TIMEOUT, Host
from .learner import expect, feedback_of, give, question_titled
from .test_phone_layout import PLAY, TRICK_ENDS, WORKED, _narrowed, _play_a_round

LANG = "ja"
PHONE = 360
NAMES = sorted({card_name(card, LANG) for card in DECK}, key=len, reverse=True)
"""Every card's name in Japanese ("黄の1", "ウィザード"), longest first."""

CARD_NAME_LINES = r"""
(root, names) => {
  // Each card's name drawn in the text under root, with the lines it is drawn on, and
  // whether the words around it wrap (a name in one short line proves nothing). A name
  // is found as drawn: its parts perhaps joined by word joiners or a no-break space.
  const found = [];
  const linesOf = (range) =>
    new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)))
      .size;
  const patterns = names.map(
    (name) => new RegExp([...name].map((c) => (c === " " ? "[ \u00a0]" : c)).join("\u2060?") + "(?![0-9])", "g")
  );
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("svg, style, script, button")) continue;
    const taken = [];
    names.forEach((name, index) => {
      for (const match of node.data.matchAll(patterns[index])) {
        const [from, to] = [match.index, match.index + match[0].length];
        if (taken.some(([start, end]) => from < end && to > start)) continue;
        taken.push([from, to]);
        const range = document.createRange();
        range.setStart(node, from);
        range.setEnd(node, to);
        const lines = linesOf(range);
        if (!lines) continue; // not drawn (hidden)
        const around = document.createRange();
        around.selectNodeContents(parent.closest("p, li, td, th, div") || parent);
        const words = node.data.slice(Math.max(0, from - 8), to + 8).replaceAll("\u2060", "");
        found.push({name, lines, wraps: linesOf(around) > 1, words});
      }
    });
  }
  return found;
}
"""


def _card_names_drawn(root: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = root.evaluate(CARD_NAME_LINES, NAMES)
    return found


def _broken(found: list[dict[str, Any]]) -> list[str]:
    return [f"{name['name']} in …{name['words']}…" for name in found if name["lines"] > 1]


def test_a_lesson_and_its_quiz_keep_each_card_name_on_one_line(host: Host, page: Any) -> None:
    """Lesson 04 with its first question answered: the lesson's words and examples, and the
    feedback naming the cards that may be played and why, each name whole."""
    lesson = load_lesson("04")
    questions = lesson.questions()
    question = questions[0]
    host.open(page, "04_follow_suit.ipynb", lang=LANG)
    _narrowed(host, page, PHONE)
    quiz = question_titled(host.content(page), 1, len(questions), LANG)
    give(quiz, question, question.correct_answer(), LANG)
    feedback_of(quiz, right=True)
    assert _card_names_drawn(quiz), "no card's name in the quiz's feedback: nothing was checked"
    found = _card_names_drawn(host.content(page))
    assert any(name["wraps"] for name in found), f"no card's name in a wrapped line: {found}"
    assert not _broken(found), _broken(found)


def test_the_worked_example_keeps_each_card_name_on_one_line(host: Host, page: Any) -> None:
    """Every step of the worked example to the end of its first trick: the narration names
    the cards played, each name whole, in lines that wrap."""
    host.open(page, WORKED, lang=LANG)
    content = host.content(page)
    _narrowed(host, page, PHONE)
    step_page = content.locator(".tutor-step-page")
    position = content.locator(".tutor-step-position")
    next_button = content.locator("button.tutor-step-next")
    total = len(worked_example().steps)
    found: list[dict[str, Any]] = []
    for number in range(1, TRICK_ENDS[0] + 1):
        if number > 1:
            next_button.click()
        expect()(position).to_have_text(
            text("stepper.position", LANG, number=number, total=total), timeout=ACTION_TIMEOUT
        )
        step = _card_names_drawn(step_page)
        assert not _broken(step), (number, _broken(step))
        found += step
    assert any(name["wraps"] for name in found), f"no card's name in a wrapped line: {found}"


def test_the_play_screen_keeps_each_card_name_on_one_line(host: Host, page: Any) -> None:
    """A round played on the phone: the verdicts, the last trick's reason, the round's log
    (opened) and its results name cards, each name whole."""
    host.open(page, PLAY, lang=LANG)
    _narrowed(host, page, PHONE)
    content = host.content(page)
    _play_a_round(host, page, 1, LANG)
    history = content.locator(".tutor-play-history")
    history.locator("summary").click()
    expect()(history.locator(".tutor-play-log li").first).to_be_visible(timeout=ACTION_TIMEOUT)
    found = _card_names_drawn(content.locator(".tutor-play").first)
    assert len(found) >= 2, f"card names drawn on the play screen: {found}"
    assert any(name["wraps"] for name in found), f"no card's name in a wrapped line: {found}"
    assert not _broken(found), _broken(found)
