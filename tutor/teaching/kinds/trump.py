"""Which suit is trump? (``kind = "trump"``): the question, its grading by the engine, and
the reader that checks what a lesson file states of it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, cast

from tutor.errors import InvalidDealError
from tutor.rules.cards import DECK, Card, Suit, parse_card
from tutor.rules.checks import is_whole_number
from tutor.rules.round import Round
from tutor.rules.schedule import GameLength, cards_per_round, parse_length
from tutor.rules.trump import RevealRule, parse_trump, reveal_trump
from tutor.teaching.explain import describe_reveal, suit_name
from tutor.teaching.lesson_reader import ItemKind, TableReader, read_length
from tutor.teaching.question import (
    LENGTH_RULES,
    AnswerKind,
    Feedback,
    Question,
    Scene,
    Topic,
    length_name,
)
from tutor.teaching.text import DEFAULT_LANGUAGE, join_sentences, text

DEALER_CHOOSES = "dealer-chooses"
"""The answer to a trump question when a Wizard is turned."""


TrumpAnswer = Suit | None | str


@dataclass(frozen=True, slots=True)
class TrumpQuestion(Question):
    """Which suit is trump? Answers: a suit, ``None`` (no trump) or ``DEALER_CHOOSES``.

    ``turned`` is the card turned (``None``: nothing was left to turn). The question may
    also give the deal (``players`` and ``round`` of a game of ``length``): the learner then
    works out whether it deals every card, leaving nothing to turn (the last round of a
    standard game), or leaves cards for the turn (the last round of a five-round game).

    >>> TrumpQuestion.of("W").correct_answer()
    'dealer-chooses'
    >>> TrumpQuestion.of("J").check(None).correct, TrumpQuestion.of(None).correct_answer()
    (True, None)
    >>> [TrumpQuestion.of("R9").choice_label(choice) for choice in ("R", None)]
    ['red (R)', 'no trump']
    >>> last = TrumpQuestion.of(None, players=5, round=12)
    >>> print(last.prompt()); print(last.check(None).answer)
    Round 12 of the standard game with 5 players: each player is dealt 12 cards. Which suit is trump?
    5 players × 12 cards = 60 cards, the whole deck: nothing is left to turn, so there is no trump this round.
    >>> print(TrumpQuestion.of("R2", players=6, round=5, length="five").check("R").answer)
    6 players × 5 cards = 30 of the 60 cards: not every card is dealt, so one is left to turn. The red 2 is turned, so red is trump this round (the whole suit, not just that card).
    >>> TrumpQuestion.of(None, players=5, round=11)
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidDealError: round 11 of the standard game with 5 players deals 55 of the 60 cards: the top card of the stock is turned (give turned=)
    """

    turned: Card | None
    players: int | None = None
    round: int | None = None
    length: GameLength = GameLength.STANDARD
    answer_kind: ClassVar[AnswerKind] = AnswerKind.ONE_CHOICE

    @classmethod
    def of(
        cls,
        turned: Card | str | None,
        *,
        players: int | None = None,
        round: int | None = None,
        length: GameLength | str = GameLength.STANDARD,
    ) -> TrumpQuestion:
        question = cls(
            None if turned is None else parse_card(turned), players, round, parse_length(length)
        )
        if (players is None) != (round is None):
            raise InvalidDealError("give both players= and round= (the deal), or neither")
        deals_all = question.deals_every_card()
        if deals_all is True and turned is not None:
            raise InvalidDealError(
                f"round {round} of the {question.length.value} game with {players} players "
                "deals every card: nothing is left to turn, so give turned=None"
            )
        if deals_all is False and turned is None:
            raise InvalidDealError(
                f"round {round} of the {question.length.value} game with {players} players "
                f"deals {question._dealt()} of the {len(DECK)} cards: the top card of the "
                "stock is turned (give turned=)"
            )
        return question

    def _cards_each(self) -> int:
        assert self.players is not None and self.round is not None
        schedule = cards_per_round(self.players, self.length)
        if not is_whole_number(self.round) or not 1 <= self.round <= len(schedule):
            raise InvalidDealError(
                f"there is no round {self.round!r}: the {self.length.value} game with "
                f"{self.players} players has {len(schedule)} rounds"
            )
        return schedule[self.round - 1]

    def _dealt(self) -> int:
        assert self.players is not None
        return self.players * self._cards_each()

    def deals_every_card(self) -> bool | None:
        """Whether the question's deal leaves nothing to turn, as the engine deals the
        round; ``None`` for a question without a deal."""
        if self.players is None:
            return None
        deal = Round(players=self.players, cards=self._cards_each(), seed=0)
        return deal.reveal.rule is RevealRule.NOTHING_LEFT

    @property
    def topic(self) -> Topic:
        return Topic.TRUMP_REVEAL

    @property
    def rules(self) -> tuple[str, ...]:
        """The line of the trump-reveal rule that applies; with a deal, first the rule
        that says whether it leaves a card to turn.

        >>> TrumpQuestion.of("W").rules, TrumpQuestion.of(None, players=5, round=12).rules
        (('wizard-turned-dealer-chooses',), ('last-round-deals-every-card', 'nothing-turned-no-trump'))
        """
        reveal = (_REVEAL_RULES[reveal_trump(self.turned).rule],)
        if self.players is None:
            return reveal
        if self.length is GameLength.STANDARD and not self.deals_every_card():
            return ("round-deals-its-number", *reveal)
        return (_DEAL_RULES[self.length], *reveal)

    def correct_answer(self) -> TrumpAnswer:
        reveal = reveal_trump(self.turned)
        return DEALER_CHOOSES if reveal.rule is RevealRule.WIZARD else reveal.trump

    def choices(self) -> tuple[TrumpAnswer, ...]:
        return (*Suit, None, DEALER_CHOOSES)

    def choice_label(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        if choice == DEALER_CHOOSES:
            return text("quiz.choice-dealer-chooses", lang)
        return trump_label(choice, lang)

    def scene(self) -> Scene:
        return Scene(turned=self.turned)

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        if self.players is not None:
            key = (
                "quiz.trump-prompt-deal" if self.turned is None else "quiz.trump-prompt-deal-turned"
            )
            return text(
                key,
                lang,
                players=self.players,
                round=self.round,
                cards=self._cards_each(),
                length=length_name(self.length, lang),
            )
        key = "quiz.trump-prompt" if self.turned is not None else "quiz.trump-prompt-nothing"
        return text(key, lang)

    def situation_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        if self.players is not None:
            return self.prompt(lang)
        return ""  # the answer names the turned card (or says nothing was left)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        right = self.correct_answer()
        given = answer if answer == DEALER_CHOOSES else parse_trump(answer)  # type: ignore[arg-type]
        # The reveal names the turned card and the trump it makes: the whole answer; with a
        # deal, the count of the cards dealt comes first.
        reveal = describe_reveal(reveal_trump(self.turned), lang=lang)
        if self.players is None:
            sentences = [reveal]
        elif self.turned is None:
            sentences = [text("quiz.answer-trump-deal", lang, **self._deal_values())]
        else:
            sentences = [text("quiz.answer-trump-deal-left", lang, **self._deal_values()), reveal]
        return Feedback.graded(given == right, join_sentences(sentences), "", lang)

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        if self.players is not None:
            return text("quiz-hint.trump-deal", lang, **self._deal_values())
        key = "trump-nothing" if self.turned is None else "trump-turned"
        return text(f"quiz-hint.{key}", lang)

    def _deal_values(self) -> dict[str, int]:
        return {
            "players": self.players or 0,
            "cards": self._cards_each(),
            "dealt": self._dealt(),
            "deck": len(DECK),
        }


_REVEAL_RULES = {
    RevealRule.NUMBER_CARD: "number-turned-suit-is-trump",
    RevealRule.JESTER: "jester-turned-no-trump",
    RevealRule.WIZARD: "wizard-turned-dealer-chooses",
    RevealRule.NOTHING_LEFT: "nothing-turned-no-trump",
}
"""The rule (rule-map id) of each line of the trump-reveal table."""

_DEAL_RULES = {GameLength.STANDARD: "last-round-deals-every-card", **LENGTH_RULES}
"""The rule (rule-map id) that says whether a round of each game deals every card (of the
standard game: its last round; the others deal the round's number)."""


def trump_label(choice: object, lang: str) -> str:
    """A suit's words on a trump button ("red (R)"), or "no trump"."""
    suit = parse_trump(cast(Suit | str | None, choice))  # checks at run time
    if suit is None:
        return suit_name(None, lang)
    return text("quiz.trump-choice", lang, colour=suit_name(suit, lang), letter=suit.value)


_REVEAL_WORDS = {
    "number-card": "a turned number card makes its suit trump",
    "jester": "a turned Jester means no trump",
    "wizard": "a turned Wizard lets the dealer choose",
    "nothing-left": "nothing left to turn means no trump",
}


def trump_word(answer: object) -> str:
    return "none" if answer is None else str(answer)


def read_item(r: TableReader) -> Question:
    """A trump item of a lesson file, what it states checked against the engine."""
    turned_text = r.string("turned", "nothing")
    turned = None if turned_text.strip().lower() == "nothing" else turned_text
    deal: dict[str, Any] = {}
    if r.has("players") or r.has("round"):
        deal = {
            "players": r.integer("players"),
            "round": r.integer("round"),
            "length": read_length(r),
        }
    elif r.has("length"):
        raise r.fail("'length' goes with 'players' and 'round' (the deal)")
    elif not r.has("turned"):
        raise r.fail(
            "missing 'turned' (a card, or \"nothing\"), or the deal: 'players' and 'round'"
        )
    question: TrumpQuestion = r.engine(lambda: TrumpQuestion.of(turned, **deal))
    stated_text = r.string("trump")
    stated: object = DEALER_CHOOSES if stated_text == DEALER_CHOOSES else r.trump("trump")
    engine = question.correct_answer()
    if stated != engine:
        rule = reveal_trump(question.turned).rule.value
        raise r.fail(
            f"states trump {stated_text!r} but the engine says {trump_word(engine)!r} "
            f"({_REVEAL_WORDS[rule]})"
        )
    return question


KIND = ItemKind("trump", ("turned", "players", "round", "length", "trump"), read_item)
