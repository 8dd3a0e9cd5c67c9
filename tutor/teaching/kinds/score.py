"""How many points for a bid and the tricks taken? (``kind = "score"``): the question, its
grading by the engine, and the reader that checks what a lesson file states of it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tutor.rules.scoring import round_score
from tutor.teaching.explain import describe_score, format_points
from tutor.teaching.lesson_reader import ItemKind, TableReader
from tutor.teaching.question import AnswerKind, Feedback, Question, Topic
from tutor.teaching.situations import score_rules
from tutor.teaching.text import DEFAULT_LANGUAGE, text


@dataclass(frozen=True, slots=True)
class ScoreQuestion(Question):
    """How many points for this bid and this many tricks taken?

    >>> ScoreQuestion(bid=3, taken=1).check(-20).correct
    True
    >>> ScoreQuestion(bid=3, taken=1).check(-10).as_text()
    'Not quite. Bid 3, took 1: 2 off, so −10 × 2 = −20. Tricks taken earn nothing when the bid is missed.'
    >>> ScoreQuestion(bid=3, taken=1).situation_text()  # the answer's formula states it
    ''
    """

    bid: int
    taken: int
    answer_kind: ClassVar[AnswerKind] = AnswerKind.NUMBER

    def __post_init__(self) -> None:
        round_score(self.bid, self.taken)  # validates

    @property
    def topic(self) -> Topic:
        return Topic.BID_ZERO if self.bid == 0 else Topic.SCORE

    @property
    def rules(self) -> tuple[str, ...]:
        """The line of the scoring rule that applies.

        >>> ScoreQuestion(bid=0, taken=0).rules, ScoreQuestion(bid=0, taken=2).rules
        (('bid-zero-met-scores-twenty',), ('bid-missed-loses',))
        """
        return score_rules(self.bid, self.taken)

    def correct_answer(self) -> int:
        return round_score(self.bid, self.taken)

    def answer_label(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz.score-input", lang)

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz.score-prompt", lang, bid=self.bid, taken=self.taken)

    def situation_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return ""

    def number_words(self, number: int) -> str:
        return format_points(number)

    def _number_example(self) -> str:
        return "-points"

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        key = "score-met" if self.bid == self.taken else "score-missed"
        return text(f"quiz-hint.{key}", lang, bid=self.bid, taken=self.taken)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        # The formula ends with the points: it is the whole answer.
        return Feedback.graded(
            answer == self.correct_answer(), describe_score(self.bid, self.taken, lang), "", lang
        )


def read_item(r: TableReader) -> Question:
    """A score item of a lesson file, what it states checked against the engine."""
    bid, taken = r.integer("bid"), r.integer("taken")
    question: ScoreQuestion = r.engine(lambda: ScoreQuestion(bid=bid, taken=taken))
    stated, engine = r.integer("points"), question.correct_answer()
    if stated != engine:
        how = "bid met" if bid == taken else f"bid missed by {abs(bid - taken)}"
        raise r.fail(f"states points {stated} but the engine says {engine} ({how})")
    return question


KIND = ItemKind("score", ("bid", "taken", "points"), read_item)
