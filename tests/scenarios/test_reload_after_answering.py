"""A learner who reloads the page the moment an answer's feedback shows finds the answer
counted: the answer is in the learner's store (the browser's, or Lab's file) no later than
its feedback is on the screen. The reload happens from within the page, in the same turn as
the feedback appears, so the test does not give the store time a learner does not."""

from __future__ import annotations

from typing import Any

from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.text import text

from .hosts import LOAD_TIMEOUT, Host
from .learner import FEEDBACK, expect, give, question_titled

LESSON = "01"
NOTEBOOK = "01_cards_and_rounds.ipynb"


def test_an_answer_is_kept_when_the_page_is_reloaded_as_its_feedback_shows(
    host: Host, page: Any
) -> None:
    lang = "en"
    lesson = load_lesson(LESSON)
    questions = lesson.questions()
    question = questions[0]
    host.open(page, NOTEBOOK, lang=lang)
    content = host.content(page)
    quiz = question_titled(content, 1, len(questions), lang)

    with host.reload_when_shown(page, FEEDBACK):
        give(quiz, question, question.correct_answer(), lang)

    assert host.saved_events(page) == 1, "the answer given before the reload is not kept"
    host.open(page, "index.ipynb", lang=lang)
    started = text("course.status-started", lang, answered=1, items=len(questions))
    expect()(host.content(page)).to_contain_text(started, timeout=LOAD_TIMEOUT)
