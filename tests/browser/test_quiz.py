"""Lesson quizzes in the browser, as a learner answers them: a number box that starts
empty and grades only numbers, only on Check or Enter; a hand of cards that grades
nothing until a card is chosen; a wrong answer tried again; what was chosen and what was
right marked on the choices in words; the first-try summary and the missed questions
again. In Japanese and Traditional Chinese as well as English.

The expected words come from the catalogs and the answers from the engine, never typed
in here.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.scenarios.learner import give
from tutor.display.widgets import QUIZ_CLASS
from tutor.teaching.explain import MINUS, card_name, format_points
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.quiz import LegalPlaysQuestion, ScoreQuestion, TrickWinnerQuestion
from tutor.teaching.text import join_words, text

from .app_process import AppServer
from .conftest import PageLog
from .fixtures import QUESTION_PLACE

pytestmark = pytest.mark.browser

LOAD_TIMEOUT = 120_000  # ms: a page waits for its kernel to run the notebook
ACTION_TIMEOUT = 20_000  # ms: a click travels to the kernel and back


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def _open(page: Any, server: AppServer, notebook: str, lang: str) -> None:
    page.goto(server.render_url(notebook, f"lang={lang}"))
    page.locator(f".{QUIZ_CLASS}-summary").wait_for(timeout=LOAD_TIMEOUT)


def _question(page: Any, number: int, total: int, lang: str) -> Any:
    """The quiz of question ``number`` in its place on the page (the missed questions
    shown again below the summary are not in one), scrolled to as a learner does."""
    title = text("lesson-quiz.question-number", lang, number=number, total=total)
    place = page.locator(QUESTION_PLACE).filter(
        has=page.locator(f".{QUIZ_CLASS}-title", has_text=title)
    )
    place.scroll_into_view_if_needed(timeout=ACTION_TIMEOUT)  # built once the learner is near
    return place.locator(f".{QUIZ_CLASS}")


def _type_and_enter(quiz: Any, typed: str) -> None:
    box = quiz.locator(f".{QUIZ_CLASS}-number input")
    box.fill(typed)
    box.press("Enter")


def test_a_number_is_asked_for_graded_on_enter_and_tried_again_in_japanese(
    app: AppServer, page: tuple[Any, PageLog]
) -> None:
    browser_page, log = page
    expect = _expect()
    lang = "ja"
    lesson = load_lesson("07_scoring")
    question = lesson.questions()[0]
    assert isinstance(question, ScoreQuestion)
    right = question.correct_answer()
    _open(browser_page, app, "07_scoring.ipynb", lang)
    quiz = _question(browser_page, 1, len(lesson.quiz), lang)
    box = quiz.locator(f".{QUIZ_CLASS}-number input")
    check = quiz.locator(f"button.{QUIZ_CLASS}-check")
    feedback = quiz.locator(f".{QUIZ_CLASS}-feedback")
    expect(box).to_have_value("")  # empty, not 0

    check.click()  # nothing typed: asked for a number (a score's examples), nothing graded
    expect(feedback.locator(".quiz-hint")).to_have_text(
        text("quiz.number-empty-points", lang), timeout=ACTION_TIMEOUT
    )
    _type_and_enter(quiz, "fifty")
    expect(feedback.locator(".quiz-hint")).to_have_text(
        text("quiz.number-not-a-number-points", lang, typed="fifty"), timeout=ACTION_TIMEOUT
    )
    expect(feedback.locator(".quiz-feedback")).to_have_count(0)
    expect(box).to_be_enabled()

    # Leaving the box (Tab) grades nothing. The kernel handles a page's messages in
    # order: once the next question's Check has been answered, a grade sent on leaving
    # the box would have arrived too.
    box.fill(str(right + 10))
    box.press("Tab")
    following = _question(browser_page, 2, len(lesson.quiz), lang)
    following.locator(f"button.{QUIZ_CLASS}-check").click()
    expect(following.locator(".quiz-hint")).to_have_count(1, timeout=ACTION_TIMEOUT)
    expect(feedback.locator(".quiz-feedback")).to_have_count(0)
    expect(box).to_be_enabled()

    box.focus()
    box.press("Enter")  # Enter grades what is in the box: a wrong answer
    wrong = question.check(right + 10, lang)
    # A first miss: the hint, not yet the answer; "Show the answer" gives it.
    expect(feedback.locator(".quiz-feedback.wrong.hinted")).to_have_count(1, timeout=ACTION_TIMEOUT)
    assert question.hint(lang) in feedback.inner_text()
    assert wrong.answer not in feedback.inner_text()
    quiz.locator(f"button.{QUIZ_CLASS}-show-answer").click()
    expect(feedback.locator(".quiz-feedback.wrong:not(.hinted)")).to_have_count(
        1, timeout=ACTION_TIMEOUT
    )
    assert wrong.answer in feedback.inner_text()
    expect(quiz.locator(f"button.{QUIZ_CLASS}-show-answer")).to_be_hidden()
    expect(quiz.locator(f".{QUIZ_CLASS}-your-answer")).to_have_text(
        text("widgets.yours-wrong", lang), timeout=ACTION_TIMEOUT
    )
    expect(box).to_be_disabled(timeout=ACTION_TIMEOUT)
    expect(box).to_have_value(str(right + 10))  # the learner's answer stays to be seen

    quiz.locator(f"button.{QUIZ_CLASS}-try-again").click()
    expect(box).to_be_enabled(timeout=ACTION_TIMEOUT)
    expect(box).to_have_value("")
    expect(feedback.locator(".quiz-feedback")).to_have_count(0)
    _type_and_enter(quiz, format_points(right))
    expect(feedback.locator(".quiz-feedback.right")).to_have_count(1, timeout=ACTION_TIMEOUT)
    assert text("quiz.correct", lang) in feedback.inner_text()
    expect(quiz.locator(f"button.{QUIZ_CLASS}-try-again")).to_be_hidden()
    log.assert_clean()


# One task of the page, as autofill, a paste or a fast typist's keys with Enter come: an
# input event per character, then Enter (keydown and keypress) or a click on Check.
_TYPE_AND_SUBMIT = """(quiz, [typed, via]) => {
  const box = quiz.querySelector(".tutor-quiz-number input");
  for (let end = 1; end <= typed.length; end++) {
    box.value = typed.slice(0, end);
    box.dispatchEvent(new InputEvent("input", { bubbles: true, data: typed[end - 1] }));
  }
  if (via === "check") {
    quiz.querySelector("button.tutor-quiz-check").click();
  } else {
    for (const type of ["keydown", "keypress"]) {
      box.dispatchEvent(new KeyboardEvent(type, {
        key: "Enter", code: "Enter", keyCode: 13, which: 13, bubbles: true, cancelable: true,
      }));
    }
  }
}"""


def test_a_number_typed_and_submitted_at_once_is_graded_on_what_was_typed(
    app: AppServer, page: tuple[Any, PageLog]
) -> None:
    """Issue 19: a number typed and submitted at once (autofill, a paste, fast keys) was
    graded on the box's previous value ("30" then Enter graded as 3). What is graded now
    travels with the submit, and the feedback says which number it graded."""
    browser_page, log = page
    expect = _expect()
    lang = "en"
    lesson = load_lesson("07_scoring")
    questions = lesson.questions()
    _open(browser_page, app, "07_scoring.ipynb", lang)
    for number, via in ((1, "enter"), (2, "check"), (3, "keys")):
        question = questions[number - 1]
        right = question.correct_answer()
        assert isinstance(right, int) and len(str(right)) >= 2  # a shorter prefix is wrong
        quiz = _question(browser_page, number, len(lesson.quiz), lang)
        box = quiz.locator(f".{QUIZ_CLASS}-number input")
        if via == "keys":  # Playwright's own keys, with no delay between them
            box.press_sequentially(str(right))
            box.press("Enter")
        else:
            quiz.evaluate(_TYPE_AND_SUBMIT, [str(right), via])
        feedback = quiz.locator(f".{QUIZ_CLASS}-feedback .quiz-feedback")
        expect(feedback).to_have_count(1, timeout=ACTION_TIMEOUT)
        expect(feedback).to_have_class(re.compile(r"\bright\b"))
        expect(box).to_have_value(str(right))
        expect(feedback).to_contain_text(text("quiz.you-answered", lang, answer=right))
    log.assert_clean()


def test_a_hand_says_to_pick_all_and_each_whole_card_is_its_toggle(
    app: AppServer, page: tuple[Any, PageLog]
) -> None:
    """Issue 19: a question with several right cards said so only after an empty Check;
    only the small label under a card toggled it; a question's setup line sat above the
    next question's heading. Now the question says "pick all", a click on the picture or
    Space on the focused button toggles the card, and the setup line is under its own
    question's heading."""
    browser_page, log = page
    expect = _expect()
    lang = "en"
    lesson = load_lesson("04_follow_suit")
    number, item = next(
        (number, item)
        for number, item in enumerate(lesson.quiz, start=1)
        if item.note is not None and isinstance(item.question, LegalPlaysQuestion)
    )
    question = item.question
    assert isinstance(question, LegalPlaysQuestion) and len(question.hand) >= 2
    _open(browser_page, app, "04_follow_suit.ipynb", lang)
    quiz = _question(browser_page, number, len(lesson.quiz), lang)
    heading = quiz.locator(f".{QUIZ_CLASS}-title")
    expect(heading.locator(f".{QUIZ_CLASS}-note")).to_have_text(item.note(lang))  # type: ignore[misc]
    # ... and not under the question before it.
    before = _question(browser_page, number - 1, len(lesson.quiz), lang)
    expect(before).not_to_contain_text(item.note(lang))  # type: ignore[misc]
    expect(quiz.locator(".quiz-pick-all")).to_have_text(text("quiz.pick-all-lower", lang))

    toggles = quiz.locator(".widget-toggle-button")
    first, second = question.hand[0], question.hand[1]
    picture = quiz.locator(f".{QUIZ_CLASS}-card-choice").nth(0).locator("svg").first
    picture.scroll_into_view_if_needed()

    def click_the_picture() -> None:
        """A real click in the middle of the card's picture, far from its label."""
        box = picture.bounding_box()
        assert box is not None
        browser_page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    click_the_picture()
    expect(toggles.nth(0)).to_have_text(
        text("widgets.card-button-selected", lang, card=card_name(first, lang)),
        timeout=ACTION_TIMEOUT,
    )
    click_the_picture()  # again: unselected
    expect(toggles.nth(0)).to_have_text(
        text("widgets.card-button", lang, card=card_name(first, lang)), timeout=ACTION_TIMEOUT
    )
    toggles.nth(1).focus()
    browser_page.keyboard.press("Space")  # the keyboard reaches the card's one button
    expect(toggles.nth(1)).to_have_text(
        text("widgets.card-button-selected", lang, card=card_name(second, lang)),
        timeout=ACTION_TIMEOUT,
    )
    log.assert_clean()


def test_a_tap_on_a_cards_picture_on_a_phone_selects_it(app: AppServer, browser: Any) -> None:
    """On a touch screen too, the card's picture is the toggle, not only its label."""
    expect = _expect()
    lang = "ja"
    lesson = load_lesson("04_follow_suit")
    number, question = next(
        (number, q)
        for number, q in enumerate(lesson.questions(), start=1)
        if isinstance(q, LegalPlaysQuestion)
    )
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    try:
        phone = context.new_page()
        _open(phone, app, "04_follow_suit.ipynb", lang)
        quiz = _question(phone, number, len(lesson.quiz), lang)
        picture = quiz.locator(f".{QUIZ_CLASS}-card-choice").nth(0).locator("svg").first
        picture.scroll_into_view_if_needed()
        box = picture.bounding_box()
        assert box is not None
        phone.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        expect(quiz.locator(".widget-toggle-button").nth(0)).to_have_text(
            text("widgets.card-button-selected", lang, card=card_name(question.hand[0], lang)),
            timeout=ACTION_TIMEOUT,
        )
    finally:
        context.close()


def test_chosen_and_missed_cards_are_marked_in_words_in_chinese(
    app: AppServer, page: tuple[Any, PageLog]
) -> None:
    browser_page, log = page
    expect = _expect()
    lang = "zh-Hant"
    lesson = load_lesson("04_follow_suit")
    number, question = next(
        (number, q)
        for number, q in enumerate(lesson.questions(), start=1)
        if isinstance(q, LegalPlaysQuestion)
        and len(q.correct_answer()) >= 2
        and len(set(q.hand) - q.correct_answer()) >= 1
    )
    legal = [card for card in question.hand if card in question.correct_answer()]
    illegal = [card for card in question.hand if card not in question.correct_answer()]
    _open(browser_page, app, "04_follow_suit.ipynb", lang)
    quiz = _question(browser_page, number, len(lesson.quiz), lang)
    check = quiz.locator(f"button.{QUIZ_CLASS}-check")
    feedback = quiz.locator(f".{QUIZ_CLASS}-feedback")

    check.click()  # nothing chosen: asked to choose, nothing graded
    expect(feedback.locator(".quiz-hint")).to_have_text(text("widgets.choose-first", lang))
    expect(quiz.locator(".widget-toggle-button").first).to_be_enabled()

    # One legal card and one illegal card: the other legal card is missed.
    picked = [legal[0], illegal[0]]
    toggles = quiz.locator(".widget-toggle-button")
    for card in picked:
        toggles.nth(question.hand.index(card)).click()
        expect(toggles.nth(question.hand.index(card))).to_have_text(
            text("widgets.card-button-selected", lang, card=card_name(card, lang)),
            timeout=ACTION_TIMEOUT,
        )
    check.click()
    expect(feedback.locator(".quiz-feedback.wrong.hinted")).to_have_count(1, timeout=ACTION_TIMEOUT)
    quiz.locator(f"button.{QUIZ_CLASS}-show-answer").click()
    expect(feedback.locator(".quiz-feedback.wrong:not(.hinted)")).to_have_count(
        1, timeout=ACTION_TIMEOUT
    )
    words = quiz.locator(f".{QUIZ_CLASS}-verdict")

    def under(card: Any) -> Any:
        return words.nth(question.hand.index(card))

    # The marks come with the feedback (each its own message from the kernel): wait.
    for card, decision in (
        (legal[0], "your-choice"),
        (illegal[0], "your-choice"),
        (legal[1], "missed"),
    ):
        expect(under(card)).to_contain_text(
            text(f"widgets.{decision}", lang), timeout=ACTION_TIMEOUT
        )
        mark = "quiz.legal-card" if card in legal else "quiz.illegal-card"
        expect(under(card)).to_contain_text(text(mark, lang))
    missed = toggles.nth(question.hand.index(legal[1]))
    expect(missed).to_have_text(f"{text('widgets.wrong-icon', lang)} {card_name(legal[1], lang)}")
    expect(toggles.nth(question.hand.index(illegal[0]))).to_have_text(
        f"{text('widgets.wrong-icon', lang)} {card_name(illegal[0], lang)}"
    )
    # A missed card is not drawn lighter as if it could not be played.
    assert missed.evaluate("button => getComputedStyle(button).opacity") == "1"
    assert "is-dimmed" not in missed.locator("xpath=..").inner_html()
    # The engine's reasons for both mistakes, once each.
    shown = feedback.inner_text()
    assert shown.count(card_name(illegal[0], lang)) == 1
    log.assert_clean()


def test_the_trick_winner_and_the_learners_card_are_both_marked(
    app: AppServer, page: tuple[Any, PageLog]
) -> None:
    browser_page, log = page
    expect = _expect()
    lang = "en"
    lesson = load_lesson("06_trick_winner")
    question = lesson.questions()[0]
    assert isinstance(question, TrickWinnerQuestion)
    winner = question.correct_answer()
    wrong = (winner + 1) % len(question.plays)
    _open(browser_page, app, "06_trick_winner.ipynb", lang)
    quiz = _question(browser_page, 1, len(lesson.quiz), lang)
    buttons = quiz.locator(f"button.{QUIZ_CLASS}-choice")
    buttons.nth(wrong).click()
    expect(quiz.locator(".quiz-feedback.wrong.hinted")).to_have_count(1, timeout=ACTION_TIMEOUT)
    quiz.locator(f"button.{QUIZ_CLASS}-show-answer").click()  # the learner gives up
    expect(quiz.locator(".quiz-feedback.wrong:not(.hinted)")).to_have_count(
        1, timeout=ACTION_TIMEOUT
    )
    verdicts = quiz.locator(f".{QUIZ_CLASS}-verdict")
    expect(verdicts.nth(wrong)).to_have_text(
        text("widgets.your-answer", lang), timeout=ACTION_TIMEOUT
    )
    expect(verdicts.nth(winner)).to_have_text(
        text("quiz.winner-mark", lang), timeout=ACTION_TIMEOUT
    )
    icon = re.escape(text("widgets.wrong-icon", lang))
    expect(buttons.nth(wrong)).to_have_text(re.compile(f"^{icon} "), timeout=ACTION_TIMEOUT)
    icon = re.escape(text("widgets.right-icon", lang))
    expect(buttons.nth(winner)).to_have_text(re.compile(f"^{icon} "), timeout=ACTION_TIMEOUT)
    # The feedback names the winner once: one sentence, the engine's.
    shown = quiz.locator(".quiz-feedback").inner_text()
    assert shown.count(question.names()[winner] + " takes the trick") == 1
    log.assert_clean()


def test_the_quiz_ends_with_the_first_try_score_and_the_missed_questions_again(
    app: AppServer, page: tuple[Any, PageLog]
) -> None:
    browser_page, log = page
    expect = _expect()
    lang = "en"
    lesson = load_lesson("07_scoring")
    questions = lesson.questions()
    total = len(questions)
    missed = {2, 5}  # question numbers answered wrong the first time
    _open(browser_page, app, "07_scoring.ipynb", lang)
    summary = browser_page.locator(f".{QUIZ_CLASS}-summary")
    status = summary.locator(f".{QUIZ_CLASS}-summary-status")
    expect(status).to_have_text(text("lesson-quiz.progress", lang, answered=0, total=total))
    for number, question in enumerate(questions, start=1):
        quiz = _question(browser_page, number, total, lang)
        if isinstance(question, ScoreQuestion):  # typed as the lesson writes points
            points = question.correct_answer() + (10 if number in missed else 0)
            _type_and_enter(quiz, format_points(points))
        else:  # the lesson's questions on a round or a score sheet, answered right
            assert number not in missed
            give(quiz, question, question.correct_answer(), lang)
        expect(quiz.locator(".quiz-feedback")).to_have_count(1, timeout=ACTION_TIMEOUT)
    score = text("lesson-quiz.score", lang, right=total - len(missed), total=total)
    expect(status).to_contain_text(score, timeout=ACTION_TIMEOUT)
    numbers = join_words((text("lesson-quiz.number", lang, number=n) for n in sorted(missed)), lang)
    expect(status).to_contain_text(text("lesson-quiz.missed", lang, numbers=numbers))
    retry = summary.locator(f"button.{QUIZ_CLASS}-summary-retry")
    expect(retry).to_have_text(text("lesson-quiz.retry", lang, count=len(missed)))
    retry.click()

    again = summary.locator(f".{QUIZ_CLASS}")
    expect(again).to_have_count(len(missed), timeout=ACTION_TIMEOUT)
    for index, number in enumerate(sorted(missed)):
        copy = again.nth(index)
        expect(copy.locator(f".{QUIZ_CLASS}-title")).to_have_text(
            text("lesson-quiz.question-number", lang, number=number, total=total)
        )
        expect(copy.locator(f".{QUIZ_CLASS}-number input")).to_have_value("")
        question = questions[number - 1]
        _type_and_enter(copy, format_points(question.correct_answer()))  # type: ignore[arg-type]
        expect(copy.locator(".quiz-feedback.right")).to_have_count(1, timeout=ACTION_TIMEOUT)
    expect(status).to_contain_text(
        text(
            "lesson-quiz.again-score",
            lang,
            right=len(missed),
            total=len(missed),
            answered=len(missed),
        ),
        timeout=ACTION_TIMEOUT,
    )
    expect(status).to_contain_text(score)  # the first-try score stays as it was
    expect(retry).to_be_hidden()
    # The questions above still show the first answers given.
    first = _question(browser_page, min(missed), total, lang)
    expect(first.locator(".quiz-feedback.wrong")).to_have_count(1)
    # Every score on the page (the lesson's tables and sentences, the answers' formulas)
    # is written with the one minus sign.
    page_text = browser_page.locator("#rendered_cells").inner_text()
    assert MINUS in page_text and not re.search(r"(?<![\w→])-\d", page_text)
    log.assert_clean()
