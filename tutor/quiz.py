"""Quiz questions graded by the engine.

A question holds only the situation (cards, trump, bid and tricks...). Its right answer
and the explanation of any answer come from the rules engine, never from stored answer
text: a question cannot disagree with the rules. Lessons (:mod:`tutor.lessons`) may
state an expected answer too; the tests check it against :meth:`correct_answer`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from tutor.cards import Card, Suit, parse_card, parse_cards
from tutor.errors import InvalidCardError, InvalidPlayersError
from tutor.explain import (
    card_name,
    describe_play,
    describe_reveal,
    describe_score,
    describe_trick,
    suit_name,
)
from tutor.scoring import round_score
from tutor.text import DEFAULT_LANGUAGE, text
from tutor.trick import explain_trick, judge_play, legal_plays
from tutor.trump import RevealRule, parse_trump, reveal_trump


class Topic(StrEnum):
    """What a question exercises; practice weights the topics learners get wrong."""

    TRICK_WINNER = "trick-winner"
    JESTER_LEAD = "jester-lead"
    WIZARD_AFTER_NUMBER = "wizard-after-number"
    TRUMP_VS_LED = "trump-vs-led"
    LEGAL_PLAYS = "legal-plays"
    SCORE = "score"
    BID_ZERO = "bid-zero"
    TRUMP_REVEAL = "trump-reveal"


@dataclass(frozen=True, slots=True)
class Feedback:
    """The grading of one answer: right or wrong, the right answer and why, in words."""

    correct: bool
    verdict: str
    answer: str
    explanation: str
    details: tuple[str, ...] = ()

    def as_text(self) -> str:
        parts = (self.verdict, self.answer, self.explanation, *self.details)
        return " ".join(part for part in parts if part)  # an empty explanation adds no space


class Question(Protocol):
    """What every kind of question offers to lessons, practice and widgets."""

    @property
    def topic(self) -> Topic: ...

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str: ...

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback: ...


def _verdict(correct: bool, lang: str) -> str:
    return text("quiz.correct" if correct else "quiz.wrong", lang)


@dataclass(frozen=True, slots=True)
class TrickWinnerQuestion:
    """Who takes this trick? The answer is the index of the winning card in play order.

    >>> q = TrickWinnerQuestion.of("J B5 B11 B7", trump="R", players="ABCD")
    >>> q.correct_answer(), q.topic
    (2, <Topic.JESTER_LEAD: 'jester-lead'>)
    >>> TrickWinnerQuestion.of("W R13 W", trump=None).check(0).answer
    'The winner is Wizard, played by card 1.'
    >>> q.check(3).as_text()
    'Not quite. The winner is blue 11, played by C. C takes the trick with blue 11: no Wizard and no trump was played, so the highest blue card wins.'
    """

    plays: tuple[Card, ...]
    trump: Suit | None
    players: tuple[str, ...] = field(default=())

    @classmethod
    def of(
        cls, plays: str | Iterable[Card | str], trump: Suit | str | None, players: Sequence[str] = ()
    ) -> TrickWinnerQuestion:
        cards = tuple(parse_cards(plays))
        explain_trick(cards, trump)  # validates the cards now, not when a learner answers
        names = tuple(players)
        if names and len(names) != len(cards):
            raise InvalidPlayersError(
                f"{len(names)} player names for {len(cards)} cards: {names!r}"
            )
        return cls(cards, parse_trump(trump), names)

    @property
    def topic(self) -> Topic:
        why = explain_trick(self.plays, self.trump)
        if self.plays[0].is_jester:
            return Topic.JESTER_LEAD
        if self.plays[0].is_number and any(c.is_wizard for c in self.plays[1:]):
            return Topic.WIZARD_AFTER_NUMBER
        if self.trump is not None and why.led_suit not in (None, self.trump) and any(
            c.suit is self.trump for c in self.plays
        ):
            return Topic.TRUMP_VS_LED
        return Topic.TRICK_WINNER

    def names(self) -> tuple[str, ...]:
        return self.players or tuple(str(card) for card in self.plays)

    def correct_answer(self) -> int:
        return explain_trick(self.plays, self.trump).winner

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz.trick-winner-prompt", lang, trump=suit_name(self.trump, lang))

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        why = explain_trick(self.plays, self.trump)
        # Without player names, say "card 3" rather than "played by B11".
        names = self.players or tuple(
            text("quiz.nth-card", lang, n=n) for n in range(1, len(self.plays) + 1)
        )
        return Feedback(
            correct=answer == why.winner,
            verdict=_verdict(answer == why.winner, lang),
            answer=text(
                "quiz.answer-winner",
                lang,
                card=card_name(why.winning_card, lang),
                player=names[why.winner],
            ),
            explanation=describe_trick(why, names, lang),
        )


@dataclass(frozen=True, slots=True)
class LegalPlaysQuestion:
    """Which cards of the hand may be played? The answer is the set of legal cards.

    >>> q = LegalPlaysQuestion.of(hand="B7 R12 G10 W", plays="J B5", trump="R")
    >>> sorted(map(str, q.correct_answer()))
    ['B7', 'W']
    >>> fb = q.check(["B7", "R12", "W"])
    >>> fb.correct, fb.details[0]
    (False, 'You picked red 12, but it may not be played. You may not play red 12: blue was led and you hold blue (blue 7). Follow blue, or play a Wizard or a Jester.')
    """

    hand: tuple[Card, ...]
    plays: tuple[Card, ...]
    trump: Suit | None

    @classmethod
    def of(
        cls,
        hand: str | Iterable[Card | str],
        plays: str | Iterable[Card | str],
        trump: Suit | str | None,
    ) -> LegalPlaysQuestion:
        cards = tuple(parse_cards(hand))
        played = tuple(parse_cards(plays))
        if not cards:
            raise InvalidCardError("a legal-plays question needs at least one card in the hand")
        legal_plays(cards, played)  # validates hand and trick together
        return cls(cards, played, parse_trump(trump))

    @property
    def topic(self) -> Topic:
        if self.plays and self.plays[0].is_jester:
            return Topic.JESTER_LEAD
        if self.plays and self.plays[0].is_number and any(c.is_wizard for c in self.plays[1:]):
            return Topic.WIZARD_AFTER_NUMBER
        return Topic.LEGAL_PLAYS

    def correct_answer(self) -> frozenset[Card]:
        return frozenset(legal_plays(self.hand, self.plays))

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        trump = suit_name(self.trump, lang)
        if not self.plays:
            return text("quiz.legal-plays-prompt-lead", lang, trump=trump)
        played = ", ".join(card_name(card, lang) for card in self.plays)
        return text("quiz.legal-plays-prompt", lang, trump=trump, played=played)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        chosen = frozenset(parse_cards(answer)) if isinstance(answer, (str, Iterable)) else None
        if chosen is None:
            raise InvalidCardError(f"answer with the cards you would play, not {answer!r}")
        right = self.correct_answer()
        details = []
        for card in dict.fromkeys(self.hand):
            judgement = judge_play(self.hand, self.plays, card)
            if card in chosen and card not in right:
                details.append(
                    text("quiz.you-chose-illegal", lang, card=card_name(card, lang))
                    + " "
                    + describe_play(judgement, lang=lang)
                )
            elif card in right and card not in chosen:
                details.append(
                    text("quiz.you-missed-legal", lang, card=card_name(card, lang))
                    + " "
                    + describe_play(judgement, lang=lang)
                )
        legal_words = ", ".join(card_name(card, lang) for card in dict.fromkeys(self.hand) if card in right)
        return Feedback(
            correct=chosen == right,
            verdict=_verdict(chosen == right, lang),
            answer=text("quiz.answer-legal", lang, cards=legal_words),
            explanation="",
            details=tuple(details),
        )


@dataclass(frozen=True, slots=True)
class ScoreQuestion:
    """How many points for this bid and this many tricks taken?

    >>> ScoreQuestion(bid=3, taken=1).check(-20).correct
    True
    """

    bid: int
    taken: int

    def __post_init__(self) -> None:
        round_score(self.bid, self.taken)  # validates

    @property
    def topic(self) -> Topic:
        return Topic.BID_ZERO if self.bid == 0 else Topic.SCORE

    def correct_answer(self) -> int:
        return round_score(self.bid, self.taken)

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz.score-prompt", lang, bid=self.bid, taken=self.taken)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        points = self.correct_answer()
        return Feedback(
            correct=answer == points,
            verdict=_verdict(answer == points, lang),
            answer=text("quiz.answer-score", lang, points=points),
            explanation=describe_score(self.bid, self.taken, lang),
        )


DEALER_CHOOSES = "dealer-chooses"
"""The answer to a trump question when a Wizard is turned."""

TrumpAnswer = Suit | None | str


@dataclass(frozen=True, slots=True)
class TrumpQuestion:
    """Which suit is trump? Answers: a suit, ``None`` (no trump) or ``DEALER_CHOOSES``.

    >>> TrumpQuestion.of("W").correct_answer()
    'dealer-chooses'
    >>> TrumpQuestion.of("J").check(None).correct, TrumpQuestion.of(None).correct_answer()
    (True, None)
    """

    turned: Card | None

    @classmethod
    def of(cls, turned: Card | str | None) -> TrumpQuestion:
        return cls(None if turned is None else parse_card(turned))

    @property
    def topic(self) -> Topic:
        return Topic.TRUMP_REVEAL

    def correct_answer(self) -> TrumpAnswer:
        reveal = reveal_trump(self.turned)
        return DEALER_CHOOSES if reveal.rule is RevealRule.WIZARD else reveal.trump

    def choices(self) -> tuple[TrumpAnswer, ...]:
        return (*Suit, None, DEALER_CHOOSES)

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        key = "quiz.trump-prompt" if self.turned is not None else "quiz.trump-prompt-nothing"
        return text(key, lang)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        right = self.correct_answer()
        given = answer if answer == DEALER_CHOOSES else parse_trump(answer)  # type: ignore[arg-type]
        reveal = reveal_trump(self.turned)
        answer_text = (
            text("quiz.answer-dealer-chooses", lang)
            if right == DEALER_CHOOSES
            else text("quiz.answer-trump", lang, trump=suit_name(reveal.trump, lang))
        )
        return Feedback(
            correct=given == right,
            verdict=_verdict(given == right, lang),
            answer=answer_text,
            explanation=describe_reveal(reveal, lang=lang),
        )

