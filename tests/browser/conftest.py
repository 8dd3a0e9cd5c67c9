"""Fixtures of the app tests besides the shared ones (Chromium, the app, the static site,
a page and its log: tests/browser/fixtures.py, registered for every test by
tests/conftest.py): a second app on a scratch folder (short kernel culling, a failing
notebook), and where a lesson's notebook is.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from .app_process import AppServer, scratch_notebooks
from .fixtures import EXPECT_TIMEOUT, PageLog, wait_until

__all__ = ["EXPECT_TIMEOUT", "PageLog", "wait_until"]  # imported from here by the tests

CULL_IDLE_TIMEOUT = 20
"""Seconds a kernel without a page may idle before the scratch app reclaims it. Not less:
a kernel has no connection yet between the end of the notebook's run and the moment its
page's scripts connect, which takes seconds on a loaded machine."""
CULL_INTERVAL = 1

FAILING_NOTEBOOK = "failing.ipynb"
FAILING_SECRET = "secret-detail-7f3a"
"""Appears in the failing notebook's exception; a viewer must never see it."""

QUIZ_NOTEBOOK = "quiz_06.ipynb"
"""Lesson 06's quiz, for the quiz test while notebooks/06_*.ipynb does not exist yet."""


@pytest.fixture(scope="session")
def scratch_app() -> Iterator[AppServer]:
    """The same app on a scratch folder: the worked example, a failing notebook, lesson
    06's quiz; kernels without a page are reclaimed after CULL_IDLE_TIMEOUT seconds."""
    folder = scratch_notebooks(
        {
            FAILING_NOTEBOOK: (
                "def hidden_helper():\n"
                f"    raise RuntimeError('{FAILING_SECRET}')\n\n"
                "hidden_helper()"
            ),
            QUIZ_NOTEBOOK: (
                "from tutor.display import show_quiz\n"
                "from tutor.teaching.lesson_loader import load_lesson\n\n"
                'show_quiz(load_lesson("06"))'
            ),
        }
    )
    server = AppServer(
        notebooks=folder,
        env={
            "TUTOR_CULL_IDLE_TIMEOUT": str(CULL_IDLE_TIMEOUT),
            "TUTOR_CULL_INTERVAL": str(CULL_INTERVAL),
        },
    ).start()
    yield server
    server.close()
    shutil.rmtree(folder, ignore_errors=True)


def lesson_notebook(number: str) -> Path | None:
    """notebooks/<number>_*.ipynb, if the lesson's notebook exists yet."""
    found = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob(f"{number}_*.ipynb"))
    return found[0] if found else None
