"""A learner steps through the worked example to its end, in every host: Next through
every step (each step's title and sentences, the trick's winner on the table), then the
final screen: the score sheet over three rounds and the three tricks at a glance; and
then answers the lesson's questions about the example, below it.

The facts are RULES.md's ("The worked example (4 players, round 3)"), written out here as
that section gives them, and played through the engine here too: the page must show what
RULES.md says and the engine agrees with.
"""

from __future__ import annotations

import re
from typing import Any

from tutor.display.lesson_quiz import SUMMARY_CLASS
from tutor.rules.cards import parse_cards
from tutor.rules.round import Round
from tutor.rules.scoring import round_score
from tutor.teaching.explain import MINUS, card_name
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.text import text
from tutor.teaching.worked_example import StepKind, worked_example

from .hosts import ACTION_TIMEOUT, Host
from .learner import TRY_AGAIN, feedback_of, give, question_titled, wrong_answer

WORKED = "08_worked_example.ipynb"

# -- RULES.md, "The worked example (4 players, round 3)" -----------------------------------
PLAYERS = "ABCD"
DEALER = 3  # D deals
TURNED = "R9"  # red is trump
HANDS = {"A": "J R2 G8", "B": "B5 W G3", "C": "B11 R4 J", "D": "B7 R12 G10"}
BIDS = {"A": 1, "B": 2, "C": 0, "D": 0}
TRICKS = (  # (player, card) in the order played, and the winner
    ((("A", "J"), ("B", "B5"), ("C", "B11"), ("D", "B7")), "C"),
    ((("C", "R4"), ("D", "R12"), ("A", "R2"), ("B", "W")), "B"),
    ((("B", "G3"), ("C", "J"), ("D", "G10"), ("A", "G8")), "D"),
)
TAKEN = {"A": 0, "B": 1, "C": 1, "D": 1}
ROUND_POINTS = {"A": -10, "B": -10, "C": -10, "D": -10}
SHEET = {  # round -> player -> (bid, taken, points)
    1: {"A": (0, 0, 20), "B": (1, 1, 30), "C": (0, 0, 20), "D": (0, 0, 20)},
    2: {"A": (1, 1, 30), "B": (1, 0, -10), "C": (0, 1, -10), "D": (0, 0, 20)},
    3: {"A": (1, 0, -10), "B": (2, 1, -10), "C": (0, 1, -10), "D": (0, 1, -10)},
}
TOTALS = {"A": 40, "B": 10, "C": 0, "D": 30}


def _number(words: str) -> int:
    found = re.match(r"\s*([+-]?\d+)", words.replace(MINUS, "-"))
    assert found, words
    return int(found.group(1))


def test_rules_md_and_the_engine_agree_on_the_worked_example() -> None:
    """The facts this scenario holds the page to, checked first against the engine (so a
    failure below is the page's, not a slip in copying RULES.md)."""
    rnd = Round(hands=tuple(HANDS[p] for p in PLAYERS), turned=TURNED, dealer=DEALER, names=PLAYERS)
    while rnd.to_act is not None and rnd.bids[rnd.to_act] is None:
        rnd.bid(BIDS[PLAYERS[rnd.to_act]], seat=rnd.to_act)
    for plays, winner in TRICKS:
        for player, card in plays:
            assert rnd.to_act == PLAYERS.index(player)
            rnd.play(card)
        assert PLAYERS[rnd.tricks[-1].winner] == winner
    assert dict(zip(PLAYERS, rnd.taken, strict=True)) == TAKEN
    assert dict(zip(PLAYERS, rnd.scores(), strict=True)) == ROUND_POINTS
    running = dict.fromkeys(PLAYERS, 0)
    for row in SHEET.values():
        for player, (bid, taken, points) in row.items():
            assert round_score(bid, taken) == points
            running[player] += points
    assert running == TOTALS
    assert rnd.trump is not None and rnd.trump.value == "R"


def test_the_worked_example_to_the_end(host: Host, page: Any) -> None:
    from playwright.sync_api import expect

    host.open(page, WORKED)
    content = host.content(page)
    steps = worked_example().steps
    position = content.locator(".tutor-step-position")
    step_page = content.locator(".tutor-step-page")
    next_button = content.locator("button.tutor-step-next")
    winners_seen = []
    for index, step in enumerate(steps):
        number = index + 1
        expect(position).to_have_text(
            text("stepper.position", number=number, total=len(steps)), timeout=ACTION_TIMEOUT
        )
        expect(step_page.locator("h3")).to_have_text(step.title, timeout=ACTION_TIMEOUT)
        shown = re.sub(r"\s+", " ", step_page.inner_text())
        for sentence in step.sentences:
            assert re.sub(r"\s+", " ", sentence) in shown, (number, sentence)
        if step.kind is StepKind.TRICK:  # the winner's card is marked on the table
            winner = step_page.locator(".tutor-trick-card.is-winner")
            expect(winner).to_have_count(1)
            winners_seen.append(PLAYERS[int(winner.get_attribute("data-seat") or -1)])
        if number < len(steps):
            expect(next_button).to_be_enabled()
            next_button.click()
    expect(next_button).to_be_disabled()
    assert winners_seen == [winner for _, winner in TRICKS]

    # The final screen: the score sheet of rounds 1-3 ...
    sheet = step_page.locator(".score-sheet")
    expect(sheet).to_be_visible()
    rows = sheet.locator("tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.children].map(c => c.innerText.trim()))"
    )
    assert len(rows) == len(SHEET)
    for row, (round_number, expected) in zip(rows, SHEET.items(), strict=True):
        assert [int(row[0]), int(row[1])] == [round_number, round_number]  # round, cards
        for seat, player in enumerate(PLAYERS):
            bid, taken, points = expected[player]
            cells = row[2 + 3 * seat : 5 + 3 * seat]
            assert cells[0] == f"{bid} → {taken}" and _number(cells[1]) == points, (row, player)
    totals = [_number(t) for t in sheet.locator("tfoot td.grand-total").all_inner_texts()]
    assert totals == [TOTALS[p] for p in PLAYERS]

    # ... and the three tricks at a glance: each trick's cards in order, its winner.
    summary = content.locator(".tricks-summary")
    expect(summary).to_be_visible()
    expect(summary.locator("tbody tr")).to_have_count(len(TRICKS))
    for number, (plays, winner) in enumerate(TRICKS, start=1):
        row = summary.locator(f"tr.trick-{number}")
        cells = row.locator("td").all_inner_texts()
        said = [
            text("quiz.trick-play", player=player, card=card_name(parse_cards(card)[0]))
            for player, card in plays
        ]
        positions = [cells[0].find(words) for words in said]
        assert -1 not in positions and positions == sorted(positions), (cells[0], said)
        assert cells[1].startswith(f"{winner} takes the trick"), cells[1]
        winning = dict(plays)[winner]
        starred = row.locator("strong").inner_text()
        assert "★" in starred and card_name(parse_cards(winning)[0]) in starred
    taken_words = ", ".join(f"{p} {TAKEN[p]}" for p in PLAYERS)
    expect(summary).to_contain_text(taken_words)


def test_the_worked_example_ends_with_questions_about_it(host: Host, page: Any) -> None:
    """Issue 31: lesson 08 asked nothing. Its quiz comes after the example, as on every
    lesson's page: each question under its note (what it changes in the example), one
    missed then tried again, the rest right; the summary gives the first-try score."""
    from playwright.sync_api import expect

    lesson = load_lesson("08_worked_example")
    questions = lesson.questions()
    total = len(questions)
    host.open(page, WORKED)
    content = host.content(page)
    stepper = content.locator(".tutor-stepper")
    expect(stepper).to_be_visible(timeout=ACTION_TIMEOUT)
    heading = content.locator("h2", has_text=text("lesson.quiz-heading"))
    heading.scroll_into_view_if_needed(timeout=ACTION_TIMEOUT)
    expect(heading).to_be_visible()
    assert heading.bounding_box()["y"] > stepper.bounding_box()["y"]  # after the example
    missed = 2
    for number, (item, question) in enumerate(zip(lesson.quiz, questions, strict=True), 1):
        quiz = question_titled(content, number, total, "en")
        assert item.note is not None
        expect(quiz.locator(".tutor-quiz-note")).to_have_text(item.note("en"))
        if number == missed:
            give(quiz, question, wrong_answer(question), "en")
            feedback_of(quiz, right=False)
            quiz.locator(TRY_AGAIN).click()
        give(quiz, question, question.correct_answer(), "en")
        shown = feedback_of(quiz, right=True)
        assert question.check(question.correct_answer()).answer in shown, shown
    status = content.locator(f".{SUMMARY_CLASS}-status")
    expect(status).to_contain_text(
        text("lesson-quiz.score", right=total - 1, total=total), timeout=ACTION_TIMEOUT
    )


# Every part of the step that is cut: off the side of the window, or hidden in a box that
# scrolls sideways (a score sheet's last columns).
CUT = """(selector) => {
  const cut = [];
  const root = document.querySelector(selector);
  for (const element of root.querySelectorAll("*")) {
    if (element.closest("svg") && element.tagName.toLowerCase() !== "svg") continue;
    const style = getComputedStyle(element);
    if (style.display === "none" || style.visibility === "hidden") continue;
    const box = element.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) continue;
    const name = `${element.tagName.toLowerCase()}.${element.className.baseVal ?? element.className}`;
    if (box.left < -1 || box.right > innerWidth + 1) cut.push(`${name} off the window`);
    if (/(auto|scroll|hidden)/.test(style.overflowX) && element.scrollWidth > element.clientWidth + 1)
      cut.push(`${name} hides ${element.scrollWidth - element.clientWidth} px`);
  }
  return cut;
}"""


def test_the_worked_example_in_presenter_mode_shows_every_step_whole(host: Host, page: Any) -> None:
    """A teacher projects the worked example with its own "Presenter mode" button (a
    1920x1080 projector): every step, the score sheet's every column included, is whole."""
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1920, "height": 1080})
    host.open(page, WORKED)
    content = host.content(page)
    steps = worked_example().steps
    content.get_by_role("button", name=text("stepper.present"), exact=True).click()
    expect(content.locator(".tutor-stepper.tutor-present")).to_have_count(1, timeout=ACTION_TIMEOUT)
    position = content.locator(".tutor-step-position")
    title = content.locator(".tutor-step-page h3").first
    cut: list[str] = []
    before = ""
    for number in range(1, len(steps) + 1):
        expect(position).to_have_text(
            text("stepper.position", number=number, total=len(steps)), timeout=ACTION_TIMEOUT
        )
        expect(title).not_to_have_text(before, timeout=ACTION_TIMEOUT)  # the step is drawn
        before = title.inner_text()
        cut += [f"step {number}: {part}" for part in page.evaluate(CUT, ".tutor-step-page")]
        if number < len(steps):
            content.locator("button.tutor-step-next").click()
    assert cut == [], "\n".join(cut)
