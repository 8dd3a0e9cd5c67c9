"""The hub's pieces without a hub: the progress events and the
results computed from them, the service's event store, its page, and the forwarder of a
learner's server against a real HTTP server that fails and recovers. (The real hub with
all of them together: test_class_hub.py.)"""

from __future__ import annotations

import dataclasses
import html
import json
import logging
import re
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from event_loops import run_in_own_thread as run
from sqlalchemy import MetaData, Table, create_engine, insert, inspect, select
from threaded_server import serving
from tornado import web

from tutor.display.browser_store import BrowserStore
from tutor.display.context import Frontend, PageContext
from tutor.display.course import (
    course_entries,
    course_list_html,
    quiz_items,
    review_due_html,
    review_entry,
    rule_map_html,
)
from tutor.display.stepper import worked_example_stepper
from tutor.hub import teacher_service
from tutor.hub.class_progress import (
    WORKED_EXAMPLE_PAGE,
    ClassRule,
    class_results,
    class_rules,
    most_missed,
    rule_first_tries,
    stepped_pages,
    weakest_rules,
)
from tutor.hub.server_extension import ProgressForwarder
from tutor.hub.teacher_service import (
    EventStore,
    answers_table,
    choose_language,
    events_table,
    make_app,
    metadata,
    places_table,
    render_page,
    weakest_rules_html,
)
from tutor.teaching.lesson_loader import list_lessons, load_lesson
from tutor.teaching.progress import Progress
from tutor.teaching.progress_events import (
    EVENT_VERSION,
    MAX_ANSWER_CHOICES,
    Event,
    EventError,
    StepEvent,
    parse_event,
)
from tutor.teaching.progress_stores import FileStore
from tutor.teaching.progress_summary import LessonResult, Summary, TopicCount
from tutor.teaching.review import RuleMemories, RuleStatus, item_rules, rules_asked
from tutor.teaching.rule_map import parse_rule_map, rule_map
from tutor.teaching.text import LANGUAGES, text, text_for_count

from .class_answers import (
    ANY_TIME,
    JESTER,
    LEARNERS,
    MET,
    SEEN_RULES,
    TRUMP,
    WEAKEST,
    a_class,
    counts_in_words,
    row_in_words,
    sentence_in,
)
from .hub_harness import free_port


def answer(kind: str, topic: str, correct: bool, **fields: Any) -> dict[str, Any]:
    raw = {
        "v": EVENT_VERSION,
        "id": uuid.uuid4().hex,
        "time": "2026-12-01T10:00:00Z",
        "kind": kind,
        "lesson": None,
        "item": None,
        "topic": topic,
        "correct": correct,
        "first_try": True,
    }
    raw.update(fields)
    return raw


def quiz(item: str, topic: str, correct: bool, **fields: Any) -> dict[str, Any]:
    return answer("quiz", topic, correct, **{"lesson": "06_trick_winner", "item": item, **fields})


RESET = {"v": 1, "id": "f" * 32, "time": "2026-12-01T11:00:00Z", "kind": "reset"}
FINISHED = {
    "v": 2,
    "id": "e" * 32,
    "time": "2026-12-01T11:00:00Z",
    "kind": "finished",
    "page": "08_worked_example",
}
STEP = {
    "v": 3,
    "id": "d" * 32,
    "time": "2026-12-01T11:00:00Z",
    "kind": "step",
    "page": "08_worked_example",
    "step": 5,
    "steps": 21,
}
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


# -- events (the one parser of tutor.teaching.progress_events, as the service uses it) -----------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"v": EVENT_VERSION + 1},
            f"event field 'v' is {EVENT_VERSION + 1}; this tutor reads versions 1 to {EVENT_VERSION}",
        ),
        ({"id": "ABC"}, "event field 'id' is 'ABC'; it must be 32 lower-case hexadecimal digits"),
        ({"time": "yesterday"}, "event field 'time' is 'yesterday'; it must be a UTC time"),
        (
            {"kind": "exam"},
            f"event field 'kind' is 'exam'; in version {EVENT_VERSION} it must be one of",
        ),
        ({"kind": "step", "v": 2}, "'kind' is 'step'; in version 2 it must be one of"),
        ({"kind": "finished", "v": 1}, "'kind' is 'finished'; in version 1 it must be one of"),
        ({"topic": "chess"}, "event field 'topic' is 'chess'; it must be one of 'trick-winner'"),
        ({"correct": "yes"}, "event field 'correct' is 'yes'; it must be true or false"),
        ({"first_try": 1}, "event field 'first_try' is 1; it must be true or false"),
        ({"lesson": "06"}, "event field 'lesson' is '06'; a practice answer has null there"),
    ],
)
def test_a_malformed_event_is_refused_naming_the_field_the_value_and_the_rule(
    change: dict[str, Any], message: str
) -> None:
    raw = {**answer("practice", "score", True), **change}
    with pytest.raises(EventError, match=message.replace("(", r"\(")):
        parse_event(raw)


def test_malformed_quiz_events_and_non_objects_are_refused() -> None:
    with pytest.raises(EventError, match="event field 'item' is missing; a quiz answer names"):
        parse_event({k: v for k, v in quiz("x", "score", True).items() if k != "item"})
    with pytest.raises(EventError, match=r"'lesson' is '\.\./etc'; a quiz answer names its lesson"):
        parse_event(quiz("x", "score", True, lesson="../etc"))
    with pytest.raises(EventError, match="an event must be a JSON object, not list"):
        parse_event([1, 2])


def test_an_event_reads_back_as_it_was_written() -> None:
    for raw in (
        quiz("quiz-trump-led", "trump-vs-led", False),
        answer("practice", "score", True),
        RESET,
        FINISHED,
        STEP,
    ):
        assert parse_event(raw).to_json() == {**raw, "v": EVENT_VERSION}


# -- results: the learner's summary, for the class --------------------------------------------

SIX = {"06_trick_winner": ("quiz-a", "quiz-b", "quiz-c")}


def results(*raws: dict[str, Any]) -> Summary:
    return class_results({"ada": [parse_event(raw) for raw in raws]}, SIX)["ada"]


def test_a_lesson_is_done_when_every_quiz_item_is_answered_and_only_first_tries_score() -> None:
    partly = results(
        quiz("quiz-a", "score", False),
        quiz("quiz-a", "score", True, first_try=False),  # the retry does not score
        quiz("quiz-b", "score", True),
    )
    assert partly.lesson("06_trick_winner") == LessonResult(items=3, answered=2, right=1)
    assert not partly.lesson("06_trick_winner").done
    done = results(
        quiz("quiz-a", "score", True),
        quiz("quiz-b", "score", True),
        quiz("quiz-c", "bidding", False),
        quiz("quiz-gone", "score", True),  # an item the lesson no longer has
    )
    assert done.lesson("06_trick_winner") == LessonResult(items=3, answered=3, right=2)
    assert done.lesson("06_trick_winner").done


def test_two_pages_answering_the_same_item_count_its_earlier_first_try_once() -> None:
    both = results(quiz("quiz-a", "score", True), quiz("quiz-a", "score", False))
    assert both.lesson("06_trick_winner") == LessonResult(items=3, answered=1, right=1)
    assert both.first_tries == {"score": TopicCount(1, 0)}


def test_practice_counts_first_tries_per_topic_and_a_reset_forgets_what_came_before() -> None:
    before = [
        answer("practice", "score", False),
        answer("practice", "score", True),
        answer("practice", "jester-lead", True, first_try=False),
    ]
    assert results(*before).topics == {"score": TopicCount(1, 1)}
    after = results(*before, RESET, answer("practice", "bidding", False))
    assert after.topics == {"bidding": TopicCount(0, 1)}


def test_the_class_most_missed_topics_come_first() -> None:
    ada = results(answer("practice", "score", False), quiz("quiz-a", "bidding", False))
    bo = results(answer("practice", "score", False), answer("practice", "trump-reveal", True))
    assert most_missed([ada, bo]) == [("score", TopicCount(0, 2)), ("bidding", TopicCount(0, 1))]


# -- one model: the same events, every consumer ------------------------------------------------


def _scenario(items: Mapping[str, Sequence[str]]) -> list[dict[str, Any]]:
    """What issue 19 saw, as events: in lesson 1 a wrong first try, a reload, the same
    question right; the rest of lesson 1; lesson 4 done, then redone in Japanese with
    other answers; the worked example to its end (a ``finished`` event, as a version
    before its quiz wrote) and its quiz answered; practice; a round played."""
    one, four = items["01_cards_and_rounds"], items["04_follow_suit"]
    worked = items["08_worked_example"]
    topic = "cards-and-rounds"
    lesson_one = {"lesson": "01_cards_and_rounds"}
    lesson_four = {"lesson": "04_follow_suit"}
    raws = [
        answer("quiz", topic, False, item=one[0], **lesson_one),
        answer("quiz", topic, True, item=one[0], **lesson_one),  # after the reload
        *(
            answer("quiz", topic, n % 2 == 0, item=item, **lesson_one)
            for n, item in enumerate(one[1:])
        ),
        *(
            answer("quiz", "legal-plays", n < 4, item=item, **lesson_four)
            for n, item in enumerate(four)
        ),
        *(
            answer("quiz", "legal-plays", n >= 4, item=item, **lesson_four)
            for n, item in enumerate(four)
        ),
        {**STEP, "id": uuid.uuid4().hex, "step": 20},  # the worked example, left and
        {**STEP, "id": uuid.uuid4().hex, "step": 21},  # taken up again to its last step
        {**FINISHED, "id": uuid.uuid4().hex, "page": "08_worked_example"},
        *(
            answer("quiz", "round-played", n != 1, item=item, lesson="08_worked_example")
            for n, item in enumerate(worked)
        ),
        *(answer("practice", "score", n % 3 == 0) for n in range(4)),
        answer("practice", "score", True, first_try=False),
        {**FINISHED, "id": uuid.uuid4().hex, "page": "11_play_a_round"},
    ]
    return raws


def test_the_learners_course_page_and_the_teachers_page_say_the_same_of_the_same_events(
    tmp_path: Path,
) -> None:
    lessons = list_lessons()
    entries = course_entries(NOTEBOOKS)
    items = quiz_items(entries)
    raws = _scenario(items)
    # The learner's own stores: the file of JupyterLab and the hub, the browser's list
    # of the app and the static site.
    path = tmp_path / "progress.jsonl"
    path.write_text("".join(json.dumps(raw) + "\n" for raw in raws))
    from_file = Progress(FileStore(path)).summary(items)
    browser = BrowserStore()
    in_browser = Progress(browser)
    browser.serve(in_browser)
    browser.stored = json.dumps(raws)
    from_browser = in_browser.summary(items)
    # The teacher's: the file's lines through the service's database.
    store = EventStore(f"sqlite:///{tmp_path / 'class.sqlite'}")
    store.add("ada", FileStore(path).load())
    kept = store.events_by_learner()
    for_teacher = class_results(kept, items)["ada"]
    assert from_file == from_browser
    # where the learner is on a stepped page is theirs: the service does not keep it
    assert from_file.places["08_worked_example"].step == 21
    assert dataclasses.replace(from_file, places={}) == for_teacher
    # What the issue saw: lesson 1's first question stays a miss; lesson 4's redo does
    # not rewrite its score.
    assert for_teacher.lesson("01_cards_and_rounds").right == len(
        items["01_cards_and_rounds"][1:][::2]
    )
    assert for_teacher.lesson("04_follow_suit").right == 4
    # And in the pages' words: each lesson's score is the same number on both pages.
    course_page = course_list_html(entries, PageContext("en", Frontend.APP), from_file)
    teacher_page = render_page(lessons, ["ada"], kept, "en", "/services/class-results/")
    for lesson, ids in items.items():
        result = from_file.lesson(lesson)
        if result.done:
            assert text("course.status-done", right=result.right, items=len(ids)) in course_page
            assert text("teacher.done", right=result.right, items=len(ids)) in teacher_page
    # the worked example has a quiz: like a lesson, it is done once its quiz is answered
    # through, and both pages show its score; only the play page is simply finished
    worked = from_file.lesson("08_worked_example")
    assert worked.done and worked.right == len(items["08_worked_example"]) - 1
    finished = f"✓ {text('course.status-finished')}</span>"
    assert course_page.count(finished) == 1
    practice = from_file.practice
    assert (
        text("course.status-practice", answered=practice.answered, right=practice.right)
        in course_page
    )
    # the class's misses count each question once: lesson 4's redo adds none (lesson 1:
    # the first question missed, then every other one; lesson 4: the first four right)
    one, four = items["01_cards_and_rounds"], items["04_follow_suit"]
    missed = most_missed([for_teacher])
    assert dict(missed) == {
        "cards-and-rounds": TopicCount(len(one[1::2]), 1 + len(one[2::2])),
        "legal-plays": TopicCount(4, len(four) - 4),
        "score": TopicCount(2, 2),
        "round-played": TopicCount(len(items["08_worked_example"]) - 1, 1),
    }
    assert [count.wrong for _, count in missed] == sorted(
        (count.wrong for _, count in missed), reverse=True
    )


def test_the_worked_example_is_not_done_on_either_page_before_its_quiz_is_answered(
    tmp_path: Path,
) -> None:
    """A learner who reached the worked example's last step (the ``finished`` event a
    version before its quiz wrote) has its quiz still to do: neither the course page nor
    the teacher's page calls the page done, and both say the same of it."""
    lessons = list_lessons()
    entries = course_entries(NOTEBOOKS)
    items = quiz_items(entries)
    raws = [raw for raw in _scenario(items) if raw.get("lesson") != "08_worked_example"]
    path = tmp_path / "progress.jsonl"
    path.write_text("".join(json.dumps(raw) + "\n" for raw in raws))
    summary = Progress(FileStore(path)).summary(items)
    store = EventStore(f"sqlite:///{tmp_path / 'class.sqlite'}")
    store.add("ada", FileStore(path).load())
    kept = store.events_by_learner()
    assert "08_worked_example" in summary.finished
    assert not summary.done("08_worked_example")
    assert not class_results(kept, items)["ada"].done("08_worked_example")
    course_page = course_list_html(entries, PageContext("en", Frontend.APP), summary)
    teacher_page = render_page(lessons, ["ada"], kept, "en", "/services/class-results/")
    worked = len(items["08_worked_example"])
    for page, done in ((course_page, "course.status-done"), (teacher_page, "teacher.done")):
        assert text(done, right=0, items=worked) not in page
    assert course_page.count(f"✓ {text('course.status-finished')}</span>") == 1  # play


def step(number: int, time: str, page: str = "08_worked_example", steps: int = 21) -> StepEvent:
    """A step event as a learner's server reports it (parsed, as the service takes it)."""
    raw = {**STEP, "id": uuid.uuid4().hex, "time": time, "page": page, "step": number}
    return parse_event({**raw, "steps": steps})  # type: ignore[return-value]


def at(minute: int, fraction: str = "") -> str:
    return f"2026-12-01T10:{minute:02d}:00{fraction}Z"


def places(store: EventStore) -> dict[str, dict[str, tuple[int, int]]]:
    """Each learner's place on each page, as (step, steps)."""
    return {
        learner: {page: (place.step, place.steps) for page, place in pages.items()}
        for learner, pages in store.places_by_learner().items()
    }


def place_rows(store: EventStore) -> int:
    with store.engine.connect() as connection:
        return len(connection.execute(select(places_table)).all())


def test_a_step_event_moves_the_place_and_is_no_event_of_the_results(class_db: str) -> None:
    store = EventStore(class_db)
    answered = parse_event(quiz("quiz-a", "score", True))
    assert store.add("ada", [step(5, at(1)), answered, step(6, at(2))]) == 1
    assert store.add("ada", [step(6, at(2))]) == 0
    assert store.events_by_learner() == {"ada": [answered]}  # no step became another kind
    assert places(store) == {"ada": {"08_worked_example": (6, 21)}}


def test_a_late_or_repeated_step_never_moves_the_place_back(class_db: str) -> None:
    """Reports arrive in any order and more than once (a server restarted sends its file
    again): the place is the latest step by time, one row per learner and page."""
    store = EventStore(class_db)
    early, middle, late = step(3, at(1)), step(9, at(2)), step(4, at(3))  # back to 4 at last
    store.add("ada", [early, late])
    store.add("ada", [middle])  # arrives late: older than the kept step 4
    assert places(store) == {"ada": {"08_worked_example": (4, 21)}}
    store.add("ada", [early, middle, late, early])  # the whole file again
    assert places(store) == {"ada": {"08_worked_example": (4, 21)}}
    assert place_rows(store) == 1
    # within one report too, the latest by time wins, not the last written
    store.add("ada", [step(12, at(5)), step(11, at(4))])
    assert places(store) == {"ada": {"08_worked_example": (12, 21)}}
    # times with and without a fraction of a second compare as times, not as text
    store.add("ada", [step(13, at(5, ".5"))])
    store.add("ada", [step(2, at(5))])
    assert places(store) == {"ada": {"08_worked_example": (13, 21)}}


def test_two_learners_places_are_their_own(class_db: str) -> None:
    store = EventStore(class_db)
    store.add("ada", [step(7, at(1))])
    store.add("bo", [step(2, at(2))])
    store.add("ada", [parse_event({**RESET, "time": at(3)})])  # ada's reset is hers only
    assert places(store) == {"bo": {"08_worked_example": (2, 21)}}


def test_a_reset_clears_the_place_and_a_step_from_before_it_comes_back_never(
    class_db: str,
) -> None:
    store = EventStore(class_db)
    store.add("ada", [step(8, at(1))])
    store.add("ada", [parse_event({**RESET, "time": at(2)})])
    assert places(store) == {}
    store.add("ada", [step(9, at(1, ".5"))])  # a step from before the reset, arriving late
    assert places(store) == {}
    store.add("ada", [step(2, at(3))])  # after the reset
    assert places(store) == {"ada": {"08_worked_example": (2, 21)}}
    # a reset older than the kept step (reported late, in the same report as an old step)
    # leaves the later place as it is
    old_reset = {**RESET, "id": uuid.uuid4().hex, "time": at(2, ".1")}
    store.add("ada", [step(20, at(0)), parse_event(old_reset)])
    assert places(store) == {"ada": {"08_worked_example": (2, 21)}}


def an_older_database(url: str, tables: Sequence[Table]) -> Event:
    """A class database as a service of before made it, with only ``tables`` (the others
    came later), holding one quiz answer of ada's (version 4: it says nothing of what it
    was), written in by hand."""
    before = MetaData()
    for table in tables:
        table.to_metadata(before)
    engine = create_engine(url)
    before.create_all(engine)
    answered = parse_event({**quiz("quiz-a", "score", True), "v": 4})
    with engine.begin() as connection:
        assert set(inspect(connection).get_table_names()) == {table.name for table in tables}
        row = {"learner": "ada", "event_id": answered.id, "time": answered.time, "kind": "quiz"}
        connection.execute(
            insert(events_table),
            [
                row
                | {
                    "lesson": "06_trick_winner",
                    "item": "quiz-a",
                    "topic": "score",
                    "correct": True,
                    "first_try": True,
                    "received": datetime.now(UTC),
                }
            ],
        )
    return answered


def test_an_older_database_gets_the_places_table_and_keeps_its_events(tmp_path: Path) -> None:
    """A class database made before places were kept: the service starts on it as it is."""
    url = f"sqlite:///{tmp_path / 'class.sqlite'}"
    answered = an_older_database(url, [events_table])
    store = EventStore(url)
    assert store.events_by_learner() == {"ada": [answered]}
    store.add("ada", [step(6, at(1))])
    assert places(store) == {"ada": {"08_worked_example": (6, 21)}}


def test_the_teachers_page_shows_each_learners_step_in_each_language(tmp_path: Path) -> None:
    store = EventStore(f"sqlite:///{tmp_path / 'class.sqlite'}")
    store.add("ada", [step(6, at(1))])
    for lang in LANGUAGES:
        page = render_page(
            list_lessons(),
            ["ada", "bo"],
            {},
            lang,
            "/services/class-results/",
            places=store.places_by_learner(),
        )
        table = page[page.index('<table id="step-places">') :]
        table = table[: table.index("</table>")]
        cells = re.findall(r'<th scope="row">(\w+)</th>\s*<td>([^<]*)</td>\s*</tr>', table)
        step_six = text("teacher-places.step", lang, step=6, steps=21)
        assert text("teacher-places.heading", lang) in page
        assert f'<th scope="col">{text("teacher-places.worked-example", lang)}</th>' in page
        assert ("ada", step_six) in cells and ("bo", "—") in cells
        assert "6" in step_six and "21" in step_six


def test_an_event_reported_twice_is_kept_and_counted_once(class_db: str) -> None:
    """The service answers how many of a report's events were new: on PostgreSQL too (its
    driver gives no row count for many rows), with a repeat inside one report and across."""
    store = EventStore(class_db)
    first, second = (parse_event(quiz(item, "score", True)) for item in ("quiz-a", "quiz-b"))
    assert store.add("ada", [first, first]) == 1
    assert store.add("ada", [first, second]) == 1
    assert store.add("bo", [first]) == 1  # the same event of another learner is theirs
    assert store.events_by_learner() == {"ada": [first, second], "bo": [first]}


def test_a_stored_finished_event_keeps_its_page_through_the_database(class_db: str) -> None:
    store = EventStore(class_db)
    events = [parse_event(FINISHED), parse_event(RESET), parse_event(quiz("quiz-a", "score", True))]
    assert store.add("ada", events) == 3
    assert store.events_by_learner()["ada"] == events


def test_the_rules_of_practice_and_review_answers_keep_through_the_database(
    class_db: str,
) -> None:
    """Version 4: a practice answer may name its rules, a review answer does; the service
    keeps them (in a table of their own) and gives the same events back."""
    named = answer("practice", "score", True, rules=["bid-met-scores"])
    reviewed = answer(
        "review",
        "score",
        False,
        lesson="06_trick_winner",
        item="quiz-a",
        rules=["bid-met-scores", "bid-missed-loses"],
    )
    events = [parse_event(raw) for raw in (named, reviewed, answer("practice", "score", True))]
    store = EventStore(class_db)
    assert store.add("ada", events) == 3
    assert store.add("ada", events) == 0  # kept once, its rules too
    assert store.events_by_learner()["ada"] == events
    assert [event.to_json() for event in events][:2] == [
        {**named, "v": EVENT_VERSION},
        {**reviewed, "v": EVENT_VERSION},
    ]


def test_what_a_quiz_answer_was_keeps_through_the_database(class_db: str) -> None:
    """Version 5: a quiz answer may say what was answered (a number, or the positions of
    the choices picked); the service keeps it (in a table of its own) and gives the same
    events back: one position is not that number, and the longest answers fit."""
    widest = list(range(MAX_ANSWER_CHOICES))
    raws = [
        quiz("quiz-a", "score", True, answer=7),
        quiz("quiz-b", "score", False, answer=[7]),
        quiz("quiz-c", "score", False, answer=[0, 2]),
        quiz("quiz-d", "score", True, answer=widest),
        quiz("quiz-e", "score", True, answer=-999_999_999),
        quiz("quiz-f", "score", True),  # says nothing of what it was
    ]
    events = [parse_event(raw) for raw in raws]
    store = EventStore(class_db)
    assert store.add("ada", events) == len(raws)
    assert store.add("ada", events) == 0  # kept once, its answer too
    kept = store.events_by_learner()["ada"]
    assert kept == events
    assert [event.answer for event in kept] == [7, (7,), (0, 2), tuple(widest), -999_999_999, None]
    assert [event.to_json() for event in kept] == raws


def test_an_older_database_gets_the_answers_table_and_keeps_its_events(class_db: str) -> None:
    """A class database made before version 5 (no table of answers): the service starts
    on it as it is, its events read back as they were, and new answers keep what they were."""
    old = an_older_database(class_db, [t for t in metadata.sorted_tables if t is not answers_table])
    store = EventStore(class_db)
    assert store.events_by_learner() == {"ada": [old]}
    new = parse_event(quiz("quiz-b", "score", False, answer=[1, 3]))
    assert store.add("ada", [new]) == 1
    assert store.events_by_learner() == {"ada": [old, new]}


def test_the_teachers_page_in_japanese_with_the_tutors_own_titles_and_topics() -> None:
    lessons = list_lessons()
    events = {
        "ada": [parse_event(quiz("quiz-trump-led", "trump-vs-led", True))],
        "<b>bo</b>": [parse_event(answer("practice", "score", False))],
    }
    page = render_page(lessons, ["<b>bo</b>", "ada"], events, "ja", "/services/class-results/")
    assert '<html lang="ja">' in page
    assert text("teacher.title", "ja") in page
    six = load_lesson("06_trick_winner")
    assert f"{six.number}. {six.title('ja')}" in page
    assert text("practice-topic.score", "ja") in page
    assert text("teacher.partly", "ja", answered=1, items=len(six.quiz), right=1) in page
    assert "&lt;b&gt;bo&lt;/b&gt;" in page and "<b>bo</b>" not in page  # names are escaped
    assert "http" not in page  # nothing from outside: no absolute address at all


def test_the_page_speaks_the_teachers_language() -> None:
    assert choose_language("zh-hant", "ja") == "zh-Hant"
    assert choose_language(None, "ja-JP,en;q=0.5") == "ja"
    assert choose_language(None, "zh-TW") == "zh-Hant"
    assert choose_language(None, "zh-CN,fr") == "en"  # no Simplified Chinese: English


# -- the forwarder in a learner's server -------------------------------------------------------


class Recorder(web.RequestHandler):
    """A stand-in for the service's event door: refuses while ``down``, records the rest."""

    def initialize(self, state: dict[str, Any]) -> None:
        self.state = state

    def post(self) -> None:
        assert self.request.headers["Authorization"] == "token server-token"
        if self.state["down"]:
            raise web.HTTPError(503)
        self.state["received"].extend(json.loads(self.request.body)["events"])


def test_the_forwarder_sends_new_lines_once_retries_and_skips_what_is_not_an_event(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "progress.jsonl"
    one, two, three = (answer("practice", "score", bool(n % 2)) for n in range(3))
    state: dict[str, Any] = {"down": True, "received": []}

    async def scenario() -> None:
        port = free_port()
        server = web.Application([("/api/events", Recorder, {"state": state})]).listen(
            port, "127.0.0.1"
        )
        url = f"http://127.0.0.1:{port}/api/events"
        forwarder = ProgressForwarder(path, url, "server-token", log=logging.getLogger("fw"))
        assert await forwarder.forward()  # no file yet: nothing to send
        path.write_text(json.dumps(one) + "\n{broken\n" + json.dumps(two)[:20])
        assert not await forwarder.forward()  # the service is down: nothing lost...
        assert forwarder.offset == 0
        state["down"] = False
        assert await forwarder.forward()  # ...sent when it is back
        assert state["received"] == [one]  # the half-written line waits
        with path.open("a") as handle:
            handle.write(json.dumps(two)[20:] + "\n" + json.dumps(three) + "\n")
        assert await forwarder.forward()
        assert state["received"] == [one, two, three]
        assert await forwarder.forward()  # nothing new: nothing sent again
        assert state["received"] == [one, two, three]
        # The learner's server restarted: a new forwarder sends the file again (the
        # service keeps each event once).
        again = ProgressForwarder(path, url, "server-token")
        assert await again.forward()
        assert state["received"] == [one, two, three, one, two, three]
        server.stop()

    with caplog.at_level(logging.ERROR, logger="fw"):
        run(scenario())
    assert f"{path}, line 2: not a progress event, skipped: not JSON" in caplog.text


def test_a_learner_file_that_names_an_unknown_event_field_is_reported_by_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "progress.jsonl"
    path.write_text(json.dumps({**answer("practice", "score", True), "topic": "chess"}) + "\n")
    forwarder = ProgressForwarder(
        path, "http://127.0.0.1:9/none", "t", log=logging.getLogger("fw2")
    )
    with caplog.at_level(logging.ERROR, logger="fw2"):
        assert run(forwarder.forward())  # nothing to send: the line is skipped
    assert f"{path}, line 1: not a progress event, skipped: event field 'topic' is 'chess'" in (
        caplog.text
    )
    assert forwarder.offset == path.stat().st_size


def test_events_compare_by_value() -> None:
    raw = answer("practice", "score", True)
    assert parse_event(raw) == parse_event(dict(raw))
    assert isinstance(parse_event(raw), Event)


# -- the service's door for reports, over HTTP (the hub's part: a stand-in for its tokens) ------


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, EventStore]]:
    """The service's own application on a free port of 127.0.0.1, in a thread of its own;
    any token is ada's server's."""
    monkeypatch.setattr(
        teacher_service.EventsAPI,
        "get_current_user",
        lambda handler: {"name": "ada", "kind": "user"},
    )
    store = EventStore(f"sqlite:///{tmp_path / 'class.sqlite'}")
    with serving(make_app(store, list_lessons(), "/c/")) as port:
        yield f"http://127.0.0.1:{port}/c/api/events", store


def report(url: str, *events: object) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        url,
        data=json.dumps({"events": list(events)}).encode(),
        headers={"Authorization": "token ada-server", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_the_service_keeps_a_reported_place_and_refuses_a_bad_step_whole(
    service: tuple[str, EventStore],
) -> None:
    url, store = service
    six = {**STEP, "id": uuid.uuid4().hex, "step": 6}
    assert report(url, six, answer("practice", "score", True)) == (200, {"received": 2, "new": 1})
    assert places(store) == {"ada": {"08_worked_example": (6, 21)}}
    later = {**STEP, "time": "2026-12-01T12:00:00Z"}
    refused = [
        (
            {**later, "step": 25, "steps": 30},
            "event field 'steps' is 30; page '08_worked_example' has 21 steps",
        ),
        (
            {**later, "step": -1},
            "event field 'step' is -1; it must be a step's number, from 1 to 'steps' (21)",
        ),
        ({**later, "step": 22}, "event field 'step' is 22; it must be a step's number"),
        (
            {**later, "page": "99_tour"},
            "event field 'page' is '99_tour'; it must be a stepped page: '08_worked_example'",
        ),
        ({**later, "step": "7"}, "event field 'step' is '7'; it must be a step's number"),
        (
            {key: value for key, value in later.items() if key != "steps"},
            "event field 'steps' is missing",
        ),
    ]
    for bad, message in refused:
        kept = store.events_by_learner()
        status, body = report(url, answer("practice", "score", False), bad)
        assert status == 400, (bad, body)
        assert body["message"].startswith(f"event 2 of the report: {message}"), body
        assert places(store) == {"ada": {"08_worked_example": (6, 21)}}  # nothing changed
        assert store.events_by_learner() == kept  # not even the good event before it


def test_the_forwarder_skips_a_step_the_service_would_refuse(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Else the service would refuse every report from that line on, forever."""
    path = tmp_path / "progress.jsonl"
    good = {**STEP, "id": uuid.uuid4().hex}
    path.write_text(json.dumps({**STEP, "page": "99_tour"}) + "\n" + json.dumps(good) + "\n")
    forwarder = ProgressForwarder(
        path, "http://127.0.0.1:9/none", "t", log=logging.getLogger("fw3")
    )
    with caplog.at_level(logging.ERROR, logger="fw3"):
        lines = forwarder._read_new_lines()
    assert [line.event for line in lines] == [None, parse_event(good)]
    assert f"{path}, line 1: not a progress event, skipped: event field 'page' is '99_tour'" in (
        caplog.text
    )


def test_the_worked_examples_page_name_and_steps_are_the_notebooks() -> None:
    """The teacher's stepped page is the one the worked example's notebook shows."""
    notebook = json.loads((NOTEBOOKS / f"{WORKED_EXAMPLE_PAGE}.ipynb").read_text())
    sources = ["".join(cell["source"]) for cell in notebook["cells"]]
    assert any(f'show_worked_example_page("{WORKED_EXAMPLE_PAGE}")' in s for s in sources)
    assert stepped_pages()[WORKED_EXAMPLE_PAGE].steps == worked_example_stepper(present=False).count


# -- the rules the class is weakest on: each learner's memory of each rule ---------------------

NOW = datetime(2026, 12, 10, 12, 0, tzinfo=UTC)
"""When the teacher's page is looked at (the rules' due times depend on it)."""


def standing_of(summaries: Sequence[Summary]) -> dict[str, ClassRule]:
    return {rule.rule: rule for rule in class_rules(summaries, {}, NOW)}


def test_the_class_standing_on_each_rule_counts_each_learners_memory_of_it() -> None:
    summaries = [
        Summary.of([parse_event(raw) for raw in raws], {}) for raws in a_class(NOW).values()
    ]
    standing = standing_of(summaries)
    assert standing[TRUMP] == ClassRule(
        TRUMP, known=0, learning=3, new=0, due=2, first_tries=TopicCount(1, 2)
    )
    assert standing[JESTER] == ClassRule(
        JESTER, known=1, learning=1, new=1, due=2, first_tries=TopicCount(2, 1)
    )
    assert standing[ANY_TIME] == ClassRule(
        ANY_TIME, known=1, learning=0, new=2, due=0, first_tries=TopicCount(2, 0)
    )
    assert standing["winner-leads-next"] == ClassRule("winner-leads-next", new=3)
    assert list(standing) == list(rule_map().ids())  # every rule, in the map's order
    # weakest first: the most learners still learning it; a rule everyone who met it
    # knows (none due, no wrong first try) is not weak, nor one nobody met
    assert [rule.rule for rule in weakest_rules(standing.values())] == [TRUMP, JESTER]
    assert [
        {
            "known": rule.known,
            "learning": rule.learning,
            "new": rule.new,
            "due": rule.due,
            "wrong": rule.first_tries.wrong,
            "answered": rule.first_tries.answered,
        }
        for rule in weakest_rules(standing.values())
    ] == [numbers for _rule, numbers in WEAKEST]
    assert sum(1 for rule in standing.values() if rule.new < len(LEARNERS)) == SEEN_RULES


def test_the_class_counts_each_quiz_question_once_but_each_review() -> None:
    """A quiz question redone is the same question (its earliest answer counts, as the
    lessons' scores count it); each practice or review question is new."""
    items = {("06_trick_winner", "quiz-a"): (TRUMP,)}
    raws = [
        quiz("quiz-a", "trump-vs-led", False, time="2026-12-01T10:00:00Z"),
        quiz("quiz-a", "trump-vs-led", True, time="2026-12-01T10:01:00Z", first_try=False),
        quiz("quiz-a", "trump-vs-led", True, time="2026-12-05T10:00:00Z"),  # the quiz redone
        {
            **quiz("quiz-a", "trump-vs-led", True, time="2026-12-02T10:00:00Z"),
            "v": 4,
            "kind": "review",
            "rules": [TRUMP],
        },
    ]
    summary = Summary.of([parse_event(raw) for raw in raws], SIX)
    assert rule_first_tries(summary, items) == {TRUMP: TopicCount(1, 1)}
    (trump,) = [rule for rule in class_rules([summary], items, NOW) if rule.rule == TRUMP]
    assert trump.first_tries == TopicCount(1, 1) and trump.learning + trump.known == 1


def _shown(markup: str) -> str:
    """A piece of the page as text to compare: entities read, white space between tags gone."""
    return html.unescape(re.sub(r">\s+<", "><", markup.strip()))


def weakest_shown(page: str) -> list[tuple[str, list[str]]]:
    """The teacher's "weakest rules" as the page lists them: each rule's sentence (in a
    ``<span lang>`` when it is not in the page's language) and its numbers."""
    section = page[page.index('<ol id="weakest-rules">') :]
    section = re.sub(r">\s+<", "><", section[: section.index("</section>")])
    rules = re.findall(r'<p class="rule-text">(.*?)</p><ul class="rule-counts">(.*?)</ul>', section)
    return [
        (_shown(sentence), [_shown(count) for count in re.findall(r"<li>(.*?)</li>", counts)])
        for sentence, counts in rules
    ]


def every_rule_shown(page: str) -> list[tuple[str, list[str]]]:
    """The page's table of every rule the class met: each row's sentence and cells."""
    table = page[page.index('<table id="class-rules">') :]
    table = re.sub(r">\s+<", "><", table[: table.index("</table>")])
    rows = re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', table)
    return [
        (_shown(sentence), [_shown(cell) for cell in re.findall(r"<td>(.*?)</td>", cells)])
        for sentence, cells in rows
    ]


def sentence_html(rule: str, lang: str) -> str:
    """A rule's sentence as :func:`weakest_shown` gives it (in a ``<span lang>`` when not in
    ``lang``)."""
    sentence, shown = sentence_in(rule, lang)
    return sentence if shown == lang else f'<span lang="{shown}">{sentence}</span>'


def test_the_learners_own_memory_and_the_teachers_view_say_the_same_of_the_same_events(
    tmp_path: Path, class_db: str
) -> None:
    """Each learner's answers, through the store the learner's own pages read (their
    file, the browser's list) and through the class's database: the teacher's counts are
    the learners' own states of each rule, and the page says so in each language."""
    lessons = list_lessons()
    items = item_rules(lessons)
    quizzes = {lesson.id: tuple(item.id for item in lesson.quiz) for lesson in lessons}
    store = EventStore(class_db)
    own: dict[str, RuleMemories] = {}
    for learner, raws in a_class(NOW).items():
        path = tmp_path / f"{learner}.jsonl"
        path.write_text("".join(json.dumps(raw) + "\n" for raw in raws))
        from_file = Progress(FileStore(path)).summary(quizzes)
        browser = BrowserStore()
        in_browser = Progress(browser)
        browser.serve(in_browser)
        browser.stored = json.dumps(raws)
        assert in_browser.summary(quizzes) == from_file
        own[learner] = RuleMemories.of(from_file, items)
        store.add(learner, FileStore(path).load())
    kept = store.events_by_learner()
    teacher = class_rules(class_results(kept, quizzes).values(), items, NOW)
    for rule in teacher:
        statuses = [memories.status(rule.rule) for memories in own.values()]
        assert (rule.known, rule.learning, rule.new) == (
            statuses.count(RuleStatus.KNOWN),
            statuses.count(RuleStatus.LEARNING),
            statuses.count(RuleStatus.NEW),
        ), rule
        assert rule.due == sum(rule.rule in memories.due(NOW) for memories in own.values())
    # the answers' own rules survive the class's database (a practice answer's rules)
    assert sum(rule.known + rule.learning for rule in teacher) == sum(
        len(memories.memories) for memories in own.values()
    )
    for lang in LANGUAGES:
        page = render_page(lessons, list(own), kept, lang, "/services/class-results/", now=NOW)
        assert f'<h2 id="weakest">{text("teacher-review.heading", lang)}</h2>' in page
        assert weakest_shown(page) == [
            (
                sentence_html(rule, lang),
                [html.escape(line) for line in counts_in_words(numbers, lang)],
            )
            for rule, numbers in WEAKEST
        ]
        assert every_rule_shown(page) == [
            (sentence_html(rule, lang), [html.escape(cell) for cell in row_in_words(numbers, lang)])
            for rule, numbers in MET
        ]
        total = len(rule_map().rules)
        unseen = text("teacher-review.unseen-rules", lang, count=total - SEEN_RULES, total=total)
        assert f'<p id="unseen-rules">{unseen}</p>' in page
        assert "teacher-review." not in page  # no message shown by its key


def test_the_teachers_page_says_when_no_rule_is_weak_or_none_was_asked() -> None:
    lessons = list_lessons()
    nobody = render_page(lessons, ["ada"], {}, "ja", "/c/", now=NOW)
    assert text("teacher-review.nothing-seen", "ja") in nobody
    assert 'id="weakest-rules"' not in nobody and 'id="unseen-rules"' not in nobody
    assert 'id="class-rules"' not in nobody
    known = [parse_event(raw) for raw in a_class(NOW)["ada"][2:4]]  # known, not due
    sure = render_page(lessons, ["ada"], {"ada": known}, "zh-Hant", "/c/", now=NOW)
    assert text("teacher-review.none-weak", "zh-Hant") in sure
    assert 'id="weakest-rules"' not in sure
    assert every_rule_shown(sure) == [
        (
            sentence_html(ANY_TIME, "zh-Hant"),
            [
                "1",
                "0",
                "0",
                "0",
                html.escape(text("teacher-review.wrong-of", "zh-Hant", wrong=0, answered=2)),
            ],
        )
    ]


def map_words(page: str) -> dict[str, str]:
    """The learner's map as the course page words it: each group's status, by the group's
    name (HTML-escaped names, as the page writes them)."""
    return dict(
        re.findall(
            r'<span class="tutor-map-name">([^<]*)</span>.*?'
            r'<span class="tutor-map-status">([^<]*)</span>',
            page,
        )
    )


def test_the_learners_map_and_the_teachers_view_say_the_same_of_each_learner(
    tmp_path: Path, class_db: str
) -> None:
    """Each learner's course page (their map of the rules, "N rules to review") and the
    teacher's view of a class of that learner alone, from the same answers (the learner's
    file; the class's database): quiz answers (their items' rules), practice answers of
    every version, a Try again, a lesson redone."""
    lessons = list_lessons()
    entries = course_entries(NOTEBOOKS)
    quizzes = quiz_items(entries)
    items = item_rules(lessons)
    review_page = review_entry(NOTEBOOKS)
    learners = {**a_class(NOW), "di": _scenario(quizzes)}
    store = EventStore(class_db)
    for learner, raws in learners.items():
        path = tmp_path / f"{learner}.jsonl"
        path.write_text("".join(json.dumps(raw) + "\n" for raw in raws))
        store.add(learner, FileStore(path).load())
    # di's quiz answers ask their items' rules: the lessons name them
    di = Progress(FileStore(tmp_path / "di.jsonl")).summary(quizzes)
    assert any(rules_asked(answer, items) for answer in di.answers if answer.lesson)
    kept = class_results(store.events_by_learner(), quizzes)
    statuses: set[RuleStatus] = set()
    dues: list[int] = []
    for learner in learners:
        own = Progress(FileStore(tmp_path / f"{learner}.jsonl")).summary(quizzes)
        memories = RuleMemories.of(own, items)
        teacher = {rule.rule: rule for rule in class_rules([kept[learner]], items, NOW)}
        for lang in LANGUAGES:
            context = PageContext(lang, Frontend.APP)
            due = sum(rule.due for rule in teacher.values())
            assert review_due_html(len(memories.due(NOW)), context, review_page) == (
                review_due_html(due, context, review_page)
            )
            if due:
                assert text_for_count("review.due", due, lang, count=due) in (
                    review_due_html(due, context, review_page)
                )
            expected = {}
            for group in rule_map().groups:
                standing = [teacher[rule.id] for rule in group.rules]
                if all(rule.known for rule in standing):
                    status = RuleStatus.KNOWN
                elif all(rule.new for rule in standing):
                    status = RuleStatus.NEW
                else:
                    status = RuleStatus.LEARNING
                expected[html.escape(group.name(lang))] = text(
                    f"review.status-{status.value}", lang
                )
                statuses.add(status)
            assert map_words(rule_map_html(memories, lang)) == expected, (learner, lang)
            dues.append(due)
    # groups learning and not yet seen, learners with rules due and without: each
    # comparison above said something (no group is known: that takes all of its rules)
    assert statuses == {RuleStatus.LEARNING, RuleStatus.NEW} and any(dues) and not all(dues)


def test_a_rule_without_the_teachers_language_shows_in_english_never_as_its_key() -> None:
    """A rule the map has no Japanese for yet: its English sentence, marked English (a
    screen reader reads it so), not its id."""
    rules = parse_rule_map(
        '[[group]]\nid = "winner"\nname.en = "Who takes the trick"\nname.ja = "勝者"\n'
        '[[rule]]\nid = "winner-leads-next"\ngroup = "winner"\n'
        'text.en = "The player who takes a trick leads the next one."\n',
        "a teacher's map",
    )
    standing = [ClassRule("winner-leads-next", learning=1, first_tries=TopicCount(0, 1))]
    section = weakest_rules_html(standing, "ja", rules=rules)
    assert weakest_shown(section) == [
        (
            '<span lang="en">The player who takes a trick leads the next one.</span>',
            [
                text("teacher-review.known", "ja", count=0),
                text("teacher-review.learning", "ja", count=1),
                text("teacher-review.new", "ja", count=0),
                text("teacher-review.due", "ja", count=0),
                text("teacher-review.first-tries", "ja", wrong=1, answered=1),
            ],
        )
    ]
    english = weakest_rules_html(standing, "en", rules=rules)
    assert weakest_shown(english)[0][0] == "The player who takes a trick leads the next one."


def test_the_teachers_page_replays_a_learner_again_only_for_new_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each reload reads every answer again; a learner whose answers are the same is not
    replayed through FSRS again, and one with a new answer is, at once."""
    replays: list[int] = []
    replay = RuleMemories.of.__func__  # type: ignore[attr-defined]

    def counted(cls: type[RuleMemories], summary: Summary, *args: Any, **kwargs: Any) -> Any:
        replays.append(len(summary.answers))
        return replay(cls, summary, *args, **kwargs)

    monkeypatch.setattr(RuleMemories, "of", classmethod(counted))
    raws = a_class(NOW)["cy"]
    reread = [[parse_event(raw) for raw in raws] for _load in range(2)]  # equal, not the same
    first, second = (standing_of([Summary.of(events, {})]) for events in reread)
    assert first == second and len(replays) == 1
    missed = {**answer("practice", "trump-vs-led", False), "v": 4, "rules": [TRUMP]}
    later = standing_of(
        [Summary.of([*reread[0], parse_event({**missed, "time": "2026-12-10T11:00:00Z"})], {})]
    )
    assert len(replays) == 2
    assert later[TRUMP].first_tries == TopicCount(1, 1) and later[TRUMP].due == 0


def test_the_teachers_page_links_each_page_of_the_course_to_present_with_the_room() -> None:
    """Issue 32: a lesson is presented from its own link (the room's start with its page),
    in the page's language, in the course's order."""
    entries = course_entries(NOTEBOOKS)
    for lang in LANGUAGES:
        page = render_page(list_lessons(), ["ada"], {}, lang, "/c/")
        listed = page[page.index('<ol id="room-lessons">') :]
        listed = listed[: listed.index("</ol>")]
        links = re.findall(r'<a href="([^"]*)">([^<]*)</a>', listed)
        assert links == [
            (
                f"/c/room/start?page={entry.file}&amp;lang={lang}",
                html.escape(course_entries(NOTEBOOKS, lang=lang)[index].title, quote=False),
            )
            for index, entry in enumerate(entries)
        ]
        assert any("06_trick_winner.ipynb" in href for href, _ in links)
