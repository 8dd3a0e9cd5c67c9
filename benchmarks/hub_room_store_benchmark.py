"""The live room's cost per answer in its one store (tutor/web/room_store.py, SQLAlchemy
Core) on each database it runs on: the app's own SQLite file (WAL), the hub's class
results' database on SQLite, and with ``--postgres`` on PostgreSQL (a throwaway server of
this run's own, as tests/hub/databases.py starts for the tests; its programs come with
Debian's ``postgresql``).

N learners (40 by default) each answer Q questions (10) of lesson 06 (one-choice) and 04
(several choices), alternately: every answer is checked, graded, written before it counts
and tallied, as the server does it (no HTTP: the handlers' part is the same everywhere).
Printed: this process's CPU time per answer (user + system, not wall time; PostgreSQL's own
server process is not counted) and answers per CPU-second for each database, and each one's
ratio to the app's file; then each store is opened again on a new engine (a restart) and
every answer must be there (answers lost: must be 0). The load average is printed beside
the figures (the machine is shared).

Goal (issue 22): <= 10 ms of server CPU per answer, 0 lost.

Run: ``.venv/bin/python benchmarks/hub_room_store_benchmark.py [--learners 40] [--questions 10]
[--postgres]``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from sqlalchemy import create_engine

from tutor.teaching.lesson_loader import load_lesson
from tutor.web.room import Room
from tutor.web.room_store import RoomStore

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hub.databases import PostgresServer
from process_guard import sigterm_as_exit

LESSONS = ("06_trick_winner", "04_follow_suit")


def questions(count: int) -> list[tuple[str, str]]:
    """``count`` question items of the lessons, in turn."""
    items = [(lesson.id, item.id) for lesson in map(load_lesson, LESSONS) for item in lesson.quiz]
    return [items[n % len(items)] for n in range(count)]


def lesson_run(room: Room, learners: int, asked: list[tuple[str, str]], seed: int) -> float:
    """CPU seconds of ``learners`` answering every question of ``asked`` (joins excluded)."""
    chooser = random.Random(seed)
    keys = [room.named_learner(f"learner{n}").key for n in range(learners)]
    spent = 0.0
    for lesson, item in asked:
        room.open(lesson, item)
        question = room.question(room.current or "")
        count = len(question.choices)
        answers = [
            chooser.randrange(count)
            if question.kind.value == "one-choice"
            else sorted(chooser.sample(range(count), chooser.randint(0, count)))
            for _ in keys
        ]
        room._answer_limit.count = 10**6  # the benchmark's learners answer at once, on purpose
        start = time.process_time()
        for key, answer in zip(keys, answers, strict=True):
            room.answer(key, room.current, answer)
        spent += time.process_time() - start
        room.reveal()
    return spent


@contextmanager
def postgres_database() -> Iterator[str]:
    """The URL of a new database on a PostgreSQL server of this run's own."""
    server = PostgresServer()
    try:
        yield server.new_database()
    finally:
        server.stop()


def measured(
    name: str,
    store: Callable[[], RoomStore],
    learners: int,
    asked: list[tuple[str, str]],
    seed: int,
) -> tuple[str, float, int]:
    """(``name``, CPU seconds of the lesson, answers lost across a new engine)."""
    first = store()
    room = Room(first)
    cpu = lesson_run(room, learners, asked, seed)
    first.close()
    reopened = store()
    kept = sum(len(given) for given in Room(reopened).answers.values())
    reopened.close()
    return name, cpu, sum(len(given) for given in room.answers.values()) - kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=40)
    parser.add_argument("--questions", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL too")
    options = parser.parse_args()
    asked = questions(options.questions)
    total = options.learners * len(asked)
    run = (options.learners, asked, options.seed)
    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        app_file = Path(folder) / "room.sqlite3"
        class_db = f"sqlite:///{Path(folder) / 'class-results.sqlite'}"
        results = [
            measured("app's file (SQLite, WAL)", lambda: RoomStore.open_file(app_file), *run),
            measured(
                "hub's class database, SQLite",
                lambda: RoomStore(create_engine(class_db), owner="teach"),
                *run,
            ),
        ]
        if options.postgres:
            url = stack.enter_context(postgres_database())
            results.append(
                measured(
                    "hub's class database, PostgreSQL",
                    lambda: RoomStore(create_engine(url), owner="teach"),
                    *run,
                )
            )
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"{options.learners} learners x {len(asked)} questions = {total} answers (load {load})")
    reference = results[0][1]
    for name, cpu, lost in results:
        print(
            f"  {name + ':':34} {1000 * cpu / total:.2f} ms CPU per answer, "
            f"{total / cpu:,.0f} answers per CPU-second, ratio to the app's file "
            f"{cpu / reference:.2f}, lost across a new engine: {lost}"
        )


if __name__ == "__main__":
    sigterm_as_exit()
    main()
