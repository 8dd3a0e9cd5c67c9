"""Lesson files for tests: the one builder, so that a test states only what its file says
(the teaching layer's, the CLI's, the rule map's, the review's)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tutor.teaching.lesson_loader import LessonError, load_lesson_file

TITLED = 'title.en = "T"\nsummary.en = "S"\n'
"""The least a lesson file says: a title and a summary, in English."""


def lesson_file(path: Path, body: str = "", *, titled: bool = True) -> Path:
    """Write ``body`` (dedented) as the lesson file ``path``, after :data:`TITLED` unless
    ``titled`` is False (the body has its own title, or leaves it out on purpose); its
    folder is made if need be. Returns ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text((TITLED if titled else "") + textwrap.dedent(body), encoding="utf-8")
    return path


def refusal(path: Path) -> str:
    """The message the lesson file at ``path`` is refused with (it must be refused)."""
    with pytest.raises(LessonError) as caught:
        load_lesson_file(path)
    return str(caught.value)


REPO = Path(__file__).resolve().parents[1]
COURSE_LESSON = REPO / "lessons" / "06_trick_winner.toml"
"""A lesson of the course (who takes the trick), every kind of item the checks look at."""
TEACHERS_LESSON = REPO / "tests" / "data" / "teachers_lesson.toml"
"""A teacher's own lesson, English only, as ``new-lesson`` and the guide have them write."""
WRONG_WINNER = ('winner = "', 'winner = "Z')
"""A :func:`lesson_copy` change: the first stated winner becomes a player who is none."""
TEACHERS_WRONG_WINNER = ('winner = "C"', 'winner = "D"')
"""A :func:`lesson_copy` change of :data:`TEACHERS_LESSON`: a player who did not win."""


def lesson_copy(
    path: Path, lesson: Path = COURSE_LESSON, *, change: tuple[str, str] | None = None
) -> Path:
    """The lesson file ``lesson`` written as ``path`` (its folder made if need be), its
    first ``change[0]`` replaced by ``change[1]``. Returns ``path``."""
    text = lesson.read_text(encoding="utf-8")
    if change is not None:
        assert change[0] in text, f"{lesson.name} has no {change[0]!r} to change"
        text = text.replace(*change, 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
