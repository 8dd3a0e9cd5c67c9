"""Who can see a bid, and when? (``kind = "bid-visibility"``): the question, its grading by
the engine, and the reader that checks what a lesson file states of it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from tutor.rules.round import Phase, Round
from tutor.rules.variants import Bidding, Rules
from tutor.teaching.kinds.round_setup import ready_to_bid
from tutor.teaching.lesson_reader import ItemKind, TableReader
from tutor.teaching.question import BIDDING_RULES, AnswerKind, Feedback, Question, Topic
from tutor.teaching.text import DEFAULT_LANGUAGE, text


def _yes_no(value: bool, lang: str) -> str:
    return text("round-quiz.yes" if value else "round-quiz.no", lang)


class BidTime(StrEnum):
    """When a :class:`BidVisibilityQuestion` asks who can see a bid."""

    BIDDING = "bidding"
    """You have bid; others are still bidding."""
    PLAYING = "playing"
    """Everyone has bid; the cards are being played."""
    SCORING = "scoring"
    """The round is over and is being scored."""


@dataclass(frozen=True, slots=True)
class BidVisibilityQuestion(Question):
    """Can the other players see your bid now, with this way of bidding?

    >>> q = BidVisibilityQuestion(bidding=Bidding.SECRET, when=BidTime.PLAYING)
    >>> q.correct_answer(), q.check(True).correct, q.choice_label(True)
    (False, False, 'yes')
    """

    bidding: Bidding
    when: BidTime
    answer_kind: ClassVar[AnswerKind] = AnswerKind.ONE_CHOICE

    @property
    def topic(self) -> Topic:
        return Topic.BIDDING if self.bidding is Bidding.OPEN else Topic.VARIANTS

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule of its way of bidding.

        >>> BidVisibilityQuestion(bidding=Bidding.OPEN, when=BidTime.BIDDING).rules
        ('open-bids',)
        """
        return (BIDDING_RULES[self.bidding],)

    def correct_answer(self) -> bool:
        # Play a small round with the engine up to the moment asked about.
        rnd = ready_to_bid(
            Round(players=3, cards=1, dealer=0, seed=0, rules=Rules(bidding=self.bidding))
        )
        you = rnd.to_act
        assert you is not None
        rnd.bid(0)
        if self.when is not BidTime.BIDDING:
            while rnd.phase is Phase.BIDDING:
                rnd.bid(0)
        if self.when is BidTime.SCORING:
            while not rnd.finished:
                rnd.play(rnd.legal_plays()[0])
        return rnd.bid_visible(you, to=(you + 1) % rnd.players)

    def choices(self) -> tuple[bool, ...]:
        return (True, False)

    def choice_label(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        return _yes_no(bool(choice), lang)

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        mode = text(f"round-quiz.visibility-mode-{self.bidding.value}", lang)
        return text(f"round-quiz.visibility-prompt-{self.when.value}", lang, mode=mode)

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz-hint.visibility", lang)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        right = self.correct_answer()
        return Feedback.graded(
            answer is right,
            text("round-quiz.answer", lang, value=_yes_no(right, lang)),
            text(f"bidding-mode.{self.bidding.value}", lang),
            lang,
        )


def read_item(r: TableReader) -> Question:
    """A bid-visibility item of a lesson file, what it states checked against the engine."""
    # Rules parses the mode's name, and its error lists the valid ones.
    rules: Rules = r.engine(lambda: Rules(bidding=r.string("bidding")))  # type: ignore[arg-type]
    bidding = rules.bidding
    when_text = r.string("when")
    if when_text not in {time.value for time in BidTime}:
        raise r.fail(
            f"'when' is {when_text!r}; use one of " + ", ".join(repr(t.value) for t in BidTime)
        )
    question = BidVisibilityQuestion(bidding=bidding, when=BidTime(when_text))
    stated, engine = r.boolean("visible"), question.correct_answer()
    if stated != engine:
        raise r.fail(
            f"states visible = {str(stated).lower()} but the engine says "
            f"{str(engine).lower()} ({bidding.value} bids, {when_text})"
        )
    return question


KIND = ItemKind("bid-visibility", ("bidding", "when", "visible"), read_item)
