"""Quiz questions graded by the engine.

A question holds only the situation (cards, trump, bid and tricks...). Its right answer
and the explanation of any answer come from the rules engine, never from stored answer
text: a question cannot disagree with the rules. Lessons (:mod:`tutor.teaching.lesson_loader`) may
state an expected answer too; the tests check it against :meth:`Question.correct_answer`.

Every kind of question is a :class:`Question`: one protocol that lessons, practice and
the quiz widget use without knowing the kind. It says how the question is answered
(:class:`AnswerKind`: one of its choices, several of them, or a number), names each
choice in words (and the card it is, if it is one), and gives the cards the question
shows as data (:class:`Scene`). This module holds the questions about playing the cards
(who takes the trick, legal plays, score, trump); :mod:`tutor.teaching.round_quiz` holds those
about setting up a round (schedule, dealer, bidding order, legal bids, bid visibility).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, cast

from tutor.errors import InvalidCardError, InvalidPlayersError
from tutor.rules.cards import Card, Suit, parse_card, parse_cards
from tutor.rules.checks import is_whole_number
from tutor.rules.scoring import round_score
from tutor.rules.trick import explain_trick, judge_play, legal_plays
from tutor.rules.trump import RevealRule, parse_trump, reveal_trump
from tutor.teaching.explain import (
    card_name,
    describe_play,
    describe_reveal,
    describe_score,
    describe_trick,
    suit_name,
)
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, text


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
    CARDS_AND_ROUNDS = "cards-and-rounds"
    BIDDING = "bidding"
    VARIANTS = "variants"


class AnswerKind(StrEnum):
    """How a question is answered."""

    ONE_CHOICE = "one-choice"
    """With one of :meth:`Question.choices`."""
    MANY_CHOICES = "many-choices"
    """With every right one of :meth:`Question.choices` (a collection; order ignored)."""
    NUMBER = "number"
    """With a whole number."""


@dataclass(frozen=True, slots=True)
class Feedback:
    """The grading of one answer: right or wrong, the right answer and why, in words."""

    correct: bool
    verdict: str
    answer: str
    explanation: str
    details: tuple[str, ...] = ()

    @classmethod
    def graded(
        cls,
        correct: bool,
        answer: str,
        explanation: str,
        lang: str = DEFAULT_LANGUAGE,
        details: tuple[str, ...] = (),
    ) -> Feedback:
        """Feedback whose verdict ("Right!" or "Not quite.") says whether ``correct``.

        >>> Feedback.graded(False, "The score is 40.", "").as_text()
        'Not quite. The score is 40.'
        """
        verdict = text("quiz.correct" if correct else "quiz.wrong", lang)
        return cls(correct, verdict, answer, explanation, details)

    def as_text(self) -> str:
        parts = (self.verdict, self.answer, self.explanation, *self.details)
        return " ".join(part for part in parts if part)  # an empty explanation adds no space


@dataclass(frozen=True, slots=True)
class Scene:
    """The cards a question shows besides its choices, as engine values: the display layer
    decides how to draw them.

    >>> LegalPlaysQuestion.of(hand="B7 R12", plays="J B5", trump="R").scene().trick
    (Card.parse('J'), Card.parse('B5'))
    """

    trick: tuple[Card, ...] = ()
    """Cards already played to the trick, in play order."""
    turned: Card | None = None
    """The card turned for trump."""
    nothing_turned: bool = False
    """Every card was dealt, so nothing was turned for trump."""


class Question(ABC):
    """What every kind of question offers to lessons, practice and widgets.

    A kind defines its topic, prompt, right answer and grading (:meth:`check`), and how it
    is answered (:attr:`answer_kind`); a choice question lists its :meth:`choices` and names
    each in words. The defaults here suit a question with no cards and no choices.

    >>> q = TrumpQuestion.of("W")
    >>> q.answer_kind, q.choice_label(q.correct_answer()), q.scene().turned
    (<AnswerKind.ONE_CHOICE: 'one-choice'>, 'The dealer chooses', Card.parse('W'))
    """

    __slots__ = ()

    answer_kind: ClassVar[AnswerKind]

    @property
    @abstractmethod
    def topic(self) -> Topic:
        """What the question exercises."""

    @abstractmethod
    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The question, in words."""

    @abstractmethod
    def correct_answer(self) -> object:
        """The engine's answer: a choice, a set of choices, or a number."""

    @abstractmethod
    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        """Grade ``answer`` with the engine: right or wrong, the right answer and why."""

    def choices(self) -> tuple[object, ...]:
        """The possible answers, in the order to offer them (``()``: a number question)."""
        return ()

    def choice_label(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        """The words on a choice's button."""
        return str(choice)

    def choice_card(self, choice: object) -> Card | None:
        """The card a choice is (drawn above its button), or ``None``."""
        return None

    def is_right_choice(self, choice: object) -> bool:
        """Whether ``choice`` is (one of) the engine's answer."""
        return choice == self.correct_answer()

    def choice_mark(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        """What a choice turns out to be once answered ("wins", "may be played"), or ''."""
        return ""

    def answer_label(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The name of what the learner answers with (a number box, a hand), or ''."""
        return ""

    def scene(self) -> Scene:
        """The cards shown besides the choices."""
        return Scene()

    def situation_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The situation in words (cards named, not drawn); '' when :meth:`answer_text`
        already states it."""
        return self.prompt(lang)

    def answer_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The right answer and the engine's reason, in words."""
        feedback = self.check(self.correct_answer(), lang)
        return " ".join(part for part in (feedback.answer, feedback.explanation) if part)


def _card_list(cards: Iterable[Card], lang: str) -> str:
    words = [card_name(card, lang) for card in cards]
    return join_words(words, lang) if words else text("quiz.no-cards", lang)


def _as_card(choice: object) -> Card:
    # parse_card checks at run time and names a value that is not a card.
    return parse_card(cast(str | Card, choice))


@dataclass(frozen=True, slots=True)
class TrickWinnerQuestion(Question):
    """Who takes this trick? The answer is the index of the winning card in play order.

    >>> q = TrickWinnerQuestion.of("J B5 B11 B7", trump="R", players="ABCD")
    >>> q.correct_answer(), q.topic, q.choice_label(2)
    (2, <Topic.JESTER_LEAD: 'jester-lead'>, 'blue 11 (C)')
    >>> TrickWinnerQuestion.of("W R13 W", trump=None).check(0).answer
    'The winner is the Wizard, played by card 1.'
    >>> q.check(3).as_text()
    'Not quite. The winner is blue 11, played by C. C takes the trick with blue 11: no Wizard and no trump was played, so the highest blue card wins.'
    """

    plays: tuple[Card, ...]
    trump: Suit | None
    players: tuple[str, ...] = field(default=())
    answer_kind: ClassVar[AnswerKind] = AnswerKind.ONE_CHOICE

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
        """Who played each card: the players' names, else each card's notation."""
        return self.players or tuple(str(card) for card in self.plays)

    def correct_answer(self) -> int:
        return explain_trick(self.plays, self.trump).winner

    def choices(self) -> tuple[int, ...]:
        return tuple(range(len(self.plays)))

    def _position(self, choice: object) -> int:
        if not is_whole_number(choice) or not 0 <= choice < len(self.plays):
            raise InvalidCardError(
                f"invalid choice {choice!r}: the cards are numbered 0 to "
                f"{len(self.plays) - 1} in play order"
            )
        return choice

    def choice_label(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        index = self._position(choice)
        card = card_name(self.plays[index], lang)
        return text("quiz.trick-winner-choice", lang, card=card, player=self.names()[index])

    def choice_card(self, choice: object) -> Card:
        return self.plays[self._position(choice)]

    def choice_mark(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz.winner-mark", lang) if self.is_right_choice(choice) else ""

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz.trick-winner-prompt", lang, trump=suit_name(self.trump, lang))

    def situation_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        names = self.names()
        plays = join_words((
            text("quiz.trick-play", lang, player=names[i], card=card_name(card, lang))
            for i, card in enumerate(self.plays)
        ), lang)
        return text("quiz.trick-situation", lang, trump=suit_name(self.trump, lang), plays=plays)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        why = explain_trick(self.plays, self.trump)
        # Without player names, say "card 3" rather than "played by B11".
        names = self.players or tuple(
            text("quiz.nth-card", lang, n=n) for n in range(1, len(self.plays) + 1)
        )
        card = why.winning_card
        kind = "wizard" if card.is_wizard else "jester" if card.is_jester else "number"
        return Feedback.graded(
            answer == why.winner,
            text(
                f"quiz.answer-winner-{kind}",
                lang,
                card=card_name(card, lang),
                player=names[why.winner],
            ),
            describe_trick(why, names, lang),
            lang,
        )


@dataclass(frozen=True, slots=True)
class LegalPlaysQuestion(Question):
    """Which cards of the hand may be played? The answer is the set of legal cards.

    >>> q = LegalPlaysQuestion.of(hand="B7 R12 G10 W", plays="J B5", trump="R")
    >>> sorted(map(str, q.correct_answer())), q.choice_mark(q.hand[1])
    (['B7', 'W'], 'red 12: may not be played')
    >>> fb = q.check(["B7", "R12", "W"])
    >>> fb.correct, fb.details[0]
    (False, 'You picked red 12, but it may not be played. You may not play red 12: blue was led and you hold blue (blue 7). Follow blue, or play a Wizard or a Jester.')
    >>> q.situation_text()
    'Trump: red. The trick so far: Jester, blue 5. Your hand: blue 7, red 12, green 10, Wizard.'
    """

    hand: tuple[Card, ...]
    plays: tuple[Card, ...]
    trump: Suit | None
    answer_kind: ClassVar[AnswerKind] = AnswerKind.MANY_CHOICES

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

    def choices(self) -> tuple[Card, ...]:
        return self.hand

    def choice_label(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        return card_name(_as_card(choice), lang)

    def choice_card(self, choice: object) -> Card:
        return _as_card(choice)

    def is_right_choice(self, choice: object) -> bool:
        return _as_card(choice) in self.correct_answer()

    def choice_mark(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        key = "quiz.legal-card" if self.is_right_choice(choice) else "quiz.illegal-card"
        return text(key, lang, card=self.choice_label(choice, lang))

    def answer_label(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz.hand-label", lang)

    def scene(self) -> Scene:
        return Scene(trick=self.plays)

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        trump = suit_name(self.trump, lang)
        if not self.plays:
            return text("quiz.legal-plays-prompt-lead", lang, trump=trump)
        played = join_words((card_name(card, lang) for card in self.plays), lang)
        return text("quiz.legal-plays-prompt", lang, trump=trump, played=played)

    def situation_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        values = {
            "trump": suit_name(self.trump, lang),
            "hand": _card_list(self.hand, lang),
            "played": _card_list(self.plays, lang),
        }
        key = "quiz.legal-situation" if self.plays else "quiz.legal-situation-lead"
        return text(key, lang, **values)

    def answer_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The legal cards, then the engine's reason for every card of the hand, one line
        each.

        >>> print(LegalPlaysQuestion.of("B7 R12 W", "J B5", "R").answer_text())
        You may play: blue 7, Wizard.
        - blue 7: You follow blue with blue 7.
        - red 12: You may not play red 12: blue was led and you hold blue (blue 7). Follow blue, or play a Wizard or a Jester.
        - Wizard: You may play the Wizard: a Wizard may be played at any time, even when you could follow.
        """
        lines = [self.check(self.correct_answer(), lang).answer]
        for card in dict.fromkeys(self.hand):
            reason = describe_play(judge_play(self.hand, self.plays, card), lang=lang)
            lines.append(text("quiz.legal-reason", lang, card=card_name(card, lang), reason=reason))
        return "\n".join(lines)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        chosen = frozenset(parse_cards(answer)) if isinstance(answer, (str, Iterable)) else None
        if chosen is None:
            raise InvalidCardError(f"answer with the cards you would play, not {answer!r}")
        right = self.correct_answer()
        details = []
        for card in dict.fromkeys(self.hand):
            if (card in chosen) == (card in right):
                continue
            key = "quiz.you-chose-illegal" if card in chosen else "quiz.you-missed-legal"
            judgement = judge_play(self.hand, self.plays, card)
            details.append(
                text(key, lang, card=card_name(card, lang))
                + " "
                + describe_play(judgement, lang=lang)
            )
        legal_words = join_words((card_name(card, lang) for card in dict.fromkeys(self.hand) if card in right), lang)
        return Feedback.graded(
            chosen == right,
            text("quiz.answer-legal", lang, cards=legal_words),
            "",
            lang,
            tuple(details),
        )


@dataclass(frozen=True, slots=True)
class ScoreQuestion(Question):
    """How many points for this bid and this many tricks taken?

    >>> ScoreQuestion(bid=3, taken=1).check(-20).correct
    True
    >>> ScoreQuestion(bid=3, taken=1).situation_text()  # the answer's formula states it
    ''
    """

    bid: int
    taken: int
    answer_kind: ClassVar[AnswerKind] = AnswerKind.NUMBER

    def __post_init__(self) -> None:
        round_score(self.bid, self.taken)  # validates

    @property
    def topic(self) -> Topic:
        return Topic.BID_ZERO if self.bid == 0 else Topic.SCORE

    def correct_answer(self) -> int:
        return round_score(self.bid, self.taken)

    def answer_label(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz.score-input", lang)

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz.score-prompt", lang, bid=self.bid, taken=self.taken)

    def situation_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return ""

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        points = self.correct_answer()
        return Feedback.graded(
            answer == points,
            text("quiz.answer-score", lang, points=points),
            describe_score(self.bid, self.taken, lang),
            lang,
        )


DEALER_CHOOSES = "dealer-chooses"
"""The answer to a trump question when a Wizard is turned."""

TrumpAnswer = Suit | None | str


@dataclass(frozen=True, slots=True)
class TrumpQuestion(Question):
    """Which suit is trump? Answers: a suit, ``None`` (no trump) or ``DEALER_CHOOSES``.

    >>> TrumpQuestion.of("W").correct_answer()
    'dealer-chooses'
    >>> TrumpQuestion.of("J").check(None).correct, TrumpQuestion.of(None).correct_answer()
    (True, None)
    >>> [TrumpQuestion.of("R9").choice_label(choice) for choice in ("R", None)]
    ['red (R)', 'no trump']
    """

    turned: Card | None
    answer_kind: ClassVar[AnswerKind] = AnswerKind.ONE_CHOICE

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

    def choice_label(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        if choice == DEALER_CHOOSES:
            return text("quiz.choice-dealer-chooses", lang)
        suit = parse_trump(cast(Suit | str | None, choice))  # checks at run time
        if suit is None:
            return suit_name(None, lang)
        return text("quiz.trump-choice", lang, colour=suit_name(suit, lang), letter=suit.value)

    def scene(self) -> Scene:
        return Scene(turned=self.turned, nothing_turned=self.turned is None)

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        key = "quiz.trump-prompt" if self.turned is not None else "quiz.trump-prompt-nothing"
        return text(key, lang)

    def situation_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        if self.turned is None:
            return text("quiz.trump-situation-nothing", lang)
        return text("quiz.trump-situation", lang, card=card_name(self.turned, lang))

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        right = self.correct_answer()
        given = answer if answer == DEALER_CHOOSES else parse_trump(answer)  # type: ignore[arg-type]
        reveal = reveal_trump(self.turned)
        answer_text = (
            text("quiz.answer-dealer-chooses", lang)
            if right == DEALER_CHOOSES
            else text("quiz.answer-trump", lang, trump=suit_name(reveal.trump, lang))
        )
        return Feedback.graded(given == right, answer_text, describe_reveal(reveal, lang=lang), lang)
