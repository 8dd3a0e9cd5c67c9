"""``run_in_own_thread(coroutine)``: a coroutine run to its end on a new event loop in a
thread of its own, for every test that runs asyncio code.

Never ``asyncio.run`` in the tests' thread: Playwright's sync API (one driver from the
first browser test to the end of the session, tests/conftest.py ``playwright_driver``)
leaves its event loop marked running there between its calls, and ``asyncio.run`` then
refuses to start ("cannot be called from a running event loop"): a test would pass alone
and fail after a browser test in the same run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_in_own_thread(coroutine: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
    """The result of ``coroutine`` (or its exception), run by ``asyncio.run`` in a new
    thread; ``timeout`` seconds at most (TimeoutError), none by default."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result(timeout=timeout)
