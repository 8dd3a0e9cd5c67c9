"""The learner's progress: answers as events, what they add up to (lessons done, scores,
practice topics, where to continue), and the progress file: two writers both count, and
every kind of bad file is reported naming the file (tmp files only: never the repo,
never the real home)."""

from __future__ import annotations

import json
import multiprocessing
import re
import stat
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from tutor.teaching.progress import Progress, ProgressState
from tutor.teaching.progress_events import (
    EVENT_VERSION,
    KINDS_BY_VERSION,
    AnswerEvent,
    AnswerSource,
    EventError,
    FinishedEvent,
    ResetEvent,
    StepEvent,
    parse_event,
)
from tutor.teaching.progress_stores import (
    PROGRESS_FILE_VARIABLE,
    FileStore,
    MemoryStore,
    ProgressStoreError,
    StoreProblem,
    StoreSetting,
    UnknownStoreError,
    default_progress_path,
    parse_lines,
    store_setting,
)
from tutor.teaching.progress_summary import (
    BASE_WEIGHTS,
    PRACTICE,
    PRACTICE_GOAL,
    LessonResult,
    Summary,
    TopicCount,
    topic_weight,
)
from tutor.teaching.quiz import Topic
from tutor.teaching.text import LANGUAGES

pytestmark = pytest.mark.usefixtures("progress_in_tmp")


def quiz(lesson: str, item: str, correct: bool, first_try: bool = True) -> AnswerEvent:
    return AnswerEvent(AnswerSource.QUIZ, "trick-winner", correct, first_try, lesson, item)


def practice(topic: Topic, correct: bool, first_try: bool = True) -> AnswerEvent:
    return AnswerEvent(AnswerSource.PRACTICE, topic.value, correct, first_try)


# -- weights --------------------------------------------------------------------------------


def test_a_topics_weight_grows_with_mistakes_and_shrinks_with_right_answers() -> None:
    for topic in BASE_WEIGHTS:
        weights = [topic_weight(topic, TopicCount(right=3, wrong=wrong)) for wrong in range(6)]
        assert weights == sorted(weights) and len(set(weights)) == 6
        weights = [topic_weight(topic, TopicCount(right=right, wrong=2)) for right in range(6)]
        assert weights == sorted(weights, reverse=True) and min(weights) > 0


def test_hard_topics_start_with_more_weight() -> None:
    fresh = Progress().weights()
    for hard in (Topic.JESTER_LEAD, Topic.WIZARD_AFTER_NUMBER, Topic.TRUMP_VS_LED, Topic.BID_ZERO):
        assert fresh[hard] > fresh[Topic.SCORE] == fresh[Topic.TRUMP_REVEAL]
    assert set(fresh) == set(BASE_WEIGHTS) and set(BASE_WEIGHTS) < set(Topic)


# -- events ----------------------------------------------------------------------------------


def test_an_event_survives_its_json_form() -> None:
    for event in (
        quiz("06_trick_winner", "q1", False),
        practice(Topic.BID_ZERO, True),
        FinishedEvent("08_worked_example"),
        StepEvent("08_worked_example", 5, 21),
        ResetEvent(),
    ):
        assert parse_event(json.loads(json.dumps(event.to_json()))) == event


def test_every_event_has_every_field_of_the_contract() -> None:
    data = quiz("06_trick_winner", "q1", True, first_try=False).to_json()
    assert set(data) == {
        "v",
        "id",
        "time",
        "kind",
        "lesson",
        "item",
        "topic",
        "correct",
        "first_try",
    }
    assert data["v"] == EVENT_VERSION == 5 and len(data["id"]) == 32 and data["time"].endswith("Z")
    # version 5: a quiz answer keeps what was answered (a lesson reopened shows it)
    given = AnswerEvent(AnswerSource.QUIZ, "score", True, True, "07_x", "q1", answer=(0, 2))
    assert set(given.to_json()) == set(data) | {"answer"} and given.to_json()["answer"] == [0, 2]
    assert practice(Topic.SCORE, True).to_json()["lesson"] is None
    # version 4: a practice answer names the rules it asked (a quiz answer's are its item's)
    named = AnswerEvent(AnswerSource.PRACTICE, "score", True, True, rules=("bid-met-scores",))
    assert set(named.to_json()) == set(data) | {"rules"}
    assert "rules" not in practice(Topic.SCORE, True).to_json()  # none named: its topic's
    assert set(ResetEvent().to_json()) == {"v", "id", "time", "kind"}
    assert set(FinishedEvent("11_play_a_round").to_json()) == {"v", "id", "time", "kind", "page"}
    assert set(StepEvent("08_worked_example", 2, 21).to_json()) == {
        *("v", "id", "time", "kind", "page", "step", "steps")
    }


@pytest.mark.parametrize("answer", [-20, 0, 12, [], [1], [0, 3, 5]])
def test_a_quiz_answer_keeps_what_was_answered_from_version_5(answer: object) -> None:
    data = {**quiz("06_x", "q1", True).to_json(), "answer": answer}
    event = parse_event(data)
    assert isinstance(event, AnswerEvent)
    assert event.answer == (tuple(answer) if isinstance(answer, list) else answer)
    assert parse_event(event.to_json()) == event
    # an older version's event says nothing of it (a reader of version 4 ignored it)
    older = parse_event({**data, "v": 4})
    assert isinstance(older, AnswerEvent) and older.answer is None


@pytest.mark.parametrize("answer", [True, "12", 2.5, [2, 1], [1, 1], [-1], ["a"], 10**12])
def test_an_answer_that_is_no_number_nor_choices_is_refused_naming_it(answer: object) -> None:
    data = {**quiz("06_x", "q1", True).to_json(), "answer": answer}
    with pytest.raises(EventError, match=re.escape(f"event field 'answer' is {answer!r}")):
        parse_event(data)


def test_version_1_events_are_read_as_they_were_written() -> None:
    data = {**quiz("06_x", "q1", True).to_json(), "v": 1}
    expected = AnswerEvent(
        AnswerSource.QUIZ,
        "trick-winner",
        True,
        True,
        "06_x",
        "q1",
        str(data["id"]),
        str(data["time"]),
    )
    assert parse_event(data) == expected


def test_a_finished_event_needs_version_2_and_a_newer_version_is_refused_as_newer() -> None:
    assert sorted(KINDS_BY_VERSION) == list(range(1, EVENT_VERSION + 1))  # a reader of each
    finished = FinishedEvent("08_worked_example").to_json()
    with pytest.raises(
        EventError, match="in version 1 it must be one of 'quiz', 'practice', 'reset'"
    ):
        parse_event({**finished, "v": 1})
    newer = EVENT_VERSION + 1
    with pytest.raises(
        EventError, match=f"'v' is {newer}; this tutor reads versions 1 to {EVENT_VERSION}"
    ):
        parse_event({**finished, "v": newer})
    line = json.dumps({**finished, "v": newer}).encode()
    with pytest.raises(ProgressStoreError) as refused:
        parse_lines(line, "p.jsonl")
    assert refused.value.problem is StoreProblem.NEWER and refused.value.line == 1


@pytest.mark.parametrize(
    "change, complaint",
    [
        ({"id": "xyz"}, "'id' is 'xyz'; it must be 32 lower-case hexadecimal digits"),
        ({"time": "yesterday"}, "'time' is 'yesterday'; it must be a UTC time"),
        (
            {"kind": "guess"},
            f"'kind' is 'guess'; in version {EVENT_VERSION} it must be one of 'quiz', 'practice'",
        ),
        ({"lesson": None}, "'lesson' is None; a quiz answer names its lesson"),
        ({"lesson": "../etc"}, r"'lesson' is '\.\./etc'; a quiz answer names its lesson"),
        ({"item": "Q 1"}, "'item' is 'Q 1'; a quiz answer names its item's id"),
        ({"topic": "<script>"}, "'topic' is '<script>'; it must be one of 'trick-winner'"),
        ({"correct": 1}, "'correct' is 1; it must be true or false"),
        ({"first_try": None}, "'first_try' is None; it must be true or false"),
        ({"v": True}, "'v' is True; it must be a version number"),
        ({"v": 0}, "'v' is 0; it must be a version number from 1"),
    ],
)
def test_a_malformed_event_is_refused_naming_the_field_the_value_and_the_rule(
    change: dict[str, object], complaint: str
) -> None:
    data = {**quiz("06_x", "q1", True).to_json(), **change}
    with pytest.raises(EventError, match=complaint):
        parse_event(data)


def test_a_practice_answer_names_no_lesson_and_a_finished_event_names_its_page() -> None:
    with pytest.raises(EventError, match="'lesson' is '06_x'; a practice answer has null there"):
        parse_event({**practice(Topic.SCORE, True).to_json(), "lesson": "06_x"})
    with pytest.raises(EventError, match="'page' is missing"):
        parse_event({k: v for k, v in FinishedEvent("x").to_json().items() if k != "page"})
    with pytest.raises(EventError, match="an event must be a JSON object, not list"):
        parse_event([1, 2])


def test_a_step_event_needs_version_3() -> None:
    step = StepEvent("08_worked_example", 5, 21).to_json()
    for older in (1, 2):
        with pytest.raises(EventError, match=f"in version {older} it must be one of"):
            parse_event({**step, "v": older})
    assert parse_event(step) == StepEvent("08_worked_example", 5, 21, step["id"], step["time"])


@pytest.mark.parametrize(
    "change, complaint",
    [
        ({"step": 0}, r"'step' is 0; it must be a step's number, from 1 to 'steps' \(21\)"),
        ({"step": 22}, r"'step' is 22; it must be a step's number, from 1 to 'steps' \(21\)"),
        ({"step": "5"}, "'step' is '5'; it must be a step's number"),
        ({"step": True}, "'step' is True; it must be a step's number"),
        ({"step": 5.0}, "'step' is 5.0; it must be a step's number"),
        ({"step": None}, "'step' is None; it must be a step's number"),
        ({"steps": 0}, "'steps' is 0; it must be a whole number from 1 to 1000"),
        ({"steps": 1001}, "'steps' is 1001; it must be a whole number from 1 to 1000"),
        ({"steps": [21]}, r"'steps' is \[21\]; it must be a whole number"),
        ({"page": ""}, "'page' is ''; it must be a page's name"),
        ({"page": "x" * 81}, f"'page' is '{'x' * 81}'; it must be a page's name"),
    ],
)
def test_a_malformed_step_event_is_refused_naming_the_field_the_value_and_the_rule(
    change: dict[str, object], complaint: str
) -> None:
    data = {**StepEvent("08_worked_example", 5, 21).to_json(), **change}
    with pytest.raises(EventError, match=complaint):
        parse_event(data)
    for missing in ("page", "step", "steps"):
        without = {k: v for k, v in StepEvent("x", 1, 2).to_json().items() if k != missing}
        with pytest.raises(EventError, match=f"'{missing}' is missing"):
            parse_event(without)


def test_recording_a_step_out_of_range_is_refused_and_records_nothing() -> None:
    progress = Progress(MemoryStore())
    for step, steps in ((0, 21), (22, 21), (3, 0), (3, 1001), (True, 21)):
        with pytest.raises(EventError, match=f"'step' is {step!r}|'steps' is {steps!r}"):
            progress.record_step("08_worked_example", step, steps)  # type: ignore[arg-type]
    with pytest.raises(EventError, match="'page' is ''"):
        progress.record_step("", 1, 21)
    assert progress.events == []
    kept = progress.record_step("08_worked_example", 21, 21)
    assert progress.events == [kept]


# -- what events add up to ----------------------------------------------------------------------


ITEMS = {"06_x": ["q1", "q2", "q3"], "07_y": ["q1"]}


def test_a_lesson_is_done_when_every_quiz_item_is_answered_and_its_first_tries_score() -> None:
    events = [
        quiz("06_x", "q1", True),
        quiz("06_x", "q2", False),
        quiz("06_x", "q2", True, first_try=False),
    ]
    summary = Summary.of(events, ITEMS)
    assert (summary.lesson("06_x").answered, summary.lesson("06_x").right) == (2, 1)
    assert not summary.lesson("06_x").done and summary.lesson("06_x").started
    summary = Summary.of([*events, quiz("06_x", "q3", True)], ITEMS)
    assert summary.lesson("06_x").done and summary.lesson("06_x").right == 2


def test_the_earliest_answer_to_a_question_is_its_first_try_whatever_comes_after() -> None:
    # wrong, a reload (the page asks again: a first try on that page), then right
    events = [quiz("06_x", "q1", False), quiz("06_x", "q1", True), quiz("06_x", "gone", True)]
    assert Summary.of(events, ITEMS).lesson("06_x") == LessonResult(items=3, answered=1, right=0)
    # right, then wrong on a second open page: still right at the first try
    events = [quiz("06_x", "q1", True), quiz("06_x", "q1", False)]
    assert Summary.of(events, ITEMS).lesson("06_x").right == 1


def test_redoing_a_lesson_does_not_rewrite_its_score() -> None:
    first = [quiz("06_x", "q1", True), quiz("06_x", "q2", False), quiz("06_x", "q3", False)]
    redo = [quiz("06_x", "q1", False), quiz("06_x", "q2", True), quiz("06_x", "q3", True)]
    score = Summary.of(first, ITEMS).lesson("06_x")
    assert score == LessonResult(items=3, answered=3, right=1)
    for upto in range(len(redo) + 1):  # at every point of the redo (in any language)
        assert (
            Summary.of([*first, FinishedEvent("06_x"), *redo[:upto]], ITEMS).lesson("06_x") == score
        )


def test_an_earliest_answer_given_as_a_retry_is_not_right_at_the_first_try() -> None:
    # after a reset, an open page's "missed questions again": the learner had seen the answer
    events = [quiz("06_x", "q1", False), ResetEvent(), quiz("06_x", "q1", True, first_try=False)]
    assert Summary.of(events, ITEMS).lesson("06_x") == LessonResult(items=3, answered=1, right=0)


def test_practice_counts_first_tries_per_topic() -> None:
    events = [
        practice(Topic.SCORE, False),
        practice(Topic.SCORE, True, first_try=False),
        practice(Topic.SCORE, True),
        practice(Topic.JESTER_LEAD, False),
    ]
    summary = Summary.of(events, ITEMS)
    assert summary.count(Topic.SCORE) == TopicCount(right=1, wrong=1)
    assert summary.practice == TopicCount(right=1, wrong=2)


def test_a_reset_forgets_everything_before_it_and_nothing_after() -> None:
    events = [
        quiz("06_x", "q1", True),
        practice(Topic.SCORE, True),
        ResetEvent(),
        quiz("07_y", "q1", False),
    ]
    summary = Summary.of(events, ITEMS)
    assert summary.lesson("06_x").answered == 0 and summary.practice.answered == 0
    assert summary.lesson("07_y").done and summary.last_activity == "07_y"


def test_a_page_without_a_quiz_is_done_once_finished() -> None:
    assert not Summary.of([], ITEMS).done("08_worked")
    summary = Summary.of([FinishedEvent("08_worked")], ITEMS)
    assert summary.done("08_worked") and summary.last_activity == "08_worked"
    assert not Summary.of([FinishedEvent("08_worked"), ResetEvent()], ITEMS).done("08_worked")
    # a lesson's quiz decides for itself: a finished page with a question unanswered is not done
    assert not Summary.of([quiz("06_x", "q1", True), FinishedEvent("06_x")], ITEMS).done("06_x")


def test_a_stepped_page_opens_at_the_latest_step_reached_since_the_last_reset() -> None:
    moves = [StepEvent("08_w", 4, 21), StepEvent("08_w", 9, 21), StepEvent("08_w", 7, 21)]
    summary = Summary.of([*moves, quiz("06_x", "q1", True)], ITEMS)
    assert summary.open_at("08_w", 21) == 6  # step 7, the latest (Back counts too)
    assert summary.open_at("09_other", 21) == 0  # never moved there: the first step
    assert summary.open_at("08_w", 20) == 0  # its steps changed since: the first step
    assert Summary.of([*moves, ResetEvent()], ITEMS).open_at("08_w", 21) == 0
    # where the learner is on a page is not a result: nothing is done or scored by it
    last = Summary.of([StepEvent("08_w", 21, 21)], ITEMS)
    assert not last.done("08_w") and last.first_tries == {} and last.topics == {}


COURSE = ["01_a", "02_b", "03_worked", PRACTICE, "05_c"]
COURSE_ITEMS = {"01_a": ["q1"], "02_b": ["q1", "q2"], "05_c": ["q1"]}
ALL_DONE = [
    quiz("01_a", "q1", True),
    quiz("02_b", "q1", True),
    quiz("02_b", "q2", True),
    FinishedEvent("03_worked"),
    *[practice(Topic.SCORE, True)] * PRACTICE_GOAL,
    quiz("05_c", "q1", True),
]


@pytest.mark.parametrize(
    "events, expected",
    [
        ([], "01_a"),  # a new learner starts at the beginning
        ([quiz("02_b", "q1", True)], "02_b"),  # left in the middle of a quiz: back there
        ([quiz("01_a", "q1", True)], "02_b"),  # finished a lesson: the next one
        ([quiz("02_b", "q1", True), quiz("02_b", "q2", False)], "03_worked"),  # a page with no quiz
        ([FinishedEvent("03_worked")], PRACTICE),  # the worked example's end: the next page
        ([practice(Topic.SCORE, True)], PRACTICE),  # practice is not done after one answer
        ([practice(Topic.SCORE, True)] * PRACTICE_GOAL, "05_c"),
        ([practice(Topic.SCORE, True)] * (PRACTICE_GOAL + 1), PRACTICE),  # practising on
        ([quiz("05_c", "q1", True)], "01_a"),  # after the last page: the first not done
        (ALL_DONE, None),  # every page done
        ([quiz("05_c", "q1", True), ResetEvent()], "01_a"),  # after a reset: from the start
        ([FinishedEvent("99_elsewhere")], "01_a"),  # a page of another course
        ([FinishedEvent("03_worked"), StepEvent("03_worked", 5, 21)], "03_worked"),  # back in it
        ([StepEvent("03_worked", 21, 21)], PRACTICE),  # its last step: the next page
    ],
)
def test_continue_goes_to_the_page_of_the_latest_event_or_after_it_once_completed(
    events: list[AnswerEvent], expected: str | None
) -> None:
    assert Summary.of(events, COURSE_ITEMS).continue_at(COURSE) == expected


def test_the_last_step_of_a_stepped_page_with_a_quiz_leaves_its_quiz_to_do() -> None:
    """Issue 31: the worked example ends with a quiz. Its last step is not the end of the
    page: Continue stays there until the quiz is answered through."""
    items = {**COURSE_ITEMS, "03_worked": ["q1", "q2"]}
    at_end = Summary.of([StepEvent("03_worked", 21, 21)], items)
    assert not at_end.last_completed and at_end.continue_at(COURSE) == "03_worked"
    answered = [StepEvent("03_worked", 21, 21), quiz("03_worked", "q1", True)]
    answered.append(quiz("03_worked", "q2", False))
    assert Summary.of(answered, items).continue_at(COURSE) == PRACTICE


def test_continue_after_redoing_lesson_1_halfway_goes_back_to_lesson_1() -> None:
    # lessons 1 and 2 done, then lesson 1 redone in another language, left halfway: the
    # learner last worked in lesson 1, not on the worked example nobody finished yet
    events = [
        quiz("01_a", "q1", True),
        FinishedEvent("01_a"),
        quiz("02_b", "q1", True),
        quiz("02_b", "q2", True),
        FinishedEvent("02_b"),
        quiz("01_a", "q1", False),
    ]
    assert Summary.of(events, COURSE_ITEMS).continue_at(COURSE) == "01_a"
    finished_again = Summary.of([*events, FinishedEvent("01_a")], COURSE_ITEMS)
    assert finished_again.continue_at(COURSE) == "02_b"


# -- the progress file ----------------------------------------------------------------------------


def test_progress_path_comes_from_the_environment_or_the_home_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, progress_in_tmp: Path
) -> None:
    assert default_progress_path() == progress_in_tmp
    monkeypatch.delenv(PROGRESS_FILE_VARIABLE)
    assert default_progress_path() == tmp_path / "home" / ".wizard-tutor" / "progress.jsonl"


def test_a_missing_file_is_empty_progress_and_reading_writes_nothing(progress_in_tmp: Path) -> None:
    progress = Progress(FileStore())
    assert progress.state is ProgressState.READY and progress.events == []
    assert not progress_in_tmp.parent.exists()


def test_answers_are_appended_one_line_each_private_to_the_learner(progress_in_tmp: Path) -> None:
    progress = Progress(FileStore())
    progress.record_answer(AnswerSource.PRACTICE, topic=Topic.SCORE, correct=True)
    progress.record_answer(
        AnswerSource.QUIZ, topic="trick-winner", correct=False, lesson="06_x", item="q1"
    )
    lines = progress_in_tmp.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["kind"] for line in lines] == ["practice", "quiz"]
    assert stat.S_IMODE(progress_in_tmp.stat().st_mode) == 0o600
    assert stat.S_IMODE(progress_in_tmp.parent.stat().st_mode) == 0o700
    again = Progress(FileStore())
    assert again.count(Topic.SCORE) == TopicCount(right=1) and len(again.events) == 2


def test_a_store_written_before_step_events_still_loads_and_takes_them(
    progress_in_tmp: Path,
) -> None:
    # lines as tutors of versions 1 and 2 wrote them (no step event was known then)
    old = [
        {**quiz("06_x", "q1", True).to_json(), "v": 1},
        {**FinishedEvent("08_worked_example").to_json(), "v": 2},
    ]
    progress_in_tmp.parent.mkdir(parents=True)
    progress_in_tmp.write_text("".join(json.dumps(line) + "\n" for line in old), "utf-8")
    progress = Progress(FileStore())
    assert progress.state is ProgressState.READY and len(progress.events) == 2
    assert progress.summary().open_at("08_worked_example", 21) == 0  # no place: step 1
    progress.record_step("08_worked_example", 6, 21)
    again = Progress(FileStore())  # what the page finds when it is opened again
    assert again.summary().open_at("08_worked_example", 21) == 5
    assert again.summary(ITEMS).lesson("06_x").right == 1  # the old answers count as before
    assert progress_in_tmp.read_text("utf-8").startswith(json.dumps(old[0]) + "\n")


def test_a_malformed_step_line_is_reported_at_its_line_and_nothing_is_written(
    progress_in_tmp: Path,
) -> None:
    good = json.dumps(quiz("06_x", "q1", True).to_json())
    bad = json.dumps({**StepEvent("08_worked_example", 5, 21).to_json(), "step": 99})
    progress_in_tmp.parent.mkdir(parents=True)
    progress_in_tmp.write_text(f"{good}\n{bad}\n", "utf-8")
    before = progress_in_tmp.read_bytes()
    progress = Progress(FileStore())
    assert progress.state is ProgressState.BROKEN and progress.problem is not None
    assert progress.problem.line == 2 and "'step' is 99" in str(progress.problem)
    progress.record_step("08_worked_example", 6, 21)  # the page still counts it, the file not
    assert progress_in_tmp.read_bytes() == before
    assert progress.summary().open_at("08_worked_example", 21) == 5


def test_a_reset_is_an_event_so_a_second_page_cannot_bring_answers_back(
    progress_in_tmp: Path,
) -> None:
    first, second = Progress(FileStore()), Progress(FileStore())
    first.record_answer(AnswerSource.PRACTICE, topic=Topic.SCORE, correct=True)
    second.reset()
    second.record_answer(AnswerSource.PRACTICE, topic=Topic.SCORE, correct=False)
    first.reload()
    assert first.count(Topic.SCORE) == TopicCount(wrong=1)
    assert [json.loads(line)["kind"] for line in progress_in_tmp.read_text().splitlines()] == [
        "practice",
        "reset",
        "practice",
    ]


def _append_answers(path: str, count: int, start: multiprocessing.synchronize.Event) -> None:
    store = FileStore(path)
    start.wait()
    for _ in range(count):
        store.append(AnswerEvent(AnswerSource.PRACTICE, "score", True, True))


def test_two_writers_appending_at_once_both_count(progress_in_tmp: Path) -> None:
    context = multiprocessing.get_context("spawn")
    start = context.Event()
    writers = [
        context.Process(target=_append_answers, args=(str(progress_in_tmp), 200, start))
        for _ in range(2)
    ]
    for writer in writers:
        writer.start()
    start.set()
    for writer in writers:
        writer.join(timeout=120)
        assert writer.exitcode == 0
    events = FileStore(progress_in_tmp).load()
    assert events is not None and len(events) == 400 and len({event.id for event in events}) == 400


def _bad_file(path: Path, kind: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    good = json.dumps(practice(Topic.SCORE, True).to_json())
    if kind == "invalid UTF-8":
        path.write_bytes(good.encode() + b"\n" + b'{"v": 1, "id": "\xff\xfe"}\n')
    elif kind == "a huge number":
        path.write_text(good + "\n" + '{"v": ' + "9" * 5000 + "}\n")
    elif kind == "deep nesting":
        path.write_text(good + "\n" + "[" * 100_000 + "]" * 100_000 + "\n")
    elif kind == "deep nesting, short":
        path.write_text(good + "\n" + "[" * 2000 + "]" * 2000 + "\n")
    elif kind == "NaN":
        path.write_text(good + "\n" + good.replace("true", "NaN", 1) + "\n")
    elif kind == "not JSON":
        path.write_text(good + "\n" + "{'v': 1}\n")
    elif kind == "not an event":
        path.write_text(good + "\n" + '"hello"\n')
    elif kind == "a folder in its place":
        path.mkdir()
    elif kind == "a newer tutor's event":
        path.write_text(
            good + "\n" + good.replace('"v":', f'"v": {EVENT_VERSION + 1}, "old":') + "\n"
        )
    else:
        raise AssertionError(kind)


BAD_FILES = {
    "invalid UTF-8": (StoreProblem.NOT_UTF8, 2),
    "a huge number": (StoreProblem.DAMAGED, 2),
    "deep nesting": (StoreProblem.DAMAGED, 2),
    "deep nesting, short": (StoreProblem.DAMAGED, 2),
    "NaN": (StoreProblem.DAMAGED, 2),
    "not JSON": (StoreProblem.DAMAGED, 2),
    "not an event": (StoreProblem.DAMAGED, 2),
    "a folder in its place": (StoreProblem.FOLDER, None),
    "a newer tutor's event": (StoreProblem.NEWER, 2),
}


@pytest.mark.parametrize("kind", BAD_FILES)
def test_every_kind_of_bad_file_is_the_tutors_own_error_naming_the_file(
    progress_in_tmp: Path, kind: str
) -> None:
    _bad_file(progress_in_tmp, kind)
    problem, line = BAD_FILES[kind]
    with pytest.raises(ProgressStoreError) as caught:
        FileStore().load()
    error = caught.value
    assert (error.problem, error.line) == (problem, line)
    assert str(progress_in_tmp) in str(error)
    for lang in LANGUAGES:  # what the learner reads names the file, in their language
        assert str(progress_in_tmp) in error.message(lang)
        if line is not None:
            assert str(line) in error.message(lang)


@pytest.mark.parametrize("kind", ["invalid UTF-8", "a folder in its place"])
def test_a_broken_file_is_never_overwritten_and_starting_afresh_keeps_it_aside(
    progress_in_tmp: Path, kind: str
) -> None:
    _bad_file(progress_in_tmp, kind)
    progress = Progress(FileStore())
    assert progress.state is ProgressState.BROKEN and progress.problem is not None
    progress.record_answer(AnswerSource.PRACTICE, topic=Topic.SCORE, correct=False)
    assert progress.count(Topic.SCORE) == TopicCount(wrong=1)  # this page still counts it
    aside = progress.start_afresh()
    assert (
        aside is not None
        and Path(aside).exists()
        and Path(aside).name.startswith("progress.jsonl.broken-")
    )
    assert progress.state is ProgressState.READY
    assert [event.kind for event in FileStore().load() or []] == [AnswerSource.PRACTICE]


def test_an_unreadable_file_is_reported(
    progress_in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _bad_file(progress_in_tmp, "not JSON")

    def refuse(self: Path, *args: object, **kwargs: object) -> object:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "open", refuse)
    with pytest.raises(ProgressStoreError) as caught:
        FileStore().load()
    assert (
        caught.value.problem is StoreProblem.UNREADABLE
        and str(progress_in_tmp) in caught.value.message()
    )


def test_a_failed_write_is_said_and_the_answer_still_counts_on_the_page(
    progress_in_tmp: Path, full_disk: Callable[[], AbstractContextManager[None]]
) -> None:
    progress = Progress(FileStore())
    with full_disk():
        progress.record_answer(AnswerSource.PRACTICE, topic=Topic.SCORE, correct=True)
    assert progress.write_problem is not None
    assert progress.write_problem.problem is StoreProblem.UNWRITABLE
    assert str(progress_in_tmp) in progress.write_problem.message("ja")
    assert progress.count(Topic.SCORE) == TopicCount(right=1)
    progress.record_answer(AnswerSource.PRACTICE, topic=Topic.SCORE, correct=False)
    assert progress.write_problem is None
    # The answer that could not be written went with the next one: none is lost.
    assert [event.correct for event in FileStore().load() or []] == [True, False]


def test_a_line_cut_short_by_a_crash_stays_on_its_own_line_and_is_reported(
    progress_in_tmp: Path,
) -> None:
    store = FileStore()
    store.append(practice(Topic.SCORE, True))
    with progress_in_tmp.open("ab") as stream:
        stream.write(b'{"v": 1, "id": "ab')  # the crash
    store.append(practice(Topic.SCORE, False))
    with pytest.raises(ProgressStoreError) as caught:
        store.load()
    assert (caught.value.problem, caught.value.line) == (StoreProblem.DAMAGED, 2)
    assert len(progress_in_tmp.read_text().splitlines()) == 3


def test_a_line_longer_than_any_event_is_not_parsed() -> None:
    with pytest.raises(ProgressStoreError, match="a line of 5001 bytes"):
        parse_lines(b"[" * 5001 + b"\n", "p.jsonl")


# -- choosing the store ----------------------------------------------------------------------------


def test_the_store_setting_is_browser_file_or_unset() -> None:
    assert store_setting({}) is None
    assert store_setting({"TUTOR_PROGRESS_STORE": " Browser "}) is StoreSetting.BROWSER
    with pytest.raises(UnknownStoreError, match="'browser', 'file'"):
        store_setting({"TUTOR_PROGRESS_STORE": "disk"})


def test_memory_progress_writes_no_file(tmp_path: Path) -> None:
    progress = Progress(MemoryStore())
    progress.record_answer(AnswerSource.PRACTICE, topic=Topic.SCORE, correct=True)
    assert progress.count(Topic.SCORE) == TopicCount(right=1)
    assert not any(tmp_path.rglob("*.jsonl"))
