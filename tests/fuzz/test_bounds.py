"""The fuzz suite's bounds (bounds.py) hold under load without losing the power to fail:
a wait is scaled by the load per core, and a case that never ends still fails."""

from __future__ import annotations

import asyncio
import time
from typing import TypeVar

import pytest
from event_loops import run_in_own_thread as run

from . import bounds
from .bounds import bounded, load_scaled, within

T = TypeVar("T")


def test_the_wall_clock_allowed_grows_with_the_load_and_never_shrinks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bounds.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(bounds.os, "getloadavg", lambda: (0.5, 0.0, 0.0))
    assert load_scaled(20) == 20  # a quiet machine: the bound itself
    monkeypatch.setattr(bounds.os, "getloadavg", lambda: (30.0, 0.0, 0.0))
    assert load_scaled(20) == 300  # 15 per core: 15 times as long


def test_a_wait_that_never_ends_still_fails_naming_what_and_the_load() -> None:
    async def never() -> None:
        await asyncio.Event().wait()

    start = time.monotonic()
    with pytest.raises(TimeoutError, match=r"the kernel's reply: nothing after .* at load"):
        run(within(never(), 0.2, "the kernel's reply"))
    assert time.monotonic() - start < 60  # (0.2 s times the load, read while waiting)


def test_a_wait_that_ends_gives_its_result() -> None:
    async def answer() -> int:
        await asyncio.sleep(0.01)
        return 42

    assert run(within(answer(), 30, "the answer")) == 42


def test_a_load_that_rises_during_the_wait_extends_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The load is read again while waiting: a burst that starts after the wait began (the
    flakes: other engineers' browsers starting) gives the case more time."""
    loads = iter([0.0] + [40.0] * 10_000)  # quiet when the wait starts, then busy
    monkeypatch.setattr(bounds.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(bounds.os, "getloadavg", lambda: (next(loads), 0.0, 0.0))

    async def slow() -> str:
        await asyncio.sleep(1.5)  # past the 1 s bound at load 1; within 20 s at load 20
        return "done"

    assert run(within(slow(), 1.0, "slow")) == "done"


def test_a_case_over_its_cpu_time_fails_whatever_the_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounds.os, "getloadavg", lambda: (1000.0, 0.0, 0.0))
    monkeypatch.setattr(bounds, "WORST", {})  # not one of the suite's printed figures
    with (
        pytest.raises(AssertionError, match="CPU-s"),
        bounded("spin", "a busy loop", seconds=0.05, megabytes=64),
    ):
        end = time.process_time() + 0.3
        while time.process_time() < end:
            pass
