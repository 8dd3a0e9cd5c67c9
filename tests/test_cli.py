"""The command line, ``python -m tutor``: run as a process (sys.executable) and through
tutor.cli.main; bad input exits with status 2 and a clear message on stderr."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lesson_files import TEACHERS_LESSON, TEACHERS_WRONG_WINNER, WRONG_WINNER, lesson_copy
from process_guard import stop_group

from tutor.cli import main

ROOT = Path(__file__).resolve().parent.parent

EXPLAIN = ["explain", "J B5 B11 B7", "--trump", "R"]
EXPLAIN_OUT = (
    "Winner: card 3, B11 (blue 11)\n"
    "Card 3 (B11) takes the trick with blue 11: nobody played a Wizard or a trump, "
    "so the highest blue card wins.\n"
)
LEGAL = ["legal", "--hand", "B7 R12 G10 W", "--played", "J B5"]
LEGAL_OUT = (
    "Led suit: blue\n"
    "Legal: B7 W\n"
    "  B7: You follow blue with blue 7.\n"
    "  R12: You may not play red 12: blue was led and you hold blue (blue 7). "
    "Follow blue, or play a Wizard or a Jester.\n"
    "  G10: You may not play green 10: blue was led and you hold blue (blue 7). "
    "Follow blue, or play a Wizard or a Jester.\n"
    "  W: You may play the Wizard: a Wizard may be played at any time, even when you could "
    "follow.\n"
)


def run_module(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m tutor ARGS`` in the repository, with ``env`` added to the environment."""
    return subprocess.run(
        [sys.executable, "-m", "tutor", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
        env={**os.environ, **(env or {})},
    )


def test_explain_as_a_process() -> None:
    done = run_module(*EXPLAIN)
    assert (done.returncode, done.stdout, done.stderr) == (0, EXPLAIN_OUT, "")


def test_legal_as_a_process() -> None:
    done = run_module(*LEGAL)
    assert (done.returncode, done.stdout, done.stderr) == (0, LEGAL_OUT, "")


def test_bad_card_as_a_process_exits_2_with_the_card_on_stderr() -> None:
    done = run_module("explain", "J B5 X3", "--trump", "R")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("error: invalid card 'X3':")
    assert "rank 1-13" in done.stderr


def test_explain_through_main(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(EXPLAIN) == 0
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == (EXPLAIN_OUT, "")


def test_legal_through_main(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(LEGAL) == 0
    assert capsys.readouterr().out == LEGAL_OUT


def test_explain_without_trump_means_no_trump(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "B2 R13"]) == 0
    assert capsys.readouterr().out.startswith("Winner: card 1, B2 (blue 2)\n")
    assert main(["explain", "B2 R13", "--trump", "R"]) == 0
    assert capsys.readouterr().out.startswith("Winner: card 2, R13 (red 13)\n")


def test_legal_when_leading(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["legal", "--hand", "B7 W"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Led suit: none\nLegal: B7 W\n")
    assert "  B7: You lead: the first card of a trick may be anything." in out


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["explain", "J B5 X3", "--trump", "R"], ["invalid card 'X3'"]),
        (["explain", "J B5", "--trump", "X"], ["invalid trump 'X'"]),
        (["explain", ""], ["at least one card"]),
        (["explain", "R1 R2 R3 R4 R5 R6 R7"], ["at most 6", "got 7"]),
        (["explain", "R9 R9"], ["R9 appears 2 times"]),
        (["legal", "--hand", "B7 R14", "--played", "J"], ["invalid card 'R14'"]),
        (["legal", "--hand", "B7 R9", "--played", "B7"], ["B7 appears 2 times"]),
    ],
)
def test_bad_input_through_main_exits_2_with_a_clear_message(
    argv: list[str], fragments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: ")
    for fragment in fragments:
        assert fragment in captured.err


def test_missing_arguments_exit_2_with_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["legal"])
    assert caught.value.code == 2
    assert "--hand" in capsys.readouterr().err


# -- wizard-tutor: the commands, help, version, lesson checks, the app's start-up checks ---

COMMANDS = ["app", "lab", "check", "new-lesson", "rule-map", "explain", "legal"]


def test_version_is_the_package_metadata() -> None:
    import tomllib
    from importlib.metadata import version

    from tutor import __version__

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert __version__ == version("wizard-tutor") == declared
    done = run_module("--version")
    assert (done.returncode, done.stdout) == (0, f"wizard-tutor {declared}\n")


@pytest.mark.parametrize("command", [[], *([name] for name in COMMANDS)])
def test_every_command_has_help(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main([*command, "--help"])
    assert caught.value.code == 0
    shown = capsys.readouterr().out
    assert shown.startswith(f"usage: wizard-tutor {' '.join(command)}".rstrip())
    if not command:
        for name in COMMANDS:
            assert name in shown


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--no-such-option"], "unrecognized arguments: --no-such-option"),
        (["app", "--port", "99999"], "invalid port '99999'"),
        (["app", "--port", "http"], "invalid port 'http'"),
        (["--port", "0"], "invalid port '0'"),
        (["app", "--max-kernels", "0"], "invalid number '0'"),
        (["lab", "--port", "-1"], "invalid port '-1'"),
        (["check"], "the following arguments are required: FILE"),
        (["teach"], "invalid choice: 'teach'"),
    ],
)
def test_bad_options_exit_2_with_a_message(
    argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    assert fragment in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "environment", "fragment"),
    [
        (["app", "--lang", "fr"], {}, "--lang 'fr' is not a language of the tutor"),
        (["app"], {"TUTOR_LANG": "klingon"}, "TUTOR_LANG='klingon' is not a language"),
        (["lab", "--lang", "xx"], {}, "known languages: 'en', 'ja', 'zh-Hant'"),
        (["lab"], {"TUTOR_LANG": "xx"}, "TUTOR_LANG='xx' is not a language of the tutor; known"),
        (["app"], {"TUTOR_PORT": "eighty"}, "$TUTOR_PORT: invalid port 'eighty'"),
        (["app", "--notebooks", "/no/such/folder"], {}, "no notebooks folder '/no/such/folder'"),
        (["app"], {"TUTOR_PROGRESS_STORE": "cloud"}, "'cloud' names no progress store"),
        (["lab"], {"TUTOR_PROGRESS_STORE": "disk"}, "known: 'browser', 'file'"),
        (["app", "--new-token"], {}, "--new-token is for --classroom"),
        (["lab"], {"TUTOR_PROGRESS_FILE": "tutor"}, "$TUTOR_PROGRESS_FILE='tutor' cannot keep"),
        (
            ["app", "--classroom", "--progress", "p.jsonl"],
            {},
            "--progress 'p.jsonl' is for one learner's machine: in a classroom each learner's "
            "browser keeps their own progress",
        ),
    ],
)
def test_the_app_stops_at_once_on_a_bad_setting(
    argv: list[str], environment: dict[str, str], fragment: str
) -> None:
    """Before anything starts (no server, no port taken): status 2 and what to fix."""
    done = run_module(*argv, env=environment)
    assert done.returncode == 2, done
    assert done.stderr.startswith("error: ") and fragment in done.stderr
    assert "Voil" not in done.stderr  # stopped before Voila was started


def test_check_passes_a_good_lesson_and_names_the_problem_in_a_bad_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = lesson_copy(tmp_path / "21_my_lesson.toml")
    bad = lesson_copy(tmp_path / "22_broken.toml", change=WRONG_WINNER)
    not_toml = tmp_path / "23_not_toml.toml"
    not_toml.write_text("title.en = [unclosed", encoding="utf-8")
    assert main(["check", str(good)]) == 0
    assert capsys.readouterr().out.startswith(f"ok: {good}: lesson 21, 'Who takes the trick'")
    assert main(["check", str(good), str(bad), str(not_toml), str(tmp_path / "24_gone.toml")]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith(f"ok: {good}")
    errors = captured.err.splitlines()
    assert len(errors) == 3, errors
    # Every message names the file as it was given, as the "ok" line does.
    assert errors[0].startswith(f"error: {bad}, ")  # file, item...
    assert "'Z" in errors[0]  # ...and the value that is wrong
    assert errors[1].startswith(f"error: {not_toml}: not valid TOML")
    assert errors[2].startswith(f"error: {tmp_path / '24_gone.toml'}: no such lesson file")


def test_check_reports_every_mistake_of_a_file_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = (ROOT / "lessons" / "06_trick_winner.toml").read_text(encoding="utf-8")
    bad = tmp_path / "22_broken.toml"
    bad.write_text(
        "level = 3\n" + source.replace('winner = "', 'winner = "Z').replace("title.en", "title.xx"),
        encoding="utf-8",
    )
    assert main(["check", str(bad)]) == 1
    errors = capsys.readouterr().err.splitlines()
    winners = source.count('winner = "')
    assert len(errors) == 2 + winners, errors  # the key, the title, every stated winner
    assert all(line.startswith(f"error: {bad}") for line in errors)
    assert "unknown key 'level'" in errors[0]
    assert "'title' has a text in unknown language 'xx'" in errors[1]
    assert sum("states winner 'Z" in line for line in errors) == winners


def test_check_takes_a_folder_as_app_lessons_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lesson_copy(tmp_path / "21_mine.toml")
    (tmp_path / "22_broken.toml").write_text("title.en = [unclosed", encoding="utf-8")
    assert main(["check", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith(f"ok: {tmp_path / '21_mine.toml'}: lesson 21")
    assert captured.err.startswith(f"error: {tmp_path / '22_broken.toml'}: not valid TOML")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["check", str(empty)]) == 2
    assert (
        capsys.readouterr().err == f"error: no lesson files (NN_words.toml) in the folder {empty}\n"
    )


def test_check_names_a_file_given_by_its_name_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lesson_copy(tmp_path / "22_broken.toml", change=WRONG_WINNER)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "22_broken.toml"]) == 1
    assert capsys.readouterr().err.startswith("error: 22_broken.toml, ")


@pytest.mark.parametrize(
    ("name", "course_file"),
    [
        ("06_my_version", "lessons/06_trick_winner.toml"),
        ("11_first", "notebooks/11_play_a_round.ipynb"),
    ],
)
def test_check_refuses_a_number_of_the_courses_lessons(
    name: str, course_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = lesson_copy(tmp_path / f"{name}.toml")
    assert main(["check", str(mine)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""  # not "ok": the app would refuse to serve it
    assert captured.err == (
        f"error: {mine}: lesson number {name[:2]} is also the number of {course_file}. No two "
        "lessons may share a number: the course lists its lessons in number order. The first "
        "free number is 12.\n"
    )


def test_check_passes_the_courses_own_lessons() -> None:
    assert main(["check", str(ROOT / "lessons")]) == 0  # each is its number's file


def test_check_refuses_two_lessons_of_a_folder_with_one_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both used to pass, and the app then showed a course index of file names."""
    for name in ("12_trumps.toml", "12_wizards.toml", "13_jesters.toml"):
        lesson_copy(tmp_path / name, TEACHERS_LESSON)
    assert main(["check", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert [line.split(":")[:2] for line in captured.out.splitlines()] == [
        ["ok", f" {tmp_path / '12_trumps.toml'}"],
        ["ok", f" {tmp_path / '13_jesters.toml'}"],
    ]
    assert captured.err == (
        f"error: {tmp_path / '12_wizards.toml'}: lesson number 12 is also the number of "
        f"{tmp_path / '12_trumps.toml'}. No two lessons may share a number: the course lists "
        "its lessons in number order. The first free number is 14.\n"
    )
    # Given alone, each is checked with the folder the app would serve it from.
    assert main(["check", str(tmp_path / "12_trumps.toml")]) == 0
    capsys.readouterr()
    assert main(["check", str(tmp_path / "12_wizards.toml")]) == 1
    assert capsys.readouterr().err == captured.err
    # In the teacher's language.
    capsys.readouterr()
    assert main(["check", "--lang", "zh-Hant", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"error: {tmp_path / '12_wizards.toml'}：編號12也是{tmp_path / '12_trumps.toml'}的編號。"
        "課程依編號順序列出各課，所以兩課不能用同一個編號。第一個空著的編號是14。\n"
    )


TRANSLATED = """\
title.en = "Trumps"
title.ja = "切り札"
summary.en = "A trump wins."
summary.ja = "切り札が勝ちます。"

[[section]]
id = "small-trump"
heading.en = "A small trump"
heading.ja = "小さな切り札"
text.en = "Even a red 2."
text.ja = "赤の2でも勝ちます。"

[[section.example]]
id = "red-two-wins"
kind = "trick-winner"
plays = "B9 B13 R2 G13"
trump = "R"
winner = "C"
note.en = "C has no blue card."
note.ja = "Cは青のカードを持っていません。"
"""


def test_check_warns_of_a_text_missing_in_a_language_the_lesson_is_written_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = tmp_path / "12_whole.toml"
    whole.write_text(TRANSLATED, encoding="utf-8")
    assert main(["check", str(whole)]) == 0
    assert capsys.readouterr().err == ""  # Japanese throughout; no Chinese at all: nothing to say
    english = tmp_path / "13_english.toml"
    english.write_text(
        "\n".join(line for line in TRANSLATED.splitlines() if ".ja" not in line), encoding="utf-8"
    )
    assert main(["check", str(english)]) == 0
    assert capsys.readouterr().err == ""  # English only: a lesson the guide allows

    part = tmp_path / "14_part.toml"
    part.write_text(
        TRANSLATED.replace('note.ja = "Cは青のカードを持っていません。"\n', ""), encoding="utf-8"
    )
    part_ok = main(["check", str(part)])
    captured = capsys.readouterr()
    assert part_ok == 0  # a warning: the lesson works, in English on a Japanese page
    assert captured.out.startswith(f"ok: {part}: lesson 14")
    assert captured.err == (
        f"warning: {part}, example 'red-two-wins': note has no Japanese text (note.ja), though "
        "other texts of the lesson have one. A Japanese page shows the whole lesson in English "
        "until every text has it.\n"
    )
    chinese = tmp_path / "15_chinese.toml"
    chinese.write_text(
        TRANSLATED.replace('title.ja = "切り札"', 'title.ja = "切り札"\ntitle.zh-Hant = "王牌"'),
        encoding="utf-8",
    )
    assert main(["check", "--lang", "ja", str(chinese)]) == 0
    warnings = capsys.readouterr().err.splitlines()
    assert len(warnings) == 4  # every text but the title
    assert warnings[0] == (
        f"warning: {chinese}：summaryに繁体字中国語のテキスト（summary.zh-Hant）がありません。"
        "このレッスンのほかのテキストにはあります。すべてのテキストにそろうまで、繁体字中国語の"
        "ページではレッスン全体が英語で表示されます。"
    )
    assert warnings[-1].startswith(f"warning: {chinese}, example 'red-two-wins'：note")


def test_lab_works_on_a_copy_of_the_course_and_keeps_the_learners_work(tmp_path: Path) -> None:
    from tutor.app.launch import copy_course
    from tutor.resources import notebooks_dir

    course = sorted(path.name for path in notebooks_dir().glob("*.ipynb"))
    assert copy_course(tmp_path) == course
    mine = tmp_path / "06_trick_winner.ipynb"
    mine.write_text('{"my": "work"}', encoding="utf-8")
    (tmp_path / "02_trump.ipynb").unlink()  # deleted to get the original back
    assert copy_course(tmp_path) == ["02_trump.ipynb"]
    assert mine.read_text(encoding="utf-8") == '{"my": "work"}'


def test_lab_runs_as_root_too(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from tutor.app.launch import lab_command

    monkeypatch.setattr(os, "geteuid", lambda: 0)
    command = lab_command(tmp_path, port=8890, open_browser=False, extra=["--debug"])
    assert command[:3] == [sys.executable, "-m", "jupyterlab"]
    assert f"--ServerApp.root_dir={tmp_path}" in command
    assert "--allow-root" in command and "--no-browser" in command
    assert command[-1] == "--debug"
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert "--allow-root" not in lab_command(tmp_path, port=None, open_browser=True, extra=[])


def test_lab_without_jupyterlab_says_in_one_line_how_to_add_it(tmp_path: Path) -> None:
    """JupyterLab is the ``lab`` extra: where it is missing (an import of it fails, as in
    an environment without it), ``wizard-tutor lab`` names the pip command and, in a
    checkout, the script, in one line with no traceback, and copies nothing."""
    copy = tmp_path / "my-course"
    hide_lab = (
        "import sys; sys.modules['jupyterlab'] = None; "  # import jupyterlab now fails
        "from tutor.cli import main; "
        f"sys.exit(main(['lab', '--no-browser', '--dir', {str(copy)!r}]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", hide_lab],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "JupyterLab" in done.stderr and "pip install 'wizard-tutor[lab]'" in done.stderr
    assert f"bash {ROOT / 'scripts' / 'setup_env.sh'}" in done.stderr  # this is a checkout
    assert not copy.exists()
    # with JupyterLab installed (the test environment has every extra) the check passes
    from tutor.app.launch import check_lab_installed

    check_lab_installed()


@pytest.mark.slow
def test_lab_starts_jupyterlab_on_the_learners_copy(tmp_path: Path) -> None:
    """The real command, as the current user (root on CI and in a container, where
    Jupyter refuses to start without --allow-root): JupyterLab answers, on the copy."""
    import json
    import socket
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    token = "lab-test-" + os.urandom(8).hex()
    folder = tmp_path / "my-course"
    log = tmp_path / "lab.log"
    with log.open("wb") as output:
        lab = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tutor",
                "lab",
                "--no-browser",
                "--port",
                str(port),
                "--dir",
                str(folder),
                "--",
                f"--IdentityProvider.token={token}",
            ],
            cwd=tmp_path,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")},
        )
    try:
        listing = None
        deadline = time.monotonic() + 180
        while listing is None and time.monotonic() < deadline:
            assert lab.poll() is None, log.read_text()
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/contents",
                headers={"Authorization": f"token {token}"},
            )
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    listing = json.load(response)
            except OSError:
                time.sleep(0.5)
        assert listing is not None, log.read_text()
        names = {entry["name"] for entry in listing["content"]}
        assert "index.ipynb" in names and "06_trick_winner.ipynb" in names
        assert (folder / "index.ipynb").is_file()
        # The learner is not asked about Jupyter's news, and Lab fetches none.
        page = urllib.request.Request(
            f"http://127.0.0.1:{port}/lab/tree/index.ipynb",
            headers={"Authorization": f"token {token}"},
        )
        with urllib.request.urlopen(page, timeout=30) as response:
            html = response.read().decode("utf-8")
        config_data = html.split('id="jupyter-config-data"', 1)[1].split(">", 1)[1]
        config = json.loads(config_data.split("</script>", 1)[0])
        assert config["news"] == {"disabled": True}
        assert "@jupyterlab/apputils-extension:announcements" in config["disabledExtensions"]
        # The page loads the widget managers, not JupyterLite's kernel extension (installed
        # beside Lab for the static site), which Lab cannot load (tutor/app/lab_page.py).
        loaded = {extension["name"] for extension in config["federated_extensions"]}
        assert "@jupyter-widgets/jupyterlab-manager" in loaded and "anywidget" in loaded
        assert not any(name.startswith("@jupyterlite/") for name in loaded), loaded
    finally:
        stop_group(lab, grace=60)


def test_the_app_refuses_a_teachers_lessons_that_fail_the_check_all_at_once(
    tmp_path: Path,
) -> None:
    lesson_copy(tmp_path / "06_same_number.toml")
    lesson_copy(tmp_path / "12_wrong.toml", change=WRONG_WINNER)
    done = subprocess.run(
        [sys.executable, "-m", "tutor", "app", "--lessons", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: the lessons of {tmp_path} cannot be served:")
    assert (
        f"{tmp_path}/06_same_number.toml: lesson number 06 is also the number of "
        "lessons/06_trick_winner.toml. No two lessons may share a number"
    ) in done.stderr
    assert f"{tmp_path.name}/12_wrong.toml, " in done.stderr
    assert "Voil" not in done.stderr


def test_a_teachers_lesson_gets_a_notebook_like_the_courses(tmp_path: Path) -> None:
    import json

    from tutor.app.launch import teacher_notebook

    def source(notebook: dict[str, Any]) -> str:
        (cell,) = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
        lines = cell["source"]
        return ("".join(lines) if isinstance(lines, list) else lines).replace("'", '"')

    course = json.loads((ROOT / "notebooks" / "06_trick_winner.ipynb").read_text("utf-8"))
    assert source(json.loads(teacher_notebook("06_trick_winner"))) == source(course)
    notebook = json.loads(teacher_notebook("12_my_rule"))
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"
    # It runs: a lesson written in English only, on a page asking for Japanese (shown in
    # English, not stopped by the missing Japanese texts).
    lessons = tmp_path / "lessons"
    lesson_copy(lessons / "12_my_rule.toml", TEACHERS_LESSON)
    done = subprocess.run(
        [sys.executable, "-c", source(notebook)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
        env={
            **os.environ,
            "SERVER_SOFTWARE": "voila/0.5",  # as Voila starts a page's kernel
            "QUERY_STRING": "lang=ja",
            "TUTOR_LESSONS_DIR": str(lessons),
        },
    )
    assert done.returncode == 0, done.stderr


# -- wizard-tutor lab --lessons FOLDER: a teacher's lessons in the Lab copy, as in the app ---


class _LabStarted(Exception):
    """Raised by the stand-in for os.execv: where JupyterLab would replace the process."""


@pytest.fixture
def lab_without_jupyter(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """``wizard-tutor lab`` up to starting JupyterLab (the commands it would run); what it
    sets in the environment is undone after the test."""
    from tutor.resources import LESSONS_DIR_VARIABLE

    for name in (
        LESSONS_DIR_VARIABLE,
        "JUPYTER_CONFIG_PATH",
        "TUTOR_PROGRESS_STORE",
        "TUTOR_PROGRESS_FILE",
    ):
        monkeypatch.setenv(name, "")  # records the value to put back (delenv alone does
        monkeypatch.delenv(name)  # not, for a variable that is not set)
    started: list[list[str]] = []

    def execv(program: str, command: list[str]) -> None:
        started.append(command)
        raise _LabStarted

    monkeypatch.setattr(os, "execv", execv)
    return started


def test_lab_adds_a_teachers_lessons_to_the_learners_copy(
    tmp_path: Path, lab_without_jupyter: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from tutor.display.course import course_entries
    from tutor.resources import LESSONS_DIR_VARIABLE
    from tutor.teaching.lesson_loader import list_lessons

    teacher = tmp_path / "mylessons"
    lesson_copy(teacher / "12_my_rule.toml", TEACHERS_LESSON)
    copy = tmp_path / "my-course"
    with pytest.raises(_LabStarted):
        main(["lab", "--no-browser", "--dir", str(copy), "--lessons", str(teacher)])
    assert len(lab_without_jupyter) == 1
    # The copy holds the course and a page for the teacher's lesson, the app's own.
    from tutor.app.launch import kernel_language_info, teacher_notebook

    course = sorted(path.name for path in (ROOT / "notebooks").glob("*.ipynb"))
    assert sorted(path.name for path in copy.glob("*.ipynb")) == sorted(
        [*course, "12_my_rule.ipynb"]
    )
    # The app's page for it, written as every course page of the copy is (as Lab will
    # have it once its kernel starts: nothing marked changed on opening).
    page = json.loads((copy / "12_my_rule.ipynb").read_text("utf-8"))
    app_page = json.loads(teacher_notebook("12_my_rule"))
    assert [c["source"] for c in page["cells"]] == [c["source"] for c in app_page["cells"]]
    assert page["metadata"]["language_info"] == kernel_language_info()
    # Lab's kernels find the built-in lessons and the teacher's, which the course page lists.
    lessons = Path(os.environ[LESSONS_DIR_VARIABLE])
    assert [lesson.id for lesson in list_lessons(lessons)][-2:] == ["10_variants", "12_my_rule"]
    entries = {entry.file: entry.title for entry in course_entries(copy)}
    assert entries["12_my_rule.ipynb"] == "Our class: tricks"
    # Of the temporary course, only the lessons' links are left for Lab.
    assert [path.name for path in lessons.parent.iterdir()] == ["lessons"]
    # The page runs in a kernel as Lab starts one (in Lab's environment), here in Japanese:
    # the English-only lesson is shown in English, with no error.
    import nbclient
    import nbformat

    monkeypatch.setenv("TUTOR_LANG", "ja")
    notebook = nbformat.read(copy / "12_my_rule.ipynb", as_version=4)
    where = {"metadata": {"path": str(copy)}}
    nbclient.NotebookClient(
        notebook, timeout=180, iopub_timeout=60, raise_on_iopub_timeout=True, resources=where
    ).execute()
    shown = json.dumps([output for cell in notebook.cells for output in cell.outputs])
    assert "Our class: tricks" in shown and "Last Friday" in shown
    assert '"output_type": "error"' not in shown


@pytest.mark.parametrize(
    ("lessons", "fragment"),
    [
        ("no-such-folder", "no lessons folder '{tmp}/no-such-folder'"),
        ("empty", "no lesson files (NN_words.toml) in {tmp}/empty"),
        ("broken", "the lessons of {tmp}/broken cannot be served:\n  "),
    ],
)
def test_lab_refuses_a_bad_lessons_folder_as_the_app_does(
    lessons: str,
    fragment: str,
    tmp_path: Path,
    lab_without_jupyter: list[list[str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "empty").mkdir()
    lesson_copy(
        tmp_path / "broken" / "12_wrong.toml", TEACHERS_LESSON, change=TEACHERS_WRONG_WINNER
    )
    copy = tmp_path / "my-course"
    assert main(["lab", "--dir", str(copy), "--lessons", str(tmp_path / lessons)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: " + fragment.format(tmp=tmp_path))
    assert lab_without_jupyter == [] and not copy.exists()  # nothing started, nothing copied
    # The app stops with the same words, before anything starts.
    assert main(["app", "--lessons", str(tmp_path / lessons)]) == 2
    assert capsys.readouterr().err == error


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            "{tmp}/12_wizards.toml: lesson number 12 is also the number of {tmp}/12_trumps.toml. "
            "No two lessons may share a number: the course lists its lessons in number order. "
            "The first free number is 13.",
        ),
        (
            "ja",
            "{tmp}/12_wizards.toml：レッスン番号12は{tmp}/12_trumps.tomlの番号でもあります。"
            "コースはレッスンを番号順に並べるので、2つのレッスンが同じ番号を使うことはできません。"
            "空いている最初の番号は13です。",
        ),
    ],
)
def test_the_app_refuses_two_teachers_lessons_with_one_number_before_it_starts(
    lang: str,
    expected: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Served, the second one's page took the first's lesson, and the course index listed
    file names without summaries: the app says why, and does not start."""
    monkeypatch.setenv("TUTOR_LANG", "en")  # --lang sets it for the pages: undone after
    for name in ("12_trumps.toml", "12_wizards.toml"):
        lesson_copy(tmp_path / name, TEACHERS_LESSON)
    assert main(["app", "--lang", lang, "--lessons", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        f"error: the lessons of {tmp_path} cannot be served:\n  "
        + expected.format(tmp=tmp_path)
        + "\n"
    )


def test_lab_takes_the_lessons_option() -> None:
    from tutor.cli.parser import build_parser

    args = build_parser().parse_args(["lab", "--lessons", "mylessons", "--", "--debug"])
    assert (args.lessons, args.jupyter_args) == (Path("mylessons"), ["--debug"])
    assert build_parser().parse_args(["lab"]).lessons is None


# -- --progress FILE: where the learner's progress is kept, the same option for app and lab --


def test_lab_keeps_the_progress_in_the_file_given_whatever_the_folder(
    tmp_path: Path,
    lab_without_jupyter: list[list[str]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The kernels learn the file from the environment Lab passes them, as an absolute
    path (a kernel runs in the notebook's folder, not where the command was given); the
    file itself is made by the first answer, not by the start."""
    from tutor.teaching.progress_stores import PROGRESS_FILE_VARIABLE, PROGRESS_STORE_VARIABLE

    monkeypatch.chdir(tmp_path)
    with pytest.raises(_LabStarted):
        main(["lab", "--no-browser", "--dir", "course", "--progress", "records/mine.jsonl"])
    kept = tmp_path / "records" / "mine.jsonl"
    assert os.environ[PROGRESS_STORE_VARIABLE] == "file"
    assert os.environ[PROGRESS_FILE_VARIABLE] == str(kept)
    assert f"Your progress is kept in {kept} " in capsys.readouterr().out
    assert not kept.parent.exists()


def test_lab_says_where_the_progress_is_kept_by_default(
    tmp_path: Path,
    lab_without_jupyter: list[list[str]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    with pytest.raises(_LabStarted):
        main(["lab", "--no-browser", "--dir", str(tmp_path / "course")])
    kept = tmp_path / "home" / ".wizard-tutor" / "progress.jsonl"
    assert f"Your progress is kept in {kept} " in capsys.readouterr().out


@pytest.mark.parametrize(
    ("given", "why"),
    [
        ("a-folder", "it is a folder"),
        ("a-file/progress.jsonl", "{tmp}/a-file is a file, not a folder"),
        ("a-file/deeper/progress.jsonl", "{tmp}/a-file is a file, not a folder"),
    ],
)
def test_a_progress_file_that_cannot_be_written_stops_lab_and_app_at_the_start(
    given: str,
    why: str,
    tmp_path: Path,
    lab_without_jupyter: list[list[str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    copy = tmp_path / "my-course"
    assert main(["lab", "--dir", str(copy), "--progress", str(tmp_path / given)]) == 2
    error = capsys.readouterr().err
    assert error == (
        f"error: --progress {str(tmp_path / given)!r} cannot keep the progress: "
        f"{why.format(tmp=tmp_path)}; give a file that can be written (--progress FILE)\n"
    )
    assert lab_without_jupyter == [] and not copy.exists()  # nothing started, nothing copied
    # The same option in the app: the same words, before anything starts.
    assert main(["app", "--progress", str(tmp_path / given)]) == 2
    assert capsys.readouterr().err == error


def test_app_and_lab_take_progress_as_one_option_with_one_meaning() -> None:
    """``--progress FILE`` names the file that keeps the progress, in both commands; only
    where it is kept without it differs (the app: each learner's browser)."""
    from tutor.cli.parser import build_parser

    parser = build_parser()
    for command in ("app", "lab"):
        assert parser.parse_args([command, "--progress", "p.jsonl"]).progress == Path("p.jsonl")
        assert parser.parse_args([command]).progress is None
        # (wide: argparse breaks lines after a hyphen, inside the file's name)
        shown = " ".join(run_module(command, "--help", env={"COLUMNS": "1000"}).stdout.split())
        assert (
            "--progress FILE keep the learner's progress (every answer, the pages done) "
            "in this file"
        ) in shown
        assert "~/.wizard-tutor/progress.jsonl" in shown  # where it is kept without it


def test_the_app_keeps_the_progress_in_the_file_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What ``app --progress FILE`` passes its kernels: the file store, and the file."""
    from tutor.app.launch import choose_progress_store
    from tutor.teaching.progress_stores import (
        PROGRESS_FILE_VARIABLE,
        PROGRESS_STORE_VARIABLE,
        StoreSetting,
    )

    for name in (PROGRESS_FILE_VARIABLE, PROGRESS_STORE_VARIABLE):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    assert choose_progress_store(StoreSetting.BROWSER) is None
    assert os.environ[PROGRESS_STORE_VARIABLE] == "browser"
    kept = tmp_path / "mine.jsonl"
    assert choose_progress_store(StoreSetting.BROWSER, kept) == kept
    assert (os.environ[PROGRESS_STORE_VARIABLE], os.environ[PROGRESS_FILE_VARIABLE]) == (
        "file",
        str(kept),
    )
