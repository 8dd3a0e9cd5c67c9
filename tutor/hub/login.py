"""Logging in to the hub: each learner's own password, and limits on failed logins.

The identity is JupyterHub's NativeAuthenticator (maintained by the JupyterHub community;
pinned in the ``hub`` extra): a learner signs up with a name and a password of their own;
a name the teacher listed in advance is approved at once (the first sign-up sets its
password), any other waits for the teacher's approval on ``/hub/authorize``; the teacher
resets a forgotten password on ``/hub/change-password/<name>``. Passwords are stored as
tutor/hub/passwords.py says (Argon2id: any length up to 1024 bytes).

What this module adds, because NativeAuthenticator lacks it (1.3: ``allowed_failed_logins``
blocks a *known* name for a fixed time, in memory; unknown names not counted, nothing
logged, and its login page checks the password of an unapproved account even while that
name is blocked):

- :class:`LoginThrottle`: failed logins counted so that guessing stays slow while nobody
  with the right password is held up by other people's failures (see the class);
- a page for the teacher, ``/hub/login-waits``, listing who must wait and lifting a wait;
- :class:`TutorAuthenticator`: NativeAuthenticator with that throttle, a log line naming
  the failed name and address, passwords of any length, and the teacher's account created
  at the first start (so nobody can sign up under the teacher's name before the teacher);
- login, sign-up and change-password pages that answer every malformed form with a clear
  message and a 4xx status, never a bare 500;
- those pages, the teacher's and their error pages in the learner's language
  (:class:`PageLanguage`; ``<html lang>`` too, :class:`PageLanguageLoader`), and the same
  login page for the class password and Unix accounts (:class:`TranslatedLogin`).
"""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import BaseLoader, ChoiceLoader, Environment, FileSystemLoader, TemplateNotFound
from jupyterhub.auth import PAMAuthenticator
from jupyterhub.authenticators.shared import SharedPasswordAuthenticator
from jupyterhub.handlers import BaseHandler
from jupyterhub.handlers.login import LoginHandler as JupyterHubLoginHandler
from jupyterhub.handlers.pages import SpawnPendingHandler
from jupyterhub.scopes import needs_scope
from nativeauthenticator import NativeAuthenticator
from nativeauthenticator.handlers import TEMPLATE_DIR as NATIVE_TEMPLATES
from nativeauthenticator.handlers import ChangePasswordAdminHandler as NativeAdminPasswordHandler
from nativeauthenticator.handlers import ChangePasswordHandler as NativeChangePasswordHandler
from nativeauthenticator.handlers import LoginHandler as NativeLoginHandler
from nativeauthenticator.handlers import SignUpHandler as NativeSignUpHandler
from nativeauthenticator.orm import UserInfo
from tornado import web
from tornado.httputil import url_concat
from traitlets import Float, Integer, Unicode

from tutor.hub.page_language import remember_language, request_language
from tutor.hub.passwords import (
    MAX_PASSWORD_BYTES,
    hash_password,
    is_too_long,
    needs_rehash,
    password_bytes,
    password_matches,
)
from tutor.teaching.language import LANGUAGE_PARAMETER
from tutor.teaching.text import catalog, text
from tutor.web.templating import TEMPLATES as WEB_TEMPLATES
from tutor.web.templating import language_links

TEMPLATES = Path(__file__).resolve().parent / "templates"

# -- failed logins ----------------------------------------------------------------------------

ACCOUNT = "account"  # an existing account, tried from a browser that never logged in as it
DEVICE = "device"  # an existing account, tried from a browser that has logged in as it
ADDRESS = "address"  # names without an account, tried from one address


@dataclass
class _Failures:
    count: int
    last: float  # time.monotonic() of the last failure


@dataclass(frozen=True)
class Wait:
    """A count past its allowance, as the teacher's page lists it."""

    kind: str
    ident: str
    failures: int
    seconds: float

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.ident}"


class LoginThrottle:
    """Failed logins in a row, counted by what they put at risk, and how long the next
    try must wait.

    Three kinds of count (``kind``, ``ident``):

    - ``account``, the name: failures on an existing account from browsers that have
      never logged in as it. This is what keeps guessing slow, from any number of
      addresses: after ``name_allowed`` the next try waits.
    - ``device``, a browser that has logged in as that account before (a signed cookie
      the hub sets at each successful login, the "device cookie" of OWASP's
      authentication guidance) and the name: that browser keeps its own count, so a
      classmate's burst of guesses at ada's name, which makes ada's *account* wait, does
      not stop ada on her own computer. (Someone at ada's computer has that count, and
      waits after ``name_allowed`` failures there too.)
    - ``address``, for names that have no account (made-up names, a misspelt own name):
      allowed ``unknown_allowed`` failures per address, far more than a class's typos;
      past that, only tries at names without an account wait, so an address shared by
      a class (one NAT) never holds up an existing account.

    So a correct password is never refused because of failures at other names, and the
    teacher's own login is held up only by failures at the teacher's name from a browser
    the teacher never used. What it costs: an account's first login from a new browser
    can be made to wait by anyone who fails at its name ``name_allowed`` times (the price
    of limiting guessing without a CAPTCHA); the teacher lifts such a wait on
    ``/hub/login-waits``, and the wait ends by itself.

    After ``allowed`` failures the next try waits ``first_wait`` seconds after the last
    failure, and every further failure doubles the wait, up to ``max_wait``. Tries made
    while waiting are refused without a password check and are not counted (hammering
    cannot push the wait ever further). A count is forgotten ``forget_after`` seconds
    after its last failure; a success clears the count the try was made under.

    >>> clock = [0.0]
    >>> throttle = LoginThrottle(name_allowed=2, unknown_allowed=10, first_wait=5,
    ...                          clock=lambda: clock[0])
    >>> ada, ada_on_her_laptop = ("account", "ada"), ("device", "d1:ada")
    >>> for _ in range(2):
    ...     throttle.failed(ada)
    >>> throttle.wait(ada), throttle.wait(ada_on_her_laptop), throttle.wait(("account", "bo"))
    (5.0, 0.0, 0.0)
    >>> clock[0] = 5.0; throttle.failed(ada); throttle.wait(ada)
    10.0
    >>> throttle.lift("account:ada"), throttle.wait(ada)
    (True, 0.0)
    """

    def __init__(
        self,
        *,
        name_allowed: int = 5,
        unknown_allowed: int = 100,
        first_wait: float = 10.0,
        max_wait: float = 900.0,
        forget_after: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.allowed = {ACCOUNT: name_allowed, DEVICE: name_allowed, ADDRESS: unknown_allowed}
        self.first_wait = first_wait
        self.max_wait = max_wait
        self.forget_after = forget_after
        self.clock = clock
        self._failures: dict[tuple[str, str], _Failures] = {}

    def _fresh(self, key: tuple[str, str], now: float) -> _Failures | None:
        record = self._failures.get(key)
        if record is None or now - record.last > self.forget_after:
            return None
        return record

    def _wait_for(self, key: tuple[str, str], now: float) -> float:
        record = self._fresh(key, now)
        if record is None:
            return 0.0
        excess = record.count - self.allowed[key[0]]
        if excess < 0:
            return 0.0
        wait: float = min(self.max_wait, self.first_wait * 2.0**excess)
        return max(0.0, wait - (now - record.last))

    def wait(self, key: tuple[str, str]) -> float:
        """Seconds the next try counted under ``key`` must wait (0: may try now)."""
        return self._wait_for(key, self.clock())

    def failures(self, key: tuple[str, str]) -> int:
        """The failures in a row counted under ``key``."""
        record = self._fresh(key, self.clock())
        return 0 if record is None else record.count

    def failed(self, key: tuple[str, str]) -> None:
        """Count a failed login under ``key``."""
        now = self.clock()
        self._forget_old(now)
        record = self._fresh(key, now)
        if record is None:
            self._failures[key] = _Failures(1, now)
        else:
            record.count += 1
            record.last = now

    def succeeded(self, key: tuple[str, str]) -> None:
        """A login counted under ``key`` passed: its count starts again."""
        self._failures.pop(key, None)

    def waits(self) -> list[Wait]:
        """Every count at or past its allowance (a further failure would wait), most
        failures first."""
        now = self.clock()
        found = [
            Wait(kind, ident, record.count, self._wait_for((kind, ident), now))
            for (kind, ident), record in self._failures.items()
            if now - record.last <= self.forget_after and record.count >= self.allowed[kind]
        ]
        return sorted(found, key=lambda w: (-w.failures, w.kind, w.ident))

    def lift(self, key: str) -> bool:
        """Forget the count ``"<kind>:<ident>"`` (the teacher's button); whether there was one."""
        kind, _, ident = key.partition(":")
        return self._failures.pop((kind, ident), None) is not None

    def _forget_old(self, now: float) -> None:
        # Keeps the memory bounded when many names are tried.
        if len(self._failures) > 10_000:
            old = [k for k, r in self._failures.items() if now - r.last > self.forget_after]
            for key in old:
                del self._failures[key]


def client_address(handler: Any) -> str:
    """The address a login came from, as JupyterHub's proxy saw it.

    The proxy (configurable-http-proxy) appends the client's address to X-Forwarded-For,
    so its last entry is the one a client cannot choose. (Tornado's ``remote_ip`` would
    believe a client's own X-Real-Ip header.)
    """
    forwarded = handler.request.headers.get("X-Forwarded-For", "")
    last = forwarded.split(",")[-1].strip()
    return last or str(handler.request.remote_ip or "?")


DEVICE_COOKIE_DAYS = 180
# A device cookie per account (a classroom computer may be used by several learners),
# named after the account: only for names that are valid in a cookie name.
_COOKIE_SAFE_NAME = re.compile(r"[a-z0-9_-]{1,64}")


def device_cookie_name(name: str) -> str | None:
    """The device cookie's name for account ``name`` (None: no cookie for such a name).

    >>> device_cookie_name("ada"), device_cookie_name("a b")
    ('tutor-device-ada', None)
    """
    return f"tutor-device-{name}" if _COOKIE_SAFE_NAME.fullmatch(name) else None


def _form_text(handler: Any, name: str) -> str:
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


def _query(next_url: str, lang: str) -> dict[str, str]:
    """The login page's query: where to go after it (if anywhere) and its language."""
    query = {"next": next_url} if next_url else {}
    query[LANGUAGE_PARAMETER] = lang
    return query


def _argument_or_empty(handler: Any, name: str) -> str:
    """Query or form field ``name``, or "" if it is missing or not UTF-8 (for pages that
    answer an error and must not fail on the field that caused it)."""
    try:
        value: str = handler.get_argument(name, default="")
    except web.HTTPError:
        return ""
    return value


class _ClearErrors:
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


class HubLoginHandler(PageLanguage, JupyterHubLoginHandler):  # type: ignore[misc]
    """The hub's login page in the learner's language (tutor-login.html) in place of
    JupyterHub's login.html, for the authenticators whose login form is JupyterHub's own
    (the class password, Unix accounts: see TranslatedLogin): a form without a name or a
    password is 400, a failed login 403, each saying so in the page's language."""

    def _render(
        self, login_error: str | None = None, username: str | None = None, **ns: Any
    ) -> Any:
        # JupyterHub's error page on this handler calls _render with its whole namespace
        # (sync=True among it); NativeAuthenticator's _render took two arguments only.
        add_template_folders(self.settings)  # the first page the hub serves may be this one
        next_url = _argument_or_empty(self, "next")
        lang = self.page_language()
        login_url = self.settings["login_url"]
        languages = language_links(login_url, {"next": next_url} if next_url else {})
        return self.render_template(
            "tutor-login.html",
            sync=bool(ns.get("sync", False)),
            lang=lang,
            words=catalog(lang)["login"],
            languages=languages,
            form_action=url_concat(login_url, _query(next_url, lang)),
            username=username,
            login_error=login_error,
            custom_html=getattr(self.authenticator, "custom_html", ""),
            enable_signup=getattr(self.authenticator, "enable_signup", False),
            two_factor_auth=getattr(self.authenticator, "allow_2fa", False),
        )

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        """The login form again, with what went wrong (JupyterHub's own error page for
        the login form reads the form's fields again, and failed on the very field that
        caused the error: "Invalid unicode in username" became an empty page)."""
        if status_code >= 500:
            self.set_status(400)
        if not hasattr(self, "_jupyterhub_user"):  # an error before prepare(), as the hub does
            self._jupyterhub_user = None
            self._resolve_roles_and_scopes()
        # tornado's own reasons ("Invalid unicode in username") are English words for a
        # developer: the learner is told in their language that the form failed.
        message = text("login.not-processed", self.page_language())
        add_template_folders(self.settings)
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.finish(self._render(login_error=message, username="", sync=True))

    async def _answer(self, status: int, error: str, username: str) -> None:
        self.set_status(status)
        shown = username if len(username) <= 64 else username[:64] + "…"
        self.finish(await self._render(login_error=error, username=shown))

    async def post(self) -> None:
        name = self.authenticator.normalize_username(_form_text(self, "username").strip())
        password = _form_text(self, "password")
        lang = self.page_language()
        if not name or not password:
            await self._answer(400, text("login.missing", lang), name)
            return
        user = await self.login_user({"username": name, "password": password})
        if user:
            self._jupyterhub_user = user
            self.redirect(self.get_next_url(user))
            return
        await self._answer(403, text("login.invalid", lang), name)


class TutorSpawnPendingHandler(PageLanguage, SpawnPendingHandler):  # type: ignore[misc]
    """JupyterHub's "your server is starting" page in the learner's language
    (tutor-spawn-pending.html in place of spawn_pending.html, words of [spawn]).

    Translated rather than avoided: JupyterHub sends it whenever a server takes longer
    than slow_spawn_timeout (10 s) to start. One server costs about 2.5 CPU-seconds to
    start (deploy/README.md, "CPU"), so a class of 30 logging in at once on 2 cores
    waits up to about 40 s: this is the page a whole class sees at the start of a lesson,
    and a longer timeout would only show them a blank loading tab instead. (JupyterHub's
    other pages, e.g. a server that failed to start, stay its own.)"""

    @property
    def template_namespace(self) -> dict[str, Any]:
        ns = super().template_namespace
        ns["spawn_words"] = catalog(ns["lang"])["spawn"]
        return ns

    def render_template(self, name: str, sync: bool = False, **ns: Any) -> Any:
        add_template_folders(self.settings)
        if name == "spawn_pending.html":
            name = "tutor-spawn-pending.html"
        return super().render_template(name, sync=sync, **ns)


SPAWN_PENDING_ROUTES: list[tuple[str, Any]] = [
    (r"/spawn-pending/([^/]+)", TutorSpawnPendingHandler),
    (r"/spawn-pending/([^/]+)/([^/]+)", TutorSpawnPendingHandler),
]
"""Routes an authenticator gives the hub before JupyterHub's own (which they replace)."""


class TranslatedLogin:
    """Mixed into an authenticator whose login form is JupyterHub's own: the tutor's
    login page, in the learner's language, takes its place (HubLoginHandler); so does
    the page while a server starts."""

    def get_handlers(self, app: Any) -> list[tuple[str, Any]]:
        theirs = [h for h in super().get_handlers(app) if h[0] != r"/login"]  # type: ignore[misc]
        return [(r"/login", HubLoginHandler), *SPAWN_PENDING_ROUTES, *theirs]


class TutorSharedPasswordAuthenticator(TranslatedLogin, SharedPasswordAuthenticator):  # type: ignore[misc]
    """JupyterHub's class-password login (``SharedPasswordAuthenticator``: its settings
    apply) on the tutor's login page, in the learner's language."""


class TutorPAMAuthenticator(TranslatedLogin, PAMAuthenticator):  # type: ignore[misc]
    """JupyterHub's login with Unix accounts (``PAMAuthenticator``, ``LocalAuthenticator``:
    their settings apply) on the tutor's login page, in the learner's language."""


class TutorLoginHandler(HubLoginHandler, NativeLoginHandler):  # type: ignore[misc]
    """The login page: a try that must wait is refused before anything else (429, saying
    how long); a failed login is 403 and names nothing but "invalid"; a form without a
    name or password, too long a password, or bytes that are not UTF-8 get 400 and say
    what is wrong. A successful login leaves a device cookie (see LoginThrottle)."""

    async def post(self) -> None:
        authenticator: TutorAuthenticator = self.authenticator
        name = authenticator.normalize_username(_form_text(self, "username").strip())
        password = _form_text(self, "password")
        lang = self.page_language()
        if not name or not password:
            await self._answer(400, text("login.missing", lang), name)
            return
        if is_too_long(password):
            await self._answer(400, text("login.too-long", lang, limit=MAX_PASSWORD_BYTES), name)
            return
        key = authenticator.throttle_key(self, name)
        wait = authenticator.throttle.wait(key)
        if wait > 0:
            authenticator.log_refused(name, client_address(self), key, wait)
            seconds = int(wait + 0.999)
            await self._answer(429, text("login.wait", lang, seconds=seconds), name)
            return
        data = {"username": name, "password": password, "2fa": _form_text(self, "2fa")}
        user = await self.login_user(data)
        if user:
            self._jupyterhub_user = user
            authenticator.remember_device(self, user.name)
            self.redirect(self.get_next_url(user))
            return
        error = text("login.invalid", lang)
        info = authenticator.get_user(name)
        # NativeAuthenticator's hint for an approved password whose account is not yet:
        # given only after a full check, which the throttle has allowed.
        if (
            info is not None
            and not info.is_authorized
            and await asyncio.to_thread(password_matches, password, info.password)
        ):
            error = text("login.not-authorized", lang, name=name)
        await self._answer(403, error, name)


class TutorSignUpHandler(_ClearErrors, PageLanguage, NativeSignUpHandler):  # type: ignore[misc]
    """NativeAuthenticator's sign-up, on the tutor's page in the learner's language
    (tutor-signup.html, in place of its signup.html; the same form), with every message it
    can give in the catalogs ([signup]). It tells a learner whose name the teacher listed
    that they may log in now (NativeAuthenticator says "sent to the admin" to anyone but an
    admin, though a listed name is approved at once), says so when a password is too long,
    keeps the name typed after a refusal, and answers every refusal (a form without a name
    or password too) with 400 and its message."""

    _too_long = False

    def render_template(self, name: str, sync: bool = False, **ns: Any) -> Any:
        # NativeAuthenticator's get() and post() render its own page: the tutor's instead.
        if name == "signup.html":
            add_template_folders(self.settings)
            name = "tutor-signup.html"
            ns.setdefault("words", catalog(self.page_language())["signup"])
            if self.request.method == "POST":
                ns.setdefault("username", _argument_or_empty(self, "username")[:64])
        return super().render_template(name, sync=sync, **ns)

    async def post(self) -> None:
        if not self.authenticator.enable_signup:
            raise web.HTTPError(404)
        password = _form_text(self, "signup_password")
        if not _form_text(self, "username").strip() or not password:
            self.set_status(400)
            html = await self.render_template(
                "signup.html",
                ask_email=self.authenticator.ask_email_on_signup,
                result_message=text("signup.missing", self.page_language()),
                alert="alert-danger",
                two_factor_auth=self.authenticator.allow_2fa,
                recaptcha_key=self.authenticator.recaptcha_key,
                tos=self.authenticator.tos,
            )
            self.finish(html)
            return
        self._too_long = is_too_long(password) or password_bytes(password) is None
        await super().post()

    def get_result_message(
        self,
        user: Any,
        assume_user_is_human: bool,
        username_already_taken: bool,
        confirmation_matches: bool,
        user_is_admin: bool,
    ) -> tuple[str, str]:
        """NativeAuthenticator's answers (the same cases, in its order), in the page's
        language."""
        lang = self.page_language()
        minimum = self.authenticator.minimum_password_length
        if not assume_user_is_human:
            alert, message = "alert-danger", text("signup.captcha", lang)
        elif username_already_taken:
            alert, message = "alert-danger", text("signup.taken", lang)
        elif not confirmation_matches:
            alert, message = "alert-danger", text("signup.mismatch", lang)
        elif user is None and self._too_long:
            alert = "alert-danger"
            message = text("login.too-long", lang, limit=MAX_PASSWORD_BYTES)
        elif user is None:
            alert = "alert-danger"
            if minimum > 0:
                message = text("signup.refused", lang, minimum=minimum)
            else:
                message = text("signup.refused-any-length", lang)
        elif user.is_authorized or self.authenticator.open_signup or user_is_admin:
            alert, message = "alert-success", text("signup.done", lang)
        elif user.login_email_sent:
            alert, message = "alert-info", text("signup.email-sent", lang)
        else:
            alert, message = "alert-info", text("signup.sent", lang)
        if alert == "alert-danger":
            self.set_status(400)  # NativeAuthenticator answers its refusals with 200
        return alert, message


def _password_problem(authenticator: Any, password: str, lang: str) -> str | None:
    """Why ``password`` cannot be a new password, in ``lang`` (None: it can)."""
    if is_too_long(password) or password_bytes(password) is None:
        return text("login.too-long", lang, limit=MAX_PASSWORD_BYTES)
    if not authenticator.is_password_strong(password):
        minimum = authenticator.minimum_password_length
        if minimum > 0:
            return text("password.weak", lang, minimum=minimum)
        return text("password.weak-any-length", lang)
    return None


class _PasswordPage(PageLanguage):
    """The tutor's change-password page (tutor-change-password.html, in the page's
    language) in place of NativeAuthenticator's two."""

    def render_template(self, name: str, sync: bool = False, **ns: Any) -> Any:
        if name in ("change-password.html", "change-password-admin.html"):
            add_template_folders(self.settings)  # type: ignore[attr-defined]
            lang = self.page_language()
            admin = name == "change-password-admin.html"
            user_name = ns["user_name"]
            name = "tutor-change-password.html"
            ns.update(
                words=catalog(lang)["password"],
                admin=admin,
                heading=text("password.title", lang, name=user_name),
                intro=text("password.intro-admin", lang, name=user_name)
                if admin
                else text("password.intro", lang),
            )
        return super().render_template(name, sync=sync, **ns)  # type: ignore[misc]


class TutorChangePasswordHandler(_ClearErrors, _PasswordPage, NativeChangePasswordHandler):  # type: ignore[misc]
    """A learner changes their own password (the current one checked with the tutor's
    scheme, which NativeAuthenticator's page could not read), in their language. Wrong
    current passwords count as failed logins of this browser (someone at a computer left
    logged in cannot guess faster here than at the login page)."""

    @web.authenticated
    async def post(self) -> None:
        user = await self.get_current_user()
        authenticator: TutorAuthenticator = self.authenticator
        lang = self.page_language()
        old = _form_text(self, "old_password")
        new = _form_text(self, "new_password")
        info = authenticator.get_user(user.name)
        key = authenticator.throttle_key(self, user.name)
        wait = authenticator.throttle.wait(key)
        status, alert = 400, "alert-danger"
        if info is None:
            message = text("password.not-kept", lang)
        elif wait > 0:
            authenticator.log_refused(user.name, client_address(self), key, wait)
            status = 429
            message = text("password.wait", lang, seconds=int(wait + 0.999))
        elif not await asyncio.to_thread(password_matches, old, info.password):
            authenticator.throttle.failed(key)
            status, message = 403, text("password.incorrect", lang)
        else:
            authenticator.throttle.succeeded(key)
            if new != _form_text(self, "new_password_confirmation"):
                message = text("password.mismatch", lang)
            elif (problem := _password_problem(authenticator, new, lang)) is None:
                authenticator.change_password(user.name, new)
                status, alert = 200, "alert-success"
                message = text("password.changed", lang)
            else:
                message = problem
        self.set_status(status)
        html = await self.render_template(
            "change-password.html", user_name=user.name, result_message=message, alert=alert
        )
        self.finish(html)


class TutorAdminPasswordHandler(_ClearErrors, _PasswordPage, NativeAdminPasswordHandler):  # type: ignore[misc]
    """The teacher sets a learner's password (a clear message for one too long)."""

    def _no_account(self, user_name: str) -> PageError:
        return PageError(404, text("password.no-account", self.page_language(), name=user_name))

    @needs_scope("admin:users")  # type: ignore[untyped-decorator]
    async def get(self, user_name: str) -> None:
        if not self.authenticator.user_exists(user_name):
            raise self._no_account(user_name)
        html = await self.render_template("change-password-admin.html", user_name=user_name)
        self.finish(html)

    @needs_scope("admin:users")  # type: ignore[untyped-decorator]
    async def post(self, user_name: str) -> None:
        lang = self.page_language()
        new = _form_text(self, "new_password")
        status, alert = 400, "alert-danger"
        if not self.authenticator.user_exists(user_name):
            raise self._no_account(user_name)
        if new != _form_text(self, "new_password_confirmation"):
            message = text("password.mismatch-admin", lang)
        else:
            problem = _password_problem(self.authenticator, new, lang)
            if problem is None and self.authenticator.change_password(user_name, new):
                status, alert = 200, "alert-success"
                message = text("password.changed-admin", lang, name=user_name)
            else:
                message = problem or text("login.not-processed", lang)
        self.set_status(status)
        html = await self.render_template(
            "change-password-admin.html", user_name=user_name, result_message=message, alert=alert
        )
        self.finish(html)


def describe_wait(wait: Wait, lang: str) -> str:
    """Who waits, in the teacher's words.

    >>> describe_wait(Wait("address", "10.0.0.7", 100, 20.0), "en")
    'names without an account, from address 10.0.0.7'
    """
    if wait.kind == ACCOUNT:
        return text("login-waits.account", lang, name=wait.ident)
    if wait.kind == DEVICE:
        device, _, name = wait.ident.rpartition(":")
        return text("login-waits.device", lang, name=name, device=device)
    return text("login-waits.address", lang, address=wait.ident)


class LoginWaitsHandler(_ClearErrors, PageLanguage, BaseHandler):  # type: ignore[misc]
    """``/hub/login-waits``, the teachers' page: who must wait after failed logins, and
    a button to let each try again now."""

    async def _page(self, message: str = "") -> None:
        add_template_folders(self.settings)
        lang = self.page_language()
        waits = self.authenticator.throttle.waits()
        html = await self.render_template(
            "login-waits.html",
            words=catalog(lang)["login-waits"],
            intro=text("login-waits.intro", lang, allowed=self.authenticator.name_failures_allowed),
            waits=[(w, describe_wait(w, lang)) for w in waits],
            message=message,
        )
        self.finish(html)

    @needs_scope("admin:users")  # type: ignore[untyped-decorator]
    async def get(self) -> None:
        await self._page()

    @needs_scope("admin:users")  # type: ignore[untyped-decorator]
    async def post(self) -> None:
        lang = self.page_language()
        key = _form_text(self, "key")
        if not self.authenticator.throttle.lift(key):
            self.set_status(404)
            await self._page(text("login-waits.not-waiting", lang, key=repr(key[:80])))
            return
        self.log.info("Login wait %r lifted by %s", key, self.current_user.name)
        await self._page(text("login-waits.lifted", lang))


class TutorAuthenticator(NativeAuthenticator):  # type: ignore[misc]
    """NativeAuthenticator with failed-login limits (see LoginThrottle; each failure
    logged), passwords of any length up to 1024 bytes, and the teacher's account created
    at start."""

    name_failures_allowed = Integer(
        5,
        config=True,
        help="Failed logins in a row at one account (from browsers that never logged in "
        "as it) before its tries must wait; a browser that has logged in as it counts its own.",
    )
    unknown_name_failures_allowed = Integer(
        100,
        config=True,
        help="Failed logins in a row at names without an account, from one address, before "
        "such tries from it must wait (far above a class's typos: a class may share one "
        "address). Never holds up an existing account.",
    )
    first_wait_seconds = Float(
        10.0, config=True, help="The first wait; every further failure doubles it."
    )
    max_wait_seconds = Float(900.0, config=True, help="The longest wait.")
    teacher_password_file = Unicode(
        "",
        config=True,
        help="A file holding the first password of the admin_users (the teachers); each "
        "teacher's account is created with it if it does not exist yet.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.throttle = LoginThrottle(
            name_allowed=self.name_failures_allowed,
            unknown_allowed=self.unknown_name_failures_allowed,
            first_wait=self.first_wait_seconds,
            max_wait=self.max_wait_seconds,
        )
        self._create_teacher_accounts()

    def _create_teacher_accounts(self) -> None:
        if not self.teacher_password_file or not self.admin_users:
            return
        password = Path(self.teacher_password_file).read_text().strip()
        for name in sorted(self.admin_users):
            if self.get_user(name) is None:
                self.db.add(
                    UserInfo(username=name, password=hash_password(password), is_authorized=True)
                )
                self.log.info("Created the teacher account %r", name)
        self.db.commit()

    # -- passwords: the tutor's scheme (tutor/hub/passwords.py) ------------------------------

    def is_password_strong(self, password: str) -> bool:
        if is_too_long(password) or password_bytes(password) is None:
            return False
        return bool(super().is_password_strong(password))

    def create_user(self, username: str, password: str, **kwargs: Any) -> Any:
        """NativeAuthenticator's sign-up, storing the password in the tutor's scheme (its
        own bcrypt call fails on passwords over 72 bytes)."""
        if not self.is_password_strong(password):
            return None
        # NativeAuthenticator checks the name and the rules, then hashes with bcrypt: it
        # is given a random placeholder (strong, 22 characters), whose hash the real one
        # replaces before anyone can log in (the same event-loop turn).
        info = super().create_user(username, secrets.token_urlsafe(16), **kwargs)
        if info is not None:
            info.password = hash_password(password)
            self.db.commit()
        return info

    def change_password(self, username: str, new_password: str) -> bool | None:
        info = self.get_user(username)
        if info is None or not self.is_password_strong(new_password):
            return None
        info.password = hash_password(new_password)
        self.db.commit()
        return True

    # -- failed logins --------------------------------------------------------------------------

    def throttle_key(self, handler: Any, name: str) -> tuple[str, str]:
        """What a try at ``name`` from ``handler``'s browser is counted under."""
        if self.get_user(name) is None:
            return (ADDRESS, client_address(handler))
        cookie = device_cookie_name(name)
        device = cookie and handler.get_signed_cookie(cookie, max_age_days=DEVICE_COOKIE_DAYS)
        if device:
            return (DEVICE, f"{device.decode(errors='replace')}:{name}")
        return (ACCOUNT, name)

    def remember_device(self, handler: Any, name: str) -> None:
        """After a successful login: this browser may try ``name`` again on its own count."""
        cookie = device_cookie_name(name)
        if cookie is None or handler.get_signed_cookie(cookie, max_age_days=DEVICE_COOKIE_DAYS):
            return
        handler.set_signed_cookie(
            cookie,
            secrets.token_hex(8),
            expires_days=DEVICE_COOKIE_DAYS,
            path=handler.hub.base_url,  # the login and change-password pages read it
            httponly=True,
            secure=handler.request.protocol == "https",
            samesite="Strict",
        )

    def log_refused(self, name: str, address: str, key: tuple[str, str], wait: float) -> None:
        self.log.warning(
            "Login refused without checking: name %r from address %s must wait %.0f s "
            "(%d failed logins in a row counted under %s %r)",
            name[:64],
            address,
            wait,
            self.throttle.failures(key),
            key[0],
            key[1][:64],
        )

    async def authenticate(self, handler: Any, data: dict[str, str]) -> str | None:
        name = self.normalize_username(data.get("username", ""))
        key = self.throttle_key(handler, name)
        wait = self.throttle.wait(key)
        if wait > 0:  # (the login page checks first; other callers come here)
            self.log_refused(name, client_address(handler), key, wait)
            return None
        result = await self._check_password(name, data.get("password", ""), data)
        if result:
            self.throttle.succeeded(key)
            return result
        self.throttle.failed(key)
        self.log.warning(
            "Failed login: name %r from address %s (%d in a row counted under %s %r)",
            name[:64],
            client_address(handler),
            self.throttle.failures(key),
            key[0],
            key[1][:64],
        )
        return None

    async def _check_password(self, name: str, password: str, data: dict[str, str]) -> str | None:
        """NativeAuthenticator's check (an approved account, the right password, the
        one-time code if the account has one), with the hash in a thread: Argon2id takes
        about 0.15 s of CPU (older bcrypt hashes 0.2-0.3 s;
        benchmarks/class_results_benchmark.py), and in the hub's event loop
        forty pupils logging in at once would hold up every other request for 12 s."""
        user = self.get_user(name)
        if user is None:
            return None
        stored = bytes(user.password)
        valid = await asyncio.to_thread(password_matches, password, stored)
        if not (valid and user.is_authorized):
            return None
        if user.has_2fa and not user.is_valid_token(data.get("2fa")):
            return None
        if needs_rehash(stored):  # an older scheme: stored anew in Argon2id
            user.password = hash_password(password)
            self.db.commit()
        return name

    def get_handlers(self, app: Any) -> list[tuple[str, Any]]:
        ours = {
            r"/login": TutorLoginHandler,
            r"/signup": TutorSignUpHandler,
            r"/change-password": TutorChangePasswordHandler,
            r"/change-password/([^/]+)": TutorAdminPasswordHandler,
        }
        handlers: list[tuple[str, Any]] = [
            (pattern, ours.get(pattern, handler)) for pattern, handler in super().get_handlers(app)
        ]
        handlers.append((r"/login-waits", LoginWaitsHandler))
        return [*SPAWN_PENDING_ROUTES, *handlers]
