"""Who takes the trick? (``kind = "trick-winner"``): the question, its grading by the
engine, and the reader that checks what a lesson file states of it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from tutor.errors import InvalidCardError, InvalidPlayersError
from tutor.rules.cards import Card, Suit, format_cards, parse_cards
from tutor.rules.checks import is_whole_number
from tutor.rules.seats import default_names
from tutor.rules.trick import WinRule, explain_trick
from tutor.rules.trump import parse_trump
from tutor.teaching.explain import card_name, describe_trick
from tutor.teaching.lesson_reader import ItemKind, TableReader
from tutor.teaching.question import AnswerKind, Feedback, Question, Topic, trump_sentence
from tutor.teaching.situations import Situation, trick_situations, winner_rules
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, text


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
        cls,
        plays: str | Iterable[Card | str],
        trump: Suit | str | None,
        players: Sequence[str] = (),
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
        if (
            self.trump is not None
            and why.led_suit not in (None, self.trump)
            and any(c.suit is self.trump for c in self.plays)
        ):
            return Topic.TRUMP_VS_LED
        return Topic.TRICK_WINNER

    @property
    def situations(self) -> tuple[Situation, ...]:
        """
        >>> [str(one) for one in TrickWinnerQuestion.of("J B5 B11 B7", trump="R").situations]
        ['led-suit-followed', 'jester-then-number']
        """
        return trick_situations(self.plays, self.trump)

    @property
    def rules(self) -> tuple[str, ...]:
        """
        >>> TrickWinnerQuestion.of("J B5 B11 B7", trump="R").rules
        ('highest-led-suit-wins', 'jester-never-wins-with-others', 'jester-led-first-number-sets-suit')
        """
        return winner_rules(self.plays, self.trump)

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
        plays = join_words(
            (
                text("quiz.trick-play", lang, player=names[i], card=card_name(card, lang))
                for i, card in enumerate(self.plays)
            ),
            lang,
        )
        return text(
            "quiz.trick-situation", lang, trump=trump_sentence(self.trump, lang), plays=plays
        )

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The trick-winner rule in its order, to go through: the same words for every
        trick of a round with (or without) trump. Naming the line that decides this trick
        ("only the blue cards can win") would single out the winner's group, often the
        winner itself.

        >>> TrickWinnerQuestion.of("J B5 B11 B7", trump=None).hint()
        'Go through the rule in its order (this round has no trump): the first Wizard played takes the trick; without a Wizard, the highest card of the suit led. A Jester takes a trick only when every card is a Jester.'
        """
        return text(
            "quiz-hint.trick-order" if self.trump else "quiz-hint.trick-order-no-trump", lang
        )

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        why = explain_trick(self.plays, self.trump)
        # Without player names, say "the player of card 3" rather than "B11".
        names = self.players or tuple(
            text("quiz.nth-card", lang, n=n) for n in range(1, len(self.plays) + 1)
        )
        # One sentence names the winner and the rule: it is the whole answer.
        return Feedback.graded(answer == why.winner, describe_trick(why, names, lang), "", lang)


_WIN_WORDS = {
    WinRule.FIRST_WIZARD: "first Wizard wins",
    WinRule.HIGHEST_TRUMP: "highest trump wins",
    WinRule.HIGHEST_LED: "highest card of the led suit wins",
    WinRule.FIRST_JESTER: "only Jesters: the first Jester wins",
}


def read_item(r: TableReader) -> Question:
    """A trick-winner item of a lesson file, what it states checked against the engine."""
    plays = r.cards("plays")
    if not 3 <= len(plays) <= 6:
        raise r.fail(
            f"'plays' has {len(plays)} cards ({format_cards(plays)!r}), but a trick has one "
            "card from each player, and Wizard is played by 3 to 6 players"
        )
    trump = r.trump("trump")
    names = r.names("players") or default_names(len(plays))
    question: TrickWinnerQuestion = r.engine(lambda: TrickWinnerQuestion.of(plays, trump, names))
    stated = r.string("winner")
    if stated not in names:
        raise r.fail(f"states winner {stated!r}, who is not one of the players {' '.join(names)}")
    why = explain_trick(plays, trump)
    engine = names[why.winner]
    if stated != engine:
        raise r.fail(
            f"states winner {stated!r} but the engine says {engine!r} ({_WIN_WORDS[why.rule]})"
        )
    return question


KIND = ItemKind("trick-winner", ("plays", "trump", "players", "winner"), read_item)
