"""The live room's cost per answer on the hub's store: the room of tutor/web/room.py kept in
the class results' database through SQLAlchemy (tutor/hub/room_store.py, SQLite here) next
to the app's own SQLite file (tutor/web/room_store.py), the reference, in the same run.

N learners (40 by default) each answer Q questions (10) of lesson 06 (one-choice) and 04
(several choices), alternately: every answer is checked, graded, written before it counts
and tallied, as the server does it (no HTTP: the handlers' part is the same for both
stores). Printed: this process's CPU time per answer (user + system, not wall time) for
each store and their ratio; then the hub store is opened again on a new engine (a restart)
and every answer must be there (answers lost: must be 0). The load average is printed
beside the figures (the machine is shared).

Goal (issue 22): <= 10 ms of server CPU per answer, 0 lost.

Run: ``.venv/bin/python benchmarks/hub_room_store_benchmark.py [--learners 40] [--questions 10]``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import MetaData, create_engine

from tutor.hub.room_store import HubRoomStore, room_tables
from tutor.teaching.lesson_loader import load_lesson
from tutor.web.room import Room
from tutor.web.room_store import RoomStore

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=40)
    parser.add_argument("--questions", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    asked = questions(options.questions)
    total = options.learners * len(asked)
    with tempfile.TemporaryDirectory() as folder:
        app_room = Room(RoomStore(Path(folder) / "room.sqlite3"))
        app_cpu = lesson_run(app_room, options.learners, asked, options.seed)

        url = f"sqlite:///{Path(folder) / 'class-results.sqlite'}"
        tables = room_tables(MetaData())
        engine = create_engine(url)
        tables["rooms"].metadata.create_all(engine)
        hub_room = Room(HubRoomStore(engine, tables, "teach"))
        hub_cpu = lesson_run(hub_room, options.learners, asked, options.seed)
        engine.dispose()

        again = Room(HubRoomStore(create_engine(url), tables, "teach"))
        kept = sum(len(given) for given in again.answers.values())
        lost = sum(len(given) for given in hub_room.answers.values()) - kept
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"{options.learners} learners x {len(asked)} questions = {total} answers (load {load})")
    print(f"  app store (SQLite file, reference): {1000 * app_cpu / total:.2f} ms CPU per answer")
    print(f"  hub store (SQLAlchemy, SQLite):     {1000 * hub_cpu / total:.2f} ms CPU per answer")
    print(f"  ratio hub / app: {hub_cpu / app_cpu:.2f}")
    print(f"  answers lost across a new engine: {lost} (kept {kept})")


if __name__ == "__main__":
    sigterm_as_exit()
    main()
