"""What Voila's pre-heated kernels (``preheat_kernel``, a pool per notebook) would buy the
app when a class arrives at once: N plain requests for lesson 06 ``?lang=ja`` at the same
moment (no browser: the server's side only), against plain Voila serving the app's page
template and kernel, in four set-ups, one after the other in the same run:

- ``no pool``: a kernel started per request (as the app does);
- ``pool, refilled``: a pool of N kernels, each used kernel replaced at once (Voila's
  default refill, ``fill_delay`` 0-1 s): the replacements start during the burst;
- ``pool, refill later``: the same pool, replacements after 10 minutes: the best case,
  but the notebook ran before the request, so the page cannot be in the asked language;
- ``pool, waits for request``: the notebook waits for the request
  (``voila.utils.wait_for_request``, Voila's way to get ``?lang=`` into a pre-heated
  kernel) before showing the lesson, replacements after 10 minutes.

Prints per set-up: seconds to the whole page (median, p95, max), pages served whole, CPU
seconds per page of the server and of the kernels during the
burst (replacements included), and the kernels and server memory held when the pool is
full. Why the app has no pool: tutor/app/settings.py (kernels).

Run: ``.venv/bin/python benchmarks/classroom_pool_benchmark.py [--size 10] [--port 9102]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from process_guard import sigterm_as_exit, stop_group

LESSON = "06_trick_winner.ipynb"
VOILA = Path(sys.executable).parent / "voila"


def waiting_copy(folder: Path) -> None:
    """Lesson 06's notebook, made to wait for the request before it shows the lesson."""
    notebook = json.loads((ROOT / "notebooks" / LESSON).read_text(encoding="utf-8"))
    notebook["cells"][0]["source"] = (
        "from tutor.display import show_lesson_page\n"
        "from voila.utils import wait_for_request\n"
        "wait_for_request()\n"
        'show_lesson_page("06_trick_winner")\n'
    )
    notebook["cells"][0]["outputs"] = []
    (folder / LESSON).write_text(json.dumps(notebook), encoding="utf-8")


def cpu_seconds(process: object) -> float:
    import psutil

    assert isinstance(process, psutil.Process)
    try:
        times = process.cpu_times()
    except psutil.Error:
        return 0.0
    return float(times.user + times.system)


def run(name: str, size: int, port: int, notebooks: Path, pool: int, fill_delay: float) -> str:

    from tutor.resources import jupyter_data_dir

    env = {**os.environ, "JUPYTER_PATH": str(jupyter_data_dir()), "TUTOR_PROGRESS_STORE": "browser"}
    command = [
        str(VOILA),
        str(notebooks),
        "--no-browser",
        f"--port={port}",
        "--template=tutor",
        "--strip_sources=True",
        "--KernelManager.transport=ipc",
    ]
    if pool:
        pools = {LESSON: {"pool_size": pool}, "default": {"pool_size": 0}}
        command += [
            "--preheat_kernel=True",
            f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools)}",
            f"--VoilaKernelManager.fill_delay={fill_delay}",
        ]
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
        try:
            return _measure(name, size, port, server, pool, log)
        finally:
            stop_group(server, grace=30)


def _measure(name: str, size: int, port: int, server: object, pool: int, log: object) -> str:
    import psutil

    assert isinstance(server, subprocess.Popen)
    process = psutil.Process(server.pid)

    def kernels() -> list[psutil.Process]:
        return [
            child for child in process.children() if "tutor.app.kernel" in " ".join(child.cmdline())
        ]

    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        log.seek(0)  # type: ignore[attr-defined]
        if b"is running at" in log.read() and len(kernels()) >= pool:  # type: ignore[attr-defined]
            break
        time.sleep(0.5)
    time.sleep(5)  # the pool's notebooks run (or wait)
    held_kernels = len(kernels())
    held = process.memory_info().rss + sum(kernel.memory_info().rss for kernel in kernels())
    before = {kernel.pid: cpu_seconds(kernel) for kernel in kernels()}
    server_before = cpu_seconds(process)
    seen: dict[int, float] = {}

    def one(started: float) -> tuple[float, bool]:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        connection.request("GET", f"/voila/render/{LESSON}?lang=ja")
        response = connection.getresponse()
        body = response.read().decode("utf-8", "replace")
        whole = response.status == 200 and "widget-view+json" in body
        return time.monotonic() - started, whole

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=size) as threads:
        futures = [threads.submit(one, started) for _ in range(size)]
        while not all(future.done() for future in futures):
            for kernel in kernels():
                seen[kernel.pid] = cpu_seconds(kernel)
            time.sleep(0.3)
        results = [future.result() for future in futures]
    for kernel in kernels():
        seen[kernel.pid] = cpu_seconds(kernel)
    server_cpu = cpu_seconds(process) - server_before
    kernel_cpu = sum(cpu - before.get(pid, 0.0) for pid, cpu in seen.items())
    times = sorted(took for took, _ in results)
    p95 = times[min(len(times) - 1, max(0, round(0.95 * len(times)) - 1))]
    return (
        f"{name:<24} | {statistics.median(times):5.1f} {p95:5.1f} {times[-1]:5.1f} | "
        f"{sum(whole for _, whole in results):5d} | "
        f"{server_cpu / size:5.2f} {kernel_cpu / size:5.2f} | "
        f"{held_kernels:3d} {held / 2**20:6.0f} MiB"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=10, help="pages asked for at once")
    parser.add_argument("--port", type=int, default=9102)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    print(
        f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs"
    )
    print(f"{args.size} requests for {LESSON}?lang=ja at once")
    print(
        "set-up                   | page s: med   p95   max | whole | CPU s/page: server kernels | held before: kernels, memory"
    )
    with tempfile.TemporaryDirectory() as waiting:
        waiting_copy(Path(waiting))
        notebooks = ROOT / "notebooks"
        for name, folder, pool, delay in [
            ("no pool", notebooks, 0, 0.0),
            ("pool, refilled", notebooks, args.size, 0.0),
            ("pool, refill later", notebooks, args.size, 600.0),
            ("pool, waits for request", Path(waiting), args.size, 600.0),
        ]:
            print(run(name, args.size, args.port, folder, pool, delay), flush=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sigterm_as_exit()
    raise SystemExit(main())
