"""The live room as the projector shows it: from a learner's answer to the count on the
projector (issue 22: p95 at most 1 s).

Starts the app in classroom mode (``bash scripts/app.sh --classroom``, its room in a
scratch SQLite file), opens the teacher's start address in Debian's Chromium at 1280x720,
presents a lesson, and walks it from question to question. At each question ``--learners``
light HTTP learners (joined once, urllib, no browser) answer at once from a few threads,
as a class does. For every answer:

- tap to projector: from the moment its POST leaves the learner to the first frame where the
  projector's bar counts it ("17 of 24 answered" reaching its place in the order the
  server took the answers), read from the page's own clock (a MutationObserver on the
  bar's line, ``performance.timeOrigin + performance.now()``: the same machine's clock);
- the answer's own round trip (its POST's reply): the reference in the same run.

Figures are printed, never asserted (the machine is shared: the load average is printed
at the start and the end). Run: ``.venv/bin/python benchmarks/projector_benchmark.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser.app_process import AppServer, launch_chromium
from process_guard import sigterm_as_exit

# Every change of the bar's room line, with the page's epoch time in ms.
WATCH = """
(() => {
  window.__roomSeen = [];
  const line = document.querySelector('.tutor-present-room');
  new MutationObserver(() => {
    window.__roomSeen.push([line.textContent, performance.timeOrigin + performance.now()]);
  }).observe(line, {subtree: true, childList: true, characterData: true});
})();
"""


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body``; a 429 (the room takes so many joins a second) waits as it says."""
    while True:
        request = urllib.request.Request(
            url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return dict(json.loads(response.read()))
        except urllib.error.HTTPError as error:
            if error.code != 429:
                raise
            time.sleep(float(error.headers.get("Retry-After", "1")))


def _tap(room: str, learner: str, key: str, answer: Any) -> tuple[float, float]:
    """One learner's answer: when it left and when its reply came, in epoch ms."""
    sent = time.time() * 1000
    _post(room + "answer", {"learner": learner, "question": key, "answer": answer})
    return sent, time.time() * 1000


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _answer_for(kind: str) -> Any:
    return {"one-choice": 0, "many-choices": [0], "number": 1}[kind]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=40)
    parser.add_argument("--questions", type=int, default=10)
    parser.add_argument("--threads", type=int, default=8, help="learners answering at once")
    parser.add_argument("--lessons", default="06,04,02", help="lessons to walk, in order")
    options = parser.parse_args()
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    print(f"load average at the start: {os.getloadavg()}")

    scratch = Path(tempfile.mkdtemp(prefix="projector-bench-"))
    server = AppServer(classroom=True, env={"TUTOR_ROOM_DB": str(scratch / "room.sqlite3")})
    server.start()
    from playwright.sync_api import sync_playwright

    try:
        log = server.log()
        code = re.search(r"The live room ([A-Z]{4})", log)
        start = re.search(r"(http://127\.0\.0\.1:\d+/room/teacher\?key=\S+)", log)
        assert code and start, log
        room = server.url(f"/room/{code.group(1)}/api/")
        learners = [
            _post(room + "join", {"nickname": f"p{n}"})["learner"] for n in range(options.learners)
        ]

        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
            page.goto(start.group(1), timeout=120_000)
            taps: list[float] = []
            trips: list[float] = []
            asked = 0
            for number in options.lessons.split(","):
                notebook = next((ROOT / "notebooks").glob(f"{number}_*.ipynb")).name
                page.goto(server.render_url(notebook, "present=1&lang=en"), timeout=120_000)
                page.locator(".tutor-present-room").wait_for(timeout=120_000)
                page.evaluate(WATCH)
                seen_keys: set[str] = set()
                for _ in range(60):
                    if asked >= options.questions:
                        break
                    mark = page.evaluate(
                        "(() => { const m = document.querySelector("
                        "'.tutor-unit:not(.tutor-hidden) .tutor-room-question');"
                        " return m && m.dataset.lesson + '/' + m.dataset.question; })()"
                    )
                    if mark and mark not in seen_keys:
                        seen_keys.add(mark)
                        state = page.request.get(server.url("/room/api/state?lang=en")).json()
                        deadline = time.monotonic() + 30
                        while (state["question"] or {}).get("key") != mark:
                            assert time.monotonic() < deadline, f"the room never opened {mark}"
                            time.sleep(0.05)
                            state = page.request.get(server.url("/room/api/state?lang=en")).json()
                        before = state["answered"]
                        answer = _answer_for(state["question"]["kind"])
                        page.evaluate("window.__roomSeen = []")
                        with ThreadPoolExecutor(options.threads) as pool:
                            count = len(learners)
                            done = list(
                                pool.map(
                                    _tap, [room] * count, learners, [mark] * count, [answer] * count
                                )
                            )
                        total = before + len(learners)
                        page.wait_for_function(
                            "total => (window.__roomSeen || []).some(([words]) =>"
                            " new RegExp('^' + total + ' of ').test(words))",
                            arg=total,
                            timeout=30_000,
                        )
                        seen = page.evaluate("window.__roomSeen")
                        shown_at: dict[int, float] = {}
                        for words, at in seen:
                            count = (
                                int(re.match(r"(\d+) of", words).group(1))
                                if re.match(r"(\d+) of", words)
                                else 0
                            )
                            for k in range(count + 1):
                                shown_at.setdefault(k, at)
                        for place, (sent, replied) in enumerate(
                            sorted(done, key=lambda pair: pair[1])
                        ):
                            taps.append(shown_at[before + place + 1] - sent)
                            trips.append(replied - sent)
                        asked += 1
                    page.keyboard.press("PageDown")
                    time.sleep(0.15)
                if asked >= options.questions:
                    break
            browser.close()
    finally:
        server.close()

    print(
        f"{asked} questions x {options.learners} learners ({len(taps)} answers, "
        f"{options.threads} answering at once)"
    )
    print(
        f"tap to projector: median {statistics.median(taps):.0f} ms, p95 "
        f"{_percentile(taps, 0.95):.0f} ms, max {max(taps):.0f} ms (target: p95 <= 1000 ms)"
    )
    print(
        f"the answer's own round trip (reference): median {statistics.median(trips):.0f} ms, "
        f"p95 {_percentile(trips, 0.95):.0f} ms"
    )
    print(
        f"ratio, p95 tap to projector / p95 round trip: "
        f"{_percentile(taps, 0.95) / max(1.0, _percentile(trips, 0.95)):.1f}"
    )
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    sigterm_as_exit()
    main()
