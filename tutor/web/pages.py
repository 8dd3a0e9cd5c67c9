"""The tutor's own short pages (busy, refused, not found) and the error pages of its
handlers: light (tornado and the catalogs), so that the live room's handlers
(:mod:`tutor.web.room_server`), which the hub's teacher service serves too, need nothing
of Voila or Jupyter."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

import tornado.web
from markupsafe import Markup

from tutor.teaching.language import UnknownLanguageError, current_language
from tutor.teaching.text import DEFAULT_LANGUAGE, text
from tutor.web.templating import render


def tutor_page(
    lang: str,
    title: str,
    paragraphs: Iterable[str],
    *,
    kind: str,
    data: Mapping[str, str] | None = None,
    head: str = "",
    tail: str = "",
    template: str = "short-page.html",
    **context: Any,
) -> str:
    """A short page of the tutor's own (busy, refused, not found): a title and paragraphs
    of text, in a ``<main class="tutor-KIND">`` with ``data-`` attributes (all escaped
    by the template, templates/short-page.html), and ``head`` and ``tail`` markup added
    as given. A page that adds to it (the live room's summary) names its ``template``,
    which extends short-page.html, and gives what it needs in ``context``; ``t(key)``
    is a catalog's words in ``lang``."""
    return render(
        template,
        t=lambda key, **values: text(key, lang, **values),
        lang=lang,
        title=title,
        paragraphs=list(paragraphs),
        kind=kind,
        data=dict(data or {}),
        head=Markup(head),
        tail=Markup(tail),
        **context,
    )


ERROR_KINDS = {403: "forbidden", 404: "not-found", 405: "not-found"}


def page_language(query: str) -> str:
    """The language of a page asked with ``query``: its ``?lang=``, else the app's."""
    try:
        return current_language(query=query)
    except UnknownLanguageError:  # TUTOR_LANG is checked at launch; never fail a page for it
        return DEFAULT_LANGUAGE


def error_page(status: int, lang: str) -> str:
    """The page for a request the app refuses (4xx) or could not answer (5xx): what
    happened in the learner's words, and the way back to the course."""
    kind = "server" if status >= 500 else ERROR_KINDS.get(status, "bad-address")
    home = escape(text("error-page.home", lang))
    return tutor_page(
        lang,
        text(f"error-page.{kind}", lang),
        [text(f"error-page.{kind}-text", lang)],
        kind="error",
        data={"status": str(status)},
        tail=f'<p><a href="/">{home}</a></p>\n',
    )


class ErrorPages(tornado.web.RequestHandler):
    """A refused request gets the tutor's page and one line in the log (the app's
    :func:`tutor.app.refused_requests.log_request`), never a traceback."""

    refusal = ""
    """Why the request was refused, for its log line."""

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.clear_header("Content-Disposition")
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(error_page(status_code, page_language(self.request.query)))

    def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
        if isinstance(value, tornado.web.HTTPError) and value.status_code < 500:
            with contextlib.suppress(Exception):
                self.refusal = value.log_message % value.args if value.log_message else ""
            return  # the request's one line says it
        super().log_exception(typ, value, tb)  # a fault: its traceback
