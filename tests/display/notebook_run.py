"""A notebook run as a page's kernel runs it (nbclient): the page's variables in the
environment the kernel inherits, for the run only; its folder as the working directory;
its widgets' state kept. Shared by test_notebooks.py and
benchmarks/page_widgets_benchmark.py."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import nbclient
from nbformat import NotebookNode

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def run_notebook(
    notebook: NotebookNode,
    *,
    env: Mapping[str, str | None],
    folder: Path,
    kernel_name: str = "python3",
    allow_errors: bool = False,
) -> dict[str, Any]:
    """Execute ``notebook`` in place with ``env`` (a value None: unset) in the kernel's
    environment, started in ``folder``; the widget models the run leaves open, by id."""
    saved = {name: os.environ.get(name) for name in env}
    for name, value in env.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    try:
        nbclient.NotebookClient(
            notebook,
            timeout=180,
            # nbclient's default waits 4 s for a cell's output after its reply, then drops
            # the rest without a word: on a loaded machine a lesson's widgets came late and
            # the test saw a page without its quiz (the app sets the same, tutor/app/settings.py)
            iopub_timeout=60,
            raise_on_iopub_timeout=True,
            kernel_name=kernel_name,
            allow_errors=allow_errors,
            store_widget_state=True,
            resources={"metadata": {"path": str(folder)}},
        ).execute()
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    models: dict[str, Any] = (
        notebook.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    )
    return models
