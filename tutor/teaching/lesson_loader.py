"""Lessons: the teaching content of ``lessons/*.toml``, loaded and checked against the engine.

A lesson file holds texts and items. Every text is a table of languages
(``title.en = "..."``; ``ja`` and ``zh-Hant`` come later), so a completeness check can ask
each text for each language (:meth:`Lesson.missing_texts`). Items are examples (shown with
their answer) and quiz items (asked). Each item states a fact in card notation, e.g. the
winner of a trick, and the loader checks it against the engine: a stated winner, legal
set, score or trump that disagrees with the engine is refused with a :class:`LessonError`
naming the file, the item and the problem. The explanations a learner reads come from the
engine's reasons (:mod:`tutor.teaching.explain`, :mod:`tutor.teaching.quiz`), never from
the lesson file. The format is described in ``lessons/README.md``; what a lesson is once
read, in :mod:`tutor.teaching.lesson`.

>>> lesson = load_lesson("06_trick_winner")
>>> lesson.title()
'Who takes the trick'
>>> print(lesson.item("source-wizard-first"))
No trump. Cards in the order played: A Wizard, B red 13, C Wizard, D Jester.
A takes the trick with the first Wizard; later Wizards never beat it.

Each kind of item (who takes the trick, legal plays, score, trump, the schedule of rounds, the
dealer, the bidding order, legal bids, the bidding variants, and the facts) is read by its own
module of :mod:`tutor.teaching.kinds`, found by its name in :data:`~tutor.teaching.kinds.ITEM_KINDS`. Showing a lesson in a notebook is the display layer's
job (:func:`tutor.display.show_lesson`); loading and checking one needs no screen.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tutor.resources import LESSONS_DIR_VARIABLE, lessons_dir  # lesson_paths() default
from tutor.teaching.kinds import ITEM_KINDS
from tutor.teaching.lesson import (
    ItemRole,
    Lesson,
    LessonError,
    LessonItem,
    Section,
    file_label,
)
from tutor.teaching.lesson_numbers import lesson_file_number, number_clashes
from tutor.teaching.lesson_reader import TableReader
from tutor.teaching.rule_map import read_rule_ids

_ITEM_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


# -- reading lesson files ----------------------------------------------------------------


_COMMON_KEYS = ("id", "kind", "note", "rules")


def item_kinds(*, quiz: bool = False) -> list[str]:
    """The kinds of item a lesson file may hold (``quiz=True``: those a quiz may ask).

    >>> item_kinds(quiz=True)[:4]
    ['trick-winner', 'legal-plays', 'score', 'trump']
    """
    return [name for name, kind in ITEM_KINDS.items() if kind.asks or not quiz]


def _parse_item(
    data: object, label: str, role: ItemRole, number: int, seen: dict[str, str]
) -> LessonItem:
    r = TableReader(data, f"{label}, {role.value} #{number}")
    item_id = r.string("id")
    if not _ITEM_ID.fullmatch(item_id):
        raise r.fail(f"id {item_id!r} must be lower-case words joined by '-', e.g. 'wizard-lead'")
    if item_id in seen:
        raise r.fail(f"id {item_id!r} is used twice (already by {seen[item_id]})")
    r.place = f"{label}, {role.value} {item_id!r}"
    seen[item_id] = f"{role.value} {item_id!r}"
    kind_name = r.string("kind")
    if kind_name not in ITEM_KINDS:
        raise r.fail(f"unknown kind {kind_name!r}; known: " + ", ".join(ITEM_KINDS))
    kind = ITEM_KINDS[kind_name]
    if role is ItemRole.QUIZ and not kind.asks:
        raise r.fail(
            f"a {kind_name!r} item states a fact and asks nothing: make it an example; "
            "quiz kinds: " + ", ".join(item_kinds(quiz=True))
        )
    r.check_keys(_COMMON_KEYS + kind.keys, f"{kind_name} item")
    subject = kind.read(r)
    return LessonItem(
        id=item_id,
        kind=kind_name,
        role=role,
        subject=subject,
        note=r.optional_text("note"),
        where=r.place,
        rules=read_rule_ids(r),
    )


# -- the limits of a lesson file -------------------------------------------------------------
# Python's TOML reader recurses once per nested array or inline table (500 of them in a 1 KB
# file end in a RecursionError) and spends quadratic time and memory on a long dotted key
# (50,000 parts: 35 s and 9.8 GB). A lesson needs none of that, so the file's shape is
# scanned, in linear time, before it is parsed.

MAX_LESSON_BYTES = 256_000
"""The largest lesson file read, in bytes (the course's largest has 9.3 KB; a file of
256 KB of the costliest shape takes a second or two to refuse)."""

MAX_NESTING = 16
"""The deepest nesting of arrays and inline tables (the course's lessons use 2)."""

MAX_KEY_PARTS = 8
"""The most parts of a dotted key (``title.en`` has 2)."""

MAX_NUMBER_CHARACTERS = 30
"""The longest number (a lesson's numbers are points, bids and counts)."""

MAX_REPORTED_PROBLEMS = 50
"""A file's problems reported at once; past it, how many more there are."""

_TOML_TOKEN = re.compile(
    r"""
      (?P<string>
          \"\"\"(?:[^"\\]|\\.|"{1,2}(?!"))*(?:"{3,5}|\Z)   # multi-line basic string
        | '''(?:[^']|'{1,2}(?!'))*(?:'{3,5}|\Z)           # multi-line literal string
        | "(?:[^"\\\n]|\\[^\n])*"?                       # basic string (ends at the line)
        | '[^'\n]*'?                                     # literal string
        | \#[^\n]*                                       # comment
      )
    | (?P<open>[\[{]) | (?P<close>[\]}]) | (?P<comma>,) | (?P<equals>=) | (?P<dot>\.)
    | (?P<newline>\n) | (?P<number>[0-9][0-9A-Za-z_]*)
    """,
    re.VERBOSE | re.DOTALL,
)


def _shape_problem(source: str) -> str | None:
    """What makes ``source`` too deeply nested, too long-keyed or too big-numbered for a
    lesson file, or None. Strings and comments are skipped; where a string ends is only
    ever misjudged in a file the parser refuses anyway.

    >>> _shape_problem("a = " + "[" * 40 + "]" * 40)
    'arrays and tables nested more than 16 deep (line 1); a lesson file nests at most 16'
    >>> _shape_problem('title.en = "[[[[.[[[[[[[[[[[[[[[[[."') is None
    True
    """
    openers: list[str] = []
    in_key = True  # at a key: a statement's start, a [table] header, an inline table's key
    in_header = False
    parts = 1

    def line(token: re.Match[str]) -> int:
        return source.count("\n", 0, token.start()) + 1

    for token in _TOML_TOKEN.finditer(source):
        kind, value = token.lastgroup, token.group()
        if kind == "open":
            if value == "[" and in_key and not openers:
                in_header = True  # [table] or [[array of tables]]: its name is a key
                continue
            openers.append(value)
            if len(openers) > MAX_NESTING:
                return (
                    f"arrays and tables nested more than {MAX_NESTING} deep (line "
                    f"{line(token)}); a lesson file nests at most {MAX_NESTING}"
                )
            in_key, parts = value == "{", 1
        elif kind == "close":
            if openers:
                openers.pop()
                in_key = False
        elif kind == "comma":
            if openers and openers[-1] == "{":
                in_key, parts = True, 1
        elif kind == "equals":
            in_key = False
        elif kind == "newline":
            if not openers:
                in_key, in_header, parts = True, False, 1
        elif kind == "dot" and (in_key or in_header):
            parts += 1
            if parts > MAX_KEY_PARTS:
                return (
                    f"a dotted key of more than {MAX_KEY_PARTS} parts (line {line(token)}); "
                    f"a lesson's keys have at most {MAX_KEY_PARTS}, like title.en"
                )
        elif kind == "number" and not in_key and len(value) > MAX_NUMBER_CHARACTERS:
            return (
                f"a number of {len(value)} characters ({value[:10]}...) on line "
                f"{line(token)}; a lesson's numbers have at most {MAX_NUMBER_CHARACTERS}"
            )
    return None


def _lesson_source(path: Path, label: str) -> str:
    """The text of the lesson file at ``path``; a :class:`LessonError` if it is missing, a
    folder, too big, not UTF-8 or of a shape no lesson has. A UTF-8 byte-order mark
    (Windows Notepad writes one) is fine."""
    if path.is_dir():
        raise LessonError(
            f"{label}: is a folder, not a lesson file (give the folder alone to check "
            "every lesson in it)"
        )
    if path.exists() and not path.is_file():  # a pipe or a device: opening it could wait forever
        raise LessonError(f"{label}: not a regular file")
    try:
        with path.open("rb") as file:
            data = file.read(MAX_LESSON_BYTES + 1)
    except FileNotFoundError:
        raise LessonError(f"{label}: no such lesson file") from None
    if len(data) > MAX_LESSON_BYTES:
        raise LessonError(
            f"{label}: larger than {MAX_LESSON_BYTES:,} bytes, the most a lesson file may have"
        )
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise LessonError(f"{label}: saved as UTF-16 text; save the lesson file as UTF-8")
    try:
        source = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LessonError(
            f"{label}: not UTF-8 text (byte 0x{data[error.start]:02x} at position "
            f"{error.start}); save the lesson file as UTF-8"
        ) from None
    problem = _shape_problem(source)
    if problem is not None:
        raise LessonError(f"{label}: {problem}")
    return source


def _parse_toml(source: str, label: str) -> dict[str, Any]:
    try:
        return tomllib.loads(source)
    except RecursionError:  # _shape_problem refuses such files first; a second fence
        raise LessonError(f"{label}: arrays and tables nested too deeply") from None
    except ValueError as error:  # TOMLDecodeError, or a value Python will not convert
        raise LessonError(f"{label}: not valid TOML: {error}") from None


def _capped(problems: list[str]) -> list[str]:
    if len(problems) <= MAX_REPORTED_PROBLEMS:
        return problems
    more = len(problems) - MAX_REPORTED_PROBLEMS
    return [*problems[:MAX_REPORTED_PROBLEMS], f"... and {more} more problems"]


def load_lesson_file(path: Path | str, *, label: str | None = None) -> Lesson:
    """Read one lesson file and check every item with the engine.

    Raises :class:`LessonError` naming the file, the item and the problem, for every
    problem of the file at once (one per text, section and item). Messages name the file
    by ``label`` (default :func:`file_label`: its folder and name).

    Each version of a file (its size and modification time) is read once per process (a
    lesson is a value: frozen all through): a lesson page lists every lesson for its
    navigation, 14 ms each time, and the app's kernels, forked from a process that read
    them (tutor/app/forked_kernels.py), read none.
    """
    path = Path(path)
    label = file_label(path) if label is None else label
    try:
        stat = path.stat()
    except OSError:  # missing: _read_lesson_file says so in its words
        return _read_lesson_file(path, label)
    return _lesson_version(str(path), stat.st_mtime_ns, stat.st_size, label)


@functools.lru_cache(maxsize=256)
def _lesson_version(path: str, mtime_ns: int, size: int, label: str) -> Lesson:
    return _read_lesson_file(Path(path), label)


def _read_lesson_file(path: Path, label: str) -> Lesson:
    source = _lesson_source(path, label)  # (a folder is refused for being one)
    lesson_number = lesson_file_number(path, label=label)
    raw = _parse_toml(source, label)
    problems: list[str] = []

    def collect(read: Callable[[], Any]) -> Any:
        """``read()``, or None with its problems noted: the file is read to its end."""
        try:
            return read()
        except LessonError as error:
            problems.extend(error.problems)
            return None

    top = TableReader(raw, label)
    collect(lambda: top.check_keys(("title", "summary", "section", "quiz"), "lesson file"))
    title, summary = collect(lambda: top.text("title")), collect(lambda: top.text("summary"))
    seen: dict[str, str] = {}
    section_ids: set[str] = set()

    def read_section(number: int, data: object) -> Section:
        r = TableReader(data, f"{label}, section #{number}")
        section_id = r.string("id")
        if not _ITEM_ID.fullmatch(section_id) or section_id in section_ids:
            raise r.fail(
                f"section id {section_id!r} must be unique, lower-case words joined by '-'"
            )
        section_ids.add(section_id)
        r.place = f"{label}, section {section_id!r}"
        r.check_keys(("id", "heading", "text", "example", "rules"), "section")
        examples = [
            collect(lambda: _parse_item(table, label, ItemRole.EXAMPLE, index, seen))  # noqa: B023
            for index, table in enumerate(r.tables("example"), start=1)
        ]
        return Section(
            section_id, r.text("heading"), r.text("text"), tuple(examples), read_rule_ids(r)
        )

    sections = [
        collect(lambda: read_section(number, data))  # noqa: B023 (called at once)
        for number, data in enumerate(collect(lambda: top.tables("section")) or (), start=1)
    ]
    quiz = [
        collect(lambda: _parse_item(table, label, ItemRole.QUIZ, index, seen))  # noqa: B023
        for index, table in enumerate(collect(lambda: top.tables("quiz")) or (), start=1)
    ]
    if problems:
        raise LessonError(*_capped(problems))
    return Lesson(
        id=path.stem,
        number=lesson_number,
        path=path,
        title=title,
        summary=summary,
        sections=tuple(sections),
        quiz=tuple(quiz),
    )


def lesson_paths(folder: Path | str | None = None) -> list[Path]:
    """The lesson files of ``folder`` (default :func:`lessons_dir`), in course order.

    >>> [path.name for path in lesson_paths()][:2]
    ['01_cards_and_rounds.toml', '02_trump.toml']
    """
    where = Path(folder) if folder is not None else lessons_dir()
    if not where.is_dir():
        raise LessonError(
            f"no lessons folder at {where}: pass folder=, or set {LESSONS_DIR_VARIABLE}"
        )
    return sorted(path for path in where.glob("*.toml") if path.is_file())


def list_lessons(folder: Path | str | None = None) -> list[Lesson]:
    """Every lesson, in order, each read and checked by the engine.

    >>> [(lesson.number, lesson.title()) for lesson in list_lessons()][:2]
    [(1, 'Cards, rounds and tricks'), (2, 'Trump')]
    """
    paths = lesson_paths(folder)
    clashes = number_clashes(paths)
    if clashes:
        raise LessonError(*(clash.message() for clash in clashes))
    return [load_lesson_file(path) for path in paths]


def load_lesson(name: str | Path, *, folder: Path | str | None = None) -> Lesson:
    """The lesson called ``name`` (``"04_follow_suit"``, or just ``"04"``), or a file path.

    >>> load_lesson("04").id
    '04_follow_suit'
    >>> load_lesson("99_nothing")
    Traceback (most recent call last):
    ...
    tutor.teaching.lesson.LessonError: unknown lesson '99_nothing'; lessons: 01_cards_and_rounds, ...
    """
    if isinstance(name, Path) or name.endswith(".toml"):
        return load_lesson_file(name)
    paths = lesson_paths(folder)
    for path in paths:
        if name in (path.stem, path.stem[:2]):
            return load_lesson_file(path)
    raise LessonError(
        f"unknown lesson {name!r}; lessons: " + ", ".join(path.stem for path in paths)
    )
