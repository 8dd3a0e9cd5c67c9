"""The browser's store (tutor.display.browser_store), its Python side: what the browser
reports is checked like a progress file, answers go to the browser as messages, and a
refusal or a blocked storage is said on the page. (The browser's side runs in
tests/browser/test_course.py.)"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tutor.display.browser_store import BrowserStore
from tutor.teaching.progress import Progress, ProgressState
from tutor.teaching.progress_events import AnswerEvent, AnswerSource, ResetEvent
from tutor.teaching.progress_stores import BROWSER_STORAGE_KEY, StoreProblem
from tutor.teaching.quiz import Topic


@pytest.fixture
def store(monkeypatch: pytest.MonkeyPatch) -> tuple[BrowserStore, Progress, list[dict[str, Any]]]:
    """A store whose messages to the browser are collected, and the progress it serves."""
    store = BrowserStore()
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(store, "send", lambda content, buffers=None: sent.append(content))
    progress = Progress(store)
    store.serve(progress)
    return store, progress, sent


def test_progress_loads_when_the_browser_reports(
    store: tuple[BrowserStore, Progress, list[Any]],
) -> None:
    browser, progress, _ = store
    assert progress.state is ProgressState.LOADING and browser.key == BROWSER_STORAGE_KEY
    events = [AnswerEvent(AnswerSource.PRACTICE, "score", True, True), ResetEvent()]
    browser.stored = json.dumps([event.to_json() for event in events])
    assert progress.state is ProgressState.READY and progress.events == events


def test_an_answer_is_sent_to_the_browser_and_counts_until_the_browser_has_it(
    store: tuple[BrowserStore, Progress, list[Any]],
) -> None:
    browser, progress, sent = store
    browser.stored = "[]"
    event = progress.record_answer(AnswerSource.PRACTICE, topic=Topic.SCORE, correct=False)
    assert sent == [{"op": "append", "event": event.to_json()}]
    assert progress.count(Topic.SCORE).wrong == 1  # counted on the page already
    browser.stored = json.dumps([event.to_json()])  # the browser reports it kept
    assert progress.events == [event] and progress.count(Topic.SCORE).wrong == 1


@pytest.mark.parametrize(
    "stored, problem",
    [("{not json", StoreProblem.DAMAGED), ('{"a": 1}', StoreProblem.DAMAGED),
     ("[" * 100_000 + "]" * 100_000, StoreProblem.DAMAGED),
     ('[{"v": 9, "id": "x"}]', StoreProblem.NEWER)],
)  # fmt: skip
def test_a_damaged_browser_store_is_said_and_can_be_started_afresh(
    store: tuple[BrowserStore, Progress, list[Any]], stored: str, problem: StoreProblem
) -> None:
    browser, progress, sent = store
    browser.stored = stored
    assert progress.state is ProgressState.BROKEN and progress.problem is not None
    assert progress.problem.problem is problem
    assert "this browser’s storage" in progress.problem.message()
    pending = progress.record_answer(AnswerSource.PRACTICE, topic=Topic.SCORE, correct=True)
    assert sent == []  # nothing is added to a damaged store
    progress.start_afresh()
    assert sent[0]["op"] == "replace" and sent[0]["backup"].startswith(
        f"{BROWSER_STORAGE_KEY}.broken-"
    )
    assert sent[1] == {"op": "append", "event": pending.to_json()}
    browser.stored = "[]"
    assert progress.state is ProgressState.READY and progress.count(Topic.SCORE).right == 1


def test_a_refused_write_and_a_blocked_storage_are_said(
    store: tuple[BrowserStore, Progress, list[Any]],
) -> None:
    browser, progress, _ = store
    browser.stored = "[]"
    event = progress.record_answer(AnswerSource.PRACTICE, topic=Topic.SCORE, correct=True)
    browser._message(browser, {"op": "failed", "id": event.id, "reason": "QuotaExceededError"}, [])
    assert progress.write_problem is not None
    assert progress.write_problem.problem is StoreProblem.BROWSER_WRITE
    browser.blocked = True
    assert progress.state is ProgressState.BROKEN and progress.problem is not None
    assert progress.problem.problem is StoreProblem.BROWSER_BLOCKED
