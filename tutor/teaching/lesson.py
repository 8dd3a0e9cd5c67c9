"""Lessons as values: a :class:`Lesson` of sections with examples and a quiz, each text in
every language written so far (:class:`Text`), and the facts an example states without
asking (the deck, a schedule table, a score sheet, variants played together), each
computed by the engine.

Lessons are read from ``lessons/*.toml`` and checked against the engine by
:mod:`tutor.teaching.lesson_loader`; showing one is the display layer's job
(:func:`tutor.display.show_lesson`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from tutor.errors import InvalidDealError, InvalidRulesError
from tutor.rules.cards import DECK, Suit
from tutor.rules.schedule import GameLength, cards_per_round
from tutor.rules.scoring import ScoreSheet
from tutor.rules.variants import Bidding, Rules
from tutor.teaching.explain import format_points, suit_name
from tutor.teaching.question import BIDDING_RULES, LENGTH_RULES, Question, length_name
from tutor.teaching.situations import score_rules
from tutor.teaching.text import DEFAULT_LANGUAGE, LANGUAGES, MissingTextError, join_words, text


class LessonError(ValueError):
    """A lesson file that cannot be used; the message names the file, the item and the
    problem. A file with several mistakes gets them all at once: ``problems`` holds one
    message per mistake (the message is those lines)."""

    def __init__(self, *problems: str) -> None:
        super().__init__("\n".join(problems))
        self.problems: tuple[str, ...] = problems


# -- texts in several languages ----------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class Text:
    """One text of a lesson in every language written so far.

    ``place`` says where it is (file and item), ``key`` which text of that place it is.

    >>> from types import MappingProxyType
    >>> title = Text(MappingProxyType({"en": "Hello"}), "lessons/01_x.toml", "title")
    >>> title(), title.missing_languages()
    ('Hello', ['ja', 'zh-Hant'])
    >>> title("ja")
    Traceback (most recent call last):
    ...
    tutor.teaching.text.MissingTextError: lessons/01_x.toml: title has no 'ja' text (write title.ja = "...")
    """

    translations: Mapping[str, str]
    place: str
    key: str

    def __call__(self, lang: str = DEFAULT_LANGUAGE) -> str:
        try:
            return self.translations[lang]
        except KeyError:
            raise MissingTextError(
                f'{self.place}: {self.key} has no {lang!r} text (write {self.key}.{lang} = "...")'
            ) from None

    def missing_languages(self, languages: Sequence[str] = LANGUAGES) -> list[str]:
        """The languages of ``languages`` this text does not exist in yet."""
        return [lang for lang in languages if lang not in self.translations]


# -- facts: examples that are not questions -----------------------------------------------


@dataclass(frozen=True, slots=True)
class DeckFact:
    """What the 60-card deck holds, counted from the engine's deck.

    >>> print(DeckFact().as_text())
    60 cards: 4 suits (yellow Y, red R, green G, blue B) of 13 cards each, ranked 1 to 13, 52 number cards in all; 4 Wizards and 4 Jesters.
    """

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules it shows (rule-map ids): what the deck holds.

        >>> DeckFact().rules
        ('deck-sixty-cards',)
        """
        return ("deck-sixty-cards",)

    def counts(self) -> dict[str, int]:
        numbers = [card for card in DECK if card.is_number]
        return {
            "cards": len(DECK),
            "suits": len({card.suit for card in numbers}),
            "ranks": len({card.rank for card in numbers}),
            "numbers": len(numbers),
            "wizards": sum(card.is_wizard for card in DECK),
            "jesters": sum(card.is_jester for card in DECK),
        }

    def as_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        counts = self.counts()
        ranks = sorted({card.rank for card in DECK if card.rank is not None})
        return text(
            "lesson.deck-fact",
            lang,
            total=counts["cards"],
            suits=counts["suits"],
            suit_names=join_words((f"{suit_name(suit, lang)} {suit.value}" for suit in Suit), lang),
            ranks=counts["ranks"],
            low=ranks[0],
            high=ranks[-1],
            numbers=counts["numbers"],
            wizards=counts["wizards"],
            jesters=counts["jesters"],
        )


@dataclass(frozen=True, slots=True)
class ScheduleTableFact:
    """The cards per round for several player counts, from the engine's schedule.

    >>> print(ScheduleTableFact(players=(5, 6)).as_text())
    Game length: the standard game.
    players  rounds  cards per round
    5        12      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
    6        10      1, 2, 3, 4, 5, 6, 7, 8, 9, 10
    """

    players: tuple[int, ...] = (3, 4, 5, 6)
    length: GameLength = GameLength.STANDARD

    def schedules(self) -> dict[int, list[int]]:
        return {count: cards_per_round(count, self.length) for count in self.players}

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules it shows (rule-map ids): a game length's own rule, or, for the
        standard game, how many rounds it has and that round n deals n cards.

        >>> ScheduleTableFact().rules, ScheduleTableFact(length=GameLength.FIVE).rules
        (('rounds-in-a-game', 'round-deals-its-number'), ('five-round-game',))
        """
        if self.length in LENGTH_RULES:
            return (LENGTH_RULES[self.length],)
        return ("rounds-in-a-game", "round-deals-its-number")

    def columns(self, lang: str = DEFAULT_LANGUAGE) -> tuple[str, str, str]:
        """The column headings: players, rounds, cards per round."""
        return (
            text("lesson.schedule-col-players", lang),
            text("lesson.schedule-col-rounds", lang),
            text("lesson.schedule-col-cards", lang),
        )

    def as_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        players, rounds, cards = self.columns(lang)
        width = (len(players) + 2, len(rounds) + 2)
        lines = [
            text("lesson.schedule-length", lang, length=length_name(self.length, lang)),
            f"{players:<{width[0]}}{rounds:<{width[1]}}{cards}",
        ]
        for count, schedule in self.schedules().items():
            row = join_words(map(str, schedule), lang)
            lines.append(f"{count:<{width[0]}}{len(schedule):<{width[1]}}{row}")
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class ScoreSheetFact:
    """The score sheet of the first rounds of a game (row n is round n, of n tricks),
    scored by the engine.

    >>> fact = ScoreSheetFact(names=("A", "B", "C"), bids=((1, 0, 0),), taken=((1, 0, 0),))
    >>> fact.sheet().totals, fact.winners()
    ((30, 20, 20), ['A'])
    """

    names: tuple[str, ...]
    bids: tuple[tuple[int, ...], ...]
    taken: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        if len(self.bids) != len(self.taken):
            raise InvalidDealError(
                f"{len(self.bids)} rows of bids but {len(self.taken)} rows of tricks taken"
            )
        self.sheet()  # validates every row

    def sheet(self) -> ScoreSheet:
        sheet = ScoreSheet(players=len(self.names), names=self.names)
        # The rows are rounds 1, 2, 3... of a standard game: round n has n tricks.
        for cards, (bids, taken) in enumerate(zip(self.bids, self.taken, strict=True), start=1):
            sheet.record(bids=bids, taken=taken, cards=cards)
        return sheet

    def winners(self) -> list[str]:
        """The players with the highest total (ties share the win)."""
        return [self.names[seat] for seat in self.sheet().leaders()]

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules it shows (rule-map ids): points add up, the highest total wins, and
        the line of the scoring rule of every cell.

        >>> ScoreSheetFact(names=("A", "B", "C"), bids=((1, 0, 0),), taken=((1, 0, 0),)).rules
        ('scores-add-up', 'highest-total-wins', 'bid-met-scores', 'bid-zero-met-scores-twenty')
        """
        seats = range(len(self.names))
        return self.scoring_rules(seats, "scores-add-up", "highest-total-wins")

    def scoring_rules(self, seats: Iterable[int], *first: str) -> tuple[str, ...]:
        """``first``, then the line of the scoring rule (rule-map id) of each round of
        ``seats``, each once.

        >>> ScoreSheetFact(names=("A", "B", "C"), bids=((1, 0, 0),), taken=((1, 0, 0),)
        ...                ).scoring_rules((1,), "scores-add-up")
        ('scores-add-up', 'bid-zero-met-scores-twenty')
        """
        seats = tuple(seats)
        rules = list(first)
        for bids, taken in zip(self.bids, self.taken, strict=True):
            rules += (rule for seat in seats for rule in score_rules(bids[seat], taken[seat]))
        return tuple(dict.fromkeys(rules))

    def as_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        sheet = self.sheet()
        width = max(11, *(len(name) + 2 for name in self.names))
        round_word, cards_word = (
            text("lesson.sheet-col-round", lang),
            text("lesson.sheet-col-cards", lang),
        )
        first, second = len(round_word) + 2, len(cards_word) + 2
        names = "".join(f"{name:<{width}}" for name in self.names)
        lines = [f"{round_word:<{first}}{cards_word:<{second}}{names}".rstrip()]
        for number, row in enumerate(sheet.rows, start=1):
            cells = "".join(
                f"{text('lesson.sheet-cell', lang, bid=b, taken=t, points=format_points(p, signed=True)):<{width}}"
                for b, t, p in zip(row.bids, row.taken, row.points, strict=True)
            )
            lines.append(f"{number:<{first}}{row.cards:<{second}}{cells}".rstrip())
        totals = "".join(f"{format_points(total):<{width}}" for total in sheet.totals)
        total_word = text("lesson.sheet-total", lang)
        lines.append(f"{total_word:<{first + second}}{totals}".rstrip())
        lines.append(text("lesson.sheet-winners", lang, winners=join_words(self.winners(), lang)))
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class VariantsFact:
    """Whether some variants can be played together (the engine's :meth:`Rules.preset`).

    >>> VariantsFact(("plus-minus-one", "hidden-bids")).allowed()
    False
    """

    variants: tuple[str, ...]

    def __post_init__(self) -> None:
        for name in self.variants:
            Rules.preset(name)  # an unknown name raises here, not later

    def allowed(self) -> bool:
        try:
            Rules.preset(*self.variants)
        except InvalidRulesError:
            return False
        return True

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules it shows (rule-map ids): each variant's own rule, as the engine's
        preset sets it, then, when the engine refuses plus/minus one with bids that are
        not open, that it needs open bids.

        >>> VariantsFact(("plus-minus-one", "hidden-bids")).rules
        ('plus-minus-one', 'hidden-bids', 'plus-minus-one-needs-open-bids')
        >>> VariantsFact(("plus-minus-one", "tournament")).rules
        ('plus-minus-one', 'tournament-schedule')
        """
        presets = [Rules.preset(name) for name in self.variants]
        rules = []
        for preset in presets:  # what each sets apart from the standard game
            if preset.plus_minus_one:
                rules.append("plus-minus-one")
            if preset.bidding is not Bidding.OPEN:
                rules.append(BIDDING_RULES[preset.bidding])
            if preset.length in LENGTH_RULES:
                rules.append(LENGTH_RULES[preset.length])
        pm1 = any(preset.plus_minus_one for preset in presets)
        closed = any(preset.bidding is not Bidding.OPEN for preset in presets)
        if pm1 and closed and not self.allowed():
            rules.append("plus-minus-one-needs-open-bids")
        return tuple(dict.fromkeys(rules))

    def as_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        key = "lesson.variants-allowed" if self.allowed() else "lesson.variants-refused"
        names = " + ".join(text(f"lesson-variant.{name}", lang) for name in self.variants)
        return text(key, lang, variants=names)


Fact = DeckFact | ScheduleTableFact | ScoreSheetFact | VariantsFact
"""An example that is shown, never asked."""

_FACT_TYPES = (DeckFact, ScheduleTableFact, ScoreSheetFact, VariantsFact)


# -- lessons, sections, items -------------------------------------------------------------


class ItemRole(StrEnum):
    """Whether an item is shown with its answer, or asked."""

    EXAMPLE = "example"
    QUIZ = "quiz item"


@dataclass(frozen=True, slots=True, eq=False)
class LessonItem:
    """One example or quiz item of a lesson, checked by the engine when it was loaded."""

    id: str
    kind: str
    role: ItemRole
    subject: Question | Fact
    note: Text | None
    where: str
    rules: tuple[str, ...] = ()
    """The rules it shows or asks (ids of :mod:`tutor.teaching.rule_map`)."""

    @property
    def question(self) -> Question:
        """The item as a question (every quiz item is one; some examples are facts)."""
        if isinstance(self.subject, _FACT_TYPES):
            raise LessonError(f"{self.where}: a {self.kind} item is a fact, not a question")
        return self.subject

    def as_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The item in plain text: the situation, then the engine's answer and reason."""
        subject = self.subject
        if isinstance(subject, _FACT_TYPES):
            return subject.as_text(lang)
        situation, answer = subject.situation_text(lang), subject.answer_text(lang)
        if not situation:  # the answer already states it (a score's formula names the bid)
            return answer
        return text("lesson.fact-line", lang, situation=situation, answer=answer)

    def __str__(self) -> str:
        return self.as_text()

    def texts(self) -> Iterator[Text]:
        if self.note is not None:
            yield self.note


@dataclass(frozen=True, slots=True, eq=False)
class Section:
    """A part of a lesson: a heading, a text (Markdown) and its examples."""

    id: str
    heading: Text
    body: Text
    examples: tuple[LessonItem, ...]
    rules: tuple[str, ...] = ()
    """The rules its text teaches (ids of :mod:`tutor.teaching.rule_map`)."""


@dataclass(frozen=True, slots=True, eq=False)
class Lesson:
    """One lesson: title, summary, sections with examples, and the quiz."""

    id: str
    number: int
    path: Path
    title: Text
    summary: Text
    sections: tuple[Section, ...]
    quiz: tuple[LessonItem, ...]

    @property
    def examples(self) -> tuple[LessonItem, ...]:
        return tuple(item for section in self.sections for item in section.examples)

    def items(self) -> tuple[LessonItem, ...]:
        """Every example, then every quiz item."""
        return self.examples + self.quiz

    def item(self, item_id: str) -> LessonItem:
        """The example or quiz item called ``item_id``."""
        for candidate in self.items():
            if candidate.id == item_id:
                return candidate
        known = ", ".join(repr(candidate.id) for candidate in self.items())
        raise LessonError(f"{file_label(self.path)}: no item {item_id!r}; items: {known}")

    def questions(self) -> list[Question]:
        """The quiz, as questions graded by the engine."""
        return [item.question for item in self.quiz]

    def texts(self) -> Iterator[Text]:
        """Every text of the lesson (for completeness checks of the translations)."""
        yield self.title
        yield self.summary
        for section in self.sections:
            yield section.heading
            yield section.body
            for item in section.examples:
                yield from item.texts()
        for item in self.quiz:
            yield from item.texts()

    def missing_texts(self, lang: str) -> list[str]:
        """Where a text lacks ``lang``, e.g. ``"lessons/04_x.toml, section 'y': heading"``."""
        return [
            f"{piece.place}: {piece.key}"
            for piece in self.texts()
            if lang not in piece.translations
        ]

    def translation_gaps(self) -> list[tuple[Text, str]]:
        """Each text of the lesson, with a language it lacks that another of its texts has:
        a lesson part translated, which a page in that language shows all in English (a
        lesson in English only has none).

        >>> from tutor.teaching.lesson_loader import load_lesson
        >>> load_lesson("06_trick_winner").translation_gaps()
        []
        """
        texts = list(self.texts())
        written = {lang for piece in texts for lang in piece.translations}
        return [
            (piece, lang)
            for lang in LANGUAGES
            if lang in written
            for piece in texts
            if lang not in piece.translations
        ]

    def shown_language(self, lang: str) -> str:
        """The language the lesson is shown in on a page asking for ``lang``: ``lang``,
        unless some text of the lesson is not written in it (a teacher's own lesson may
        be English only): then English, never half one language and half another.

        >>> from tutor.teaching.lesson_loader import load_lesson
        >>> load_lesson("06_trick_winner").shown_language("ja")
        'ja'
        """
        return lang if not self.missing_texts(lang) else DEFAULT_LANGUAGE

    def facts(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """Every example in plain text, one after another (what a notebook prints)."""
        return "\n\n".join(item.as_text(lang) for item in self.examples)

    def __repr__(self) -> str:
        return (
            f"<Lesson {self.id!r}: {self.title()!r}, {len(self.sections)} sections, "
            f"{len(self.examples)} examples, {len(self.quiz)} quiz items>"
        )


def file_label(path: Path) -> str:
    """How messages name a lesson file: its folder and its name, e.g. ``lessons/04_x.toml``."""
    return f"{path.parent.name}/{path.name}" if path.parent.name else path.name
