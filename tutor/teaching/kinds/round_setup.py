"""What the kinds about setting up a round share: checking a round number and a seat, a
round ready for its bids, and the question whose answer is a seat."""

from __future__ import annotations

from typing import ClassVar

from tutor.errors import InvalidDealError, InvalidPlayersError
from tutor.rules.cards import Suit
from tutor.rules.checks import is_whole_number
from tutor.rules.round import Phase, Round
from tutor.rules.schedule import GameLength, cards_per_round
from tutor.rules.seats import check_players, default_names
from tutor.teaching.question import AnswerKind, Feedback, Question
from tutor.teaching.text import DEFAULT_LANGUAGE, text


def check_round(number: object, players: int, length: GameLength) -> None:
    """Refuse a round ``number`` the game of ``players`` and ``length`` does not have."""
    rounds = len(cards_per_round(players, length))
    if not is_whole_number(number) or not 1 <= number <= rounds:
        raise InvalidDealError(
            f"there is no round {number!r}: the {length.value} game with "
            f"{players} players has {rounds} rounds"
        )


def check_seat(value: object, players: int, what: str) -> int:
    """``value`` if it is a seat of ``players`` (0 first), else an error naming ``what``."""
    if not is_whole_number(value) or not 0 <= value < players:
        raise InvalidPlayersError(f"invalid {what} seat {value!r}: seats are 0 to {players - 1}")
    return value


def ready_to_bid(rnd: Round) -> Round:
    """``rnd`` past the dealer's trump choice (if a Wizard was turned): bidding is due."""
    if rnd.phase is Phase.TRUMP_CHOICE:
        rnd.choose_trump(Suit.YELLOW)  # any suit: these questions do not depend on trump
    return rnd


class SeatQuestion(Question):
    """Shared by the questions answered with a seat: the choices are the seats, named."""

    __slots__ = ()
    answer_kind: ClassVar[AnswerKind] = AnswerKind.ONE_CHOICE
    players: int
    names: tuple[str, ...]

    def seat_names(self) -> tuple[str, ...]:
        """The players' names, clockwise (by default A, B, C...)."""
        return self.names or default_names(self.players)

    def choices(self) -> tuple[int, ...]:
        return tuple(range(self.players))

    def choice_label(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        return self.seat_names()[check_seat(choice, self.players, "chosen")]

    def _check_names(self) -> None:
        check_players(self.players)
        if len(self.seat_names()) != self.players:
            raise InvalidPlayersError(
                f"{len(self.names)} names given for {self.players} players: {list(self.names)!r}"
            )

    def _answer_is(self, answer: object, right: int, explanation: str, lang: str) -> Feedback:
        player = self.seat_names()[right]
        return Feedback.graded(
            answer == right,
            text("round-quiz.answer", lang, value=player),
            explanation,
            lang,
        )
