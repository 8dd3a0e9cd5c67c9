"""A class opening the same lesson at once: N learners (N = 10, 20, 40 by default) open
lesson 06 in headless Chromium at the same moment, each in a browser context of their own
(own cookies, like separate machines), scroll to its quiz and answer the first question.

Starts the app as the README does (``bash scripts/app.sh``, on a free port). Prints, for
each N:

- time to a working quiz: from the moment all N pages were asked for to the moment the
  page shows the engine's feedback after a click on the quiz's first answer (median, p95,
  max), including any busy page and its automatic retries;
- how pages fared: worked (and how many saw the busy page or a reload notice first),
  ended on a visible message (the busy page or a notice), or failed silently (neither the
  quiz nor any message after the deadline): the target is none;
- peak kernels and memory (the server's RSS; server and kernels together);
- after every page closed (as a learner closes a tab): the kernels left and the server's
  RSS 30 s later;
- where the CPU went while the pages loaded: CPU seconds per page of the server, of the
  kernels and of the browsers (Chromium's processes), and how busy that kept the cores.
  The browsers' share is what this benchmark adds to a real classroom's server, whose
  learners' machines draw their own pages;
- the pages the server rendered (a page reloaded after the "reload" notice is rendered
  again, and its kernel started again) and the server's and kernels' CPU seconds per
  render: what one page costs the app however often a learner had to ask for it.
- per page, the requests that reached the server and the KiB received (the page's
  Resource Timing; the websocket not counted); then the server's CPU for a page's
  front-end files alone (no browser), and what lessons opened one after another in one
  browser (its cache kept) fetch.

What the goal's figure is: the server's and kernels' CPU seconds per page (the app's own
processes, counted from their CPU times), the browsers' not included. With N browsers
on the machine's 2 cores the browsers take most of the CPU (some 3-9 CPU-s a page) and
slow everything down: run the larger classrooms with ``--browser-nice 19`` so that the
app comes first, as on a classroom's server whose learners' machines draw the pages, and
read the app's CPU per render when pages were reloaded.

First, a kernel on its own (the app's kernel spec, outside the app): the CPU of its start
and of the lesson's cell, the widget models and bytes the cell sends, and the RSS and PSS
of four kernels holding the lesson; then the classroom, for each way a kernel starts
(``--kernel-start fork plain``: forked from the app's warm process, or a new Python
process; tutor/app/forked_kernels.py), the app started afresh for each.

The reference is one page alone, in the same run (the first line). Targets on a 2-core
machine: at N=40 no silent failure, p95 to a working quiz under 60 s, no kernel left 30 s
after the pages closed. Figures are printed, never asserted: they depend on the machine's
load, printed too. Note that Chromium runs on the same machine as the server here, so the
browser's own work (N pages drawing Voila's front end) competes with the server for the
same cores: a real classroom spreads it over the learners' machines.

Run: ``.venv/bin/python benchmarks/classroom_benchmark.py [--sizes 10 20 40] [--port P]
[--kernel-start fork plain]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser.app_process import CHROMIUM_FLAGS, AppServer, chromium_path
from process_guard import sigterm_as_exit

LESSON = "06_trick_winner.ipynb"
OTHER_LESSONS = ("04_follow_suit.ipynb", "07_scoring.ipynb")
"""Opened after LESSON in the same browser (lessons_in_one_browser)."""
CHOICE = ".tutor-quiz .tutor-quiz-choice"
FEEDBACK = ".tutor-quiz-feedback"
PLACE = ".tutor-quiz-place"

# What the page shows now: "quiz" (a quiz answer button on screen), "busy" (the server's
# busy page), "notice:<key>" (tutor-page.js's notice); or, still loading: "waiting" (no
# answer from the server yet: the browser shows its own spinner), "running" (Voila's
# spinner: the notebook runs), "drawing" (the page is there, its widgets not yet),
# "reaching" (the quiz's first question not built yet: the learner scrolls to it, which
# builds it, as a page builds each question when the learner reaches it).
STATE = f"""
() => {{
  const notice = document.querySelector(".tutor-page-notice");
  if (notice) {{ return "notice:" + (notice.dataset.notice || ""); }}
  if (document.querySelector("main.tutor-busy")) {{ return "busy"; }}
  const choice = document.querySelector("{CHOICE}");
  if (choice && choice.offsetParent !== null && !choice.disabled) {{ return "quiz"; }}
  if (document.querySelector("{PLACE}")) {{ return "reaching"; }}
  if (!document.body || location.href === "about:blank") {{ return "waiting"; }}
  if (document.getElementById("loading")) {{ return "running"; }}
  return "drawing";
}}
"""


@dataclass
class Learner:
    """One page's story."""

    seconds: float | None = None  # to a working quiz
    busy_pages: int = 0
    notices: list[str] = field(default_factory=list)
    last_state: str = "waiting"
    requests: int = 0  # HTTP requests that reached the server (not answered by the cache)
    received: int = 0  # bytes they brought (headers and the body as sent: compressed or not)
    story: list[str] = field(default_factory=list)  # the states seen, in order, timed

    @property
    def outcome(self) -> str:
        if self.seconds is not None:
            return "worked"
        if self.last_state == "busy" or self.last_state.startswith("notice:"):
            return "visible"  # saying why it has no quiz: not silent
        if self.last_state == "running":
            return "running"  # Voila's spinner still turns: slow, not silent
        return "silent"


async def learn(browser: Any, url: str, started: float, deadline: float) -> tuple[Learner, Any]:
    """Open ``url`` and answer the quiz's first question; returns the story and the page."""
    learner = Learner(last_state="waiting")
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await context.new_page()
    seen_busy_at: str | None = None
    # A navigation that never answers is judged below, by what the page shows.
    with contextlib.suppress(Exception):
        await page.goto(url, wait_until="commit", timeout=(deadline - time.monotonic()) * 1000)
    while time.monotonic() < deadline:
        try:
            state, navigation = await page.evaluate(
                f"() => [({STATE})(), String(performance.timeOrigin)]"
            )
        except Exception:  # navigating (a reload): look again
            await asyncio.sleep(0.5)
            continue
        learner.last_state = state
        if not learner.story or learner.story[-1].split("@")[0] != state:
            learner.story.append(f"{state}@{time.monotonic() - started:.0f}s")
        if state == "busy":
            if navigation != seen_busy_at:  # a new busy page, not the same one again
                seen_busy_at = navigation
                learner.busy_pages += 1
        elif state.startswith("notice:") and state not in learner.notices:
            learner.notices.append(state)
        elif state == "reaching":
            with contextlib.suppress(Exception):  # a reload under way: look again
                await page.locator(PLACE).first.scroll_into_view_if_needed(timeout=5_000)
        elif state == "quiz":
            try:
                await page.locator(CHOICE).first.click(timeout=30_000)
                await page.wait_for_function(
                    "(selector) => [...document.querySelectorAll(selector)]"
                    ".some((node) => node.textContent.trim())",
                    arg=FEEDBACK,
                    timeout=max(1, deadline - time.monotonic()) * 1000,
                )
                learner.seconds = time.monotonic() - started
                learner.requests, learner.received = await traffic(page)
                return learner, page
            except Exception as error:  # the quiz did not answer: not a working quiz
                learner.story.append(f"no feedback ({type(error).__name__})")
                learner.last_state = await _state_or(page, "drawing")
                if learner.last_state == "quiz":
                    learner.last_state = "no feedback"
                return learner, page
        await asyncio.sleep(0.5)
    return learner, page


# The page's own count of what it fetched (Resource Timing, the page and every file): a
# request answered from the browser's cache has transferSize 0, one revalidated (304)
# counts its headers. Websocket frames are not in it. A reloaded page counts its last load.
TRAFFIC = """
() => performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource"))
  .filter((entry) => entry.name.startsWith(location.origin) && entry.transferSize > 0)
  .reduce(([count, bytes], entry) => [count + 1, bytes + entry.transferSize], [0, 0])
"""


async def traffic(page: Any) -> tuple[int, int]:
    """The requests a page sent its server and the bytes it received (:data:`TRAFFIC`)."""
    try:
        count, size = await page.evaluate(TRAFFIC)
    except Exception:  # navigating away: nothing counted
        return 0, 0
    return int(count), int(size)


async def _state_or(page: Any, fallback: str) -> str:
    try:
        return str(await page.evaluate(STATE))
    except Exception:
        return fallback


def chromium_pids() -> list[int]:
    """The Chromium processes this benchmark started (the browser and its renderers)."""
    import psutil

    pids = []
    for child in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if "chrom" in child.name():
                pids.append(child.pid)
    return pids


class CpuMeter:
    """CPU seconds (user + system) spent by groups of processes since it was made: a
    process counts with its time when last seen (one that ended between two looks loses
    at most the last interval), one that existed before counts from the start."""

    def __init__(self) -> None:
        self.start: dict[int, float] = {}
        self.last: dict[tuple[str, int], float] = {}

    @staticmethod
    def _cpu(pid: int) -> float | None:
        import psutil

        try:
            times = psutil.Process(pid).cpu_times()
        except psutil.Error:
            return None
        return float(times.user + times.system)

    def baseline(self, pids: list[int]) -> None:
        for pid in pids:
            cpu = self._cpu(pid)
            if cpu is not None:
                self.start[pid] = cpu

    def look(self, group: str, pids: list[int]) -> None:
        for pid in pids:
            cpu = self._cpu(pid)
            if cpu is not None:
                self.last[(group, pid)] = cpu - self.start.get(pid, 0.0)

    def seconds(self, group: str) -> float:
        return sum(cpu for (name, _), cpu in self.last.items() if name == group)


class Sampler(threading.Thread):
    """Samples the server's kernels and memory, and the CPU time of the server, the
    kernels and the browsers, every half second."""

    def __init__(self, server: AppServer) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.peak_kernels = 0
        self.peak_server = 0
        self.peak_total = 0
        self.running = True
        self.cpu = CpuMeter()
        assert server.process is not None
        self.cpu.baseline(
            [
                server.process.pid,
                *server.fork_server_pids(),
                *server.kernel_pids(),
                *chromium_pids(),
            ]
        )

    def measure_cpu(self) -> None:
        assert self.server.process is not None
        self.cpu.look("server", [self.server.process.pid])
        # the fork server's forks count with the kernels (tutor/app/forked_kernels.py)
        self.cpu.look("kernels", [*self.server.fork_server_pids(), *self.server.kernel_pids()])
        self.cpu.look("browsers", chromium_pids())

    def sample(self) -> tuple[int, int, int]:
        import psutil

        assert self.server.process is not None
        pids = self.server.kernel_pids()
        server = psutil.Process(self.server.process.pid).memory_info().rss
        kernels = 0
        for pid in pids:
            with contextlib.suppress(psutil.Error):  # a kernel that just ended
                kernels += psutil.Process(pid).memory_info().rss
        return len(pids), server, server + kernels

    def run(self) -> None:
        while self.running:
            count, server, total = self.sample()
            self.peak_kernels = max(self.peak_kernels, count)
            self.peak_server = max(self.peak_server, server)
            self.peak_total = max(self.peak_total, total)
            self.measure_cpu()
            time.sleep(0.5)


def load_average() -> str:
    """The machine's load (1, 5, 15 minutes), printed beside every figure."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def spread(times: list[float]) -> str:
    """Median, p95 and max of ``times`` (seconds), or dashes when there are none."""
    if not times:
        return "    -     -     -"
    return f"{statistics.median(times):5.1f} {percentile(times, 0.95):5.1f} {max(times):5.1f}"


def mib(value: float) -> str:
    return f"{value / 2**20:.0f} MiB"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


async def classroom(
    server: AppServer,
    browser: Any,
    size: int,
    deadline: float,
    verbose: bool = False,
    query: str = "",
) -> str:
    """N learners at once, each opening the lesson with ``query``; returns the line of the
    table."""
    sampler = Sampler(server)
    sampler.start()
    log_from = len(server.log())
    started = time.monotonic()
    results = await asyncio.gather(
        *(
            learn(browser, server.render_url(LESSON, query), started, started + deadline)
            for _ in range(size)
        )
    )
    burst = time.monotonic() - started
    sampler.running = False
    sampler.join()
    sampler.measure_cpu()
    learners = [learner for learner, _ in results]
    # The class leaves: every tab closes (as a learner closes it: the page is told).
    for _, page in results:
        with contextlib.suppress(Exception):  # already gone
            await page.close(run_before_unload=True)
    closed = time.monotonic()
    gone_in = None
    while time.monotonic() - closed < 30:
        if gone_in is None and not server.kernel_pids():
            gone_in = time.monotonic() - closed
        await asyncio.sleep(0.5)
    kernels_after, server_after, _ = sampler.sample()
    for _, page in results:
        with contextlib.suppress(Exception):
            await page.context.close()

    times = [learner.seconds for learner in learners if learner.seconds is not None]
    worked = len(times)
    via_busy = sum(1 for learner in learners if learner.seconds is not None and learner.busy_pages)
    via_notice = sum(1 for learner in learners if learner.seconds is not None and learner.notices)
    visible = sum(1 for learner in learners if learner.outcome == "visible")
    running = sum(1 for learner in learners if learner.outcome == "running")
    silent = sum(1 for learner in learners if learner.outcome == "silent")
    # The server's side: each lesson request, from arrival to the last byte of the page
    # (the queue, the kernel's start, the notebook's run), as the server logs it.
    served = [
        float(waited) + float(ran)
        for waited, ran in re.findall(
            rf"page {re.escape(LESSON)}: waited ([\d.]+) s, ran in ([\d.]+) s",
            server.log()[log_from:],
        )
    ]
    timing = spread(times)
    gone = f"{gone_in:4.1f} s" if gone_in is not None else "  >30 s"
    for number, learner in enumerate(learners, start=1):
        if learner.outcome != "worked" and verbose:
            print(f"      page {number}: {learner.outcome}: {' -> '.join(learner.story)}")
    page_time = f"{statistics.median(served):5.1f} {max(served):5.1f}" if served else "    -     -"
    # A page reloaded (its notice) is rendered again: per render, the server's and the
    # kernels' CPU is what one page costs them however often a learner had to ask.
    app_cpu = sampler.cpu.seconds("server") + sampler.cpu.seconds("kernels")
    per_render = f"{app_cpu / len(served):5.2f}" if served else "    -"
    return (
        f"{size:4d} | {timing} | {worked:3d} ({via_busy:2d} busy, {via_notice:2d} reload) "
        f"{visible:3d} {running:3d} {silent:3d} | {page_time} | {sampler.peak_kernels:4d} "
        f"{mib(sampler.peak_server):>9} {mib(sampler.peak_total):>9} | {kernels_after:3d} "
        f"{gone:>7} {mib(server_after):>9} | "
        + cpu_shares(sampler.cpu, size, burst)
        + f" | {len(served):4d} {per_render}"
        + f" | {per_page(learners)}"
    )


def per_page(learners: list[Learner]) -> str:
    """Requests and KiB the server sent per page (median of the pages that reached a quiz)."""
    counted = [learner for learner in learners if learner.seconds is not None]
    if not counted:
        return "   -      -"
    requests = statistics.median(learner.requests for learner in counted)
    received = statistics.median(learner.received for learner in counted)
    return f"{requests:4.0f} {received / 1024:6.0f}"


async def lessons_in_one_browser(
    server: AppServer, browser: Any, deadline: float, query: str
) -> str:
    """A learner's day: lessons opened one after another in the same browser (its cache
    kept). What each page fetched from the server once its widgets were drawn: the first
    pays for the front end, the next ones should fetch little more than their own page."""
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    shown = []
    try:
        for lesson in (LESSON, *OTHER_LESSONS):
            page = await context.new_page()
            await page.goto(server.render_url(lesson, query), wait_until="commit")
            try:
                await page.wait_for_function(
                    f"() => ['quiz', 'reaching'].includes(({STATE})())", timeout=deadline * 1000
                )
                await asyncio.sleep(2)  # the files a drawn page still asks for
                requests, received = await traffic(page)
                shown.append(f"{lesson[:2]}: {requests} requests, {received / 1024:.0f} KiB")
            except Exception as error:
                shown.append(f"{lesson[:2]}: not drawn ({type(error).__name__})")
            with contextlib.suppress(Exception):
                await page.close(run_before_unload=True)
    finally:
        await context.close()
    return "; ".join(shown)


def cpu_shares(cpu: CpuMeter, size: int, burst: float) -> str:
    """CPU seconds per page of the server, the kernels and the browsers, while the pages
    loaded, and how busy that kept the machine's cores."""
    groups = [cpu.seconds(name) for name in ("server", "kernels", "browsers")]
    busy = sum(groups) / (burst * (os.cpu_count() or 1))
    return " ".join(f"{seconds / size:5.2f}" for seconds in groups) + f" {busy:4.0%}"


FILES = """
() => performance.getEntriesByType("resource").map((entry) => entry.name)
  .filter((name) => name.startsWith(location.origin + "/voila/")
    && /\\/voila\\/(static|templates|labextensions)\\//.test(name))
  .map((name) => name.slice(location.origin.length))
"""


async def page_files(server: AppServer, browser: Any, deadline: float, query: str) -> list[str]:
    """The front-end files (addresses) a lesson's page fetches, from a page in a fresh browser."""
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = await context.new_page()
        await page.goto(server.render_url(LESSON, query), wait_until="commit")
        await page.wait_for_function(
            f"() => ['quiz', 'reaching'].includes(({STATE})())", timeout=deadline * 1000
        )
        await asyncio.sleep(2)
        paths: list[str] = await page.evaluate(FILES)
        with contextlib.suppress(Exception):
            await page.close(run_before_unload=True)
        return paths
    finally:
        await context.close()


def files_alone(server: AppServer, paths: list[str], pages: int = 20) -> str:
    """The server's CPU for serving a page's front-end files, without a browser: ``paths``
    asked for ``pages`` times over one connection, as a browser that accepts gzip and has
    nothing cached asks for them. Less noisy than the class's figure: only the files."""
    import http.client

    assert server.process is not None
    meter = CpuMeter()
    meter.baseline([server.process.pid])
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    sent = 0
    statuses: dict[int, int] = {}
    started = time.monotonic()
    for _ in range(pages):
        for path in paths:
            connection.request("GET", path, headers={"Accept-Encoding": "gzip, deflate, br"})
            response = connection.getresponse()
            sent += len(response.read())
            statuses[response.status] = statuses.get(response.status, 0) + 1
    took = time.monotonic() - started
    connection.close()
    meter.look("server", [server.process.pid])
    cpu = meter.seconds("server") / pages
    return (
        f"{len(paths)} files x {pages} pages: server {cpu * 1000:.0f} ms CPU per page's files "
        f"({cpu / len(paths) * 1000:.2f} ms a file), {sent / pages / 1024:.0f} KiB body per page, "
        f"{took / pages * 1000:.0f} ms per page; statuses {statuses}; load {load_average()}"
    )


def server_alone(server: AppServer, size: int) -> str:
    """The server's own share: ``size`` plain requests for the lesson at once (no browser:
    each request waits for the whole page, i.e. its kernel started and its notebook run),
    then each page's kernel given back as a closing page does. Seconds per page."""
    import http.client
    import json
    from concurrent.futures import ThreadPoolExecutor

    def one(started: float) -> tuple[float | None, str]:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
        connection.request("GET", f"/voila/render/{LESSON}")
        response = connection.getresponse()
        body = response.read().decode("utf-8", "replace")
        took = time.monotonic() - started
        cookies = "; ".join(
            value.split(";")[0] for name, value in response.getheaders() if name == "Set-Cookie"
        )
        connection.close()
        if response.status != 200:
            return None, f"HTTP {response.status}"
        if "widget-view+json" not in body or "There was an error" in body:
            return None, "incomplete page"
        config = re.search(
            r'id="jupyter-config-data" type="application/json">\s*(\{.*?\})\s*<', body, re.S
        )
        xsrf = re.search(r"_xsrf=([^;]+)", cookies)
        if config and xsrf:
            kernel = json.loads(config.group(1))["kernelId"]
            closing = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
            closing.request(
                "POST",
                f"/voila/api/shutdown/{kernel}",
                body=f"_xsrf={xsrf.group(1)}",
                headers={"Cookie": cookies, "Content-Type": "application/x-www-form-urlencoded"},
            )
            closing.getresponse().read()
            closing.close()
        return took, "ok"

    assert server.process is not None
    meter = CpuMeter()
    meter.baseline([server.process.pid])
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=size) as pool:
        results = list(pool.map(one, [started] * size))
    meter.look("server", [server.process.pid])
    times = [took for took, _ in results if took is not None]
    failures = [why for took, why in results if took is None]
    timing = spread(times)
    refused = (
        f"; not served: {', '.join(sorted(set(failures)))} x{len(failures)}" if failures else ""
    )
    return (
        f"{size:4d} | {timing} | {meter.seconds('server') / size:5.2f} | "
        f"{len(times):3d} pages served whole{refused}"
    )


LESSON_CELL = 'from tutor.display import show_lesson_page\n\nshow_lesson_page("06_trick_winner")'


async def kernel_parts(kernel_start: str, count: int = 4) -> str:
    """Where a kernel's CPU goes, measured on the app's kernel outside the app: its start
    (process, imports, until it answers), the lesson's cell (widget models made, bytes
    sent); then the memory of ``count`` kernels each holding the lesson (RSS and PSS:
    forked kernels share their parent's pages). One line."""
    import psutil
    from jupyter_client.manager import AsyncKernelManager
    from jupyter_client.provisioning import KernelProvisionerFactory

    from tutor import resources
    from tutor.app import forked_kernels

    os.environ["JUPYTER_PATH"] = str(resources.jupyter_data_dir())
    os.environ.setdefault("TUTOR_PROGRESS_STORE", "browser")
    factory = KernelProvisionerFactory.instance()
    warm_up = 0.0
    if kernel_start == "fork":
        factory.default_provisioner_name = forked_kernels.PROVISIONER_NAME
        forked_kernels.FORK_SERVER.start()
        assert forked_kernels.FORK_SERVER.process is not None
        server = psutil.Process(forked_kernels.FORK_SERVER.process.pid)
    else:
        factory.default_provisioner_name = "local-provisioner"
    starts: list[float] = []
    cells: list[float] = []
    models: list[int] = []
    sent: list[int] = []
    kernels = []
    with tempfile.TemporaryDirectory() as folder:
        for number in range(count):
            manager = AsyncKernelManager(kernel_name="python3", transport="ipc")
            manager.connection_file = os.path.join(folder, f"k{number}.json")
            await manager.start_kernel(cwd=folder)
            client = manager.client()
            client.start_channels()
            await client.wait_for_ready(timeout=120)
            assert manager.provisioner is not None
            process = psutil.Process(manager.provisioner.pid)
            times = process.cpu_times()  # a forked child's count from its fork
            starts.append(times.user + times.system)
            opened = 0
            size = 0

            def count_message(message: dict[str, Any]) -> None:
                nonlocal opened, size
                opened += message["msg_type"] == "comm_open"
                size += len(json.dumps(message["content"]))

            await client.execute_interactive(LESSON_CELL, output_hook=count_message, timeout=120)
            after = process.cpu_times()
            cells.append(after.user + after.system - starts[-1])
            models.append(opened)
            sent.append(size)
            client.stop_channels()
            kernels.append((manager, process))
        memory = [process.memory_full_info() for _, process in kernels]
        if kernel_start == "fork":
            times = server.cpu_times()
            warm_up = times.user + times.system
        for manager, _ in kernels:
            await manager.shutdown_kernel(now=True)
    if kernel_start == "fork":
        forked_kernels.FORK_SERVER.stop()
        forked_kernels.FORK_SERVER = forked_kernels.ForkServer()
    factory.default_provisioner_name = "local-provisioner"
    rss = statistics.mean(m.rss for m in memory)
    pss = statistics.mean(m.pss for m in memory)
    warm = f"  (fork server: {warm_up:.2f} CPU-s once)" if warm_up else ""
    return (
        f"{kernel_start:>5} | {statistics.median(starts):5.2f} {statistics.median(cells):5.2f}"
        f" | {statistics.median(models):4.0f} {statistics.median(sent) / 1024:6.0f} KiB"
        f" | {mib(rss):>8} {mib(pss):>8}{warm}"
    )


def lower_priority(nice: int) -> None:
    """Lower the CPU priority of the browser just launched (its renderers, forked later,
    inherit it): with --browser-nice the server and kernels come first, as in a classroom
    where the pages run on the learners' machines, and the browsers use what is left."""
    import psutil

    for child in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if "chrom" in child.name():
                child.nice(nice)


@dataclass
class Options:
    """How the classrooms run (the command line's options)."""

    sizes: list[int]
    deadline: float
    app_args: list[str]
    verbose: bool
    browser_nice: int
    port: int | None
    kernel_starts: list[str]
    load_wait: int | None = None


async def run(options: Options) -> None:
    print(f"load average: {load_average()}; {os.cpu_count()} CPUs")
    print()
    print("A kernel on its own (median of 4; CPU-s):")
    print("start |  start  lesson cell | widget models, bytes sent | each of 4: RSS  PSS")
    for kernel_start in options.kernel_starts:
        print(await kernel_parts(kernel_start))
    for kernel_start in options.kernel_starts:
        print()
        await classrooms(options, [*options.app_args, "--kernel-start", kernel_start])


async def classrooms(options: Options, args: list[str]) -> None:
    """The classrooms of every size on one app started with ``args``."""
    from playwright.async_api import async_playwright

    sizes, deadline, verbose = options.sizes, options.deadline, options.verbose
    browser_nice, port = options.browser_nice, options.port
    query = f"load_wait={options.load_wait}" if options.load_wait else ""

    path = chromium_path()
    if path is None:
        raise SystemExit("Chromium not found (set TUTOR_CHROMIUM)")
    with AppServer(port=port, args=args) as server:
        print(f"app started in {server.started_in:.1f} s on port {server.port} ({' '.join(args)})")
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
            if browser_nice:
                lower_priority(browser_nice)
            await classroom(server, browser, 1, deadline, query=query)  # warm-up: imports, caches
            _, baseline, _ = Sampler(server).sample()
            print(
                f"load average before: {load_average()}; "
                f"{os.cpu_count()} CPUs; server RSS after warm-up {mib(baseline)}; "
                f"Chromium at nice {browser_nice}"
                + (f"; pages opened with ?{query}" if query else "")
            )
            print()
            print(
                "   N | to a working quiz (s) | pages: worked (first saw)    visible running"
                " silent | server: page (s) | peak: kernels server total"
                " | 30 s after closing: kernels, gone in, server"
                " | CPU s per page: server kernels browsers, cores busy"
                " | renders, app+kernels CPU s per render"
                " | per page: requests, KiB received"
            )
            print("     |   med   p95   max   |" + " " * 54 + "|   med   max  |")
            print(
                await classroom(server, browser, 1, deadline, query=query)
                + "   <- one page alone (reference)"
            )
            for size in sizes:
                print(await classroom(server, browser, size, deadline, verbose, query))
            paths = await page_files(server, browser, deadline, query)
            print()
            print("A page's front-end files without a browser: " + files_alone(server, paths))
            print(
                "Lessons one after another in one browser (cache kept): "
                + await lessons_in_one_browser(server, browser, deadline, query)
            )
            await browser.close()
        print()
        print("The server alone (plain requests, no browser): seconds to the whole page, and")
        print("the server's CPU-s per page (the template, the notebook's run; no websocket, no")
        print("static files: the rest of the server's CPU per page above is theirs)")
        print("   N |   med   p95   max | server |")
        for size in sizes:
            print(server_alone(server, size))
            time.sleep(5)
        print(f"load average after: {load_average()}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 40])
    parser.add_argument(
        "--deadline",
        type=float,
        default=240,
        help="seconds a page may take before it counts as failed",
    )
    parser.add_argument(
        "--verbose", action="store_true", help="print the story of every page without a quiz"
    )
    parser.add_argument(
        "--browser-nice",
        type=int,
        default=0,
        help="run Chromium at this lower CPU priority (e.g. 19): the server first, as when "
        "the learners' own machines draw the pages (default 0: same priority)",
    )
    parser.add_argument(
        "--load-wait",
        type=int,
        help='open the pages with ?load_wait=SECONDS (README "The page\'s wait"): how long a '
        "page waits for its widgets before the reload notice, as a school whose machines draw "
        "pages slowly sets it; with N browsers on this machine's cores a page may take over "
        "the default 60 s to draw, and each reload is a page more (default: the page's own)",
    )
    parser.add_argument("--port", type=int, help="the app's port (default: a free one)")
    parser.add_argument(
        "--kernel-start",
        nargs="+",
        choices=("fork", "plain"),
        default=["fork", "plain"],
        help="how the app's kernels start (wizard-tutor app --kernel-start): each is "
        "measured in turn, side by side (default: fork, then plain)",
    )
    parser.add_argument(
        "app_args",
        nargs="*",
        help="options for wizard-tutor app after --, e.g. -- --max-kernels 30",
    )
    args = parser.parse_args()
    asyncio.run(
        run(
            Options(
                sizes=args.sizes,
                deadline=args.deadline,
                app_args=args.app_args,
                verbose=args.verbose,
                browser_nice=args.browser_nice,
                port=args.port,
                kernel_starts=args.kernel_start,
                load_wait=args.load_wait,
            )
        )
    )
    return 0


if __name__ == "__main__":
    sigterm_as_exit()
    raise SystemExit(main())
