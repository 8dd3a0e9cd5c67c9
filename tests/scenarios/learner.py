"""What a learner does with a quiz, in any host: find a question, answer it (a choice, several
cards then Check, or a number typed then Enter), try again, go on. The answers and the
words expected come from the engine (tutor.teaching) and the catalogs, never typed here.
"""

from __future__ import annotations

import re
from typing import Any

from tutor.display.lesson_quiz import PLACE_CLASS
from tutor.display.widgets import QUIZ_CLASS
from tutor.teaching.quiz import AnswerKind, Question
from tutor.teaching.text import text

from .hosts import ACTION_TIMEOUT

CHOICE = f"button.{QUIZ_CLASS}-choice"
TOGGLE = ".widget-toggle-button"  # one of several cards to select
NUMBER = f".{QUIZ_CLASS}-number input"
CHECK = f"button.{QUIZ_CLASS}-check"
TRY_AGAIN = f"button.{QUIZ_CLASS}-try-again"
NEXT = f"button.{QUIZ_CLASS}-next"
ANSWER_AGAIN = f"button.{QUIZ_CLASS}-answer-again"  # a first answer from before, redone
FEEDBACK = ".quiz-feedback"


def expect() -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect


def question_titled(content: Any, number: int, total: int, lang: str) -> Any:
    """The quiz of question ``number`` of ``total`` in ``content`` (a Locator: the host's
    page), in the question's place on the page, scrolled to as a learner does: a question
    is built when the learner reaches it (the missed questions shown again are in the
    summary, not in a place)."""
    title = text("lesson-quiz.question-number", lang, number=number, total=total)
    titled = content.page.locator(f".{QUIZ_CLASS}-title", has_text=title)
    place = content.locator(f".{PLACE_CLASS}").filter(has=titled).first
    place.scroll_into_view_if_needed(timeout=ACTION_TIMEOUT)
    return place.locator(f".{QUIZ_CLASS}")


def wrong_answer(question: Question) -> object:
    """An answer the engine grades wrong."""
    right = question.correct_answer()
    if question.answer_kind is AnswerKind.NUMBER:
        assert isinstance(right, int)
        return right + 1
    choices = question.choices()
    if question.answer_kind is AnswerKind.ONE_CHOICE:
        return next(choice for choice in choices if not question.is_right_choice(choice))
    chosen = frozenset(c for c in choices if question.is_right_choice(c))
    extra = [c for c in choices if not question.is_right_choice(c)]
    return chosen | {extra[0]} if extra else chosen - {next(iter(chosen))}


def give(quiz: Any, question: Question, answer: object, lang: str) -> None:
    """Answer ``question`` shown by ``quiz`` with ``answer`` as a learner does: press the
    choice; or select the cards, then Check; or type the number (all at once, as a paste
    does), then Enter."""
    expect()(quiz).to_be_visible(timeout=ACTION_TIMEOUT)
    if question.answer_kind is AnswerKind.NUMBER:
        box = quiz.locator(NUMBER)
        expect()(box).to_be_enabled(timeout=ACTION_TIMEOUT)
        box.fill(str(answer))
        box.press("Enter")
        return
    choices = list(question.choices())
    if question.answer_kind is AnswerKind.ONE_CHOICE:
        button = quiz.locator(CHOICE).nth(choices.index(answer))
        expect()(button).to_be_enabled(timeout=ACTION_TIMEOUT)
        button.click()
        return
    assert isinstance(answer, frozenset)
    toggles = quiz.locator(TOGGLE)
    for index, choice in enumerate(choices):
        if choice in answer:
            expect()(toggles.nth(index)).to_be_enabled(timeout=ACTION_TIMEOUT)
            toggles.nth(index).click()
            # selected once the kernel has said so: "✓ red 3"
            label = question.choice_label(choice, lang)
            selected = text("widgets.card-button-selected", lang, card=label)
            expect()(toggles.nth(index)).to_have_text(selected, timeout=ACTION_TIMEOUT)
    quiz.locator(CHECK).click()


def answer_whatever_is_asked(quiz: Any, lang: str) -> bool:
    """Give the question ``quiz`` shows some answer (the first choice, the first card then
    Check, or 0 then Enter), as practice's random questions are answered; return whether
    the page graded it right."""
    # the question's inputs, enabled: after Next, the last one's stay until the new arrive
    choice = quiz.locator(f"{CHOICE}:visible:enabled")
    toggle = quiz.locator(f"{TOGGLE}:visible:enabled")
    number = quiz.locator(f"{NUMBER}:visible:enabled")
    choice.or_(toggle).or_(number).first.wait_for(timeout=ACTION_TIMEOUT)
    if choice.count():
        choice.first.click()
    elif toggle.count():
        toggle.first.click()
        selected = text("widgets.card-button-selected", lang, card="\0").split("\0")[0]
        expect()(toggle.first).to_have_text(re.compile("^" + re.escape(selected)))
        quiz.locator(f"{CHECK}:visible").click()
    else:
        box = number.first
        box.fill("0")
        box.press("Enter")
    graded = quiz.locator(f"{FEEDBACK}.right, {FEEDBACK}.wrong")
    expect()(graded).to_have_count(1, timeout=ACTION_TIMEOUT)
    return "right" in (graded.get_attribute("class") or "").split()


def feedback_of(quiz: Any, *, right: bool) -> str:
    """The feedback shown once the answer is graded (right or wrong, as expected)."""
    shown = quiz.locator(f"{FEEDBACK}.{'right' if right else 'wrong'}")
    expect()(shown).to_have_count(1, timeout=ACTION_TIMEOUT)
    words: str = shown.inner_text()
    return words


def tally_pattern(lang: str) -> re.Pattern[str]:
    """A row of practice's tally ("Trump: 1 right, 0 wrong") in ``lang``."""
    row = re.escape(text("practice.tally-row", lang, topic="\0", right="\1", wrong="\2"))
    row = row.replace("\0", "(?P<topic>.+?)").replace("\1", r"(?P<right>\d+)")
    return re.compile("^" + row.replace("\2", r"(?P<wrong>\d+)") + "$")
