"""What a lesson's quiz leaves in the learner's progress, read back the same way by the
tests of the quiz without its widget (test_lesson_quiz_session.py) and with it
(tests/display/test_lesson_quiz.py); their lesson is tests/conftest.py's ``scoring``."""

from __future__ import annotations

from tutor.teaching.progress import Progress
from tutor.teaching.progress_events import AnswerEvent, FinishedEvent


def recorded(progress: Progress) -> list[tuple[str | None, bool, bool]]:
    """The answers in the store: (item, correct, first_try)."""
    return [
        (event.item, event.correct, event.first_try)
        for event in progress.events
        if isinstance(event, AnswerEvent)
    ]


def finished(progress: Progress) -> list[str]:
    """The pages the store has as finished."""
    return [event.page for event in progress.events if isinstance(event, FinishedEvent)]
