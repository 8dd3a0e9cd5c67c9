"""The command line, ``python -m tutor``: run as a process (sys.executable) and through
tutor.cli.main; bad input exits with status 2 and a clear message on stderr."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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


def run_module(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tutor", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
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
