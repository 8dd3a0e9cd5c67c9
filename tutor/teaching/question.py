"""What every quiz question is, whatever its kind: the :class:`Question` protocol, the
:class:`Feedback` on an answer, the cards a question shows (:class:`Scene`), what it
exercises (:class:`Topic`), and reading and grading a learner's answer
(:func:`read_number`, :func:`feedback_for`).

A question holds only the situation (cards, trump, bid and tricks...). Its right answer
and the explanation of any answer come from the rules engine, never from stored answer
text: a question cannot disagree with the rules. Lessons may state an expected answer too;
each kind's reader checks it against :meth:`Question.correct_answer`.

Lessons, practice and the quiz widget use this protocol without knowing the kind. It says
how the question is answered (:class:`AnswerKind`: one of its choices, several of them, or a
number), names each choice in words (and the card it is, if it is one), and gives the cards
the question shows as data (:class:`Scene`). Each kind of question has its own module in
:mod:`tutor.teaching.kinds` (its class, its grading and how a lesson file states it);
:mod:`tutor.teaching.quiz` gathers their names.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType
from typing import ClassVar

from tutor.rules.cards import Card, Suit
from tutor.rules.checks import is_whole_number
from tutor.rules.schedule import GameLength
from tutor.rules.variants import Bidding
from tutor.teaching.explain import suit_name
from tutor.teaching.situations import Situation
from tutor.teaching.text import DEFAULT_LANGUAGE, join_sentences, text


class Topic(StrEnum):
    """What a question exercises; practice weights the topics learners get wrong."""

    TRICK_WINNER = "trick-winner"
    JESTER_LEAD = "jester-lead"
    WIZARD_AFTER_NUMBER = "wizard-after-number"
    TRUMP_VS_LED = "trump-vs-led"
    LEGAL_PLAYS = "legal-plays"
    SCORE = "score"
    BID_ZERO = "bid-zero"
    TRUMP_REVEAL = "trump-reveal"
    NEXT_LEADER = "next-leader"
    ROUND_PLAYED = "round-played"
    SCORE_SHEET = "score-sheet"
    CARDS_AND_ROUNDS = "cards-and-rounds"
    BIDDING = "bidding"
    VARIANTS = "variants"


class AnswerKind(StrEnum):
    """How a question is answered."""

    ONE_CHOICE = "one-choice"
    """With one of :meth:`Question.choices`."""
    MANY_CHOICES = "many-choices"
    """With every right one of :meth:`Question.choices` (a collection; order ignored)."""
    NUMBER = "number"
    """With a whole number."""


@dataclass(frozen=True, slots=True)
class Feedback:
    """The grading of one answer: right or wrong, the right answer and why, in words.

    Each thing is said once: when one sentence of the engine states the answer and its
    reason ("C takes the trick with blue 11: ..."), it is the ``answer`` and the
    ``explanation`` stays empty. ``details`` are further reasons (one per line).

    ``given`` repeats the learner's answer when nothing else shows it ("You answered 12.",
    :func:`feedback_for`). ``revealed`` is False for a hint (a first miss): the ``answer``
    is then empty and the ``explanation`` names the rule to look at, not the answer.
    """

    correct: bool
    verdict: str
    answer: str
    explanation: str
    details: tuple[str, ...] = ()
    given: str = ""
    revealed: bool = True

    @classmethod
    def graded(
        cls,
        correct: bool,
        answer: str,
        explanation: str,
        lang: str = DEFAULT_LANGUAGE,
        details: tuple[str, ...] = (),
    ) -> Feedback:
        """Feedback whose verdict ("Right!" or "Not quite.") says whether ``correct``.

        >>> Feedback.graded(False, "The score is 40.", "").as_text()
        'Not quite. The score is 40.'
        """
        verdict = text("quiz.correct" if correct else "quiz.wrong", lang)
        return cls(correct, verdict, answer, explanation, details)

    def as_text(self) -> str:
        """The whole feedback as one paragraph (no space after a Japanese 「。」)."""
        return join_sentences(
            (self.verdict, self.given, self.answer, self.explanation, *self.details)
        )


@dataclass(frozen=True, slots=True)
class Scene:
    """The cards a question shows besides its choices, as engine values: the display layer
    decides how to draw them.

    >>> from tutor.teaching.kinds.legal_plays import LegalPlaysQuestion
    >>> LegalPlaysQuestion.of(hand="B7 R12", plays="J B5", trump="R").scene().trick
    (Card.parse('J'), Card.parse('B5'))
    """

    trick: tuple[Card, ...] = ()
    """Cards already played to the trick, in play order."""
    turned: Card | None = None
    """The card turned for trump."""


class Question(ABC):
    """What every kind of question offers to lessons, practice and widgets.

    A kind defines its topic, prompt, right answer and grading (:meth:`check`), and how it
    is answered (:attr:`answer_kind`); a choice question lists its :meth:`choices` and names
    each in words. The defaults here suit a question with no cards and no choices.

    >>> from tutor.teaching.kinds.trump import TrumpQuestion
    >>> q = TrumpQuestion.of("W")
    >>> q.answer_kind, q.choice_label(q.correct_answer()), q.scene().turned
    (<AnswerKind.ONE_CHOICE: 'one-choice'>, 'The dealer chooses', Card.parse('W'))
    """

    __slots__ = ()

    answer_kind: ClassVar[AnswerKind]

    @property
    @abstractmethod
    def topic(self) -> Topic:
        """What the question exercises."""

    @abstractmethod
    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The question, in words."""

    @abstractmethod
    def correct_answer(self) -> object:
        """The engine's answer: a choice, a set of choices, or a number."""

    @abstractmethod
    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        """Grade ``answer`` with the engine: right or wrong, the right answer and why."""

    def choices(self) -> tuple[object, ...]:
        """The possible answers, in the order to offer them (``()``: a number question)."""
        return ()

    def choice_label(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        """The words on a choice's button."""
        return str(choice)

    def choice_card(self, choice: object) -> Card | None:
        """The card a choice is (drawn above its button), or ``None``."""
        return None

    def is_right_choice(self, choice: object) -> bool:
        """Whether ``choice`` is (one of) the engine's answer."""
        return choice == self.correct_answer()

    def choice_mark(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        """What a choice turns out to be once answered ("wins", "may be played"), or ''."""
        return ""

    def answer_label(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The name of what the learner answers with (a number box, a hand), or ''."""
        return ""

    def number_words(self, number: int) -> str:
        """A number answer as the question writes it (a score with its minus sign)."""
        return str(number)

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """After a first wrong answer: which rule to look at, without the answer."""
        return text("quiz-hint.generic", lang)

    def number_request(self, typed: str, lang: str = DEFAULT_LANGUAGE) -> str:
        """What to say when Check finds no number in the box (``typed``: what is there),
        with an example that fits the question (a score may be negative, a count not): the
        box is empty, holds no number (quoted, shortened), or a number too long to be an
        answer (:data:`MAX_NUMBER_DIGITS`).

        >>> from tutor.teaching.kinds.score import ScoreQuestion
        >>> ScoreQuestion(bid=1, taken=1).number_request("9" * 5000)
        'That number has 5000 digits: no answer here has more than 9. Type a shorter one.'
        """
        cleaned = typed.strip()
        digits = _sign_and_digits(typed)[1]
        if digits.isdecimal() and len(digits) > MAX_NUMBER_DIGITS:
            return text("quiz.number-too-long", lang, digits=len(digits), limit=MAX_NUMBER_DIGITS)
        key = "number-empty" if not cleaned else "number-not-a-number"
        shown = cleaned if len(cleaned) <= 24 else cleaned[:20] + "…"
        return text(f"quiz.{key}{self._number_example()}", lang, typed=shown)

    def _number_example(self) -> str:
        """The catalog keys' suffix of this question's example numbers (see
        :meth:`number_request`): ``""`` for a count of things."""
        return ""

    def scene(self) -> Scene:
        """The cards shown besides the choices."""
        return Scene()

    @property
    def situations(self) -> tuple[Situation, ...]:
        """The situations of the trick the question shows (none for a question without
        one), read off the engine's judgement (:mod:`tutor.teaching.situations`)."""
        return ()

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules the question asks, as ids of the course's rule map
        (:mod:`tutor.teaching.rule_map`), worked out from the engine's judgement of its
        situation: what spaced review keys on, and the one home of that knowledge. A
        lesson's item names at least these (:attr:`tutor.teaching.lesson.LessonItem.rules`,
        checked by ``tests/teaching/test_rule_map.py``). Every kind overrides this: ``()``,
        a kind that works out none, is refused there."""
        return ()

    def situation_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The situation in words (cards named, not drawn); '' when :meth:`answer_text`
        already states it."""
        return self.prompt(lang)

    def answer_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The right answer and the engine's reason, in words."""
        feedback = self.check(self.correct_answer(), lang)
        return join_sentences((feedback.answer, feedback.explanation))


LENGTH_RULES: Mapping[GameLength, str] = MappingProxyType(
    {GameLength.FIVE: "five-round-game", GameLength.TOURNAMENT: "tournament-schedule"}
)
"""The rule (rule-map id) of each game length other than the standard one: what a question
or fact about such a game's rounds rests on."""

BIDDING_RULES: Mapping[Bidding, str] = MappingProxyType(
    {Bidding.OPEN: "open-bids", Bidding.HIDDEN: "hidden-bids", Bidding.SECRET: "secret-bids"}
)
"""The rule (rule-map id) of each way of bidding: who sees a bid, and when."""


def length_name(length: GameLength, lang: str = DEFAULT_LANGUAGE) -> str:
    """The game length in words.

    >>> length_name(GameLength.FIVE)
    'a five-round game'
    """
    return text(f"game-length.{length.value}", lang)


def trump_sentence(trump: Suit | None, lang: str = DEFAULT_LANGUAGE) -> str:
    """The trump of a question as a sentence of its own.

    >>> trump_sentence(Suit.RED), trump_sentence(None)
    ('Trump: red.', 'No trump.')
    """
    if trump is None:
        return text("quiz.no-trump", lang)
    return text("quiz.trump-is", lang, trump=suit_name(trump, lang))


def read_number(typed: str) -> int | None:
    """The whole number a learner typed, or ``None`` if it is not one. Spaces around it,
    a typographic minus (−) or a full-width one (－) and full-width digits are fine.

    >>> read_number(" 40 "), read_number("−20"), read_number("－２０"), read_number("+30")
    (40, -20, -20, 30)
    >>> read_number(""), read_number("fifty"), read_number("2.5"), read_number("4 0")
    (None, None, None, None)
    """
    sign, digits = _sign_and_digits(typed)
    if not digits.isdecimal() or len(digits) > MAX_NUMBER_DIGITS:  # (full-width digits too)
        return None
    return int(sign + digits)


MAX_NUMBER_DIGITS = 9
"""The most digits of a number answer (answers are scores and counts): longer text is not read
as a number (Python refuses to read a number of more than 4300 digits at all)."""

_SIGNS = str.maketrans({"\u2212": "-", "\uff0d": "-", "\uff0b": "+"})


def _sign_and_digits(typed: str) -> tuple[str, str]:
    cleaned = typed.strip().translate(_SIGNS)
    return (cleaned[:1], cleaned[1:]) if cleaned[:1] in ("+", "-") else ("", cleaned)


def feedback_for(
    question: Question, answer: object, *, misses_before: int = 0, lang: str = DEFAULT_LANGUAGE
) -> Feedback:
    """What a learner is shown for ``answer``: a right answer, or a wrong one after an
    earlier miss, gets the engine's whole explanation; a first wrong answer only the
    question's hint (the rule to look at), so that trying again still asks something.
    The learner asks for the rest with :func:`revealed`. A number answer is repeated
    ("You answered 12."): a choice is marked on the choice itself.

    >>> from tutor.teaching.kinds.score import ScoreQuestion
    >>> q = ScoreQuestion(bid=3, taken=1)
    >>> print(feedback_for(q, -10).as_text())
    Not quite. You answered −10. Bid 3, took 1: the bid is missed. Remember what a missed bid costs for each trick off, and that tricks taken earn nothing then.
    >>> print(feedback_for(q, -10, misses_before=1).as_text())
    Not quite. You answered −10. Bid 3, took 1: 2 off, so −10 × 2 = −20. Tricks taken earn nothing when the bid is missed.
    >>> feedback_for(q, -20).correct, feedback_for(q, -20).revealed
    (True, True)
    """
    shown = revealed(question, answer, lang)
    if shown.correct or misses_before > 0:
        return shown
    return replace(shown, answer="", explanation=question.hint(lang), details=(), revealed=False)


def revealed(question: Question, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
    """The engine's whole grading of ``answer`` (the right answer and why), with the
    learner's number answer repeated: what "Show the answer" shows after a hint."""
    feedback = question.check(answer, lang)
    if question.answer_kind is AnswerKind.NUMBER and is_whole_number(answer):
        given = text("quiz.you-answered", lang, answer=question.number_words(answer))
        feedback = replace(feedback, given=given)
    return feedback


def answer_code(question: Question, answer: object) -> int | tuple[int, ...] | None:
    """``answer`` to ``question`` as an answer's event keeps it (docs/progress.md,
    ``answer``): the number, the position of the choice, or the positions of the choices
    (in order); ``None`` when it is none of these (nothing is kept then).
    :func:`answer_from_code` reads it back.

    >>> from tutor.teaching.kinds.score import ScoreQuestion
    >>> answer_code(ScoreQuestion(bid=3, taken=1), -20), answer_from_code(ScoreQuestion(bid=3, taken=1), -20)
    (-20, -20)
    """
    if question.answer_kind is AnswerKind.NUMBER:
        return answer if isinstance(answer, int) and is_whole_number(answer) else None
    choices = question.choices()
    if question.answer_kind is AnswerKind.ONE_CHOICE:
        return choices.index(answer) if answer in choices else None
    chosen = set(answer) if isinstance(answer, (set, frozenset, tuple, list)) else set()
    return tuple(index for index, choice in enumerate(choices) if choice in chosen)


NOT_KEPT = type("NotKept", (), {"__repr__": lambda _self: "NOT_KEPT"})()
"""What :func:`answer_from_code` gives when no answer was kept, or none that fits (a
choice may be ``None`` itself: "no trump")."""


def answer_from_code(question: Question, code: int | tuple[int, ...] | None) -> object:
    """The answer to ``question`` that :func:`answer_code` kept as ``code``;
    :data:`NOT_KEPT` when there is none (an event of version 1 to 4) or ``code`` does not
    fit the question (the lesson changed since: its choices are others)."""
    choices = question.choices()
    if code is None:
        return NOT_KEPT
    if question.answer_kind is AnswerKind.NUMBER:
        return code if isinstance(code, int) else NOT_KEPT
    if question.answer_kind is AnswerKind.ONE_CHOICE:
        return choices[code] if isinstance(code, int) and 0 <= code < len(choices) else NOT_KEPT
    if isinstance(code, int) or any(not 0 <= index < len(choices) for index in code):
        return NOT_KEPT
    return tuple(choices[index] for index in code)
