"""A class on one machine: start the hub, spawn every learner's server at once, render the
first lesson for each, and measure what each learner costs.

Starts the hub as a teacher does (``deploy/hub.sh``: class password, local processes) on
free loopback ports (tests/hub/hub_harness.py), then, for ``--learners`` learners at once
(threads; each one as its browser would after logging in):

1. asks the hub to start their server (REST API) and waits until it is ready:
   the spawn time;
2. requests the course index from their server with their own token: Voila starts a
   kernel, runs the notebook and sends the page (the index has no widgets, so the
   received page is the rendered lesson): the time to the first rendered lesson, counted
   from the spawn request;
3. opens ``--pages`` more pages (the worked example), each with its own kernel.

Then it measures memory: RSS (and PSS, which shares libraries fairly among processes) of
each learner's server, of its kernel of the first page, and of the kernel of each further
open page; plus the CPU seconds each learner's processes used. Figures are printed, never
asserted; the machine's load is printed too. deploy/README.md turns them into the cluster's
limits and a learners-per-node estimate.

Run: ``.venv/bin/python benchmarks/hub_benchmark.py [--learners 10] [--pages 1] [--json F]``
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hub.hub_harness import (
    INDEX_PAGE,
    WORKED_EXAMPLE_PAGE,
    RunningHub,
    rss_mib,
    start_hub,
)
from process_guard import sigterm_as_exit

MIB = 2**20


@dataclass
class LearnerFigures:
    """What one learner's start cost, in seconds and MiB."""

    name: str
    spawn_s: float = 0.0
    first_lesson_s: float = 0.0  # from the spawn request to the index received
    render_s: float = 0.0  # the index alone, once the server was ready
    server_rss: float = 0.0
    first_kernel_rss: float = 0.0
    server_pss: float = 0.0
    first_kernel_pss: float = 0.0
    page_kernel_rss: list[float] = field(default_factory=list)
    page_kernel_pss: list[float] = field(default_factory=list)
    server_start_cpu_s: float = 0.0  # the server's CPU time when it became ready
    server_cpu_s: float = 0.0
    kernels_cpu_s: float = 0.0


RENDER_TIMEOUT = 180.0
"""Seconds a page may take; past it the page counts as failed (a learner would reload)."""


def fetch(url: str, token: str, timeout: float = RENDER_TIMEOUT) -> bytes:
    """GET ``url`` with a JupyterHub token (as the learner), the body."""
    request = urllib.request.Request(url, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        body: bytes = response.read()
        return body


def pss_mib(proc: psutil.Process) -> float:
    """Proportional set size of ``proc`` in MiB (0 if it cannot be read)."""
    try:
        return float(proc.memory_full_info().pss) / MIB
    except (psutil.NoSuchProcess, psutil.AccessDenied, AttributeError):
        return 0.0


def cpu_seconds(processes: list[psutil.Process]) -> float:
    """User + system CPU time used so far by ``processes`` together."""
    total = 0.0
    for proc in processes:
        try:
            times = proc.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def kernels_of(server: psutil.Process) -> list[psutil.Process]:
    """The kernel processes of a learner's server, oldest first."""
    kernels = [
        child
        for child in server.children(recursive=True)
        # the app's kernel (tutor/app/jupyter/kernels/python3), or ipykernel's own
        if {"tutor.app.kernel", "ipykernel_launcher"} & set(child.cmdline())
    ]
    return sorted(kernels, key=lambda proc: proc.create_time())


def start_learner(hub: RunningHub, figures: LearnerFigures, start_gate: threading.Barrier) -> None:
    """Spawn one learner's server and render their first lesson (one thread per learner)."""
    token = hub.user_token(figures.name)
    start_gate.wait()  # every learner asks at the same moment, as a class after "log in now"
    asked = time.monotonic()
    hub.api("POST", f"users/{figures.name}/server")
    while not hub.server_ready(figures.name):
        if time.monotonic() - asked > 600:
            raise TimeoutError(f"{figures.name}'s server did not start:\n{hub.log_tail()}")
        time.sleep(0.1)
    ready = time.monotonic()
    figures.spawn_s = ready - asked
    server, *_ = hub.learner_server_processes()[figures.name]
    figures.server_start_cpu_s = cpu_seconds([server])
    page = fetch(f"{hub.url}/user/{figures.name}/{INDEX_PAGE}", token)
    done = time.monotonic()
    if b"08_worked_example.ipynb" not in page:
        raise RuntimeError(f"{figures.name}'s index did not render:\n{page[:500]!r}")
    figures.render_s = done - ready
    figures.first_lesson_s = done - asked


def open_more_pages(hub: RunningHub, name: str, pages: int) -> int:
    """Open ``pages`` more tutor pages for learner ``name`` (each starts a kernel); the
    number that did not render within RENDER_TIMEOUT."""
    token = hub.user_token(name)
    failed = 0
    for _ in range(pages):
        try:
            page = fetch(f"{hub.url}/user/{name}/{WORKED_EXAMPLE_PAGE}", token)
        except OSError:  # timeout, reset: counted, as a learner would reload
            failed += 1
            continue
        if b"tutor-step" not in page:
            raise RuntimeError(f"{name}'s worked example did not render")
    return failed


def summary(values: list[float]) -> str:
    """``median (min-max)`` of ``values``, one decimal."""
    return f"{statistics.median(values):6.1f}  ({min(values):.1f}-{max(values):.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=10, help="learners spawned at once")
    parser.add_argument("--pages", type=int, default=1, help="further pages each opens")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    if args.learners < 1 or args.pages < 0:
        parser.error("--learners must be at least 1 and --pages at least 0")

    names = [f"learner{number:02d}" for number in range(1, args.learners + 1)]
    load_before = os.getloadavg()
    state = Path(tempfile.mkdtemp(prefix="hub-benchmark-"))
    hub = start_hub(state, password=secrets.token_urlsafe(12), learners=names)
    leftovers: list[str] = []
    try:
        hub_processes = [psutil.Process(hub.process.pid), *hub.remember_processes()]
        hub_rss_idle = rss_mib(hub_processes)
        figures = {name: LearnerFigures(name) for name in names}
        gate = threading.Barrier(len(names))
        class_started = time.monotonic()
        with ThreadPoolExecutor(max_workers=len(names)) as pool:
            for future in [pool.submit(start_learner, hub, figures[n], gate) for n in names]:
                future.result()
        class_ready = time.monotonic() - class_started

        servers = hub.learner_server_processes()
        for name, (server, *_) in servers.items():
            kernels = kernels_of(server)
            figures[name].server_rss = rss_mib([server])
            figures[name].server_pss = pss_mib(server)
            figures[name].first_kernel_rss = rss_mib(kernels[:1])
            figures[name].first_kernel_pss = pss_mib(kernels[0]) if kernels else 0.0

        failed_pages = 0
        if args.pages:
            with ThreadPoolExecutor(max_workers=len(names)) as pool:
                for future in [pool.submit(open_more_pages, hub, n, args.pages) for n in names]:
                    failed_pages += future.result()
            for name, (server, *_) in hub.learner_server_processes().items():
                # Kernels of pages nobody holds open are culled only after 5 minutes,
                # so the first page's kernel is still there: the newer ones are the pages.
                newer = kernels_of(server)[1:]
                figures[name].page_kernel_rss = [rss_mib([k]) for k in newer]
                figures[name].page_kernel_pss = [pss_mib(k) for k in newer]
        for name, (server, *kernels) in hub.learner_server_processes().items():
            figures[name].server_cpu_s = cpu_seconds([server])
            figures[name].kernels_cpu_s = cpu_seconds(kernels)
        hub_rss_busy = rss_mib([psutil.Process(hub.process.pid), *_hub_and_proxy(hub)])
    finally:
        leftovers = hub.stop()

    rows = list(figures.values())
    page_rss = [value for row in rows for value in row.page_kernel_rss]
    page_pss = [value for row in rows for value in row.page_kernel_pss]
    per_learner_rss = [row.server_rss + row.first_kernel_rss for row in rows]
    per_learner_pss = [row.server_pss + row.first_kernel_pss for row in rows]
    print(f"machine: {os.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.1f} GiB;")
    print(f"load average before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}")
    print(f"learners spawned at once: {len(rows)}; further pages each: {args.pages}")
    print("                                  median  (min-max)")
    print(f"hub start (s)                     {hub.started_in:6.1f}")
    print(f"spawn per learner (s)             {summary([r.spawn_s for r in rows])}")
    print(f"index render once ready (s)       {summary([r.render_s for r in rows])}")
    print(f"spawn request -> first lesson (s) {summary([r.first_lesson_s for r in rows])}")
    print(f"whole class ready (s)             {class_ready:6.1f}")
    print(f"server RSS (MiB)                  {summary([r.server_rss for r in rows])}")
    print(f"first page's kernel RSS (MiB)     {summary([r.first_kernel_rss for r in rows])}")
    print(f"learner = server + kernel, RSS    {summary(per_learner_rss)}")
    print(f"learner = server + kernel, PSS    {summary(per_learner_pss)}")
    if args.pages:
        print(f"further pages not rendered in {RENDER_TIMEOUT:.0f} s: {failed_pages}")
    if page_rss:
        print(f"each further open page, RSS (MiB) {summary(page_rss)}")
        print(f"each further open page, PSS (MiB) {summary(page_pss)}")
    print(f"CPU s: server start               {summary([r.server_start_cpu_s for r in rows])}")
    print(f"CPU s: server start + its pages   {summary([r.server_cpu_s for r in rows])}")
    print(f"CPU s: kernels (1 + --pages)      {summary([r.kernels_cpu_s for r in rows])}")
    print(f"hub + proxy RSS idle / busy (MiB) {hub_rss_idle:6.1f} / {hub_rss_busy:.1f}")
    print(f"processes left after stopping the hub: {len(leftovers)} {leftovers or ''}")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "learners": [asdict(row) for row in rows],
                    "hub_start_s": hub.started_in,
                    "class_ready_s": class_ready,
                    "hub_rss_idle": hub_rss_idle,
                    "hub_rss_busy": hub_rss_busy,
                    "failed_pages": failed_pages,
                    "load_before": load_before,
                    "leftovers": leftovers,
                },
                indent=2,
            )
        )
    if leftovers:
        print(f"the hub's log and state are kept in {state}")
        sys.exit(1)
    shutil.rmtree(state, ignore_errors=True)


def _hub_and_proxy(hub: RunningHub) -> list[psutil.Process]:
    """The hub's own children that are not learners' servers (the proxy)."""
    try:
        children = psutil.Process(hub.process.pid).children()
    except psutil.NoSuchProcess:
        return []
    servers = {procs[0].pid for procs in hub.learner_server_processes().values()}
    return [p for p in children if p.pid not in servers]


if __name__ == "__main__":
    sigterm_as_exit()
    main()
