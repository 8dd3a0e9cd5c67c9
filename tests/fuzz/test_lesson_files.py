"""Lesson files (``wizard-tutor check``, ``wizard-tutor app --lessons``): whatever a file
holds (its TOML structure, its size, its encoding), it is read or refused with a message
naming the file and the problem (:class:`LessonError`), within time and memory bounds;
never another exception."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tutor.teaching.lesson import LessonError
from tutor.teaching.lesson_loader import (
    MAX_KEY_PARTS,
    MAX_LESSON_BYTES,
    MAX_NESTING,
    MAX_NUMBER_CHARACTERS,
    load_lesson_file,
)

from .bounds import bounded, examples

ROOT = Path(__file__).resolve().parents[2]
LESSON = (ROOT / "lessons" / "06_trick_winner.toml").read_text(encoding="utf-8")
ENTRY = "lesson files (load_lesson_file)"
SECONDS, MEGABYTES = 20.0, 64.0
"""Per file, in-process: the largest files allowed take a second or two on a quiet machine."""


def refusal_of(path: Path, case: str) -> str | None:
    """The message refusing the file at ``path`` (None: it was read), within the bounds."""
    with bounded(ENTRY, case, seconds=SECONDS, megabytes=MEGABYTES):
        try:
            load_lesson_file(path)
        except LessonError as error:
            message = str(error)
        else:
            return None
    assert message.startswith(f"{path.parent.name}/{path.name}"), message
    assert "Traceback" not in message
    return message


# -- a corpus of nasty files, each with the words its refusal must have -------------------

DEEP_ARRAYS = "a = " + "[" * 500 + "]" * 500
DEEP_TABLES = "a = " + "{b = " * 3000 + "1" + "}" * 3000
LONG_KEY = ".".join(["k"] * 50_000) + " = 1"
BIG = '[[section]]\nid = "x"\n' * 20_000

CORPUS: dict[str, tuple[bytes, str | None]] = {
    "500 nested arrays": (DEEP_ARRAYS.encode(), f"nested more than {MAX_NESTING} deep (line 1)"),
    "3000 nested inline tables": (DEEP_TABLES.encode(), f"nested more than {MAX_NESTING} deep"),
    "17 nested arrays": (("a = " + "[" * 17 + "]" * 17).encode(), f"more than {MAX_NESTING} deep"),
    "nesting in a header's line": (b"[a]\nb = [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]", "line 2"),
    "brackets inside strings are text": (
        ('title.en = "' + "[" * 40 + '"\n').encode(),
        "missing 'summary'",
    ),
    "brackets inside a multi-line string": (
        ("title.en = '''\n" + "{" * 40 + "\n'''\n").encode(),
        "missing 'summary'",
    ),
    "a 50,000-part dotted key": (LONG_KEY.encode(), f"more than {MAX_KEY_PARTS} parts"),
    "a long dotted table header": (
        ("[" + ".".join(["s"] * 100) + "]").encode(),
        f"more than {MAX_KEY_PARTS} parts",
    ),
    "a long dotted key in an inline table": (
        ("a = { " + ".".join(["k"] * 20) + " = 1 }").encode(),
        f"more than {MAX_KEY_PARTS} parts",
    ),
    "a number of 5000 digits": (("bid = " + "9" * 5000).encode(), "a number of 5000 characters"),
    "a hex number of 5000 digits": (("bid = 0x" + "f" * 5000).encode(), "5002 characters"),
    "31 digits": (("bid = " + "1" * 31).encode(), f"at most {MAX_NUMBER_CHARACTERS}"),
    "a float of 400 digits": (("x = 1." + "0" * 400).encode(), "a number of"),
    "1e400 (infinite)": (b"x = 1e400\n", "unknown key 'x'"),
    "too big by one byte": (
        b"#" * (MAX_LESSON_BYTES + 1),
        f"larger than {MAX_LESSON_BYTES:,} bytes",
    ),
    "54 MB of sections": (BIG.encode() * 128, "larger than"),
    "the largest size allowed, all sections": (
        BIG.encode()[: MAX_LESSON_BYTES - 100].rsplit(b"\n[[", 1)[0] + b"\n",
        "section id 'x' must be unique",
    ),
    "the largest size allowed, all quiz items": (
        (b"[[quiz]]\n" * (MAX_LESSON_BYTES // 9)),
        "more problems",
    ),
    "UTF-16 (Notepad's 'Unicode')": (LESSON.encode("utf-16"), "saved as UTF-16"),
    "Latin-1": ('title.en = "Café"\n'.encode("latin-1"), "not UTF-8 text (byte 0xe9"),
    "random bytes": (bytes(range(256)) * 4, "not UTF-8 text"),
    "a NUL byte": (b'title.en = "a\x00b"\n', "not valid TOML"),
    "empty": (b"", "missing 'title'"),
    "only a BOM": (b"\xef\xbb\xbf", "missing 'title'"),
    "a BOM twice": (b"\xef\xbb\xbf" + b"\xef\xbb\xbf" + LESSON.encode(), "not valid TOML"),
    "an unclosed string": (b'title.en = "abc\n', "not valid TOML"),
    "an unclosed multi-line string": (b'title.en = """abc\n' + b"[" * 100, "not valid TOML"),
    "an unclosed array, nested": (b"title.en = [\n" * 20, "nested more than"),
    "an unclosed array": (b"title.en = [\n" * 5, "not valid TOML"),
    "a key twice": (b'title.en = "a"\ntitle.en = "b"\n', "not valid TOML"),
    "a table where a text goes": (
        b'title = { en = { x = "y" } }\n',
        "title.en must be a non-empty text",
    ),
    "a list of 30,000 items": (
        ("title.en = [" + "1," * 30_000 + "]").encode(),
        "title.en must be a non-empty text, got [1, 1, 1, 1, 1, 1, 1, 1, ...] (list)",
    ),
    "a text of 200 KB": (('title.en = "' + "x" * 200_000 + '"').encode(), "missing 'summary'"),
    "sections that are not tables": (b"section = [1, 2, 3]\n", "expected a table of keys"),
    "quiz that is a number": (b"quiz = 3\n", "'quiz' must be a list of tables"),
    "an item id that is a list": (b'[[quiz]]\nid = ["a"]\n', "'id' must be text, got ['a'] (list)"),
    "a thousand unknown keys": (
        "".join(f"k{i} = 1\n" for i in range(1000)).encode(),
        "unknown keys 'k0', 'k1', 'k2', 'k3', 'k4' and 995 more",
    ),
    "dates and times": (b"title.en = 1979-05-27T07:32:00Z\n", "title.en must be a non-empty text"),
    "a lesson's cards all wrong": (
        LESSON.replace('plays = "', 'plays = "Q').encode(),
        "'plays'",
    ),
    "a BOM (Windows Notepad)": (b"\xef\xbb\xbf" + LESSON.encode(), None),
    "Windows line ends": (LESSON.replace("\n", "\r\n").encode(), None),
}


@pytest.mark.parametrize("content, words", CORPUS.values(), ids=CORPUS.keys())
def test_a_nasty_lesson_file_is_refused_with_its_problem_named(
    tmp_path: Path, content: bytes, words: str | None
) -> None:
    path = tmp_path / "lessons" / "12_nasty.toml"
    path.parent.mkdir()
    path.write_bytes(content)
    message = refusal_of(path, f"{len(content)} bytes: {content[:40]!r}")
    if words is None:
        assert message is None
    else:
        assert message is not None and words in message, message
        assert len(message) < 8000  # every problem, not every value


def test_a_pipe_a_device_and_a_folder_are_refused_without_waiting(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    (folder / "13_folder.toml").mkdir(parents=True)
    os.mkfifo(folder / "12_pipe.toml")  # nobody writes to it: opening it would wait forever
    (folder / "14_device.toml").symlink_to("/dev/zero")
    words = {
        "12_pipe.toml": "not a regular file",
        "13_folder.toml": "is a folder",
        "14_device.toml": "not a regular file",
    }
    for name, expected in words.items():
        message = refusal_of(folder / name, name)
        assert message is not None and expected in message, message


# The command run by a Python of its own that reports its child's CPU seconds and peak
# memory: this process's RUSAGE_CHILDREN peak is the largest child it ever waited for (in
# a whole test run, the app or a hub started before this test), not this command's.
_MEASURE = """
import resource, subprocess, sys
run = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=120)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.stdout.write(run.stdout)
sys.stderr.write(run.stderr)
sys.stderr.write(f"\\n{usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}\\n")
sys.exit(run.returncode)
"""


def _run_measured(command: list[str]) -> tuple[subprocess.CompletedProcess[str], float, int]:
    """``command``'s result (its own stderr), CPU seconds and peak memory in KB."""
    run = subprocess.run(
        [sys.executable, "-c", _MEASURE, *command],
        capture_output=True,
        text=True,
        timeout=150,
        check=False,
    )
    stderr, _, figures = run.stderr.rstrip("\n").rpartition("\n")
    cpu, max_rss_kb = figures.split()
    run.stderr = stderr.rstrip("\n") + ("\n" if stderr.strip() else "")
    return run, float(cpu), int(max_rss_kb)


def test_the_checker_and_the_app_refuse_the_issues_files_with_a_message(tmp_path: Path) -> None:
    """The command line, in a subprocess (a RecursionError or a 9.8 GB key ended it)."""
    folder = tmp_path / "mylessons"
    folder.mkdir()
    files = {
        "12_arrays.toml": DEEP_ARRAYS,
        "13_tables.toml": DEEP_TABLES,
        "14_key.toml": LONG_KEY,
        "15_big.toml": BIG * 128,
        "16_digits.toml": "bid = " + "9" * 5000,
    }
    for name, content in files.items():
        (folder / name).write_text(content, encoding="utf-8")
    (folder / "17_bom.toml").write_bytes(b"\xef\xbb\xbf" + LESSON.encode())
    checked, cpu, max_rss_kb = _run_measured([sys.executable, "-m", "tutor", "check", str(folder)])
    assert checked.returncode == 1, checked
    assert "Traceback" not in checked.stderr
    errors = checked.stderr.splitlines()
    assert [line.split(": ")[1] for line in errors] == [str(folder / name) for name in files]
    assert checked.stdout.startswith(f"ok: {folder / '17_bom.toml'}: lesson 17")
    assert cpu < 30, cpu
    assert max_rss_kb < 400 * 1024, max_rss_kb  # the whole check, not 9.8 GB

    served = subprocess.run(
        [sys.executable, "-m", "tutor", "app", "--lessons", str(folder), "--port", "18899"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert served.returncode == 2, served
    assert "Traceback" not in served.stderr and "Voil" not in served.stderr
    assert f"error: the lessons of {folder} cannot be served:" in served.stderr
    for name in files:
        assert f"{folder / name}: " in served.stderr, name


# -- generated files -------------------------------------------------------------------------

_NASTY = "[]{}=.,\"'#\\\n \t0123456789abc-_+:TZ\x00\ufeff\u3042"


@examples(120)
@given(
    cut=st.integers(0, len(LESSON)),
    length=st.integers(0, 400),
    insert=st.text(alphabet=_NASTY, max_size=200),
    repeat=st.integers(1, 50),
)
def test_a_lesson_edited_anywhere_is_read_or_refused_with_a_message(
    tmp_path_factory: pytest.TempPathFactory, cut: int, length: int, insert: str, repeat: int
) -> None:
    """A real lesson with a slice replaced by nasty text (brackets, quotes, dots, digits,
    NUL, BOM), repeated: what a slip of the keyboard or a prankster makes of a file."""
    source = LESSON[:cut] + insert * repeat + LESSON[cut + length :]
    path = tmp_path_factory.mktemp("lessons") / "12_edited.toml"
    path.write_text(source, encoding="utf-8")
    refusal_of(path, source[cut : cut + 40])


_KEYS = st.sampled_from(
    ["title", "summary", "section", "quiz", "id", "kind", "en", "ja", "plays", "bid", "x y", ""]
)
_SCALARS = (
    st.text(max_size=30)
    | st.integers(-(10**20), 10**20)
    | st.booleans()
    | st.floats(allow_nan=True, allow_infinity=True)
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=30,
)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return {"inf": "inf", "-inf": "-inf", "nan": "nan"}.get(repr(value), repr(value))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.encode("unicode_escape").decode().replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    assert isinstance(value, dict)
    return "{" + ", ".join(f'"{k}" = {_toml_value(v)}' for k, v in value.items()) + "}"


@examples(120)
@given(st.dictionaries(_KEYS, _VALUES, max_size=6))
def test_any_toml_structure_is_read_or_refused_with_a_message(
    tmp_path_factory: pytest.TempPathFactory, document: dict[str, object]
) -> None:
    """Any TOML document: tables, arrays, numbers, texts, booleans, floats where the
    lesson format wants something else."""
    source = "".join(f'"{key}" = {_toml_value(value)}\n' for key, value in document.items())
    path = tmp_path_factory.mktemp("lessons") / "12_any.toml"
    path.write_text(source, encoding="utf-8")
    refusal_of(path, source[:60])


@examples(40)
@given(st.binary(max_size=2000))
def test_any_bytes_are_refused_with_a_message(
    tmp_path_factory: pytest.TempPathFactory, content: bytes
) -> None:
    path = tmp_path_factory.mktemp("lessons") / "12_bytes.toml"
    path.write_bytes(content)
    assert refusal_of(path, repr(content[:40])) is not None
