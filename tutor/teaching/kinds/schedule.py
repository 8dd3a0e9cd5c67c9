"""How many rounds, cards or tricks? (``kind = "schedule"``): the question, its grading by
the engine, and the reader that checks what a lesson file states of it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from tutor.errors import InvalidDealError
from tutor.rules.cards import DECK
from tutor.rules.schedule import GameLength, cards_per_round
from tutor.teaching.kinds.round_setup import check_round
from tutor.teaching.lesson_reader import ItemKind, TableReader, read_length
from tutor.teaching.question import (
    LENGTH_RULES,
    AnswerKind,
    Feedback,
    Question,
    Topic,
    length_name,
)
from tutor.teaching.text import DEFAULT_LANGUAGE, join_sentences, join_words, text


class ScheduleAsk(StrEnum):
    """What a :class:`ScheduleQuestion` asks for."""

    ROUNDS = "rounds"
    CARDS = "cards"
    TRICKS = "tricks"


@dataclass(frozen=True, slots=True)
class ScheduleQuestion(Question):
    """How many rounds a game has, or how many cards (or tricks) one round has.

    >>> ScheduleQuestion(players=4, ask=ScheduleAsk.ROUNDS).correct_answer()
    15
    >>> q = ScheduleQuestion(players=3, ask=ScheduleAsk.TRICKS, round=20)
    >>> print(q.check(20).answer)
    Round 20 deals 20 cards to each player, and every trick takes one card from each player, so the round has 20 tricks. This is the last round: every card is dealt, so no card is left to turn for trump.
    >>> print(ScheduleQuestion(players=6, ask=ScheduleAsk.CARDS, round=5, length=GameLength.FIVE).explain())
    Round 5 of a five-round game with 6 players deals 5 cards to each player. It is the last round, yet it deals only 30 of the 60 cards: a card is still turned for trump.
    >>> ScheduleQuestion(players=6, ask=ScheduleAsk.CARDS, round=11)
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidDealError: there is no round 11: the standard game with 6 players has 10 rounds
    """

    players: int
    ask: ScheduleAsk
    round: int | None = None
    length: GameLength = GameLength.STANDARD
    answer_kind: ClassVar[AnswerKind] = AnswerKind.NUMBER

    def __post_init__(self) -> None:
        self.schedule()  # validates the players and the length
        if self.ask is not ScheduleAsk.ROUNDS:
            check_round(self.round, self.players, self.length)
        elif self.round is not None:
            raise InvalidDealError("a question about the number of rounds takes no round")

    @property
    def topic(self) -> Topic:
        if self.length is GameLength.STANDARD:
            return Topic.CARDS_AND_ROUNDS
        return Topic.VARIANTS

    @property
    def rules(self) -> tuple[str, ...]:
        """A game length's own rule, or the standard game's: how many rounds it has, or
        that round n deals n cards; a round's tricks are its cards.

        >>> ScheduleQuestion(players=4, ask=ScheduleAsk.TRICKS, round=3).rules
        ('round-deals-its-number', 'tricks-equal-cards')
        >>> ScheduleQuestion(players=4, ask=ScheduleAsk.ROUNDS, length=GameLength.FIVE).rules
        ('five-round-game',)
        """
        if self.length in LENGTH_RULES:
            rules = [LENGTH_RULES[self.length]]
        elif self.ask is ScheduleAsk.ROUNDS:
            rules = ["rounds-in-a-game"]
        else:
            rules = ["round-deals-its-number"]
        if self.ask is ScheduleAsk.TRICKS:
            rules.append("tricks-equal-cards")
        return tuple(rules)

    def schedule(self) -> list[int]:
        """Cards per player in each round of the game (the engine's schedule)."""
        return cards_per_round(self.players, self.length)

    def correct_answer(self) -> int:
        schedule = self.schedule()
        if self.ask is ScheduleAsk.ROUNDS:
            return len(schedule)
        assert self.round is not None
        return schedule[self.round - 1]

    def answer_label(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("round-quiz.number-input", lang)

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text(
            f"round-quiz.schedule-{self.ask.value}-prompt",
            lang,
            players=self.players,
            round=self.round,
            length=length_name(self.length, lang),
        )

    def explain(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """Why the answer is right, from the engine's schedule."""
        schedule = self.schedule()
        why = text(
            f"round-quiz.schedule-{self.ask.value}-why",
            lang,
            players=self.players,
            length=length_name(self.length, lang),
            rounds=len(schedule),
            schedule=join_words(map(str, schedule), lang),
            round=self.round,
            cards=self.correct_answer(),
        )
        if self.round != len(schedule):
            return why
        dealt = schedule[-1] * self.players
        if dealt == len(DECK):
            return join_sentences((why, text("round-quiz.schedule-last-round", lang)))
        stock = text("round-quiz.schedule-last-round-stock", lang, dealt=dealt, deck=len(DECK))
        return join_sentences((why, stock))

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """How to work the number out, without it.

        >>> ScheduleQuestion(players=4, ask=ScheduleAsk.ROUNDS).hint()
        'In the standard game each round deals one card more than the one before, and the last round deals as many of the 60 cards as can go round 4 players evenly.'
        """
        key = f"schedule-{self.ask.value}"
        if self.ask is not ScheduleAsk.TRICKS and self.length is not GameLength.STANDARD:
            key += "-other"
        return text(
            f"quiz-hint.{key}",
            lang,
            players=self.players,
            round=self.round,
            deck=len(DECK),
            length=length_name(self.length, lang),
        )

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        # The reason states the number asked for: it is the whole answer.
        return Feedback.graded(answer == self.correct_answer(), self.explain(lang), "", lang)


def read_item(r: TableReader) -> Question:
    """A schedule item of a lesson file, what it states checked against the engine."""
    players = r.integer("players")
    length = read_length(r)
    asked = [ask for ask in ScheduleAsk if r.has(ask.value)]
    if len(asked) != 1:
        raise r.fail("state exactly one of 'rounds', 'cards' or 'tricks' (the answer)")
    ask = asked[0]
    round_number = r.integer("round") if ask is not ScheduleAsk.ROUNDS else None
    if ask is ScheduleAsk.ROUNDS and r.has("round"):
        raise r.fail("'round' goes with 'cards' or 'tricks', not with 'rounds'")
    question: ScheduleQuestion = r.engine(
        lambda: ScheduleQuestion(players=players, ask=ask, round=round_number, length=length)
    )
    stated, engine = r.integer(ask.value), question.correct_answer()
    if stated != engine:
        schedule = ", ".join(map(str, question.schedule()))
        raise r.fail(
            f"states {ask.value} {stated} but the engine says {engine} "
            f"(cards per round with {players} players: {schedule})"
        )
    return question


KIND = ItemKind("schedule", ("players", "length", "round", "rounds", "cards", "tricks"), read_item)
