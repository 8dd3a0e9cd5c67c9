"""Who leads the next trick? (``kind = "next-leader"``): the question, its grading by the
engine, and the reader that checks what a lesson file states of it.

The trick's winner leads the next trick: the answer is the engine's winner of the trick
(:func:`tutor.rules.trick.explain_trick`), named by the seat that played it. A trick need
not be led by the first player: ``led`` is the seat that led, and the cards follow
clockwise from there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from tutor.errors import InvalidPlayersError
from tutor.rules.cards import Card, Suit, format_cards, parse_cards
from tutor.rules.seats import check_players, default_names
from tutor.rules.trick import explain_trick
from tutor.rules.trump import parse_trump
from tutor.teaching.explain import card_name, describe_trick
from tutor.teaching.kinds.round_setup import check_seat
from tutor.teaching.lesson_reader import ItemKind, TableReader, check_stated_seat, read_seat
from tutor.teaching.question import AnswerKind, Feedback, Question, Scene, Topic, trump_sentence
from tutor.teaching.situations import Situation, trick_situations, winner_rules
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, text


@dataclass(frozen=True, slots=True)
class NextLeaderQuestion(Question):
    """Who leads the next trick, after this one? The answer is a seat (0 is the first of
    ``players``, clockwise); ``led`` is the seat that played the first card.

    The worked example's trick 2: C leads, B's Wizard takes it, so B leads trick 3.

    >>> q = NextLeaderQuestion.of("R4 R12 R2 W", trump="R", players="ABCD", led=2)
    >>> q.choice_label(q.correct_answer()), q.played_by()
    ('B', ('C', 'D', 'A', 'B'))
    >>> print(q.check(3).as_text())
    Not quite. B takes the trick with the Wizard: the first Wizard played always wins. The player who takes a trick leads the next one: B leads the next trick.
    >>> NextLeaderQuestion.of("R4 R12", trump="R", players="ABCD")
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidPlayersError: a trick has one card from each player: 2 cards ('R4 R12') for 4 players A B C D
    """

    plays: tuple[Card, ...]
    trump: Suit | None
    players: tuple[str, ...]
    led: int = 0
    answer_kind: ClassVar[AnswerKind] = AnswerKind.ONE_CHOICE

    @classmethod
    def of(
        cls,
        plays: str | Iterable[Card | str],
        trump: Suit | str | None,
        players: Sequence[str] = (),
        led: int = 0,
    ) -> NextLeaderQuestion:
        cards = tuple(parse_cards(plays))
        names = tuple(players) or default_names(check_players(len(cards)))
        check_players(len(names))
        if len(names) != len(cards):
            raise InvalidPlayersError(
                f"a trick has one card from each player: {len(cards)} cards "
                f"({format_cards(cards)!r}) for {len(names)} players {' '.join(names)}"
            )
        explain_trick(cards, trump)  # validates the cards now, not when a learner answers
        return cls(cards, parse_trump(trump), names, check_seat(led, len(names), "leader"))

    @property
    def topic(self) -> Topic:
        return Topic.NEXT_LEADER

    @property
    def situations(self) -> tuple[Situation, ...]:
        return trick_situations(self.plays, self.trump)

    @property
    def rules(self) -> tuple[str, ...]:
        """Who takes the trick, then that the winner leads the next one.

        >>> NextLeaderQuestion.of("R4 R12 R2 W", trump="R", players="ABCD", led=2).rules
        ('winner-leads-next', 'first-wizard-wins')
        """
        return ("winner-leads-next", *winner_rules(self.plays, self.trump))

    def played_by(self) -> tuple[str, ...]:
        """Who played each card, in play order: clockwise from the seat that led."""
        count = len(self.players)
        return tuple(self.players[(self.led + i) % count] for i in range(count))

    def correct_answer(self) -> int:
        return (self.led + explain_trick(self.plays, self.trump).winner) % len(self.players)

    def choices(self) -> tuple[int, ...]:
        return tuple(range(len(self.players)))

    def choice_label(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        return self.players[check_seat(choice, len(self.players), "chosen")]

    def scene(self) -> Scene:
        return Scene(trick=self.plays)

    def _plays_words(self, lang: str) -> str:
        return join_words(
            (
                text("quiz.trick-play", lang, player=player, card=card_name(card, lang))
                for player, card in zip(self.played_by(), self.plays, strict=True)
            ),
            lang,
        )

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text(
            "quiz.next-leader-prompt",
            lang,
            trump=trump_sentence(self.trump, lang),
            plays=self._plays_words(lang),
        )

    def situation_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text(
            "quiz.trick-situation",
            lang,
            trump=trump_sentence(self.trump, lang),
            plays=self._plays_words(lang),
        )

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz-hint.next-leader", lang)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        why = explain_trick(self.plays, self.trump)
        winner = self.players[self.correct_answer()]
        return Feedback.graded(
            answer == self.correct_answer(),
            describe_trick(why, self.played_by(), lang),
            text("quiz.next-leader-why", lang, winner=winner),
            lang,
        )


def read_item(r: TableReader) -> Question:
    """A next-leader item of a lesson file, what it states checked against the engine."""
    plays = r.cards("plays")
    trump = r.trump("trump")
    names = r.names("players") or r.engine(lambda: default_names(check_players(len(plays))))
    led = read_seat(r, "led", names) if r.has("led") else 0
    question: NextLeaderQuestion = r.engine(lambda: NextLeaderQuestion.of(plays, trump, names, led))
    check_stated_seat(
        r,
        "next",
        names,
        question.correct_answer(),
        what="next leader",
        rule="the player who takes the trick leads the next one",
    )
    return question


KIND = ItemKind("next-leader", ("plays", "trump", "players", "led", "next"), read_item)
