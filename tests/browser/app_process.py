"""Start and stop the app exactly as the README does (``bash scripts/app.sh``), on a free
port, and look at it from outside: its log, its kernel processes, the browser to drive it.

Used by the browser tests and by benchmarks/app_benchmark.py.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from process_guard import guard, stop_group, unguard

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
CHROMIUM_PACKAGES = "chromium fonts-noto-cjk fonts-dejavu-core"
INSTALL_HINT = (
    "install Debian's Chromium with `sudo apt-get install -y --no-install-recommends "
    f"{CHROMIUM_PACKAGES}` (or point TUTOR_CHROMIUM at a Chromium binary); "
    "`playwright install` cannot download browsers here"
)


def chromium_path() -> str | None:
    """The Chromium binary: ``$TUTOR_CHROMIUM``, else /usr/bin/chromium, else ``None``."""
    for candidate in (os.environ.get("TUTOR_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def _chromium_or_fail() -> str:
    path = chromium_path()
    if path is None:
        raise RuntimeError("Chromium not found: " + INSTALL_HINT)
    return path


def launch_chromium(playwright: Any) -> Any:
    """Debian's Chromium through Playwright (never a downloaded browser)."""
    return playwright.chromium.launch(executable_path=_chromium_or_fail(), args=CHROMIUM_FLAGS)


def launch_chromium_profile(playwright: Any, folder: Path, viewport: dict[str, int]) -> Any:
    """Debian's Chromium on the profile ``folder``: its own browser context (Playwright's
    persistent context) keeps the HTTP cache and the compiled JavaScript and WebAssembly
    between pages as a learner's browser does (a ``new_context()`` keeps neither); its
    ``.browser`` makes throwaway contexts in the same Chromium."""
    return playwright.chromium.launch_persistent_context(
        folder, executable_path=_chromium_or_fail(), args=CHROMIUM_FLAGS, viewport=viewport
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _parent_pid(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # "pid (comm) state ppid ...": comm may hold spaces and brackets, so split after it.
    return int(stat[stat.rindex(")") + 2 :].split()[1])


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _processes() -> list[Path]:
    return [entry for entry in Path("/proc").iterdir() if entry.name.isdigit()]


class AppServer:
    """``bash scripts/app.sh`` in its own process group, on ``port``; ``args`` are more
    options of ``wizard-tutor app``, ``command`` another way to start it (e.g. the
    ``wizard-tutor`` of an installed wheel)."""

    def __init__(
        self,
        *,
        port: int | None = None,
        notebooks: Path | None = None,
        classroom: bool = False,
        env: dict[str, str] | None = None,
        args: list[str] | None = None,
        command: list[str] | None = None,
        cwd: Path | None = None,
        inherit_env: bool = True,
    ) -> None:
        self.port = port if port is not None else free_port()
        self.notebooks = notebooks
        self.classroom = classroom
        self.extra_env = env or {}
        self.args = args or []
        self.command = command or ["bash", str(ROOT / "scripts" / "app.sh")]
        self.cwd = cwd or ROOT
        self.inherit_env = inherit_env  # False: ``env`` is the whole environment
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = Path(tempfile.mkstemp(prefix="tutor-app-", suffix=".log")[1])
        self.started_in = 0.0

    # -- life cycle --------------------------------------------------------------------

    def start(self, timeout: float = 600.0) -> AppServer:
        """Start the app and wait until it answers (the first run may build .venv)."""
        command = [*self.command, "--port", str(self.port), *self.args]
        if self.notebooks is not None:
            command += ["--notebooks", str(self.notebooks)]
        if self.classroom:
            command.append("--classroom")
        env = {**(os.environ if self.inherit_env else {}), **self.extra_env}
        env.pop("TUTOR_PORT", None)
        if self.classroom and "TUTOR_ROOM_DB" not in env:
            # the live room's file beside the log, never the tester's ~/.wizard-tutor
            env["TUTOR_ROOM_DB"] = str(self.log_path.with_suffix(".room.sqlite3"))
        started = time.monotonic()
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                command,
                cwd=self.cwd,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stop() ends all of it
                env=env,
            )
        guard(self, self.stop)  # an interrupted run stops it too
        deadline = started + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"{' '.join(command)} exited with {self.process.returncode}:\n{self.log()}"
                )
            if self._answers():
                self.started_in = time.monotonic() - started
                return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the app did not answer on port {self.port}:\n{self.log()}")

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                pass
        except OSError:
            return False
        return "Voilà is running at" in self.log() or "Voila is running at" in self.log()

    def stop(self) -> None:
        """End the app's process group (Voila shuts its kernels down on SIGTERM)."""
        unguard(self)
        stop_group(self.process, grace=20)

    def close(self) -> None:
        """Stop the app and remove its log (and the live room's file kept beside it)."""
        self.stop()
        self.log_path.unlink(missing_ok=True)
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.log_path.with_suffix('.room.sqlite3')}{suffix}").unlink(missing_ok=True)

    def __enter__(self) -> AppServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- looking at it -----------------------------------------------------------------

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def render_url(self, notebook: str, query: str = "") -> str:
        return self.url(f"/voila/render/{notebook}") + (f"?{query}" if query else "")

    def token(self) -> str | None:
        """The token printed by ``--classroom``."""
        match = re.search(r"\?token=([\w-]+)", self.log())
        return match.group(1) if match else None

    def room_code(self) -> str | None:
        """The live room's code printed by ``--classroom``."""
        match = re.search(r"The live room ([A-Z]{4})", self.log())
        return match.group(1) if match else None

    def teacher_key(self) -> str | None:
        """The teacher's key of the live room, from the start address ``--classroom``
        prints (the last one: a restarted app prints a new one)."""
        keys = re.findall(r"/room/teacher\?key=([\w-]+)", self.log())
        return keys[-1] if keys else None

    def kernel_pids(self) -> list[int]:
        """The kernel processes the app has running now: its kernel children
        (``python -m tutor.app.kernel``) and its fork server's children (a forked kernel,
        tutor/app/forked_kernels.py)."""
        assert self.process is not None
        server = self.process.pid  # app.sh exec's wizard-tutor: the same process
        parents = {int(entry.name): _parent_pid(int(entry.name)) for entry in _processes()}
        forks = set(self.fork_server_pids())
        return sorted(
            pid
            for pid, parent in parents.items()
            if parent in forks or (parent == server and "tutor.app.kernel" in _command_line(pid))
        )

    def fork_server_pids(self) -> list[int]:
        """The app's fork server (``python -m tutor.app.forked_kernels``), if it has one."""
        assert self.process is not None
        server = self.process.pid
        return sorted(
            int(entry.name)
            for entry in _processes()
            if _parent_pid(int(entry.name)) == server
            and "tutor.app.forked_kernels" in _command_line(int(entry.name))
        )

    def get(self, path: str, *, timeout: float = 60.0) -> tuple[int, str, dict[str, str]]:
        """A plain HTTP GET (no browser): status, body and headers; redirects not followed."""

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args: Any, **kwargs: Any) -> None:
                return None

        opener = urllib.request.build_opener(NoRedirect)
        try:
            with opener.open(self.url(path), timeout=timeout) as response:
                body = response.read().decode("utf-8", errors="replace")
                return response.status, body, dict(response.headers)
        except urllib.error.HTTPError as error:
            body = error.read().decode("utf-8", errors="replace")
            return error.code, body, dict(error.headers)


def scratch_notebooks(extra: dict[str, str] | None = None) -> Path:
    """A temporary folder with a copy of the worked example plus ``extra`` notebooks
    (name -> code of their single cell)."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook

    folder = Path(tempfile.mkdtemp(prefix="tutor-notebooks-"))
    shutil.copy(NOTEBOOKS / "08_worked_example.ipynb", folder)
    kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for name, code in (extra or {}).items():
        notebook = new_notebook(cells=[new_code_cell(code)], metadata={"kernelspec": kernelspec})
        nbformat.write(notebook, folder / name)
    return folder
