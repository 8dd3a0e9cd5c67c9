"""The command line, ``wizard-tutor`` (``python -m tutor`` is the same): start the app,
open the course in JupyterLab, build it as a static site, start or check a lesson file of
your own, or ask the rules engine.

    wizard-tutor                              # the app on http://127.0.0.1:8866/
    wizard-tutor app --classroom --lang ja    # open to the room, Japanese by default
    wizard-tutor lab                          # the notebooks in JupyterLab (a copy of yours)
    wizard-tutor build-site site/             # the course as a static site (no server)
    wizard-tutor new-lesson my_lessons/12_my_rule.toml   # a starter lesson to change
    wizard-tutor check my_lessons/12_my_rule.toml
    wizard-tutor rule-map                     # the rules' ids, where each is taught and asked
    wizard-tutor app --lessons my_lessons     # the course with your lessons after its own
    wizard-tutor explain "J B5 B11 B7" --trump R
    wizard-tutor legal --hand "B7 R12 G10 W" --played "J B5"

Bad options and bad input exit with status 2 and a message; a lesson file that fails its
check exits with status 1.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from tutor import __version__
from tutor.errors import WizardRuleError
from tutor.rules.cards import parse_cards
from tutor.rules.trick import explain_trick, judge_play, led_suit
from tutor.rules.trump import parse_trump
from tutor.teaching.explain import card_name, describe_play, describe_trick
from tutor.teaching.language import LANGUAGE_VARIABLE, UnknownLanguageError, current_language
from tutor.teaching.lesson import LessonError
from tutor.teaching.lesson_loader import load_lesson_file
from tutor.teaching.lesson_numbers import NumberClash, course_numbers, number_clashes
from tutor.teaching.progress_stores import (
    DEFAULT_PROGRESS_FILE,
    PROGRESS_FILE_VARIABLE,
    PROGRESS_STORE_VARIABLE,
)
from tutor.teaching.text import LANGUAGES, text

PROG = "wizard-tutor"
DEFAULT_COMMAND = "app"
PORT_VARIABLE = "TUTOR_PORT"


class CommandError(Exception):
    """Input the command cannot use; printed as ``error: ...`` with exit status 2."""


# -- the rules engine ------------------------------------------------------------------------


def _explain(args: argparse.Namespace) -> int:
    cards = parse_cards(args.cards)
    why = explain_trick(cards, parse_trump(args.trump))
    players = [f"Card {i + 1} ({card})" for i, card in enumerate(cards)]
    print(f"Winner: card {why.winner + 1}, {why.winning_card} ({card_name(why.winning_card)})")
    print(describe_trick(why, players))
    return 0


def _legal(args: argparse.Namespace) -> int:
    hand = parse_cards(args.hand)
    played = parse_cards(args.played)
    judgements = [judge_play(hand, played, card) for card in hand]
    legal = [j.card for j in judgements if j.legal]
    suit = led_suit(played)
    print(f"Led suit: {suit.colour if suit else 'none'}")
    print("Legal: " + (" ".join(map(str, legal)) or "none"))
    for j in judgements:
        print(f"  {j.card}: {describe_play(j)}")
    return 0


# -- lessons ---------------------------------------------------------------------------------


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


def _check(args: argparse.Namespace) -> int:
    """Check lesson files against the engine; every problem names the file (as it was
    given) and the item. A file numbered like one of the course's lessons or like another
    file of its folder is refused too (the app would refuse to serve it); a text missing
    in a language that the lesson's other texts have is a warning (the lesson works, in
    English on that language's pages)."""
    lang = _messages_language(args)
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


def _new_lesson(args: argparse.Namespace) -> int:
    """Write a teacher's starter lesson; never over an existing file. Its notes and the
    hints printed give the tutor's command as it is typed here (:func:`command_name`)."""
    from tutor.resources import teachers_guide
    from tutor.teaching.lesson_starter import check_new_lesson_name, starter_lesson

    lang = _messages_language(args)
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


def _rule_map(args: argparse.Namespace) -> int:
    """Print docs/rule-map.md: every rule's id, where it is taught and what asks it."""
    from tutor.teaching.rule_coverage import render_rule_map_markdown

    try:
        sys.stdout.write(render_rule_map_markdown())
    except LessonError as error:
        raise CommandError(str(error)) from None
    return 0


# -- the app and JupyterLab ------------------------------------------------------------------


def _messages_language(args: argparse.Namespace) -> str:
    """The language ``--lang`` (or ``$TUTOR_LANG``, else English) names, spelt as the
    tutor spells it; a :class:`CommandError` for one the tutor does not have."""
    given = args.lang is not None
    try:
        return current_language(query="", environ={LANGUAGE_VARIABLE: args.lang} if given else None)
    except UnknownLanguageError as error:
        if not given:
            raise CommandError(str(error)) from None
        known = ", ".join(repr(lang) for lang in LANGUAGES)
        raise CommandError(
            f"--lang {args.lang!r} is not a language of the tutor; known languages: {known}"
        ) from None


def _language(args: argparse.Namespace) -> None:
    """Check ``--lang`` (or ``$TUTOR_LANG``) before anything starts, and pass it on in
    ``$TUTOR_LANG`` to the pages (and the app's messages), spelt as the tutor spells it."""
    lang = _messages_language(args)
    if args.lang is not None or LANGUAGE_VARIABLE in os.environ:
        os.environ[LANGUAGE_VARIABLE] = lang


def _progress_file(args: argparse.Namespace) -> Path | None:
    """``--progress FILE`` as the kernels get it: absolute (a kernel runs in the notebook's
    folder, not where the command was given)."""
    return args.progress.expanduser().resolve() if args.progress is not None else None


def _app(args: argparse.Namespace) -> int:
    from tutor.app.launch import (
        DEFAULT_PORT,
        TOKEN_VARIABLE,
        AppOptions,
        LaunchError,
        restart_without_token_in_environment,
        serve_app,
    )

    _language(args)
    if args.port is None:
        try:
            args.port = _port(os.environ.get(PORT_VARIABLE) or str(DEFAULT_PORT))
        except argparse.ArgumentTypeError as error:
            raise CommandError(f"${PORT_VARIABLE}: {error}") from None
    if args.notebooks is not None and not args.notebooks.is_dir():
        raise CommandError(f"no notebooks folder {str(args.notebooks)!r}")
    if args.new_token and not args.classroom:
        raise CommandError("--new-token is for --classroom (only a classroom app has a token)")
    if args.progress is not None and args.classroom:
        raise CommandError(
            f"--progress {str(args.progress)!r} is for one learner's machine: in a classroom "
            "each learner's browser keeps their own progress (leave out --progress)"
        )
    if os.environ.get(TOKEN_VARIABLE) and args.token_fd is None:
        restart_without_token_in_environment(args.argv)
    options = AppOptions(
        port=args.port,
        classroom=args.classroom,
        notebooks=args.notebooks.resolve() if args.notebooks else None,
        lessons=args.lessons.resolve() if args.lessons else None,
        max_kernels=args.max_kernels,
        kernel_start=args.kernel_start,
        hosts=tuple(args.host),
        token_fd=args.token_fd,
        room_db=args.room_db.expanduser().resolve() if args.room_db else None,
        new_token=args.new_token,
        progress=_progress_file(args),
    )
    try:
        serve_app(options)
    except LaunchError as error:
        raise CommandError(str(error)) from None
    return 0


def _lab(args: argparse.Namespace) -> int:
    from tutor.app.launch import LaunchError, open_lab

    _language(args)
    try:
        open_lab(
            args.dir.expanduser().resolve(),
            port=args.port,
            open_browser=not args.no_browser,
            extra=args.jupyter_args,
            lessons=args.lessons.resolve() if args.lessons else None,
            progress=_progress_file(args),
        )
    except LaunchError as error:
        raise CommandError(str(error)) from None
    return 0  # not reached: JupyterLab replaces this process


def _build_site(args: argparse.Namespace) -> int:
    from tutor.site.build import build_site
    from tutor.site.build_inputs import SiteBuildError, runtime_dir

    try:
        if args.fetch:
            from tutor.site.fetch import fetch_runtime

            fetch_runtime(runtime_dir())
        site = build_site(args.dir)
    except SiteBuildError as error:
        raise CommandError(str(error)) from None
    print(
        f"built the course in {site.folder}: {site.pages} pages, {site.files} files, "
        f"{site.size / 1e6:.1f} MB. Put the folder on any web server; its index.html "
        "opens the course."
    )
    return 0


# -- the parser ------------------------------------------------------------------------------


def _port(value: str) -> int:
    if not value.isdigit() or not 1 <= int(value) <= 65535:
        raise argparse.ArgumentTypeError(f"invalid port {value!r}: give a number from 1 to 65535")
    return int(value)


def _positive(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"invalid number {value!r}: give a whole number >= 1")
    return int(value)


def _language_option(parser: argparse.ArgumentParser, *, of_pages: bool = True) -> None:
    """``--lang``: the default language of the pages served, or of the command's messages
    about lesson numbers and translations."""
    what = "the default language of pages" if of_pages else "the language of the messages"
    after = "; a page's ?lang= still chooses its own" if of_pages else ""
    parser.add_argument(
        "--lang",
        metavar="LANG",
        help=f"{what} ({', '.join(LANGUAGES)}; default ${LANGUAGE_VARIABLE}, else en){after}",
    )


def _lessons_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lessons",
        type=Path,
        metavar="FOLDER",
        help="also show the lessons of this folder (NN_words.toml, each checked by the "
        f"engine first), after the built-in ones; {PROG} new-lesson starts one",
    )


def _progress_option(parser: argparse.ArgumentParser, default: str) -> None:
    parser.add_argument(
        "--progress",
        type=Path,
        metavar="FILE",
        help="keep the learner's progress (every answer, the pages done) in this file, "
        f"made by the first answer (default: {default})",
    )


def _new_lesson_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from tutor.resources import teachers_guide
    from tutor.teaching.lesson_numbers import LAST_LESSON_NUMBER, first_teacher_number

    first = first_teacher_number()
    new_lesson = commands.add_parser(
        "new-lesson",
        help="write a starter lesson file for you to change (a teacher's own lesson)",
        description="Write a new lesson file FILE: a short lesson with notes that say how "
        "to change it, which passes the check as written. The folder is made if it is "
        "missing; an existing file is never written over. Every kind of question, with "
        f"an example of each: the teacher's guide, {teachers_guide()}",
    )
    new_lesson.add_argument(
        "file",
        type=Path,
        metavar="FILE",
        help="the new file, named NN_words.toml and numbered after the course's lessons "
        f"({first:02d} to {LAST_LESSON_NUMBER}; no two alike), e.g. my_lessons/{first:02d}_trumps.toml",
    )
    _language_option(new_lesson, of_pages=False)
    new_lesson.set_defaults(run=_new_lesson)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="The Wizard rules tutor: the course as a web app, in JupyterLab, and "
        "the rules engine on the command line. Without a command it starts the app.",
    )
    parser.add_argument("-V", "--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    app = commands.add_parser(
        "app",
        help="start the tutor as a web app (the default)",
        description="Serve the course as a web app (Voila). Stop it with Ctrl+C.",
    )
    app.add_argument("--port", type=_port, help=f"the port (default ${PORT_VARIABLE}, else 8866)")
    app.add_argument(
        "--classroom",
        action="store_true",
        help="listen on every network address, with a token in the address; prints the "
        "addresses to hand out, and those of the live room (docs/live-room.md)",
    )
    app.add_argument(
        "--room-db",
        type=Path,
        metavar="FILE",
        help="keep the live room's pupils and answers in this SQLite file (default "
        "$TUTOR_ROOM_DB, else ~/.wizard-tutor/live-room.sqlite3); a room used in the last 12 "
        "hours is continued. The classroom token and the teacher's key are kept in it too: a "
        "restart keeps the addresses handed out and everyone signed in",
    )
    app.add_argument(
        "--new-token",
        action="store_true",
        help="with --classroom: make a new classroom token and teacher key (the addresses "
        "handed out before stop working; everyone signs in again), e.g. when one was leaked",
    )
    _language_option(app)
    app.add_argument(
        "--notebooks",
        type=Path,
        metavar="FOLDER",
        help="serve this folder of notebooks instead of the course",
    )
    _lessons_option(app)
    _progress_option(
        app,
        "each pupil's browser keeps their own; a file is for one learner on this machine, "
        f"not with --classroom; ${PROGRESS_STORE_VARIABLE}=file keeps it in the file "
        f"${PROGRESS_FILE_VARIABLE}, else {DEFAULT_PROGRESS_FILE}",
    )
    app.add_argument(
        "--max-kernels",
        type=_positive,
        metavar="N",
        help="most pages open at once (default: half the memory at 64 MiB a page); past "
        "it a page says the tutor is full and tries again by itself",
    )
    app.add_argument(
        "--kernel-start",
        choices=("fork", "plain"),
        default="fork",
        help="how a page's kernel starts: forked from a warm process that has the tutor "
        "imported (default; about a third of the CPU), or as a new Python process (plain)",
    )
    app.add_argument(
        "--host",
        action="append",
        default=[],
        metavar="NAME",
        help="another host name the app may be reached by (e.g. behind a proxy); "
        "repeatable. The app answers only to its own addresses",
    )
    app.add_argument(
        "--token-fd",
        type=int,
        metavar="FD",
        help="read the token from this open file descriptor (how $TUTOR_TOKEN is passed "
        "on, so that it never stays in the server's environment)",
    )
    app.set_defaults(run=_app)

    lab = commands.add_parser(
        "lab",
        help="open the course's notebooks in JupyterLab (your own copy)",
        description="Copy the course's notebooks to FOLDER (keeping the copies already "
        "there) and open them in JupyterLab. Your progress (answers, pages done) is kept "
        f"in {DEFAULT_PROGRESS_FILE}, whatever the FOLDER (--progress FILE for another "
        "file). Works as root too (in a container).",
    )
    lab.add_argument(
        "--dir",
        type=Path,
        default=Path("~/wizard-tutor"),
        metavar="FOLDER",
        help="where your copies of the notebooks are (default ~/wizard-tutor)",
    )
    lab.add_argument("--port", type=_port, default=None, help="JupyterLab's port")
    lab.add_argument("--no-browser", action="store_true", help="do not open a browser")
    _language_option(lab)
    _lessons_option(lab)
    _progress_option(lab, f"${PROGRESS_FILE_VARIABLE}, else {DEFAULT_PROGRESS_FILE}")
    lab.add_argument(
        "jupyter_args",
        nargs="*",
        metavar="JUPYTER_OPTION",
        help="more options for JupyterLab, after --",
    )
    lab.set_defaults(run=_lab)

    site = commands.add_parser(
        "build-site",
        help="build the course as a static site (Python runs in the learner's browser)",
        description="Build the whole course into DIR as a static site: any web server "
        "serves it, with no server process and no kernels; Python runs in each learner's "
        "browser. Offline, once the browser's runtime is fetched (--fetch, or "
        "scripts/setup_site.sh in a checkout).",
    )
    site.add_argument(
        "dir", type=Path, metavar="DIR", help="the folder to build (an earlier site is replaced)"
    )
    site.add_argument(
        "--fetch",
        action="store_true",
        help="first download the browser's runtime (Pyodide from npm: needs npm; the "
        "browser's wheels from PyPI, every hash checked), once per environment",
    )
    site.set_defaults(run=_build_site)

    check = commands.add_parser(
        "check",
        help="check lesson files (TOML) against the rules engine",
        description="Read each lesson file and check every example and quiz answer with "
        "the rules engine, and that its number is its own (not one of the course's lessons', "
        "nor another file's of its folder). A text missing in a language the lesson's other "
        "texts have is a warning. Exit status 1 if a file has a problem.",
    )
    check.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="a lesson file, NN_words.toml, or a folder of them (as app --lessons takes)",
    )
    _language_option(check, of_pages=False)
    check.set_defaults(run=_check)
    _new_lesson_command(commands)

    rule_map = commands.add_parser(
        "rule-map",
        help="list the rules the course teaches: each id, where it is taught, what asks it",
        description="Print the rule map (Markdown, as docs/rule-map.md): every rule of the "
        "course by group, with its id (what a lesson's rules = [...] names), its sentence, "
        "the lesson sections that teach it and the quiz items and practice questions that "
        "ask it.",
    )
    rule_map.set_defaults(run=_rule_map)

    explain = commands.add_parser(
        "explain", help="who takes a trick, and why", description="Who takes a trick, and why."
    )
    explain.add_argument("cards", help='the cards in play order, e.g. "J B5 B11 B7"')
    explain.add_argument("--trump", default=None, help="trump suit letter Y/R/G/B, or none")
    explain.set_defaults(run=_explain)

    legal = commands.add_parser(
        "legal",
        help="which cards of a hand may be played next",
        description="Which cards of a hand may be played next, and why.",
    )
    legal.add_argument("--hand", required=True, help='the hand, e.g. "B7 R12 G10 W"')
    legal.add_argument("--played", default="", help='the trick so far, e.g. "J B5"')
    legal.set_defaults(run=_legal)
    return parser


def _with_default_command(argv: Sequence[str]) -> list[str]:
    """``wizard-tutor`` and ``wizard-tutor --port 9000`` start the app."""
    args = list(argv)
    if not args or (args[0].startswith("-") and args[0] not in ("-h", "--help", "-V", "--version")):
        return [DEFAULT_COMMAND, *args]
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input).

    >>> main(["explain", "J B5 B11 B7", "--trump", "R"])
    Winner: card 3, B11 (blue 11)
    Card 3 (B11) takes the trick with blue 11: nobody played a Wizard or a trump, so the highest blue card wins.
    0
    """
    arguments = _with_default_command(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(arguments)
    args.argv = arguments
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except (WizardRuleError, CommandError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
