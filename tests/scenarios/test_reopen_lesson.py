"""A learner who comes back to a finished lesson sees what they did, the same in every host:
each question shows the first answer given and its verdict, the summary the score those
first answers made; a question answered again is practice, said apart, and the score stays
(docs/progress.md: the first answers are the score). The answers and words come from the
engine and the catalogs."""

from __future__ import annotations

from typing import Any

from tutor.display.lesson_quiz import SUMMARY_CLASS
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.text import text

from .hosts import ACTION_TIMEOUT, LOAD_TIMEOUT, Host
from .learner import (
    ANSWER_AGAIN,
    FEEDBACK,
    expect,
    feedback_of,
    give,
    question_titled,
    wrong_answer,
)

LESSON = "01"
NOTEBOOK = "01_cards_and_rounds.ipynb"
MISSED = 2  # the question answered wrong at the first answer


def test_a_finished_lesson_reopened_shows_the_first_answers_and_a_redo_is_practice(
    host: Host, page: Any
) -> None:
    lang = "en"
    questions = load_lesson(LESSON).questions()
    total = len(questions)
    host.open(page, NOTEBOOK, lang=lang)
    content = host.content(page)
    for number, question in enumerate(questions, start=1):
        quiz = question_titled(content, number, total, lang)
        right = number != MISSED
        give(quiz, question, question.correct_answer() if right else wrong_answer(question), lang)
        feedback_of(quiz, right=right)
    score = text("lesson-quiz.score", lang, right=total - 1, total=total)
    status = content.locator(f".{SUMMARY_CLASS}-status")
    expect()(status).to_contain_text(score, timeout=ACTION_TIMEOUT)

    # the lesson opened again: a new page and kernel, the answers only in the learner's store
    host.open(page, NOTEBOOK, lang=lang)
    content = host.content(page)
    status = content.locator(f".{SUMMARY_CLASS}-status")
    answered = text("lesson-quiz.progress", lang, answered=total, total=total)
    expect()(status).to_contain_text(answered, timeout=LOAD_TIMEOUT)
    expect()(status).to_contain_text(score)
    earlier = text("widgets.earlier-answer", lang)
    for number in range(1, total + 1):
        quiz = question_titled(content, number, total, lang)
        verdict = "wrong" if number == MISSED else "right"
        expect()(quiz.locator(f"{FEEDBACK}.{verdict}")).to_have_count(1, timeout=ACTION_TIMEOUT)
        expect()(quiz).to_contain_text(earlier)

    # the missed question answered again, right: practice, the first answers stay the score
    quiz = question_titled(content, MISSED, total, lang)
    again = quiz.locator(ANSWER_AGAIN)
    expect()(again).to_have_text(text("widgets.answer-again", lang))
    again.click()
    expect()(quiz.locator(FEEDBACK)).to_have_count(0, timeout=ACTION_TIMEOUT)
    question = questions[MISSED - 1]
    give(quiz, question, question.correct_answer(), lang)
    feedback_of(quiz, right=True)
    practice = text(
        "lesson-quiz.practice-score", lang, score=total - 1, total=total, right=1, answered=1
    )
    expect()(status).to_contain_text(practice, timeout=ACTION_TIMEOUT)
    expect()(status).to_contain_text(score)

    host.open(page, "index.ipynb", lang=lang)
    done = text("course.status-done", lang, right=total - 1, items=total)
    expect()(host.content(page)).to_contain_text(done, timeout=LOAD_TIMEOUT)
