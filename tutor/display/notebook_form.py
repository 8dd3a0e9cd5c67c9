"""The form the course's notebooks are kept in: before it runs, a page shows one line
saying how to run it (never a widget's repr or a stale output); the course's files and a
learner's copy saved by JupyterLab are brought to that form.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from tutor.teaching.text import LANGUAGES, text

KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
"""The kernel every course notebook names: ipykernel's own spec, so JupyterLab saving a
notebook does not rewrite it."""

RUN_MENU = "Run ▸ Run All Cells"
"""JupyterLab's menu item that runs a notebook (its own words)."""

RUN_NOTE_COUNT = 1
"""The execution count of the cell that keeps the run note: an output belongs to a run,
and Jupyter's tools (nbval among them) take outputs without a count for a notebook saved
half-way through."""

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
"""An output that only the kernel which made it can draw."""

_PAGE_CALL = re.compile(r"\s*from tutor\.display import (show_\w+_page)\s+\1\(")


def run_note_output() -> dict[str, Any]:
    """What a course notebook shows before it runs (in JupyterLab): one line, in every
    language, saying how to run it: never a widget's Python repr or a stale output."""
    lines = [text("course.run-note", lang, menu=RUN_MENU) for lang in LANGUAGES]
    return {
        "output_type": "display_data",
        "data": {"text/markdown": "\n\n".join(lines), "text/plain": "\n".join(lines)},
        "metadata": {},
    }


def _code_cells(notebook: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [cell for cell in notebook.get("cells", []) if cell.get("cell_type") == "code"]


def _source(cell: Mapping[str, Any]) -> str:
    source = cell.get("source", "")
    return source if isinstance(source, str) else "".join(source)


def is_course_page(notebook: Mapping[str, Any]) -> bool:
    """Whether ``notebook`` shows a page of the tutor: its first code cell calls one of
    ``tutor.display``'s ``show_..._page`` (a course notebook, a teacher's lesson's, or a
    learner's copy of one).

    >>> is_course_page({"cells": [{"cell_type": "code",
    ...     "source": "from tutor.display import show_course_page\\n\\nshow_course_page()"}]})
    True
    >>> is_course_page({"cells": [{"cell_type": "code", "source": "print('mine')"}]})
    False
    """
    cells = _code_cells(notebook)
    return bool(cells) and _PAGE_CALL.match(_source(cells[0])) is not None


def _show_run_note(page_cell: dict[str, Any]) -> None:
    """The page's cell as it is kept: the run note for output, its count, only its tags."""
    metadata = page_cell.get("metadata", {})
    page_cell["metadata"] = {"tags": metadata["tags"]} if metadata.get("tags") else {}
    page_cell["execution_count"] = RUN_NOTE_COUNT
    page_cell["outputs"] = [run_note_output()]


def canonical_notebook(notebook: Mapping[str, Any]) -> dict[str, Any]:
    """``notebook`` in the form the course keeps it: the first code cell's only output is
    the run note (:func:`run_note_output`), other cells have none and no execution count,
    no cell metadata but ``tags``, no widget state; the kernelspec :data:`KERNELSPEC`. A
    run in JupyterLab changes none of it that matters; a learner's copy is saved in the
    like form, :func:`learners_copy`.

    >>> shaped = canonical_notebook({"cells": [{"cell_type": "code", "source": "1",
    ...     "execution_count": 3, "metadata": {"execution": {}}, "outputs": []}],
    ...     "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    >>> shaped["cells"][0]["execution_count"], shaped["cells"][0]["metadata"]
    (1, {})
    >>> shaped["cells"][0]["outputs"][0]["data"]["text/plain"].startswith("▶")
    True
    """
    shaped = learners_copy(notebook)
    for cell in shaped.get("cells", []):
        metadata = cell.get("metadata", {})
        cell["metadata"] = {"tags": metadata["tags"]} if metadata.get("tags") else {}
    for cell in _code_cells(shaped)[1:]:
        cell["execution_count"] = None
        cell["outputs"] = []
    shaped["metadata"]["kernelspec"] = dict(KERNELSPEC)
    shaped["metadata"]["language_info"] = {"name": "python"}
    return shaped


def learners_copy(notebook: Mapping[str, Any]) -> dict[str, Any]:
    """A learner's copy of a course page as JupyterLab saves it (``wizard-tutor lab``,
    :mod:`tutor.app.lab_save`): the page's cell as the course keeps it, with the run note
    and never the page's widgets, which only the kernel that made them can draw (after
    that kernel is gone, Lab would show "Error displaying widget: model not found" where
    the quiz was); no widget state. The cells the learner added keep their outputs but
    widgets. The ``kernelspec`` and ``language_info`` stay as Lab set them from the
    kernel, so that opening the copy again changes nothing.

    >>> page = {"cells": [{"cell_type": "code", "metadata": {}, "execution_count": 4,
    ...     "source": "from tutor.display import show_course_page\\nshow_course_page()",
    ...     "outputs": [{"output_type": "display_data", "metadata": {},
    ...                  "data": {WIDGET_VIEW: {"model_id": "7"}, "text/plain": "…"}}]}],
    ...     "metadata": {"widgets": {}, "language_info": {"name": "python", "version": "3"}}}
    >>> saved = learners_copy(page)
    >>> saved["cells"][0]["outputs"] == [run_note_output()], saved["metadata"]
    (True, {'language_info': {'name': 'python', 'version': '3'}})
    """
    shaped = copy.deepcopy(dict(notebook))
    shaped["metadata"] = {
        key: value for key, value in shaped.get("metadata", {}).items() if key != "widgets"
    }
    cells = _code_cells(shaped)
    for cell in cells[1:]:
        cell["outputs"] = [
            output
            for output in cell.get("outputs", [])
            if WIDGET_VIEW not in output.get("data", {})
        ]
    if cells:
        _show_run_note(cells[0])
    return shaped
