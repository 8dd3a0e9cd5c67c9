"""The teacher's page for a class: how long the service takes to take in the answers of
a class and to build its page, and what a login costs the hub.

Made-up answers in the progress contract's format (``--learners`` learners, ``--answers``
each: quiz items of every lesson and practice questions, and ``--steps`` moves each in
the worked example, forward and sometimes back) go through the service's own code, in
process, with SQLite in a temporary folder (tutor/hub/teacher_service.py):

1. reports: each learner's answers in reports of 20 (what a server sends after a few
   minutes of work); then every report sent a second time (a server restarted): nothing
   new, and how long it takes to say so;
2. the page: events and places read back from the database and results computed and
   rendered, as at each reload by the teacher (and, beside it, the places' part: reading
   the one row per learner and page);
3. a login: the hub's password hash (tutor/hub/passwords.py: Argon2id), the CPU a
   correct or wrong password costs the hub; reference: one page build. And ``--logins``
   checks at once, as tutor/hub/login.py runs them (each in a thread): how often the
   hub's event loop still got its turn (a 10 ms tick) meanwhile, against running them
   in the loop itself.

Figures are printed, never asserted; the load average is printed with them (2 shared cores
on the development machine).

Run: ``.venv/bin/python benchmarks/class_results_benchmark.py [--learners 40] [--answers 300]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from tutor.hub.class_progress import WORKED_EXAMPLE_PAGE, stepped_pages
from tutor.hub.passwords import hash_password, password_matches
from tutor.hub.teacher_service import EventStore, render_page
from tutor.teaching.lesson_loader import list_lessons
from tutor.teaching.progress_events import Event, StepEvent, parse_event
from tutor.teaching.quiz import Topic

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from process_guard import sigterm_as_exit


def made_up_answers(count: int, rng: random.Random, quiz_items: list[tuple[str, str, str]]) -> list:
    events = []
    for number in range(count):
        if number % 2 == 0 and quiz_items:
            lesson, item, topic = rng.choice(quiz_items)
            kind, where = "quiz", {"lesson": lesson, "item": item}
        else:
            topic = rng.choice(list(Topic)).value
            kind, where = "practice", {"lesson": None, "item": None}
        raw = {
            "v": 1,
            "id": uuid.uuid4().hex,
            "time": "2026-12-01T10:00:00Z",
            "kind": kind,
            **where,
            "topic": topic,
            "correct": rng.random() < 0.7,
            "first_try": rng.random() < 0.8,
        }
        events.append(parse_event(raw))
    return events


def made_up_steps(count: int, rng: random.Random) -> list[Event]:
    """``count`` moves in the worked example, one a second: Next mostly, Back sometimes."""
    steps = stepped_pages()[WORKED_EXAMPLE_PAGE].steps
    at, moves = 1, []
    for second in range(count):
        at = max(1, at - 1) if rng.random() < 0.2 else min(steps, at + 1)
        time = f"2026-12-01T09:{second // 60 % 60:02d}:{second % 60:02d}.{second:06d}Z"
        moves.append(StepEvent(WORKED_EXAMPLE_PAGE, at, steps, time=time))
    return moves


def mixed(answers: list[Event], steps: list[Event], rng: random.Random) -> list[Event]:
    """The steps among the answers, each list in its own order (as a learner's file has them)."""
    count = len(answers) + len(steps)
    step_slots = set(rng.sample(range(count), len(steps)))
    answer, step = iter(answers), iter(steps)
    return [next(step) if slot in step_slots else next(answer) for slot in range(count)]


async def logins_at_once(hashed: bytes, count: int, *, in_threads: bool) -> tuple[float, int]:
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    started = time.perf_counter()
    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    if in_threads:
        await asyncio.gather(
            *(asyncio.to_thread(password_matches, "wrong", hashed) for _ in range(count))
        )
    else:
        for _ in range(count):
            password_matches("wrong", hashed)
            await asyncio.sleep(0)
    elapsed = time.perf_counter() - started
    task.cancel()
    return elapsed, ticks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=40)
    parser.add_argument("--answers", type=int, default=300, help="answers per learner")
    parser.add_argument("--steps", type=int, default=60, help="worked-example moves per learner")
    parser.add_argument("--page-loads", type=int, default=5)
    parser.add_argument("--logins", type=int, default=6, help="password checks at once")
    args = parser.parse_args()

    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores)")
    lessons = list_lessons()
    quiz_items = [
        (lesson.id, item.id, item.question.topic.value)
        for lesson in lessons
        for item in lesson.quiz
    ]
    rng = random.Random(2024)
    names = [f"learner{n:02d}" for n in range(args.learners)]
    answers = {
        name: mixed(
            made_up_answers(args.answers, rng, quiz_items), made_up_steps(args.steps, rng), rng
        )
        for name in names
    }
    total = args.learners * args.answers

    with tempfile.TemporaryDirectory() as folder:
        store = EventStore(f"sqlite:///{Path(folder) / 'class.sqlite'}")
        reports = [
            (name, events[start : start + 20])
            for name, events in answers.items()
            for start in range(0, len(events), 20)
        ]
        started = time.perf_counter()
        new = sum(store.add(name, batch) for name, batch in reports)
        taking_in = time.perf_counter() - started
        started = time.perf_counter()
        again = sum(store.add(name, batch) for name, batch in reports)
        sent_again = time.perf_counter() - started
        assert new == total and again == 0, (new, again)

        page_times, place_times = [], []
        for _ in range(args.page_loads):
            started = time.perf_counter()
            events = store.events_by_learner()
            place_started = time.perf_counter()
            places = store.places_by_learner()
            place_times.append(time.perf_counter() - place_started)
            page = render_page(
                lessons, names, events, "en", "/services/class-results/", places=places
            )
            page_times.append(time.perf_counter() - started)
        page_time = statistics.median(page_times)
        place_time = statistics.median(place_times)
        assert len(places) == (args.learners if args.steps else 0), len(places)

    started = time.perf_counter()
    hashed = hash_password("a-learner-password")
    hashing = time.perf_counter() - started
    checks = []
    for _ in range(5):
        started = time.perf_counter()
        password_matches("a-wrong-password", hashed)
        checks.append(time.perf_counter() - started)
    check = statistics.median(checks)

    print(
        f"class: {args.learners} learners x {args.answers} answers = {total} events, "
        f"and {args.steps} worked-example moves each"
    )
    print(
        f"taking in {len(reports)} reports of 20 events: {taking_in:.2f} s "
        f"({taking_in / len(reports) * 1000:.1f} ms per report)"
    )
    print(
        f"the same reports again (a restarted server): {sent_again:.2f} s, 0 new "
        f"({sent_again / taking_in:.2f} x the first time)"
    )
    print(
        f"teacher's page (read {total} events, compute, render {len(page) // 1024} KiB): "
        f"median {page_time * 1000:.0f} ms of {args.page_loads}; of which reading "
        f"{len(places)} learners' places {place_time * 1000:.1f} ms"
    )
    print(
        f"one password check (Argon2id, the hub's scheme): {check * 1000:.0f} ms "
        f"= {check / page_time:.2f} x one page build; hashing at sign-up {hashing * 1000:.0f} ms"
    )
    for where in ("threads", "loop"):
        elapsed, ticks = asyncio.run(
            logins_at_once(hashed, args.logins, in_threads=where == "threads")
        )
        print(
            f"{args.logins} password checks at once, in {where}: {elapsed:.2f} s; the hub's "
            f"loop ran {ticks} of {elapsed / 0.01:.0f} 10-ms ticks"
        )
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    sigterm_as_exit()
    main()
