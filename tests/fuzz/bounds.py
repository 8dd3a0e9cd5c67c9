"""Time and memory bounds for each fuzz case, and the worst figures of each entry point,
printed at the end of the run (tests/fuzz/conftest.py): what a person could send never
hangs the tutor or makes it take memory without bound."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

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


@contextmanager
def bounded(entry: str, case: str, *, seconds: float, megabytes: float) -> Iterator[None]:
    """Run the block with Python's allocations traced: it must end within ``seconds`` and
    allocate at most ``megabytes`` at its peak (in-process cases)."""
    started_tracing = not tracemalloc.is_tracing()
    if started_tracing:
        tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    start = time.perf_counter()
    try:
        yield
    finally:
        elapsed = time.perf_counter() - start
        peak = (tracemalloc.get_traced_memory()[1] - base) / 2**20
        if started_tracing:
            tracemalloc.stop()
    record(entry, case, elapsed, peak)
    assert elapsed <= seconds, f"{entry}: {case[:80]!r} took {elapsed:.1f} s (bound {seconds} s)"
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
