"""A Wizard is turned: which trumps may the dealer choose? (``kind = "trump-choice"``): the
question, its grading by the engine, and the reader that checks what a lesson file states of
it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from tutor.errors import InvalidCardError, WizardRuleError
from tutor.rules.cards import Card, Suit
from tutor.rules.round import Round
from tutor.rules.trump import parse_trump
from tutor.teaching.explain import suit_name
from tutor.teaching.kinds.trump import trump_label, trump_word
from tutor.teaching.lesson_reader import ItemKind, TableReader
from tutor.teaching.question import AnswerKind, Feedback, Question, Scene, Topic
from tutor.teaching.text import DEFAULT_LANGUAGE, join_sentences, join_words, text


@dataclass(frozen=True, slots=True)
class TrumpChoiceQuestion(Question):
    """A Wizard is turned: which of the four suits and "no trump" may the dealer choose?
    The answer is the set the engine's round accepts (:meth:`Round.can_choose_trump`).

    >>> q = TrumpChoiceQuestion()
    >>> sorted(suit.value for suit in q.correct_answer()), q.choice_mark(None)
    (['B', 'G', 'R', 'Y'], 'may not be chosen')
    >>> q.check([Suit.RED]).as_text()
    "Not quite. The dealer looks at their hand and names the trump suit, one of yellow, red, green, blue. 'No trump' is not one of the choices."
    """

    answer_kind: ClassVar[AnswerKind] = AnswerKind.MANY_CHOICES

    @property
    def topic(self) -> Topic:
        return Topic.TRUMP_REVEAL

    @property
    def rules(self) -> tuple[str, ...]:
        """A turned Wizard lets the dealer choose; the engine's round refuses "no trump".

        >>> TrumpChoiceQuestion().rules
        ('wizard-turned-dealer-chooses', 'dealer-may-not-choose-no-trump')
        """
        refused = None not in self.correct_answer()
        return ("wizard-turned-dealer-chooses",) + (
            ("dealer-may-not-choose-no-trump",) if refused else ()
        )

    def _round(self) -> Round:
        """A round whose turned card is a Wizard: the dealer's choice is due."""
        return Round(hands=("Y1", "Y2", "Y3"), turned="W", dealer=0)

    def correct_answer(self) -> frozenset[Suit | None]:
        rnd = self._round()
        return frozenset(choice for choice in self.choices() if rnd.can_choose_trump(choice))

    def choices(self) -> tuple[Suit | None, ...]:
        return (*Suit, None)

    def choice_label(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        return trump_label(choice, lang)

    def is_right_choice(self, choice: object) -> bool:
        return choice in self.correct_answer()

    def choice_mark(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        key = "quiz.may-choose" if self.is_right_choice(choice) else "quiz.may-not-choose"
        return text(key, lang, choice=self.choice_label(choice, lang))

    def scene(self) -> Scene:
        return Scene(turned=Card.parse("W"))

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz.trump-choice-prompt", lang)

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz-hint.trump-choice", lang)

    def situation_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return self.prompt(lang)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        if not isinstance(answer, Iterable) or isinstance(answer, str):
            raise InvalidCardError(f"answer with the trumps the dealer may choose, not {answer!r}")
        chosen = frozenset(parse_trump(choice) for choice in answer)
        right = self.correct_answer()
        allowed = join_words(
            (suit_name(choice, lang) for choice in self.choices() if choice in right), lang
        )
        sentences = [text("quiz.answer-trump-choice", lang, choices=allowed)]
        if None not in right:
            sentences.append(text("quiz.no-trump-not-a-choice", lang))
        return Feedback.graded(chosen == right, join_sentences(sentences), "", lang)


def read_item(r: TableReader) -> Question:
    """A trump-choice item of a lesson file, what it states checked against the engine."""
    question = TrumpChoiceQuestion()
    words = r.string("allowed").split()
    try:
        stated = frozenset(parse_trump(word) for word in words)
    except WizardRuleError as error:
        raise r.fail(f"'allowed': {error}") from None
    engine = question.correct_answer()
    if stated != engine:
        raise r.fail(
            f"states allowed {' '.join(words)!r} but the engine says "
            f"{' '.join(sorted(trump_word(choice) for choice in engine))!r} "
            "(after a turned Wizard the dealer names one of the four suits)"
        )
    return question


KIND = ItemKind("trump-choice", ("allowed",), read_item)
