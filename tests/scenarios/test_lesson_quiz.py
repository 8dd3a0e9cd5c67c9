"""A learner answers a lesson's quiz, the same in every host: a wrong answer, Try again, the
right one; and the whole quiz to its summary, with the missed questions again at the end.
"""

from __future__ import annotations

from typing import Any

import pytest

from tutor.display.lesson_quiz import SUMMARY_CLASS
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.text import join_words, text

from .hosts import ACTION_TIMEOUT, Host
from .learner import (
    FEEDBACK,
    TRY_AGAIN,
    expect,
    feedback_of,
    give,
    question_titled,
    wrong_answer,
)

NOTEBOOKS = {"01": "01_cards_and_rounds.ipynb", "04": "04_follow_suit.ipynb"}


@pytest.mark.parametrize(
    ("lesson_id", "lang"),
    [("01", "en"), ("04", "ja")],  # a number typed, then several cards to select
)
def test_a_wrong_answer_then_try_again_then_the_right_one(
    host: Host, page: Any, lesson_id: str, lang: str
) -> None:
    lesson = load_lesson(lesson_id)
    questions = lesson.questions()
    question = questions[0]
    host.open(page, NOTEBOOKS[lesson_id], lang=lang)
    content = host.content(page)
    quiz = question_titled(content, 1, len(questions), lang)

    wrong = wrong_answer(question)
    give(quiz, question, wrong, lang)
    shown = feedback_of(quiz, right=False)
    assert question.check(wrong, lang).verdict in shown, shown
    try_again = quiz.locator(TRY_AGAIN)
    expect()(try_again).to_be_visible(timeout=ACTION_TIMEOUT)
    expect()(try_again).to_have_text(text("widgets.try-again", lang))

    try_again.click()
    expect()(quiz.locator(FEEDBACK)).to_have_count(0, timeout=ACTION_TIMEOUT)
    expect()(try_again).to_be_hidden()

    right = question.correct_answer()
    give(quiz, question, right, lang)
    shown = feedback_of(quiz, right=True)
    graded = question.check(right, lang)
    assert graded.verdict in shown and graded.answer in shown, shown
    expect()(try_again).to_be_hidden()
    status = content.locator(f".{SUMMARY_CLASS}-status")
    expect()(status).to_contain_text(
        text("lesson-quiz.progress", lang, answered=1, total=len(questions))
    )


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_missed_questions_come_back_at_the_end_of_the_quiz(
    host: Host, page: Any, lang: str
) -> None:
    """Lesson 01: questions 2 and 5 missed on the first try (and not tried again), the rest
    right; the summary gives the first-try score and offers the two again, fresh; answered
    right there, the first-try score stays."""
    lesson = load_lesson("01")
    questions = lesson.questions()
    total = len(questions)
    missed = [2, 5]
    host.open(page, NOTEBOOKS["01"], lang=lang)
    content = host.content(page)
    summary = content.locator(f".{SUMMARY_CLASS}")
    status = summary.locator(f".{SUMMARY_CLASS}-status")
    expect()(status).to_have_text(text("lesson-quiz.progress", lang, answered=0, total=total))
    for number, question in enumerate(questions, start=1):
        quiz = question_titled(content, number, total, lang)
        answer = wrong_answer(question) if number in missed else question.correct_answer()
        give(quiz, question, answer, lang)
        feedback_of(quiz, right=number not in missed)

    score = text("lesson-quiz.score", lang, right=total - len(missed), total=total)
    expect()(status).to_contain_text(score, timeout=ACTION_TIMEOUT)
    numbers = join_words((text("lesson-quiz.number", lang, number=n) for n in missed), lang)
    expect()(status).to_contain_text(text("lesson-quiz.missed", lang, numbers=numbers))
    retry = summary.locator(f"button.{SUMMARY_CLASS}-retry")
    expect()(retry).to_have_text(text("lesson-quiz.retry", lang, count=len(missed)))
    retry.click()

    again = summary.locator(".tutor-quiz")
    expect()(again).to_have_count(len(missed), timeout=ACTION_TIMEOUT)
    expect()(summary).to_contain_text(text("lesson-quiz.again-heading", lang, count=len(missed)))
    for index, number in enumerate(missed):
        copy = again.nth(index)
        expect()(copy.locator(".tutor-quiz-title")).to_have_text(
            text("lesson-quiz.question-number", lang, number=number, total=total)
        )
        expect()(copy.locator(FEEDBACK)).to_have_count(0)  # fresh: nothing answered yet
        question = questions[number - 1]
        give(copy, question, question.correct_answer(), lang)
        feedback_of(copy, right=True)
    again_score = text(
        "lesson-quiz.again-score", lang, right=len(missed), total=len(missed), answered=len(missed)
    )
    expect()(status).to_contain_text(again_score, timeout=ACTION_TIMEOUT)
    expect()(status).to_contain_text(score)  # the first-try score stays as it was
    expect()(retry).to_be_hidden()
    # the questions above still show the first answers given
    for number in missed:
        first = question_titled(content, number, total, lang)
        expect()(first.locator(f"{FEEDBACK}.wrong")).to_have_count(1)
