"""Feedback says each thing once, in every language: every quiz item and example of every
lesson, answered right and wrong, is read sentence by sentence, and the cases a learner
reported are checked as they were seen."""

from __future__ import annotations

import re

import pytest

from tutor.teaching.explain import MINUS, card_name
from tutor.teaching.lesson import Lesson
from tutor.teaching.lesson_loader import list_lessons, load_lesson
from tutor.teaching.quiz import (
    AnswerKind,
    Feedback,
    LegalPlaysQuestion,
    Question,
    TrickWinnerQuestion,
    TrumpQuestion,
)
from tutor.teaching.round_quiz import LegalBidsQuestion
from tutor.teaching.text import LANGUAGES, text

SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")


@pytest.fixture(scope="module")
def lessons() -> list[Lesson]:
    return list_lessons()


def sentences(words: str) -> list[str]:
    return [part.strip() for part in SENTENCE_END.split(words) if part.strip()]


def wrong_answers(question: Question) -> list[object]:
    """A few wrong answers of each kind: a neighbour, every choice, too few choices."""
    right = question.correct_answer()
    if question.answer_kind is AnswerKind.NUMBER:
        return [right + 10]  # type: ignore[operator]
    choices = question.choices()
    if question.answer_kind is AnswerKind.ONE_CHOICE:
        return [choice for choice in choices if choice != right]
    assert isinstance(right, frozenset)
    return [tuple(choices), tuple(sorted(right, key=choices.index))[:1]]


def feedbacks(lesson: Lesson, lang: str) -> list[tuple[str, Feedback]]:
    graded = []
    for item in lesson.quiz:
        question = item.question
        for answer in [question.correct_answer(), *wrong_answers(question)]:
            if question.answer_kind is AnswerKind.MANY_CHOICES and not answer:
                continue
            graded.append((item.id, question.check(answer, lang)))
    return graded


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_feedback_says_a_sentence_twice(lessons: list[Lesson], lang: str) -> None:
    for lesson in lessons:
        for item_id, feedback in feedbacks(lesson, lang):
            said = sentences(feedback.as_text())
            assert len(said) == len(set(said)), (lesson.id, item_id, feedback.as_text())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_example_gives_a_reason_twice(lessons: list[Lesson], lang: str) -> None:
    for lesson in lessons:
        for item in lesson.examples:
            lines = item.as_text(lang).split("\n")
            said = [sentence for line in lines for sentence in sentences(line)]
            assert len(said) == len(set(said)), (lesson.id, item.id, said)


@pytest.mark.parametrize("lang", ["ja", "zh-Hant"])
def test_no_ascii_space_follows_a_full_width_stop(lessons: list[Lesson], lang: str) -> None:
    for lesson in lessons:
        for item_id, feedback in feedbacks(lesson, lang):
            assert not re.search(r"[。！？] ", feedback.as_text()), (lesson.id, item_id)
        for item in lesson.examples:
            assert not re.search(r"[。！？] ", item.as_text(lang)), (lesson.id, item.id)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_picked_card_that_may_not_be_played_is_named_once(lang: str) -> None:
    """Seen: "You picked yellow 9, but it may not be played. You may not play yellow 9"."""
    question = LegalPlaysQuestion.of(hand="G2 G12 Y9 R1", plays="G7", trump="Y")
    feedback = question.check(["G2", "Y9"], lang)
    assert not feedback.correct
    assert " ".join(feedback.details).count(card_name("Y9", lang)) == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_reason_for_several_cards_led_to_is_given_once(lang: str) -> None:
    """Seen in lesson 04's first example: "You lead: ..." four times."""
    example = load_lesson("04_follow_suit").item("leader-plays-anything")
    lead = text("play-you.leads", lang)
    assert example.as_text(lang).count(lead) == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_trump_is_not_called_a_trump(lang: str) -> None:
    """Seen: "Trump: no trump." (and 「切り札：切り札なし。」, 「王牌：無王牌。」)."""
    trick = TrickWinnerQuestion.of("R7 R2 B13", trump=None, players="ABC")
    trump = TrumpQuestion.of("J")
    words = [
        trick.prompt(lang),
        trick.situation_text(lang),
        *sentences(trump.check(None, lang).as_text()),
    ]
    for sentence in words:
        assert text("quiz.trump-is", lang, trump=text("card.no_trump", lang)) not in sentence
    # and the trick's reason does not say that "no trump was played" in a round without one
    assert trick.check(0, lang).answer == text(
        "trick.highest-led-no-trump",
        lang,
        winner="A",
        card=card_name("R7", lang),
        led=text("suit.R", lang),
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_you_bid_first_is_answered_to_you(lang: str) -> None:
    """Seen: "You bid first. Which bids may you make?" answered "The next player may bid"."""
    first = LegalBidsQuestion(players=4, cards=3)
    answer = first.check([0, 1, 2, 3], lang).answer
    assert answer == text(
        "round-quiz.answer-bids-first", lang, bids=text("list.separator", lang).join("0123")
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_score_is_read_with_one_minus_sign(lessons: list[Lesson], lang: str) -> None:
    """Seen: "-10" and "−10" on one page."""
    for lesson in lessons:
        for _item_id, feedback in feedbacks(lesson, lang):
            assert not re.search(r"(?<![\w→])-\d", feedback.as_text())
        for item in lesson.examples:
            assert not re.search(r"(?<![\w→])-\d", item.as_text(lang)), (lesson.id, item.id)
    assert f"{MINUS}20" in load_lesson("07").item("bid-three-took-one").as_text(lang)
