"""Admission: a class arriving at once.

Every page view starts a kernel and runs its notebook: about a second of CPU. Forty at once
on two cores made every page wait for every other one until Voila gave up on their output.
:class:`Admission` lets a few pages start at a time and queues the rest (first come, first
served); a page that waited too long, or that would go past the cap on kernels, gets a short
page saying the tutor is busy (:func:`busy_page`), which tries again by itself.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from html import escape
from typing import Any

from tutor.teaching.text import text
from tutor.web.pages import tutor_page


class Admission:
    """How many pages may start their kernel at the same time, and how many kernels the
    server holds at most.

    ``max_starting`` pages start at once; the others wait, first come first served, for
    up to ``queue_timeout`` seconds. A page that waited longer, or that would take the
    server past ``max_kernels`` kernels, is refused with the busy page.
    """

    def __init__(
        self,
        kernel_manager: Any,
        *,
        max_kernels: int,
        max_starting: int,
        queue_timeout: float,
    ) -> None:
        self.kernel_manager = kernel_manager
        self.max_kernels = max_kernels
        self.max_starting = max_starting
        self.queue_timeout = queue_timeout
        self.waiting = 0
        self.starting = 0
        self._slots: asyncio.Semaphore | None = None

    def kernels(self) -> int:
        return len(self.kernel_manager.list_kernel_ids())

    @asynccontextmanager
    async def admit(self) -> AsyncIterator[str | None]:
        """``None`` when the page may start (its slot is held until the block ends),
        else why not: ``"full"`` (the cap on kernels) or ``"queue"`` (waited too long)."""
        if self._slots is None:  # made in the server's event loop
            self._slots = asyncio.Semaphore(self.max_starting)
        # Pages already waiting or starting will hold a kernel too.
        if self.kernels() + self.waiting + self.starting >= self.max_kernels:
            yield "full"
            return
        self.waiting += 1
        try:
            await asyncio.wait_for(self._slots.acquire(), self.queue_timeout)
        except TimeoutError:
            admitted = False
        else:
            admitted = True
        finally:
            self.waiting -= 1
        if not admitted:
            yield "queue"
            return
        self.starting += 1
        try:
            yield None
        finally:
            self.starting -= 1
            self._slots.release()


RETRY_SECONDS = (3, 8)
"""The busy page tries again after a random number of seconds in this range (so that a
class refused together does not come back together)."""


def busy_page(reason: str, lang: str, *, max_kernels: int) -> str:
    """The page shown instead of a lesson when the tutor cannot start it now: what is
    happening, in the learner's language, and a retry that needs no click."""
    low, high = RETRY_SECONDS
    wait = random.randint(low, high)
    again = escape(text("busy.again", lang))
    return tutor_page(
        lang,
        text("busy.title", lang),
        [text(f"busy.{reason}", lang, count=max_kernels)],
        kind="busy",
        data={"reason": reason},
        head=f'<meta http-equiv="refresh" content="{wait + 2}">\n',
        tail=f"""<p><a href="" id="tutor-retry">{again}</a></p>
<script>
  document.getElementById("tutor-retry").href = window.location.href;
  window.setTimeout(() => window.location.reload(), {wait * 1000});
</script>
""",
    )
