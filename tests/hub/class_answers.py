"""A class of three learners whose answers give each rule a plain memory state, shared by
the tests of the teacher's "Rules the class is weakest on" without a hub
(test_class_results.py) and on a real hub in Chromium (test_class_review_hub.py).

The answers are dated before a moment ``now`` (when the teacher looks), at distances
chosen so that each state is plain by FSRS's own numbers (tutor/teaching/review.py): one
right answer is remembered for about 2 days, a miss brings the rule back the next day, a
right answer again when it was due makes the rule known (remembered for about 11 days).
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from tutor.teaching.rule_map import rule_map
from tutor.teaching.text import text

TRUMP = "highest-trump-wins"
JESTER = "jester-led-first-number-sets-suit"
ANY_TIME = "wizard-jester-any-time"
"""Asked by a legal-plays question, which by its topic alone would be "must-follow-suit":
only the answer's own rules say it (so they must survive the class's database)."""

LEARNERS = ("ada", "bo", "cy")

WEAKEST = [
    (TRUMP, {"known": 0, "learning": 3, "new": 0, "due": 2, "wrong": 2, "answered": 3}),
    (JESTER, {"known": 1, "learning": 1, "new": 1, "due": 2, "wrong": 1, "answered": 3}),
]
"""What the teacher should see for :func:`a_class`, weakest first: each rule and its
numbers (learners who know it, are learning it, have not seen it, have it due; the class's
wrong first tries of all its first tries). ANY_TIME is known by the one learner who met
it, not due, never missed: not weak."""
MET = [
    *WEAKEST,
    (ANY_TIME, {"known": 1, "learning": 0, "new": 2, "due": 0, "wrong": 0, "answered": 2}),
]
"""Every rule some learner of :func:`a_class` has met, weakest first."""
SEEN_RULES = len(MET)


def _time(now: datetime, days: float, hours: float = 0) -> str:
    return (now - timedelta(days=days, hours=hours)).strftime("%Y-%m-%dT%H:%M:%SZ")


def practice(
    topic: str, correct: bool, time: str, *rules: str, first_try: bool = True
) -> dict[str, Any]:
    """A practice answer as the tutor writes it since version 4: naming the rules it asked."""
    return {
        "v": 4,
        "id": uuid.uuid4().hex,
        "time": time,
        "kind": "practice",
        "lesson": None,
        "item": None,
        "topic": topic,
        "correct": correct,
        "first_try": first_try,
        "rules": list(rules),
    }


def older_practice(topic: str, correct: bool, time: str) -> dict[str, Any]:
    """A practice answer of version 3: no rules, its topic says which it asked."""
    raw = practice(topic, correct, time)
    del raw["rules"]
    return {**raw, "v": 3}


def a_class(now: datetime) -> dict[str, list[dict[str, Any]]]:
    """Each learner's answers (the events of docs/progress.md), dated before ``now``."""
    return {
        # the trump rule missed a day ago; the Jester rule right, and right again when
        # due (known, and due again by now); a Wizard any time: the same, lately (known,
        # not due)
        "ada": [
            practice("jester-lead", True, _time(now, 39, 2), JESTER),
            practice("jester-lead", True, _time(now, 37, 2), JESTER),
            practice("legal-plays", True, _time(now, 9, 2), ANY_TIME),
            practice("legal-plays", True, _time(now, 7, 2), ANY_TIME),
            practice("trump-vs-led", False, _time(now, 1, 3), TRUMP),
        ],
        # the trump rule missed in an older tutor (its topic names the rule); the Jester
        # rule missed, then right at its Try again (no first try)
        "bo": [
            older_practice("trump-vs-led", False, _time(now, 1, 2)),
            practice("jester-lead", False, _time(now, 1, 1.95), JESTER),
            practice("jester-lead", True, _time(now, 1, 1.9), JESTER, first_try=False),
        ],
        # the trump rule right a day ago: remembered for two days, still learning, not due
        "cy": [practice("trump-vs-led", True, _time(now, 1, 1), TRUMP)],
    }


def counts_in_words(numbers: dict[str, int], lang: str) -> list[str]:
    """A rule's numbers of :data:`WEAKEST` as the teacher's page says them in ``lang``."""
    return [
        text("teacher-review.known", lang, count=numbers["known"]),
        text("teacher-review.learning", lang, count=numbers["learning"]),
        text("teacher-review.new", lang, count=numbers["new"]),
        text("teacher-review.due", lang, count=numbers["due"]),
        text(
            "teacher-review.first-tries", lang, wrong=numbers["wrong"], answered=numbers["answered"]
        ),
    ]


def sentence_in(rule: str, lang: str) -> tuple[str, str]:
    """A rule's sentence as the teacher's page shows it in ``lang``, and that sentence's
    language: English until the rule map has ``lang``."""
    sentence = rule_map().rule(rule).text
    shown = "en" if sentence.missing_languages([lang]) else lang
    return sentence(shown), shown


def row_in_words(numbers: dict[str, int], lang: str) -> list[str]:
    """A rule's numbers of :data:`MET` as the cells of the page's table of every rule met."""
    wrong = text(
        "teacher-review.wrong-of", lang, wrong=numbers["wrong"], answered=numbers["answered"]
    )
    return [*(str(numbers[key]) for key in ("known", "learning", "new", "due")), wrong]
