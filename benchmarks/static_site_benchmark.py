"""The static course site (``wizard-tutor build-site``) against the Voila app, on this machine:

1. First and second visit to a working quiz, and the bytes the server sent: lesson 06
   opened by its address in Chromium with a profile of its own (its HTTP cache kept
   between the visits; the browser is restarted in between, as a learner comes back the
   next day), until a click on the quiz's first answer shows the engine's feedback. The
   site is served twice: by plain http.server (every file as it is), then as a web server
   that sends the build's gzip copies does (nginx ``gzip_static on``; STATIC_SERVER). Then
   the same for the Voila app (``bash scripts/app.sh``), the reference, in the same run.
   Browser CPU (user + system of Chromium's processes) is printed beside the wall time:
   on a shared machine it moves far less than the wall clock.
2. A class at once: N learners (default 10 and 40) open lesson 06 at the same moment,
   each in a browser context of their own (no shared cache: separate machines), and
   answer the quiz's first question. The only server is Python's ``http.server``
   serving the folder (with the gzip copies) (a subprocess: its CPU is its own; a web server's backlog and
   keep-alive, see STATIC_SERVER); Python runs in each learner's
   browser. Bytes are counted by a relay in front of each server (pages, files,
   websocket messages, headers: the same count for the site and the app). Here every one of those browsers runs on this same 2-core machine,
   so the figures are the worst case: in a classroom each learner's machine starts its own.

3. The worked example's Next usable, first and second visit, on the site (gzip) and in
   the app: seconds from asking for the page to its Next button enabled (then pressed
   until the next step shows), the bytes the server sent, and on the site when each part
   ended since the page was asked for, from the marks the site's loader leaves in the
   kernel's worker and its page script in the page (the parts overlap: the runtime starts
   with the page, beside Voici's front end): the runtime's start (or on a second visit the
   restore of the memory snapshot the first kept), the packages' install, the imports
   every page makes (first visit), the front end's asking for the kernel, and Next usable
   (the kernel's import, the notebook's run, the drawing).
   ``--worked-only`` runs this part (and 4) alone; ``--repeat N`` makes its two visits N
   times (each time with a new profile) and prints their medians.
4. The site's Python phase by phase (the worked example): the site's own Pyodide under
   Node.js (``pyodide_phases.mjs``: the same WebAssembly on the same V8 as Chromium), as
   the kernel's worker runs it: the runtime's start, the packages' install, the kernel's
   import (IPython), the tutor's import and the notebook's run, each in CPU seconds (the
   median of RUNS runs), which a shared machine moves far less than the wall clock.

Figures are printed, never asserted; the load average is printed with them. Nothing
leaves the machine: every host name but 127.0.0.1 fails to resolve and every request
goes to a proxy where nothing listens (the site's own excepted); requests that tried
to leave are counted and printed (the target is none).

Run: ``.venv/bin/python benchmarks/static_site_benchmark.py [--sizes 10 40] [--site DIR]``
(without ``--site`` it builds the site first, into a temporary folder).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser.app_process import CHROMIUM_FLAGS, AppServer, chromium_path, free_port
from process_guard import sigterm_as_exit

from tutor.site.build_wheels import SITE_PACKAGES_ARCHIVE

Row = TypeVar("Row")
LESSON = "06_trick_winner"
RUNS = 3
WORKED = "08_worked_example"
NEXT = "button.tutor-step-next"
POSITION = ".tutor-step-position"
QUESTION_PLACE = ".tutor-quiz-place"  # built when reached (tests/browser/fixtures.py)
CHOICE = ".tutor-quiz button.tutor-quiz-choice"
FEEDBACK = ".tutor-quiz .quiz-feedback"
WALLS = [
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    "--proxy-server=http://127.0.0.1:9",  # the discard port: nothing listens
    "--proxy-bypass-list=127.0.0.1",
]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def mb(value: float) -> str:
    return f"{value / 1e6:6.2f} MB"


# Python's own static file server, as `python -m http.server` runs it, with two settings a
# web server has and http.server lacks: a listen backlog of 512, not 5 (a class opening
# pages at once makes hundreds of connections; with 5, the kernel drops the rest and the
# browsers wait seconds to retry), and HTTP/1.1 keep-alive, not a connection per file.
# With "gzip" as its third argument it also does what nginx's `gzip_static on` does: a
# file with a `.gz` copy beside it (the build writes them) goes out as that copy to a
# browser that accepts gzip, answering If-Modified-Since as for the file itself.
STATIC_SERVER = """
import email.utils, functools, http.server, os, sys
class Server(http.server.ThreadingHTTPServer):
    request_queue_size = 512
class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args):
        pass
    def send_head(self):
        path = self.translate_path(self.path)
        packed = path + ".gz"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (GZIP and accepts and os.path.isfile(path) and os.path.isfile(packed)):
            return super().send_head()
        modified = int(os.stat(path).st_mtime)
        since = self.headers.get("If-Modified-Since")
        if since and "If-None-Match" not in self.headers:
            try:
                if modified <= email.utils.parsedate_to_datetime(since).timestamp():
                    self.send_response(304)
                    self.end_headers()
                    return None
            except (TypeError, ValueError):
                pass
        body = open(packed, "rb")
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(os.fstat(body.fileno()).st_size))
        self.send_header("Last-Modified", self.date_time_string(modified))
        self.end_headers()
        return body
GZIP = sys.argv[3:] == ["gzip"]
handler = functools.partial(Handler, directory=sys.argv[2])
Server(("127.0.0.1", int(sys.argv[1])), handler).serve_forever()
"""


class StaticServer:
    """Python's static file server (http.server) on the site folder, in a process of its
    own (see STATIC_SERVER)."""

    def __init__(self, folder: Path, *, gzip: bool = False) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-c", STATIC_SERVER, str(self.port), str(folder)]
            + (["gzip"] if gzip else []),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        import urllib.request

        for _ in range(100):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/index.html", timeout=2)
                return
            time.sleep(0.1)
        raise RuntimeError("the static server did not start")

    def cpu(self) -> float:
        """CPU seconds the server has used so far."""
        import psutil

        times = psutil.Process(self.process.pid).cpu_times()
        return float(times.user + times.system)

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(10)


class CountingProxy:
    """A TCP relay in front of a server (127.0.0.1:port -> 127.0.0.1:target) that counts
    the bytes going to the browser: pages, files, websocket messages and headers, counted
    the same way for the static server and the Voila app. Runs in a thread of its own."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self.sent = 0
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        threading.Thread(target=self._run, args=(ready,), daemon=True).start()
        if not ready.wait(10):
            raise RuntimeError("the counting proxy did not start")
        self.base = f"http://127.0.0.1:{self.port}"

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(
            asyncio.start_server(self._relay, "127.0.0.1", self.port, backlog=512)
        )
        ready.set()
        self.loop.run_forever()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(
                "127.0.0.1", self.target
            )
        except OSError:
            writer.close()
            return

        async def pipe(
            source: asyncio.StreamReader, sink: asyncio.StreamWriter, counted: bool
        ) -> None:
            with contextlib.suppress(OSError):
                while data := await source.read(1 << 16):
                    if counted:
                        self.sent += len(data)
                    sink.write(data)
                    await sink.drain()
            with contextlib.suppress(OSError):
                sink.close()

        await asyncio.gather(
            pipe(reader, upstream_writer, False), pipe(upstream_reader, writer, True)
        )


def chromium_cpu(profile: Path) -> float:
    """CPU seconds used so far by the Chromium started with ``profile`` and its children."""
    import psutil

    started = []
    for process in psutil.process_iter(["cmdline", "ppid"]):
        with contextlib.suppress(psutil.Error):
            if f"--user-data-dir={profile}" in " ".join(process.info["cmdline"] or []):
                started.append(process)
    # the browser itself: its helpers (renderers, the GPU process) carry the flag too
    pids = {process.pid for process in started}
    total = 0.0
    for root in (p for p in started if p.info["ppid"] not in pids):
        for member in [root, *root.children(recursive=True)]:
            with contextlib.suppress(psutil.Error):
                times = member.cpu_times()
                total += times.user + times.system
    return total


async def working_quiz(page: Any, url: str, deadline: float) -> float:
    """Seconds from asking for ``url`` to the engine's feedback after a click on the
    first answer of the page's first quiz."""
    started = time.monotonic()
    await page.goto(url, wait_until="commit", timeout=deadline * 1000)
    # a question is built when the learner reaches it: scroll to the first, as they do
    place = page.locator(QUESTION_PLACE).first
    await place.wait_for(state="attached", timeout=deadline * 1000)
    await place.scroll_into_view_if_needed(timeout=deadline * 1000)
    choice = page.locator(CHOICE).first
    await choice.wait_for(state="visible", timeout=deadline * 1000)
    await choice.click(timeout=deadline * 1000)
    await page.wait_for_function(
        "(selector) => [...document.querySelectorAll(selector)].some(n => n.textContent.trim())",
        arg=FEEDBACK,
        timeout=deadline * 1000,
    )
    return time.monotonic() - started


# The site's loader marks its steps in the kernel's worker (tutor/site/loader.js, mark):
# "loader started", then "runtime started" (a fresh start) or "runtime restored" (from the
# memory snapshot a first visit kept), "packages in", and on a fresh start "imports done"
# (what every page imports, before the snapshot is taken); "kernel asked" when the kernel
# called it, and "early start taken" when it was handed the start page.js began with the
# page. The page's script marks when the front end asked for the kernel's worker
# (tutor/site/page.js).
LOADER_MARK = "tutor-loader: "
PAGE_MARK = "tutor-page: "
WORKER_MARKS = (
    "performance.getEntriesByType('mark').map(m => [m.name, m.startTime + performance.timeOrigin])"
)


async def next_usable(page: Any, url: str, deadline: float) -> tuple[float, dict[str, float]]:
    """Seconds from asking for the worked example's ``url`` to its Next button enabled (then
    pressed, until the next step shows), and on the site the loader's marks (seconds from the
    start, read from the kernel's worker; see print_parts)."""
    workers: list[Any] = []
    page.on("worker", lambda worker: workers.append(worker))
    started = time.monotonic()
    await page.goto(url, wait_until="commit", timeout=deadline * 1000)
    origin = await page.evaluate("performance.timeOrigin")
    await page.wait_for_function(
        "(selector) => { const b = document.querySelector(selector); return !!b && !b.disabled; }",
        arg=NEXT,
        timeout=deadline * 1000,
    )
    seconds = time.monotonic() - started
    marks: dict[str, float] = {}
    for name, when in await page.evaluate(WORKER_MARKS):
        if name.startswith(PAGE_MARK):
            marks[name.removeprefix(PAGE_MARK)] = (when - origin) / 1000
    for worker in workers:
        with contextlib.suppress(Exception):  # a worker of the page that has gone
            for name, when in await worker.evaluate(WORKER_MARKS):
                if name.startswith(LOADER_MARK):
                    marks[name.removeprefix(LOADER_MARK)] = (when - origin) / 1000
    # A second visit opens at the step the first reached (the learner's progress), so
    # Next is seen to work by the position moving on, whatever step it started at.
    before = await page.locator(POSITION).text_content()
    await page.locator(NEXT).click(timeout=deadline * 1000)
    await page.wait_for_function(
        "([selector, before]) => (document.querySelector(selector)?.textContent ?? before)"
        " !== before",
        arg=[POSITION, before],
        timeout=deadline * 1000,
    )
    return seconds, marks


def print_parts(title: str, rows: list[tuple[str, float, float, int, dict[str, float]]]) -> None:
    """The worked example's Next usable, the bytes the server sent, and on the site when
    each part ended, in seconds since the page was asked for, from the marks (in the
    order they came): the loader started (with the page, when page.js starts the
    kernel's worker early; else when the kernel asks), the runtime started (or its
    snapshot restored), the packages in, the imports every page makes done (first
    visit; the snapshot is taken then), the front end's asking for the kernel's worker,
    the kernel's asking the loader and taking the start, and Next usable (the kernel's
    import, the notebook's run and the drawing of its widgets ended). The parts overlap:
    the front end runs on the page's thread while the loader works in the worker's."""
    for name, seconds, cpu, sent, marks in rows:
        print(
            f"  {title:<12} {name:<13} Next usable {seconds:5.2f} s"
            f" (browser CPU {cpu:5.1f} s, server sent {mb(sent)})"
        )
        if marks:
            ended = sorted([*marks.items(), ("Next usable", seconds)], key=lambda item: item[1])
            print("      ended at: " + ", ".join(f"{mark} {when:.1f}" for mark, when in ended))


def print_medians(title: str, rows: list[tuple[str, float, float, int, dict[str, float]]]) -> None:
    """Each visit's median Next usable (and its range) over the repeated runs."""
    for name in dict.fromkeys(row[0] for row in rows):
        seconds = [row[1] for row in rows if row[0] == name]
        cpu = [row[2] for row in rows if row[0] == name]
        print(
            f"  {title:<12} {name:<13} median of {len(seconds)}: {statistics.median(seconds):5.2f} s"
            f" ({min(seconds):.2f}-{max(seconds):.2f}; browser CPU {statistics.median(cpu):4.1f} s)"
        )


def _record_outside(own: str | None, outside: list[str], request: Any) -> None:
    parts = urlparse(request.url)
    if parts.scheme in ("http", "https", "ws", "wss") and parts.hostname != own:
        outside.append(request.url)


async def two_visits(
    playwright: Any, visit: Callable[[str, Any, Callable[[], float]], Awaitable[Row]]
) -> list[Row]:
    """The first visit, then (browser restarted, same profile: its HTTP cache kept, as a
    learner comes back the next day) the second: ``visit(name, context, cpu)`` each, where
    ``cpu()`` is the CPU seconds that browser has used so far."""
    profile = Path(tempfile.mkdtemp(prefix="tutor-bench-profile-"))
    rows = []
    try:
        for name in ("first visit", "second visit"):
            context = await playwright.chromium.launch_persistent_context(
                str(profile),
                executable_path=chromium_path(),
                headless=True,
                args=[*CHROMIUM_FLAGS, *WALLS],
                viewport={"width": 1280, "height": 800},
            )
            rows.append(await visit(name, context, functools.partial(chromium_cpu, profile)))
            await context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return rows


async def visits(
    playwright: Any, url: str, sent: Callable[[], int], deadline: float
) -> list[tuple[str, float, float, int, list[str]]]:
    """Lesson 06 to a working quiz, first and second visit, with the bytes sent."""
    own = urlparse(url).hostname

    async def visit(
        name: str, context: Any, cpu: Callable[[], float]
    ) -> tuple[str, float, float, int, list[str]]:
        outside: list[str] = []
        context.on("request", functools.partial(_record_outside, own, outside))
        page = await context.new_page()
        cpu_before, bytes_before = cpu(), sent()
        seconds = await working_quiz(page, url, deadline)
        await page.wait_for_timeout(1000)  # the last late requests
        return (name, seconds, cpu() - cpu_before, sent() - bytes_before, outside)

    return await two_visits(playwright, visit)


async def worked_visits(
    playwright: Any, url: str, sent: Callable[[], int], deadline: float
) -> list[tuple[str, float, float, int, dict[str, float]]]:
    """The worked example's Next usable, first and second visit, with the bytes sent."""

    async def visit(
        name: str, context: Any, cpu: Callable[[], float]
    ) -> tuple[str, float, float, int, dict[str, float]]:
        page = await context.new_page()
        cpu_before, bytes_before = cpu(), sent()
        seconds, marks = await next_usable(page, url, deadline)
        await page.wait_for_timeout(1000)  # the last late requests
        return (name, seconds, cpu() - cpu_before, sent() - bytes_before, marks)

    return await two_visits(playwright, visit)


async def classroom(
    browser: Any, url: str, size: int, deadline: float
) -> tuple[list[float], list[str]]:
    """``size`` learners at once: their seconds to a working quiz, and why the others failed."""

    async def learner() -> float | str:
        context = await browser.new_context(viewport={"width": 1280, "height": 800})
        page = await context.new_page()
        try:
            return await working_quiz(page, url, deadline)
        except Exception as error:
            shown = ""
            with contextlib.suppress(Exception):
                shown = (await page.locator("body").inner_text())[:80].replace("\n", " ")
            return f"{type(error).__name__} ({shown!r})"
        finally:
            with contextlib.suppress(Exception):
                await context.close()

    results = await asyncio.gather(*(learner() for _ in range(size)))
    return [r for r in results if isinstance(r, float)], [r for r in results if isinstance(r, str)]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def print_visits(title: str, rows: list[tuple[str, float, float, int, list[str]]]) -> None:
    for name, seconds, cpu, sent, outside in rows:
        print(
            f"  {title:<12} {name:<13} {seconds:6.1f} s   browser CPU {cpu:5.1f} s   "
            f"server sent {mb(sent)}   requests outside: {len(outside)}"
        )
        for url in outside:
            print(f"      outside: {url}")


async def run(
    site: Path,
    sizes: list[int],
    deadline: float,
    voila: bool,
    worked_only: bool = False,
    repeat: int = 1,
) -> None:
    from playwright.async_api import async_playwright

    if chromium_path() is None:
        raise SystemExit("Chromium not found (set TUTOR_CHROMIUM)")
    files = [p for p in site.rglob("*") if p.is_file()]
    print(f"site: {site}: {len(files)} files, {mb(sum(p.stat().st_size for p in files))}")
    server = StaticServer(site, gzip=True)
    proxy = CountingProxy(server.port)
    try:
        async with async_playwright() as playwright:
            if not worked_only:
                await one_learner(playwright, site, proxy, deadline, voila)
                await a_class(playwright, server, proxy, sizes, deadline)
            print(f"\n3. The worked example: Next usable, and its parts (load average {load()})")
            worked = f"{proxy.base}/voici/render/{WORKED}.html?lang=en"
            rows = []
            for _ in range(repeat):
                rows += await worked_visits(playwright, worked, lambda: proxy.sent, deadline)
            print_parts("site, gzip", rows)
            if voila:
                with AppServer() as app:
                    app_proxy = CountingProxy(app.port)
                    app_url = f"{app_proxy.base}/voila/render/{WORKED}.ipynb?lang=en"
                    app_rows = []
                    for _ in range(repeat):
                        app_rows += await worked_visits(
                            playwright, app_url, lambda: app_proxy.sent, deadline
                        )
                    print_parts("Voila app", app_rows)
            if repeat > 1:
                print_medians("site, gzip", rows)
                if voila:
                    print_medians("Voila app", app_rows)
            print(f"   load average after: {load()}")
    finally:
        server.close()
    print_phases(site)


def python_phases(site: Path, how: str) -> list[dict[str, float]]:
    """One run of the worked example's Python in Node.js (pyodide_phases.mjs): each phase's
    CPU and wall seconds; the packages from the site's archive (its loader's way, ``how``
    ""), from its wheels ("--wheels": Pyodide's loadPackage, the way before the archive),
    or a second visit's start from the first's memory snapshot ("--snapshot")."""
    import json

    from tutor.site.build_pages import KERNEL_PLUGIN, page_config

    settings = page_config()["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    options = dict(settings["loadPyodideOptions"])
    options["env"] = {**options["env"], "QUERY_STRING": "lang=en"}
    del options["env"]["PYTHONSTARTUP"]  # no IPython shell here: its start-up is imported
    notebook = json.loads((ROOT / "notebooks" / f"{WORKED}.ipynb").read_text(encoding="utf-8"))
    options["cells"] = [
        "".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"
    ]
    result = subprocess.run(
        ["node", str(ROOT / "benchmarks" / "pyodide_phases.mjs"), str(site), json.dumps(options)]
        + ([how] if how else []),
        capture_output=True,
        text=True,
        check=True,
    )
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


def print_phases(site: Path) -> None:
    print(f"\n4. The worked example's Python phase by phase, in Node.js (load average {load()})")
    has_archive = (site / "static" / "pyodide" / SITE_PACKAGES_ARCHIVE).is_file()
    ways = [("packages from the archive", ""), ("from the snapshot", "--snapshot")]
    for way, how in [*(ways if has_archive else []), ("packages from the wheels", "--wheels")]:
        runs = [python_phases(site, how) for _ in range(RUNS)]
        total_cpu = 0.0
        print(f"  {way}:")
        for index, first in enumerate(runs[0]):
            cpu = statistics.median(run[index]["cpu"] for run in runs)
            wall = statistics.median(run[index]["wall"] for run in runs)
            total_cpu += cpu
            print(f"    {first['phase']:<17} CPU {cpu:5.2f} s   wall {wall:5.2f} s")
        print(f"    {'all':<17} CPU {total_cpu:5.2f} s   (median of {RUNS} runs)")
    print(f"  load average after: {load()}")


async def one_learner(
    playwright: Any, site: Path, proxy: CountingProxy, deadline: float, voila: bool
) -> None:
    print(f"\n1. One learner, lesson 06 to a working quiz (load average {load()})")
    plain = StaticServer(site)
    try:
        plain_proxy = CountingProxy(plain.port)
        plain_url = f"{plain_proxy.base}/voici/render/{LESSON}.html?lang=en"
        rows = await visits(playwright, plain_url, lambda: plain_proxy.sent, deadline)
    finally:
        plain.close()
    print_visits("site, plain", rows)
    url = f"{proxy.base}/voici/render/{LESSON}.html?lang=en"
    rows = await visits(playwright, url, lambda: proxy.sent, deadline)
    print_visits("site, gzip", rows)
    if voila:
        with AppServer() as app:
            app_proxy = CountingProxy(app.port)
            app_url = f"{app_proxy.base}/voila/render/{LESSON}.ipynb?lang=en"
            app_rows = await visits(playwright, app_url, lambda: app_proxy.sent, deadline)
        print_visits("Voila app", app_rows)
    print(f"   load average after: {load()}")


async def a_class(
    playwright: Any, server: StaticServer, proxy: CountingProxy, sizes: list[int], deadline: float
) -> None:
    url = f"{proxy.base}/voici/render/{LESSON}.html?lang=en"
    print(f"\n2. A class at once; the only server: http.server (load average {load()})")
    print("   N | to a working quiz (s): med   p95   max | worked failed |"
          " server: sent, CPU s | wall s")  # fmt: skip
    browser = await playwright.chromium.launch(
        executable_path=chromium_path(), args=[*CHROMIUM_FLAGS, *WALLS]
    )
    for size in sizes:
        sent_before, cpu_before = proxy.sent, server.cpu()
        started = time.monotonic()
        done, failures = await classroom(browser, url, size, deadline)
        wall = time.monotonic() - started
        timing = (
            f"{statistics.median(done):5.1f} {percentile(done, 0.95):5.1f} {max(done):5.1f}"
            if done
            else "    -     -     -"
        )
        print(
            f"{size:4d} | {' ' * 20}{timing} | {len(done):6d} {size - len(done):6d} | "
            f"{mb(proxy.sent - sent_before)}, {server.cpu() - cpu_before:5.2f} | "
            f"{wall:5.0f}   (load average {load()})"
        )
        for why in sorted(set(failures)):
            print(f"      failed: {why} x{failures.count(why)}")
    await browser.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one now)")
    parser.add_argument("--sizes", type=int, nargs="*", default=[10, 40])
    parser.add_argument("--deadline", type=float, default=900, help="seconds a page may take")
    parser.add_argument("--no-voila", action="store_true", help="skip the Voila reference")
    parser.add_argument("--worked-only", action="store_true", help="only parts 3 and 4")
    parser.add_argument(
        "--repeat", type=int, default=1, help="part 3's two visits this many times (medians)"
    )
    args = parser.parse_args()
    folder = None
    if args.site is None:
        from tutor.site.build import build_site

        folder = Path(tempfile.mkdtemp(prefix="tutor-bench-site-"))
        started = time.monotonic()
        args.site = build_site(folder / "site").folder
        print(f"built the site in {time.monotonic() - started:.0f} s")
    try:
        asyncio.run(
            run(
                args.site,
                args.sizes,
                args.deadline,
                not args.no_voila,
                args.worked_only,
                args.repeat,
            )
        )
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sigterm_as_exit()
    raise SystemExit(main())
