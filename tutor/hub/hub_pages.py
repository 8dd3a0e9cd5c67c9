"""The hub's own pages in the learner's language: the language chosen alike on every page
(:class:`PageLanguage`, by :mod:`tutor.hub.page_language`'s rule), JupyterHub's ``<html lang="en">`` taken from it
(:class:`PageLanguageLoader`), the tutor's templates beside JupyterHub's and
NativeAuthenticator's (:func:`add_template_folders`), and error pages in that language
that never answer a malformed form with a bare 500 (:class:`PageError`,
:class:`ClearErrors`; the form's fields read by :func:`form_text`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from jinja2 import BaseLoader, ChoiceLoader, Environment, FileSystemLoader, TemplateNotFound
from nativeauthenticator.handlers import TEMPLATE_DIR as NATIVE_TEMPLATES
from tornado import web
from tornado.httputil import url_concat

from tutor.hub.page_language import remember_language, request_language
from tutor.teaching.language import LANGUAGE_PARAMETER
from tutor.teaching.text import catalog, text
from tutor.web.templating import TEMPLATES as WEB_TEMPLATES
from tutor.web.templating import language_links

TEMPLATES = Path(__file__).resolve().parent / "templates"


def form_text(handler: Any, name: str) -> str:
    """Form field ``name`` (the last if repeated; "" if missing). Not UTF-8: a 400 page
    saying so (tornado's own check)."""
    value: str = handler.get_body_argument(name, "", strip=False)
    return value


HARD_CODED_LANG = '<html lang="en">'
"""What JupyterHub's page.html says of every page's language, whatever the page is in."""


class PageLanguageLoader(BaseLoader):
    """JupyterHub's ``page.html`` (as ``inner`` finds it) with its ``<html lang="en">``
    taken from the template variable ``lang`` (English when a page gives none, as
    JupyterHub's own pages do): page.html writes the tag outside any block, so no
    template extending it can change it, and a script changing it after the page loads
    comes too late for the browser's choice of fonts and for a screen reader's first
    words."""

    def __init__(self, inner: BaseLoader) -> None:
        self.inner = inner

    def get_source(
        self, environment: Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        if template != "page.html":
            raise TemplateNotFound(template)
        source, filename, uptodate = self.inner.get_source(environment, template)
        chosen = "<html lang=\"{{ lang | default('en') }}\">"
        return source.replace(HARD_CODED_LANG, chosen, 1), filename, uptodate

    def list_templates(self) -> list[str]:
        return ["page.html"]


def add_template_folders(settings: dict[str, Any]) -> None:
    """The tutor's and NativeAuthenticator's page templates, and page.html in the page's
    language (PageLanguageLoader), in both of JupyterHub's template environments
    (NativeAuthenticator adds its own to the asynchronous one only, and error pages are
    rendered with the other)."""
    for key in ("jinja2_env", "jinja2_env_sync"):
        env = settings.get(key)
        if env is not None and not getattr(env, "tutor_templates_added", False):
            folders = [str(TEMPLATES), str(WEB_TEMPLATES), NATIVE_TEMPLATES]
            env.loader = ChoiceLoader(
                [PageLanguageLoader(env.loader), env.loader, FileSystemLoader(folders)]
            )
            env.tutor_templates_added = True


def argument_or_empty(handler: Any, name: str) -> str:
    """Query or form field ``name``, or "" if it is missing or not UTF-8 (for pages that
    answer an error and must not fail on the field that caused it)."""
    try:
        value: str = handler.get_argument(name, default="")
    except web.HTTPError:
        return ""
    return value


class ClearErrors:
    """Mixed into the hub's form pages: an error no handler expected becomes the error
    page (PageLanguage's) with status 400, not a bare 500 (tornado still logs it with its
    traceback: it is a bug to fix). Expected refusals answer the form with a message
    instead."""

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        if status_code >= 500:
            self.set_status(400)  # type: ignore[attr-defined]
            kwargs.pop("exc_info", None)
            status_code = 400
        super().write_error(status_code, **kwargs)  # type: ignore[misc]


class PageLanguage:
    """Mixed into the hub's own pages (login, sign-up, changing a password, the teacher's
    failed logins): the page's language, chosen alike on every one of them, and given to
    every template the page renders (its error pages too): ``lang`` (page.html's
    ``<html lang>``, see PageLanguageLoader), ``languages`` (each language's link to this
    same page), ``form_action`` (this page, keeping its language), and the words the
    pages share (``hub_words``: [hub-page], ``login_words``: [login])."""

    async def prepare(self) -> None:
        await super().prepare()  # type: ignore[misc]
        # A language picked here (its links, the forms' addresses) is the learner's choice
        # on every page of the hub, their course's too (tutor.hub.page_language).
        remember_language(self, self.base_url)  # type: ignore[arg-type, attr-defined]

    def page_language(self) -> str:
        """The page's language: ``?lang=`` (the language links, kept in the forms'
        addresses and in the links between the login and sign-up pages), else the
        learner's last choice, else the browser's Accept-Language, else ``$TUTOR_LANG``
        (or English): the course pages' rule (tutor.hub.page_language)."""
        return request_language(self)  # type: ignore[arg-type]

    @property
    def template_namespace(self) -> dict[str, Any]:
        ns: dict[str, Any] = dict(super().template_namespace)  # type: ignore[misc]
        lang = self.page_language()
        path = self.request.path  # type: ignore[attr-defined]
        words = catalog(lang)
        ns.update(
            lang=lang,
            languages=language_links(path),
            form_action=url_concat(path, {LANGUAGE_PARAMETER: lang}),
            hub_words=words["hub-page"],
            login_words=words["login"],
        )
        return ns

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        """The error page in the page's language: the message a PageError carries, else
        a word on the status (tornado's and JupyterHub's reasons are English for a
        developer: the hub's log keeps them)."""
        if not hasattr(self, "_jupyterhub_user"):  # an error before prepare(), as the hub does
            self._jupyterhub_user = None
            self._resolve_roles_and_scopes()  # type: ignore[attr-defined]
        add_template_folders(self.settings)  # type: ignore[attr-defined]
        lang = self.page_language()
        error = kwargs.get("exc_info", (None, None, None))[1]
        if isinstance(error, PageError):
            message = error.message
        elif self.request.method == "POST":  # type: ignore[attr-defined]
            # A form refused before its handler (an expired XSRF token is a 403): try again.
            message = text("hub-page.error-400", lang)
        elif status_code in (400, 403, 404):
            message = text(f"hub-page.error-{status_code}", lang)
        else:
            message = text("hub-page.error-other", lang)
        self.set_header("Content-Type", "text/html; charset=UTF-8")  # type: ignore[attr-defined]
        html = self.render_template(  # type: ignore[attr-defined]
            "tutor-error.html",
            sync=True,
            heading=text("hub-page.error-title", lang, status=status_code),
            message=message,
        )
        self.finish(html)  # type: ignore[attr-defined]


class PageError(web.HTTPError):
    """A refusal by one of the hub's own pages, its ``message`` already in the page's
    language (PageLanguage.write_error shows it)."""

    def __init__(self, status_code: int, message: str) -> None:
        super().__init__(status_code, "%s", message)
        self.message = message
