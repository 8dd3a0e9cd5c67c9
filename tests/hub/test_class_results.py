"""The hub's pieces without a hub: the progress events and the
results computed from them, the service's event store, its page, and the forwarder of a
learner's server against a real HTTP server that fails and recovers. (The real hub with
all of them together: test_class_hub.py.)"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from tornado import web

from tutor.hub.class_progress import (
    Event,
    EventError,
    LessonResult,
    learner_results,
    most_missed,
    parse_event,
)
from tutor.hub.server_extension import ProgressForwarder
from tutor.hub.teacher_service import EventStore, choose_language, render_page
from tutor.teaching.lesson_loader import list_lessons, load_lesson
from tutor.teaching.progress import TopicCount
from tutor.teaching.text import text

from .hub_harness import free_port


def answer(kind: str, topic: str, correct: bool, **fields: Any) -> dict[str, Any]:
    raw = {
        "v": 1,
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


# -- events -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"v": 2}, "event field 'v' is 2; the contract's version is 1"),
        ({"id": "ABC"}, "event field 'id' is 'ABC'; it must be 32 lower-case hex digits"),
        ({"time": "yesterday"}, "event field 'time' is 'yesterday'; it must be an ISO 8601 time"),
        ({"kind": "exam"}, "event field 'kind' is 'exam'; it must be one of"),
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
    with pytest.raises(EventError, match=r"'lesson' is '\.\./etc'; it must be a lesson file id"):
        parse_event(quiz("x", "score", True, lesson="../etc"))
    with pytest.raises(EventError, match="an event must be a JSON object, not list"):
        parse_event([1, 2])


def test_an_event_reads_back_as_it_was_written() -> None:
    for raw in (
        quiz("quiz-trump-led", "trump-vs-led", False),
        answer("practice", "score", True),
        RESET,
    ):
        assert parse_event(raw).as_json() == raw


# -- results ------------------------------------------------------------------------------------

SIX = {"06_trick_winner": ("quiz-a", "quiz-b", "quiz-c")}


def results(*raws: dict[str, Any]) -> Any:
    return learner_results([parse_event(raw) for raw in raws], SIX)


def test_a_lesson_is_done_when_every_quiz_item_is_answered_and_only_first_tries_score() -> None:
    partly = results(
        quiz("quiz-a", "score", False),
        quiz("quiz-a", "score", True, first_try=False),  # the retry does not score
        quiz("quiz-b", "score", True),
    )
    assert partly.lessons["06_trick_winner"] == LessonResult(answered=2, right_first_try=1, items=3)
    assert not partly.lessons["06_trick_winner"].done
    done = results(
        quiz("quiz-a", "score", True),
        quiz("quiz-b", "score", True),
        quiz("quiz-c", "bidding", False),
        quiz("quiz-gone", "score", True),  # an item the lesson no longer has
    )
    assert done.lessons["06_trick_winner"] == LessonResult(3, 2, 3)
    assert done.lessons["06_trick_winner"].done


def test_two_pages_answering_the_same_item_count_its_earlier_first_try_once() -> None:
    both = results(quiz("quiz-a", "score", True), quiz("quiz-a", "score", False))
    assert both.lessons["06_trick_winner"] == LessonResult(1, 1, 3)
    assert both.all_answers == {"score": TopicCount(1, 0)}


def test_practice_counts_first_tries_per_topic_and_a_reset_forgets_what_came_before() -> None:
    before = [
        answer("practice", "score", False),
        answer("practice", "score", True),
        answer("practice", "jester-lead", True, first_try=False),
    ]
    assert results(*before).practice == {"score": TopicCount(1, 1)}
    after = results(*before, RESET, answer("practice", "bidding", False))
    assert after.practice == {"bidding": TopicCount(0, 1)}
    assert after.answers == 1


def test_the_class_most_missed_topics_come_first() -> None:
    ada = results(answer("practice", "score", False), quiz("quiz-a", "bidding", False))
    bo = results(answer("practice", "score", False), answer("practice", "trump-reveal", True))
    assert most_missed([ada, bo]) == [("score", TopicCount(0, 2)), ("bidding", TopicCount(0, 1))]


# -- the service's store and page -----------------------------------------------------------


def test_the_store_keeps_each_event_once_in_order_and_across_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'class.sqlite'}"
    first = [parse_event(answer("practice", "score", bool(n % 2))) for n in range(4)]
    store = EventStore(url)
    assert store.add("ada", first[:3]) == 3
    assert store.add("ada", first) == 1  # sent again with one more: only that one is new
    assert store.add("bo", first[:1]) == 1  # an id is one learner's: bo's is his own
    store.engine.dispose()
    restarted = EventStore(url)  # the service started again on the same database
    kept = restarted.events_by_learner()
    assert kept["ada"] == first
    assert kept["bo"] == first[:1]


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


def run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """``coroutine`` run to its end in a fresh event loop (in a thread of its own: the
    browser tests' Playwright keeps a loop running in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


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
