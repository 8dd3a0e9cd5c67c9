"""JupyterLab as a learner meets it (``wizard-tutor lab``), in Chromium: a notebook opens
unchanged, runs, and is saved as a small file that reopens the next day (no kernel holds
its widgets any more) with the note saying how to run it, never "Error displaying
widget". The save itself on its own: tests/app/test_lab_save.py."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from typing import Any

import nbformat
import pytest

from tutor.display.notebook_form import WIDGET_VIEW, run_note_output
from tutor.resources import notebooks_dir
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.text import text

from .conftest import PageLog, wait_until
from .lab_process import KERNEL_IDLE, LAB_START_TIMEOUT, LabServer, open_notebook, tab_is_dirty

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LESSON = "04_follow_suit"
KEPT_FORM = "kept_form.ipynb"
"""The lesson as the course keeps it (language_info without the kernel's details)."""
WIDGET_ERROR = "Error displaying widget"


@pytest.fixture(scope="module")
def lab() -> Iterator[LabServer]:
    server = LabServer().start()
    shutil.copyfile(notebooks_dir() / f"{LESSON}.ipynb", server.folder / KEPT_FORM)
    yield server
    server.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def console(page: Any) -> PageLog:
    """The page's requests and console messages, recorded from its first."""
    log = PageLog()
    log.attach(page)
    return log


def stays_clean(page: Any, seconds: float) -> None:
    """The tab shows no unsaved change for ``seconds`` (the window in which Lab, seen
    doing it to the kept form, marks a notebook changed once its kernel is there)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert not tab_is_dirty(page), "the notebook was marked changed though nobody changed it"
        time.sleep(0.1)


def test_a_learners_copy_opens_unchanged_and_reopens_after_a_run_with_the_run_note(
    lab: LabServer, page: Any, console: PageLog
) -> None:
    run_note = text("course.run-note", "en", menu="Run ▸ Run All Cells")
    # Control: the course's own form is marked changed once the kernel reports itself
    # (Lab writes the kernel's language_info into it); how long that takes here is the
    # window in which the learner's copy must stay clean.
    open_notebook(page, lab, KEPT_FORM)
    idle = time.monotonic()
    wait_until(lambda: tab_is_dirty(page), 60_000, "Lab marking the kept form changed")
    window = max(5.0, 3 * (time.monotonic() - idle))

    # A fresh copy, opened: nothing changed, nothing to save.
    panel = open_notebook(page, lab, f"{LESSON}.ipynb")
    panel.get_by_text(run_note).wait_for()
    stays_clean(page, window)

    # Run All: the page with its quiz.
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.locator('li[data-command="runmenu:run-all"]').click()
    prompt = load_lesson(LESSON).questions()[0].prompt("en")
    panel.get_by_text(prompt).first.wait_for(state="attached", timeout=LAB_START_TIMEOUT * 1000)
    assert panel.get_by_text(WIDGET_ERROR).count() == 0

    # Lab started, ran the page and drew its widgets: nothing asked outside this machine,
    # and no console error (JupyterLite's kernel extension, installed beside Lab for the
    # static site, is kept out of its page: tutor/app/lab_page.py)
    console.assert_clean()

    # Save (as autosave does): the file keeps the note, not the run's widgets.
    page.get_by_role("menuitem", name="File", exact=True).click()
    page.locator('li[data-command="docmanager:save"]').click()
    wait_until(lambda: not tab_is_dirty(page), 60_000, "the save to finish")
    saved_path = lab.folder / f"{LESSON}.ipynb"
    saved_text = saved_path.read_text(encoding="utf-8")
    saved = nbformat.reads(saved_text, as_version=4)
    assert saved.cells[0].outputs == [run_note_output()]
    assert WIDGET_VIEW not in saved_text and "widgets" not in saved.metadata
    assert len(saved_text.encode()) < 4000, f"{len(saved_text.encode())} bytes"
    # what Lab set from the kernel is kept, so that the next opening changes nothing
    assert json.loads(saved_text)["metadata"]["language_info"]["name"] == "python"
    assert "version" in saved.metadata.language_info

    # The next day: the kernel is gone; the notebook reopens with the note, no widget
    # that cannot be drawn, and nothing changed.
    lab.shut_down_kernels()
    panel = open_notebook(page, lab, f"{LESSON}.ipynb")
    panel.get_by_text(run_note).wait_for()
    page_cell = panel.locator(".jp-CodeCell").first
    assert page_cell.locator(".jp-OutputArea-output").count() == 1
    assert panel.get_by_text(WIDGET_ERROR).count() == 0
    stays_clean(page, window)
    assert page.locator(KERNEL_IDLE).count() == 1
