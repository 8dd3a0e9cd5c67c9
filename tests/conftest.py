"""Fixtures shared by the tests of every layer: the worked example's deal, a random policy
that plays any round to its end with legal actions only, a progress file in a tmp folder,
a disk that is full for that file, the Playwright driver of the browser and hub tests;
Chromium, the app and the static site (one of each per session, for tests/browser,
tests/scenarios and tests/fuzz) come from tests/browser/fixtures.py; a run stopped with
SIGTERM stops its servers as on Ctrl+C (tests/process_guard.py)."""

from __future__ import annotations

import errno
import os
import random
from collections.abc import Callable, Coroutine, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest
from event_loops import run_in_own_thread
from process_guard import sigterm_as_interrupt

from tutor.rules.cards import Suit
from tutor.rules.round import Phase, Round
from tutor.teaching.lesson import Lesson
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.progress_stores import PROGRESS_FILE_VARIABLE

# Chromium, the app, the static site: one of each for the whole run, shared by
# tests/browser and tests/scenarios (fixtures defined once, here, are set up once); the
# tests that share a costly set-up go to one pytest-xdist worker (tests/worker_groups.py).
pytest_plugins = ["browser.fixtures", "worker_groups"]


def pytest_configure(config: pytest.Config) -> None:
    """A run stopped with SIGTERM tears its fixtures down (its servers with them) as one
    stopped with Ctrl+C does; tests/process_guard.py stops whatever is left at exit."""
    sigterm_as_interrupt()


# RULES.md, "The worked example": seats 0-3 are A-D clockwise, D (seat 3) deals, R9 turned.
WORKED_HANDS = ("J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10")


@pytest.fixture
def scoring() -> Lesson:
    """Lesson 07 (scoring), whose quiz the quiz tests take with and without its widget."""
    return load_lesson("07_scoring")


@pytest.fixture
def worked_example() -> Round:
    """The worked example's round, dealt and waiting for A's bid."""
    return Round(hands=WORKED_HANDS, turned="R9", dealer=3)


def act_randomly(rnd: Round, rng: random.Random) -> None:
    """Make one legal action for the seat to act, chosen with ``rng``."""
    if rnd.phase is Phase.TRUMP_CHOICE:
        rnd.choose_trump(rng.choice(list(Suit)))
    elif rnd.phase is Phase.BIDDING:
        rnd.bid(rng.choice(rnd.legal_bids()))
    else:
        rnd.play(rng.choice(rnd.legal_plays()))


def finish_randomly(rnd: Round, rng: random.Random) -> Round:
    """Play ``rnd`` to its end with random legal actions."""
    while not rnd.finished:
        act_randomly(rnd, rng)
    return rnd


@pytest.fixture
def finish_round() -> Callable[[Round, random.Random], Round]:
    """``finish_round(rnd, rng)`` plays a round to its end with random legal actions."""
    return finish_randomly


@pytest.fixture
def progress_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The default progress file is in the test's tmp folder, and so is HOME: a test never
    writes the learner's real progress."""
    path = tmp_path / "progress" / "progress.jsonl"
    monkeypatch.setenv(PROGRESS_FILE_VARIABLE, str(path))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return path


@contextmanager
def _no_space_for(path: Path) -> Iterator[None]:
    real_open = os.open

    def full(file: object, *args: int) -> int:
        if Path(str(file)) == path:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_open(file, *args)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "open", full)
        yield


@pytest.fixture
def full_disk(progress_in_tmp: Path) -> Callable[[], AbstractContextManager[None]]:
    """``with full_disk():`` the progress file cannot be opened for writing, as on a full
    disk (ENOSPC); every other file opens as usual, and so does it after the block."""
    return lambda: _no_space_for(progress_in_tmp)


@pytest.fixture
def run_coroutine() -> Callable[[Coroutine[Any, Any, Any]], Any]:
    """``run_coroutine(coro)`` runs ``coro`` to its end on a new event loop, in a thread of
    its own (tests/event_loops.py says why), and returns its result."""
    return run_in_own_thread


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Any]:
    """One Playwright driver for the whole run, shared by tests/browser and tests/hub: the
    sync API refuses to start a second driver while one is open (it owns an event loop)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver
