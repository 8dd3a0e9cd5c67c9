"""``wizard-tutor new-lesson FILE``: a teacher's starter lesson, which passes the check as
written; an existing file is never written over, and a bad name or number is refused with
the rule, before anything is made."""

from __future__ import annotations

import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.cli import main
from tutor.cli.command import PROG
from tutor.cli.lesson_commands import command_name
from tutor.resources import teachers_guide
from tutor.teaching.lesson_loader import load_lesson_file
from tutor.teaching.lesson_numbers import course_numbers, first_teacher_number

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(
        "tutor.cli.lesson_commands.command_name", lambda: PROG
    )  # on PATH: tested below
    return tmp_path


def test_new_lesson_writes_a_starter_that_passes_the_check_as_written(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new-lesson", "mylessons/12_trumps.toml"]) == 0  # the folder is made
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "wrote mylessons/12_trumps.toml, a short lesson for you to change (its notes say how)"
    )
    assert "wizard-tutor check mylessons/12_trumps.toml" in out[1]
    assert "wizard-tutor app --lessons mylessons" in out[2]
    assert out[3].endswith(str(teachers_guide()))

    assert main(["check", "mylessons/12_trumps.toml"]) == 0
    assert capsys.readouterr().out.startswith(
        "ok: mylessons/12_trumps.toml: lesson 12, 'Trumps': 1 section(s), 1 example(s), "
        "1 quiz item(s)"
    )
    lesson = load_lesson_file(in_tmp / "mylessons" / "12_trumps.toml")
    assert [item.kind for item in (*lesson.examples, *lesson.quiz)] == ["trick-winner"] * 2
    # The notes name this file's commands and the guide, which is there to read.
    source = (in_tmp / "mylessons" / "12_trumps.toml").read_text(encoding="utf-8")
    for command in (
        "wizard-tutor check mylessons/12_trumps.toml",
        "wizard-tutor app --lessons mylessons",
        "wizard-tutor lab --lessons mylessons",
    ):
        assert command in source
    assert str(teachers_guide()) in source and teachers_guide().is_file()
    assert "numbered 12 to 99" in source


def test_the_starters_title_is_the_words_of_its_name(in_tmp: Path) -> None:
    assert main(["new-lesson", "12_follow_the_leader.toml"]) == 0  # in this folder
    assert load_lesson_file(in_tmp / "12_follow_the_leader.toml").title() == "Follow the leader"


def test_new_lesson_as_a_process(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tutor", "new-lesson", "lessons of 3B/15_our_club_rules.toml"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    written = tmp_path / "lessons of 3B" / "15_our_club_rules.toml"
    assert load_lesson_file(written).title() == "Our club rules"


def test_new_lesson_never_writes_over_a_file(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = in_tmp / "12_trumps.toml"
    mine.write_text("my work", encoding="utf-8")
    assert main(["new-lesson", "12_trumps.toml"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "error: '12_trumps.toml' already exists, and new-lesson never writes over a file"
    )
    assert "wizard-tutor check 12_trumps.toml" in err
    assert mine.read_text(encoding="utf-8") == "my work"
    (in_tmp / "13_a_folder.toml").mkdir()
    assert main(["new-lesson", "13_a_folder.toml"]) == 2
    assert "'13_a_folder.toml' already exists" in capsys.readouterr().err


@pytest.mark.parametrize(
    "name", ["trumps.toml", "12-trumps.toml", "12_Trumps.toml", "5_trumps.toml", "12_trumps.txt"]
)
def test_new_lesson_refuses_a_bad_name_with_the_naming_rule(
    name: str, in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new-lesson", f"mylessons/{name}"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"error: mylessons/{name}: a lesson file is named NN_words.toml (two digits, then "
        "lower-case words joined by '_'), e.g. 04_follow_suit.toml\n"
    )
    assert list(in_tmp.iterdir()) == []  # not even the folder


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("04_trumps.toml", "04 is the number of the course's lesson 04_follow_suit. "),
        ("10_more_variants.toml", "10 is the number of the course's lesson 10_variants. "),
        # The play page has no lesson file, and is a lesson of the course all the same.
        ("11_first.toml", "11 is the number of the course's lesson 11_play_a_round. "),
        ("11_play_a_round.toml", "11 is the number of the course's lesson 11_play_a_round. "),
        ("00_first.toml", "00 comes before the course's lessons. "),
    ],
)
def test_new_lesson_refuses_a_number_of_the_courses_lessons_with_the_numbering_rule(
    name: str, fragment: str, in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new-lesson", f"mylessons/{name}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: mylessons/{name}: {fragment}")
    assert (
        "Number your own lessons from 12 to 99: 01 to 11 are the course's lessons, and the "
        "course lists lessons in number order. The first free number is 12. For example: "
        f"mylessons/12_{name[3:]}\n"
    ) in err
    assert list(in_tmp.iterdir()) == []


def test_the_courses_last_lesson_is_the_play_page_numbered_11() -> None:
    """What the numbering rule above is made of: the course's numbered pages."""
    assert sorted(course_numbers()) == list(range(1, 12))
    assert course_numbers()[11] == ROOT / "notebooks" / "11_play_a_round.ipynb"
    assert first_teacher_number() == 12


def test_new_lesson_refuses_the_number_of_another_lesson_of_its_folder(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new-lesson", "mylessons/12_trumps.toml"]) == 0
    assert main(["new-lesson", "mylessons/13_jesters.toml"]) == 0
    capsys.readouterr()
    assert main(["new-lesson", "mylessons/12_wizards.toml"]) == 2
    assert capsys.readouterr().err == (
        "error: mylessons/12_wizards.toml: lesson number 12 is also the number of "
        "mylessons/12_trumps.toml. No two lessons may share a number: the course lists its "
        "lessons in number order. The first free number is 14.\n"
    )
    assert not (in_tmp / "mylessons" / "12_wizards.toml").exists()


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "ja",
            "error: mylessons/11_first.toml：11はコースのレッスン11_play_a_roundの番号です。"
            "自分のレッスンには12から99までの番号を付けてください。01から11はコースのレッスンで、"
            "コースはレッスンを番号順に並べます。空いている最初の番号は12です。"
            "例：mylessons/12_first.toml\n",
        ),
        (
            "zh-Hant",
            "error: mylessons/11_first.toml：11是課程的一課11_play_a_round的編號。你自己的課請編號"
            "12到99：01到11是課程本身的課，課程依編號順序列出各課。第一個空著的編號是12。"
            "例如：mylessons/12_first.toml\n",
        ),
    ],
)
def test_new_lesson_refuses_a_number_in_the_teachers_language(
    lang: str, expected: str, in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new-lesson", "--lang", lang, "mylessons/11_first.toml"]) == 2
    assert capsys.readouterr().err == expected


def test_new_lesson_says_when_its_folder_cannot_be_made(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "mylessons").write_text("a file, not a folder", encoding="utf-8")
    assert main(["new-lesson", "mylessons/12_trumps.toml"]) == 2
    assert capsys.readouterr().err == (
        "error: cannot make the folder 'mylessons': a file of that name is there\n"
    )


def test_new_lesson_help_gives_the_naming_rule_and_the_guide(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # argparse wraps at hyphens too ("built-\nin")
    with pytest.raises(SystemExit) as caught:
        main(["new-lesson", "--help"])
    assert caught.value.code == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert shown.startswith("usage: wizard-tutor new-lesson [-h] [--lang LANG] FILE")
    assert "NN_words.toml and numbered after the course's lessons (12 to 99; no two alike)" in shown
    assert "never written over" in shown
    assert str(teachers_guide()) in shown


# -- the command the hints give: one that works where the teacher is ------------------------


def _script(folder: Path) -> Path:
    """A ``wizard-tutor`` script in ``folder``: this Python running the tutor."""
    folder.mkdir(parents=True)
    script = folder / PROG
    script.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m tutor "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def test_in_a_checkout_the_hints_name_the_checkouts_command_and_it_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """After scripts/app.sh, a checkout's tutor is .venv/bin/wizard-tutor, not on PATH."""
    _script(tmp_path / ".venv" / "bin")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", [".venv/bin/wizard-tutor", "new-lesson"])
    monkeypatch.setenv("PATH", str(tmp_path / "elsewhere"))  # no wizard-tutor on it
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    assert command_name() == ".venv/bin/wizard-tutor"
    assert main(["new-lesson", "mylessons/12_trumps.toml"]) == 0
    out = capsys.readouterr().out.splitlines()
    check = ".venv/bin/wizard-tutor check mylessons/12_trumps.toml"
    assert out[1] == f"check it after every change:  {check}"
    assert out[2] == "show it in the app:           .venv/bin/wizard-tutor app --lessons mylessons"
    notes = (tmp_path / "mylessons" / "12_trumps.toml").read_text(encoding="utf-8")
    assert f"#     {check}\n" in notes
    assert "#     .venv/bin/wizard-tutor lab --lessons mylessons " in notes
    assert " wizard-tutor " not in notes  # every command of the notes is the checkout's
    # The hint, typed as printed, checks the lesson.
    done = subprocess.run(
        check, shell=True, capture_output=True, text=True, cwd=tmp_path, timeout=60, check=False
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("ok: mylessons/12_trumps.toml: lesson 12, 'Trumps'")


def test_the_hints_name_the_plain_command_when_path_finds_this_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = _script(tmp_path / "venv" / "bin")
    monkeypatch.setattr(sys, "argv", [str(script)])
    monkeypatch.setenv("PATH", str(script.parent))
    assert command_name() == PROG


def test_the_hints_name_this_programs_path_when_path_finds_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours = _script(tmp_path / "my tutor" / "bin")
    other = _script(tmp_path / "other" / "bin")
    monkeypatch.chdir(tmp_path / "other")
    monkeypatch.setattr(sys, "argv", [str(ours)])
    monkeypatch.setenv("PATH", str(other.parent))
    assert shutil.which(PROG) == str(other)
    # Not under the working folder: the whole path, quoted for the shell.
    assert command_name() == f"'{ours}'"


@pytest.mark.parametrize("installed", [True, False])
def test_under_python_m_tutor_the_hints_name_this_pythons_command(
    installed: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_folder = tmp_path / "env" / "bin"
    script = _script(bin_folder) if installed else bin_folder / PROG
    monkeypatch.setattr(sys, "executable", str(bin_folder / "python"))
    monkeypatch.setattr(sys, "argv", [str(ROOT / "tutor" / "__main__.py")])
    monkeypatch.setenv("PATH", str(tmp_path))
    expected = str(script) if installed else f"{bin_folder / 'python'} -m tutor"
    assert command_name() == expected
