"""Every notebook of the course runs in every translated language (``TUTOR_LANG``, as a
teacher opening JupyterLab in Japanese would set it), and its plain-text fact cells then
print the engine's answers in that language, not in English.

nbval (scripts/test.sh) compares the saved outputs, which are English (no ``TUTOR_LANG``);
this test compares the translated runs against those English outputs. To keep it quick,
each language runs all the notebooks one after another in a single kernel (started in
notebooks/, as nbval does), cell by cell, as a learner would run them.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import nbclient
import nbformat
import pytest

from tutor.teaching.language import LANGUAGE_VARIABLE, QUERY_VARIABLE
from tutor.teaching.text import LANGUAGES

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
IGNORE_OUTPUT = "NBVAL_IGNORE_OUTPUT"
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]

ENGLISH_WORD = re.compile(r"(?<![A-Za-z])(?=[A-Z]?[a-z])[A-Za-z]{3,}(?![A-Za-z])")
"""A word of English (three ASCII letters or more, lower case after the first, even next
to a kana: not ``\\b``, which sees no border between "Wizard" and "の"). Card notation
(R13, W), seat letters (A-F) and names in capitals (AMIGO, the publisher) stay the same in
every language; words do not."""


def _notebook_paths() -> list[Path]:
    return sorted(NOTEBOOKS.glob("*.ipynb"))


def _stdout(cell: dict[str, Any]) -> str:
    return "".join(
        "".join(output["text"]) if isinstance(output["text"], list) else output["text"]
        for output in cell.get("outputs", [])
        if output.get("output_type") == "stream" and output.get("name") == "stdout"
    )


def _source(cell: dict[str, Any]) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else str(source)


def _run_course(lang: str) -> dict[tuple[str, int], dict[str, Any]]:
    """Every code cell of every notebook, run under ``TUTOR_LANG=lang``, by (file, index)."""
    merged = nbformat.v4.new_notebook()
    places: list[tuple[str, int]] = []
    for path in _notebook_paths():
        notebook = nbformat.read(path, as_version=4)
        for index, cell in enumerate(notebook.cells):
            if cell.cell_type == "code":
                merged.cells.append(nbformat.v4.new_code_cell(cell.source))
                places.append((path.name, index))
    saved = {name: os.environ.get(name) for name in (LANGUAGE_VARIABLE, QUERY_VARIABLE)}
    os.environ[LANGUAGE_VARIABLE] = lang  # the kernel inherits the environment
    os.environ.pop(QUERY_VARIABLE, None)  # as in JupyterLab: no page URL
    try:
        client = nbclient.NotebookClient(
            merged,
            timeout=120,
            kernel_name="python3",
            allow_errors=True,
            resources={"metadata": {"path": str(NOTEBOOKS)}},
        )
        client.execute()
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return {place: dict(cell) for place, cell in zip(places, merged.cells, strict=True)}


@pytest.fixture(scope="module", params=TRANSLATED)
def course_run(request: pytest.FixtureRequest) -> tuple[str, dict[tuple[str, int], Any]]:
    return request.param, _run_course(request.param)


def _english_fact_cells() -> dict[tuple[str, int], str]:
    """The saved (English) output of every cell that nbval compares and that prints."""
    facts = {}
    for path in _notebook_paths():
        notebook = json.loads(path.read_text(encoding="utf-8"))
        for index, cell in enumerate(notebook["cells"]):
            if cell["cell_type"] == "code" and IGNORE_OUTPUT not in _source(cell):
                printed = _stdout(cell)
                if printed.strip():
                    facts[(path.name, index)] = printed
    return facts


def test_the_course_has_fact_cells_to_compare() -> None:
    facts = _english_fact_cells()
    lesson_notebooks = {name for name, _ in facts}
    assert len(lesson_notebooks) >= 10, sorted(lesson_notebooks)


def test_every_notebook_runs_without_an_error(
    course_run: tuple[str, dict[tuple[str, int], Any]],
) -> None:
    lang, cells = course_run
    errors = [
        f"{name} cell {index}: {output.get('ename')}: {output.get('evalue')}"
        for (name, index), cell in cells.items()
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]
    assert not errors, f"TUTOR_LANG={lang}: " + "; ".join(errors)
    assert {name for name, _ in cells} == {path.name for path in _notebook_paths()}


def test_fact_cells_print_in_the_chosen_language(
    course_run: tuple[str, dict[tuple[str, int], Any]],
) -> None:
    lang, cells = course_run
    for place, english in _english_fact_cells().items():
        translated = _stdout(cells[place])
        assert translated.strip(), f"{place} printed nothing in {lang}"
        # Same facts, other words: as many lines (blank ones included), no English word left.
        assert translated.count("\n") == english.count("\n"), place
        assert ENGLISH_WORD.search(english), f"{place}: no English words to compare with"
        left = [line for line in translated.splitlines() if ENGLISH_WORD.search(line)]
        assert not left, f"{place} in {lang} still has English: {left}"
