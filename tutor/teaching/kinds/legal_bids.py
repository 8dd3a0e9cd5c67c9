"""Which bids are legal? (``kind = "legal-bids"``): the question, its grading by the engine,
and the reader that checks what a lesson file states of it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from tutor.errors import IllegalBidError
from tutor.rules.round import Round
from tutor.rules.seats import check_players
from tutor.rules.variants import Rules
from tutor.teaching.kinds.round_setup import ready_to_bid
from tutor.teaching.lesson_reader import ItemKind, TableReader
from tutor.teaching.question import AnswerKind, Feedback, Question, Topic
from tutor.teaching.text import DEFAULT_LANGUAGE, join_sentences, join_words, text


@dataclass(frozen=True, slots=True)
class LegalBidsQuestion(Question):
    """Which bids may the next player make, after ``bids`` (the earlier bids, in order)?

    The answer is the set of legal bids; under plus/minus one the last bidder may not make
    the total equal the number of tricks.

    >>> q = LegalBidsQuestion(players=4, cards=3, bids=(1, 2, 0), plus_minus_one=True)
    >>> sorted(q.correct_answer()), q.choice_mark(0)
    ([1, 2, 3], 'may not be bid')
    >>> print(q.check([0, 1, 2, 3]).explanation)
    A bid is a number of tricks from 0 to 3. The other bids add up to 3; a bid of 0 would make the total equal the 3 tricks of the round, so plus/minus one forbids it to the last bidder.
    >>> LegalBidsQuestion(players=3, cards=2, bids=(3,))
    Traceback (most recent call last):
    ...
    tutor.errors.IllegalBidError: invalid bid 3 by seat 0 (A): a bid is a whole number of tricks from 0 to 2 in a round of 2 cards
    """

    players: int
    cards: int
    bids: tuple[int, ...] = ()
    plus_minus_one: bool = False
    answer_kind: ClassVar[AnswerKind] = AnswerKind.MANY_CHOICES

    def __post_init__(self) -> None:
        check_players(self.players)
        if len(self.bids) >= self.players:
            raise IllegalBidError(
                f"{len(self.bids)} earlier bids for {self.players} players: "
                "someone must still be left to bid"
            )
        self.bidding_round()  # validates the cards and every earlier bid

    @property
    def topic(self) -> Topic:
        return Topic.VARIANTS if self.plus_minus_one else Topic.BIDDING

    @property
    def rules(self) -> tuple[str, ...]:
        """What a bid may be; then, under plus/minus one, that rule (it binds only the last
        bidder, which the question asks too), else, for the last bidder, that any total
        is allowed.

        >>> LegalBidsQuestion(players=4, cards=3, bids=(1, 2, 0)).rules
        ('bid-range', 'any-total-allowed')
        >>> LegalBidsQuestion(players=4, cards=3, bids=(1,), plus_minus_one=True).rules
        ('bid-range', 'plus-minus-one')
        """
        last = len(self.bids) == self.players - 1
        if self.plus_minus_one:
            return ("bid-range", "plus-minus-one")
        return ("bid-range", "any-total-allowed") if last else ("bid-range",)

    def bidding_round(self) -> Round:
        """The engine's round with the earlier bids made: the next bid is due."""
        # The dealer sits last, so the first earlier bid is seat 0's.
        rnd = Round(
            players=self.players,
            cards=self.cards,
            dealer=self.players - 1,
            seed=0,
            rules=Rules(plus_minus_one=self.plus_minus_one),
        )
        ready_to_bid(rnd)
        for bid in self.bids:
            rnd.bid(bid)
        return rnd

    def correct_answer(self) -> frozenset[int]:
        return frozenset(self.bidding_round().legal_bids())

    def choices(self) -> tuple[int, ...]:
        return tuple(range(self.cards + 1))

    def is_right_choice(self, choice: object) -> bool:
        return choice in self.correct_answer()

    def choice_mark(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        key = "round-quiz.legal-bid" if self.is_right_choice(choice) else "round-quiz.illegal-bid"
        return text(key, lang, bid=choice)

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        variant = text("round-quiz.legal-bids-variant", lang) if self.plus_minus_one else ""
        key = "round-quiz.legal-bids-prompt" if self.bids else "round-quiz.legal-bids-prompt-first"
        return text(
            key,
            lang,
            cards=self.cards,
            players=self.players,
            variant=variant,
            bids=join_words(map(str, self.bids), lang),
        )

    def explain(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """Why these bids are legal: the range, and what plus/minus one forbids, if anything."""
        reasons = [text("round-quiz.bids-range", lang, cards=self.cards)]
        last = len(self.bids) == self.players - 1
        total = sum(self.bids)
        forbidden = self.bidding_round().forbidden_bid()
        if not self.plus_minus_one:
            if self.bids:  # the first bid has no total to speak of yet
                reasons.append(text("round-quiz.bids-any-total", lang, cards=self.cards))
        elif not last:
            reasons.append(text("round-quiz.bids-not-last", lang))
        elif forbidden is not None:
            reasons.append(
                text(
                    "round-quiz.bids-forbidden",
                    lang,
                    total=total,
                    forbidden=forbidden,
                    cards=self.cards,
                )
            )
        else:
            reasons.append(
                text("round-quiz.bids-none-forbidden", lang, total=total, cards=self.cards)
            )
        return join_sentences(reasons)

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        key = "legal-bids-plus-minus-one" if self.plus_minus_one else "legal-bids"
        return text(f"quiz-hint.{key}", lang, cards=self.cards)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        if not isinstance(answer, Iterable) or isinstance(answer, str):
            raise IllegalBidError(f"answer with the bids the player may make, not {answer!r}")
        right = self.correct_answer()
        # The prompt of the first bid speaks to "you", the others of "the next player".
        key = "round-quiz.answer-bids" if self.bids else "round-quiz.answer-bids-first"
        return Feedback.graded(
            frozenset(answer) == right,
            text(key, lang, bids=join_words(map(str, sorted(right)), lang)),
            self.explain(lang),
            lang,
        )


def read_item(r: TableReader) -> Question:
    """A legal-bids item of a lesson file, what it states checked against the engine."""
    players, cards = r.integer("players"), r.integer("cards")
    bids = r.integers("bids", ())
    plus_minus_one = r.boolean("plus-minus-one", False)
    question: LegalBidsQuestion = r.engine(
        lambda: LegalBidsQuestion(
            players=players, cards=cards, bids=bids, plus_minus_one=plus_minus_one
        )
    )
    stated, engine = frozenset(r.integers("legal")), question.correct_answer()
    if stated != engine:
        forbidden = question.bidding_round().forbidden_bid()
        why = (
            f"plus/minus one forbids {forbidden}"
            if forbidden is not None
            else f"bids run from 0 to {cards} and none is forbidden"
        )
        raise r.fail(
            f"states legal bids {sorted(stated)} but the engine says {sorted(engine)} ({why})"
        )
    return question


KIND = ItemKind("legal-bids", ("players", "cards", "bids", "plus-minus-one", "legal"), read_item)
