"""The teacher's lesson files on the command line: ``wizard-tutor check`` (each file
against the engine), ``wizard-tutor new-lesson`` (a starter to change) and
``wizard-tutor rule-map`` (every rule's id, where it is taught and what asks it)."""

from __future__ import annotations

import argparse
import shlex
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from tutor.cli.command import PROG, CommandError, messages_language
from tutor.teaching.lesson import LessonError
from tutor.teaching.lesson_loader import load_lesson_file
from tutor.teaching.lesson_numbers import NumberClash, course_numbers, number_clashes
from tutor.teaching.text import text


def _lesson_files(name: str) -> list[Path]:
    """The files ``wizard-tutor check NAME`` reads: the file, or a folder's lesson files
    (those ``wizard-tutor app --lessons FOLDER`` would serve)."""
    path = Path(name)
    if not path.is_dir():
        return [path]
    files = sorted(path.glob("*.toml"))
    if not files:
        raise CommandError(f"no lesson files (NN_words.toml) in the folder {name}")
    return files


def command_name(*, script: str | None = None) -> str:
    """How to type the tutor's command here, for the hints the tutor prints: its name
    when the name on ``PATH`` runs this program (an installed tutor, an active virtual
    environment), else the path of the program's script (``script``, default the one
    running, or this Python's ``wizard-tutor`` under ``python -m tutor``), from the
    working folder when it is under it: ``.venv/bin/wizard-tutor`` in a checkout that
    ``scripts/app.sh`` set up.

    >>> command_name(script="/no/such/bin/wizard-tutor") == f"{shlex.quote(sys.executable)} -m tutor"
    True
    """
    running = Path(sys.argv[0] if script is None else script)
    if running.name != PROG:  # python -m tutor, or a test runner
        running = Path(sys.executable).parent / PROG
    if not running.is_file():
        return f"{shlex.quote(sys.executable)} -m tutor"
    found = shutil.which(PROG)
    if found and Path(found).resolve() == running.resolve():
        return PROG
    shown = running.absolute()  # (not resolved: a virtual environment's links stay)
    if shown.is_relative_to(Path.cwd()):
        shown = shown.relative_to(Path.cwd())
    return shlex.quote(str(shown) if len(shown.parts) > 1 else f"./{shown}")


def check_command(args: argparse.Namespace) -> int:
    """Check lesson files against the engine; every problem names the file (as it was
    given) and the item. A file numbered like one of the course's lessons or like another
    file of its folder is refused too (the app would refuse to serve it); a text missing
    in a language that the lesson's other texts have is a warning (the lesson works, in
    English on that language's pages)."""
    lang = messages_language(args)
    files = [file for name in args.files for file in _lesson_files(name)]
    clashes = {clash.path: clash for clash in _number_clashes(files)}
    failed = 0
    for path in files:
        try:
            lesson = load_lesson_file(path, label=str(path))
        except LessonError as error:
            for problem in error.problems:
                print(f"error: {problem}", file=sys.stderr)
            failed += 1
            continue
        except OSError as error:
            print(f"error: {path}: cannot be read ({error.strerror})", file=sys.stderr)
            failed += 1
            continue
        if path in clashes:
            print(f"error: {clashes[path].message(lang)}", file=sys.stderr)
            failed += 1
            continue
        items = sum(len(section.examples) for section in lesson.sections)
        print(
            f"ok: {path}: lesson {lesson.number:02d}, {lesson.title()!r}: "
            f"{len(lesson.sections)} section(s), {items} example(s), "
            f"{len(lesson.quiz)} quiz item(s), every answer agrees with the engine"
        )
        for piece, missing in lesson.translation_gaps():
            language = text(f"lesson-language.{missing}", lang)
            print(
                "warning: "
                + text(
                    "lesson-language.missing-text",
                    lang,
                    place=piece.place,
                    key=piece.key,
                    language=language,
                    lang=missing,
                ),
                file=sys.stderr,
            )
    return 1 if failed else 0


def _number_clashes(files: Sequence[Path]) -> list[NumberClash]:
    """The ``files`` numbered like a lesson of the course or like a lesson before them in
    their folder (the lessons ``app --lessons FOLDER`` serves together, checked or not)."""
    course = course_numbers()
    clashes: list[NumberClash] = []
    for folder in dict.fromkeys(path.parent for path in files):
        served = sorted(
            {*folder.glob("*.toml"), *(file for file in files if file.parent == folder)}
        )
        labels = {path: str(path) for path in served}
        found = number_clashes(served, course=course, labels=labels)
        clashes.extend(clash for clash in found if clash.path in files)
    return clashes


def new_lesson_command(args: argparse.Namespace) -> int:
    """Write a teacher's starter lesson; never over an existing file. Its notes and the
    hints printed give the tutor's command as it is typed here (:func:`command_name`)."""
    from tutor.resources import teachers_guide
    from tutor.teaching.lesson_starter import check_new_lesson_name, starter_lesson

    lang = messages_language(args)
    command = command_name()
    path: Path = args.file
    if path.exists() or path.is_symlink():
        raise CommandError(
            f"{str(path)!r} already exists, and new-lesson never writes over a file: give "
            f"another name, or check the one you have with: {command} check {shlex.quote(str(path))}"
        )
    try:
        check_new_lesson_name(path, lang=lang)
    except LessonError as error:
        raise CommandError(str(error)) from None
    starter = starter_lesson(path, command=command)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = "a file of that name is there" if path.parent.is_file() else error.strerror
        raise CommandError(f"cannot make the folder {str(path.parent)!r}: {reason}") from None
    try:
        with path.open("x", encoding="utf-8") as file:  # "x": never over a file made meanwhile
            file.write(starter)
    except OSError as error:
        raise CommandError(f"cannot write {str(path)!r}: {error.strerror}") from None
    print(f"wrote {path}, a short lesson for you to change (its notes say how)")
    print(f"check it after every change:  {command} check {shlex.quote(str(path))}")
    print(f"show it in the app:           {command} app --lessons {shlex.quote(str(path.parent))}")
    print(f"every kind of question:       {teachers_guide()}")
    return 0


def rule_map_command(args: argparse.Namespace) -> int:
    """Print docs/rule-map.md: every rule's id, where it is taught and what asks it."""
    from tutor.teaching.rule_coverage import render_rule_map_markdown

    try:
        sys.stdout.write(render_rule_map_markdown())
    except LessonError as error:
        raise CommandError(str(error)) from None
    return 0
