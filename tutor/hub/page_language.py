"""The learner's language across the hub's pages and visits: one rule for the login pages
(:mod:`tutor.hub.login`) and the course pages of every learner's server (Voila's
prelaunch hook, deploy/singleuser/jupyter_server_config.py).

A page's language is its ``?lang=``, else the learner's last choice (the
``tutor-lang`` cookie, set on the hub's whole address whenever a page is asked for
with a ``?lang=``: a language link, the login's form and its redirect), else the
browser's Accept-Language (:func:`tutor.teaching.language.choose_language`). A course
page asked for without ``?lang=`` (the hub's root, a lesson's bookmarked address) is
sent on to the same address with the language added: its kernel reads the language from
the address (``QUERY_STRING``), and its links keep it.
"""

from __future__ import annotations

import os
from typing import Any

from tornado import web

from tutor.teaching.language import (
    LANGUAGE_COOKIE,
    LANGUAGE_PARAMETER,
    choose_language,
    with_language,
)
from tutor.teaching.text import LANGUAGES

KEPT_DAYS = 365


def _asked(handler: web.RequestHandler) -> str | None:
    """The page's ``?lang=`` (or form field), ``None`` if missing or not UTF-8."""
    try:
        value: str | None = handler.get_argument(LANGUAGE_PARAMETER, default=None)
    except web.HTTPError:
        return None
    return value


def request_language(handler: web.RequestHandler) -> str:
    """The language of the page ``handler`` answers (see the module)."""
    return choose_language(
        _asked(handler) or None,
        handler.request.headers.get("Accept-Language"),
        chosen=handler.get_cookie(LANGUAGE_COOKIE),
    )


def remember_language(handler: web.RequestHandler, path: str) -> None:
    """Keep the page's ``?lang=``, if it names one of the tutor's, as the learner's choice
    for every page under ``path`` (the hub's base URL)."""
    asked = (_asked(handler) or "").strip().lower()
    lang = next((known for known in LANGUAGES if known.lower() == asked), None)
    if lang is None or handler.get_cookie(LANGUAGE_COOKIE) == lang:
        return
    handler.set_cookie(
        LANGUAGE_COOKIE,
        lang,
        path=path,
        expires_days=KEPT_DAYS,
        httponly=True,
        samesite="Lax",
        secure=handler.request.protocol == "https",
    )


def course_page_language(handler: Any, notebook: Any = None, cwd: str = "") -> None:
    """Voila's prelaunch hook on the hub (before the page's kernel starts): a course page
    with ``?lang=`` keeps it as the learner's choice; one without is sent on with the
    learner's language (their choice, else their browser's)."""
    base = os.environ.get("JUPYTERHUB_BASE_URL", "/")
    if _asked(handler) is not None:
        remember_language(handler, base)
        return
    handler.redirect(with_language(handler.request.uri, request_language(handler)))
    raise web.Finish()
