"""Practice: seeded questions built with the engine, topics picked by the learner's
progress, answers graded and counted (tmp files only: never the repo, never the real
home). The progress store itself is tests/teaching/test_progress.py."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from tutor.rules.cards import check_cards_from_one_deck
from tutor.rules.round import Round
from tutor.rules.trick import explain_trick, legal_plays
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.practice import (
    PracticeSession,
    random_question,
    rules_by_generator,
    sample_text,
)
from tutor.teaching.practice_questions import JESTERS_ONLY, Plan, deal_for, play_plan
from tutor.teaching.progress import Progress
from tutor.teaching.progress_events import AnswerEvent, AnswerSource, parse_event
from tutor.teaching.progress_stores import FileStore, MemoryStore
from tutor.teaching.progress_summary import (
    BASE_WEIGHTS,
    PracticeTopicError,
    TopicCount,
    topic_weight,
)
from tutor.teaching.quiz import (
    AnswerKind,
    BidsMetQuestion,
    GameWinnersQuestion,
    LegalPlaysQuestion,
    NextLeaderQuestion,
    Question,
    RoundTricksQuestion,
    ScoreQuestion,
    ScoreTotalQuestion,
    Topic,
    TrickWinnerQuestion,
    TrumpQuestion,
)
from tutor.teaching.rule_map import rule_map
from tutor.teaching.situations import Situation

pytestmark = pytest.mark.usefixtures("progress_in_tmp")

GENERATORS: dict[type, str] = {
    TrickWinnerQuestion: "trick-winner",
    LegalPlaysQuestion: "legal-plays",
    ScoreQuestion: "score",
    TrumpQuestion: "trump",
    NextLeaderQuestion: "next-leader",
    RoundTricksQuestion: "round-tricks",
    BidsMetQuestion: "bids-met",
    ScoreTotalQuestion: "score-total",
    GameWinnersQuestion: "game-winners",
}
"""Each kind of question practice asks, by the name :func:`rules_by_generator` gives it."""


# -- questions built with the engine --------------------------------------------------------


def test_same_seed_same_questions_different_seed_different_questions() -> None:
    def questions(seed: int) -> list[object]:
        session = PracticeSession(seed=seed)
        return [session.next_question() for _ in range(25)]

    assert questions(42) == questions(42)
    assert questions(42) != questions(43)


def test_a_session_without_a_seed_keeps_the_one_it_drew() -> None:
    session = PracticeSession()
    replay = PracticeSession(seed=session.seed)
    assert [session.next_question() for _ in range(5)] == [replay.next_question() for _ in range(5)]


@pytest.mark.parametrize("topic", list(BASE_WEIGHTS))
def test_each_topic_gets_questions_of_that_topic(topic: Topic) -> None:
    rng = random.Random(topic.value)
    for _ in range(30):
        assert random_question(rng, topic).topic is topic


@pytest.mark.parametrize("topic", sorted(set(Topic) - set(BASE_WEIGHTS)))
def test_a_topic_only_lessons_ask_about_is_refused_by_name(topic: Topic) -> None:
    with pytest.raises(PracticeTopicError, match=f"no questions on topic '{topic.value}'"):
        random_question(random.Random(1), topic)
    with pytest.raises(PracticeTopicError, match="practice topics: jester-lead"):
        topic_weight(topic, TopicCount())


def test_questions_of_every_kind_come_up() -> None:
    session = PracticeSession(seed=5)
    kinds = Counter(type(session.next_question()) for _ in range(300))
    assert set(kinds) == set(GENERATORS)


def test_generated_tricks_are_possible_and_graded_by_the_engine() -> None:
    rng = random.Random(2024)
    for _ in range(300):
        topic = rng.choice([Topic.TRICK_WINNER, Topic.JESTER_LEAD, Topic.TRUMP_VS_LED])
        question = random_question(rng, topic)
        if not isinstance(question, TrickWinnerQuestion):  # a Jester lead may ask legal plays
            continue
        assert 3 <= len(question.plays) <= 6
        assert len(set(question.names())) == len(question.plays)
        check_cards_from_one_deck(question.plays)
        assert question.correct_answer() == explain_trick(question.plays, question.trump).winner


def test_generated_hands_follow_suit_rules_and_have_a_legal_card() -> None:
    rng = random.Random(7)
    for _ in range(300):
        topic = rng.choice([Topic.LEGAL_PLAYS, Topic.JESTER_LEAD, Topic.WIZARD_AFTER_NUMBER])
        question = random_question(rng, topic)
        if not isinstance(question, LegalPlaysQuestion):
            continue
        check_cards_from_one_deck((*question.hand, *question.plays))
        legal = question.correct_answer()
        assert legal and legal <= set(question.hand)
        assert legal == set(legal_plays(question.hand, question.plays))
        assert len(question.plays) < 6


def test_jester_lead_and_wizard_after_number_situations_are_real() -> None:
    rng = random.Random(11)
    jester = random_question(rng, Topic.JESTER_LEAD)
    assert jester.plays[0].is_jester  # type: ignore[union-attr]
    wizard = random_question(rng, Topic.WIZARD_AFTER_NUMBER)
    plays = wizard.plays  # type: ignore[union-attr]
    assert plays[0].is_number and any(card.is_wizard for card in plays[1:])


# -- every situation, every rule ---------------------------------------------------------

QUESTIONS = 3000
SHARE = 0.02


@pytest.fixture(scope="module")
def new_learners_questions() -> list[Question]:
    """3,000 questions of a seeded session, topics weighed as for a new learner (no
    answers given, so the weights stay as they start)."""
    session = PracticeSession(seed=2026)
    return [session.next_question() for _ in range(QUESTIONS)]


def test_every_situation_comes_in_at_least_two_percent_of_the_questions(
    new_learners_questions: list[Question],
) -> None:
    counts = Counter(
        situation for question in new_learners_questions for situation in question.situations
    )
    table = "\n".join(
        [f"{'situation':<24} {'count':>5} {'share':>6}"]
        + [
            f"{situation.value:<24} {counts[situation]:>5} {counts[situation] / QUESTIONS:>6.1%}"
            for situation in Situation
        ]
    )
    print(f"\nSituations in {QUESTIONS} practice questions (seed 2026):\n{table}")
    rare = [situation for situation in Situation if counts[situation] < SHARE * QUESTIONS]
    assert not rare, f"situations under {SHARE:.0%}: {rare}\n{table}"


def players_of(question: Question) -> int:
    """How many play at the question's table."""
    if isinstance(question, TrickWinnerQuestion):
        return len(question.plays)
    if isinstance(question, NextLeaderQuestion):
        return len(question.players)
    assert isinstance(question, (RoundTricksQuestion, BidsMetQuestion))
    return question.round.players


def test_a_trick_of_jesters_only_comes_with_three_or_four_players_only(
    new_learners_questions: list[Question],
) -> None:
    only_jesters = [
        question
        for question in new_learners_questions
        if Situation.JESTERS_ONLY in question.situations
    ]
    assert {players_of(question) for question in only_jesters} == {3, 4}
    assert {type(question) for question in only_jesters} >= {
        TrickWinnerQuestion,
        NextLeaderQuestion,
    }


def test_a_plan_the_deck_cannot_hold_is_refused() -> None:
    with pytest.raises(ValueError, match="the deck or the table cannot hold"):
        Plan.of(Situation.JESTERS_ONLY, "jester " * 5, players=(5, 5))


def test_a_planned_trick_is_played_through_the_round_with_legal_cards() -> None:
    rng = random.Random(8)
    for _ in range(50):
        rnd = deal_for(rng, JESTERS_ONLY)
        play_plan(rng, rnd, JESTERS_ONLY, rnd.players)
        assert [str(card) for card in rnd.tricks[0].cards] == ["J"] * 4
        events = rnd.events
        assert Round.replay(events).tricks == rnd.tricks  # every play was one the round took


def test_each_question_names_the_rules_it_asks_and_each_generator_asks_what_it_says(
    new_learners_questions: list[Question],
) -> None:
    known = set(rule_map().ids())
    asked: dict[str, set[str]] = {name: set() for name in rules_by_generator()}
    for question in new_learners_questions:
        assert question.rules, f"{question!r} names no rule"
        assert set(question.rules) <= known, question.rules
        generator = GENERATORS[type(question)]
        assert set(question.rules) <= set(rules_by_generator()[generator]), (generator, question)
        asked[generator].update(question.rules)
    # each rule a generator says it asks comes up in 3,000 questions
    assert asked == {name: set(rules) for name, rules in rules_by_generator().items()}


def test_score_questions_ask_bid_zero_only_under_its_topic() -> None:
    rng = random.Random(3)
    zero = [random_question(rng, Topic.BID_ZERO) for _ in range(40)]
    other = [random_question(rng, Topic.SCORE) for _ in range(40)]
    assert all(isinstance(q, ScoreQuestion) and q.bid == 0 for q in zero)
    assert all(isinstance(q, ScoreQuestion) and q.bid > 0 for q in other)
    assert {q.taken == q.bid for q in zero + other} == {True, False}  # met and missed


def test_trump_questions_include_every_reveal() -> None:
    rng = random.Random(1)
    answers = {random_question(rng, Topic.TRUMP_REVEAL).correct_answer() for _ in range(100)}  # type: ignore[union-attr]
    assert {None, "dealer-chooses"} <= answers and len(answers) >= 4


def test_sample_text_is_the_same_for_a_seed() -> None:
    first = sample_text(seed=9, count=4)
    assert first == sample_text(seed=9, count=4)
    assert first.startswith("1. [") and "\n4. [" in first


# -- topics weighted by progress ----------------------------------------------------------


def test_a_topic_answered_wrong_comes_up_more_often() -> None:
    def share_of_scoring(progress: Progress) -> float:
        session = PracticeSession(seed=1, progress=progress)
        picks = Counter(session.next_topic() for _ in range(3000))
        return picks[Topic.SCORE] / 3000

    def answered(right: int, wrong: int) -> Progress:
        events = [AnswerEvent(AnswerSource.PRACTICE, "score", True, True)] * right
        events += [AnswerEvent(AnswerSource.PRACTICE, "score", False, True)] * wrong
        return Progress(MemoryStore(events))

    struggling, mastered = answered(right=1, wrong=6), answered(right=12, wrong=0)
    assert share_of_scoring(struggling) > share_of_scoring(Progress()) > share_of_scoring(mastered)


# -- a session ------------------------------------------------------------------------------------


def wrong_answer(question: Question) -> object:
    """An answer the engine grades wrong, of the right shape for the question."""
    right = question.correct_answer()
    if question.answer_kind is AnswerKind.NUMBER:
        assert isinstance(right, int)
        return right + 10
    if question.answer_kind is AnswerKind.ONE_CHOICE:
        return next(choice for choice in question.choices() if choice != right)
    assert isinstance(right, frozenset)
    return right ^ {question.choices()[0]}  # one choice more, or one fewer


@pytest.mark.parametrize("topic", [Topic.NEXT_LEADER, Topic.ROUND_PLAYED, Topic.SCORE_SHEET])
def test_the_new_kinds_are_graded_by_the_engine_and_counted_under_their_topic(
    topic: Topic,
) -> None:
    rng = random.Random(topic.value)
    progress = Progress()
    for _ in range(20):
        question = random_question(rng, topic)
        assert question.topic is topic
        assert question.check(question.correct_answer()).correct
        assert not question.check(wrong_answer(question)).correct
        progress.record_answer(AnswerSource.PRACTICE, topic=question.topic, correct=True)
    assert progress.count(topic).right == 20


def test_a_round_practice_plays_through_is_three_tricks_of_legal_cards() -> None:
    rng = random.Random(12)
    for _ in range(40):
        question = random_question(rng, Topic.ROUND_PLAYED)
        assert isinstance(question, (RoundTricksQuestion, BidsMetQuestion))
        played = question.round.played()  # the engine plays it through again: legal cards
        assert len(played.tricks) == 3 and played.finished
        assert sum(played.taken) == 3


def test_a_score_sheet_is_the_first_rounds_of_a_game_and_a_winners_sheet_five_rounds() -> None:
    rng = random.Random(13)
    for _ in range(40):
        question = random_question(rng, Topic.SCORE_SHEET)
        assert isinstance(question, (ScoreTotalQuestion, GameWinnersQuestion))
        rows = question.sheet.taken
        assert [sum(row) for row in rows] == list(range(1, len(rows) + 1))  # round n: n tricks
        if isinstance(question, GameWinnersQuestion):  # the five-round game ends there
            assert len(rows) == 5


def test_practice_events_of_every_earlier_topic_still_count() -> None:
    """The topics that today's events name parse and count as before the new topics."""
    earlier = [
        "jester-lead",
        "wizard-after-number",
        "trump-vs-led",
        "bid-zero",
        "trick-winner",
        "legal-plays",
        "score",
        "trump-reveal",
    ]
    lines = [
        {
            "v": 1,
            "id": f"{number:032x}",
            "time": "2026-12-01T10:00:00Z",
            "kind": "practice",
            "lesson": None,
            "item": None,
            "topic": topic,
            "correct": False,
            "first_try": True,
        }
        for number, topic in enumerate(earlier, start=1)
    ]
    progress = Progress(MemoryStore([parse_event(line) for line in lines]))
    assert all(progress.count(Topic(topic)) == TopicCount(right=0, wrong=1) for topic in earlier)
    session = PracticeSession(seed=1, progress=progress)
    assert {Topic(topic) for topic in earlier} < set(session.progress.weights())


def test_answers_are_graded_by_the_engine_counted_and_saved(progress_in_tmp: Path) -> None:
    session = PracticeSession(seed=3, progress=Progress(FileStore()))
    for index in range(6):
        question = session.next_question()
        answer = question.correct_answer() if index % 2 == 0 else wrong_answer(question)
        assert session.answer(answer).correct is (index % 2 == 0)
    saved = Progress(FileStore())
    assert sum(count.answered for _, count in saved) == 6
    assert sum(count.right for _, count in saved) == 3
    assert sum(count.answered for count in session.tally.values()) == 6
    assert "right" in session.tally_text()


def test_answering_before_a_question_is_refused() -> None:
    with pytest.raises(ValueError, match="no question yet"):
        PracticeSession(seed=1).answer(3)


def test_practice_lesson_text_exists() -> None:
    lesson = load_lesson("09_practice")
    assert lesson.quiz == () and "Reset" in lesson.sections[-1].body()
