"""What a page shows when the tutor's Python fails: one short message in the page's
language instead of a traceback, under one error name the page's script knows.

Both kernels use it: the app's (:mod:`tutor.app.kernel`: the traceback goes to the
server's log) and the static site's (:mod:`tutor.site.kernel`: to the browser's console).
Each names where the details went, so each has its own words.

>>> short_message("app", "ja")
'チューターの中で問題が起きました。詳しいことはサーバーのログに残っています。'
"""

from __future__ import annotations

from typing import Literal

Host = Literal["app", "site"]
KEYS: dict[Host, str] = {"app": "page-notice.error", "site": "site-notice.error"}
FALLBACK = "Something went wrong in the tutor."


class TutorError(Exception):
    """What the page is told failed (the real exception stays where the kernel keeps its
    details). Its name is what the page's error output carries (``ename``)."""


def short_message(host: Host, lang: str | None = None) -> str:
    """The words a learner reads when something failed, in ``lang`` (default: the page's)."""
    try:
        from tutor.teaching.language import current_language
        from tutor.teaching.text import text

        return text(KEYS[host], lang or current_language())
    except Exception:  # the notice itself must never fail
        return FALLBACK
