"""Refused requests: the tutor's own page, one line in the log.

Jupyter Server's error pages need templates and a static path the stand-alone app has
not got: every refused websocket and many 404s wrote "Uncaught exception in write_error"
tracebacks to the log (anyone could flood it) and sent an empty page. Every handler of
the app answers with the tutor's page instead (the JSON APIs keep their JSON,
:class:`TutorErrorPages`), and the log gets one line per request, its address cut short,
without the query (the token; :func:`log_request`). Addresses too long, heads too big and
control characters are refused before any route is looked at (:class:`TutorApplication`).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote, urlsplit

import tornado.web
from jupyter_server.base.handlers import APIHandler
from tornado.log import access_log

from tutor.teaching.text import text
from tutor.web.pages import ErrorPages, page_language, tutor_page

MAX_URL_LENGTH = 8192
"""The longest address answered (414 past it); browsers' own limits are near this."""

MAX_HEADERS_SIZE = 65536
"""The most bytes of request headers answered (431 past it): tornado's usual limit."""

MAX_HEADERS_READ = 1 << 20
"""How much of a request's head the server reads before it gives up on the connection
without an answer: room to answer 414 or 431 to anything a browser or a script would send."""

_LOGGED_PATH_LENGTH = 120


def ask_for_link_page(lang: str) -> str:
    """What a learner without the classroom token gets (instead of Jupyter's login form)."""
    return tutor_page(
        lang,
        text("error-page.ask-for-link", lang),
        [text("error-page.ask-for-link-text", lang)],
        kind="error",
        data={"status": "403"},
    )


class TutorErrorPages(ErrorPages):
    """Mixed into every handler of the app: a refused request gets the tutor's page (or
    the JSON of a JSON API) and one line in the log (:func:`log_request`)."""

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        if isinstance(self, APIHandler):  # the pages' scripts read these as JSON
            super(ErrorPages, self).write_error(status_code, **kwargs)  # the API's own
            return
        super().write_error(status_code, **kwargs)


def _shown_path(path: str) -> str:
    shown = path if len(path) <= _LOGGED_PATH_LENGTH else path[:_LOGGED_PATH_LENGTH] + "..."
    return shown.encode("unicode_escape").decode("ascii")  # no control characters in a log


def log_request(handler: tornado.web.RequestHandler) -> None:
    """The log's line for a request (tornado's ``log_function``): status, method, path
    (cut short, without its query), address, time, and why it was refused."""
    status = handler.get_status()
    log = (
        access_log.info
        if status < 400
        else access_log.warning
        if status < 500
        else access_log.error
    )
    request = handler.request
    refusal = getattr(handler, "refusal", "")
    log(
        "%d %s %s (%s) %.0f ms%s",
        status,
        request.method,
        _shown_path(request.path),
        request.remote_ip,
        1000 * request.request_time(),
        f": {_shown_path(refusal)}" if refusal else "",
    )


class RefusedRequestHandler(TutorErrorPages):
    """A request refused before any route is looked at (see :class:`TutorApplication`)."""

    def initialize(self, status: int, reason: str) -> None:
        self.status, self.reason = status, reason

    def prepare(self) -> None:
        raise tornado.web.HTTPError(self.status, self.reason)


class TutorApplication(tornado.web.Application):
    """The app's tornado application: refuses addresses too long (414), headers too big
    (431) and paths with control characters (400) before any handler sees them (Voila
    answered ``index.ipynb%00.txt`` with a 500, tornado a 100 KB address with no answer
    at all), and reads heads of up to :data:`MAX_HEADERS_READ` bytes to say so."""

    def find_handler(self, request: Any, **kwargs: Any) -> Any:
        refusal = _refusal(request)
        if refusal is not None:
            status, reason = refusal
            return self.get_handler_delegate(
                request, RefusedRequestHandler, {"status": status, "reason": reason}
            )
        return super().find_handler(request, **kwargs)

    def listen(self, port: int, address: str | None = None, **kwargs: Any) -> Any:
        kwargs.setdefault("max_header_size", MAX_HEADERS_READ)
        return super().listen(port, address, **kwargs)


_CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f]")


def _refusal(request: Any) -> tuple[int, str] | None:
    if len(request.uri) > MAX_URL_LENGTH:
        return 414, f"address of {len(request.uri)} characters"
    size = sum(len(name) + len(value) + 4 for name, value in request.headers.get_all())
    if size > MAX_HEADERS_SIZE:
        return 431, f"headers of {size} bytes"
    if _CONTROL_CHARACTERS.search(unquote(request.path)):
        return 400, "control character in the path"
    return None


class ClassroomLoginHandler(TutorErrorPages):
    """``/login``: where Jupyter sends a browser without the classroom token. The tutor
    has no login form (Jupyter's is a developer's page, and answered 500 when submitted):
    a learner is told to ask the teacher for the link, in the language of the page they
    asked for, with 403."""

    def prepare(self) -> None:
        after = urlsplit(self.get_query_argument("next", "")).query
        self.set_status(403)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(ask_for_link_page(page_language(after or self.request.query)))


class NotFoundHandler(TutorErrorPages):
    """Answers 404: for an address the app does not have, and for ``/logout`` (the app
    has no log-out page: Jupyter's needs templates Voila lacks, and answered 500)."""

    def prepare(self) -> None:
        raise tornado.web.HTTPError(404)


class UnknownHostHandler(TutorErrorPages):
    """Any request whose ``Host`` is not one of the app's addresses (DNS rebinding: a web
    page elsewhere must not reach the app through a name of its own)."""

    def prepare(self) -> None:
        raise tornado.web.HTTPError(400, "unknown host")


def with_error_pages(handler: type) -> type:
    """``handler`` with the tutor's error pages and log line (:class:`TutorErrorPages`)."""
    if issubclass(handler, TutorErrorPages):
        return handler
    return type(handler.__name__, (TutorErrorPages, handler), {"__module__": __name__})
