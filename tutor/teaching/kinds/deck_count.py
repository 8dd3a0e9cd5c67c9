"""How many cards, suits, ranks, Wizards or Jesters? (``kind = "deck-count"``): the
question, its grading by the engine's deck (:data:`tutor.rules.cards.DECK`, counted by
:class:`tutor.teaching.lesson.DeckFact`), and the reader that checks what a lesson file
states of it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from tutor.teaching.lesson import DeckFact
from tutor.teaching.lesson_reader import ItemKind, TableReader
from tutor.teaching.question import AnswerKind, Feedback, Question, Topic
from tutor.teaching.text import DEFAULT_LANGUAGE, text


class DeckCount(StrEnum):
    """What a :class:`DeckCountQuestion` counts (the keys of :meth:`DeckFact.counts`)."""

    CARDS = "cards"
    SUITS = "suits"
    RANKS = "ranks"
    NUMBERS = "numbers"
    WIZARDS = "wizards"
    JESTERS = "jesters"


@dataclass(frozen=True, slots=True)
class DeckCountQuestion(Question):
    """How many of something does the Wizard deck hold?

    >>> q = DeckCountQuestion(DeckCount.CARDS)
    >>> q.correct_answer(), q.prompt()
    (60, 'How many cards does a Wizard deck hold?')
    >>> print(q.check(64).as_text())
    Not quite. The deck holds 60 cards. 4 suits × 13 numbers = 52 number cards, plus 4 Wizards and 4 Jesters: 60 cards.
    """

    count: DeckCount
    answer_kind: ClassVar[AnswerKind] = AnswerKind.NUMBER

    @property
    def topic(self) -> Topic:
        return Topic.CARDS_AND_ROUNDS

    @property
    def rules(self) -> tuple[str, ...]:
        """What the deck holds, as the deck's fact shows it (:attr:`DeckFact.rules`).

        >>> DeckCountQuestion(DeckCount.JESTERS).rules
        ('deck-sixty-cards',)
        """
        return DeckFact().rules

    def correct_answer(self) -> int:
        return DeckFact().counts()[self.count.value]

    def answer_label(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("round-quiz.number-input", lang)

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text(f"quiz.deck-count-prompt-{self.count.value}", lang)

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz-hint.deck-count", lang)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        counts = DeckFact().counts()
        right = counts[self.count.value]
        return Feedback.graded(
            answer == right,
            text(f"quiz.deck-count-answer-{self.count.value}", lang, count=right),
            text("quiz.deck-count-why", lang, total=counts["cards"], **counts),
            lang,
        )


def read_item(r: TableReader) -> Question:
    """A deck-count item of a lesson file, what it states checked against the engine."""
    asked = r.string("count")
    if asked not in {count.value for count in DeckCount}:
        raise r.fail(
            f"'count' is {asked!r}; count one of " + ", ".join(repr(c.value) for c in DeckCount)
        )
    question = DeckCountQuestion(DeckCount(asked))
    stated, engine = r.integer("answer"), question.correct_answer()
    if stated != engine:
        raise r.fail(f"states {stated} {asked} but the engine's deck has {engine}")
    return question


KIND = ItemKind("deck-count", ("count", "answer"), read_item)
