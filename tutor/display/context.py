"""Where a page of the course is shown, as its kernel can tell: in the app (Voilà, its
pages reached by links, with presenter mode) or in JupyterLab (notebooks opened from the
file browser), in which language, and whether presenter mode was asked for.

The signal is Voilà's own: it starts a page's kernel with the CGI variables of the request,
``SERVER_SOFTWARE=voila/<version>`` among them (``QUERY_STRING`` carries ``?lang=``).
JupyterLab, nbclient and a plain ``python`` set none of them. A build that runs the course as
an app another way (e.g. a static site) sets ``TUTOR_FRONTEND=app``.

>>> context = page_context(environ={"SERVER_SOFTWARE": "voila/0.5.13",
...                                  "QUERY_STRING": "lang=ja&present=1"})
>>> context.frontend, context.lang, context.presenting
(<Frontend.APP: 'app'>, 'ja', True)
>>> context.link("06_trick_winner.ipynb")
'06_trick_winner.ipynb?lang=ja'
>>> lab = page_context(environ={"TUTOR_LANG": "ja"})
>>> lab.frontend, lab.link("06_trick_winner.ipynb"), lab.presenting
(<Frontend.LAB: 'lab'>, '06_trick_winner.ipynb', False)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import parse_qs, quote

from tutor.teaching.language import QUERY_VARIABLE, current_language, with_language

FRONTEND_VARIABLE = "TUTOR_FRONTEND"
"""Environment variable that says how the course is shown (``app`` or ``lab``), for a
runner Voilà's variables do not identify."""


PRESENT_PARAMETER = "present"
"""The URL query parameter (``?present=1``) that opens the app in presenter mode."""


class Frontend(StrEnum):
    APP = "app"
    """Voilà (or another app runner): links between pages carry ``?lang=``, the page has a
    tab title to set, presenter mode and the app's keys exist."""
    LAB = "lab"
    """JupyterLab or Notebook: links open notebooks in Lab (no query), the language is
    ``TUTOR_LANG``; no presenter mode, no app keys."""


class UnknownFrontendError(ValueError):
    """A ``TUTOR_FRONTEND`` naming no frontend."""


def current_frontend(environ: Mapping[str, str] | None = None) -> Frontend:
    """The frontend the kernel runs for (see the module's docstring).

    >>> current_frontend({"SERVER_SOFTWARE": "voila/0.5.13"}), current_frontend({})
    (<Frontend.APP: 'app'>, <Frontend.LAB: 'lab'>)
    >>> current_frontend({"TUTOR_FRONTEND": "web"})
    Traceback (most recent call last):
    ...
    tutor.display.context.UnknownFrontendError: TUTOR_FRONTEND='web' names no frontend; known: 'app', 'lab'
    """
    env = os.environ if environ is None else environ
    asked = env.get(FRONTEND_VARIABLE, "").strip().lower()
    if asked:
        try:
            return Frontend(asked)
        except ValueError:
            known = ", ".join(repr(frontend.value) for frontend in Frontend)
            raise UnknownFrontendError(
                f"{FRONTEND_VARIABLE}={env[FRONTEND_VARIABLE]!r} names no frontend; known: {known}"
            ) from None
    if env.get("SERVER_SOFTWARE", "").lower().startswith("voila/"):
        return Frontend.APP
    return Frontend.LAB


@dataclass(frozen=True, slots=True)
class PageContext:
    """A page's language, its frontend and whether it is presented."""

    lang: str
    frontend: Frontend
    presenting: bool = False

    @property
    def in_app(self) -> bool:
        return self.frontend is Frontend.APP

    def link(self, notebook: str) -> str:
        """The link to another notebook of the course: in the app it keeps the language
        (``?lang=``); in Lab, a plain relative path, which Lab opens as a notebook."""
        href = quote(notebook)
        return with_language(href, self.lang) if self.in_app else href

    def present_link(self, notebook: str) -> str:
        """The link that opens a notebook in presenter mode (the app only)."""
        return with_language(f"{quote(notebook)}?{PRESENT_PARAMETER}=1", self.lang)


def presenter_requested(query: str) -> bool:
    """Whether a page's query string asks for presenter mode (``?present=1``).

    >>> presenter_requested("present=1"), presenter_requested("present=0&x=1")
    (True, False)
    >>> presenter_requested("")
    False
    """
    values = parse_qs(query).get(PRESENT_PARAMETER, [])
    return any(value.lower() in ("1", "true", "yes", "on") for value in values)


def page_context(environ: Mapping[str, str] | None = None) -> PageContext:
    """The context of the page this kernel draws (``environ`` defaults to the process's)."""
    env = os.environ if environ is None else environ
    frontend = current_frontend(env)
    query = env.get(QUERY_VARIABLE, "") if frontend is Frontend.APP else ""
    return PageContext(
        lang=current_language(query=query, environ=env),
        frontend=frontend,
        presenting=frontend is Frontend.APP and presenter_requested(query),
    )
