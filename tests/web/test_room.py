"""The live room without HTTP: learners, answers, counts, the summary, and the SQLite file a
restarted server continues from (tutor/web/room*.py)."""

from __future__ import annotations

import codecs
import csv
import io
import json
import os
import stat
from pathlib import Path

import pytest
from sqlalchemy import update

from tutor.teaching.explain import unbroken
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.quiz import AnswerKind
from tutor.teaching.text import LANGUAGES, text
from tutor.web.room import Room
from tutor.web.room_checks import (
    ANSWER_LIMIT,
    CODE_LETTERS,
    NICKNAME_LENGTH,
    RoomError,
    clean_nickname,
)
from tutor.web.room_store import (
    ROOM_DB_VARIABLE,
    ClassroomKeys,
    RoomStore,
    RoomStoreError,
    default_room_db,
    rooms,
)

ONE = ("06_trick_winner", "quiz-trump-led")
MANY = ("04_follow_suit", "quiz-follow-green")
NUMBER = ("07_scoring", "quiz-bid-one-met")


def engine_answer(lesson: str, item: str) -> object:
    """The right answer as the API writes it, from the engine (an index, indices, a number)."""
    question = load_lesson(lesson).item(item).question
    if question.answer_kind is AnswerKind.NUMBER:
        return question.correct_answer()
    right = [i for i, choice in enumerate(question.choices()) if question.is_right_choice(choice)]
    return right[0] if question.answer_kind is AnswerKind.ONE_CHOICE else right


def a_wrong_index(lesson: str, item: str) -> int:
    question = load_lesson(lesson).item(item).question
    return next(
        i for i, choice in enumerate(question.choices()) if not question.is_right_choice(choice)
    )


def key(question: tuple[str, str]) -> str:
    return "/".join(question)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "room.sqlite3"


@pytest.fixture
def room(db: Path) -> Room:
    return Room(RoomStore.open_file(db), join="http://192.0.2.1:8866")


def test_a_new_room_has_a_code_of_four_unmistakable_letters(room: Room) -> None:
    assert len(room.code) == 4 and set(room.code) <= set(CODE_LETTERS)
    assert not set(room.code) & set("OIL0158SBGZQ")
    assert room.join == f"http://192.0.2.1:8866/room/{room.code}"
    assert room.phase == "waiting" and room.current is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_join_address_of_this_machine_only_is_said_on_the_projector_with_its_fix(
    db: Path, lang: str
) -> None:
    """The app with no network address the room can reach joins on 127.0.0.1: the
    projector's state says phones cannot reach it and how to fix it; a reachable one says
    nothing."""
    reachable = Room(RoomStore.open_file(db), join="http://192.0.2.1:8866")
    assert reachable.teacher_state(lang)["join_warning"] is None
    for local in ("http://127.0.0.1:8866", "http://localhost:8866", "http://[::1]:8866"):
        warning = Room(RoomStore.open_file(db), join=local).teacher_state(lang)["join_warning"]
        assert warning is not None, local
        assert text("projector.join-local", lang) in warning
        assert text("projector.join-fix-app", lang, option="--classroom") in warning


def test_answers_are_counted_once_per_learner_and_may_change_until_the_reveal(room: Room) -> None:
    right, wrong = engine_answer(*ONE), a_wrong_index(*ONE)
    room.open(*ONE)
    aiko, ben, chen = (room.add_learner(name) for name in ("Aiko", "Ben", ""))
    assert room.answer(aiko.key, key(ONE), wrong) == (wrong, True)
    assert room.answer(ben.key, key(ONE), right) == (right, True)
    assert room.answer(aiko.key, key(ONE), right) == (right, False)  # changed her mind
    counts = room.counts("en")
    assert counts["answered"] == 2 and counts["right"] == 2
    assert counts["counts"] == [
        {"answer": right, "label": counts["counts"][0]["label"], "count": 2, "right": True}
    ]
    assert counts["choice_counts"][right] == 2 and sum(counts["choice_counts"]) == 2
    room.reveal()
    with pytest.raises(RoomError) as refused:
        room.answer(chen.key, key(ONE), right)
    assert (refused.value.status, refused.value.code) == (409, "not-open")
    assert room.counts("en")["answered"] == 2
    room.reopen()
    room.answer(chen.key, key(ONE), wrong)
    assert room.counts("en")["answered"] == 3


def test_every_answer_kind_is_read_and_graded_by_the_engine(room: Room) -> None:
    learner = room.add_learner(None)
    room.open(*MANY)
    right = engine_answer(*MANY)
    assert isinstance(right, list)
    assert room.answer(learner.key, key(MANY), list(reversed(right)))[0] == sorted(right)
    assert room.counts("en")["right"] == 1
    room.open(*NUMBER)
    points = engine_answer(*NUMBER)
    assert room.answer(learner.key, key(NUMBER), str(points))[0] == points  # typed text
    assert room.counts("en")["right"] == 1
    room.answer(learner.key, key(NUMBER), points + 10)
    assert room.counts("en")["right"] == 0
    # nobody gave the right number: the projector still has it to mark, in words
    assert room.teacher_state("en")["question"]["right_label"] == str(points)
    assert not any(entry["right"] for entry in room.counts("en")["counts"])


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (ONE, 99),
        (ONE, -1),
        (ONE, True),
        (ONE, "1"),
        (ONE, [1]),
        (MANY, [0, 0]),
        (MANY, [0, 99]),
        (MANY, 0),
        (NUMBER, "ten"),
        (NUMBER, 10**12),
        (NUMBER, 1.5),
        (NUMBER, None),
    ],
)
def test_a_malformed_answer_is_refused_and_changes_nothing(
    room: Room, question: tuple[str, str], answer: object
) -> None:
    learner = room.add_learner("Aiko")
    room.open(*question)
    version = room.version
    with pytest.raises(RoomError) as refused:
        room.answer(learner.key, key(question), answer)
    assert (refused.value.status, refused.value.code) == (400, "bad-field")
    assert json.dumps(answer)[:3] in refused.value.message  # named as the request wrote it
    assert room.counts("en")["answered"] == 0 and room.version == version


def test_an_answer_to_another_question_or_from_an_unknown_learner_is_refused(room: Room) -> None:
    learner = room.add_learner("Aiko")
    with pytest.raises(RoomError) as refused:
        room.answer(learner.key, key(ONE), 0)  # nothing open yet
    assert refused.value.code == "not-open"
    room.open(*ONE)
    with pytest.raises(RoomError) as refused:
        room.answer(learner.key, key(MANY), [0])  # a question that is not the open one
    assert refused.value.code == "not-open"
    with pytest.raises(RoomError) as refused:
        room.answer("not-a-learner-key", key(ONE), 0)
    assert (refused.value.status, refused.value.code) == (403, "unknown-learner")
    assert room.counts("en")["answered"] == 0


def test_answers_are_rate_limited_per_learner(room: Room) -> None:
    count, _seconds = ANSWER_LIMIT
    room.open(*ONE)
    busy, calm = room.add_learner("busy"), room.add_learner("calm")
    for turn in range(count):
        room.answer(busy.key, key(ONE), turn % 2)
    with pytest.raises(RoomError) as refused:
        room.answer(busy.key, key(ONE), 2)
    assert (refused.value.status, refused.value.code) == (429, "too-many")
    assert refused.value.retry_after >= 1
    assert room.answers[key(ONE)][busy.key][0] == (count - 1) % 2  # the refused one not kept
    room.answer(calm.key, key(ONE), 2)  # another learner is not slowed down
    assert room.counts("en")["answered"] == 2


def test_nicknames_are_kept_as_text_and_limited_in_length() -> None:
    assert clean_nickname("  <b>Aiko</b>\n\t x ") == "<b>Aiko</b> x"
    assert clean_nickname(None) == ""
    assert clean_nickname("a\u202eb\x00c") == "a b c"  # no control or direction characters
    assert clean_nickname("é" * NICKNAME_LENGTH) == "é" * NICKNAME_LENGTH
    with pytest.raises(RoomError, match=f"at most {NICKNAME_LENGTH}"):
        clean_nickname("x" * (NICKNAME_LENGTH + 1))
    with pytest.raises(RoomError, match="must be text"):
        clean_nickname(12)


@pytest.mark.parametrize(
    ("lesson", "item", "status"),
    [
        ("../../etc/passwd", "x", 400),
        ("06_trick_winner.toml", "x", 400),
        ("06", "quiz-trump-led", 400),  # the id, not a shorthand
        ("99_no_such_lesson", "x", 404),
        ("06_trick_winner", "no-such-item", 404),
        ("01_cards_and_rounds", "deck-counts", 404),  # a fact, not a question
        ("06_trick_winner", 7, 400),
    ],
)
def test_opening_something_that_is_not_a_question_is_refused(
    room: Room, lesson: object, item: object, status: int
) -> None:
    with pytest.raises(RoomError) as refused:
        room.open(lesson, item)
    assert refused.value.status == status
    assert room.current is None and room.phase == "waiting"


def test_a_restarted_server_continues_the_room_with_every_answer(db: Path) -> None:
    first = Room(RoomStore.open_file(db))
    first.open(*ONE)
    learners = [first.add_learner(f"p{n}") for n in range(5)]
    for n, learner in enumerate(learners):
        first.answer(learner.key, key(ONE), n % 3)
    first.answer(learners[0].key, key(ONE), 3)  # a change before the restart
    before = first.counts("en")
    first.store.close()  # the server stops (or is killed: every answer was committed)

    again = Room(RoomStore.open_file(db))
    assert again.continued and again.code == first.code
    assert (again.current, again.phase) == (key(ONE), "open")
    assert again.counts("en") == before
    assert set(again.learners) == {learner.key for learner in learners}
    again.answer(learners[1].key, key(ONE), 3)  # learners keep their keys
    assert again.counts("en")["answered"] == 5
    # the first answers survive too: learner 0 first answered 0, then 3
    assert again.answers[key(ONE)][learners[0].key] == (3, 0)


def test_an_old_room_is_not_continued(db: Path) -> None:
    store = RoomStore.open_file(db)
    first = Room(store)
    with store.engine.begin() as write:  # last used 13 hours ago
        write.execute(update(rooms).values(used=rooms.c.used - 13 * 3600))
    again = Room(RoomStore.open_file(db))
    assert not again.continued and again.code != first.code


def test_the_summary_counts_right_first_answers_and_the_most_chosen_wrong_one(room: Room) -> None:
    right, wrong = engine_answer(*ONE), a_wrong_index(*ONE)
    room.open(*ONE)
    learners = [room.add_learner(f"p{n}") for n in range(4)]
    room.answer(learners[0].key, key(ONE), right)
    room.answer(learners[1].key, key(ONE), wrong)
    room.answer(learners[1].key, key(ONE), right)  # right in the end, not at first
    room.answer(learners[2].key, key(ONE), wrong)
    room.open(*NUMBER)
    room.close()
    rows = room.summary("en")
    assert [(row["lesson"], row["item"]) for row in rows] == [ONE, NUMBER]
    assert rows[0]["answered"] == 3 and rows[0]["right_first"] == 1
    wrong_label = (
        load_lesson(ONE[0])
        .item(ONE[1])
        .question.choice_label(load_lesson(ONE[0]).item(ONE[1]).question.choices()[wrong], "en")
    )
    assert (rows[0]["most_chosen_wrong"], rows[0]["most_chosen_wrong_count"]) == (wrong_label, 1)
    assert rows[1]["answered"] == 0 and rows[1]["most_chosen_wrong"] == ""
    # The file a spreadsheet opens by double-click: UTF-8 marked as such (a byte-order
    # mark), else Excel reads the Japanese in the system's legacy code page.
    data = room.summary_csv("ja")
    assert data.startswith(codecs.BOM_UTF8) and not data.startswith(codecs.BOM_UTF8 * 2)
    table = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert [row["item"] for row in table] == [ONE[1], NUMBER[1]]
    assert table[0]["right_first"] == "1" and table[0]["answered"] == "3"
    assert table[0]["question"] == load_lesson(ONE[0]).item(ONE[1]).question.prompt("ja")


def test_the_learner_sees_the_answer_and_the_counts_only_after_the_reveal(room: Room) -> None:
    right, wrong = engine_answer(*ONE), a_wrong_index(*ONE)
    room.open(*ONE)
    aiko, ben = room.add_learner("Aiko"), room.add_learner("Ben")
    room.answer(aiko.key, key(ONE), wrong)
    state = room.learner_state(aiko.key, "zh-Hant")
    assert state["my_answer"] == wrong and state["reveal"] is None
    assert "right" not in str(state["question"]["choices"])  # nothing gives the answer away
    question = load_lesson(ONE[0]).item(ONE[1]).question
    assert state["question"]["prompt"] == question.prompt("zh-Hant")
    assert all(choice["card"].startswith("<svg") for choice in state["question"]["choices"])
    room.show_counts(False)
    room.reveal()
    revealed = room.learner_state(aiko.key, "en")["reveal"]
    assert revealed["right_answer"] == right and revealed["correct"] is False
    assert "counts" not in revealed
    room.show_counts(True)
    revealed = room.learner_state(ben.key, "en")["reveal"]
    assert revealed["correct"] is None and revealed["answered"] == 1  # Ben did not answer


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_learner_gets_the_engines_why_right_wrong_or_silent(room: Room, lang: str) -> None:
    """Seen: a right learner got no reason at all, and a learner who did not answer got the
    reasons as "- ..." run into one paragraph."""
    room.open(*MANY)
    right, wrong, silent = (room.add_learner(name) for name in ("Aiko", "Ben", "Chen"))
    room.answer(right.key, key(MANY), engine_answer(*MANY))
    room.answer(wrong.key, key(MANY), [a_wrong_index(*MANY)])
    room.reveal()
    seen = {
        learner.nickname: room.learner_state(learner.key, lang)["reveal"]
        for learner in (right, wrong, silent)
    }
    assert [seen[name]["correct"] for name in ("Aiko", "Ben", "Chen")] == [True, False, None]
    question = load_lesson(MANY[0]).item(MANY[1]).question
    why = question.check(question.correct_answer(), lang)
    assert why.details  # the engine has reasons for this hand
    for name in ("Aiko", "Chen"):
        # the engine's words, each card's name kept whole on a narrow phone
        assert seen[name]["answer"] == unbroken(why.answer)
        assert seen[name]["reasons"] == [unbroken(reason) for reason in why.details]
    assert seen["Ben"]["reasons"]  # the reasons for the cards he got wrong
    for reveal in seen.values():
        words = [reveal["answer"], reveal["explanation"], *reveal["reasons"]]
        assert not any(line.lstrip().startswith("- ") or "\n" in line for line in words)


def test_the_rooms_file_is_chosen_by_the_environment_and_a_bad_one_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ROOM_DB_VARIABLE, str(tmp_path / "lesson.sqlite3"))
    assert default_room_db() == tmp_path / "lesson.sqlite3"
    monkeypatch.delenv(ROOM_DB_VARIABLE)
    assert default_room_db() == Path.home() / ".wizard-tutor" / "live-room.sqlite3"
    not_a_db = tmp_path / "notes.sqlite3"
    not_a_db.write_text("these are a teacher's notes, not a database\n" * 100)
    before = not_a_db.read_bytes()
    with pytest.raises(RoomStoreError, match=r"notes\.sqlite3.* as a database.*--room-db FILE"):
        RoomStore.open_file(not_a_db)
    assert not_a_db.read_bytes() == before  # left as it was


def test_the_classroom_keys_are_kept_with_the_rooms_file_until_new_ones_are_asked_for(
    db: Path,
) -> None:
    first = RoomStore.open_file(db)
    made = first.classroom_keys()
    first.close()  # the app stops

    again = RoomStore.open_file(db)
    assert again.classroom_keys() == made  # a restart: the same token, key and secret
    renewed = again.classroom_keys(renew=True)  # --new-token
    assert renewed.token != made.token and renewed.teacher != made.teacher
    assert renewed.cookie_secret != made.cookie_secret
    assert again.classroom_keys() == renewed  # and those are kept from now on
    again.close()
    other = RoomStore.open_file(db.with_name("another-room.sqlite3"))
    assert other.classroom_keys().token != renewed.token  # another file, other keys
    assert made.token not in repr(made) and "secret" in repr(made)


def test_the_rooms_file_is_its_owners_only_as_it_keeps_the_keys(tmp_path: Path) -> None:
    new = tmp_path / "new" / "room.sqlite3"
    store = RoomStore.open_file(new)
    store.classroom_keys()
    store.add_room("ACDE")  # the WAL and its index are made beside the file
    made = [Path(f"{new}{suffix}") for suffix in ("", "-wal", "-shm")]
    assert all(path.exists() for path in made)
    assert [stat.S_IMODE(path.stat().st_mode) for path in made] == [0o600] * 3
    assert stat.S_IMODE(new.parent.stat().st_mode) == 0o700
    store.close()

    old = tmp_path / "old.sqlite3"  # made by an older version, readable by everyone
    RoomStore.open_file(old).close()
    os.chmod(old, 0o644)
    RoomStore.open_file(old).close()
    assert stat.S_IMODE(old.stat().st_mode) == 0o600

    notes = tmp_path / "notes.sqlite3"  # not a room's file: refused, left as it was
    notes.write_text("a teacher's notes\n" * 100)
    os.chmod(notes, 0o644)
    with pytest.raises(RoomStoreError):
        RoomStore.open_file(notes)
    assert stat.S_IMODE(notes.stat().st_mode) == 0o644


def test_the_kept_keys_are_secrets_of_their_own() -> None:
    keys = [ClassroomKeys.made_now() for _ in range(2)]
    assert keys[0] != keys[1]
    assert len(keys[0].token) >= 32 and len(keys[0].cookie_secret) == 32
    assert keys[0].token != keys[0].teacher
