"""tests/process_guard.py: a test run stopped with SIGTERM or Ctrl+C, or a benchmark
stopped with SIGTERM, leaves none of the servers it started (each in a session of its
own) running."""

from __future__ import annotations

import ast
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest
from process_guard import stop_group

TESTS = Path(__file__).resolve().parent
BENCHMARKS = TESTS.parent / "benchmarks"

# A run that starts a "server" in a session of its own, as the harnesses do, guards it,
# and waits (in a fixture's place) until it is stopped; it prints the server's pid. It
# takes Ctrl+C as a run started at a terminal does: a process inherits an ignored SIGINT
# (and Python then leaves it ignored), and the pytest-xdist worker running this test had
# come to ignore it, so the run slept through Ctrl+C (CI on two workers).
RUN = f"""
import signal, subprocess, sys, time
sys.path.insert(0, {str(TESTS)!r})
from process_guard import guard, sigterm_as_interrupt, unguard

signal.signal(signal.SIGINT, signal.default_int_handler)
signal.pthread_sigmask(signal.SIG_UNBLOCK, {{signal.SIGINT}})
sigterm_as_interrupt()
server = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"],
                          start_new_session=True)
guard(server.pid, lambda: (server.terminate(), server.wait()))
try:
    print(server.pid, flush=True)  # the signal may come as soon as this is read
    time.sleep(300)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    raise
"""


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl+C"])
def test_an_interrupted_run_stops_the_servers_it_started(stop: signal.Signals) -> None:
    run = subprocess.Popen(
        [sys.executable, "-c", RUN], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert run.stdout is not None
    server = psutil.Process(int(run.stdout.readline()))
    try:
        run.send_signal(stop)
        out, err = run.communicate(timeout=60)
        assert "interrupted" in out, err  # SIGTERM became a KeyboardInterrupt too
        assert "KeyboardInterrupt" in err
        _gone, alive = psutil.wait_procs([server], timeout=30)
        assert alive == [], f"left running: {server.pid}"
    finally:
        if server.is_running():
            server.kill()


def test_a_server_stopped_by_its_own_teardown_is_not_stopped_again_at_exit() -> None:
    code = f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
from process_guard import guard, unguard
guard("app", lambda: print("stopped at exit"))
guard("lab", lambda: print("lab stopped at exit"))
unguard("app")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout == "lab stopped at exit\n", done


# A benchmark as they are written: a server in a ``with`` block (AppServer and the like),
# not guarded, which only the block's end closes.
BENCHMARK = f"""
import contextlib, subprocess, sys, time
sys.path.insert(0, {str(TESTS)!r})
from process_guard import sigterm_as_exit

@contextlib.contextmanager
def server():
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"],
                               start_new_session=True)
    try:
        yield process
    finally:
        process.terminate()
        process.wait()
        print("closed", flush=True)

def main():
    with server() as process:
        print(process.pid, flush=True)
        time.sleep(300)

if __name__ == "__main__":
    sigterm_as_exit()
    main()
"""


def test_a_benchmark_stopped_with_sigterm_closes_its_servers_and_exits_as_killed_by_it() -> None:
    run = subprocess.Popen(
        [sys.executable, "-c", BENCHMARK], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert run.stdout is not None
    server = psutil.Process(int(run.stdout.readline()))
    try:
        run.send_signal(signal.SIGTERM)
        out, err = run.communicate(timeout=60)
        assert out == "closed\n", err
        assert err == ""  # a normal exit: no traceback
        assert run.returncode == 128 + signal.SIGTERM
        assert not server.is_running()
    finally:
        if server.is_running():
            server.kill()


def _main_block(tree: ast.Module) -> list[ast.stmt]:
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "__name__ == '__main__'":
            return node.body
    return []


@pytest.mark.parametrize("script", sorted(p.name for p in BENCHMARKS.glob("*.py")))
def test_every_benchmark_turns_sigterm_into_an_exit_before_it_starts_anything(
    script: str,
) -> None:
    body = _main_block(ast.parse((BENCHMARKS / script).read_text(encoding="utf-8")))
    assert body, f"{script} has no `if __name__ == '__main__':` block"
    assert ast.unparse(body[0]) == "sigterm_as_exit()", f"{script} starts without it"


# A server that ignores SIGTERM, with a child in its process group (which ignores it too:
# an ignored signal stays ignored across exec).
DEAF_SERVER = """
import signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
print(child.pid, flush=True)
time.sleep(300)
"""


def test_stop_group_kills_a_server_deaf_to_sigterm_with_its_group_after_the_grace() -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", DEAF_SERVER],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert server.stdout is not None
    child = psutil.Process(int(server.stdout.readline()))
    try:
        stop_group(server, grace=1)
        assert server.returncode == -signal.SIGKILL
        _gone, alive = psutil.wait_procs([child], timeout=30)
        assert alive == []
        stop_group(server, grace=1)  # ended already: nothing to do, no error
    finally:
        if server.poll() is None:
            server.kill()
        if child.is_running():
            child.kill()
