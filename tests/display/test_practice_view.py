"""Practice in a notebook (tutor.display.practice_view): the quiz widget asks the
session's questions, records every graded answer in the learner's progress, says where
it is kept, and resets it only after asking."""

from __future__ import annotations

import json
from pathlib import Path

from tutor.display.practice_view import PracticeWidget
from tutor.teaching.practice import PracticeSession
from tutor.teaching.progress import Progress
from tutor.teaching.progress_stores import FileStore
from tutor.teaching.quiz import (
    AnswerKind,
    BidsMetQuestion,
    GameWinnersQuestion,
    NextLeaderQuestion,
    Question,
    RoundTricksQuestion,
    ScoreTotalQuestion,
    Topic,
)
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


def wrong_answer(question: Question) -> object:
    """An answer the engine grades wrong, of the right shape for the question."""
    right = question.correct_answer()
    if question.answer_kind is AnswerKind.NUMBER:
        assert isinstance(right, int)
        return right + 10
    if question.answer_kind is AnswerKind.ONE_CHOICE:
        return next(choice for choice in question.choices() if choice != right)
    assert isinstance(right, frozenset)
    return right ^ {question.choices()[0]}


NEW_KINDS = {
    Topic.NEXT_LEADER: (NextLeaderQuestion,),
    Topic.ROUND_PLAYED: (RoundTricksQuestion, BidsMetQuestion),
    Topic.SCORE_SHEET: (ScoreTotalQuestion, GameWinnersQuestion),
}


def test_the_practice_widget_asks_grades_and_counts_the_new_kinds(progress_in_tmp: Path) -> None:
    """Next until each new kind has come up: a wrong first answer gets the hint (not the
    answer), a right one the engine's answer; the tally counts it under its topic."""
    session = PracticeSession(seed=4, progress=Progress(FileStore()))
    box = PracticeWidget(session)
    wanted = {kind for kinds in NEW_KINDS.values() for kind in kinds}
    for _ in range(400):
        question = box.quiz.question
        if type(question) in wanted:
            wanted.discard(type(question))
            wrong = box.quiz.answer(wrong_answer(question))
            assert not wrong.correct and not wrong.revealed
            assert wrong.explanation == question.hint() and not wrong.answer
            box.quiz.try_again()
            assert box.quiz.answer(question.correct_answer()).correct
            words = text(f"practice-topic.{question.topic.value}")
            assert f"{words}: " in box.tally.value
        if not wanted:
            break
        box.quiz.next_button.click()
    assert not wanted, f"never asked: {wanted}"
    topics = {json.loads(line)["topic"] for line in progress_in_tmp.read_text().splitlines()}
    assert topics == {topic.value for topic in NEW_KINDS}
