"""Who wins the game, on a score sheet (``kind = "game-winners"``): the question, its
grading by the engine's :class:`tutor.rules.scoring.ScoreSheet` (the highest total wins;
ties share the win), and the reader that checks what a lesson file states of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from tutor.errors import InvalidPlayersError
from tutor.teaching.explain import format_points
from tutor.teaching.kinds.round_setup import check_seat
from tutor.teaching.kinds.score_sheet import read_sheet
from tutor.teaching.kinds.score_total import sheet_words
from tutor.teaching.lesson import ScoreSheetFact
from tutor.teaching.lesson_reader import ItemKind, TableReader
from tutor.teaching.question import AnswerKind, Feedback, Question, Topic
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, text


@dataclass(frozen=True, slots=True)
class GameWinnersQuestion(Question):
    """The game ends after the rounds of the sheet: who wins? Pick every winner: the
    highest total wins, and players tied on it share the win.

    >>> sheet = ScoreSheetFact(names=("A", "B", "C"), bids=((1, 0, 0), (0, 1, 1)),
    ...                        taken=((1, 0, 0), (0, 1, 1)))
    >>> q = GameWinnersQuestion(sheet)
    >>> sorted(q.correct_answer()), q.choice_mark(0)
    ([0, 1, 2], 'wins')
    >>> print(q.check({0}).as_text())
    Not quite. Totals: A 50, B 50, C 50. Tied on the highest total, A, B, C share the win.
    """

    sheet: ScoreSheetFact
    answer_kind: ClassVar[AnswerKind] = AnswerKind.MANY_CHOICES

    @property
    def topic(self) -> Topic:
        return Topic.SCORE_SHEET

    @property
    def rules(self) -> tuple[str, ...]:
        """The highest total wins and points add up, then the scoring of every round.

        >>> sheet = ScoreSheetFact(names=("A", "B", "C"), bids=((1, 0, 0),), taken=((1, 0, 0),))
        >>> GameWinnersQuestion(sheet).rules
        ('highest-total-wins', 'scores-add-up', 'bid-met-scores', 'bid-zero-met-scores-twenty')
        """
        players = range(len(self.sheet.names))
        return self.sheet.scoring_rules(players, "highest-total-wins", "scores-add-up")

    def correct_answer(self) -> frozenset[int]:
        return frozenset(self.sheet.sheet().leaders())

    def choices(self) -> tuple[int, ...]:
        return tuple(range(len(self.sheet.names)))

    def choice_label(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        return self.sheet.names[check_seat(choice, len(self.sheet.names), "chosen")]

    def is_right_choice(self, choice: object) -> bool:
        return check_seat(choice, len(self.sheet.names), "chosen") in self.correct_answer()

    def choice_mark(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz.winner-mark", lang) if self.is_right_choice(choice) else ""

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz.game-winners-prompt", lang, sheet=sheet_words(self.sheet, lang))

    def situation_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz.sheet-situation", lang, sheet=sheet_words(self.sheet, lang))

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz-hint.game-winners", lang)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        if isinstance(answer, (str, int)) or not isinstance(answer, Iterable):
            raise InvalidPlayersError(f"answer with a collection of players, not {answer!r}")
        count = len(self.sheet.names)
        chosen = frozenset(check_seat(choice, count, "chosen") for choice in answer)
        names, totals = self.sheet.names, self.sheet.sheet().totals
        listed = join_words(
            (
                text("quiz.game-winners-total", lang, player=name, total=format_points(total))
                for name, total in zip(names, totals, strict=True)
            ),
            lang,
        )
        winners = sorted(self.correct_answer())
        key = "quiz.game-winners-one" if len(winners) == 1 else "quiz.game-winners-tie"
        why = text(key, lang, totals=listed, winners=join_words((names[s] for s in winners), lang))
        # The totals and the rule name the winners: it is the whole answer.
        return Feedback.graded(chosen == self.correct_answer(), why, "", lang)


def read_item(r: TableReader) -> Question:
    """A game-winners item of a lesson file, what it states checked against the engine."""
    sheet = read_sheet(r)
    question = GameWinnersQuestion(sheet)
    stated = r.names("winners")
    if not stated:
        raise r.fail("missing 'winners' (the players with the highest total, e.g. \"A\")")
    engine = [sheet.names[seat] for seat in sorted(question.correct_answer())]
    if sorted(stated) != sorted(engine):
        raise r.fail(
            f"states winners {' '.join(stated)!r} but the engine says {' '.join(engine)!r} "
            f"(totals {list(sheet.sheet().totals)}: the highest total wins; ties share the win)"
        )
    return question


KIND = ItemKind("game-winners", ("players", "bids", "taken", "winners"), read_item)
