"""Spaced review: each rule's memory state replayed with FSRS from the learner's answers
(explicit times, never the wall clock), the learner's map (not yet seen / learning /
known), old progress files still giving the same scores and now rule states, nothing
counted twice, and the review session asking exactly the due rules."""

from __future__ import annotations

import json
import textwrap
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from lesson_files import lesson_file

from tutor.teaching.lesson import Lesson
from tutor.teaching.lesson_loader import load_lesson_file
from tutor.teaching.practice import LessonQuizSession, PracticeSession
from tutor.teaching.progress import Progress
from tutor.teaching.progress_events import (
    EVENT_VERSION,
    AnswerEvent,
    AnswerSource,
    EventError,
    ResetEvent,
    parse_event,
)
from tutor.teaching.progress_stores import FileStore, MemoryStore
from tutor.teaching.progress_summary import Summary
from tutor.teaching.review import (
    KNOWN_STABILITY_DAYS,
    PRACTICE_TOPIC_RULES,
    RuleMemories,
    RuleStatus,
    at,
    item_rules,
    rules_asked,
)
from tutor.teaching.review_session import ReviewSession
from tutor.teaching.rule_map import parse_rule_map, rule_map

pytestmark = pytest.mark.usefixtures("progress_in_tmp")

DAY = timedelta(days=1)
START = "2026-12-01T10:00:00Z"

# A lesson of its own (the course's tags are being written by others): three questions,
# each naming the rules it asks.
TAGGED = """
title.en = "Tagged"
summary.en = "S"

[[quiz]]
id = "jester-wizard"
kind = "trick-winner"
plays = "J W R13 J"
trump = "none"
winner = "B"
rules = ["jester-then-wizard-no-suit", "first-wizard-wins"]

[[quiz]]
id = "zero-met"
kind = "score"
bid = 0
taken = 0
points = 20
rules = ["bid-zero-met-scores-twenty"]

[[quiz]]
id = "untagged"
kind = "score"
bid = 2
taken = 2
points = 40
"""


@pytest.fixture
def lesson(tmp_path: Path) -> Lesson:
    return load_lesson_file(lesson_file(tmp_path / "06_tagged.toml", TAGGED, titled=False))


def answer(
    kind: AnswerSource,
    correct: bool,
    time: str,
    *,
    first_try: bool = True,
    item: str | None = None,
    topic: str = "trick-winner",
    rules: tuple[str, ...] = (),
) -> AnswerEvent:
    lesson = "06_tagged" if item is not None else None
    return AnswerEvent(kind, topic, correct, first_try, lesson, item, time=time, rules=rules)


def later(days: float, base: str = START) -> str:
    return (at(base) + timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")


def memories(events: list[AnswerEvent | ResetEvent], lesson: Lesson) -> RuleMemories:
    return RuleMemories.of(Summary.of(events, {}), item_rules([lesson]))


# -- the states and the schedule ----------------------------------------------------------


def test_a_rule_no_answer_asked_is_not_yet_seen_and_never_due(lesson: Lesson) -> None:
    state = memories([answer(AnswerSource.QUIZ, True, START, item="zero-met")], lesson)
    assert state.status("winner-leads-next") is RuleStatus.NEW
    assert "winner-leads-next" not in state.due(at(START) + 1000 * DAY)
    assert state.status("bid-zero-met-scores-twenty") is RuleStatus.LEARNING


def test_a_right_first_answer_brings_the_rule_back_after_fsrs_first_interval(
    lesson: Lesson,
) -> None:
    state = memories([answer(AnswerSource.QUIZ, True, START, item="zero-met")], lesson)
    memory = state.memories["bid-zero-met-scores-twenty"]
    assert memory.reviews == 1 and 2 < memory.card.stability < 3  # FSRS's Good: 2.3 days
    due_at = at(START) + 2 * DAY
    assert state.due(due_at - timedelta(seconds=1)) == ()
    assert state.due(due_at) == ("bid-zero-met-scores-twenty",)


def test_a_miss_brings_the_rule_back_the_next_day_sooner_than_a_right_answer(
    lesson: Lesson,
) -> None:
    missed = memories([answer(AnswerSource.QUIZ, False, START, item="zero-met")], lesson)
    assert missed.due(at(START) + DAY) == ("bid-zero-met-scores-twenty",)
    assert missed.due(at(START) + DAY - timedelta(seconds=1)) == ()


def test_right_after_a_miss_is_between_a_miss_and_a_right_first_try(lesson: Lesson) -> None:
    def stability(first_try: bool, correct: bool) -> float:
        event = answer(AnswerSource.QUIZ, correct, START, item="zero-met", first_try=first_try)
        return memories([event], lesson).memories["bid-zero-met-scores-twenty"].card.stability

    assert stability(True, False) < stability(False, True) < stability(True, True)


def test_a_rule_is_known_after_a_right_answer_when_it_was_due_and_a_lapse_unlearns_it(
    lesson: Lesson,
) -> None:
    first = answer(AnswerSource.QUIZ, True, START, item="zero-met")
    again = answer(
        AnswerSource.REVIEW, True, later(2), item="zero-met", rules=("bid-zero-met-scores-twenty",)
    )
    state = memories([first, again], lesson)
    assert state.memories["bid-zero-met-scores-twenty"].card.stability >= KNOWN_STABILITY_DAYS
    assert state.status("bid-zero-met-scores-twenty") is RuleStatus.KNOWN
    assert state.due(at(later(2)) + 7 * DAY) == ()
    lapse = answer(AnswerSource.QUIZ, False, later(3), item="zero-met")
    assert memories([first, again, lapse], lesson).status("bid-zero-met-scores-twenty") is (
        RuleStatus.LEARNING
    )


def test_many_answers_in_one_sitting_do_not_make_a_rule_known(lesson: Lesson) -> None:
    sitting = [
        answer(AnswerSource.QUIZ, True, later(minutes / 1440), item="zero-met")
        for minutes in range(10)
    ]
    state = memories(sitting, lesson)  # type: ignore[arg-type]
    assert state.memories["bid-zero-met-scores-twenty"].reviews == 10
    assert state.status("bid-zero-met-scores-twenty") is RuleStatus.LEARNING


def test_answers_are_replayed_in_time_order_not_the_order_written(lesson: Lesson) -> None:
    right = answer(AnswerSource.QUIZ, True, later(2), item="zero-met")
    missed = answer(AnswerSource.QUIZ, False, START, item="zero-met")
    in_order = memories([missed, right], lesson).memories["bid-zero-met-scores-twenty"].card
    written_late = memories([right, missed], lesson).memories["bid-zero-met-scores-twenty"].card
    assert (in_order.stability, in_order.due) == (written_late.stability, written_late.due)


def test_a_group_is_new_until_seen_learning_until_every_rule_is_known() -> None:
    small = parse_rule_map(
        textwrap.dedent(
            """
            [[group]]
            id = "g"
            name.en = "G"
            [[rule]]
            id = "first-wizard-wins"
            group = "g"
            text.en = "a"
            [[rule]]
            id = "highest-trump-wins"
            group = "g"
            text.en = "b"
            """
        ),
        "small map",
    )
    group = small.groups[0]

    def status(events: list[AnswerEvent]) -> RuleStatus:
        return RuleMemories.of(Summary.of(events, {}), {}, rules=small).group_status(group)

    def both(correct: bool, time: str) -> AnswerEvent:
        rules = ("first-wizard-wins", "highest-trump-wins")
        return answer(AnswerSource.PRACTICE, correct, time, rules=rules)

    one = answer(AnswerSource.PRACTICE, True, START, rules=("first-wizard-wins",))
    assert status([]) is RuleStatus.NEW
    assert status([one]) is RuleStatus.LEARNING
    assert status([both(True, START), both(True, later(2))]) is RuleStatus.KNOWN
    only_one_known = [
        both(True, START),
        one,
        answer(AnswerSource.PRACTICE, True, later(2), rules=("first-wizard-wins",)),
    ]
    assert status(only_one_known) is RuleStatus.LEARNING


def test_a_reset_forgets_every_rules_state(lesson: Lesson) -> None:
    events = [answer(AnswerSource.QUIZ, True, START, item="zero-met"), ResetEvent()]
    state = memories(events, lesson)  # type: ignore[arg-type]
    assert state.memories == {} and state.due(at(START) + 100 * DAY) == ()


def test_due_needs_a_time_zone(lesson: Lesson) -> None:
    with pytest.raises(ValueError, match="no time zone"):
        memories([], lesson).due(at(START).replace(tzinfo=None))


# -- which rules an answer asks, each once ------------------------------------------------


def test_every_practice_topic_names_rules_of_the_map() -> None:
    known = set(rule_map().ids())
    for topic, rules in PRACTICE_TOPIC_RULES.items():
        assert rules and set(rules) <= known, topic


def test_a_practice_answer_with_rules_is_not_also_counted_under_its_topics_rules() -> None:
    named = answer(AnswerSource.PRACTICE, True, START, topic="score", rules=("bid-met-scores",))
    assert rules_asked(named, {}) == ("bid-met-scores",)
    state = RuleMemories.of(Summary.of([named], {}), {})
    assert set(state.memories) == {"bid-met-scores"}  # not bid-missed-loses too


def test_an_event_kept_twice_counts_once(lesson: Lesson) -> None:
    event = answer(AnswerSource.QUIZ, True, START, item="zero-met")
    state = memories([event, event], lesson)
    assert state.memories["bid-zero-met-scores-twenty"].reviews == 1


def test_an_untagged_item_or_a_rule_the_map_lost_counts_for_nothing(lesson: Lesson) -> None:
    untagged = answer(AnswerSource.QUIZ, True, START, item="untagged")
    lost = answer(AnswerSource.PRACTICE, True, START, rules=("rule-since-removed",))
    assert memories([untagged, lost], lesson).memories == {}


def test_practice_records_the_rules_its_question_asks() -> None:
    session = PracticeSession(seed=3)
    question = session.next_question()
    session.answer(question.correct_answer())
    (event,) = session.progress.events
    assert isinstance(event, AnswerEvent) and event.rules
    assert event.rules == PRACTICE_TOPIC_RULES[question.topic] or set(event.rules) <= set(
        rule_map().ids()
    )
    assert parse_event(json.loads(json.dumps(event.to_json()))) == event


# -- the format: version 4, and the files of earlier versions ------------------------------


def test_a_review_answer_names_its_rules_and_needs_version_4() -> None:
    review = answer(AnswerSource.REVIEW, True, START, item="zero-met", rules=("bid-met-scores",))
    data = review.to_json()
    assert data["v"] == EVENT_VERSION >= 4 and data["rules"] == ["bid-met-scores"]
    assert parse_event(data) == review
    with pytest.raises(EventError, match="in version 3 it must be one of"):
        parse_event({**data, "v": 3})
    with pytest.raises(EventError, match="a review answer names the rules it asked"):
        parse_event({**data, "rules": []})
    with pytest.raises(EventError, match="'rules' has 'Bid Met'"):
        parse_event({**data, "rules": ["Bid Met"]})
    with pytest.raises(EventError, match="'rules' has 'aaaa"):
        parse_event({**data, "rules": ["a" * 61]})
    assert parse_event({**data, "rules": ["a" * 60]}).rules == ("a" * 60,)
    with pytest.raises(EventError, match="'item' is 'zero-met'; a review answer with no lesson"):
        parse_event({**data, "lesson": None})
    practice_data = answer(AnswerSource.PRACTICE, True, START, rules=("x-y",)).to_json()
    with pytest.raises(EventError, match="it names a rule twice"):
        parse_event({**practice_data, "rules": ["x-y", "x-y"]})


def old_line(version: int, kind: str, correct: bool, time: str, **fields: object) -> str:
    data: dict[str, object] = {
        "v": version,
        "id": uuid.uuid4().hex,
        "time": time,
        "kind": kind,
        "lesson": None,
        "item": None,
        "topic": "score",
        "correct": correct,
        "first_try": True,
    }
    return json.dumps({**data, **fields}) + "\n"


def test_a_progress_file_of_versions_1_to_3_keeps_its_scores_and_now_gives_rule_states(
    tmp_path: Path, lesson: Lesson
) -> None:
    quiz = {"lesson": "06_tagged"}
    lines = [
        old_line(1, "quiz", False, START, **quiz, item="zero-met"),
        old_line(1, "quiz", True, later(0.01), **quiz, item="zero-met", first_try=False),
        old_line(2, "quiz", True, later(0.02), **quiz, item="jester-wizard", topic="jester-lead"),
        old_line(2, "practice", True, later(0.03), topic="trump-vs-led"),
        json.dumps(
            {
                "v": 2,
                "id": uuid.uuid4().hex,
                "time": later(0.04),
                "kind": "finished",
                "page": "06_tagged",
            }
        )
        + "\n",
        old_line(3, "quiz", True, later(1), **quiz, item="zero-met"),  # a redo the next day
    ]
    path = tmp_path / "progress.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    items = {"06_tagged": [item.id for item in lesson.quiz]}
    summary = Progress(FileStore(path)).summary(items)
    # the scores as before: the earliest answer counts (zero-met missed, jester-wizard right)
    assert summary.lesson("06_tagged").answered == 2 and summary.lesson("06_tagged").right == 1
    assert summary.count("trump-vs-led").right == 1
    state = RuleMemories.of(summary, item_rules([lesson]))
    assert state.memories["bid-zero-met-scores-twenty"].reviews == 3  # missed, again, redo
    assert state.memories["first-wizard-wins"].reviews == 1
    assert state.memories["highest-trump-wins"].reviews == 1  # practice's topic table
    assert set(state.memories) == {
        "bid-zero-met-scores-twenty",
        "first-wizard-wins",
        "jester-then-wizard-no-suit",
        "highest-trump-wins",
    }
    # appending a version 4 answer leaves the old lines as they were, read as before
    Progress(FileStore(path)).record_answer(
        AnswerSource.PRACTICE, topic="score", correct=True, rules=("bid-met-scores",)
    )
    assert path.read_text("utf-8").startswith("".join(lines))
    again = Progress(FileStore(path)).summary(items)
    assert again.lesson("06_tagged") == summary.lesson("06_tagged")


# -- the review session ------------------------------------------------------------------


def seeded(lesson: Lesson, *events: AnswerEvent) -> Progress:
    return Progress(MemoryStore(list(events)))


def test_a_review_asks_exactly_the_due_rules_and_afterwards_none_is_due(lesson: Lesson) -> None:
    progress = seeded(
        lesson,
        answer(AnswerSource.QUIZ, True, START, item="jester-wizard"),
        answer(AnswerSource.QUIZ, False, START, item="zero-met"),
        answer(AnswerSource.PRACTICE, True, START, topic="trump-vs-led"),
        answer(AnswerSource.QUIZ, True, later(5), item="untagged"),  # asks no rule
    )
    items = {"06_tagged": [item.id for item in lesson.quiz]}
    before = progress.summary(items)
    session = ReviewSession(progress, [lesson], clock=lambda: at(later(3)), seed=1)
    assert session.due == (
        "jester-then-wizard-no-suit",
        "first-wizard-wins",
        "highest-trump-wins",
        "bid-zero-met-scores-twenty",
    )
    asked = [set(question.rules) & set(session.due) for question in session.questions]
    assert set().union(*asked) == set(session.due) and len(session.questions) == 3
    assert [q.item.id if q.item else None for q in session.questions] == [
        "jester-wizard",  # one quiz item asks both of its rules
        None,  # a practice question: no quiz item asks highest-trump-wins
        "zero-met",
    ]
    for question in session.questions:
        assert session.due_now()  # not yet all
        session.record(question, correct=True, first_try=True)
    assert session.due_now() == ()
    after = progress.summary(items)
    assert after.lesson("06_tagged") == before.lesson("06_tagged")  # scores untouched
    assert after.topics == before.topics and after.continue_at(["06_tagged"]) == before.continue_at(
        ["06_tagged"]
    )
    kinds = [event.kind for event in after.answers[-3:]]
    assert kinds == [AnswerSource.REVIEW] * 3


def test_a_review_question_missed_then_right_is_recorded_as_the_quizzes_do(
    lesson: Lesson,
) -> None:
    progress = seeded(lesson, answer(AnswerSource.QUIZ, True, START, item="zero-met"))
    session = ReviewSession(progress, [lesson], clock=lambda: at(later(3)), seed=1)
    (question,) = session.questions
    session.record(question, correct=False, first_try=True)
    session.record(question, correct=True, first_try=False)
    memory = session.memories().memories["bid-zero-met-scores-twenty"]
    assert memory.reviews == 3 and memory.card.due == at(later(4))  # a miss: tomorrow


def test_a_question_of_another_session_is_refused(lesson: Lesson) -> None:
    progress = seeded(lesson, answer(AnswerSource.QUIZ, True, START, item="zero-met"))
    one = ReviewSession(progress, [lesson], clock=lambda: at(later(3)), seed=1)
    other = ReviewSession(progress, [lesson], clock=lambda: at(later(3)), seed=1)
    with pytest.raises(ValueError, match="not a question of this review session"):
        one.record(other.questions[0], correct=True, first_try=True)


def test_nothing_due_asks_nothing(lesson: Lesson) -> None:
    progress = seeded(lesson, answer(AnswerSource.QUIZ, True, START, item="zero-met"))
    session = ReviewSession(progress, [lesson], clock=lambda: at(later(1)), seed=1)
    assert session.due == () and session.questions == ()


def test_a_lesson_quiz_records_no_rules_its_item_names_them(lesson: Lesson) -> None:
    quiz = LessonQuizSession(lesson)
    quiz.grade(lesson.quiz[1], correct=True, first_try=True)
    (event, *_) = quiz.progress.events
    assert isinstance(event, AnswerEvent) and event.rules == ()
    assert "rules" not in event.to_json()
    assert rules_asked(event, item_rules([lesson])) == ("bid-zero-met-scores-twenty",)


def test_a_due_rule_nothing_asks_any_more_is_left_unasked(lesson: Lesson) -> None:
    """A rule reviewed once by a question the course no longer has (here: a review answer
    naming it, with no quiz item or practice question asking it now)."""
    orphan = answer(AnswerSource.REVIEW, True, START, rules=("variants-agreed-before",))
    session = ReviewSession(seeded(lesson, orphan), [lesson], clock=lambda: at(later(3)), seed=1)
    assert session.due == ("variants-agreed-before",)
    assert session.questions == () and session.unasked == ("variants-agreed-before",)
