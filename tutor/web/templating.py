"""The one template engine for the pages the tutor's own servers write (Jinja2, with
autoescaping): the app's and the room's short pages, the hub's teacher page; JupyterHub's
pages use the same templates folder for the language switcher (tutor/hub/hub_pages.py).

``templates/base.html`` is the layout, ``templates/languages.html`` the language switcher
(one macro: a ``<nav>`` of every language's link, the current one told by weight and
``aria-current``, not by colour).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from tornado.httputil import url_concat

from tutor.teaching.language import LANGUAGE_NAMES, LANGUAGE_PARAMETER

TEMPLATES = Path(__file__).resolve().parent / "templates"


@functools.cache
def environment(*folders: Path) -> Environment:
    """The engine reading ``folders`` first, then the shared templates."""
    engine = Environment(
        loader=FileSystemLoader([str(folder) for folder in (*folders, TEMPLATES)]),
        autoescape=True,
        undefined=StrictUndefined,  # a misspelt name fails the page's test, not silently
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    # |tojson writes Japanese and Chinese as they are (half the bytes of \uXXXX escapes: the
    # live room's phone page carries every language's words); it still escapes < > & '
    engine.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": False}
    return engine


def render(name: str, *, folders: tuple[Path, ...] = (), **context: Any) -> str:
    """Template ``name`` filled with ``context``."""
    return environment(*folders).get_template(name).render(**context)


def language_links(url: str, query: dict[str, str] | None = None) -> list[tuple[str, str, str]]:
    """Each language's ``(code, name, address)``: ``url`` with ``query`` and ``?lang=``.

    >>> language_links("/c/")[1]
    ('ja', '日本語', '/c/?lang=ja')
    """
    return [
        (code, name, url_concat(url, {**(query or {}), LANGUAGE_PARAMETER: code}))
        for code, name in LANGUAGE_NAMES.items()
    ]
