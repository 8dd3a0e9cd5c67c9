"""The command line's words: every command, its options and their help
(``wizard-tutor --help``), each command tied to the function that does its work."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from tutor import __version__
from tutor.cli.command import PROG
from tutor.cli.launch_commands import (
    PORT_VARIABLE,
    app_command,
    build_site_command,
    lab_command,
    port_number,
)
from tutor.cli.lesson_commands import check_command, new_lesson_command, rule_map_command
from tutor.cli.rules_commands import explain_command, legal_command
from tutor.teaching.language import LANGUAGE_VARIABLE
from tutor.teaching.progress_stores import (
    DEFAULT_PROGRESS_FILE,
    PROGRESS_FILE_VARIABLE,
    PROGRESS_STORE_VARIABLE,
)
from tutor.teaching.text import LANGUAGES

DEFAULT_COMMAND = "app"


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


def _add_new_lesson_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    new_lesson.set_defaults(run=new_lesson_command)


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
    app.add_argument(
        "--port", type=port_number, help=f"the port (default ${PORT_VARIABLE}, else 8866)"
    )
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
    app.set_defaults(run=app_command)

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
    lab.add_argument("--port", type=port_number, default=None, help="JupyterLab's port")
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
    lab.set_defaults(run=lab_command)

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
    site.set_defaults(run=build_site_command)

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
    check.set_defaults(run=check_command)
    _add_new_lesson_parser(commands)

    rule_map = commands.add_parser(
        "rule-map",
        help="list the rules the course teaches: each id, where it is taught, what asks it",
        description="Print the rule map (Markdown, as docs/rule-map.md): every rule of the "
        "course by group, with its id (what a lesson's rules = [...] names), its sentence, "
        "the lesson sections that teach it and the quiz items and practice questions that "
        "ask it.",
    )
    rule_map.set_defaults(run=rule_map_command)

    explain = commands.add_parser(
        "explain", help="who takes a trick, and why", description="Who takes a trick, and why."
    )
    explain.add_argument("cards", help='the cards in play order, e.g. "J B5 B11 B7"')
    explain.add_argument("--trump", default=None, help="trump suit letter Y/R/G/B, or none")
    explain.set_defaults(run=explain_command)

    legal = commands.add_parser(
        "legal",
        help="which cards of a hand may be played next",
        description="Which cards of a hand may be played next, and why.",
    )
    legal.add_argument("--hand", required=True, help='the hand, e.g. "B7 R12 G10 W"')
    legal.add_argument("--played", default="", help='the trick so far, e.g. "J B5"')
    legal.set_defaults(run=legal_command)
    return parser


def with_default_command(argv: Sequence[str]) -> list[str]:
    """``wizard-tutor`` and ``wizard-tutor --port 9000`` start the app."""
    args = list(argv)
    if not args or (args[0].startswith("-") and args[0] not in ("-h", "--help", "-V", "--version")):
        return [DEFAULT_COMMAND, *args]
    return args
