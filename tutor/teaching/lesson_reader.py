"""Reading a lesson file's tables: typed getters whose errors name the file and the place
(:class:`TableReader`), and what a kind of item is to the reader (:class:`ItemKind`)."""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from tutor.errors import WizardRuleError
from tutor.rules.cards import Card, Suit, parse_cards
from tutor.rules.checks import is_whole_number
from tutor.rules.schedule import GameLength, parse_length
from tutor.rules.seats import check_players
from tutor.rules.trump import parse_trump
from tutor.teaching.lesson import Fact, LessonError, Text
from tutor.teaching.question import Question
from tutor.teaching.text import LANGUAGES

SOURCE_LANGUAGE = "en"
"""The language every text must have now; the others are checked by completeness tests."""


_TYPE_WORDS = {str: "text", int: "a whole number", bool: "true or false", list: "a list"}


_SHORT_REPR = reprlib.Repr()
_SHORT_REPR.maxstring = _SHORT_REPR.maxother = 80
_SHORT_REPR.maxlist = _SHORT_REPR.maxdict = 8
"""How much of a wrong value a message quotes (a whole 1 MB list would drown the message)."""


def describe_value(value: object) -> str:
    """A value as an error message quotes it: shortened, with what it is ("(text)")."""
    kind = {str: "text", int: "a number", float: "a number", bool: "true/false"}.get(
        type(value), type(value).__name__
    )
    shown = _SHORT_REPR.repr(value)
    return f"{shown} ({kind})"


class TableReader:
    """One TOML table being read: typed getters whose errors name the file and the place."""

    def __init__(self, data: object, place: str) -> None:
        if not isinstance(data, dict):
            raise LessonError(f"{place}: expected a table of keys, got {describe_value(data)}")
        self.data: dict[str, Any] = data
        self.place = place

    def fail(self, problem: str) -> LessonError:
        return LessonError(f"{self.place}: {problem}")

    def check_keys(self, allowed: Sequence[str], what: str) -> None:
        unknown = [key for key in self.data if key not in allowed]
        if unknown:
            shown = ", ".join(describe_value(key).removesuffix(" (text)") for key in unknown[:5])
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
            raise self.fail(f"{key!r} must be {_TYPE_WORDS[kind]}, got {describe_value(value)}")
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
                raise self.fail(f"{key!r} must list whole numbers, got {describe_value(value)}")
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
            raise self.fail(
                f'{key!r} must be player names like "A B C D", got {describe_value(value)}'
            )
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
                f'"...", got {describe_value(value)}'
            )
        for lang, words in value.items():
            if lang not in LANGUAGES:
                raise self.fail(
                    f"{key!r} has a text in unknown language {lang!r}; languages: "
                    + ", ".join(LANGUAGES)
                )
            if not isinstance(words, str) or not words.strip():
                raise self.fail(
                    f"{key}.{lang} must be a non-empty text, got {describe_value(words)}"
                )
        if SOURCE_LANGUAGE not in value:
            raise self.fail(f'{key!r} has no {SOURCE_LANGUAGE!r} text (write {key}.en = "...")')
        return Text(MappingProxyType(dict(value)), self.place, key)

    def optional_text(self, key: str) -> Text | None:
        return self.text(key) if key in self.data else None

    def tables(self, key: str) -> list[object]:
        value = self.data.get(key, [])
        if not isinstance(value, list):
            raise self.fail(
                f"{key!r} must be a list of tables ([[{key}]]), got {describe_value(value)}"
            )
        return value

    def engine(self, build: Callable[[], Any]) -> Any:
        """``build()``, with an engine error (bad cards, impossible deal...) named here."""
        try:
            return build()
        except LessonError:
            raise
        except ValueError as error:
            raise self.fail(str(error)) from None


def read_length(r: TableReader) -> GameLength:
    """The item's ``length`` (a game length's name; default the standard game)."""
    return r.engine(lambda: parse_length(r.string("length", GameLength.STANDARD.value)))  # type: ignore[no-any-return]


def read_seat(r: TableReader, key: str, names: Sequence[str]) -> int:
    """The seat of the player the item names under ``key``, one of ``names``."""
    name = r.string(key)
    if name not in names:
        raise r.fail(f"{key!r} is {name!r}, who is not one of the players {' '.join(names)}")
    return list(names).index(name)


def check_stated_seat(
    r: TableReader, key: str, names: Sequence[str], engine: int, *, what: str, rule: str
) -> None:
    """Refuse the item if the player it states under ``key`` is not the engine's seat."""
    stated = read_seat(r, key, names)
    if stated != engine:
        raise r.fail(
            f"states {what} {names[stated]!r} but the engine says {names[engine]!r} ({rule})"
        )


def read_players(r: TableReader) -> tuple[str, ...]:
    """The item's ``players``: their names clockwise, as many as a game may have."""
    names = r.names("players")
    if names is None:
        raise r.fail("missing 'players' (their names clockwise, e.g. \"A B C D\")")
    r.engine(lambda: check_players(len(names)))
    return names


@dataclass(frozen=True, slots=True)
class ItemKind:
    """A kind of lesson item, as a lesson file names it (``kind = "score"``): the keys its
    table may hold besides ``id``, ``kind`` and ``note``, and :attr:`read`, which reads the
    table and checks what it states against the engine. Each kind is defined in its own
    module of :mod:`tutor.teaching.kinds` and listed in its registry."""

    name: str
    keys: tuple[str, ...]
    read: Callable[[TableReader], Question | Fact]
    asks: bool = True
    """False for facts: they can be examples, never quiz items."""
