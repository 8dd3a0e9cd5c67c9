"""The teacher's guide (docs/teachers-guide.md) cannot drift from the tutor: every lesson
it shows is read and checked by the engine, every kind of item has an example in it, the
mistake it shows is refused, and the commands whose output it shows print that output.

The guide's ```toml blocks are a whole lesson (they have a title) or a piece of one (a
question or an example), which is read inside the guide's first lesson, as a teacher
would paste it there. A ```toml mistake block is a piece the check must refuse. A
```console block shows commands (``$ wizard-tutor ...``) and lines of their output; each
command runs in an empty folder, a ``check`` on the lesson the guide showed last."""

from __future__ import annotations

import re
import shlex
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from tutor.cli import main
from tutor.cli.command import PROG
from tutor.cli.parser import build_parser
from tutor.display.course import course_entry
from tutor.teaching.lesson import Lesson, LessonError
from tutor.teaching.lesson_loader import item_kinds, load_lesson_file
from tutor.teaching.lesson_numbers import course_numbers, first_teacher_number

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "teachers-guide.md"
FENCE = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```$", re.MULTILINE | re.DOTALL)
GUIDE_FILE = "mylessons/12_trumps.toml"


@dataclass(frozen=True)
class Block:
    info: str
    body: str
    line: int

    @property
    def whole(self) -> bool:
        return "title" in tomllib.loads(self.body)


def blocks(info: str) -> list[Block]:
    guide = GUIDE.read_text(encoding="utf-8")
    return [
        Block(m["info"].strip(), m["body"], guide.count("\n", 0, m.start()) + 1)
        for m in FENCE.finditer(guide)
        if m["info"].strip() == info
    ]


def lesson_text(block: Block, first: Block) -> str:
    """The lesson file a block gives: itself, or the first lesson with the piece added."""
    return block.body if block.whole else first.body + "\n" + block.body


def load(text: str, folder: Path) -> Lesson:
    path = folder / Path(GUIDE_FILE).name
    path.write_text(text, encoding="utf-8")
    return load_lesson_file(path)


def test_the_guide_has_a_whole_lesson_first() -> None:
    first = blocks("toml")[0]
    assert first.whole


@pytest.mark.parametrize("block", blocks("toml"), ids=lambda block: f"line-{block.line}")
def test_every_lesson_of_the_guide_passes_the_engines_check(block: Block, tmp_path: Path) -> None:
    lesson = load(lesson_text(block, blocks("toml")[0]), tmp_path)
    assert lesson.sections


def test_the_guide_shows_every_kind_of_item_as_it_may_be_used() -> None:
    """A question kind as a quiz question, a fact kind as an example: a kind added to the
    loader without an example in the guide fails here."""
    shown: dict[str, set[str]] = {}
    for block in blocks("toml"):
        data = tomllib.loads(block.body)
        sections = data.get("section", [])
        for section in sections if isinstance(sections, list) else [sections]:
            for table in section.get("example", []):
                shown.setdefault(table["kind"], set()).add("example")
        for table in data.get("quiz", []):
            shown.setdefault(table["kind"], set()).add("quiz")
    for kind in item_kinds():
        assert kind in shown, f"the guide has no example of {kind!r}"
        expected = "quiz" if kind in item_kinds(quiz=True) else "example"
        assert expected in shown[kind], f"the guide shows {kind!r} only as {shown[kind]}"


def test_the_guides_mistakes_are_refused(tmp_path: Path) -> None:
    mistakes = blocks("toml mistake")
    assert mistakes
    for block in mistakes:
        with pytest.raises(LessonError):
            load(lesson_text(block, blocks("toml")[0]), tmp_path)


def test_the_guides_lessons_are_shown_in_the_languages_the_guide_says(tmp_path: Path) -> None:
    """A lesson with every text in Japanese is shown in Japanese; the English-only one,
    in English on a Japanese page."""
    whole = [block for block in blocks("toml") if block.whole]
    shown = {
        block.line: {
            lang: load(block.body, tmp_path).shown_language(lang) for lang in ("ja", "zh-Hant")
        }
        for block in whole
    }
    assert shown[whole[0].line] == {"ja": "en", "zh-Hant": "en"}  # English only
    assert {"ja": "ja", "zh-Hant": "zh-Hant"} in shown.values()


def test_the_guides_numbering_rule_is_the_tutors() -> None:
    """The numbers the guide gives are the course's: its last lesson named by its title."""
    guide = " ".join(GUIDE.read_text(encoding="utf-8").split())
    first = first_teacher_number()
    last = course_numbers()[first - 1]  # the play page: a lesson with no lesson file
    title = course_entry(last, {}).title
    assert f"**Number your lessons from {first} to 99.**" in guide
    assert (
        f'The course\'s own lessons are 01 to {first - 1:02d} (lesson {first - 1}, "{title}", is a '
        "game and has no lesson file)"
    ) in guide
    assert (
        f"A lesson numbered 01 to {first - 1:02d}, or like another of your lessons, is refused"
        in guide
    )


def test_the_guide_says_how_a_checkouts_tutor_is_typed() -> None:
    """scripts/app.sh runs .venv/bin/wizard-tutor, which is not on PATH."""
    guide = " ".join(GUIDE.read_text(encoding="utf-8").split())
    app_script = (GUIDE.parents[1] / "scripts" / "app.sh").read_text(encoding="utf-8")
    assert f"exec .venv/bin/{PROG} app" in app_script
    assert (
        f"If you started the tutor with `bash scripts/app.sh` in a copy of its source folder, "
        f"the command is not `{PROG}` but `.venv/bin/{PROG}`"
    ) in guide


def _previous_lesson(console: Block) -> str:
    """The lesson file the guide showed last before ``console``."""
    first = blocks("toml")[0]
    before = [
        block for block in (*blocks("toml"), *blocks("toml mistake")) if block.line < console.line
    ]
    return lesson_text(max(before, key=lambda block: block.line), first)


@pytest.mark.parametrize("console", blocks("console"), ids=lambda block: f"line-{block.line}")
def test_the_guide_shows_what_the_commands_print(
    console: Block,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    # The guide shows the command on PATH (tests/test_new_lesson.py: the command of a checkout).
    monkeypatch.setattr("tutor.cli.lesson_commands.command_name", lambda: PROG)
    runs: list[tuple[list[str], list[str]]] = []
    for line in console.body.splitlines():
        if line.startswith("$ "):
            runs.append((shlex.split(line[2:]), []))
        else:
            runs[-1][1].append(line)
    for command, shown in runs:
        assert command[0] == "wizard-tutor" and command[1] in ("new-lesson", "check"), command
        if command[1] == "check":
            (tmp_path / GUIDE_FILE).parent.mkdir(exist_ok=True)
            (tmp_path / GUIDE_FILE).write_text(_previous_lesson(console), encoding="utf-8")
        main(command[1:])
        captured = capsys.readouterr()
        printed = (captured.out + captured.err).splitlines()
        for expected in shown:
            assert expected in printed


@pytest.mark.parametrize("block", blocks("bash"), ids=lambda block: f"line-{block.line}")
def test_the_commands_the_guide_names_are_the_tutors(block: Block) -> None:
    """A command the guide tells a teacher to type (and does not run here) parses."""
    for line in block.body.splitlines():
        assert line.startswith("wizard-tutor "), line
        build_parser().parse_args(shlex.split(line)[1:])


def test_the_guides_warning_of_a_missing_translation_is_the_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The guide quotes the start of the warning for its translated lesson without note.ja."""
    guide = " ".join(GUIDE.read_text(encoding="utf-8").split())
    quoted = re.search(r"e\.g\. `(warning: [^`]*), \.\.\.`", guide)
    assert quoted is not None
    translated = next(block for block in blocks("toml") if "note.ja" in block.body)
    monkeypatch.chdir(tmp_path)
    (tmp_path / GUIDE_FILE).parent.mkdir()
    (tmp_path / GUIDE_FILE).write_text(
        re.sub(r"^note\.ja = .*\n", "", translated.body, flags=re.MULTILINE), encoding="utf-8"
    )
    assert main(["check", GUIDE_FILE]) == 0
    assert capsys.readouterr().err.startswith(quoted[1] + ", though other texts")
