"""Time and memory bounds for each fuzz case, and the worst figures of each entry point,
printed at the end of the run (tests/fuzz/conftest.py): what a person could send never
hangs the tutor or makes it take memory without bound."""

from __future__ import annotations

import asyncio
import os
import time
import tracemalloc
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from hypothesis import HealthCheck, settings


@dataclass
class Worst:
    """An entry point's inputs tried, and the slowest and the hungriest of them."""

    cases: int = 0
    seconds: float = 0.0
    megabytes: float = 0.0
    slowest: str = ""


WORST: dict[str, Worst] = {}


def record(entry: str, case: str, seconds: float, megabytes: float = 0.0) -> None:
    worst = WORST.setdefault(entry, Worst())
    worst.cases += 1
    if seconds > worst.seconds:
        worst.seconds, worst.slowest = seconds, case[:60]
    worst.megabytes = max(worst.megabytes, megabytes)


T = TypeVar("T")


def load_per_core() -> float:
    """The machine's load (the last minute's average) per core."""
    return os.getloadavg()[0] / (os.cpu_count() or 1)


def load_scaled(seconds: float) -> float:
    """The wall-clock allowed now for what takes ``seconds`` on a machine of its own:
    ``seconds`` times the load per core when that is above 1 (other engineers' tests and
    browsers share the 2 cores; a case that hangs still fails, later)."""
    return seconds * max(1.0, load_per_core())


async def within(awaitable: Awaitable[T], seconds: float, what: str) -> T:
    """``awaitable``'s result, if it comes within ``load_scaled(seconds)`` of wall-clock,
    the load read again every second while waiting (a burst of load that starts during the
    wait counts); else TimeoutError naming ``what``, the time waited and the load."""
    task = asyncio.ensure_future(awaitable)
    start = time.monotonic()
    while True:
        left = start + load_scaled(seconds) - time.monotonic()
        if left <= 0:
            task.cancel()
            raise TimeoutError(
                f"{what}: nothing after {time.monotonic() - start:.1f} s (bound {seconds} s "
                f"at load 1, {load_scaled(seconds):.1f} s at load {load_per_core():.1f} per core)"
            )
        done, _ = await asyncio.wait({task}, timeout=min(left, 1.0))
        if done:
            return task.result()


@contextmanager
def bounded(entry: str, case: str, *, seconds: float, megabytes: float) -> Iterator[None]:
    """Run the block with Python's allocations traced: it must take at most ``seconds`` of
    this process's CPU time and allocate at most ``megabytes`` at its peak (in-process
    cases). CPU time is the work a case costs, whatever else the machine runs: the largest
    lesson file allowed took 20 s of wall-clock at load 30 on 2 cores, a second or two of
    CPU. A case that waits instead of working is held to ``seconds`` of wall-clock, times
    the machine's load per core when that is above 1."""
    started_tracing = not tracemalloc.is_tracing()
    if started_tracing:
        tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    start, start_cpu = time.perf_counter(), time.process_time()
    try:
        yield
    finally:
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - start_cpu
        peak = (tracemalloc.get_traced_memory()[1] - base) / 2**20
        if started_tracing:
            tracemalloc.stop()
    record(entry, case, elapsed, peak)
    assert cpu <= seconds, f"{entry}: {case[:80]!r} took {cpu:.1f} CPU-s (bound {seconds} s)"
    load, waited = load_per_core(), load_scaled(seconds)
    assert elapsed <= waited, (
        f"{entry}: {case[:80]!r} took {elapsed:.1f} s, {cpu:.1f} of them CPU "
        f"(bound {waited:.1f} s at load {load:.1f} per core)"
    )
    assert peak <= megabytes, f"{entry}: {case[:80]!r} took {peak:.0f} MB (bound {megabytes} MB)"


def examples(count: int) -> settings:
    """Hypothesis settings of the suite: ``count`` examples, the same ones on every run
    (derandomized, no example database), no deadline (the bounds above are the suite's)."""
    return settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
