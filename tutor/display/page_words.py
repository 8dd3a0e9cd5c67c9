"""The words a page's own scripts show (not its kernel's widgets), in every language: one
home for the app (:mod:`tutor.app.settings` hands them to Voila's template) and the static
site (:mod:`tutor.site.build_pages` writes them into its template), which sit side by side above
this layer and do not import each other."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from tutor.teaching.language import current_language
from tutor.teaching.text import LANGUAGES, catalog


def page_words(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """What the page's scripts need from the catalog, in every language (the page picks the
    one of its ``?lang=``, as the kernel does): the presenter's words, the live room's on
    the projector (used only where the app serves a room: ``room`` set by the launcher in
    classroom mode) and the notices the page shows when it cannot reach its kernel.

    >>> words = page_words({"TUTOR_LANG": "ja"})
    >>> words["default"], sorted(words["notices"]) == sorted(LANGUAGES)
    ('ja', True)
    """
    env = os.environ if environ is None else environ
    return {
        "default": current_language(query="", environ=env),
        "words": {lang: dict(catalog(lang)["present"]) for lang in LANGUAGES},
        "room_words": {lang: dict(catalog(lang)["projector"]) for lang in LANGUAGES},
        "notices": {lang: dict(catalog(lang)["page-notice"]) for lang in LANGUAGES},
    }
