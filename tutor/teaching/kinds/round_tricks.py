"""A short round played through (:class:`ShortRound`), and who takes one of its tricks
(``kind = "round-tricks"``): the question, its grading by the engine, and the reader that
checks what a lesson file states of it. Whose bid the round meets is the next kind
(:mod:`tutor.teaching.kinds.bids_met`), on the same round.

A round is stated by its table (the players clockwise, the dealer), the turned card, the
bids and the cards of each trick in the order played. Who played which card follows from
the rules (the seat left of the dealer leads the first trick, each trick's winner the
next): the round is dealt those hands and played through by :class:`tutor.rules.round.Round`,
so an illegal card or an impossible deal is refused with the engine's reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from tutor.errors import InvalidDealError
from tutor.rules.cards import Card, Suit, parse_card, parse_cards
from tutor.rules.round import Phase, Round
from tutor.rules.seats import check_players, seat_order
from tutor.rules.trick import explain_trick
from tutor.rules.trump import parse_trump, reveal_trump
from tutor.teaching.explain import card_name, describe_trick
from tutor.teaching.kinds.round_setup import check_seat
from tutor.teaching.kinds.trick_winner import TrickWinnerQuestion
from tutor.teaching.lesson_reader import (
    ItemKind,
    TableReader,
    describe_value,
    read_players,
    read_seat,
)
from tutor.teaching.question import AnswerKind, Feedback, Question, Scene, Topic, trump_sentence
from tutor.teaching.situations import Situation, trick_situations, winner_rules
from tutor.teaching.text import DEFAULT_LANGUAGE, join_sentences, join_words, text


@dataclass(frozen=True, slots=True)
class ShortRound:
    """A round played through: the table, the turned card, the bids and the cards of each
    trick in play order; everything else (who played what, who took each trick, the
    scores) is the engine's.

    The worked example of RULES.md:

    >>> example = ShortRound.of(
    ...     names="ABCD", dealer=3, turned="R9", bids=(1, 2, 0, 0),
    ...     tricks=("J B5 B11 B7", "R4 R12 R2 W", "G3 J G10 G8"))
    >>> example.leaders(), example.winners(), example.played().taken
    ((0, 2, 1), (2, 1, 3), (0, 1, 1, 1))

    C plays red 2 on blue 5, then leads blue 9: C held blue and did not follow.

    >>> ShortRound.of(names="ABC", dealer=2, turned="R9", bids=(0, 0, 0),
    ...               tricks=("B5 B7 R2", "B9 G1 G2"))
    Traceback (most recent call last):
    ...
    tutor.errors.IllegalPlayError: illegal play 'R2' by seat 2 (C): blue was led and the hand holds blue (B9); follow suit, or play a Wizard or a Jester
    """

    names: tuple[str, ...]
    dealer: int
    turned: Card | None
    bids: tuple[int, ...]
    tricks: tuple[tuple[Card, ...], ...]
    chosen: Suit | None = None
    """The trump the dealer named after turning a Wizard (else ``None``)."""

    @classmethod
    def of(
        cls,
        *,
        names: Sequence[str],
        dealer: int,
        turned: Card | str | None,
        bids: Sequence[int],
        tricks: Sequence[str | Iterable[Card | str]],
        chosen: Suit | str | None = None,
    ) -> ShortRound:
        """The round, checked by playing it through with the engine."""
        played = cls(
            tuple(names),
            dealer,
            None if turned is None else parse_card(turned),
            tuple(bids),
            tuple(tuple(parse_cards(trick)) for trick in tricks),
            parse_trump(chosen),
        )
        played.played()  # validates the deal, the bids and every card
        return played

    @classmethod
    def from_round(cls, rnd: Round) -> ShortRound:
        """A finished round of the engine, as a short round to ask about.

        >>> rnd = Round(players=3, cards=2, dealer=0, seed=4)
        >>> if rnd.phase is Phase.TRUMP_CHOICE: _ = rnd.choose_trump("R")
        >>> for _ in range(3): _ = rnd.bid(0)
        >>> while not rnd.finished: _ = rnd.play(rnd.legal_plays()[0])
        >>> ShortRound.from_round(rnd).played().taken == rnd.taken
        True
        """
        if not rnd.finished:
            raise InvalidDealError(
                f"the round is not finished: {len(rnd.tricks)} of {rnd.cards} tricks played"
            )
        return cls(
            rnd.names,
            rnd.dealer,
            rnd.turned,
            rnd.final_bids,
            tuple(trick.cards for trick in rnd.tricks),
            rnd.chosen_trump,
        )

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def trump(self) -> Suit | None:
        """The trump of the round: the turned card's suit, or the dealer's choice."""
        reveal = reveal_trump(self.turned)
        return self.chosen if reveal.dealer_chooses else reveal.trump

    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """The hands dealt, by seat: the cards each seat played, found by the leads (the
        seat left of the dealer leads the first trick, the winner of a trick the next)."""
        players = check_players(len(self.names))
        check_seat(self.dealer, players, "dealer")
        hands: list[list[Card]] = [[] for _ in range(players)]
        leader = (self.dealer + 1) % players
        for number, trick in enumerate(self.tricks, start=1):
            if len(trick) != players:
                raise InvalidDealError(
                    f"trick {number} has {len(trick)} cards, but each of the {players} "
                    "players plays one card to every trick"
                )
            seats = seat_order(leader, players)
            for seat, card in zip(seats, trick, strict=True):
                hands[seat].append(card)
            leader = seats[explain_trick(trick, self.trump).winner]
        return tuple(map(tuple, hands))

    def played(self) -> Round:
        """The round dealt :meth:`hands`, bid and played through by the engine."""
        if not self.tricks:
            raise InvalidDealError("a round has at least one trick")
        if len(self.bids) != len(self.names):
            raise InvalidDealError(
                f"{len(self.bids)} bids for {len(self.names)} players: {list(self.bids)!r}"
            )
        rnd = Round(hands=self.hands(), turned=self.turned, dealer=self.dealer, names=self.names)
        if rnd.phase is Phase.TRUMP_CHOICE:
            if self.chosen is None:
                raise InvalidDealError(
                    f"a Wizard was turned: give the trump the dealer {self.names[self.dealer]} "
                    "chose"
                )
            rnd.choose_trump(self.chosen)
        elif self.chosen is not None:
            raise InvalidDealError(
                f"the dealer chooses trump only after turning a Wizard, not {self.turned}"
            )
        while rnd.phase is Phase.BIDDING:
            seat = rnd.to_act
            assert seat is not None
            rnd.bid(self.bids[seat])
        for trick in self.tricks:
            for card in trick:
                rnd.play(card)
        return rnd

    def leaders(self) -> tuple[int, ...]:
        """The seat that led each trick."""
        return tuple(trick.leader for trick in self.played().tricks)

    def winners(self) -> tuple[int, ...]:
        """The seat that took each trick (the engine's)."""
        return tuple(trick.winner for trick in self.played().tricks)

    def played_by(self, number: int) -> tuple[str, ...]:
        """Who played each card of trick ``number`` (from 1), in play order."""
        trick = self.played().tricks[self.trick_index(number)]
        return tuple(self.names[seat] for seat in trick.seats)

    def trick_index(self, number: object) -> int:
        """The index of trick ``number`` (from 1) in :attr:`tricks`, or an error naming
        the tricks the round has.

        >>> ShortRound.of(names="ABC", dealer=0, turned="R9", bids=(0, 0, 0),
        ...               tricks=("B5 B7 B2",)).trick_index(2)
        Traceback (most recent call last):
        ...
        tutor.errors.InvalidDealError: there is no trick 2: the round has tricks 1 to 1
        """
        if not isinstance(number, int) or not 1 <= number <= len(self.tricks):
            raise InvalidDealError(
                f"there is no trick {number!r}: the round has tricks 1 to {len(self.tricks)}"
            )
        return number - 1

    def bids_words(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The bids as a sentence ("Bids: A 1, B 2, C 0, D 0.")."""
        bids = join_words(
            (
                text("quiz.round-bid", lang, player=name, bid=bid)
                for name, bid in zip(self.names, self.bids, strict=True)
            ),
            lang,
        )
        return text("quiz.round-bids", lang, bids=bids)

    def tricks_words(self, upto: int | None = None, lang: str = DEFAULT_LANGUAGE) -> str:
        """Tricks 1 to ``upto`` (default all), each a sentence of its cards and players."""
        rnd = self.played()
        sentences = []
        for trick in rnd.tricks[: upto if upto is not None else len(self.tricks)]:
            plays = join_words(
                (
                    text("quiz.trick-play", lang, player=self.names[seat], card=card_name(c, lang))
                    for seat, c in trick.plays
                ),
                lang,
            )
            sentences.append(text("quiz.round-trick", lang, number=trick.number, plays=plays))
        return join_sentences(sentences)

    def trick_sentences(self, lang: str = DEFAULT_LANGUAGE) -> tuple[str, ...]:
        """Per trick, who took it and why (the engine's reason)."""
        return tuple(
            text(
                "quiz.round-trick-why",
                lang,
                number=trick.number,
                why=describe_trick(
                    trick.explanation, [self.names[seat] for seat in trick.seats], lang
                ),
            )
            for trick in self.played().tricks
        )


@dataclass(frozen=True, slots=True)
class RoundTricksQuestion(Question):
    """Who takes trick ``trick`` (from 1) of a round played through? The answer is a seat.

    >>> example = ShortRound.of(
    ...     names="ABCD", dealer=3, turned="R9", bids=(1, 2, 0, 0),
    ...     tricks=("J B5 B11 B7", "R4 R12 R2 W", "G3 J G10 G8"))
    >>> q = RoundTricksQuestion(example, trick=2)
    >>> q.choice_label(q.correct_answer())
    'B'
    >>> print(q.check(3).as_text())
    Not quite. B takes the trick with the Wizard: the first Wizard played always wins. B leads trick 3.
    """

    round: ShortRound
    trick: int
    answer_kind: ClassVar[AnswerKind] = AnswerKind.ONE_CHOICE

    def __post_init__(self) -> None:
        self.round.trick_index(self.trick)

    def _cards(self) -> tuple[Card, ...]:
        return self.round.tricks[self.trick - 1]

    @property
    def topic(self) -> Topic:
        return Topic.ROUND_PLAYED

    @property
    def situations(self) -> tuple[Situation, ...]:
        return trick_situations(self._cards(), self.round.trump)

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules that decide the trick asked (the question says who played each card,
        so who led it is shown, not asked).

        >>> example = ShortRound.of(
        ...     names="ABCD", dealer=3, turned="R9", bids=(1, 2, 0, 0),
        ...     tricks=("J B5 B11 B7", "R4 R12 R2 W", "G3 J G10 G8"))
        >>> RoundTricksQuestion(example, trick=3).rules
        ('highest-led-suit-wins', 'jester-never-wins-with-others')
        """
        return winner_rules(self._cards(), self.round.trump)

    def correct_answer(self) -> int:
        return self.round.winners()[self.trick - 1]

    def choices(self) -> tuple[int, ...]:
        return tuple(range(self.round.players))

    def choice_label(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        return self.round.names[check_seat(choice, self.round.players, "chosen")]

    def choice_mark(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz.winner-mark", lang) if self.is_right_choice(choice) else ""

    def scene(self) -> Scene:
        return Scene(trick=self._cards())

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text(
            "quiz.round-tricks-prompt",
            lang,
            trump=trump_sentence(self.round.trump, lang),
            tricks=self.round.tricks_words(self.trick, lang),
            number=self.trick,
        )

    def situation_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return join_sentences(
            (trump_sentence(self.round.trump, lang), self.round.tricks_words(self.trick, lang))
        )

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return TrickWinnerQuestion(self._cards(), self.round.trump).hint(lang)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        trick = self.round.played().tricks[self.trick - 1]
        names = self.round.names
        why = describe_trick(trick.explanation, [names[seat] for seat in trick.seats], lang)
        if self.trick < len(self.round.tricks):
            then = text(
                "quiz.round-tricks-next", lang, winner=names[trick.winner], next=self.trick + 1
            )
        else:
            then = text("quiz.round-tricks-last", lang)
        return Feedback.graded(answer == trick.winner, why, then, lang)


def read_round(r: TableReader) -> ShortRound:
    """The round an item states: ``players``, ``dealer``, ``turned`` (a card, or
    ``"nothing"`` when every card is dealt), ``trump`` (only after a turned Wizard: the
    dealer's choice), ``bids`` (by seat) and ``tricks`` (the cards of each trick in play
    order)."""
    names = read_players(r)
    dealer = read_seat(r, "dealer", names)
    turned_text = r.string("turned")
    turned = None if turned_text == "nothing" else r.engine(lambda: parse_card(turned_text))
    chosen = r.trump("trump") if r.has("trump") else None
    bids = r.integers("bids")
    tricks = r._get("tricks", list)
    if not all(isinstance(trick, str) for trick in tricks):
        raise r.fail(
            f"'tricks' lists each trick's cards in play order, like \"J B5 B11 B7\", got "
            f"{describe_value(tricks)}"
        )
    return r.engine(  # type: ignore[no-any-return]
        lambda: ShortRound.of(
            names=names, dealer=dealer, turned=turned, bids=bids, tricks=tricks, chosen=chosen
        )
    )


ROUND_KEYS = ("players", "dealer", "turned", "trump", "bids", "tricks")
"""The keys that state a round (:func:`read_round`)."""


def read_item(r: TableReader) -> Question:
    """A round-tricks item of a lesson file, what it states checked against the engine."""
    played = read_round(r)
    question: RoundTricksQuestion = r.engine(
        lambda: RoundTricksQuestion(played, trick=r.integer("trick"))
    )
    stated, names = r.string("winner"), played.names
    if stated not in names:  # said as a trick-winner item says it
        raise r.fail(f"states winner {stated!r}, who is not one of the players {' '.join(names)}")
    engine = question.correct_answer()
    if stated != names[engine]:
        leader = names[played.leaders()[question.trick - 1]]
        led = "left of the dealer" if question.trick == 1 else "winner of the trick before"
        raise r.fail(
            f"states winner of trick {question.trick} {stated!r} but the engine says "
            f"{names[engine]!r} (led by {leader}, the {led})"
        )
    return question


KIND = ItemKind("round-tricks", (*ROUND_KEYS, "trick", "winner"), read_item)
