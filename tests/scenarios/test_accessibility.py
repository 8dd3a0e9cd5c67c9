"""Every kind of page of the course passes axe-core's check (WCAG 2 A/AA: no serious or
critical violation, tests/accessibility.py), in every host, in the state a learner brings
it to: the course page; a lesson with answers given (a wrong one's feedback and Try again,
a right one's); the worked example at a trick; practice with a question graded; the play
screen in the middle of a round and at the result of the round; and, presented, a lesson's
first slide, a quiz question put to the class and its answer shown.

One axe run per page and state. In Lab, axe looks at the notebook's outputs (what the course
draws), not at JupyterLab's own menus, panels and cell editors around them
(``Host.course_part``).
"""

from __future__ import annotations

from typing import Any

from accessibility import assert_accessible
from browser.play_hand import HAND, LEGAL_CARD, ready_to_play

from tutor.display.course import INDEX_NOTEBOOK
from tutor.display.game_result import RESULT_CLASS
from tutor.play.session import PlaySession
from tutor.rules.round import Phase
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.text import text
from tutor.teaching.worked_example import StepKind, worked_example

from .hosts import ACTION_TIMEOUT, LOAD_TIMEOUT, Host
from .learner import (
    TRY_AGAIN,
    answer_whatever_is_asked,
    expect,
    feedback_of,
    give,
    question_titled,
    wrong_answer,
)
from .presenter import press

PLAYERS = 3
LEARNER = 0
MOST_SLIDES = 100
"""More slides than a lesson has before its quiz."""


def _check(host: Host, page: Any, what: str) -> None:
    """axe over what the course draws in the host's window (in Lab, the notebook's
    outputs)."""
    assert_accessible(page, f"{host.name}: {what}", host.course_part)


def test_the_course_page_is_accessible(host: Host, page: Any) -> None:
    host.open(page, INDEX_NOTEBOOK)
    expect()(host.content(page).locator(".tutor-course-entry").first).to_be_visible(
        timeout=LOAD_TIMEOUT
    )
    _check(host, page, "the course page")


def test_a_lesson_with_its_answers_graded_is_accessible(host: Host, page: Any) -> None:
    """Lesson 01: the first question answered wrong (its feedback and Try again shown), the
    second right."""
    lesson = load_lesson("01")
    questions = lesson.questions()
    host.open(page, "01_cards_and_rounds.ipynb")
    content = host.content(page)
    first = question_titled(content, 1, len(questions), "en")
    give(first, questions[0], wrong_answer(questions[0]), "en")
    feedback_of(first, right=False)
    expect()(first.locator(TRY_AGAIN)).to_be_visible(timeout=ACTION_TIMEOUT)
    second = question_titled(content, 2, len(questions), "en")
    give(second, questions[1], questions[1].correct_answer(), "en")
    feedback_of(second, right=True)
    _check(host, page, "lesson 01, a wrong answer and a right one graded")


def test_the_worked_example_at_a_trick_is_accessible(host: Host, page: Any) -> None:
    """Next, step by step, to the first trick (the cards on the table, the winner marked)."""
    steps = worked_example().steps
    trick = next(index for index, step in enumerate(steps) if step.kind is StepKind.TRICK)
    host.open(page, "08_worked_example.ipynb")
    content = host.content(page)
    position = content.locator(".tutor-step-position")
    for index in range(trick):
        content.locator("button.tutor-step-next").click()
        expect()(position).to_have_text(
            text("stepper.position", number=index + 2, total=len(steps)), timeout=ACTION_TIMEOUT
        )
    expect()(content.locator(".tutor-trick-card.is-winner")).to_have_count(1)
    _check(host, page, f"the worked example at step {trick + 1}, a trick")


def test_practice_with_a_question_graded_is_accessible(host: Host, page: Any) -> None:
    host.open(page, "09_practice.ipynb")
    content = host.content(page)
    answer_whatever_is_asked(content.locator(".tutor-quiz").first, "en")
    _check(host, page, "practice, a question graded")


def _a_seed_the_learner_bids_first() -> int:
    """A seed whose one-card round for three players asks the learner's bid first (no
    Wizard turned on their deal, which would ask them for trump)."""
    for seed in range(1, 1000):
        view = PlaySession(players=PLAYERS, seed=seed, cards=1, learner=LEARNER).view()
        if view.phase is Phase.BIDDING and view.to_act == LEARNER:
            return seed
    raise AssertionError("no seed below 1000 asks the learner's bid first")


def test_the_play_screen_mid_round_and_at_its_result_is_accessible(host: Host, page: Any) -> None:
    """One round of one card for three players, set up in the settings: checked once the
    learner has bid and holds a card to play, and again on the round's result."""
    host.open(page, "11_play_a_round.ipynb")
    content = host.content(page)

    def button(key: str, **values: Any) -> Any:
        return content.get_by_role("button", name=text(key, **values), exact=True)

    button("play-screen.settings").click()
    settings = content.locator(".tutor-play-settings")
    expect()(settings).to_be_visible(timeout=ACTION_TIMEOUT)
    settings.get_by_role(
        "button", name=text("play-screen.players-option", count=PLAYERS), exact=True
    ).click()
    settings.get_by_role("button", name=text("play-screen.length-round"), exact=True).click()
    seed_box, cards_box = settings.locator("input[type=number]").all()
    expect()(cards_box).to_be_visible(timeout=ACTION_TIMEOUT)
    cards_box.fill("1")
    cards_box.press("Enter")
    seed = _a_seed_the_learner_bids_first()
    seed_box.fill(str(seed))
    seed_box.press("Enter")
    button("play-screen.start").click()
    expect()(content.locator(".tutor-play-status")).to_contain_text(
        text("play-screen.rules-seed", seed=seed), timeout=ACTION_TIMEOUT
    )
    button("play-screen.bid-button", bid=0).click()
    ready_to_play(page, "en", ACTION_TIMEOUT)
    expect()(content.locator(HAND)).to_have_count(1)
    _check(host, page, "the play screen, the learner's card to play")

    content.locator(LEGAL_CARD).first.click()
    expect()(content.locator(f".{RESULT_CLASS}")).to_be_visible(timeout=ACTION_TIMEOUT)
    _check(host, page, "the play screen, the round's result")


def test_a_presented_slide_and_quiz_question_are_accessible(
    presenter_host: Host, page: Any
) -> None:
    """Lesson 03 presented at 1280x720: its first slide; then, Page Down, its first quiz
    question asked; then its answer and why shown."""
    page.set_viewport_size({"width": 1280, "height": 720})
    presenter_host.open(page, f"{load_lesson('03').id}.ipynb", present=True)
    page.locator(".tutor-present-bar").wait_for(timeout=ACTION_TIMEOUT)
    _check(presenter_host, page, "lesson 03 presented, its first slide")
    question = page.locator(".tutor-unit:not(.tutor-hidden) .tutor-present-question")
    for _ in range(MOST_SLIDES):
        if question.count():
            break
        press(page, "PageDown")
    _check(presenter_host, page, "lesson 03 presented, a quiz question asked")
    press(page, "PageDown")
    expect()(page.locator(".tutor-unit:not(.tutor-hidden) .tutor-present-why")).to_be_visible()
    _check(presenter_host, page, "lesson 03 presented, the question's answer shown")
