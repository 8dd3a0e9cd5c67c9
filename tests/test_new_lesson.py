"""``wizard-tutor new-lesson FILE``: a teacher's starter lesson, which passes the check as
written; an existing file is never written over, and a bad name or number is refused with
the rule, before anything is made."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tutor.cli import main
from tutor.resources import teachers_guide
from tutor.teaching.lesson_loader import load_lesson_file

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
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
    assert "numbered 11 to 99" in source


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
        ("04_trumps.toml", "04 is the number of the built-in lesson 04_follow_suit; "),
        ("10_more_variants.toml", "10 is the number of the built-in lesson 10_variants; "),
        ("00_first.toml", "00 comes before the built-in lessons; "),
    ],
)
def test_new_lesson_refuses_a_number_of_the_built_in_lessons_with_the_numbering_rule(
    name: str, fragment: str, in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new-lesson", f"mylessons/{name}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: mylessons/{name}: {fragment}")
    assert "number your own lessons from 11 to 99 (01 to 10 are the built-in lessons" in err
    assert f"e.g. 12_{name[3:]}" in err
    assert list(in_tmp.iterdir()) == []


def test_new_lesson_refuses_the_name_of_a_page_of_the_course(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 11_play_a_round.ipynb is the course's play page (no lesson file): a lesson of that
    # name would take its place in the app.
    assert (ROOT / "notebooks" / "11_play_a_round.ipynb").is_file()
    assert main(["new-lesson", "11_play_a_round.toml"]) == 2
    assert "11_play_a_round is the name of a page of the course" in capsys.readouterr().err
    assert list(in_tmp.iterdir()) == []


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
    assert shown.startswith("usage: wizard-tutor new-lesson [-h] FILE")
    assert "NN_words.toml and numbered after the built-in lessons (11 to 99)" in shown
    assert "never written over" in shown
    assert str(teachers_guide()) in shown
