"""The learner's language: chosen on the course index (``?lang=ja`` in the page's URL), or
set for a whole JupyterLab or app session with the environment variable ``TUTOR_LANG``.

Voilà hands the page URL's query string to the notebook's kernel as the environment
variable ``QUERY_STRING`` (CGI style), so a notebook asks :func:`current_language` and
passes the answer as ``lang=`` to everything it shows.

>>> current_language(query="lang=ja", environ={})
'ja'
>>> with_language("05_jester_leads.ipynb", "zh-Hant")
'05_jester_leads.ipynb?lang=zh-Hant'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import parse_qs, quote

from tutor.teaching.text import DEFAULT_LANGUAGE, LANGUAGES

LANGUAGE_VARIABLE = "TUTOR_LANG"
"""Environment variable naming the language of a session (JupyterLab, the tests, the app)."""

LANGUAGE_PARAMETER = "lang"
"""The URL query parameter (``?lang=ja``) the course index adds to every link."""

LANGUAGE_COOKIE = "tutor-lang"
"""The cookie that keeps a learner's language on the hub between visits: set when they
pick one (a page's language links, the login's), read where a page has no ``?lang=``."""

QUERY_VARIABLE = "QUERY_STRING"
"""Where Voilà puts the page URL's query string in the kernel's environment."""

LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "ja": "日本語", "zh-Hant": "繁體中文"}
"""Each language by its own name (what a learner looks for, whatever the page's language)."""


class UnknownLanguageError(ValueError):
    """A ``TUTOR_LANG`` that names none of the tutor's languages."""

    def _render_traceback_(self) -> list[str]:
        """What IPython shows for it in a notebook (its hook for exceptions that know
        better): one line naming the value and the known languages, not the tutor's
        calls down to the check; the setting is to fix, not the code."""
        return [f"{type(self).__name__}: {self}"]


def _known(value: str) -> str | None:
    """The language ``value`` names (ignoring case and surrounding spaces), or ``None``."""
    wanted = value.strip().lower()
    return next((lang for lang in LANGUAGES if lang.lower() == wanted), None)


def current_language(query: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The learner's language: ``?lang=`` of the Voilà page, else ``$TUTOR_LANG``, else
    English. ``query`` and ``environ`` default to the process's environment.

    A URL is typed or edited by anyone, so an unknown ``?lang=`` shows English; a
    ``TUTOR_LANG`` is set by whoever runs the tutor, so a typo there is refused loudly.

    >>> current_language(query="lang=zh-hant&present=1", environ={})
    'zh-Hant'
    >>> current_language(query="lang=xx", environ={"TUTOR_LANG": "ja"})
    'en'
    >>> current_language(query="", environ={"TUTOR_LANG": "ja"})
    'ja'
    >>> current_language(query="present=1", environ={})
    'en'
    >>> current_language(query="", environ={"TUTOR_LANG": "fr"})
    Traceback (most recent call last):
    ...
    tutor.teaching.language.UnknownLanguageError: TUTOR_LANG='fr' is not a language of the tutor; known languages: 'en', 'ja', 'zh-Hant'
    """
    env = os.environ if environ is None else environ
    if query is None:
        query = env.get(QUERY_VARIABLE, "")
    asked = parse_qs(query, keep_blank_values=True).get(LANGUAGE_PARAMETER)
    if asked:
        return _known(asked[0]) or DEFAULT_LANGUAGE
    setting = env.get(LANGUAGE_VARIABLE, "")
    if not setting.strip():
        return DEFAULT_LANGUAGE
    lang = _known(setting)
    if lang is None:
        known = ", ".join(repr(name) for name in LANGUAGES)
        raise UnknownLanguageError(
            f"{LANGUAGE_VARIABLE}={setting!r} is not a language of the tutor; "
            f"known languages: {known}"
        )
    return lang


def choose_language(
    query: str | None,
    accept: str | None,
    environ: Mapping[str, str] | None = None,
    *,
    chosen: str | None = None,
) -> str:
    """A web page's language (the hub's pages): ``?lang=`` if it names one of the tutor's,
    else ``chosen`` (the learner's last choice, kept by their browser: LANGUAGE_COOKIE) if
    it does, else the first of the browser's Accept-Language that does, else
    ``$TUTOR_LANG`` (or English). A page is not refused for a header or a query, so
    nothing here raises.

    >>> choose_language("ja", None), choose_language(None, "fr, zh-TW;q=0.8"), choose_language("xx", "")
    ('ja', 'zh-Hant', 'en')
    >>> choose_language(None, "ja", chosen="zh-hant"), choose_language(None, "ja", chosen="xx")
    ('zh-Hant', 'ja')
    """
    env = os.environ if environ is None else environ
    known = {lang.lower(): lang for lang in LANGUAGES}
    if query:
        return known.get(query.strip().lower(), DEFAULT_LANGUAGE)
    if chosen and chosen.strip().lower() in known:
        return known[chosen.strip().lower()]
    for part in (accept or "").split(","):
        tag = part.split(";")[0].strip().lower()
        if tag in known:
            return known[tag]
        if tag in {"zh-tw", "zh-hk", "zh-mo"}:
            return "zh-Hant"
        if tag.split("-")[0] in known and tag.split("-")[0] != "zh":
            return known[tag.split("-")[0]]
    setting = env.get(LANGUAGE_VARIABLE, "").strip().lower()
    return known.get(setting, DEFAULT_LANGUAGE)


def with_language(href: str, lang: str) -> str:
    """``href`` with ``lang=<lang>`` added to its query, so the next page keeps the
    learner's language.

    >>> with_language("08_worked_example.ipynb?present=1", "ja")
    '08_worked_example.ipynb?present=1&lang=ja'
    """
    separator = "&" if "?" in href else "?"
    return f"{href}{separator}{LANGUAGE_PARAMETER}={quote(lang)}"
