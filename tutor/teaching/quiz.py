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
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import ClassVar, cast

from tutor.errors import InvalidCardError, InvalidDealError, InvalidPlayersError
from tutor.rules.cards import DECK, Card, Suit, parse_card, parse_cards
from tutor.rules.checks import is_whole_number
from tutor.rules.round import Round
from tutor.rules.schedule import GameLength, cards_per_round, parse_length
from tutor.rules.scoring import round_score
from tutor.rules.trick import Lead, WinRule, explain_trick, judge_play, lead_of, legal_plays
from tutor.rules.trump import RevealRule, parse_trump, reveal_trump
from tutor.teaching.explain import (
    card_name,
    describe_plays,
    describe_reveal,
    describe_score,
    describe_trick,
    format_points,
    suit_name,
)
from tutor.teaching.text import DEFAULT_LANGUAGE, join_sentences, join_words, text


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
    """The grading of one answer: right or wrong, the right answer and why, in words.

    Each thing is said once: when one sentence of the engine states the answer and its
    reason ("C takes the trick with blue 11: ..."), it is the ``answer`` and the
    ``explanation`` stays empty. ``details`` are further reasons (one per line).

    ``given`` repeats the learner's answer when nothing else shows it ("You answered 12.",
    :func:`feedback_for`). ``revealed`` is False for a hint (a first miss): the ``answer``
    is then empty and the ``explanation`` names the rule to look at, not the answer.
    """

    correct: bool
    verdict: str
    answer: str
    explanation: str
    details: tuple[str, ...] = ()
    given: str = ""
    revealed: bool = True

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
        """The whole feedback as one paragraph (no space after a Japanese 「。」)."""
        return join_sentences(
            (self.verdict, self.given, self.answer, self.explanation, *self.details)
        )


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

    def number_words(self, number: int) -> str:
        """A number answer as the question writes it (a score with its minus sign)."""
        return str(number)

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """After a first wrong answer: which rule to look at, without the answer."""
        return text("quiz-hint.generic", lang)

    def number_request(self, typed: str, lang: str = DEFAULT_LANGUAGE) -> str:
        """What to say when Check finds no number in the box (``typed``: what is there),
        with an example that fits the question (a score may be negative, a count not): the
        box is empty, holds no number (quoted, shortened), or a number too long to be an
        answer (:data:`MAX_NUMBER_DIGITS`).

        >>> ScoreQuestion(bid=1, taken=1).number_request("9" * 5000)
        'That number has 5000 digits: no answer here has more than 9. Type a shorter one.'
        """
        cleaned = typed.strip()
        digits = _sign_and_digits(typed)[1]
        if digits.isdecimal() and len(digits) > MAX_NUMBER_DIGITS:
            return text("quiz.number-too-long", lang, digits=len(digits), limit=MAX_NUMBER_DIGITS)
        key = "number-empty" if not cleaned else "number-not-a-number"
        shown = cleaned if len(cleaned) <= 24 else cleaned[:20] + "…"
        return text(f"quiz.{key}{self._number_example()}", lang, typed=shown)

    def _number_example(self) -> str:
        """The catalog keys' suffix of this question's example numbers (see
        :meth:`number_request`): ``""`` for a count of things."""
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
        return join_sentences((feedback.answer, feedback.explanation))


def length_name(length: GameLength, lang: str = DEFAULT_LANGUAGE) -> str:
    """The game length in words.

    >>> length_name(GameLength.FIVE)
    'a five-round game'
    """
    return text(f"game-length.{length.value}", lang)


def trump_sentence(trump: Suit | None, lang: str = DEFAULT_LANGUAGE) -> str:
    """The trump of a question as a sentence of its own.

    >>> trump_sentence(Suit.RED), trump_sentence(None)
    ('Trump: red.', 'No trump.')
    """
    if trump is None:
        return text("quiz.no-trump", lang)
    return text("quiz.trump-is", lang, trump=suit_name(trump, lang))


def read_number(typed: str) -> int | None:
    """The whole number a learner typed, or ``None`` if it is not one. Spaces around it,
    a typographic minus (−) or a full-width one (－) and full-width digits are fine.

    >>> read_number(" 40 "), read_number("−20"), read_number("－２０"), read_number("+30")
    (40, -20, -20, 30)
    >>> read_number(""), read_number("fifty"), read_number("2.5"), read_number("4 0")
    (None, None, None, None)
    """
    sign, digits = _sign_and_digits(typed)
    if not digits.isdecimal() or len(digits) > MAX_NUMBER_DIGITS:  # (full-width digits too)
        return None
    return int(sign + digits)


MAX_NUMBER_DIGITS = 9
"""The most digits of a number answer (answers are scores and counts): longer text is not read
as a number (Python refuses to read a number of more than 4300 digits at all)."""

_SIGNS = str.maketrans({"\u2212": "-", "\uff0d": "-", "\uff0b": "+"})


def _sign_and_digits(typed: str) -> tuple[str, str]:
    cleaned = typed.strip().translate(_SIGNS)
    return (cleaned[:1], cleaned[1:]) if cleaned[:1] in ("+", "-") else ("", cleaned)


def feedback_for(
    question: Question, answer: object, *, misses_before: int = 0, lang: str = DEFAULT_LANGUAGE
) -> Feedback:
    """What a learner is shown for ``answer``: a right answer, or a wrong one after an
    earlier miss, gets the engine's whole explanation; a first wrong answer only the
    question's hint (the rule to look at), so that trying again still asks something.
    The learner asks for the rest with :func:`revealed`. A number answer is repeated
    ("You answered 12."): a choice is marked on the choice itself.

    >>> q = ScoreQuestion(bid=3, taken=1)
    >>> print(feedback_for(q, -10).as_text())
    Not quite. You answered −10. Bid 3, took 1: the bid is missed. Remember what a missed bid costs for each trick off, and that tricks taken earn nothing then.
    >>> print(feedback_for(q, -10, misses_before=1).as_text())
    Not quite. You answered −10. Bid 3, took 1: 2 off, so −10 × 2 = −20. Tricks taken earn nothing when the bid is missed.
    >>> feedback_for(q, -20).correct, feedback_for(q, -20).revealed
    (True, True)
    """
    shown = revealed(question, answer, lang)
    if shown.correct or misses_before > 0:
        return shown
    return replace(shown, answer="", explanation=question.hint(lang), details=(), revealed=False)


def revealed(question: Question, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
    """The engine's whole grading of ``answer`` (the right answer and why), with the
    learner's number answer repeated: what "Show the answer" shows after a hint."""
    feedback = question.check(answer, lang)
    if question.answer_kind is AnswerKind.NUMBER and is_whole_number(answer):
        given = text("quiz.you-answered", lang, answer=question.number_words(answer))
        feedback = replace(feedback, given=given)
    return feedback


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
    'The player of card 1 takes the trick with the first Wizard; later Wizards never beat it.'
    >>> q.check(3).as_text()
    'Not quite. C takes the trick with blue 11: nobody played a Wizard or a trump, so the highest blue card wins.'
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
        return text("quiz.trick-winner-prompt", lang, trump=trump_sentence(self.trump, lang))

    def situation_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        names = self.names()
        plays = join_words((
            text("quiz.trick-play", lang, player=names[i], card=card_name(card, lang))
            for i, card in enumerate(self.plays)
        ), lang)
        return text("quiz.trick-situation", lang, trump=trump_sentence(self.trump, lang), plays=plays)

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The line of the trick-winner rule that decides this trick, not the card.

        >>> TrickWinnerQuestion.of("J B5 B11 B7", trump="R").hint()
        'Nobody played a Wizard or a trump (red): only the blue cards can win.'
        """
        why = explain_trick(self.plays, self.trump)
        key = why.rule.value
        if why.rule is WinRule.HIGHEST_LED and why.trump is None:
            key = "highest-led-no-trump"
        return text(
            f"quiz-hint.trick-{key}",
            lang,
            trump=suit_name(why.trump, lang),
            led=suit_name(why.led_suit, lang),
        )

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        why = explain_trick(self.plays, self.trump)
        # Without player names, say "the player of card 3" rather than "B11".
        names = self.players or tuple(
            text("quiz.nth-card", lang, n=n) for n in range(1, len(self.plays) + 1)
        )
        # One sentence names the winner and the rule: it is the whole answer.
        return Feedback.graded(answer == why.winner, describe_trick(why, names, lang), "", lang)


@dataclass(frozen=True, slots=True)
class LegalPlaysQuestion(Question):
    """Which cards of the hand may be played? The answer is the set of legal cards.

    >>> q = LegalPlaysQuestion.of(hand="B7 R12 G10 W", plays="J B5", trump="R")
    >>> sorted(map(str, q.correct_answer())), q.choice_mark(q.hand[1])
    (['B7', 'W'], 'may not be played')
    >>> fb = q.check(["B7", "R12", "G10", "W"])
    >>> fb.correct, fb.details
    (False, ('You may not play red 12 or green 10: blue was led and you hold blue (blue 7). Follow blue, or play a Wizard or a Jester.',))
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
        trump = trump_sentence(self.trump, lang)
        if not self.plays:
            return text("quiz.legal-plays-prompt-lead", lang, trump=trump)
        played = join_words((card_name(card, lang) for card in self.plays), lang)
        return text("quiz.legal-plays-prompt", lang, trump=trump, played=played)

    def situation_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        values = {
            "trump": trump_sentence(self.trump, lang),
            "hand": _card_list(self.hand, lang),
            "played": _card_list(self.plays, lang),
        }
        key = "quiz.legal-situation" if self.plays else "quiz.legal-situation-lead"
        return text(key, lang, **values)

    def answer_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The legal cards, then the engine's reasons for the cards of the hand, one line
        each; cards with the same reason share its line.

        >>> print(LegalPlaysQuestion.of("B7 R12 W G2", "J B5", "R").answer_text())
        You may play: blue 7, Wizard.
        - You follow blue with blue 7.
        - You may not play red 12 or green 2: blue was led and you hold blue (blue 7). Follow blue, or play a Wizard or a Jester.
        - You may play the Wizard: a Wizard may be played at any time, even when you could follow.
        >>> print(LegalPlaysQuestion.of("W R9 J", "", "G").answer_text())
        You may play: Wizard, red 9, Jester.
        - You lead: the first card of a trick may be anything.
        """
        lines = [self.check(self.correct_answer(), lang).answer]
        lines += [text("quiz.legal-reason", lang, reason=reason) for reason in self._reasons(self.hand, lang)]
        return "\n".join(lines)

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """What the cards played so far ask of the hand (the following rule), not which
        cards those are.

        >>> LegalPlaysQuestion.of(hand="B7 R12 W", plays="J B5", trump="R").hint()
        'The suit led is blue: a player who holds blue must follow it, and a Wizard or a Jester may be played at any time.'
        """
        lead, suit = lead_of(self.plays)
        key = "legal-lead" if lead is Lead.NOTHING_PLAYED else f"legal-{lead.value}"
        return text(f"quiz-hint.{key}", lang, led=suit_name(suit, lang) if suit else "")

    def _reasons(self, cards: Iterable[Card], lang: str) -> list[str]:
        """The engine's reasons for ``cards`` of the hand, each reason once."""
        return describe_plays(
            (judge_play(self.hand, self.plays, card) for card in dict.fromkeys(cards)), lang=lang
        )

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        chosen = frozenset(parse_cards(answer)) if isinstance(answer, (str, Iterable)) else None
        if chosen is None:
            raise InvalidCardError(f"answer with the cards you would play, not {answer!r}")
        right = self.correct_answer()
        # The reasons for the cards the learner got wrong (which ones they picked or
        # missed, the widget marks on the cards themselves).
        mistakes = [card for card in self.hand if (card in chosen) != (card in right)]
        legal_words = join_words(
            (card_name(card, lang) for card in dict.fromkeys(self.hand) if card in right), lang
        )
        return Feedback.graded(
            chosen == right,
            text("quiz.answer-legal", lang, cards=legal_words),
            "",
            lang,
            tuple(self._reasons(mistakes, lang)),
        )


@dataclass(frozen=True, slots=True)
class ScoreQuestion(Question):
    """How many points for this bid and this many tricks taken?

    >>> ScoreQuestion(bid=3, taken=1).check(-20).correct
    True
    >>> ScoreQuestion(bid=3, taken=1).check(-10).as_text()
    'Not quite. Bid 3, took 1: 2 off, so −10 × 2 = −20. Tricks taken earn nothing when the bid is missed.'
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

    def number_words(self, number: int) -> str:
        return format_points(number)

    def _number_example(self) -> str:
        return "-points"

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        key = "score-met" if self.bid == self.taken else "score-missed"
        return text(f"quiz-hint.{key}", lang, bid=self.bid, taken=self.taken)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        # The formula ends with the points: it is the whole answer.
        return Feedback.graded(
            answer == self.correct_answer(), describe_score(self.bid, self.taken, lang), "", lang
        )


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

    def correct_answer(self) -> TrumpAnswer:
        reveal = reveal_trump(self.turned)
        return DEALER_CHOOSES if reveal.rule is RevealRule.WIZARD else reveal.trump

    def choices(self) -> tuple[TrumpAnswer, ...]:
        return (*Suit, None, DEALER_CHOOSES)

    def choice_label(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        if choice == DEALER_CHOOSES:
            return text("quiz.choice-dealer-chooses", lang)
        return _trump_label(choice, lang)

    def scene(self) -> Scene:
        return Scene(turned=self.turned)

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        if self.players is not None:
            key = "quiz.trump-prompt-deal" if self.turned is None else "quiz.trump-prompt-deal-turned"
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


def _trump_label(choice: object, lang: str) -> str:
    """A suit's words on a trump button ("red (R)"), or "no trump"."""
    suit = parse_trump(cast(Suit | str | None, choice))  # checks at run time
    if suit is None:
        return suit_name(None, lang)
    return text("quiz.trump-choice", lang, colour=suit_name(suit, lang), letter=suit.value)


@dataclass(frozen=True, slots=True)
class TrumpChoiceQuestion(Question):
    """A Wizard is turned: which of the four suits and "no trump" may the dealer choose?
    The answer is the set the engine's round accepts (:meth:`Round.can_choose_trump`).

    >>> q = TrumpChoiceQuestion()
    >>> sorted(suit.value for suit in q.correct_answer()), q.choice_mark(None)
    (['B', 'G', 'R', 'Y'], 'may not be chosen')
    >>> q.check([Suit.RED]).as_text()
    "Not quite. The dealer looks at their hand and names the trump suit, one of yellow, red, green, blue. 'No trump' is not one of the choices."
    """

    answer_kind: ClassVar[AnswerKind] = AnswerKind.MANY_CHOICES

    @property
    def topic(self) -> Topic:
        return Topic.TRUMP_REVEAL

    def _round(self) -> Round:
        """A round whose turned card is a Wizard: the dealer's choice is due."""
        return Round(hands=("Y1", "Y2", "Y3"), turned="W", dealer=0)

    def correct_answer(self) -> frozenset[Suit | None]:
        rnd = self._round()
        return frozenset(choice for choice in self.choices() if rnd.can_choose_trump(choice))

    def choices(self) -> tuple[Suit | None, ...]:
        return (*Suit, None)

    def choice_label(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        return _trump_label(choice, lang)

    def is_right_choice(self, choice: object) -> bool:
        return choice in self.correct_answer()

    def choice_mark(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        key = "quiz.may-choose" if self.is_right_choice(choice) else "quiz.may-not-choose"
        return text(key, lang, choice=self.choice_label(choice, lang))

    def scene(self) -> Scene:
        return Scene(turned=Card.parse("W"))

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz.trump-choice-prompt", lang)

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz-hint.trump-choice", lang)

    def situation_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return self.prompt(lang)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        if not isinstance(answer, Iterable) or isinstance(answer, str):
            raise InvalidCardError(f"answer with the trumps the dealer may choose, not {answer!r}")
        chosen = frozenset(parse_trump(choice) for choice in answer)
        right = self.correct_answer()
        allowed = join_words(
            (suit_name(choice, lang) for choice in self.choices() if choice in right), lang
        )
        sentences = [text("quiz.answer-trump-choice", lang, choices=allowed)]
        if None not in right:
            sentences.append(text("quiz.no-trump-not-a-choice", lang))
        return Feedback.graded(chosen == right, join_sentences(sentences), "", lang)
