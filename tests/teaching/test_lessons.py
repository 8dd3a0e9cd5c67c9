"""Lessons: every example and quiz item is checked by the engine when loaded, a wrong or
malformed item is refused with a message naming the file, the item and the problem, the
quizzes cover every rule, and loading them needs no screen (showing them is
tests/display/test_lesson_view.py). The questions about rounds and bidding
(tutor.teaching.round_quiz) are checked here too."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from lesson_files import TITLED, lesson_file
from lesson_files import refusal as refusal_of

from tutor.errors import IllegalBidError, InvalidDealError
from tutor.rules.schedule import GameLength, cards_per_round
from tutor.rules.scoring import round_score
from tutor.rules.trick import PlayRule, WinRule, explain_trick, judge_play, legal_plays
from tutor.rules.trump import RevealRule, reveal_trump
from tutor.rules.variants import Bidding
from tutor.teaching.explain import card_name
from tutor.teaching.lesson import ItemRole, Lesson, LessonError, ScheduleTableFact
from tutor.teaching.lesson_loader import (
    LESSONS_DIR_VARIABLE,
    item_kinds,
    lesson_paths,
    lessons_dir,
    list_lessons,
    load_lesson,
    load_lesson_file,
)
from tutor.teaching.quiz import (
    LegalPlaysQuestion,
    ScoreQuestion,
    Topic,
    TrickWinnerQuestion,
    TrumpChoiceQuestion,
    TrumpQuestion,
)
from tutor.teaching.round_quiz import (
    BidTime,
    BidVisibilityQuestion,
    DealerQuestion,
    FirstBidderQuestion,
    LegalBidsQuestion,
    ScheduleAsk,
    ScheduleQuestion,
)
from tutor.teaching.text import LANGUAGES

COURSE_ORDER = [
    "01_cards_and_rounds",
    "02_trump",
    "03_bidding",
    "04_follow_suit",
    "05_jester_leads",
    "06_trick_winner",
    "07_scoring",
    "08_worked_example",
    "09_practice",
    "10_variants",
]


@pytest.fixture(scope="module")
def lessons() -> list[Lesson]:
    return list_lessons()


# -- the course as shipped -----------------------------------------------------------------


def test_lessons_are_listed_in_course_order_with_title_and_summary(lessons: list[Lesson]) -> None:
    assert [lesson.id for lesson in lessons] == COURSE_ORDER
    assert [lesson.number for lesson in lessons] == list(range(1, 11))
    for lesson in lessons:
        assert lesson.title().strip() and lesson.summary().strip()


def test_every_lesson_with_a_quiz_notebook_has_examples_and_a_quiz(lessons: list[Lesson]) -> None:
    for lesson in lessons:
        if lesson.number in (8, 9):  # the worked example and practice have their own content
            continue
        assert lesson.examples, lesson.id
        assert len(lesson.quiz) >= 5, lesson.id


def test_every_quiz_item_is_a_question_the_engine_grades_right(lessons: list[Lesson]) -> None:
    graded = 0
    for lesson in lessons:
        for question in lesson.questions():
            right = question.correct_answer()
            feedback = question.check(right)
            assert feedback.correct, (lesson.id, question)
            # the answer in words; a right answer keeps its reasons (the room's phones show
            # them at the reveal), so details no longer come only with an explanation
            assert feedback.answer, (lesson.id, question)
            graded += 1
    assert graded >= 50


RULE_WORKED_LENGTHS = (GameLength.STANDARD, GameLength.FIVE)
"""Game lengths whose schedule a learner works out by a rule (60 ÷ players rounds, or five
rounds; round n deals n cards). The tournament's schedule is a table and nothing else: its
questions are read off the table its lesson shows (lesson 10)."""


def _tables_shown(lesson: Lesson) -> list[ScheduleTableFact]:
    return [item.subject for item in lesson.examples if isinstance(item.subject, ScheduleTableFact)]


def test_no_schedule_question_is_read_off_a_table_its_lesson_shows(lessons: list[Lesson]) -> None:
    """Issue 34: lesson 01 asked how many rounds 5 players play, under a table of the
    rounds for 3 to 6 players. A question the rule answers asks for a player count whose
    row no table of the lesson shows, so the learner applies the rule."""
    read_off = [
        (lesson.id, item.id, question.players)
        for lesson in lessons
        for item in lesson.quiz
        if isinstance(question := item.question, ScheduleQuestion)
        and question.length in RULE_WORKED_LENGTHS
        for table in _tables_shown(lesson)
        if table.length is question.length and question.players in table.players
    ]
    assert read_off == []
    asked = [
        question
        for question in load_lesson("01").questions()
        if isinstance(question, ScheduleQuestion)
    ]
    assert len(asked) >= 4  # lesson 01's schedule questions are all checked


def _engine_agrees(item_subject: object, stated_table: dict[str, Any]) -> None:
    """Recompute one stated fact directly with the engine's pure functions."""
    if isinstance(item_subject, TrickWinnerQuestion):
        winner = explain_trick(item_subject.plays, item_subject.trump).winner
        assert item_subject.names()[winner] == stated_table["winner"]
    elif isinstance(item_subject, LegalPlaysQuestion):
        engine = sorted(map(str, legal_plays(item_subject.hand, item_subject.plays)))
        assert engine == sorted(stated_table["legal"].split())
    elif isinstance(item_subject, ScoreQuestion):
        assert round_score(item_subject.bid, item_subject.taken) == stated_table["points"]


def test_stated_winners_legal_sets_and_scores_match_the_engine(lessons: list[Lesson]) -> None:
    import tomllib

    checked = 0
    for lesson in lessons:
        raw = tomllib.loads(lesson.path.read_text(encoding="utf-8"))
        tables = [t for s in raw.get("section", []) for t in s.get("example", [])]
        tables += raw.get("quiz", [])
        by_id = {table["id"]: table for table in tables}
        for item in lesson.items():
            _engine_agrees(item.subject, by_id[item.id])
            checked += 1
    assert checked == sum(len(lesson.items()) for lesson in lessons)


def test_quizzes_cover_every_rule(lessons: list[Lesson]) -> None:
    exercised: set[object] = set()
    for lesson in lessons:
        for q in lesson.questions():
            exercised.add(q.topic)
            if isinstance(q, TrickWinnerQuestion):
                exercised.add(explain_trick(q.plays, q.trump).rule)
                if q.trump is None:
                    exercised.add("no-trump-round")
            elif isinstance(q, LegalPlaysQuestion):
                exercised.update(judge_play(q.hand, q.plays, card).rule for card in q.hand)
            elif isinstance(q, ScoreQuestion):
                if q.bid == q.taken:
                    exercised.add("met-zero" if q.bid == 0 else "met")
                else:
                    exercised.add("too-many" if q.taken > q.bid else "too-few")
            elif isinstance(q, TrumpQuestion):
                exercised.add(reveal_trump(q.turned).rule)
                if q.players is not None:
                    exercised.update({"deal", q.length})
            elif isinstance(q, ScheduleQuestion):
                exercised.update({q.ask, q.length})
            elif isinstance(q, LegalBidsQuestion):
                last = len(q.bids) == q.players - 1
                exercised.add(("plus-minus-one" if q.plus_minus_one else "basic", last))
            elif isinstance(q, BidVisibilityQuestion):
                exercised.add(q.bidding)
            else:
                exercised.add(type(q).__name__)
    wanted: set[object] = {
        *WinRule,
        *(rule for rule in PlayRule if rule is not PlayRule.NOT_IN_HAND),
        *RevealRule,
        *ScheduleAsk,
        *GameLength,
        *Bidding,
        "met",
        "met-zero",
        "too-many",
        "too-few",
        "no-trump-round",
        ("basic", False),
        ("basic", True),
        ("plus-minus-one", True),
        ("plus-minus-one", False),
        "DealerQuestion",
        "FirstBidderQuestion",
        "TrumpChoiceQuestion",
        "deal",
        *Topic,
    }
    assert wanted - exercised == set()


def test_rules_md_small_cases_are_lesson_examples(lessons: list[Lesson]) -> None:
    plays = {
        " ".join(map(str, item.subject.plays))
        for lesson in lessons
        for item in lesson.examples
        if isinstance(item.subject, TrickWinnerQuestion)
    }
    legal_after = {
        " ".join(map(str, item.subject.plays))
        for lesson in lessons
        for item in lesson.examples
        if isinstance(item.subject, LegalPlaysQuestion)
    }
    assert "J J B6 B10" in plays  # D wins; C's blue 6 set blue
    assert "J W" in legal_after  # A Jester, B Wizard: C and D may play anything
    assert "W R13 W J" in plays  # A wins with the first Wizard
    assert "B6 W" in legal_after  # C and D must still follow blue


def test_worked_example_tricks_are_lesson_examples(lessons: list[Lesson]) -> None:
    tricks = {
        (
            " ".join(map(str, item.subject.plays)),
            item.subject.names()[item.subject.correct_answer()],
        )
        for lesson in lessons
        for item in lesson.examples
        if isinstance(item.subject, TrickWinnerQuestion)
    }
    assert {("J B5 B11 B7", "C"), ("R4 R12 R2 W", "B"), ("G3 J G10 G8", "D")} <= tricks


def test_every_lesson_text_exists_in_every_language(lessons: list[Lesson]) -> None:
    assert LANGUAGES == ("en", "ja", "zh-Hant")
    for lesson in lessons:
        pieces = list(lesson.texts())
        for lang in LANGUAGES:
            assert lesson.missing_texts(lang) == [], (lesson, lang)
            assert all(piece.translations[lang].strip() for piece in pieces)


def test_examples_print_the_engines_words(lessons: list[Lesson]) -> None:
    item = load_lesson("05").item("source-two-jesters")
    words = item.as_text()
    assert isinstance(item.subject, TrickWinnerQuestion)
    why = explain_trick(item.subject.plays, item.subject.trump)
    assert card_name(why.winning_card) in words
    assert "D takes the trick with blue 10" in words
    for lesson in lessons:
        facts = lesson.facts()
        assert facts.count("\n\n") == max(len(lesson.examples) - 1, 0)


# -- finding lessons -------------------------------------------------------------------------


def test_load_lesson_by_id_number_or_path() -> None:
    by_id = load_lesson("04_follow_suit")
    assert load_lesson("04").id == by_id.id
    assert load_lesson(lessons_dir() / "04_follow_suit.toml").id == by_id.id
    with pytest.raises(LessonError, match=r"unknown lesson '4_follow'; lessons: 01_cards"):
        load_lesson("4_follow")


def test_lessons_folder_is_found_from_any_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert lessons_dir().is_dir()
    assert load_lesson("01").number == 1


def test_lessons_folder_can_be_given_or_set_by_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "lessons"
    lesson_file(folder / "01_only.toml")
    assert [lesson.id for lesson in list_lessons(folder)] == ["01_only"]
    monkeypatch.setenv(LESSONS_DIR_VARIABLE, str(folder))
    assert [path.name for path in lesson_paths()] == ["01_only.toml"]
    monkeypatch.setenv(LESSONS_DIR_VARIABLE, str(tmp_path / "nowhere"))
    with pytest.raises(LessonError, match=r"no lessons folder at .*nowhere"):
        list_lessons()


def test_two_lessons_with_one_number_are_refused(tmp_path: Path) -> None:
    for name in ("03_a.toml", "03_b.toml"):
        lesson_file(tmp_path / name)
    with pytest.raises(LessonError) as refused:
        list_lessons(tmp_path)
    folder = tmp_path.name
    assert refused.value.problems == (
        f"{folder}/03_b.toml: lesson number 03 is also the number of {folder}/03_a.toml. No two "
        "lessons may share a number: the course lists its lessons in number order. The first "
        "free number is 04.",
    )


def test_a_lesson_file_is_read_once_per_version(tmp_path: Path) -> None:
    path = lesson_file(tmp_path / "05_x.toml")
    first = load_lesson_file(path)
    assert load_lesson_file(path) is first  # the same version: not read again
    path.write_text(TITLED.replace('"T"', '"Changed"'))
    assert load_lesson_file(path).title() == "Changed"  # a teacher's edit is read
    written = path.stat().st_mtime_ns
    path.write_text(TITLED.replace('"T"', '"U"'))  # the first's size, a second later
    os.utime(path, ns=(written + 10**9, written + 10**9))
    assert load_lesson_file(path).title() == "U"
    path.unlink()
    with pytest.raises(LessonError, match=r"05_x\.toml"):
        load_lesson_file(path)


# -- a teacher's mistakes are refused with file, item and problem ---------------------------


def write_lesson(folder: Path, body: str, name: str = "06_trick_winner.toml") -> Path:
    """A lesson file in ``folder``'s lessons folder: a title, a summary, then ``body``."""
    return lesson_file(folder / "lessons" / name, body)


def refusal(folder: Path, body: str, name: str = "06_trick_winner.toml") -> str:
    return refusal_of(write_lesson(folder, body, name))


def test_wrong_winner_is_refused_with_the_engines_winner_and_rule(tmp_path: Path) -> None:
    message = refusal(
        tmp_path,
        """
        [[quiz]]
        id = "jester-then-wizard"
        kind = "trick-winner"
        plays = "J W R13 J"
        trump = "none"
        winner = "C"
        """,
    )
    assert message == (
        "lessons/06_trick_winner.toml, quiz item 'jester-then-wizard': states winner 'C' "
        "but the engine says 'B' (first Wizard wins)"
    )


WRONG_FACTS = {
    "legal set": (
        """
        [[quiz]]
        id = "follow"
        kind = "legal-plays"
        hand = "B7 R12 W"
        played = "B5"
        trump = "R"
        legal = "B7 R12"
        """,
        "quiz item 'follow': states legal 'B7 R12' but the engine says 'B7 W' "
        "(R12: must-follow; W: wizard-any-time)",
    ),
    "score": (
        """
        [[quiz]]
        id = "missed"
        kind = "score"
        bid = 1
        taken = 3
        points = 20
        """,
        "quiz item 'missed': states points 20 but the engine says -20 (bid missed by 2)",
    ),
    "trump": (
        """
        [[quiz]]
        id = "wizard-turned"
        kind = "trump"
        turned = "W"
        trump = "none"
        """,
        "quiz item 'wizard-turned': states trump 'none' but the engine says 'dealer-chooses' "
        "(a turned Wizard lets the dealer choose)",
    ),
    "trump of the last round": (
        """
        [[quiz]]
        id = "last"
        kind = "trump"
        turned = "nothing"
        trump = "R"
        """,
        "states trump 'R' but the engine says 'none' (nothing left to turn means no trump)",
    ),
    "trump of a deal": (
        """
        [[quiz]]
        id = "last-deal"
        kind = "trump"
        players = 3
        round = 20
        trump = "B"
        """,
        "states trump 'B' but the engine says 'none' (nothing left to turn means no trump)",
    ),
    "a deal that leaves cards to turn": (
        """
        [[quiz]]
        id = "not-last"
        kind = "trump"
        players = 3
        round = 19
        trump = "none"
        """,
        "round 19 of the standard game with 3 players deals 57 of the 60 cards: the top "
        "card of the stock is turned (give turned=)",
    ),
    "the dealer's choice": (
        """
        [[quiz]]
        id = "choice"
        kind = "trump-choice"
        allowed = "Y R G B none"
        """,
        "states allowed 'Y R G B none' but the engine says 'B G R Y' (after a turned "
        "Wizard the dealer names one of the four suits)",
    ),
    "rounds": (
        """
        [[quiz]]
        id = "rounds"
        kind = "schedule"
        players = 4
        rounds = 16
        """,
        "quiz item 'rounds': states rounds 16 but the engine says 15 (cards per round with "
        "4 players: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)",
    ),
    "tournament cards": (
        """
        [[quiz]]
        id = "tournament"
        kind = "schedule"
        players = 4
        length = "tournament"
        round = 7
        cards = 13
        """,
        "states cards 13 but the engine says 12",
    ),
    "dealer": (
        """
        [[quiz]]
        id = "dealer"
        kind = "dealer"
        players = "A B C"
        first-dealer = "A"
        round = 4
        dealer = "B"
        """,
        "quiz item 'dealer': states dealer 'B' but the engine says 'A' "
        "(the deal passes one seat clockwise each round)",
    ),
    "first bidder": (
        """
        [[quiz]]
        id = "first"
        kind = "first-bidder"
        players = "A B C D"
        dealer = "D"
        first = "D"
        """,
        "quiz item 'first': states first bidder 'D' but the engine says 'A' "
        "(the player on the dealer's left bids first)",
    ),
    "legal bids": (
        """
        [[quiz]]
        id = "pm1"
        kind = "legal-bids"
        players = 3
        cards = 3
        bids = [1, 1]
        plus-minus-one = true
        legal = [0, 1, 2, 3]
        """,
        "quiz item 'pm1': states legal bids [0, 1, 2, 3] but the engine says [0, 2, 3] "
        "(plus/minus one forbids 1)",
    ),
    "bid visibility": (
        """
        [[quiz]]
        id = "secret"
        kind = "bid-visibility"
        bidding = "secret"
        when = "playing"
        visible = true
        """,
        "quiz item 'secret': states visible = true but the engine says false "
        "(secret bids, playing)",
    ),
    "deck": (
        """
        [[section]]
        id = "deck"
        heading.en = "H"
        text.en = "T"
        [[section.example]]
        id = "deck"
        kind = "deck"
        cards = 64
        """,
        "example 'deck': states cards 64 but the engine's deck has 60",
    ),
    "schedule table": (
        """
        [[section]]
        id = "s"
        heading.en = "H"
        text.en = "T"
        [[section.example]]
        id = "rounds"
        kind = "schedule-table"
        rounds = { 3 = 20, 5 = 13 }
        """,
        "example 'rounds': states 13 rounds for 5 players but the engine says 12",
    ),
    "score sheet totals": (
        """
        [[section]]
        id = "s"
        heading.en = "H"
        text.en = "T"
        [[section.example]]
        id = "sheet"
        kind = "score-sheet"
        players = "A B C"
        bids = [[1, 0, 0], [0, 2, 1]]
        taken = [[1, 0, 0], [1, 1, 0]]
        totals = [20, 10, 20]
        """,
        "example 'sheet': states totals [20, 10, 20] but the engine says [20, 10, 10]",
    ),
    "score sheet winners": (
        """
        [[section]]
        id = "s"
        heading.en = "H"
        text.en = "T"
        [[section.example]]
        id = "sheet"
        kind = "score-sheet"
        players = "A B C"
        bids = [[0, 1, 0]]
        taken = [[0, 1, 0]]
        totals = [20, 30, 20]
        winners = "A C"
        """,
        "states winners 'A C' but the engine says 'B' (highest total; ties share the win)",
    ),
    "variants": (
        """
        [[section]]
        id = "s"
        heading.en = "H"
        text.en = "T"
        [[section.example]]
        id = "pm1-hidden"
        kind = "variants"
        variants = ["plus-minus-one", "hidden-bids"]
        allowed = true
        """,
        "example 'pm1-hidden': states allowed = true but the engine says false",
    ),
}


@pytest.mark.parametrize("body, message", WRONG_FACTS.values(), ids=WRONG_FACTS.keys())
def test_a_fact_the_engine_disagrees_with_is_refused(
    tmp_path: Path, body: str, message: str
) -> None:
    refused = refusal(tmp_path, body)
    assert refused.startswith("lessons/06_trick_winner.toml, ")
    assert message in refused


MALFORMED = {
    "invalid card": (
        """
        [[quiz]]
        id = "bad-card"
        kind = "trick-winner"
        plays = "J W R14 J"
        trump = "none"
        winner = "B"
        """,
        "quiz item 'bad-card': 'plays': invalid card 'R14': write a suit letter Y, R, G or B",
    ),
    "a card twice": (
        """
        [[quiz]]
        id = "twice"
        kind = "trick-winner"
        plays = "R9 R9 B2"
        trump = "none"
        winner = "A"
        """,
        "quiz item 'twice': the cards of the trick cannot come from one deck: R9 appears 2 times",
    ),
    "hand and trick share a card": (
        """
        [[quiz]]
        id = "shared"
        kind = "legal-plays"
        hand = "B7 R2"
        played = "B7"
        trump = "R"
        legal = "B7"
        """,
        "quiz item 'shared': the hand and the trick together cannot come from one deck",
    ),
    "too few cards in a trick": (
        """
        [[quiz]]
        id = "short"
        kind = "trick-winner"
        plays = "J W"
        trump = "none"
        winner = "B"
        """,
        "quiz item 'short': 'plays' has 2 cards ('J W'), but a trick has one card from each "
        "player, and Wizard is played by 3 to 6 players",
    ),
    "winner who is not playing": (
        """
        [[quiz]]
        id = "who"
        kind = "trick-winner"
        plays = "R4 R12 R2 W"
        players = "C D A B"
        trump = "R"
        winner = "E"
        """,
        "quiz item 'who': states winner 'E', who is not one of the players C D A B",
    ),
    "bad trump": (
        """
        [[quiz]]
        id = "purple"
        kind = "trick-winner"
        plays = "R4 R12 R2"
        trump = "purple"
        winner = "B"
        """,
        "quiz item 'purple': 'trump': invalid trump 'purple'",
    ),
    "unknown kind": (
        """
        [[quiz]]
        id = "odd"
        kind = "who-wins"
        """,
        "quiz item 'odd': unknown kind 'who-wins'; known: trick-winner, legal-plays",
    ),
    "unknown rule": (
        """
        [[quiz]]
        id = "named"
        kind = "trick-winner"
        plays = "J W R13 J"
        trump = "none"
        winner = "B"
        rules = ["first-wizard-wins", "wizard-wins-twice"]
        """,
        "quiz item 'named': unknown rule 'wizard-wins-twice' in 'rules'; see docs/rule-map.md",
    ),
    "rules not a list": (
        """
        [[quiz]]
        id = "named"
        kind = "trick-winner"
        plays = "J W R13 J"
        trump = "none"
        winner = "B"
        rules = "first-wizard-wins"
        """,
        "quiz item 'named': 'rules' must be a list of rule ids",
    ),
    "misspelt key": (
        """
        [[quiz]]
        id = "typo"
        kind = "trick-winner"
        plays = "J W R13 J"
        trump = "none"
        winer = "B"
        """,
        "quiz item 'typo': unknown key 'winer'; a trick-winner item takes: id, kind, note, "
        "rules, plays, trump, players, winner",
    ),
    "missing answer": (
        """
        [[quiz]]
        id = "no-answer"
        kind = "score"
        bid = 1
        taken = 1
        """,
        "quiz item 'no-answer': missing 'points'",
    ),
    "wrong type": (
        """
        [[quiz]]
        id = "text-points"
        kind = "score"
        bid = 1
        taken = 1
        points = "30"
        """,
        "quiz item 'text-points': 'points' must be a whole number, got '30' (text)",
    ),
    "negative bid": (
        """
        [[quiz]]
        id = "negative"
        kind = "score"
        bid = -1
        taken = 1
        points = 30
        """,
        "quiz item 'negative': invalid bid -1: it must be a whole number, 0 or more",
    ),
    "fact asked as a quiz item": (
        """
        [[quiz]]
        id = "deck"
        kind = "deck"
        cards = 60
        """,
        "quiz item 'deck': a 'deck' item states a fact and asks nothing: make it an example",
    ),
    "id used twice": (
        """
        [[quiz]]
        id = "same"
        kind = "score"
        bid = 0
        taken = 0
        points = 20
        [[quiz]]
        id = "same"
        kind = "score"
        bid = 1
        taken = 1
        points = 30
        """,
        "quiz item #2: id 'same' is used twice (already by quiz item 'same')",
    ),
    "bad id": (
        """
        [[quiz]]
        id = "Jester Lead"
        kind = "score"
        bid = 0
        taken = 0
        points = 20
        """,
        "quiz item #1: id 'Jester Lead' must be lower-case words joined by '-'",
    ),
    "text not per language": (
        """
        [[section]]
        id = "plain"
        heading = "Just a heading"
        text.en = "T"
        """,
        "section 'plain': 'heading' must give the text per language, e.g. heading.en = "
        "\"...\", got 'Just a heading' (text)",
    ),
    "unknown language": (
        """
        [[section]]
        id = "lang"
        heading.en = "H"
        heading.jp = "H"
        text.en = "T"
        """,
        "section 'lang': 'heading' has a text in unknown language 'jp'; languages: en, ja, zh-Hant",
    ),
    "no English": (
        """
        [[section]]
        id = "no-en"
        heading.ja = "見出し"
        text.en = "T"
        """,
        "section 'no-en': 'heading' has no 'en' text (write heading.en = \"...\")",
    ),
    "empty note": (
        """
        [[quiz]]
        id = "empty-note"
        kind = "score"
        bid = 0
        taken = 0
        points = 20
        note.en = "  "
        """,
        "quiz item 'empty-note': note.en must be a non-empty text",
    ),
    "round that does not exist": (
        """
        [[quiz]]
        id = "round-eleven"
        kind = "schedule"
        players = 6
        round = 11
        cards = 11
        """,
        "quiz item 'round-eleven': there is no round 11: the standard game with 6 players "
        "has 10 rounds",
    ),
    "too many earlier bids": (
        """
        [[quiz]]
        id = "bids"
        kind = "legal-bids"
        players = 3
        cards = 2
        bids = [0, 1, 1]
        legal = [0]
        """,
        "quiz item 'bids': 3 earlier bids for 3 players: someone must still be left to bid",
    ),
    "unknown variant": (
        """
        [[section]]
        id = "s"
        heading.en = "H"
        text.en = "T"
        [[section.example]]
        id = "speed"
        kind = "variants"
        variants = ["speed"]
        allowed = true
        """,
        "example 'speed': unknown variant: 'speed'; known: 'standard', 'plus-minus-one'",
    ),
}


@pytest.mark.parametrize("body, message", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_item_is_refused_naming_file_item_and_problem(
    tmp_path: Path, body: str, message: str
) -> None:
    refused = refusal(tmp_path, body)
    assert refused.startswith("lessons/06_trick_winner.toml, ")
    assert message in refused


def test_invalid_toml_is_refused_naming_the_file(tmp_path: Path) -> None:
    message = refusal(tmp_path, '[[quiz]]\nid = "x\n')
    assert message.startswith("lessons/06_trick_winner.toml: not valid TOML: ")


def test_unknown_top_level_key_and_missing_title_are_refused(tmp_path: Path) -> None:
    message = refusal(tmp_path, "level = 3\n")
    assert message == (
        "lessons/06_trick_winner.toml: unknown key 'level'; a lesson file takes: "
        "title, summary, section, quiz"
    )
    path = tmp_path / "lessons" / "02_x.toml"
    path.write_text('summary.en = "S"\n')
    with pytest.raises(LessonError, match=r"^lessons/02_x.toml: missing 'title'"):
        load_lesson_file(path)


def test_badly_named_lesson_file_is_refused(tmp_path: Path) -> None:
    message = refusal(tmp_path, "", name="Trick Winner.toml")
    assert message.startswith("lessons/Trick Winner.toml: a lesson file is named NN_words.toml")


def test_a_right_item_in_a_tmp_file_loads_as_a_question(tmp_path: Path) -> None:
    path = write_lesson(
        tmp_path,
        """
        [[quiz]]
        id = "jester-then-wizard"
        kind = "trick-winner"
        plays = "J W R13 J"
        trump = "none"
        winner = "B"
        """,
    )
    lesson = load_lesson_file(path)
    (item,) = lesson.quiz
    assert item.role is ItemRole.QUIZ and item.kind == "trick-winner"
    assert isinstance(item.question, TrickWinnerQuestion)
    assert item.question.correct_answer() == 1
    assert lesson.missing_texts("ja") == [
        "lessons/06_trick_winner.toml: title",
        "lessons/06_trick_winner.toml: summary",
    ]


def test_translations_beside_english_complete_a_lesson(tmp_path: Path) -> None:
    path = tmp_path / "01_both.toml"
    path.write_text(
        'title.en = "Trump"\ntitle.ja = "切り札"\ntitle.zh-Hant = "王牌"\n'
        'summary.en = "S"\nsummary.ja = "S"\nsummary.zh-Hant = "S"\n',
        encoding="utf-8",
    )
    lesson = load_lesson_file(path)
    assert lesson.missing_texts("ja") == [] and lesson.missing_texts("zh-Hant") == []
    assert lesson.title("ja") == "切り札"


def test_item_kinds_lists_facts_only_as_examples() -> None:
    assert "deck" in item_kinds() and "deck" not in item_kinds(quiz=True)
    assert set(item_kinds(quiz=True)) < set(item_kinds())
    deck = load_lesson("01").item("deck-counts")
    with pytest.raises(LessonError, match=r"example 'deck-counts': a deck item is a fact"):
        deck.question  # noqa: B018 (the property raises)


# -- the questions lessons add -----------------------------------------------------------------


@pytest.mark.parametrize("length", list(GameLength))
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_schedule_questions_answer_from_the_engines_schedule(
    players: int, length: GameLength
) -> None:
    schedule = cards_per_round(players, length)
    rounds = ScheduleQuestion(players=players, ask=ScheduleAsk.ROUNDS, length=length)
    assert rounds.correct_answer() == len(schedule)
    assert not rounds.check(len(schedule) + 1).correct
    for number, cards in enumerate(schedule, start=1):
        for ask in (ScheduleAsk.CARDS, ScheduleAsk.TRICKS):
            question = ScheduleQuestion(players=players, ask=ask, round=number, length=length)
            assert question.check(cards).correct


def test_last_round_dealing_every_card_is_explained_as_without_trump() -> None:
    last = ScheduleQuestion(players=5, ask=ScheduleAsk.CARDS, round=12)
    assert "no card is left to turn for trump" in last.check(12).answer
    five = ScheduleQuestion(players=5, ask=ScheduleAsk.CARDS, round=5, length=GameLength.FIVE)
    assert "no card is left" not in five.check(5).answer
    # The last round of a five-round game deals 25 of the 60 cards: trump is still turned.
    assert "a card is still turned for trump" in five.check(5).answer


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_player_left_of_the_dealer_bids_first(players: int) -> None:
    for dealer in range(players):
        question = FirstBidderQuestion(players=players, dealer=dealer)
        assert question.correct_answer() == (dealer + 1) % players
        assert question.bidding_order()[-1] == dealer  # the dealer bids last


def test_the_deal_passes_clockwise_each_round() -> None:
    assert [
        DealerQuestion(players=3, first_dealer=2, round=r).correct_answer() for r in (1, 2, 3, 4)
    ] == [2, 0, 1, 2]
    with pytest.raises(InvalidDealError, match=r"there is no round 21: .* 3 players has 20 rounds"):
        DealerQuestion(players=3, first_dealer=0, round=21)


def test_legal_bids_basic_game_allows_any_total() -> None:
    question = LegalBidsQuestion(players=3, cards=2, bids=(1, 1))
    assert question.correct_answer() == {0, 1, 2}
    assert "any total is allowed" in question.check({0, 1, 2}).explanation


def test_legal_bids_plus_minus_one_forbids_only_the_last_bidder() -> None:
    last = LegalBidsQuestion(players=3, cards=2, bids=(1, 0), plus_minus_one=True)
    assert last.correct_answer() == {0, 2}
    assert not last.check({0, 1, 2}).correct
    earlier = LegalBidsQuestion(players=3, cards=2, bids=(1,), plus_minus_one=True)
    assert earlier.correct_answer() == {0, 1, 2}
    with pytest.raises(IllegalBidError, match="answer with the bids"):
        last.check(2)


@pytest.mark.parametrize(
    "bidding, visible",
    [
        (Bidding.OPEN, (True, True, True)),
        (Bidding.HIDDEN, (False, True, True)),
        (Bidding.SECRET, (False, False, True)),
    ],
)
def test_bid_visibility_follows_the_bidding_variant(
    bidding: Bidding, visible: tuple[bool, bool, bool]
) -> None:
    answers = tuple(
        BidVisibilityQuestion(bidding=bidding, when=when).correct_answer() for when in BidTime
    )
    assert answers == visible


def test_answer_text_gives_a_reason_for_every_card_of_the_hand() -> None:
    question = LegalPlaysQuestion.of("B2 R13 J", "B6 W", "R")
    lines = question.answer_text().split("\n")
    assert lines[0] == "You may play: blue 2, Jester."
    assert len(lines) == 4 and lines[2].startswith("- You may not play red 13: blue was led")


def test_answer_text_says_a_reason_shared_by_several_cards_once() -> None:
    leading = LegalPlaysQuestion.of("W R9 B2 J", "", "G").answer_text().split("\n")
    assert leading == [
        "You may play: Wizard, red 9, blue 2, Jester.",
        "- You lead: the first card of a trick may be anything.",
    ]
    follow = LegalPlaysQuestion.of("B7 R12 G10", "B5", "R").answer_text().split("\n")
    assert follow[2] == (
        "- You may not play red 12 or green 10: blue was led and you hold blue (blue 7). "
        "Follow blue, or play a Wizard or a Jester."
    )


# -- lessons need no screen -------------------------------------------------------------------


@pytest.mark.parametrize(
    "work",
    [
        "from tutor.teaching.lesson_loader import list_lessons; list_lessons()",
        "from tutor.teaching.practice import sample_text; sample_text(seed=3, count=8)",
    ],
    ids=["lessons", "practice"],
)
def test_lessons_and_practice_need_no_display_until_shown(tmp_path: Path, work: str) -> None:
    import subprocess
    import sys

    code = (
        f"import sys; {work}; "
        "print(sorted(m for m in ('ipywidgets', 'IPython', 'tutor.display') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert out.stdout.strip() == "[]"


# -- what the quizzes ask -------------------------------------------------------------------


def test_lesson_two_asks_about_each_way_trump_is_decided(lessons: list[Lesson]) -> None:
    trump = next(lesson for lesson in lessons if lesson.id == "02_trump")
    questions = trump.questions()
    reveals = [reveal_trump(q.turned).rule for q in questions if isinstance(q, TrumpQuestion)]
    assert set(reveals) == set(RevealRule)  # number card, Jester, Wizard, nothing left
    assert reveals.count(RevealRule.NUMBER_CARD) <= 2  # not one question asked four times
    assert any(isinstance(q, TrumpChoiceQuestion) for q in questions)  # the dealer's choice
    # The last round is worked out from the deal, not told.
    assert any(isinstance(q, TrumpQuestion) and q.deals_every_card() for q in questions)


def test_no_quiz_asks_for_a_trick_trump_decides_before_the_four_checks(
    lessons: list[Lesson],
) -> None:
    four_checks = next(lesson.number for lesson in lessons if lesson.id == "06_trick_winner")
    for lesson in lessons:
        if lesson.number >= four_checks:
            continue
        for q in lesson.questions():
            if isinstance(q, TrickWinnerQuestion):
                assert explain_trick(q.plays, q.trump).rule is not WinRule.HIGHEST_TRUMP, lesson.id


def test_no_quiz_asks_what_the_name_of_a_game_length_says(lessons: list[Lesson]) -> None:
    """ "How many rounds does a five-round game have?" answers itself."""
    for lesson in lessons:
        for q in lesson.questions():
            if isinstance(q, ScheduleQuestion) and q.ask is ScheduleAsk.ROUNDS:
                assert q.length is GameLength.STANDARD, (lesson.id, q)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_way_of_bidding_a_question_names_is_introduced_by_the_lesson(
    lessons: list[Lesson], lang: str
) -> None:
    """A question about "Open bids" comes after the lesson's text has said what open bids
    are: the way of bidding a question names is in bold in one of the lesson's sections."""
    from tutor.teaching.text import text

    unexplained = []
    for lesson in lessons:
        taught = " ".join(section.body(lang) for section in lesson.sections).lower()
        for question in lesson.questions():
            if isinstance(question, BidVisibilityQuestion):
                name = text(f"round-quiz.visibility-mode-{question.bidding.value}", lang).lower()
                if f"**{name}**" not in taught:
                    unexplained.append(f"{lesson.id}: {name}")
    assert sorted(set(unexplained)) == []


@pytest.mark.parametrize("lang", ["ja", "zh-Hant"])
def test_an_examples_note_does_not_open_with_a_second_label(
    lessons: list[Lesson], lang: str
) -> None:
    """The page writes 「例：」 before an example's note: a note opening with a label of
    its own reads 「例：例題の第2トリック：…」."""
    labelled = [
        f"{lesson.id}/{item.id}"
        for lesson in lessons
        for item in lesson.examples
        if item.note is not None and re.match(r"^[^，、。：]{1,12}：", item.note(lang))
    ]
    assert labelled == []
