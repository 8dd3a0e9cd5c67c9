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
    >>> text("score.met", bid=2, taken=2, points=40)
    'Bid 2, took 2: bid met, so 20 + 10 × 2 = 40.'
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


def join_words(items: Iterable[object], lang: str = DEFAULT_LANGUAGE) -> str:
    """Items of a list in a sentence, with the language's separator.

    >>> join_words(["red 9", "blue 11"]), join_words(["赤の9", "青の11"], "ja")
    ('red 9, blue 11', '赤の9、青の11')
    """
    return text("list.separator", lang).join(str(item) for item in items)
