"""Who bids first? (``kind = "first-bidder"``): the question, its grading by the engine, and
the reader that checks what a lesson file states of it."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.rules.round import Phase, Round
from tutor.teaching.kinds.round_setup import SeatQuestion, check_seat, ready_to_bid
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
class FirstBidderQuestion(SeatQuestion):
    """Who bids first (and leads the first trick) when ``dealer`` deals?

    >>> q = FirstBidderQuestion(players=4, dealer=3)
    >>> q.choice_label(q.correct_answer())
    'A'
    >>> print(q.check(0).answer)
    A sits on the dealer's left, so A bids first and leads the first trick; the bids go clockwise: A, B, C, D.
    """

    players: int
    dealer: int
    names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        self._check_names()
        check_seat(self.dealer, self.players, "dealer")

    @property
    def topic(self) -> Topic:
        return Topic.BIDDING

    @property
    def rules(self) -> tuple[str, ...]:
        """
        >>> FirstBidderQuestion(players=4, dealer=3).rules
        ('left-of-dealer-starts',)
        """
        return ("left-of-dealer-starts",)

    def bidding_order(self) -> list[int]:
        """The seats in the order the engine asks them to bid."""
        rnd = ready_to_bid(Round(players=self.players, cards=1, dealer=self.dealer, seed=0))
        order = []
        while rnd.phase is Phase.BIDDING:
            assert rnd.to_act is not None
            order.append(rnd.to_act)
            rnd.bid(0)
        return order

    def correct_answer(self) -> int:
        return self.bidding_order()[0]

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        names = self.seat_names()
        return text(
            "round-quiz.first-bidder-prompt",
            lang,
            names=join_words(names, lang),
            dealer=names[self.dealer],
        )

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz-hint.first-bidder", lang)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        names = self.seat_names()
        order = self.bidding_order()
        why = text(
            "round-quiz.first-bidder-why",
            lang,
            first=names[order[0]],
            order=join_words((names[seat] for seat in order), lang),
        )
        # The reason names the first bidder: it is the whole answer.
        return Feedback.graded(answer == order[0], why, "", lang)


def read_item(r: TableReader) -> Question:
    """A first-bidder item of a lesson file, what it states checked against the engine."""
    names = read_players(r)
    dealer = read_seat(r, "dealer", names)
    question: FirstBidderQuestion = r.engine(
        lambda: FirstBidderQuestion(players=len(names), dealer=dealer, names=names)
    )
    check_stated_seat(
        r,
        "first",
        names,
        question.correct_answer(),
        what="first bidder",
        rule="the player on the dealer's left bids first",
    )
    return question


KIND = ItemKind("first-bidder", ("players", "dealer", "first"), read_item)
