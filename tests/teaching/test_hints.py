"""A hint (after a first wrong answer) names the rule to look at, never the answer: it must
not single out the right choice(s), or the group (colour) they belong to, among the choices.

A hint points to a choice when it names that card or its colour; it gives the answer away
when everything it points to belongs to the answer's group ("only the blue cards can win"
when the winner is blue). The rule's own card kinds (Wizard, trump, Jester) may be named:
a hint that states the whole rule in order names every kind, and it is the same for every
trick, which the second test checks.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from tutor.rules.cards import Card
from tutor.rules.trick import explain_trick
from tutor.teaching.explain import card_name, suit_name
from tutor.teaching.practice import random_question
from tutor.teaching.practice_questions import PracticeQuestion
from tutor.teaching.progress_summary import BASE_WEIGHTS
from tutor.teaching.question import Question
from tutor.teaching.quiz import TrickWinnerQuestion
from tutor.teaching.text import LANGUAGES

PRACTICE_TOPICS = list(BASE_WEIGHTS)  # the topics practice asks
SEEDS = range(40)


def practice_questions() -> list[PracticeQuestion]:
    """Questions of every practice topic, 40 seeds each."""
    return [
        random_question(random.Random(seed), topic) for topic in PRACTICE_TOPICS for seed in SEEDS
    ]


def _group(card: Card) -> str:
    return str(card.suit) if card.suit else str(card)


def pointed_choices(question: Question, hint: str, lang: str) -> list[Card]:
    """The number cards among the choices that ``hint`` singles out: by name or colour."""
    cards = [question.choice_card(choice) for choice in question.choices()]
    return [
        card
        for card in cards
        if card is not None
        and card.suit is not None
        and (card_name(card, lang) in hint or suit_name(card.suit, lang) in hint)
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_hint_points_only_to_the_answers_group(lang: str) -> None:
    questions = practice_questions()
    with_cards = [q for q in questions if any(q.choice_card(c) for c in q.choices())]
    assert len(with_cards) > 100  # the test sees many card questions, not a few
    giving_away = []
    for question in with_cards:
        right = [
            question.choice_card(choice)
            for choice in question.choices()
            if question.is_right_choice(choice)
        ]
        right_groups = {_group(card) for card in right if card is not None}
        pointed = pointed_choices(question, question.hint(lang), lang)
        if pointed and {_group(card) for card in pointed} <= right_groups:
            giving_away.append(f"{question.prompt(lang)} -> {question.hint(lang)}")
    assert giving_away == []


def test_a_trick_winner_hint_does_not_depend_on_the_deciding_rule() -> None:
    """The same hint for tricks won by a Wizard, a trump and the suit led: the hint cannot
    tell which of them wins."""
    hints_by_rule: dict[str, set[str]] = defaultdict(set)
    for question in practice_questions():
        if isinstance(question, TrickWinnerQuestion) and question.trump is not None:
            rule = explain_trick(question.plays, question.trump).rule
            hints_by_rule[rule.value].add(question.hint())
    assert len(hints_by_rule) >= 3, hints_by_rule.keys()
    assert len(set().union(*hints_by_rule.values())) == 1
