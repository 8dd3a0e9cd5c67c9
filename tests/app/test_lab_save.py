"""What JupyterLab saves (tutor/app/lab_save.py): a learner's copy of a course page
without the run's widgets and with the note saying how to run it, a notebook of the
learner's own as it is, and nothing into the course's own notebooks, also in a Jupyter
server started without ``wizard-tutor lab``. JupyterLab itself in Chromium:
tests/browser/test_lab.py."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import nbformat
import pytest
from process_guard import stop_group
from tornado.web import HTTPError

from tutor.app.lab_save import save_course_pages
from tutor.display.notebook_form import WIDGET_VIEW, run_note_output
from tutor.resources import notebooks_dir

LANGUAGE_INFO = {
    "codemirror_mode": {"name": "ipython", "version": 3},
    "file_extension": ".py",
    "mimetype": "text/x-python",
    "name": "python",
    "nbconvert_exporter": "python",
    "pygments_lexer": "ipython3",
    "version": "3.11.7",
}


def widget_output(model_id: str) -> dict[str, Any]:
    return {
        "output_type": "display_data",
        "metadata": {},
        "data": {WIDGET_VIEW: {"model_id": model_id, "version_major": 2}, "text/plain": "…"},
    }


def html_output(html: str) -> dict[str, Any]:
    return {"output_type": "display_data", "metadata": {}, "data": {"text/html": html}}


def lesson_after_run_all() -> dict[str, Any]:
    """Lesson 04 as JupyterLab holds it after Run All, plus a cell the learner added."""
    notebook = json.loads((notebooks_dir() / "04_follow_suit.ipynb").read_text(encoding="utf-8"))
    page = notebook["cells"][0]
    page["execution_count"] = 3
    page["metadata"] = {"trusted": True}
    page["outputs"] = [html_output("<nav>All lessons</nav>"), widget_output("quiz")]
    mine = {
        "cell_type": "code",
        "execution_count": 4,
        "id": "mine",
        "metadata": {},
        "source": "from tutor import trick_winner\ntrick_winner('J B5 B11 B7', trump='R')",
        "outputs": [
            {"output_type": "execute_result", "execution_count": 4, "metadata": {},
             "data": {"text/plain": "2"}},
            widget_output("their-own-widget"),
        ],
    }  # fmt: skip
    notebook["cells"].append(mine)
    notebook["metadata"]["language_info"] = dict(LANGUAGE_INFO)
    notebook["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {}}
    return notebook


def save(content: dict[str, Any], folder: Path, name: str) -> dict[str, Any]:
    model = {"type": "notebook", "format": "json", "content": content}
    save_course_pages(
        model=model, path=name, contents_manager=SimpleNamespace(root_dir=str(folder))
    )
    return model


def test_a_learners_copy_is_saved_with_the_run_note_and_without_the_runs_widgets(
    tmp_path: Path,
) -> None:
    saved = save(lesson_after_run_all(), tmp_path, "04_follow_suit.ipynb")["content"]
    page, mine = saved["cells"]
    assert page["outputs"] == [run_note_output()] and page["metadata"] == {}
    assert page["source"] == lesson_after_run_all()["cells"][0]["source"]
    # the learner's own cell keeps what it printed, not a widget that needs its kernel
    assert mine["outputs"] == [lesson_after_run_all()["cells"][1]["outputs"][0]]
    assert "widgets" not in saved["metadata"]
    # as Lab set it from the kernel, so that reopening the copy changes nothing
    assert saved["metadata"]["language_info"] == LANGUAGE_INFO
    assert len(json.dumps(saved)) < 3000


def test_a_notebook_of_the_learners_own_is_saved_as_it_is(tmp_path: Path) -> None:
    notebook = lesson_after_run_all()
    notebook["cells"] = notebook["cells"][1:]  # no page: only the learner's cell
    saved = save(copy.deepcopy(notebook), tmp_path, "Untitled.ipynb")["content"]
    assert saved == notebook


@pytest.mark.parametrize("name", ["04_follow_suit.ipynb", "Untitled.ipynb", "sub/new.ipynb"])
def test_nothing_is_saved_into_the_courses_own_notebooks(name: str) -> None:
    before = {path.name: path.read_bytes() for path in notebooks_dir().glob("*.ipynb")}
    with pytest.raises(HTTPError) as refused:
        save(lesson_after_run_all(), notebooks_dir(), name)
    assert refused.value.status_code == 403
    message = refused.value.log_message
    assert Path(name).name in message and "wizard-tutor lab" in message
    assert {path.name: path.read_bytes() for path in notebooks_dir().glob("*.ipynb")} == before


def _request(url: str, token: str, method: str = "GET", body: Any = None) -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Authorization": f"token {token}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


@pytest.mark.slow
def test_any_jupyter_server_of_the_environment_saves_so(tmp_path: Path) -> None:
    """``jupyter lab notebooks/`` started by hand, not through ``wizard-tutor lab``: the
    environment's Jupyter config (installed with the tutor) loads the same hook. The
    server is rooted above the course's notebooks, to save into them and into a
    learner's copy beside them through the contents API, as Lab's autosave does."""
    from tests.browser.app_process import free_port

    port, token = free_port(), "save-test-" + os.urandom(6).hex()
    mine = tmp_path / "copy"
    mine.mkdir()
    course = notebooks_dir()
    root = Path(os.path.commonpath([course, tmp_path]))
    environment = {**os.environ, "HOME": str(tmp_path), "JUPYTER_RUNTIME_DIR": str(tmp_path / "rt")}
    environment.pop("JUPYTER_CONFIG_PATH", None)
    log = (tmp_path / "server.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter_server", f"--ServerApp.root_dir={root}",
         f"--ServerApp.port={port}", "--ServerApp.port_retries=0", "--no-browser",
         f"--IdentityProvider.token={token}", "--allow-root"],
        stdout=log, stderr=subprocess.STDOUT, env=environment, start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}/api/contents"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, (tmp_path / "server.log").read_text()
            try:
                if _request(base, token)[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "server.log").read_text()
            time.sleep(0.5)
        model = {"type": "notebook", "format": "json", "content": lesson_after_run_all()}
        into_course = (course / "04_follow_suit.ipynb").relative_to(root).as_posix()
        before = (course / "04_follow_suit.ipynb").read_bytes()
        status, reply = _request(f"{base}/{into_course}", token, "PUT", model)
        assert status == 403 and "wizard-tutor lab" in reply["message"], reply
        assert (course / "04_follow_suit.ipynb").read_bytes() == before
        copy_path = (mine / "04_follow_suit.ipynb").relative_to(root).as_posix()
        status, reply = _request(f"{base}/{copy_path}", token, "PUT", model)
        assert status in (200, 201), reply
        saved = nbformat.read(mine / "04_follow_suit.ipynb", as_version=4)
        assert saved["cells"][0]["outputs"] == [run_note_output()]
        assert "widgets" not in saved["metadata"]
    finally:
        stop_group(server, grace=60)
        log.close()
