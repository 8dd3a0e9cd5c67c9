"""Which cards may be played? (``kind = "legal-plays"``): the question, its grading by the
engine, and the reader that checks what a lesson file states of it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar, cast

from tutor.errors import InvalidCardError
from tutor.rules.cards import Card, Suit, format_cards, parse_card, parse_cards
from tutor.rules.trick import Lead, judge_play, lead_of, legal_plays
from tutor.rules.trump import parse_trump
from tutor.teaching.explain import card_name, describe_plays
from tutor.teaching.lesson_reader import ItemKind, TableReader
from tutor.teaching.question import AnswerKind, Feedback, Question, Scene, Topic, trump_sentence
from tutor.teaching.situations import Situation, play_rules, play_situations
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, text


def _card_list(cards: Iterable[Card], lang: str) -> str:
    words = [card_name(card, lang) for card in cards]
    return join_words(words, lang) if words else text("quiz.no-cards", lang)


def _as_card(choice: object) -> Card:
    # parse_card checks at run time and names a value that is not a card.
    return parse_card(cast(str | Card, choice))


@dataclass(frozen=True, slots=True)
class LegalPlaysQuestion(Question):
    """Which cards of the hand may be played? The answer is the set of legal cards.

    >>> q = LegalPlaysQuestion.of(hand="B7 R12 G10 W", plays="J B5", trump="R")
    >>> sorted(map(str, q.correct_answer())), q.choice_mark(q.hand[1])
    (['B7', 'W'], 'may not be played')
    >>> fb = q.check(["B7", "R12", "G10", "W"])
    >>> fb.correct, fb.details
    (False, ('You may not play red 12 or green 10: blue was led and you hold blue (blue 7). Follow blue, or play a Wizard or a Jester.',))
    >>> q.check(["B7", "W"]).details[0]  # a right answer gets the reasons too
    'You follow blue with blue 7.'
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

    @property
    def situations(self) -> tuple[Situation, ...]:
        """
        >>> [str(one) for one in LegalPlaysQuestion.of("R4 G2", "B6 W", trump="R").situations]
        ['cannot-follow-trump', 'cannot-follow-discard', 'number-then-wizard']
        """
        return play_situations(self.hand, self.plays, self.trump)

    @property
    def rules(self) -> tuple[str, ...]:
        """
        >>> LegalPlaysQuestion.of("R4 G2", "B6 W", trump="R").rules
        ('cannot-follow-play-anything', 'number-then-wizard-still-binds')
        """
        return play_rules(self.hand, self.plays, self.trump)

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
        right = self.check(self.correct_answer(), lang)
        lines = [right.answer]
        lines += [text("quiz.legal-reason", lang, reason=reason) for reason in right.details]
        return "\n".join(lines)

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The following rule, without saying which suit it sets here: the suit led and
        the hand's cards of it are the answer (with the Wizards and Jesters), so naming
        them would name the answer.

        >>> LegalPlaysQuestion.of(hand="B7 R12 W", plays="", trump="R").hint()
        'You lead this trick: think about what the first card of a trick may be.'
        >>> LegalPlaysQuestion.of(hand="B7 R12 W", plays="J B5", trump="R").hint()[:50]
        'The first number card of a trick sets the suit to '
        """
        lead, _ = lead_of(self.plays)
        return text(
            "quiz-hint.legal-lead" if lead is Lead.NOTHING_PLAYED else "quiz-hint.legal-follow",
            lang,
        )

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
        # A wrong answer: the reasons for the cards the learner got wrong (which ones they
        # picked or missed, the widget marks on the cards themselves). A right one: the
        # reasons for every card of the hand, the same "why" a wrong answer is shown, so
        # that right is never just "Right!" (the live room shows this to a right learner).
        mistakes = [card for card in self.hand if (card in chosen) != (card in right)]
        explained = mistakes if chosen != right else list(self.hand)
        legal_words = join_words(
            (card_name(card, lang) for card in dict.fromkeys(self.hand) if card in right), lang
        )
        return Feedback.graded(
            chosen == right,
            text("quiz.answer-legal", lang, cards=legal_words),
            "",
            lang,
            tuple(self._reasons(explained, lang)),
        )


def read_item(r: TableReader) -> Question:
    """A legal-plays item of a lesson file, what it states checked against the engine."""
    hand = r.cards("hand")
    played = r.cards("played", "")
    trump = r.trump("trump")
    if len(played) > 5:
        raise r.fail(f"'played' has {len(played)} cards, but at most 5 come before yours")
    question: LegalPlaysQuestion = r.engine(lambda: LegalPlaysQuestion.of(hand, played, trump))
    stated = r.cards("legal")
    engine = legal_plays(hand, played)
    if Counter(stated) != Counter(engine):
        differing = dict.fromkeys(
            card for card in (*stated, *engine) if stated.count(card) != engine.count(card)
        )
        reasons = "; ".join(
            f"{card}: {judge_play(hand, played, card).rule.value}" for card in differing
        )
        raise r.fail(
            f"states legal {format_cards(stated)!r} but the engine says "
            f"{format_cards(engine)!r} ({reasons})"
        )
    return question


KIND = ItemKind("legal-plays", ("hand", "played", "trump", "legal"), read_item)
