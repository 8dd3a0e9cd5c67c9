"""The hub's login, sign-up and change-password pages, on the tutor's templates in the
learner's language, answering every malformed form with a clear message and a 4xx status:
the login page of JupyterHub's own authenticators (:class:`HubLoginHandler`) and of the
tutor's (:class:`TutorLoginHandler`, which asks the failed-login limits first:
:mod:`tutor.hub.login_throttle`), the sign-up page (:class:`TutorSignUpHandler`) and the
pages where a learner, or the teacher, sets a password (:class:`TutorChangePasswordHandler`,
:class:`TutorAdminPasswordHandler`).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from jupyterhub.handlers.login import LoginHandler as JupyterHubLoginHandler
from jupyterhub.handlers.pages import SpawnPendingHandler
from jupyterhub.scopes import needs_scope
from nativeauthenticator.handlers import ChangePasswordAdminHandler as NativeAdminPasswordHandler
from nativeauthenticator.handlers import ChangePasswordHandler as NativeChangePasswordHandler
from nativeauthenticator.handlers import LoginHandler as NativeLoginHandler
from nativeauthenticator.handlers import SignUpHandler as NativeSignUpHandler
from tornado import web
from tornado.httputil import url_concat

from tutor.hub.hub_pages import (
    ClearErrors,
    PageError,
    PageLanguage,
    add_template_folders,
    argument_or_empty,
    form_text,
)
from tutor.hub.login_throttle import client_address
from tutor.hub.passwords import (
    MAX_PASSWORD_BYTES,
    is_too_long,
    password_bytes,
    password_matches,
)
from tutor.teaching.language import LANGUAGE_PARAMETER
from tutor.teaching.text import catalog, text
from tutor.web.templating import language_links

if TYPE_CHECKING:
    from tutor.hub.login import TutorAuthenticator


def _query(next_url: str, lang: str) -> dict[str, str]:
    """The login page's query: where to go after it (if anywhere) and its language."""
    query = {"next": next_url} if next_url else {}
    query[LANGUAGE_PARAMETER] = lang
    return query


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
        next_url = argument_or_empty(self, "next")
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
        name = self.authenticator.normalize_username(form_text(self, "username").strip())
        password = form_text(self, "password")
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


class TutorLoginHandler(HubLoginHandler, NativeLoginHandler):  # type: ignore[misc]
    """The login page: a try that must wait is refused before anything else (429, saying
    how long); a failed login is 403 and names nothing but "invalid"; a form without a
    name or password, too long a password, or bytes that are not UTF-8 get 400 and say
    what is wrong. A successful login leaves a device cookie (see LoginThrottle)."""

    async def post(self) -> None:
        authenticator: TutorAuthenticator = self.authenticator
        name = authenticator.normalize_username(form_text(self, "username").strip())
        password = form_text(self, "password")
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
        data = {"username": name, "password": password, "2fa": form_text(self, "2fa")}
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


class TutorSignUpHandler(ClearErrors, PageLanguage, NativeSignUpHandler):  # type: ignore[misc]
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
                ns.setdefault("username", argument_or_empty(self, "username")[:64])
        return super().render_template(name, sync=sync, **ns)

    async def post(self) -> None:
        if not self.authenticator.enable_signup:
            raise web.HTTPError(404)
        password = form_text(self, "signup_password")
        if not form_text(self, "username").strip() or not password:
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


class TutorChangePasswordHandler(ClearErrors, _PasswordPage, NativeChangePasswordHandler):  # type: ignore[misc]
    """A learner changes their own password (the current one checked with the tutor's
    scheme, which NativeAuthenticator's page could not read), in their language. Wrong
    current passwords count as failed logins of this browser (someone at a computer left
    logged in cannot guess faster here than at the login page)."""

    @web.authenticated
    async def post(self) -> None:
        user = await self.get_current_user()
        authenticator: TutorAuthenticator = self.authenticator
        lang = self.page_language()
        old = form_text(self, "old_password")
        new = form_text(self, "new_password")
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
            if new != form_text(self, "new_password_confirmation"):
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


class TutorAdminPasswordHandler(ClearErrors, _PasswordPage, NativeAdminPasswordHandler):  # type: ignore[misc]
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
        new = form_text(self, "new_password")
        status, alert = 400, "alert-danger"
        if not self.authenticator.user_exists(user_name):
            raise self._no_account(user_name)
        if new != form_text(self, "new_password_confirmation"):
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
