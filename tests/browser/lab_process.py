"""Start and stop JupyterLab as a learner does (``wizard-tutor lab``), on a free port and a
scratch copy of the course, with its own HOME and progress file; and open a notebook of it
in Chromium. The one Lab harness of the tests (tests/browser, and tests/scenarios' host)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from process_guard import guard, stop_group, unguard

from tutor.resources import notebooks_dir
from tutor.teaching.progress_stores import PROGRESS_FILE_VARIABLE, PROGRESS_STORE_VARIABLE

from .app_process import free_port

LAB_START_TIMEOUT = 240.0
"""s JupyterLab may take to answer after its start, and a notebook of it to open with its
kernel: on a loaded 2-core machine."""


class LabServer:
    """``wizard-tutor lab --no-browser`` on a learner's copy of the course (``folder``,
    default a new scratch folder that the command fills), in a scratch home of its own, as
    a learner starts it: Lab in ``lang`` (None: Lab's default), the kernels' progress in
    :attr:`progress_file` (``--progress``), a token for this harness's API calls. Used by
    tests/browser/test_lab.py and, one per language, by the scenarios' Lab host."""

    def __init__(self, *, lang: str | None = None, folder: Path | None = None) -> None:
        self.lang = lang
        self.home = Path(tempfile.mkdtemp(prefix=f"tutor-lab-{lang or 'default'}-"))
        self.folder = folder or self.home / "wizard-tutor"
        self.progress_file = self.home / "progress.jsonl"
        self.port = free_port()
        self.token = "lab-test-" + os.urandom(8).hex()
        self.log_path = self.home / "lab.log"
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, path: str = "") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def notebook_url(self, name: str) -> str:
        """A notebook in a workspace of its own (``reset``: no tab of an earlier test)."""
        return self.url(f"/lab/tree/{name}?reset&token={self.token}")

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def api(self, method: str, path: str) -> Any:
        """Call Lab's REST API (``/api/<path>``) with the token; the decoded JSON."""
        request = urllib.request.Request(
            self.url(f"/api/{path.lstrip('/')}"),
            method=method,
            headers={"Authorization": f"token {self.token}"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body else None

    def start(self, timeout: float = LAB_START_TIMEOUT) -> LabServer:
        environment = {
            **os.environ,
            "HOME": str(self.home),  # Lab's settings and workspaces start empty
            "JUPYTER_RUNTIME_DIR": str(self.home / "runtime"),
        }
        for name in ("TUTOR_LANG", PROGRESS_FILE_VARIABLE, PROGRESS_STORE_VARIABLE):
            environment.pop(name, None)
        # --progress: what the kernels of a Lab started with it keep (without the option
        # they would write in HOME/.wizard-tutor instead)
        command = [
            sys.executable, "-m", "tutor", "lab", "--no-browser",
            "--port", str(self.port), "--dir", str(self.folder),
            "--progress", str(self.progress_file),
            *(["--lang", self.lang] if self.lang else []),
            "--", f"--IdentityProvider.token={self.token}",
        ]  # fmt: skip
        with self.log_path.open("wb") as output:
            self.process = subprocess.Popen(
                command, cwd=self.home, stdout=output, stderr=subprocess.STDOUT,
                env=environment, start_new_session=True,
            )  # fmt: skip
        guard(self, self.close)  # an interrupted run stops it too
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"JupyterLab exited:\n{self.log()}")
            with contextlib.suppress(OSError):  # not listening yet
                self.api("GET", "status")
                return self
            if time.monotonic() > deadline:
                log = self.log()
                self.close()  # removes the log with the home
                raise RuntimeError(f"JupyterLab did not answer on port {self.port}:\n{log}")
            time.sleep(0.3)

    def kernels_idle(self) -> bool:
        kernels = self.api("GET", "kernels")
        return bool(kernels) and all(k["execution_state"] == "idle" for k in kernels)

    def shut_down_kernels(self) -> None:
        """What the next day looks like to a saved notebook: no kernel holds its widgets."""
        for kernel in self.api("GET", "kernels"):
            self.api("DELETE", f"kernels/{kernel['id']}")

    def forget_learner(self) -> None:
        """Shut every notebook's kernel down, remove the progress file, and put the course's
        notebooks back in the copy (as a learner who deletes a copy gets the original)."""
        for session in self.api("GET", "sessions"):
            with contextlib.suppress(urllib.error.HTTPError):  # already gone
                self.api("DELETE", f"sessions/{session['id']}")
        self.progress_file.unlink(missing_ok=True)
        for notebook in notebooks_dir().glob("*.ipynb"):
            shutil.copyfile(notebook, self.folder / notebook.name)

    def close(self) -> None:
        unguard(self)
        stop_group(self.process, grace=60)
        shutil.rmtree(self.home, ignore_errors=True)


NOTEBOOK_PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
CURRENT_TAB = ".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current"
KERNEL_IDLE = ".jp-Notebook-ExecutionIndicator[data-status='idle']"


def open_notebook(page: Any, lab: LabServer, name: str) -> Any:
    """Open ``name`` in Lab and wait until its kernel is idle; returns its panel."""
    page.goto(lab.notebook_url(name))
    panel = page.locator(NOTEBOOK_PANEL)
    panel.wait_for(timeout=LAB_START_TIMEOUT * 1000)
    page.locator(KERNEL_IDLE).wait_for(timeout=LAB_START_TIMEOUT * 1000)
    return panel


def tab_is_dirty(page: Any) -> bool:
    """The notebook's tab shows unsaved changes (its ● instead of the close button)."""
    classes = page.locator(CURRENT_TAB).first.get_attribute("class") or ""
    return "jp-mod-dirty" in classes.split()
