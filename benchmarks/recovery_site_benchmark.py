"""What the widget-recovery test's static-site fixture costs (tests/browser/test_widget_recovery.py):
before, a second whole site built with the test's two notebooks (``build_site(...,
extra_notebooks=...)``); now, only those two pages rendered by Voici beside the session's
built site (``render_pages``, the build's own step, tutor/site/build_pages.py). Prints wall-clock
and CPU seconds (this process and its children: Voici's build runs in one) of each, their
ratio, and the load.

    .venv/bin/python benchmarks/recovery_site_benchmark.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser.app_process import scratch_notebooks
from browser.test_widget_recovery import (
    NO_MODEL,
    NO_MODEL_CODE,
    SLOW_START,
    SLOW_START_CODE,
)
from process_guard import sigterm_as_exit

from tutor.site.build import build_site
from tutor.site.build_inputs import browser_wheels, runtime_dir
from tutor.site.build_pages import render_pages


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(step: Callable[[Path], object]) -> tuple[float, float]:
    with tempfile.TemporaryDirectory(prefix="recovery-bench-") as name:
        wall, cpu = time.perf_counter(), cpu_seconds()
        step(Path(name) / "out")
        return time.perf_counter() - wall, cpu_seconds() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="runs of each, alternating")
    args = parser.parse_args()
    folder = scratch_notebooks({SLOW_START: SLOW_START_CODE, NO_MODEL: NO_MODEL_CODE})
    extra = [folder / SLOW_START, folder / NO_MODEL]
    wheels = browser_wheels(runtime_dir() / "wheels")
    figures: dict[str, list[tuple[float, float]]] = {"whole site": [], "two pages": []}
    print(f"load before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for _ in range(args.runs):
        figures["whole site"].append(timed(lambda out: build_site(out, extra_notebooks=extra)))
        figures["two pages"].append(timed(lambda out: render_pages(extra, out, wheels)))
    for name, runs in figures.items():
        walls, cpus = sorted(r[0] for r in runs), sorted(r[1] for r in runs)
        print(
            f"{name:>10}: wall {walls[len(walls) // 2]:6.1f} s, CPU {cpus[len(cpus) // 2]:6.1f} s"
        )
    (whole_wall, whole_cpu), (pages_wall, pages_cpu) = (
        sorted(figures[n])[len(figures[n]) // 2] for n in ("whole site", "two pages")
    )
    print(
        f"saved per test run: {whole_wall - pages_wall:.1f} s wall, "
        f"{whole_cpu - pages_cpu:.1f} CPU-s (two pages cost {pages_cpu / whole_cpu:.0%} of "
        f"the whole site's CPU)"
    )
    print(f"load after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    sigterm_as_exit()
    main()
