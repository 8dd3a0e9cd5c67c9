"""Whose bid does a round played through meet? (``kind = "bids-met"``): the question, its
grading by the engine, and the reader that checks what a lesson file states of it. The
round is a :class:`tutor.teaching.kinds.round_tricks.ShortRound`, stated by the same keys.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar, Final

from tutor.errors import InvalidPlayersError
from tutor.teaching.kinds.round_setup import check_seat
from tutor.teaching.kinds.round_tricks import ROUND_KEYS, ShortRound, read_round
from tutor.teaching.lesson_reader import ItemKind, TableReader
from tutor.teaching.question import AnswerKind, Feedback, Question, Topic, trump_sentence
from tutor.teaching.situations import Situation, trick_situations, winner_rules
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, text

NOBODY: Final = "nobody"
"""The choice that says no bid was met (a set of choices cannot be empty)."""

Choice = int | str
"""A seat, or :data:`NOBODY`."""


@dataclass(frozen=True, slots=True)
class BidsMetQuestion(Question):
    """Whose bid is met, once the round is played? Pick every seat that took exactly its
    bid, or :data:`NOBODY`.

    >>> example = ShortRound.of(
    ...     names="ABCD", dealer=3, turned="R9", bids=(1, 2, 0, 0),
    ...     tricks=("J B5 B11 B7", "R4 R12 R2 W", "G3 J G10 G8"))
    >>> q = BidsMetQuestion(example)
    >>> q.correct_answer(), [q.choice_label(c) for c in q.choices()]
    (frozenset({'nobody'}), ['A', 'B', 'C', 'D', 'nobody'])
    >>> feedback = q.check({1})
    >>> print(feedback.verdict, feedback.answer, feedback.explanation)
    Not quite. Tricks taken: A 0 (bid 1), B 1 (bid 2), C 1 (bid 0), D 1 (bid 0). Nobody took exactly their bid.
    >>> feedback.details[1]
    'Trick 2: B takes the trick with the Wizard: the first Wizard played always wins.'

    >>> BidsMetQuestion(ShortRound.of(names="ABCD", dealer=3, turned="R9", bids=(0, 1, 0, 1),
    ...     tricks=("J B5 B11 B7", "R4 R12 R2 W", "G3 J G10 G8"))).correct_answer()
    frozenset({0, 1, 3})
    """

    round: ShortRound
    answer_kind: ClassVar[AnswerKind] = AnswerKind.MANY_CHOICES

    @property
    def topic(self) -> Topic:
        return Topic.ROUND_PLAYED

    @property
    def situations(self) -> tuple[Situation, ...]:
        """The situations of every trick of the round."""
        found = {
            situation
            for trick in self.round.tricks
            for situation in trick_situations(trick, self.round.trump)
        }
        return tuple(situation for situation in Situation if situation in found)

    @property
    def rules(self) -> tuple[str, ...]:
        """What a bid is and how tricks are counted, then the rules that decide each trick.

        >>> example = ShortRound.of(
        ...     names="ABCD", dealer=3, turned="R9", bids=(1, 2, 0, 0),
        ...     tricks=("J B5 B11 B7", "R4 R12 R2 W", "G3 J G10 G8"))
        >>> BidsMetQuestion(example).rules[:3]
        ('bid-is-tricks-expected', 'round-is-not-trick', 'highest-led-suit-wins')
        """
        rules = ["bid-is-tricks-expected", "round-is-not-trick"]
        for trick in self.round.tricks:
            rules += winner_rules(trick, self.round.trump)
        return tuple(dict.fromkeys(rules))

    def met(self) -> tuple[int, ...]:
        """The seats whose bid the engine's tricks meet."""
        rnd = self.round.played()
        return tuple(seat for seat in range(rnd.players) if rnd.bids[seat] == rnd.taken[seat])

    def correct_answer(self) -> frozenset[Choice]:
        return frozenset(self.met()) or frozenset({NOBODY})

    def choices(self) -> tuple[Choice, ...]:
        return (*range(self.round.players), NOBODY)

    def _choice(self, choice: object) -> Choice:
        if choice == NOBODY:
            return NOBODY
        if isinstance(choice, int) and not isinstance(choice, bool):
            return check_seat(choice, self.round.players, "chosen")
        raise InvalidPlayersError(
            f"invalid choice {choice!r}: choose seats 0 to {self.round.players - 1} or {NOBODY!r}"
        )

    def choice_label(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        chosen = self._choice(choice)
        return text("quiz.nobody", lang) if chosen == NOBODY else self.round.names[int(chosen)]

    def is_right_choice(self, choice: object) -> bool:
        return self._choice(choice) in self.correct_answer()

    def choice_mark(self, choice: object, lang: str = DEFAULT_LANGUAGE) -> str:
        if self._choice(choice) == NOBODY:
            return ""
        key = "quiz.bid-met-mark" if self.is_right_choice(choice) else "quiz.bid-missed-mark"
        return text(key, lang)

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text(
            "quiz.bids-met-prompt",
            lang,
            trump=trump_sentence(self.round.trump, lang),
            bids=self.round.bids_words(lang),
            tricks=self.round.tricks_words(lang=lang),
        )

    def situation_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text(
            "quiz.bids-met-situation",
            lang,
            trump=trump_sentence(self.round.trump, lang),
            bids=self.round.bids_words(lang),
            tricks=self.round.tricks_words(lang=lang),
        )

    def hint(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("quiz-hint.bids-met", lang)

    def check(self, answer: object, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        if isinstance(answer, (str, int)) or not isinstance(answer, Iterable):
            raise InvalidPlayersError(f"answer with a collection of choices, not {answer!r}")
        chosen = frozenset(map(self._choice, answer))
        rnd = self.round.played()
        names = self.round.names
        taken = join_words(
            (
                text("quiz.bids-met-taken-one", lang, player=names[s], taken=t, bid=rnd.bids[s])
                for s, t in enumerate(rnd.taken)
            ),
            lang,
        )
        met = self.met()
        verdict = (
            text("quiz.bids-met-some", lang, players=join_words((names[s] for s in met), lang))
            if met
            else text("quiz.bids-met-none", lang)
        )
        return Feedback.graded(
            chosen == self.correct_answer(),
            text("quiz.bids-met-taken", lang, taken=taken),
            verdict,
            lang,
            self.round.trick_sentences(lang),
        )


def read_item(r: TableReader) -> Question:
    """A bids-met item of a lesson file, what it states checked against the engine."""
    played = read_round(r)
    question = BidsMetQuestion(played)
    stated = r.names("met")
    if stated is None:
        raise r.fail("missing 'met' (the players whose bid is met, or \"\" for nobody)")
    unknown = [name for name in stated if name not in played.names]
    if unknown:
        raise r.fail(f"'met' names {' '.join(unknown)!r}, not among the players")
    engine = [played.names[seat] for seat in question.met()]
    if sorted(stated) != sorted(engine):
        taken = played.played().taken
        raise r.fail(
            f"states met {' '.join(stated)!r} but the engine says {' '.join(engine)!r} "
            f"(tricks taken {list(taken)}, bids {list(played.bids)}: a bid is met when they "
            "are equal)"
        )
    return question


KIND = ItemKind("bids-met", (*ROUND_KEYS, "met"), read_item)
