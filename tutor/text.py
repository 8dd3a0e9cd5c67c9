"""Message catalogs: the words the tutor shows, one TOML file per language.

The catalogs live in ``tutor/locale/<lang>.toml`` and are keyed by section and message id.
A missing language or message raises instead of falling back silently, so a gap in a
translation is found by the tests, not by a learner.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

DEFAULT_LANGUAGE = "en"


class MissingTextError(LookupError):
    """A language or message id that the catalogs do not have."""


@cache
def catalog(lang: str = DEFAULT_LANGUAGE) -> dict[str, dict[str, str]]:
    """The whole catalog of ``lang``, section by section."""
    path = resources.files("tutor") / "locale" / f"{lang}.toml"
    if not path.is_file():
        raise MissingTextError(f"no catalog for language {lang!r}")
    with path.open("rb") as handle:
        return tomllib.load(handle)


def text(key: str, lang: str = DEFAULT_LANGUAGE, /, **values: object) -> str:
    """The message ``key`` ("section.id") in ``lang``, filled with ``values``.

    >>> text("suit.R")
    'red'
    >>> text("score.met", bid=2, taken=2, points=40)
    'Bid 2, took 2: bid met, so 20 + 10 × 2 = 40.'
    >>> text("score.nope")
    Traceback (most recent call last):
    ...
    tutor.text.MissingTextError: no message 'score.nope' in the 'en' catalog
    """
    section, _, name = key.partition(".")
    try:
        template = catalog(lang)[section][name]
    except KeyError:
        raise MissingTextError(f"no message {key!r} in the {lang!r} catalog") from None
    return template.format(**values)
