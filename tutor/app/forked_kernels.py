"""The app's kernels, forked from one warm process instead of started from nothing.

A page's kernel used to be a new ``python -m tutor.app.kernel``: the interpreter's start
and the imports of ipykernel (debugpy included), IPython, ipywidgets and the tutor cost
0.35-0.5 CPU-s before the kernel answered, and the lesson's first cell 0.2 more in
imports, about half of a page's CPU in server and kernel; forked, 0.05 and 0.07
(benchmarks/classroom_benchmark.py prints the breakdown). Here one
*fork server* (``python -m tutor.app.forked_kernels``, started by the app) imports all of
that once, then forks a child per kernel request; the child becomes the kernel on the
connection file it was given and shares the imported pages with the fork server.

- **Before the fork, nothing runs that a child could not inherit**: the fork server only
  imports (no zmq context or socket, no thread, no event loop; it checks that it has one
  thread) and then waits on a plain Unix socket.
- **The child is the kernel a normal start would make**: its own session (the kernel
  manager signals the process group, as for a ``Popen`` kernel), the environment, working
  folder and arguments of the request (the kernel manager's: ``TUTOR_*``, Voila's
  ``QUERY_STRING`` with the page's language, ``JPY_PARENT_PID``), stdin from /dev/null,
  stdout and stderr the app's log, default signal handlers. What the imports did with
  the fork server's environment is done again in the child: ipykernel's
  ``$JPY_PARENT_PID``, ipywidgets' comm targets (registered only when imported in a
  running kernel: :func:`tutor.app.kernel.install`), the variables debugpy sets.
  Python's ``random`` reseeds itself in a forked child; the tutor draws every deal from
  ``random.Random()`` made after the fork (seeded from the system) or from
  ``SystemRandom``. (The children share the fork server's string hash seed, so a set of
  strings iterates in the same order in each: nothing random is drawn from it.)
- **Its end is seen and it is reaped**: the fork server waits for its children and tells
  the kernel's provisioner the exit code; the provisioner watches the process through a
  pidfd, so poll/wait/kill/terminate/interrupt work as for a child of the app.
- **Kernels go with the app**: the fork server exits when the app's process does, and each
  child watches the app's process and exits when it ends (a ``Popen`` kernel's parent
  poller does the same).
- **Falling back**: when the fork server cannot start or has died, or a kernel spec runs
  something other than ``tutor.app.kernel``, the kernel starts the normal way and the app
  logs one line why. Linux only (pidfds); elsewhere every kernel starts normally.

Only the app's own server uses it (``wizard-tutor app --kernel-start fork``, the default:
:mod:`tutor.app.launch` makes :class:`ForkProvisioner` the provisioner of its kernels);
JupyterLab and the hub's servers start their kernels the usual way.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import gc
import json
import logging
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from jupyter_client.connect import KernelConnectionInfo
from jupyter_client.provisioning.local_provisioner import LocalProvisioner

PROVISIONER_NAME = "tutor-fork-provisioner"
"""The entry point (group ``jupyter_client.kernel_provisioners``) of :class:`ForkProvisioner`."""

KERNEL_MODULE = "tutor.app.kernel"
"""The module a kernel spec must run (``python -m tutor.app.kernel ...``) to be forked."""

_WARM_IMPORTS = (
    "ipykernel.kernelapp",
    "ipykernel.ipkernel",
    "ipykernel.zmqshell",
    "ipykernel.debugger",  # debugpy: two thirds of a kernel's set-up, though never used here
    "IPython",
    "IPython.extensions",
    "sqlite3",  # IPython's history
    "pdb",
    "faulthandler",
    "ipywidgets",
    "anywidget",
    "psutil",  # ipykernel's, at every kernel's start
    "tutor.app.kernel",
    "tutor.display",
    "tutor.display.lesson_view",
)
"""What every page's kernel imports (the kernel, the widgets, a lesson page's modules)."""

log = logging.getLogger("tutor.app.forked_kernels")


class ForkServerUnavailable(Exception):
    """The fork server cannot make a kernel now; the message says why."""


# -- the fork server (its own process) ---------------------------------------------------------


_SET_BY_IMPORTS: set[str] = set()
"""The environment variables the imports set (debugpy's PYDEVD_USE_FRAME_EVAL)."""


def _warm() -> None:
    """Import what a kernel needs, and fill the caches that do not depend on the page."""
    import importlib

    before = dict(os.environ)
    for name in _WARM_IMPORTS:
        importlib.import_module(name)
    _SET_BY_IMPORTS.update(name for name, value in os.environ.items() if before.get(name) != value)
    from tutor.teaching.lesson import LessonError
    from tutor.teaching.lesson_loader import list_lessons
    from tutor.teaching.text import LANGUAGES, catalog

    for language in LANGUAGES:
        catalog(language)
    with contextlib.suppress(LessonError, OSError):  # the pages will say what is wrong
        list_lessons()  # read once here, not in every kernel (load_lesson_file)
    # What is imported stays: out of the garbage collector's sight, so that a kernel's
    # collections neither walk it nor write into its pages (each write copies a page the
    # kernels share with the fork server).
    gc.collect()
    gc.freeze()


def _send(connection: socket.socket | None, message: dict[str, Any]) -> None:
    if connection is None:
        return
    with contextlib.suppress(OSError):  # the provisioner went away: nobody to tell
        connection.sendall(json.dumps(message).encode() + b"\n")


def _read_request(connection: socket.socket) -> dict[str, Any]:
    data = b""
    connection.settimeout(10)
    while not data.endswith(b"\n"):
        chunk = connection.recv(65536)
        if not chunk:
            raise ValueError("the request ended before its last line")
        data += chunk
    request = json.loads(data)
    if not isinstance(request, dict) or not isinstance(request.get("args"), list):
        raise ValueError(f"not a kernel request: {data[:80]!r}")
    return request


def _watch_app(app_pid: int) -> None:
    """Exit this kernel when the app's process ``app_pid`` ends (a thread in the child)."""
    try:
        pidfd = os.pidfd_open(app_pid)
    except OSError:  # already gone
        os._exit(1)

    def watch() -> None:
        select.select([pidfd], [], [])
        os._exit(1)

    threading.Thread(target=watch, name="tutor-app-watch", daemon=True).start()


def _become_kernel(request: dict[str, Any], app_pid: int, open_fds: list[int]) -> int:
    """In the forked child: turn into the kernel ``request`` asks for; its exit code."""
    signal.set_wakeup_fd(-1)
    for fd in open_fds:
        with contextlib.suppress(OSError):
            os.close(fd)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    os.setsid()  # its own process group: the kernel manager signals the group
    stdin = os.open(os.devnull, os.O_RDONLY)
    os.dup2(stdin, 0)
    os.close(stdin)
    set_by_imports = {name: value for name, value in os.environ.items() if name in _SET_BY_IMPORTS}
    os.environ.clear()
    os.environ.update(request["env"])
    for name, value in set_by_imports.items():  # as if the kernel had imported them itself
        os.environ.setdefault(name, value)
    os.chdir(request["cwd"])
    _watch_app(app_pid)
    from ipykernel.kernelapp import IPKernelApp

    from tutor.app import kernel

    # ipykernel read $JPY_PARENT_PID when it was imported, in the fork server: read it again.
    IPKernelApp.instance(parent_handle=int(os.environ.get("JPY_PARENT_PID") or 0))

    sys.argv = [kernel.__file__, *request["args"]]
    try:
        kernel.main()
        code = 0
    except SystemExit as end:
        code = end.code if isinstance(end.code, int) else (0 if end.code is None else 1)
    # The end of a kernel whose page has gone: what is printed is flushed (to the page while
    # its output thread runs, then the server's log), and the child exits at once
    # (``os._exit`` in serve). The exit functions a normal exit runs are skipped: IPython's
    # clear of the page's namespace and its garbage collection, ipykernel's orderly close
    # of its sockets and threads, the fork server's inherited ones. Nothing is lost: the
    # kernel keeps nothing that is not written already (a learner's progress file is
    # written and synced at each event: tutor.teaching.progress_stores.FileStore; no input
    # history), and the server removes the connection file and the sockets' files.
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        with contextlib.suppress(Exception):
            if stream is not None:
                stream.flush()
    return code


def serve(listener: socket.socket, app_pid: int) -> None:
    """Fork a kernel for each request on ``listener`` until the app ``app_pid`` ends."""
    if threading.active_count() != 1:
        raise RuntimeError("the fork server must not fork with threads running")
    import zmq

    if zmq.Context._instance is not None:
        raise RuntimeError("the fork server must not fork with a zmq context open")
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_read, False)
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # wakes the select below
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the app's to handle
    children: dict[int, socket.socket | None] = {}  # kernel pid -> its provisioner
    while os.getppid() == app_pid:
        watched: list[Any] = [listener, wake_read, *(c for c in children.values() if c)]
        readable, _, _ = select.select(watched, [], [], 1.0)
        if wake_read in readable:
            with contextlib.suppress(BlockingIOError):
                os.read(wake_read, 4096)
        for pid, connection in list(children.items()):
            if connection is not None and connection in readable:
                # the provisioner never writes after its request: this is its end
                connection.close()
                children[pid] = None
        while children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            connection = children.pop(pid, None)
            _send(connection, {"exit": os.waitstatus_to_exitcode(status)})
            if connection is not None:
                connection.close()
        if listener not in readable:
            continue
        connection, _ = listener.accept()
        try:
            request = _read_request(connection)
        except (OSError, ValueError) as error:
            _send(connection, {"error": str(error)})
            connection.close()
            continue
        open_fds = [
            listener.fileno(),
            wake_read,
            wake_write,
            connection.fileno(),
            *(c.fileno() for c in children.values() if c is not None),
        ]
        for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
            stream.flush()
        pid = os.fork()
        if pid == 0:  # the kernel
            code = 1
            try:
                code = _become_kernel(request, app_pid, open_fds)
            except BaseException:
                import traceback

                traceback.print_exc()
            finally:
                os._exit(code)
        children[pid] = connection
        _send(connection, {"pid": pid})


def main() -> None:
    """``python -m tutor.app.forked_kernels FD APP_PID``: serve the listening socket ``FD``."""
    # As tutor.app.kernel: the current folder is not on the path while the kernel loads.
    if sys.path and (sys.path[0] == "" or Path(sys.path[0]) == Path.cwd()):
        del sys.path[0]
    listener = socket.socket(fileno=int(sys.argv[1]))
    app_pid = int(sys.argv[2])
    _warm()
    serve(listener, app_pid)


# -- the app's side -------------------------------------------------------------------------------


class ForkedKernelProcess:
    """A forked kernel, seen from the app as ``subprocess.Popen`` sees a child (what
    :class:`~jupyter_client.provisioning.LocalProvisioner` uses)."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int, connection: socket.socket) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._connection = connection
        self._connection.setblocking(False)  # read from the app's event loop: never waits
        self._received = b""
        self._ended_at: float | None = None
        self._pidfd = os.pidfd_open(pid)  # follows this process, never a later one with its pid

    def _reported_code(self) -> int | None:
        """The exit code the fork server reported once it reaped the kernel, ``None`` while
        it has not; -9 when it cannot (it has gone, or has not said for 5 s)."""
        while not self._received.endswith(b"\n"):
            try:
                chunk = self._connection.recv(4096)
            except BlockingIOError:
                break
            except OSError:
                chunk = b""
            if not chunk:  # the fork server has gone: nobody will say
                return -signal.SIGKILL
            self._received += chunk
        for line in self._received.splitlines():
            with contextlib.suppress(ValueError):
                message = json.loads(line)
                if isinstance(message, dict) and isinstance(message.get("exit"), int):
                    return int(message["exit"])
        assert self._ended_at is not None
        return -signal.SIGKILL if time.monotonic() - self._ended_at > 5 else None

    def poll(self) -> int | None:
        if self.returncode is None:
            if self._ended_at is None:
                ended, _, _ = select.select([self._pidfd], [], [], 0)
                if not ended:
                    return None
                self._ended_at = time.monotonic()
            self.returncode = self._reported_code()
            if self.returncode is not None:
                self._close()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise subprocess.TimeoutExpired(f"kernel {self.pid}", timeout or 0)
            watched = [self._pidfd] if self._ended_at is None else [self._connection]
            select.select(watched, [], [], min(left, 0.5) if left is not None else 0.5)
        return self.returncode  # type: ignore[return-value]  # poll gave an int

    def send_signal(self, signum: int) -> None:
        if self.poll() is None and self._ended_at is None:
            signal.pidfd_send_signal(self._pidfd, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def _close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._pidfd)
        self._connection.close()


class ForkServer:
    """The app's fork server: started once, asked for a kernel per page."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.path = ""
        self.why_not = ""

    def start(self) -> None:
        """Start the fork server (it warms up while the app starts). The socket is made
        here and handed over: a request made before the server is ready waits in the
        socket's queue, and once the server is gone a request is refused at once."""
        if self.process is not None or self.why_not:
            return
        if not hasattr(os, "pidfd_open") or not hasattr(os, "fork"):
            self.why_not = "this system has no pidfds (Linux only)"
            return
        folder = tempfile.mkdtemp(prefix="wizard-tutor-forks-")  # only this user's
        self.path = os.path.join(folder, "server")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(self.path)
            listener.listen(128)
            self.process = subprocess.Popen(
                [sys.executable, "-m", __name__, str(listener.fileno()), str(os.getpid())],
                pass_fds=[listener.fileno()],
                stdin=subprocess.DEVNULL,
            )
        except OSError as error:
            self.why_not = f"the fork server could not start ({error})"
        finally:
            listener.close()
        atexit.register(self.stop)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(5)
        with contextlib.suppress(OSError):
            os.unlink(self.path)
            os.rmdir(os.path.dirname(self.path))

    async def fork_kernel(
        self, args: list[str], env: dict[str, str], cwd: str, *, timeout: float = 60.0
    ) -> ForkedKernelProcess:
        """A kernel forked with ``args`` (after ``-m tutor.app.kernel``), ``env`` and ``cwd``."""
        self.start()
        if self.process is None:
            raise ForkServerUnavailable(self.why_not)
        if self.process.poll() is not None:
            raise ForkServerUnavailable(
                f"the fork server ended (exit code {self.process.returncode})"
            )
        loop = asyncio.get_running_loop()
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.setblocking(False)
        try:
            await loop.sock_connect(connection, self.path)
            request = {"args": args, "env": env, "cwd": cwd}
            await loop.sock_sendall(connection, json.dumps(request).encode() + b"\n")
            reply = await asyncio.wait_for(_read_line(loop, connection), timeout)
        except (TimeoutError, OSError) as error:
            connection.close()
            raise ForkServerUnavailable(f"the fork server did not answer ({error})") from None
        message = json.loads(reply) if reply else {"error": "it closed the connection"}
        if "pid" not in message:
            connection.close()
            raise ForkServerUnavailable(f"the fork server refused: {message.get('error')}")
        return ForkedKernelProcess(int(message["pid"]), connection)


async def _read_line(loop: asyncio.AbstractEventLoop, connection: socket.socket) -> bytes:
    """One line from ``connection``, or what came before it closed."""
    data = b""
    while not data.endswith(b"\n"):
        chunk = await loop.sock_recv(connection, 4096)
        if not chunk:
            break
        data += chunk
    return data


FORK_SERVER = ForkServer()
"""The app's one fork server (started by :mod:`tutor.app.launch`, else at the first kernel)."""


def kernel_arguments(cmd: list[str]) -> list[str] | None:
    """The arguments after ``-m tutor.app.kernel`` in a kernel command, or ``None`` when
    the command runs something else (that kernel starts the normal way).

    >>> kernel_arguments([sys.executable, "-m", "tutor.app.kernel", "-f", "k.json"])
    ['-f', 'k.json']
    >>> kernel_arguments([sys.executable, "-m", "ipykernel_launcher", "-f", "k.json"]) is None
    True
    >>> kernel_arguments(["/another/python", "-m", "tutor.app.kernel", "-f", "k.json"]) is None
    True
    """
    if len(cmd) >= 3 and cmd[0] == sys.executable and cmd[1:3] == ["-m", KERNEL_MODULE]:
        return list(cmd[3:])
    return None


class ForkProvisioner(LocalProvisioner):
    """Jupyter's local provisioner, with the kernel forked by :data:`FORK_SERVER` (the
    normal start when it cannot). Everything after the launch (poll, wait, signals, kill,
    cleanup) is the local provisioner's, on a :class:`ForkedKernelProcess`."""

    fallback_told = False  # the reason a kernel started normally is logged once

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> KernelConnectionInfo:
        args = kernel_arguments(cmd)
        if args is not None:
            env = dict(kwargs.get("env") or os.environ)
            env["JPY_PARENT_PID"] = str(os.getpid())  # as jupyter_client's launcher sets it
            cwd = str(kwargs.get("cwd") or os.getcwd())
            try:
                process = await FORK_SERVER.fork_kernel(args, env, cwd)
            except ForkServerUnavailable as error:
                if not ForkProvisioner.fallback_told:
                    ForkProvisioner.fallback_told = True
                    self.log.warning("Kernels start the normal way: %s", error)
            else:
                self.process = process  # type: ignore[assignment]  # a Popen's interface
                self.pid = self.pgid = process.pid  # the child leads its own group
                self.cwd = cwd
                return self.connection_info
        elif not ForkProvisioner.fallback_told:
            ForkProvisioner.fallback_told = True
            self.log.warning("Kernels start the normal way: their command is %s", cmd[:3])
        return await super().launch_kernel(cmd, **kwargs)


if __name__ == "__main__":
    main()
