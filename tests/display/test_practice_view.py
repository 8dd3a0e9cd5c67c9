"""Practice in a notebook (tutor.display.practice_view): the quiz widget asks the
session's questions, counts the answers in the learner's progress, and resets it."""

from __future__ import annotations

import json
from pathlib import Path

from tutor.display.practice_view import PracticeWidget
from tutor.teaching.practice import PracticeSession
from tutor.teaching.progress import Progress


def test_practice_widget_asks_counts_moves_on_and_resets(progress_in_tmp: Path) -> None:
    session = PracticeSession(seed=8, progress=Progress.load())
    box = PracticeWidget(session)
    first = box.quiz.question
    box.quiz.answer(first.correct_answer())
    assert "1 right, 0 wrong" in box.tally.value
    assert json.loads(progress_in_tmp.read_text())["topics"][first.topic.value]["right"] == 1
    box.quiz.next_button.click()
    assert box.quiz.question is session.question and box.quiz.last_feedback is None
    box.reset_button.click()
    assert not progress_in_tmp.exists() and "No answers yet." in box.tally.value
    assert "Your progress was reset." in box.status.value
