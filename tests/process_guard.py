"""No server a test run started outlives the run, however the run ends.

The app, Lab and the hub run in process groups of their own (``start_new_session``: a
Ctrl+C at the terminal reaches them only through their own stop()), so a run that skipped
its fixtures' teardown left them running: pytest killed by SIGTERM (its default action:
no teardown at all), or a Ctrl+C while a server was still starting (its fixture had not
yet yielded). Hence:

- ``stop_group(process, grace)``: how a harness stops a server it started in a session
  of its own (SIGTERM to its process group, SIGKILL after ``grace`` seconds);
- ``guard(key, stop)`` when a server starts, ``unguard(key)`` once it is stopped: at the
  interpreter's exit (a finished, failed or interrupted run) every server still guarded is
  stopped, newest first;
- ``sigterm_as_interrupt()`` (tests/conftest.py): SIGTERM raises KeyboardInterrupt, as
  Ctrl+C does, so pytest tears its fixtures down;
- ``sigterm_as_exit()`` (every script in benchmarks/, stopped by ``timeout`` say): SIGTERM
  raises SystemExit, so the script's ``with`` blocks and ``finally`` clauses close the
  servers and browsers it started, then the guard stops what is left.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import subprocess
import threading
from collections.abc import Callable, Hashable
from types import FrameType
from typing import Any

_stops: dict[Hashable, Callable[[], object]] = {}
_lock = threading.Lock()


def guard(key: Hashable, stop: Callable[[], object]) -> None:
    """Call ``stop()`` at exit unless ``unguard(key)`` came first."""
    with _lock:
        _stops[key] = stop


def unguard(key: Hashable) -> None:
    with _lock:
        _stops.pop(key, None)


def stop_group(process: subprocess.Popen[Any] | None, grace: float) -> None:
    """End the process group of ``process`` (started with ``start_new_session``): SIGTERM,
    which lets a server stop its kernels, then SIGKILL if it has not ended within
    ``grace`` seconds. Nothing happens to a process that has ended already."""
    if process is None or process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
    except ProcessLookupError:  # the group ended between poll() and the signal
        process.wait(timeout=30)


@atexit.register
def stop_all() -> None:
    """Stop every server still guarded, newest first (SIGTERM is ignored meanwhile: a
    second SIGTERM would stop the stopping half way)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with _lock:
        stops = list(_stops.items())[::-1]
        _stops.clear()
    for _key, stop in stops:
        with contextlib.suppress(Exception):
            stop()


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signal.Signals(signum).name}")


def sigterm_as_interrupt() -> None:
    """From now on SIGTERM interrupts the main thread as Ctrl+C does (once a program has
    not set a handler of its own)."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
        signal.signal(signal.SIGTERM, _interrupt)


def _exit(signum: int, frame: FrameType | None) -> None:
    # A second SIGTERM would stop the stopping half way: ignored from now on.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise SystemExit(128 + signum)


def sigterm_as_exit() -> None:
    """From now on SIGTERM ends the program as ``sys.exit(143)`` would, from the main thread
    (exit status 128 + SIGTERM, as the shell reports a process killed by it)."""
    signal.signal(signal.SIGTERM, _exit)
