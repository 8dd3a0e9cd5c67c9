"""A player's total on a score sheet (``kind = "score-total"``): the question, its grading
by the engine's :class:`tutor.rules.scoring.ScoreSheet`, and the reader that checks what a
lesson file states of it. The sheet is a :class:`tutor.teaching.lesson.ScoreSheetFact`
(rows are rounds 1, 2, 3... of the standard game), read as the ``score-sheet`` fact is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tutor.teaching.explain import format_points
from tutor.teaching.kinds.round_setup import check_seat
from tutor.teaching.kinds.score_sheet import read_sheet
from tutor.teaching.lesson import ScoreSheetFact
from tutor.teaching.lesson_reader import ItemKind, TableReader, read_seat
from tutor.teaching.question import AnswerKind, Feedback, Question, Topic
from tutor.teaching.text import DEFAULT_LANGUAGE, join_sentences, join_words, text


def sheet_words(sheet: ScoreSheetFact, lang: str = DEFAULT_LANGUAGE) -> str:
    """The bids and tricks taken of every round, in words (what a question shows).

    >>> print(sheet_words(ScoreSheetFact(names=("A", "B", "C"), bids=((1, 0, 0),),
    ...                                  taken=((1, 0, 0),))))
    Round 1: A 1→1, B 0→0, C 0→0.
    """
    rows = []
    for number, (bids, taken) in enumerate(zip(sheet.bids, sheet.taken, strict=True), start=1):
        cells = join_words(
            (
                text("quiz.sheet-cell", lang, player=name, bid=bid, taken=took)
                for name, bid, took in zip(sheet.names, bids, taken, strict=True)
            ),
            lang,
        )
        rows.append(text("quiz.sheet-row", lang, round=number, cells=cells))
    return join_sentences(rows)


@dataclass(frozen=True, slots=True)
class ScoreTotalQuestion(Question):
    """What is ``player``'s total after the rounds of the sheet? Points add up over the
    rounds.

    The score sheet of RULES.md's worked example, rounds 1 to 3:

    >>> sheet = ScoreSheetFact(names=("A", "B", "C", "D"),
    ...     bids=((0, 1, 0, 0), (1, 1, 0, 0), (1, 2, 0, 0)),
    ...     taken=((0, 1, 0, 0), (1, 0, 1, 0), (0, 1, 1, 1)))
    >>> q = ScoreTotalQuestion(sheet, player=0)
    >>> q.correct_answer()
    40
    >>> print(q.check(50).as_text())
    Not quite. A: round 1 +20, round 2 +30, round 3 −10: a total of 40.
    >>> ScoreTotalQuestion(sheet, player=4)
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidPlayersError: invalid player seat 4: seats are 0 to 3
    """

    sheet: ScoreSheetFact
    player: int
    answer_kind: ClassVar[AnswerKind] = AnswerKind.NUMBER

    def __post_init__(self) -> None:
        check_seat(self.player, len(self.sheet.names), "player")

    @property
    def topic(self) -> Topic:
        return Topic.SCORE_SHEET

    @property
    def rules(self) -> tuple[str, ...]:
        """Points add up, then the line of the scoring rule of each of the player's rounds.

        >>> sheet = ScoreSheetFact(names=("A", "B", "C"), bids=((1, 0, 0), (0, 1, 1)),
        ...                        taken=((1, 0, 0), (1, 0, 1)))
        >>> ScoreTotalQuestion(sheet, player=0).rules
        ('scores-add-up', 'bid-met-scores', 'bid-missed-loses')
        """
        return self.sheet.scoring_rules((self.player,), "scores-add-up")

    def correct_answer(self) -> int:
        return self.sheet.sheet().totals[self.player]

    def answer_label(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz.score-input", lang)

    def number_words(self, number: int) -> str:
        return format_points(number)

    def _number_example(self) -> str:
        return "-points"

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text(
            "quiz.score-total-prompt",
            lang,
            sheet=sheet_words(self.sheet, lang),
            player=self.sheet.names[self.player],
            rounds=len(self.sheet.bids),
        )

    def situation_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz.sheet-situation", lang, sheet=sheet_words(self.sheet, lang))

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz-hint.score-total", lang)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        rows = self.sheet.sheet().rows
        points = join_words(
            (
                text(
                    "quiz.score-total-round",
                    lang,
                    round=number,
                    points=format_points(row.points[self.player], signed=True),
                )
                for number, row in enumerate(rows, start=1)
            ),
            lang,
        )
        why = text(
            "quiz.score-total-why",
            lang,
            player=self.sheet.names[self.player],
            points=points,
            total=format_points(self.correct_answer()),
        )
        # The sum ends with the total: it is the whole answer.
        return Feedback.graded(answer == self.correct_answer(), why, "", lang)


def read_item(r: TableReader) -> Question:
    """A score-total item of a lesson file, what it states checked against the engine."""
    sheet = read_sheet(r)
    player = read_seat(r, "player", sheet.names)
    question = ScoreTotalQuestion(sheet, player)
    stated, engine = r.integer("total"), question.correct_answer()
    if stated != engine:
        raise r.fail(
            f"states total {stated} but the engine says {engine} "
            f"(the points of rounds 1 to {len(sheet.bids)} added up)"
        )
    return question


KIND = ItemKind("score-total", ("players", "bids", "taken", "player", "total"), read_item)
