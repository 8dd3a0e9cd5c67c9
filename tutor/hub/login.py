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

- failed logins counted so that guessing stays slow while nobody with the right password
  is held up by other people's failures (:mod:`tutor.hub.login_throttle`);
- a page for the teacher, ``/hub/login-waits``, listing who must wait and lifting a wait
  (:mod:`tutor.hub.login_waits`);
- :class:`TutorAuthenticator`: NativeAuthenticator with that throttle, a log line naming
  the failed name and address, passwords of any length, and the teacher's account created
  at the first start (so nobody can sign up under the teacher's name before the teacher);
- login, sign-up and change-password pages that answer every malformed form with a clear
  message and a 4xx status, never a bare 500 (:mod:`tutor.hub.login_pages`);
- those pages, the teacher's and their error pages in the learner's language
  (:mod:`tutor.hub.hub_pages`; ``<html lang>`` too), and the same login page for the
  class password and Unix accounts (:class:`TranslatedLogin`).

The authenticators the hub's configuration names (``tutor.hub.login.TutorAuthenticator``,
``TutorSharedPasswordAuthenticator``, ``TutorPAMAuthenticator``) are here; the rest is in
the modules above.
"""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path
from typing import Any

from jupyterhub.auth import PAMAuthenticator
from jupyterhub.authenticators.shared import SharedPasswordAuthenticator
from nativeauthenticator import NativeAuthenticator
from nativeauthenticator.orm import UserInfo
from traitlets import Float, Integer, Unicode

from tutor.hub.login_pages import (
    SPAWN_PENDING_ROUTES,
    HubLoginHandler,
    TutorAdminPasswordHandler,
    TutorChangePasswordHandler,
    TutorLoginHandler,
    TutorSignUpHandler,
)
from tutor.hub.login_throttle import (
    ACCOUNT,
    ADDRESS,
    DEVICE,
    DEVICE_COOKIE_DAYS,
    LoginThrottle,
    client_address,
    device_cookie_name,
)
from tutor.hub.login_waits import LoginWaitsHandler
from tutor.hub.passwords import (
    hash_password,
    is_too_long,
    needs_rehash,
    password_bytes,
    password_matches,
)


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
        forty learners logging in at once would hold up every other request for 12 s."""
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
