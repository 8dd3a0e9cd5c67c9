"""The course page's scores, the same in every host: a learner does lesson 01's quiz (the
first question missed, then tried again and right), and the course page says the lesson
is done with 5 of 6 right at the first try and offers the next lesson; the learner comes
back to lesson 01 and answers again (the first question right this time, the second wrong):
the score does not change, the first try is the one that counts.
"""

from __future__ import annotations

from typing import Any

from tutor.display.course import INDEX_NOTEBOOK
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.text import text

from .hosts import ACTION_TIMEOUT, LOAD_TIMEOUT, Host
from .learner import (
    ANSWER_AGAIN,
    FEEDBACK,
    TRY_AGAIN,
    expect,
    feedback_of,
    give,
    question_titled,
    wrong_answer,
)

LESSON = "01_cards_and_rounds"
NEXT_LESSON = "02_trump"


def _course_status(host: Host, page: Any, lang: str, title: str) -> Any:
    """The course page opened, once it shows this learner's progress: the status of the
    lesson titled ``title``."""
    host.open(page, INDEX_NOTEBOOK, lang=lang)
    content = host.content(page)
    expect()(content.locator(".tutor-continue-link")).to_be_visible(timeout=LOAD_TIMEOUT)
    entry = content.locator(".tutor-course-entry").filter(has=page.get_by_text(title, exact=True))
    expect()(entry).to_have_count(1)
    return content, entry.locator(".tutor-course-status")


def test_the_course_page_scores_the_first_try_and_a_second_visit_does_not_change_it(
    host: Host, page: Any
) -> None:
    lang = "en"
    lesson = load_lesson(LESSON)
    questions = lesson.questions()
    total = len(questions)
    host.open(page, f"{LESSON}.ipynb", lang=lang)
    content = host.content(page)
    for number, question in enumerate(questions, start=1):
        quiz = question_titled(content, number, total, lang)
        if number == 1:
            give(quiz, question, wrong_answer(question), lang)
            feedback_of(quiz, right=False)
            quiz.locator(TRY_AGAIN).click()
            expect()(quiz.locator(TRY_AGAIN)).to_be_hidden(timeout=ACTION_TIMEOUT)
        give(quiz, question, question.correct_answer(), lang)
        feedback_of(quiz, right=True)
    score = text("lesson-quiz.score", lang, right=total - 1, total=total)
    expect()(content.locator(".tutor-quiz-summary-status")).to_contain_text(score)

    done = "✓ " + text("course.status-done", lang, right=total - 1, items=total)
    content, status = _course_status(host, page, lang, lesson.title(lang))
    expect()(status).to_have_text(done)
    following = load_lesson(NEXT_LESSON).title(lang)
    resume = content.locator(".tutor-continue")
    expect()(resume).to_contain_text(text("course.continue", lang))
    expect()(resume.locator(".tutor-continue-link")).to_have_text(
        f"{text('course.number', lang, number=2)} {following} →"
    )

    # Back to the lesson: a new page of it, showing the first answers; answered again
    # differently (Answer again: practice).
    host.open(page, f"{LESSON}.ipynb", lang=lang)
    content = host.content(page)
    for number, question in enumerate(questions[:2], start=1):
        quiz = question_titled(content, number, total, lang)
        quiz.locator(ANSWER_AGAIN).click()
        expect()(quiz.locator(FEEDBACK)).to_have_count(0, timeout=ACTION_TIMEOUT)
        right = number == 1
        give(quiz, question, question.correct_answer() if right else wrong_answer(question), lang)
        feedback_of(quiz, right=right)
    content, status = _course_status(host, page, lang, lesson.title(lang))
    expect()(status).to_have_text(done)
