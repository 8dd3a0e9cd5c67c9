"""Start and stop JupyterLab as a learner does (``wizard-tutor lab``), on a free port and a
scratch copy of the course, with its own HOME and progress file; and open a notebook of it
in Chromium."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from process_guard import guard, stop_group, unguard

from .app_process import free_port

LAB_START_TIMEOUT = 180.0


class LabServer:
    """``python -m tutor lab --no-browser`` on ``folder`` (default: a new scratch folder
    that the command fills with its copy of the course)."""

    def __init__(self, *, lang: str | None = None, folder: Path | None = None) -> None:
        self.scratch = Path(tempfile.mkdtemp(prefix="wizard-tutor-lab-test-"))
        self.folder = folder or self.scratch / "wizard-tutor"
        self.port = free_port()
        self.token = "lab-test-" + os.urandom(8).hex()
        self.lang = lang
        self.log_path = self.scratch / "lab.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def notebook_url(self, name: str) -> str:
        """A notebook in a workspace of its own (``reset``: no tab of an earlier test)."""
        return f"{self.url}/lab/tree/{name}?token={self.token}&reset"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def api(self, path: str, method: str = "GET") -> Any:
        request = urllib.request.Request(
            f"{self.url}/api/{path}", method=method,
            headers={"Authorization": f"token {self.token}"},
        )  # fmt: skip
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body else None

    def start(self) -> LabServer:
        home = self.scratch / "home"
        home.mkdir()
        environment = {
            **os.environ,
            "HOME": str(home),
            "TUTOR_PROGRESS_FILE": str(self.scratch / "progress.jsonl"),
            "JUPYTER_RUNTIME_DIR": str(self.scratch / "runtime"),
        }
        environment.pop("TUTOR_LANG", None)
        command = [sys.executable, "-m", "tutor", "lab", "--no-browser", "--port", str(self.port),
                   "--dir", str(self.folder)]  # fmt: skip
        if self.lang:
            command += ["--lang", self.lang]
        command += ["--", f"--IdentityProvider.token={self.token}"]
        with self.log_path.open("wb") as output:
            self.process = subprocess.Popen(
                command, cwd=self.scratch, stdout=output, stderr=subprocess.STDOUT,
                env=environment, start_new_session=True,
            )  # fmt: skip
        guard(self, self.close)  # an interrupted run stops it too
        deadline = time.monotonic() + LAB_START_TIMEOUT
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"JupyterLab stopped:\n{self.log()}")
            try:
                self.api("contents")
                return self
            except OSError:
                if time.monotonic() > deadline:
                    self.close()
                    raise RuntimeError(f"JupyterLab did not answer:\n{self.log()}") from None
                time.sleep(0.5)

    def shut_down_kernels(self) -> None:
        """What the next day looks like to a saved notebook: no kernel holds its widgets."""
        for kernel in self.api("kernels"):
            self.api(f"kernels/{kernel['id']}", method="DELETE")

    def close(self) -> None:
        unguard(self)
        stop_group(self.process, grace=60)


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
