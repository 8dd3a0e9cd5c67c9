"""The live room under a class: N simulated learners (40 by default) join the room of the real
app (``bash scripts/app.sh --classroom``) and each answers Q questions (10), while the
projector's event stream counts the answers; halfway through, the app is stopped and
started again on the same SQLite file (a restart in the middle of the lesson).

Each simulated learner does what the learner page does, over plain HTTP: it joins, keeps the
room's event stream open (and reconnects when it drops), fetches its state in its language
when the question changes, thinks for a random 0-1.5 s and answers (a random valid answer).
Optionally a few real Chromium learners (``--chromium 3``) answer on the learner page itself.

Printed, before and after the restart:

- p50 / p95 / max from a tap (the answer request sent) to the projector's stream carrying
  the count with that answer (the first event whose version is the answer's or later);
- the server's own CPU time per answer (the app's process: user + system, ``psutil``; not
  wall time, and not the kernels': the room starts none), over everything the room did in
  that half (joins, state fetches, streams, answers);
- answers lost: answers the server accepted minus those counted in the room's summary
  after the run (must be 0), and refused answers (must be 0).

The reference, in the same run: one learner alone answering the same questions (its p50).
Goals on this 2-core machine: p95 <= 1 s, <= 10 ms of server CPU per answer, 0 lost. The
simulated learners run in this process (threads), on the same cores as the server: their own
work lengthens the measured latency. The load average is printed beside the figures.

Run: ``.venv/bin/python benchmarks/live_room_benchmark.py [--learners 40] [--questions 10]
[--chromium 0] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser.app_process import AppServer, free_port, launch_chromium
from browser.room_client import EventReader, LearnerClient, TeacherClient
from process_guard import sigterm_as_exit

from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.quiz import AnswerKind

QUESTIONS = [
    ("06_trick_winner", "quiz-trump-led"),
    ("04_follow_suit", "quiz-follow-green"),
    ("07_scoring", "quiz-bid-one-met"),
    ("06_trick_winner", "quiz-highest-trump"),
    ("03_bidding", "bids-round-five"),
    ("02_trump", "wizard-turned-quiz"),
    ("05_jester_leads", "quiz-jester-led-winner"),
    ("07_scoring", "quiz-bid-zero-took-two"),
    ("10_variants", "quiz-hidden-during-play"),
    ("01_cards_and_rounds", "rounds-five-players"),
    ("06_trick_winner", "quiz-no-trump-round"),
    ("04_follow_suit", "quiz-no-yellow"),
]
LANGS = ("en", "ja", "zh-Hant")


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def random_answer(lesson: str, item: str, rng: random.Random) -> Any:
    question = load_lesson(lesson).item(item).question
    count = len(question.choices())
    if question.answer_kind is AnswerKind.ONE_CHOICE:
        return rng.randrange(count)
    if question.answer_kind is AnswerKind.MANY_CHOICES:
        return sorted(rng.sample(range(count), rng.randint(1, count)))
    return rng.randint(-30, 60)


@dataclass
class Tally:
    """What the learners sent: (send time, the reply's version) per accepted answer."""

    sent: list[tuple[float, int]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    pairs: set[tuple[str, str]] = field(default_factory=set)  # (learner key, question key)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Projector:
    """The projector's event stream: the time each room version first arrived."""

    def __init__(self) -> None:
        self.seen: dict[int, float] = {}
        self.answered = 0
        self.question: str | None = None
        self.stop = threading.Event()
        self.headers: dict[str, str] = {}
        self.port = 0
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self, port: int, headers: dict[str, str]) -> None:
        self.port, self.headers = port, headers
        self._thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            try:
                stream = EventReader("127.0.0.1", self.port, "/room/api/events", self.headers)
                while not self.stop.is_set():
                    _event, live = stream.next_event()
                    now = time.perf_counter()
                    self.seen.setdefault(live["version"], now)
                    self.answered, self.question = live["answered"], live["question_key"]
            except (OSError, EOFError, ValueError):
                time.sleep(0.2)  # the server restarts: connect again

    def arrival(self, version: int) -> float | None:
        times = [at for seen, at in self.seen.items() if seen >= version]
        return min(times) if times else None


class SimulatedLearner(threading.Thread):
    def __init__(self, app: AppServer, code: str, n: int, tally: Tally, seed: int) -> None:
        super().__init__(daemon=True)
        self.client = LearnerClient(app.url("").rstrip("/"), code)
        self.port = app.port
        self.lang = LANGS[n % len(LANGS)]
        self.tally = tally
        self.rng = random.Random(seed * 1000 + n)
        self.stop = threading.Event()
        self.answered: set[str] = set()
        self.name = f"learner-{n}"
        status, reply, _ = self.client.join(f"learner {n}")
        assert status == 201, reply

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                path = f"/room/{self.client.code}/api/events?learner={self.client.key}"
                stream = EventReader("127.0.0.1", self.port, path)
                while not self.stop.is_set():
                    _event, live = stream.next_event()
                    self.on_event(live)
            except (OSError, EOFError, ValueError):
                time.sleep(0.3 + self.rng.random())  # like EventSource: try again

    def on_event(self, live: dict[str, Any]) -> None:
        key = live["question_key"]
        if live["phase"] != "open" or key is None or key in self.answered:
            return
        state = self.client.state(self.lang)  # the page fetches its words
        time.sleep(self.rng.uniform(0, 1.5))  # reading, thinking, tapping
        lesson, _, item = key.partition("/")
        sent = time.perf_counter()
        status, reply, _ = self.client.answer(key, random_answer(lesson, item, self.rng))
        with self.tally.lock:
            if status == 200:
                self.tally.sent.append((sent, reply["version"]))
                self.tally.pairs.add((self.client.key, key))
                self.answered.add(key)
            else:
                self.tally.refused.append(f"{status} {reply}")
        del state


def chromium_learners(app: AppServer, code: str, count: int, stop: threading.Event) -> None:
    """Real learner pages: join, then tap the first choice (or type 10) of every question."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        pages = []
        for n in range(count):
            context = browser.new_context(viewport={"width": 390, "height": 844})
            page = context.new_page()
            page.goto(app.url(f"/room/{code}?lang={LANGS[n % 3]}"))
            page.locator("#room-nickname").fill(f"chromium {n}")
            page.locator("form.room-join button").click()
            pages.append(page)
        done: list[set[str]] = [set() for _ in pages]
        while not stop.is_set():
            for page, answered in zip(pages, done, strict=True):
                try:
                    if page.locator("main").get_attribute("data-state", timeout=500) != "open":
                        continue
                    key = page.locator("#room-prompt").text_content(timeout=500)
                    if key in answered:
                        continue
                    if page.locator("#room-number").count():
                        page.locator("#room-number").fill("10")
                        page.locator("#room-number").press("Enter")
                    else:
                        page.locator(".room-choice").first.click(timeout=500)
                        if page.locator("#room-send").count():
                            page.locator("#room-send").click(timeout=500)
                    answered.add(str(key))
                except Exception:  # the page is reloading or reconnecting
                    continue
            time.sleep(0.1)
        browser.close()


def teacher_for(app: AppServer) -> TeacherClient:
    teacher = TeacherClient(app.url("").rstrip("/"))
    key = app.teacher_key()
    assert key, app.log()
    assert teacher.start(key)[0] == 302
    return teacher


def run_questions(
    teacher: TeacherClient, projector: Projector, questions: list[tuple[str, str]], expected: int
) -> None:
    for lesson, item in questions:
        teacher.act("open", {"lesson": lesson, "item": item})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if projector.question == f"{lesson}/{item}" and projector.answered >= expected:
                break
            time.sleep(0.05)
        else:
            print(f"  ! {lesson}/{item}: {projector.answered} of {expected} answered in 30 s")
        teacher.act("reveal")


def latencies(tally: Tally, projector: Projector, since: int) -> list[float]:
    found = []
    for sent, version in tally.sent[since:]:
        arrived = projector.arrival(version)
        if arrived is not None:
            found.append(arrived - sent)
    return found


def figures(label: str, delays: list[float], cpu: float, answers: int) -> None:
    delays = sorted(delays)
    if not delays:
        print(f"{label}: no answers")
        return
    p95 = delays[min(len(delays) - 1, int(0.95 * len(delays)))]
    print(
        f"{label}: {answers} answers; tap -> projector p50 {1000 * statistics.median(delays):.0f} ms, "
        f"p95 {1000 * p95:.0f} ms, max {1000 * delays[-1]:.0f} ms; server CPU "
        f"{1000 * cpu / max(answers, 1):.2f} ms per answer   (load {load()})"
    )


def page_weight(app: AppServer, code: str) -> None:
    """What a phone downloads to show the learner page, and how long the server takes."""
    import re
    import urllib.request

    started = time.perf_counter()
    with urllib.request.urlopen(app.url(f"/room/{code}"), timeout=30) as response:
        html = response.read()
    sizes = [len(html)]
    for asset in re.findall(rb'(/room/assets/[^"]+)', html):
        with urllib.request.urlopen(app.url(asset.decode()), timeout=30) as response:
            sizes.append(len(response.read()))
    print(
        f"learner page: {len(sizes)} requests, {sum(sizes) / 1024:.1f} KiB "
        f"({' + '.join(f'{size / 1024:.1f}' for size in sizes)}), served in "
        f"{1000 * (time.perf_counter() - started):.0f} ms on this machine (uncompressed)"
    )


def server_cpu(app: AppServer) -> float:
    assert app.process is not None
    times = psutil.Process(app.process.pid).cpu_times()
    return times.user + times.system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=40)
    parser.add_argument("--questions", type=int, default=10, choices=range(2, len(QUESTIONS) - 1))
    parser.add_argument("--chromium", type=int, default=0, help="real Chromium learners besides")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    questions = QUESTIONS[: args.questions]
    half = len(questions) // 2
    db = Path(tempfile.mkdtemp(prefix="live-room-bench-")) / "room.sqlite3"
    port = free_port()
    print(
        f"{args.learners} simulated learners + {args.chromium} Chromium, {len(questions)} questions, "
        f"{os.cpu_count()} cores, load {load()}"
    )

    app = AppServer(port=port, classroom=True, env={"TUTOR_ROOM_DB": str(db)}).start()
    try:
        code = app.room_code()
        assert code
        page_weight(app, code)
        teacher = teacher_for(app)
        projector = Projector()
        projector.start(port, teacher.cookie_header())

        # the reference: one learner alone
        alone = Tally()
        solo = SimulatedLearner(app, code, 999, alone, args.seed)
        solo.start()
        cpu = server_cpu(app)
        run_questions(teacher, projector, QUESTIONS[len(questions) :][:2] or questions[:1], 1)
        figures(
            "reference, 1 learner alone",
            latencies(alone, projector, 0),
            server_cpu(app) - cpu,
            len(alone.sent),
        )
        solo.stop.set()
        teacher.act("close")

        tally = Tally()
        learners = [SimulatedLearner(app, code, n, tally, args.seed) for n in range(args.learners)]
        for learner in learners:
            learner.start()
        stop_browsers = threading.Event()
        browsers = None
        if args.chromium:
            browsers = threading.Thread(
                target=chromium_learners,
                args=(app, code, args.chromium, stop_browsers),
                daemon=True,
            )
            browsers.start()
            time.sleep(5)
        expected = args.learners + args.chromium
        time.sleep(1)  # every stream connected

        cpu = server_cpu(app)
        run_questions(teacher, projector, questions[:half], expected)
        before = len(tally.sent)
        figures(
            f"{expected} learners, before the restart",
            latencies(tally, projector, 0),
            server_cpu(app) - cpu,
            before,
        )

        # the restart: SIGTERM, then the same command on the same file and port
        app.stop()
        restarted_at = time.perf_counter()
        app.start()
        print(
            f"restarted in {time.perf_counter() - restarted_at:.1f} s; room {app.room_code()} "
            f"(was {code})"
        )
        teacher = teacher_for(app)  # a new start, a new teacher key
        projector.headers = teacher.cookie_header()
        time.sleep(3)  # the streams reconnect
        cpu = server_cpu(app)
        run_questions(teacher, projector, questions[half:], expected)
        figures(
            f"{expected} learners, after the restart",
            latencies(tally, projector, before),
            server_cpu(app) - cpu,
            len(tally.sent) - before,
        )

        stop_browsers.set()
        for learner in learners:
            learner.stop.set()
        projector.stop.set()
        if browsers is not None:
            browsers.join(60)

        # Every accepted answer must be in the room's file, once, and in the summary.
        with sqlite3.connect(db) as stored:
            rows = stored.execute("SELECT learner, question FROM answers").fetchall()
        kept = set(rows)
        lost = [pair for pair in tally.pairs | alone.pairs if pair not in kept]
        summary = list(csv.DictReader(io.StringIO(teacher.call("GET", "/room/summary.csv")[1])))
        in_summary = sum(int(row["answered"]) for row in summary)
        print(
            f"answers accepted {len(tally.pairs | alone.pairs)} (+ the Chromium learners'), "
            f"in the file {len(rows)} (duplicates {len(rows) - len(kept)}), in the summary "
            f"{in_summary}: lost {len(lost)}; refused {len(tally.refused) + len(alone.refused)}"
            + (f" ({tally.refused[:3]})" if tally.refused else "")
        )
    finally:
        app.close()


if __name__ == "__main__":
    sigterm_as_exit()
    main()
