"""Who deals this round? (``kind = "dealer"``): the question, its grading by the engine, and
the reader that checks what a lesson file states of it."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.rules.game import Game
from tutor.rules.schedule import GameLength
from tutor.teaching.kinds.round_setup import SeatQuestion, check_round, check_seat
from tutor.teaching.lesson_reader import (
    ItemKind,
    TableReader,
    check_stated_seat,
    read_players,
    read_seat,
)
from tutor.teaching.question import Feedback, Question, Topic
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, text


@dataclass(frozen=True, slots=True)
class DealerQuestion(SeatQuestion):
    """Who deals a given round? The answer is a seat (``names`` say who sits there).

    >>> q = DealerQuestion(players=4, first_dealer=0, round=6)
    >>> q.correct_answer(), q.choice_label(1)
    (1, 'B')
    >>> print(q.check(1).explanation)
    The deal passes one seat clockwise each round: round 1 A, round 2 B, round 3 C, round 4 D, round 5 A, round 6 B.
    """

    players: int
    first_dealer: int
    round: int
    names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        self._check_names()
        check_seat(self.first_dealer, self.players, "dealer")
        check_round(self.round, self.players, GameLength.STANDARD)

    @property
    def topic(self) -> Topic:
        return Topic.CARDS_AND_ROUNDS

    @property
    def rules(self) -> tuple[str, ...]:
        """
        >>> DealerQuestion(players=4, first_dealer=0, round=6).rules
        ('dealer-rotates',)
        """
        return ("dealer-rotates",)

    def _game(self) -> Game:
        return Game(players=self.players, first_dealer=self.first_dealer, seed=0)

    def correct_answer(self) -> int:
        return self._game().dealer_of(self.round)

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        names = self.seat_names()
        return text(
            "round-quiz.dealer-prompt",
            lang,
            names=join_words(names, lang),
            first=names[self.first_dealer],
            round=self.round,
        )

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz-hint.dealer", lang, first=self.seat_names()[self.first_dealer])

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        game, names = self._game(), self.seat_names()
        dealers = join_words(
            (
                text("round-quiz.dealer-round", lang, round=n, player=names[game.dealer_of(n)])
                for n in range(1, self.round + 1)
            ),
            lang,
        )
        why = text("round-quiz.dealer-why", lang, dealers=dealers)
        return self._answer_is(answer, game.dealer_of(self.round), why, lang)


def read_item(r: TableReader) -> Question:
    """A dealer item of a lesson file, what it states checked against the engine."""
    names = read_players(r)
    first = read_seat(r, "first-dealer", names)
    round_number = r.integer("round")
    question: DealerQuestion = r.engine(
        lambda: DealerQuestion(
            players=len(names), first_dealer=first, round=round_number, names=names
        )
    )
    check_stated_seat(
        r,
        "dealer",
        names,
        question.correct_answer(),
        what="dealer",
        rule="the deal passes one seat clockwise each round",
    )
    return question


KIND = ItemKind("dealer", ("players", "first-dealer", "round", "dealer"), read_item)
