"""Quiz questions about setting up a round, graded by the engine: how many rounds and
cards (:class:`ScheduleQuestion`), who deals (:class:`DealerQuestion`), who bids first
(:class:`FirstBidderQuestion`), which bids are legal (:class:`LegalBidsQuestion`) and who
can see a bid (:class:`BidVisibilityQuestion`).

Like the questions of :mod:`tutor.teaching.quiz` (about playing the cards), each holds only the
situation and is a :class:`tutor.teaching.quiz.Question`: the answer and its reason come from the
engine's schedule, :class:`tutor.rules.game.Game` and :class:`tutor.rules.round.Round`.

>>> q = FirstBidderQuestion(players=4, dealer=3)
>>> [q.choice_label(seat) for seat in q.choices()], q.check(1).as_text()
(['A', 'B', 'C', 'D'], "Not quite. A sits on the dealer's left, so A bids first and leads the first trick; the bids go clockwise: A, B, C, D.")
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from tutor.errors import IllegalBidError, InvalidDealError, InvalidPlayersError
from tutor.rules.cards import DECK, Suit
from tutor.rules.checks import is_whole_number
from tutor.rules.game import Game
from tutor.rules.round import Phase, Round
from tutor.rules.schedule import GameLength, cards_per_round
from tutor.rules.seats import check_players, default_names
from tutor.rules.variants import Bidding, Rules
from tutor.teaching.quiz import AnswerKind, Feedback, Question, Topic, length_name
from tutor.teaching.text import DEFAULT_LANGUAGE, join_sentences, join_words, text


def _yes_no(value: bool, lang: str) -> str:
    return text("round-quiz.yes" if value else "round-quiz.no", lang)


def _check_round(number: object, players: int, length: GameLength) -> None:
    rounds = len(cards_per_round(players, length))
    if not is_whole_number(number) or not 1 <= number <= rounds:
        raise InvalidDealError(
            f"there is no round {number!r}: the {length.value} game with "
            f"{players} players has {rounds} rounds"
        )


def _seat(value: object, players: int, what: str) -> int:
    if not is_whole_number(value) or not 0 <= value < players:
        raise InvalidPlayersError(f"invalid {what} seat {value!r}: seats are 0 to {players - 1}")
    return value


def _ready_to_bid(rnd: Round) -> Round:
    """``rnd`` past the dealer's trump choice (if a Wizard was turned): bidding is due."""
    if rnd.phase is Phase.TRUMP_CHOICE:
        rnd.choose_trump(Suit.YELLOW)  # any suit: these questions do not depend on trump
    return rnd


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
            _check_round(self.round, self.players, self.length)
        elif self.round is not None:
            raise InvalidDealError("a question about the number of rounds takes no round")

    @property
    def topic(self) -> Topic:
        if self.length is GameLength.STANDARD:
            return Topic.CARDS_AND_ROUNDS
        return Topic.VARIANTS

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


class _SeatQuestion(Question):
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
        return self.seat_names()[_seat(choice, self.players, "chosen")]

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


@dataclass(frozen=True, slots=True)
class DealerQuestion(_SeatQuestion):
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
        _seat(self.first_dealer, self.players, "dealer")
        _check_round(self.round, self.players, GameLength.STANDARD)

    @property
    def topic(self) -> Topic:
        return Topic.CARDS_AND_ROUNDS

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
        dealers = join_words((
            text("round-quiz.dealer-round", lang, round=n, player=names[game.dealer_of(n)])
            for n in range(1, self.round + 1)
        ), lang)
        why = text("round-quiz.dealer-why", lang, dealers=dealers)
        return self._answer_is(answer, game.dealer_of(self.round), why, lang)


@dataclass(frozen=True, slots=True)
class FirstBidderQuestion(_SeatQuestion):
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
        _seat(self.dealer, self.players, "dealer")

    @property
    def topic(self) -> Topic:
        return Topic.BIDDING

    def bidding_order(self) -> list[int]:
        """The seats in the order the engine asks them to bid."""
        rnd = _ready_to_bid(Round(players=self.players, cards=1, dealer=self.dealer, seed=0))
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
        _ready_to_bid(rnd)
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

    def correct_answer(self) -> bool:
        # Play a small round with the engine up to the moment asked about.
        rnd = _ready_to_bid(
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
