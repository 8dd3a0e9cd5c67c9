"""Practice in a notebook (tutor.display.practice_view): the quiz widget asks the
session's questions, records every graded answer in the learner's progress, says where
it is kept, and resets it only after asking."""

from __future__ import annotations

import json
from pathlib import Path

from tutor.display.practice_view import PracticeWidget
from tutor.teaching.practice import PracticeSession
from tutor.teaching.progress import FileStore, Progress
from tutor.teaching.text import text


def test_practice_widget_asks_records_moves_on_and_resets_after_asking(
    progress_in_tmp: Path,
) -> None:
    session = PracticeSession(seed=8, progress=Progress(FileStore()))
    box = PracticeWidget(session)
    first = box.quiz.question
    box.quiz.answer(first.correct_answer())
    assert "1 right, 0 wrong" in box.tally.value
    (line,) = progress_in_tmp.read_text().splitlines()
    assert json.loads(line)["kind"] == "practice" and json.loads(line)["topic"] == first.topic.value
    assert str(progress_in_tmp) in box.where.value
    box.quiz.next_button.click()
    assert box.quiz.question is session.question and box.quiz.last_feedback is None
    box.reset.button.click()
    assert len(progress_in_tmp.read_text().splitlines()) == 1  # asked, not done yet
    box.reset.keep_button.click()
    assert "1 right, 0 wrong" in box.tally.value
    box.reset.button.click()
    box.reset.confirm_button.click()
    assert json.loads(progress_in_tmp.read_text().splitlines()[-1])["kind"] == "reset"
    assert "No answers yet." in box.tally.value
    assert text("progress.reset-done") in box.reset.status.value


def test_two_practice_pages_of_one_learner_both_count(progress_in_tmp: Path) -> None:
    pages = [
        PracticeWidget(PracticeSession(seed=seed, progress=Progress(FileStore())))
        for seed in (1, 2)
    ]
    for box in pages:
        box.quiz.answer(box.quiz.question.correct_answer())
    assert len(progress_in_tmp.read_text().splitlines()) == 2
    later = PracticeWidget(PracticeSession(seed=3, progress=Progress(FileStore())))
    assert sum(count.right for _, count in later.session.progress) == 2
