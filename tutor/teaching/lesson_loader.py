"""Lessons: the teaching content of ``lessons/*.toml``, loaded and checked against the engine.

A lesson file holds texts and items. Every text is a table of languages
(``title.en = "..."``; ``ja`` and ``zh-Hant`` come later), so a completeness check can ask
each text for each language (:meth:`Lesson.missing_texts`). Items are examples (shown with
their answer) and quiz items (asked). Each item states a fact in card notation, e.g. the
winner of a trick, and the loader checks it against the engine: a stated winner, legal
set, score or trump that disagrees with the engine is refused with a :class:`LessonError`
naming the file, the item and the problem. The explanations a learner reads come from the
engine's reasons (:mod:`tutor.teaching.explain`, :mod:`tutor.teaching.quiz`), never from
the lesson file. The format is described in ``lessons/README.md``; what a lesson is once
read, in :mod:`tutor.teaching.lesson`.

>>> lesson = load_lesson("06_trick_winner")
>>> lesson.title()
'Who takes the trick'
>>> print(lesson.item("source-wizard-first"))
No trump. Cards in the order played: A Wizard, B red 13, C Wizard, D Jester.
A takes the trick with the first Wizard; later Wizards never beat it.

A lesson asks the questions of :mod:`tutor.teaching.quiz` (who takes the trick, legal plays, score,
trump) and :mod:`tutor.teaching.round_quiz` (the schedule of rounds, the dealer, the bidding order,
legal bids, the bidding variants). Showing a lesson in a notebook is the display layer's
job (:func:`tutor.display.show_lesson`); loading and checking one needs no screen.
"""

from __future__ import annotations

import re
import reprlib
import tomllib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from tutor.errors import WizardRuleError
from tutor.resources import LESSONS_DIR_VARIABLE, lessons_dir  # lesson_paths() default
from tutor.rules.cards import Card, Suit, format_cards, parse_cards
from tutor.rules.checks import is_whole_number
from tutor.rules.schedule import GameLength, parse_length
from tutor.rules.seats import check_players, default_names
from tutor.rules.trick import WinRule, explain_trick, judge_play, legal_plays
from tutor.rules.trump import parse_trump, reveal_trump
from tutor.rules.variants import Rules
from tutor.teaching.lesson import (
    DeckFact,
    Fact,
    ItemRole,
    Lesson,
    LessonError,
    LessonItem,
    ScheduleTableFact,
    ScoreSheetFact,
    Section,
    Text,
    VariantsFact,
    file_label,
)
from tutor.teaching.quiz import (
    DEALER_CHOOSES,
    LegalPlaysQuestion,
    Question,
    ScoreQuestion,
    TrickWinnerQuestion,
    TrumpChoiceQuestion,
    TrumpQuestion,
)
from tutor.teaching.round_quiz import (
    BidTime,
    BidVisibilityQuestion,
    DealerQuestion,
    FirstBidderQuestion,
    LegalBidsQuestion,
    ScheduleAsk,
    ScheduleQuestion,
)
from tutor.teaching.text import LANGUAGES

SOURCE_LANGUAGE = "en"
"""The language every text must have now; the others are checked by completeness tests."""

_LESSON_FILE = re.compile(r"(\d\d)_[a-z0-9_]+\.toml")
_ITEM_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


# -- reading lesson files ----------------------------------------------------------------


_TYPE_WORDS = {str: "text", int: "a whole number", bool: "true or false", list: "a list"}


_SHORT_REPR = reprlib.Repr()
_SHORT_REPR.maxstring = _SHORT_REPR.maxother = 80
_SHORT_REPR.maxlist = _SHORT_REPR.maxdict = 8
"""How much of a wrong value a message quotes (a whole 1 MB list would drown the message)."""


def _describe(value: object) -> str:
    kind = {str: "text", int: "a number", float: "a number", bool: "true/false"}.get(
        type(value), type(value).__name__
    )
    shown = _SHORT_REPR.repr(value)
    return f"{shown} ({kind})"


class _Reader:
    """One TOML table being read: typed getters whose errors name the file and the place."""

    def __init__(self, data: object, place: str) -> None:
        if not isinstance(data, dict):
            raise LessonError(f"{place}: expected a table of keys, got {_describe(data)}")
        self.data: dict[str, Any] = data
        self.place = place

    def fail(self, problem: str) -> LessonError:
        return LessonError(f"{self.place}: {problem}")

    def check_keys(self, allowed: Sequence[str], what: str) -> None:
        unknown = [key for key in self.data if key not in allowed]
        if unknown:
            shown = ", ".join(_describe(key).removesuffix(" (text)") for key in unknown[:5])
            more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
            raise self.fail(
                f"unknown key{'s' if len(unknown) > 1 else ''} {shown}{more}; a {what} takes: "
                + ", ".join(allowed)
            )

    def has(self, key: str) -> bool:
        return key in self.data

    def _get(self, key: str, kind: type, default: object = ...) -> Any:
        if key not in self.data:
            if default is ...:
                raise self.fail(f"missing {key!r}")
            return default
        value = self.data[key]
        # bool is a subclass of int: a number must not be true/false, and vice versa.
        if not (is_whole_number(value) if kind is int else isinstance(value, kind)):
            raise self.fail(f"{key!r} must be {_TYPE_WORDS[kind]}, got {_describe(value)}")
        return value

    def string(self, key: str, default: str | None = None) -> str:
        value = self._get(key, str, ... if default is None else default)
        assert isinstance(value, str)
        return value

    def integer(self, key: str) -> int:
        value = self._get(key, int)
        assert isinstance(value, int)
        return value

    def boolean(self, key: str, default: bool | None = None) -> bool:
        value = self._get(key, bool, ... if default is None else default)
        assert isinstance(value, bool)
        return value

    def integers(self, key: str, default: Sequence[int] | None = None) -> tuple[int, ...]:
        values = self._get(key, list, ... if default is None else list(default))
        for value in values:
            if not is_whole_number(value):
                raise self.fail(f"{key!r} must list whole numbers, got {_describe(value)}")
        return tuple(values)

    def names(self, key: str) -> tuple[str, ...] | None:
        """Player names: a list of strings, or one string of names separated by spaces."""
        if key not in self.data:
            return None
        value = self.data[key]
        if isinstance(value, str):
            names = tuple(value.split())
        elif isinstance(value, list) and all(isinstance(name, str) for name in value):
            names = tuple(value)
        else:
            raise self.fail(f"{key!r} must be player names like \"A B C D\", got {_describe(value)}")
        if len(set(names)) != len(names) or not all(names):
            raise self.fail(f"{key!r} must name each player once: {' '.join(names)!r}")
        return names

    def cards(self, key: str, default: str | None = None) -> list[Card]:
        notation = self.string(key, default)
        try:
            return parse_cards(notation)
        except WizardRuleError as error:
            raise self.fail(f"{key!r}: {error}") from None

    def trump(self, key: str) -> Suit | None:
        try:
            return parse_trump(self.string(key))
        except WizardRuleError as error:
            raise self.fail(f"{key!r}: {error}") from None

    def text(self, key: str) -> Text:
        if key not in self.data:
            raise self.fail(f'missing {key!r} (write {key}.{SOURCE_LANGUAGE} = "...")')
        value = self.data[key]
        if not isinstance(value, dict):
            raise self.fail(
                f"{key!r} must give the text per language, e.g. {key}.{SOURCE_LANGUAGE} = "
                f'"...", got {_describe(value)}'
            )
        for lang, words in value.items():
            if lang not in LANGUAGES:
                raise self.fail(
                    f"{key!r} has a text in unknown language {lang!r}; languages: "
                    + ", ".join(LANGUAGES)
                )
            if not isinstance(words, str) or not words.strip():
                raise self.fail(f"{key}.{lang} must be a non-empty text, got {_describe(words)}")
        if SOURCE_LANGUAGE not in value:
            raise self.fail(f'{key!r} has no {SOURCE_LANGUAGE!r} text (write {key}.en = "...")')
        return Text(MappingProxyType(dict(value)), self.place, key)

    def optional_text(self, key: str) -> Text | None:
        return self.text(key) if key in self.data else None

    def tables(self, key: str) -> list[object]:
        value = self.data.get(key, [])
        if not isinstance(value, list):
            raise self.fail(f"{key!r} must be a list of tables ([[{key}]]), got {_describe(value)}")
        return value

    def engine(self, build: Callable[[], Any]) -> Any:
        """``build()``, with an engine error (bad cards, impossible deal...) named here."""
        try:
            return build()
        except LessonError:
            raise
        except ValueError as error:
            raise self.fail(str(error)) from None


_WIN_WORDS = {
    WinRule.FIRST_WIZARD: "first Wizard wins",
    WinRule.HIGHEST_TRUMP: "highest trump wins",
    WinRule.HIGHEST_LED: "highest card of the led suit wins",
    WinRule.FIRST_JESTER: "only Jesters: the first Jester wins",
}


def _trick_winner_item(r: _Reader) -> Question:
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


def _legal_plays_item(r: _Reader) -> Question:
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


def _score_item(r: _Reader) -> Question:
    bid, taken = r.integer("bid"), r.integer("taken")
    question: ScoreQuestion = r.engine(lambda: ScoreQuestion(bid=bid, taken=taken))
    stated, engine = r.integer("points"), question.correct_answer()
    if stated != engine:
        how = "bid met" if bid == taken else f"bid missed by {abs(bid - taken)}"
        raise r.fail(f"states points {stated} but the engine says {engine} ({how})")
    return question


_REVEAL_WORDS = {
    "number-card": "a turned number card makes its suit trump",
    "jester": "a turned Jester means no trump",
    "wizard": "a turned Wizard lets the dealer choose",
    "nothing-left": "nothing left to turn means no trump",
}


def _trump_word(answer: object) -> str:
    return "none" if answer is None else str(answer)


def _trump_item(r: _Reader) -> Question:
    turned_text = r.string("turned", "nothing")
    turned = None if turned_text.strip().lower() == "nothing" else turned_text
    deal: dict[str, Any] = {}
    if r.has("players") or r.has("round"):
        deal = {"players": r.integer("players"), "round": r.integer("round"), "length": _length(r)}
    elif r.has("length"):
        raise r.fail("'length' goes with 'players' and 'round' (the deal)")
    elif not r.has("turned"):
        raise r.fail("missing 'turned' (a card, or \"nothing\"), or the deal: 'players' and 'round'")
    question: TrumpQuestion = r.engine(lambda: TrumpQuestion.of(turned, **deal))
    stated_text = r.string("trump")
    stated: object = (
        DEALER_CHOOSES if stated_text == DEALER_CHOOSES else r.trump("trump")
    )
    engine = question.correct_answer()
    if stated != engine:
        rule = reveal_trump(question.turned).rule.value
        raise r.fail(
            f"states trump {stated_text!r} but the engine says {_trump_word(engine)!r} "
            f"({_REVEAL_WORDS[rule]})"
        )
    return question


def _trump_choice_item(r: _Reader) -> Question:
    question = TrumpChoiceQuestion()
    words = r.string("allowed").split()
    try:
        stated = frozenset(parse_trump(word) for word in words)
    except WizardRuleError as error:
        raise r.fail(f"'allowed': {error}") from None
    engine = question.correct_answer()
    if stated != engine:
        raise r.fail(
            f"states allowed {' '.join(words)!r} but the engine says "
            f"{' '.join(sorted(_trump_word(choice) for choice in engine))!r} "
            "(after a turned Wizard the dealer names one of the four suits)"
        )
    return question


def _length(r: _Reader) -> GameLength:
    return r.engine(lambda: parse_length(r.string("length", GameLength.STANDARD.value)))  # type: ignore[no-any-return]


def _schedule_item(r: _Reader) -> Question:
    players = r.integer("players")
    length = _length(r)
    asked = [ask for ask in ScheduleAsk if r.has(ask.value)]
    if len(asked) != 1:
        raise r.fail("state exactly one of 'rounds', 'cards' or 'tricks' (the answer)")
    ask = asked[0]
    round_number = r.integer("round") if ask is not ScheduleAsk.ROUNDS else None
    if ask is ScheduleAsk.ROUNDS and r.has("round"):
        raise r.fail("'round' goes with 'cards' or 'tricks', not with 'rounds'")
    question: ScheduleQuestion = r.engine(
        lambda: ScheduleQuestion(players=players, ask=ask, round=round_number, length=length)
    )
    stated, engine = r.integer(ask.value), question.correct_answer()
    if stated != engine:
        schedule = ", ".join(map(str, question.schedule()))
        raise r.fail(
            f"states {ask.value} {stated} but the engine says {engine} "
            f"(cards per round with {players} players: {schedule})"
        )
    return question


def _seat_of(r: _Reader, key: str, names: Sequence[str]) -> int:
    name = r.string(key)
    if name not in names:
        raise r.fail(f"{key!r} is {name!r}, who is not one of the players {' '.join(names)}")
    return list(names).index(name)


def _check_stated_seat(
    r: _Reader, key: str, names: Sequence[str], engine: int, *, what: str, rule: str
) -> None:
    """Refuse the item if the player it states under ``key`` is not the engine's seat."""
    stated = _seat_of(r, key, names)
    if stated != engine:
        raise r.fail(
            f"states {what} {names[stated]!r} but the engine says {names[engine]!r} ({rule})"
        )


def _players_by_name(r: _Reader) -> tuple[str, ...]:
    names = r.names("players")
    if names is None:
        raise r.fail("missing 'players' (their names clockwise, e.g. \"A B C D\")")
    r.engine(lambda: check_players(len(names)))
    return names


def _dealer_item(r: _Reader) -> Question:
    names = _players_by_name(r)
    first = _seat_of(r, "first-dealer", names)
    round_number = r.integer("round")
    question: DealerQuestion = r.engine(
        lambda: DealerQuestion(
            players=len(names), first_dealer=first, round=round_number, names=names
        )
    )
    _check_stated_seat(
        r,
        "dealer",
        names,
        question.correct_answer(),
        what="dealer",
        rule="the deal passes one seat clockwise each round",
    )
    return question


def _first_bidder_item(r: _Reader) -> Question:
    names = _players_by_name(r)
    dealer = _seat_of(r, "dealer", names)
    question: FirstBidderQuestion = r.engine(
        lambda: FirstBidderQuestion(players=len(names), dealer=dealer, names=names)
    )
    _check_stated_seat(
        r,
        "first",
        names,
        question.correct_answer(),
        what="first bidder",
        rule="the player on the dealer's left bids first",
    )
    return question


def _legal_bids_item(r: _Reader) -> Question:
    players, cards = r.integer("players"), r.integer("cards")
    bids = r.integers("bids", ())
    plus_minus_one = r.boolean("plus-minus-one", False)
    question: LegalBidsQuestion = r.engine(
        lambda: LegalBidsQuestion(
            players=players, cards=cards, bids=bids, plus_minus_one=plus_minus_one
        )
    )
    stated, engine = frozenset(r.integers("legal")), question.correct_answer()
    if stated != engine:
        forbidden = question.bidding_round().forbidden_bid()
        why = (
            f"plus/minus one forbids {forbidden}"
            if forbidden is not None
            else f"bids run from 0 to {cards} and none is forbidden"
        )
        raise r.fail(f"states legal bids {sorted(stated)} but the engine says {sorted(engine)} ({why})")
    return question


def _bid_visibility_item(r: _Reader) -> Question:
    # Rules parses the mode's name, and its error lists the valid ones.
    rules: Rules = r.engine(lambda: Rules(bidding=r.string("bidding")))  # type: ignore[arg-type]
    bidding = rules.bidding
    when_text = r.string("when")
    if when_text not in {time.value for time in BidTime}:
        raise r.fail(
            f"'when' is {when_text!r}; use one of " + ", ".join(repr(t.value) for t in BidTime)
        )
    question = BidVisibilityQuestion(bidding=bidding, when=BidTime(when_text))
    stated, engine = r.boolean("visible"), question.correct_answer()
    if stated != engine:
        raise r.fail(
            f"states visible = {str(stated).lower()} but the engine says "
            f"{str(engine).lower()} ({bidding.value} bids, {when_text})"
        )
    return question


def _deck_item(r: _Reader) -> Fact:
    fact = DeckFact()
    counts = fact.counts()
    stated_any = False
    for key, engine in counts.items():
        if r.has(key):
            stated_any = True
            stated = r.integer(key)
            if stated != engine:
                raise r.fail(f"states {key} {stated} but the engine's deck has {engine}")
    if not stated_any:
        raise r.fail("state at least one count: " + ", ".join(counts))
    return fact


def _player_counts(r: _Reader, key: str) -> dict[int, object]:
    table = r.data.get(key, {})
    if not isinstance(table, dict):
        raise r.fail(f"{key!r} must be a table by player count, e.g. {key} = {{ 4 = ... }}")
    counts: dict[int, object] = {}
    for count, value in table.items():
        if not count.isdigit():
            raise r.fail(f"{key!r} is keyed by a player count, not {count!r}")
        players = int(count)
        r.engine(lambda: check_players(players))  # noqa: B023 (called at once)
        counts[players] = value
    return counts


def _schedule_table_item(r: _Reader) -> Fact:
    length = _length(r)
    rounds = _player_counts(r, "rounds")
    schedules = _player_counts(r, "schedules")
    if not rounds and not schedules:
        raise r.fail("state 'rounds' or 'schedules' by player count, e.g. rounds = { 4 = 15 }")
    fact = ScheduleTableFact(players=tuple(sorted({*rounds, *schedules})), length=length)
    for players, engine in fact.schedules().items():
        if players in rounds and rounds[players] != len(engine):
            raise r.fail(
                f"states {rounds[players]!r} rounds for {players} players but the engine "
                f"says {len(engine)}"
            )
        if players in schedules and schedules[players] != engine:
            raise r.fail(
                f"states the schedule {schedules[players]!r} for {players} players but the "
                f"engine says {engine}"
            )
    return fact


def _rows(r: _Reader, key: str, players: int) -> tuple[tuple[int, ...], ...]:
    rows = r._get(key, list)
    for row in rows:
        if (
            not isinstance(row, list)
            or len(row) != players
            or not all(is_whole_number(v) for v in row)
        ):
            raise r.fail(
                f"each row of {key!r} lists one whole number per player ({players}), "
                f"got {_describe(row)}"
            )
    return tuple(tuple(row) for row in rows)


def _score_sheet_item(r: _Reader) -> Fact:
    names = _players_by_name(r)
    bids, taken = _rows(r, "bids", len(names)), _rows(r, "taken", len(names))
    fact: ScoreSheetFact = r.engine(lambda: ScoreSheetFact(names=names, bids=bids, taken=taken))
    stated, engine = r.integers("totals"), fact.sheet().totals
    if stated != engine:
        raise r.fail(f"states totals {list(stated)} but the engine says {list(engine)}")
    if r.has("winners"):
        stated_winners = r.names("winners")
        if list(stated_winners or ()) != fact.winners():
            raise r.fail(
                f"states winners {' '.join(stated_winners or ())!r} but the engine says "
                f"{' '.join(fact.winners())!r} (highest total; ties share the win)"
            )
    return fact


def _variants_item(r: _Reader) -> Fact:
    names = r._get("variants", list)
    if not names or not all(isinstance(name, str) for name in names):
        raise r.fail(f"'variants' must list variant names, got {_describe(names)}")
    fact: VariantsFact = r.engine(lambda: VariantsFact(tuple(names)))
    stated, engine = r.boolean("allowed"), fact.allowed()
    if stated != engine:
        raise r.fail(
            f"states allowed = {str(stated).lower()} but the engine says {str(engine).lower()}"
        )
    return fact


@dataclass(frozen=True, slots=True)
class _Kind:
    keys: tuple[str, ...]
    build: Callable[[_Reader], Question | Fact]
    asks: bool = True
    """False for facts: they can be examples, never quiz items."""


_COMMON_KEYS = ("id", "kind", "note")

_KINDS: dict[str, _Kind] = {
    "trick-winner": _Kind(("plays", "trump", "players", "winner"), _trick_winner_item),
    "legal-plays": _Kind(("hand", "played", "trump", "legal"), _legal_plays_item),
    "score": _Kind(("bid", "taken", "points"), _score_item),
    "trump": _Kind(("turned", "players", "round", "length", "trump"), _trump_item),
    "trump-choice": _Kind(("allowed",), _trump_choice_item),
    "schedule": _Kind(
        ("players", "length", "round", "rounds", "cards", "tricks"), _schedule_item
    ),
    "dealer": _Kind(("players", "first-dealer", "round", "dealer"), _dealer_item),
    "first-bidder": _Kind(("players", "dealer", "first"), _first_bidder_item),
    "legal-bids": _Kind(
        ("players", "cards", "bids", "plus-minus-one", "legal"), _legal_bids_item
    ),
    "bid-visibility": _Kind(("bidding", "when", "visible"), _bid_visibility_item),
    "deck": _Kind(
        ("cards", "suits", "ranks", "numbers", "wizards", "jesters"), _deck_item, asks=False
    ),
    "schedule-table": _Kind(("length", "rounds", "schedules"), _schedule_table_item, asks=False),
    "score-sheet": _Kind(
        ("players", "bids", "taken", "totals", "winners"), _score_sheet_item, asks=False
    ),
    "variants": _Kind(("variants", "allowed"), _variants_item, asks=False),
}


def item_kinds(*, quiz: bool = False) -> list[str]:
    """The kinds of item a lesson file may hold (``quiz=True``: those a quiz may ask).

    >>> item_kinds(quiz=True)[:4]
    ['trick-winner', 'legal-plays', 'score', 'trump']
    """
    return [name for name, kind in _KINDS.items() if kind.asks or not quiz]


def _parse_item(
    data: object, label: str, role: ItemRole, number: int, seen: dict[str, str]
) -> LessonItem:
    r = _Reader(data, f"{label}, {role.value} #{number}")
    item_id = r.string("id")
    if not _ITEM_ID.fullmatch(item_id):
        raise r.fail(f"id {item_id!r} must be lower-case words joined by '-', e.g. 'wizard-lead'")
    if item_id in seen:
        raise r.fail(f"id {item_id!r} is used twice (already by {seen[item_id]})")
    r.place = f"{label}, {role.value} {item_id!r}"
    seen[item_id] = f"{role.value} {item_id!r}"
    kind_name = r.string("kind")
    if kind_name not in _KINDS:
        raise r.fail(f"unknown kind {kind_name!r}; known: " + ", ".join(_KINDS))
    kind = _KINDS[kind_name]
    if role is ItemRole.QUIZ and not kind.asks:
        raise r.fail(
            f"a {kind_name!r} item states a fact and asks nothing: make it an example; "
            "quiz kinds: " + ", ".join(item_kinds(quiz=True))
        )
    r.check_keys(_COMMON_KEYS + kind.keys, f"{kind_name} item")
    subject = kind.build(r)
    return LessonItem(
        id=item_id,
        kind=kind_name,
        role=role,
        subject=subject,
        note=r.optional_text("note"),
        where=r.place,
    )


# -- the limits of a lesson file -------------------------------------------------------------
# Python's TOML reader recurses once per nested array or inline table (500 of them in a 1 KB
# file end in a RecursionError) and spends quadratic time and memory on a long dotted key
# (50,000 parts: 35 s and 9.8 GB). A lesson needs none of that, so the file's shape is
# scanned, in linear time, before it is parsed.

MAX_LESSON_BYTES = 256_000
"""The largest lesson file read, in bytes (the course's largest has 9.3 KB; a file of
256 KB of the costliest shape takes a second or two to refuse)."""

MAX_NESTING = 16
"""The deepest nesting of arrays and inline tables (the course's lessons use 2)."""

MAX_KEY_PARTS = 8
"""The most parts of a dotted key (``title.en`` has 2)."""

MAX_NUMBER_CHARACTERS = 30
"""The longest number (a lesson's numbers are points, bids and counts)."""

MAX_REPORTED_PROBLEMS = 50
"""A file's problems reported at once; past it, how many more there are."""

_TOML_TOKEN = re.compile(
    r"""
      (?P<string>
          \"\"\"(?:[^"\\]|\\.|"{1,2}(?!"))*(?:"{3,5}|\Z)   # multi-line basic string
        | '''(?:[^']|'{1,2}(?!'))*(?:'{3,5}|\Z)           # multi-line literal string
        | "(?:[^"\\\n]|\\[^\n])*"?                       # basic string (ends at the line)
        | '[^'\n]*'?                                     # literal string
        | \#[^\n]*                                       # comment
      )
    | (?P<open>[\[{]) | (?P<close>[\]}]) | (?P<comma>,) | (?P<equals>=) | (?P<dot>\.)
    | (?P<newline>\n) | (?P<number>[0-9][0-9A-Za-z_]*)
    """,
    re.VERBOSE | re.DOTALL,
)


def _shape_problem(source: str) -> str | None:
    """What makes ``source`` too deeply nested, too long-keyed or too big-numbered for a
    lesson file, or None. Strings and comments are skipped; where a string ends is only
    ever misjudged in a file the parser refuses anyway.

    >>> _shape_problem("a = " + "[" * 40 + "]" * 40)
    'arrays and tables nested more than 16 deep (line 1); a lesson file nests at most 16'
    >>> _shape_problem('title.en = "[[[[.[[[[[[[[[[[[[[[[[."') is None
    True
    """
    openers: list[str] = []
    in_key = True  # at a key: a statement's start, a [table] header, an inline table's key
    in_header = False
    parts = 1

    def line(token: re.Match[str]) -> int:
        return source.count("\n", 0, token.start()) + 1

    for token in _TOML_TOKEN.finditer(source):
        kind, value = token.lastgroup, token.group()
        if kind == "open":
            if value == "[" and in_key and not openers:
                in_header = True  # [table] or [[array of tables]]: its name is a key
                continue
            openers.append(value)
            if len(openers) > MAX_NESTING:
                return (
                    f"arrays and tables nested more than {MAX_NESTING} deep (line "
                    f"{line(token)}); a lesson file nests at most {MAX_NESTING}"
                )
            in_key, parts = value == "{", 1
        elif kind == "close":
            if openers:
                openers.pop()
                in_key = False
        elif kind == "comma":
            if openers and openers[-1] == "{":
                in_key, parts = True, 1
        elif kind == "equals":
            in_key = False
        elif kind == "newline":
            if not openers:
                in_key, in_header, parts = True, False, 1
        elif kind == "dot" and (in_key or in_header):
            parts += 1
            if parts > MAX_KEY_PARTS:
                return (
                    f"a dotted key of more than {MAX_KEY_PARTS} parts (line {line(token)}); "
                    f"a lesson's keys have at most {MAX_KEY_PARTS}, like title.en"
                )
        elif kind == "number" and not in_key and len(value) > MAX_NUMBER_CHARACTERS:
            return (
                f"a number of {len(value)} characters ({value[:10]}...) on line "
                f"{line(token)}; a lesson's numbers have at most {MAX_NUMBER_CHARACTERS}"
            )
    return None


def _lesson_source(path: Path, label: str) -> str:
    """The text of the lesson file at ``path``; a :class:`LessonError` if it is missing, a
    folder, too big, not UTF-8 or of a shape no lesson has. A UTF-8 byte-order mark
    (Windows Notepad writes one) is fine."""
    if path.is_dir():
        raise LessonError(
            f"{label}: is a folder, not a lesson file (give the folder alone to check "
            "every lesson in it)"
        )
    if path.exists() and not path.is_file():  # a pipe or a device: opening it could wait forever
        raise LessonError(f"{label}: not a regular file")
    try:
        with path.open("rb") as file:
            data = file.read(MAX_LESSON_BYTES + 1)
    except FileNotFoundError:
        raise LessonError(f"{label}: no such lesson file") from None
    if len(data) > MAX_LESSON_BYTES:
        raise LessonError(
            f"{label}: larger than {MAX_LESSON_BYTES:,} bytes, the most a lesson file may have"
        )
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise LessonError(f"{label}: saved as UTF-16 text; save the lesson file as UTF-8")
    try:
        source = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LessonError(
            f"{label}: not UTF-8 text (byte 0x{data[error.start]:02x} at position "
            f"{error.start}); save the lesson file as UTF-8"
        ) from None
    problem = _shape_problem(source)
    if problem is not None:
        raise LessonError(f"{label}: {problem}")
    return source


def _parse_toml(source: str, label: str) -> dict[str, Any]:
    try:
        return tomllib.loads(source)
    except RecursionError:  # _shape_problem refuses such files first; a second fence
        raise LessonError(f"{label}: arrays and tables nested too deeply") from None
    except ValueError as error:  # TOMLDecodeError, or a value Python will not convert
        raise LessonError(f"{label}: not valid TOML: {error}") from None


def _capped(problems: list[str]) -> list[str]:
    if len(problems) <= MAX_REPORTED_PROBLEMS:
        return problems
    more = len(problems) - MAX_REPORTED_PROBLEMS
    return [*problems[:MAX_REPORTED_PROBLEMS], f"... and {more} more problems"]


def load_lesson_file(path: Path | str, *, label: str | None = None) -> Lesson:
    """Read one lesson file and check every item with the engine.

    Raises :class:`LessonError` naming the file, the item and the problem, for every
    problem of the file at once (one per text, section and item). Messages name the file
    by ``label`` (default :func:`file_label`: its folder and name).
    """
    path = Path(path)
    label = file_label(path) if label is None else label
    source = _lesson_source(path, label)  # (a folder is refused for being one)
    lesson_number = lesson_file_number(path, label=label)
    raw = _parse_toml(source, label)
    problems: list[str] = []

    def collect(read: Callable[[], Any]) -> Any:
        """``read()``, or None with its problems noted: the file is read to its end."""
        try:
            return read()
        except LessonError as error:
            problems.extend(error.problems)
            return None

    top = _Reader(raw, label)
    collect(lambda: top.check_keys(("title", "summary", "section", "quiz"), "lesson file"))
    title, summary = collect(lambda: top.text("title")), collect(lambda: top.text("summary"))
    seen: dict[str, str] = {}
    section_ids: set[str] = set()

    def read_section(number: int, data: object) -> Section:
        r = _Reader(data, f"{label}, section #{number}")
        section_id = r.string("id")
        if not _ITEM_ID.fullmatch(section_id) or section_id in section_ids:
            raise r.fail(
                f"section id {section_id!r} must be unique, lower-case words joined by '-'"
            )
        section_ids.add(section_id)
        r.place = f"{label}, section {section_id!r}"
        r.check_keys(("id", "heading", "text", "example"), "section")
        examples = [
            collect(lambda: _parse_item(table, label, ItemRole.EXAMPLE, index, seen))  # noqa: B023
            for index, table in enumerate(r.tables("example"), start=1)
        ]
        return Section(section_id, r.text("heading"), r.text("text"), tuple(examples))

    sections = [
        collect(lambda: read_section(number, data))  # noqa: B023 (called at once)
        for number, data in enumerate(collect(lambda: top.tables("section")) or (), start=1)
    ]
    quiz = [
        collect(lambda: _parse_item(table, label, ItemRole.QUIZ, index, seen))  # noqa: B023
        for index, table in enumerate(collect(lambda: top.tables("quiz")) or (), start=1)
    ]
    if problems:
        raise LessonError(*_capped(problems))
    return Lesson(
        id=path.stem,
        number=lesson_number,
        path=path,
        title=title,
        summary=summary,
        sections=tuple(sections),
        quiz=tuple(quiz),
    )


def lesson_paths(folder: Path | str | None = None) -> list[Path]:
    """The lesson files of ``folder`` (default :func:`lessons_dir`), in course order.

    >>> [path.name for path in lesson_paths()][:2]
    ['01_cards_and_rounds.toml', '02_trump.toml']
    """
    where = Path(folder) if folder is not None else lessons_dir()
    if not where.is_dir():
        raise LessonError(
            f"no lessons folder at {where}: pass folder=, or set {LESSONS_DIR_VARIABLE}"
        )
    return sorted(path for path in where.glob("*.toml") if path.is_file())


def list_lessons(folder: Path | str | None = None) -> list[Lesson]:
    """Every lesson, in order, each read and checked by the engine.

    >>> [(lesson.number, lesson.title()) for lesson in list_lessons()][:2]
    [(1, 'Cards, rounds and tricks'), (2, 'Trump')]
    """
    lessons = [load_lesson_file(path) for path in lesson_paths(folder)]
    numbers = Counter(lesson.number for lesson in lessons)
    for lesson in lessons:
        if numbers[lesson.number] > 1:
            raise LessonError(
                f"{file_label(lesson.path)}: lesson number {lesson.number:02d} is used by "
                f"{numbers[lesson.number]} files"
            )
    return lessons


def load_lesson(name: str | Path, *, folder: Path | str | None = None) -> Lesson:
    """The lesson called ``name`` (``"04_follow_suit"``, or just ``"04"``), or a file path.

    >>> load_lesson("04").id
    '04_follow_suit'
    >>> load_lesson("99_nothing")
    Traceback (most recent call last):
    ...
    tutor.teaching.lesson.LessonError: unknown lesson '99_nothing'; lessons: 01_cards_and_rounds, ...
    """
    if isinstance(name, Path) or name.endswith(".toml"):
        return load_lesson_file(name)
    paths = lesson_paths(folder)
    for path in paths:
        if name in (path.stem, path.stem[:2]):
            return load_lesson_file(path)
    raise LessonError(
        f"unknown lesson {name!r}; lessons: " + ", ".join(path.stem for path in paths)
    )


def lesson_file_number(path: Path | str, *, label: str | None = None) -> int:
    """The lesson number a file's name gives (``12`` for ``12_trumps.toml``), or a
    :class:`LessonError` saying how a lesson file is named (the file need not exist yet;
    messages name it by ``label``, default :func:`file_label`).

    >>> lesson_file_number("my_lessons/12_trumps.toml")
    12
    >>> lesson_file_number("Trumps.toml")
    Traceback (most recent call last):
    ...
    tutor.teaching.lesson.LessonError: Trumps.toml: a lesson file is named NN_words.toml (two digits, then lower-case words joined by '_'), e.g. 04_follow_suit.toml
    """
    path = Path(path)
    match = _LESSON_FILE.fullmatch(path.name)
    if match is None:
        raise LessonError(
            f"{file_label(path) if label is None else label}: a lesson file is named "
            "NN_words.toml (two digits, then lower-case words joined by '_'), "
            "e.g. 04_follow_suit.toml"
        )
    return int(match.group(1))
