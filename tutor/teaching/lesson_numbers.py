"""Lesson numbers: a lesson file's name starts with its number (``12_trumps.toml``), and
the course lists its pages in number order, so no two lessons of a course share a number.

The course's own numbers are those of its lesson files and of its numbered pages (the
play page, ``11_play_a_round.ipynb``, has no lesson file): :func:`course_numbers`. A
teacher's lessons come after them, from :func:`first_teacher_number` to
:data:`LAST_LESSON_NUMBER`. A clash is found as data (:class:`NumberClash`: which file,
which number, whose it is already) and put into words in the reader's language.

>>> lesson_file_number("my_lessons/12_trumps.toml")
12
>>> for clash in number_clashes([Path("mine/12_a.toml"), Path("mine/12_b.toml")]):
...     print(clash.message())
mine/12_b.toml: lesson number 12 is also the number of mine/12_a.toml. No two lessons may share a number: the course lists its lessons in number order. The first free number is 13.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from tutor.resources import builtin_lessons_dir, notebooks_dir
from tutor.teaching.lesson import LessonError, file_label
from tutor.teaching.text import DEFAULT_LANGUAGE, text

LAST_LESSON_NUMBER = 99
"""Two digits: the highest number a lesson file's name can give."""

_LESSON_FILE = re.compile(r"(\d\d)_[a-z0-9_]+\.toml")
_NUMBERED_PAGE = re.compile(r"(\d\d)_\w+\.ipynb")


def lesson_file_number(path: Path | str, *, label: str | None = None) -> int:
    """The lesson number a file's name gives (``12`` for ``12_trumps.toml``), or a
    :class:`LessonError` saying how a lesson file is named (the file need not exist yet;
    messages name it by ``label``, default :func:`file_label`).

    >>> lesson_file_number("Trumps.toml")
    Traceback (most recent call last):
    ...
    tutor.teaching.lesson.LessonError: Trumps.toml: a lesson file is named NN_words.toml (two digits, then lower-case words joined by '_'), e.g. 04_follow_suit.toml
    """
    path = Path(path)
    match = _LESSON_FILE.fullmatch(path.name)
    if match is None:
        raise LessonError(
            f"{file_label(path) if label is None else label}: a lesson file is named "
            "NN_words.toml (two digits, then lower-case words joined by '_'), "
            "e.g. 04_follow_suit.toml"
        )
    return int(match.group(1))


def _file_number(path: Path) -> int | None:
    """The number of a lesson file or a numbered page, or None for any other name."""
    match = _LESSON_FILE.fullmatch(path.name) or _NUMBERED_PAGE.fullmatch(path.name)
    return int(match.group(1)) if match else None


def course_numbers(
    *, notebooks: Path | None = None, lessons: Path | None = None
) -> dict[int, Path]:
    """The course's own lesson numbers, each with its file: the lesson files of
    ``lessons`` (default the built-in ones), and the numbered pages of ``notebooks``
    (default the course's) that have none.

    >>> numbers = course_numbers()
    >>> numbers[6].name, numbers[11].name
    ('06_trick_winner.toml', '11_play_a_round.ipynb')
    """
    pages = notebooks_dir() if notebooks is None else notebooks
    files = builtin_lessons_dir() if lessons is None else lessons
    # A lesson's file, rather than its page, names its number.
    return {
        **numbered_files(sorted(pages.glob("*.ipynb"))),
        **numbered_files(sorted(files.glob("*.toml"))),
    }


def numbered_files(paths: Iterable[Path]) -> dict[int, Path]:
    """The numbers of the lesson files and numbered pages of ``paths``, each with the
    first file that has it (other names are left out).

    >>> numbered_files([Path("12_a.toml"), Path("index.ipynb"), Path("12_b.toml")])
    {12: PosixPath('12_a.toml')}
    """
    numbers: dict[int, Path] = {}
    for path in paths:
        number = _file_number(path)
        if number is not None:
            numbers.setdefault(number, path)
    return numbers


def first_teacher_number(course: Mapping[int, Path] | None = None) -> int:
    """The lowest number a teacher's lesson may have: just after the course's lessons.

    >>> first_teacher_number()
    12
    """
    return max(course_numbers() if course is None else course, default=0) + 1


def first_free_number(used: Iterable[int], course: Mapping[int, Path] | None = None) -> int | None:
    """The lowest number after the ``course``'s (default the tutor's) that neither it nor
    ``used`` has; with an empty ``course`` (``used`` is the whole course), the lowest after
    the highest used. None if every number up to 99 is taken.

    >>> first_free_number([12, 13, 15])
    14
    >>> first_free_number([1, 2, 12, 12], course={})
    13
    """
    course = course_numbers() if course is None else course
    taken = set(used) | set(course)
    start = first_teacher_number(course) if course else max(taken, default=0) + 1
    free = (number for number in range(start, LAST_LESSON_NUMBER + 1) if number not in taken)
    return next(free, None)


def free_number_words(free: int | None, lang: str = DEFAULT_LANGUAGE) -> str:
    """The sentence that suggests the first free number (or says there is none)."""
    if free is None:
        return text("lesson-number.none-free", lang, last=LAST_LESSON_NUMBER)
    return text("lesson-number.first-free", lang, free=f"{free:02d}")


@dataclass(frozen=True, slots=True)
class NumberClash:
    """A lesson file whose number is already another file's (a teacher's, or the
    course's own); ``free`` is the first number nobody has. Messages name the files by
    ``label`` and ``other_label`` (default :func:`file_label`)."""

    path: Path
    number: int
    other: Path
    free: int | None
    label: str = ""
    other_label: str = ""

    def message(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The clash in words: both files, the rule, and the first free number."""
        return text(
            "lesson-number.clash",
            lang,
            file=self.label or file_label(self.path),
            number=f"{self.number:02d}",
            other=self.other_label or file_label(self.other),
            free=free_number_words(self.free, lang),
        )


def number_clashes(
    paths: Iterable[Path],
    *,
    course: Mapping[int, Path] | None = None,
    labels: Mapping[Path, str] | None = None,
) -> list[NumberClash]:
    """The files of ``paths`` (lessons served together) whose number is already taken by
    the ``course`` (its numbers and files, default none: ``paths`` are the whole course)
    or by a file before them in name order. A file with a bad name is left to its own
    check; a course's lesson file given again is no clash with itself. ``labels`` names
    files in messages.

    >>> course = course_numbers()
    >>> clash = number_clashes([Path("mine/11_first.toml")], course=course)[0]
    >>> print(clash.message())
    mine/11_first.toml: lesson number 11 is also the number of notebooks/11_play_a_round.ipynb. No two lessons may share a number: the course lists its lessons in number order. The first free number is 12.
    >>> number_clashes([builtin_lessons_dir() / "06_trick_winner.toml"], course=course)
    []
    """
    course = {} if course is None else course
    numbered = sorted(
        (int(match.group(1)), path)
        for path in paths
        if (match := _LESSON_FILE.fullmatch(path.name))
    )
    owners = dict(course)
    clashes: list[tuple[Path, int, Path]] = []
    for number, path in numbered:
        owner = owners.setdefault(number, path)
        if owner != path and owner.resolve() != path.resolve():
            clashes.append((path, number, owner))
    free = first_free_number((number for number, _ in numbered), course)
    named = labels or {}
    return [
        NumberClash(path, number, other, free, named.get(path, ""), named.get(other, ""))
        for path, number, other in clashes
    ]
