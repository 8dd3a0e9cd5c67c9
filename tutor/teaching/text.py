"""Message catalogs: the words the tutor shows, one TOML file per language.

A language's catalog is every ``tutor/teaching/locale/<lang>/*.toml`` file (one file per part of the
tutor: engine, quiz, widgets, lessons, app), keyed by section and message id; a section
lives in one file only.
A missing language or message raises instead of falling back silently, so a gap in a
translation is found by the tests, not by a learner.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from functools import cache
from importlib import resources

DEFAULT_LANGUAGE = "en"
"""The language a learner gets unless they choose another; every text is written in it first."""

LANGUAGES = ("en", "ja", "zh-Hant")
"""Every language of the tutor: each has a catalog here, and every lesson text must exist
in each (:meth:`tutor.teaching.lesson.Text.missing_languages`)."""


class MissingTextError(LookupError):
    """A language or message id that the catalogs do not have."""


@cache
def catalog(lang: str = DEFAULT_LANGUAGE) -> dict[str, dict[str, str]]:
    """The whole catalog of ``lang``, section by section."""
    folder = resources.files("tutor.teaching") / "locale" / lang
    if not folder.is_dir():
        raise MissingTextError(f"no catalog for language {lang!r}")
    sections: dict[str, dict[str, str]] = {}
    for part in sorted(folder.iterdir(), key=lambda entry: entry.name):
        if not part.name.endswith(".toml"):
            continue
        with part.open("rb") as handle:
            for name, messages in tomllib.load(handle).items():
                if name in sections:
                    raise MissingTextError(
                        f"section [{name}] of the {lang!r} catalog is defined twice "
                        f"(again in {part.name})"
                    )
                sections[name] = messages
    return sections


def text(key: str, lang: str = DEFAULT_LANGUAGE, /, **values: object) -> str:
    """The message ``key`` ("section.id") in ``lang``, filled with ``values``.

    >>> text("suit.R")
    'red'
    >>> text("card.number", colour="red", rank=9)
    'red 9'
    >>> text("score.nope")
    Traceback (most recent call last):
    ...
    tutor.teaching.text.MissingTextError: no message 'score.nope' in the 'en' catalog
    """
    section, _, name = key.partition(".")
    try:
        template = catalog(lang)[section][name]
    except KeyError:
        raise MissingTextError(f"no message {key!r} in the {lang!r} catalog") from None
    return template.format(**values)


ONE = "-one"
"""Suffix of a message's form for exactly one thing ("1 card"); a language without plural
forms gives it the same words as the message itself."""


def text_for_count(key: str, count: int, lang: str = DEFAULT_LANGUAGE, /, **values: object) -> str:
    """The message ``key`` for ``count`` things: its ``-one`` form when ``count`` is 1 and
    the catalog has one, else ``key`` itself; filled with ``values``.

    >>> text_for_count("table.cards-left", 1, count=1), text_for_count("table.cards-left", 3, count=3)
    ('1 card', '3 cards')
    """
    section, _, name = key.partition(".")
    if count == 1 and f"{name}{ONE}" in catalog(lang).get(section, {}):
        key = f"{key}{ONE}"
    return text(key, lang, **values)


def join_words(items: Iterable[object], lang: str = DEFAULT_LANGUAGE) -> str:
    """Items of a list in a sentence, with the language's separator.

    >>> join_words(["red 9", "blue 11"]), join_words(["赤の9", "青の11"], "ja")
    ('red 9, blue 11', '赤の9、青の11')
    """
    return text("list.separator", lang).join(str(item) for item in items)


_CLOSES_ITSELF = tuple("。！？：」』）")
"""Full-width marks that end a Japanese or Chinese sentence (or clause) and carry their own
space: no ASCII space follows them."""


def join_sentences(sentences: Iterable[str]) -> str:
    """Sentences one after another: a space after an English one, none after 「。」.

    Empty sentences are left out.

    >>> join_sentences(["Right!", "", "The score is 40."])
    'Right! The score is 40.'
    >>> join_sentences(["正解です！", "得点は40点です。", "次へ"])
    '正解です！得点は40点です。次へ'
    """
    joined = ""
    for sentence in sentences:
        if sentence:
            joined += sentence_gap(joined) + sentence
    return joined


def sentence_gap(sentence: str) -> str:
    """What goes between ``sentence`` and the next one: a space, except after a
    full-width mark that carries its own (「。」「！」...) or after nothing at all.

    >>> sentence_gap("Right!"), sentence_gap("正解です！"), sentence_gap("")
    (' ', '', '')
    """
    return " " if sentence and not sentence.endswith(_CLOSES_ITSELF) else ""


def join_alternatives(items: Iterable[object], lang: str = DEFAULT_LANGUAGE) -> str:
    """Items as alternatives in a sentence: "a, b or c".

    >>> join_alternatives(["red 12"]), join_alternatives(["red 12", "green 10", "blue 2"])
    ('red 12', 'red 12, green 10 or blue 2')
    >>> join_alternatives(["赤の12", "緑の10"], "ja")
    '赤の12か緑の10'
    """
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    return join_words(words[:-1], lang) + text("list.or", lang) + words[-1]


def join_all(items: Iterable[object], lang: str = DEFAULT_LANGUAGE) -> str:
    """Items that are all so, in a sentence: "C and D win", "A, C and D".

    >>> join_all(["C"]), join_all(["C", "D"]), join_all(["A", "C", "D"])
    ('C', 'C and D', 'A, C and D')
    >>> join_all(["A", "C", "D（あなた）"], "ja")
    'A、CとD（あなた）'
    """
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    return join_words(words[:-1], lang) + text("list.and", lang) + words[-1]


MANY = "-many"
"""Suffix of a sentence's form that refuses several things at once, where a language says
"none of them" otherwise than "this one" (Japanese: 「赤の12も緑の10も出せません」)."""


def join_none_of(items: Iterable[object], lang: str = DEFAULT_LANGUAGE) -> str:
    """Items in a sentence that refuses each of them: "red 12 or green 10" in English, but
    「赤の12も緑の10も」 in Japanese, where 「か」 would read as "one or the other".

    >>> join_none_of(["red 12", "green 10", "blue 2"])
    'red 12, green 10 or blue 2'
    >>> join_none_of(["赤の12", "緑の10"], "ja"), join_none_of(["赤の12"], "ja")
    ('赤の12も緑の10も', '赤の12')
    """
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    listed = text("list.nor-separator", lang).join(words[:-1]) + text("list.nor", lang) + words[-1]
    return text("list.none-of", lang, items=listed)
