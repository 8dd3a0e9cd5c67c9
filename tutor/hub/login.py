"""Logging in to the hub: each learner's own password, and limits on failed logins.

The identity is JupyterHub's NativeAuthenticator (maintained by the JupyterHub community;
pinned in the ``hub`` extra): a learner signs up with a name and a password of their own;
a name the teacher listed in advance is approved at once (the first sign-up sets its
password), any other waits for the teacher's approval on ``/hub/authorize``; the teacher
resets a forgotten password on ``/hub/change-password/<name>``. Passwords are stored as
bcrypt hashes in the hub's database.

What this module adds, because NativeAuthenticator lacks it (1.3: ``allowed_failed_logins``
blocks a *known* name for a fixed time, in memory; no limit per address, unknown names not
counted, nothing logged, and its login page checks the password of an unapproved account
even while that name is blocked):

- :class:`LoginThrottle`: failed logins counted per name and per address; past a number
  of failures in a row each further try must wait, and the wait doubles with every
  failure (capped); a successful login clears its name's count;
- :class:`TutorAuthenticator`: NativeAuthenticator with that throttle, a log line naming
  the failed name and address, and the teacher's account created at the first start
  (so nobody can sign up under the teacher's name before the teacher does).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import bcrypt
from nativeauthenticator import NativeAuthenticator
from nativeauthenticator.handlers import LoginHandler as NativeLoginHandler
from nativeauthenticator.handlers import SignUpHandler as NativeSignUpHandler
from nativeauthenticator.orm import UserInfo
from traitlets import Float, Integer, Unicode


@dataclass
class _Failures:
    count: int
    last: float  # time.monotonic() of the last failure


class LoginThrottle:
    """Failed logins per name and per address, and how long the next try must wait.

    After ``allowed`` failures in a row the next try waits ``first_wait`` seconds after
    the last failure, and every further failure doubles the wait, up to ``max_wait``.
    Tries made while waiting are refused without a password check and are not counted
    (an attacker hammering a name cannot push its owner's wait ever further). A count is
    forgotten ``forget_after`` seconds after its last failure.

    >>> clock = [0.0]
    >>> throttle = LoginThrottle(name_allowed=2, address_allowed=10, first_wait=5,
    ...                          clock=lambda: clock[0])
    >>> for _ in range(2):
    ...     throttle.failed("ada", "10.0.0.9")
    >>> throttle.wait("ada", "10.0.0.9"), throttle.wait("bo", "10.0.0.9")
    (5.0, 0.0)
    >>> clock[0] = 5.0; throttle.failed("ada", "10.0.0.9"); throttle.wait("ada", "10.0.0.7")
    10.0
    >>> throttle.succeeded("ada"); throttle.wait("ada", "10.0.0.7")
    0.0
    """

    def __init__(
        self,
        *,
        name_allowed: int = 5,
        address_allowed: int = 20,
        first_wait: float = 10.0,
        max_wait: float = 900.0,
        forget_after: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.allowed = {"name": name_allowed, "address": address_allowed}
        self.first_wait = first_wait
        self.max_wait = max_wait
        self.forget_after = forget_after
        self.clock = clock
        self._failures: dict[tuple[str, str], _Failures] = {}

    def _wait_for(self, key: tuple[str, str], now: float) -> float:
        record = self._failures.get(key)
        if record is None or now - record.last > self.forget_after:
            return 0.0
        excess = record.count - self.allowed[key[0]]
        if excess < 0:
            return 0.0
        wait: float = min(self.max_wait, self.first_wait * 2.0**excess)
        return max(0.0, wait - (now - record.last))

    def wait(self, name: str, address: str) -> float:
        """Seconds the next try of ``name`` from ``address`` must wait (0: may try now)."""
        now = self.clock()
        return max(self._wait_for(("name", name), now), self._wait_for(("address", address), now))

    def failures(self, name: str, address: str) -> tuple[int, int]:
        """The failures in a row counted for ``name`` and for ``address``."""
        now = self.clock()
        counts = []
        for key in (("name", name), ("address", address)):
            record = self._failures.get(key)
            fresh = record is not None and now - record.last <= self.forget_after
            counts.append(record.count if record is not None and fresh else 0)
        return counts[0], counts[1]

    def failed(self, name: str, address: str) -> None:
        """Count a failed login of ``name`` from ``address``."""
        now = self.clock()
        self._forget_old(now)
        for key in (("name", name), ("address", address)):
            record = self._failures.get(key)
            if record is None or now - record.last > self.forget_after:
                self._failures[key] = _Failures(1, now)
            else:
                record.count += 1
                record.last = now

    def succeeded(self, name: str) -> None:
        """A login of ``name`` passed: its count starts again. (An address's count is
        kept: one's own account must not clear the way for guessing others'.)"""
        self._failures.pop(("name", name), None)

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


class TutorLoginHandler(NativeLoginHandler):  # type: ignore[misc]
    """NativeAuthenticator's login page, which refuses a try that must wait before
    anything else (its own failure message would check the password of an unapproved
    account first), says how long, and answers 429."""

    async def post(self) -> None:
        authenticator: TutorAuthenticator = self.authenticator
        name = authenticator.normalize_username(self.get_argument("username", "", strip=False))
        address = client_address(self)
        wait = authenticator.throttle.wait(name, address)
        if wait > 0:
            authenticator.log_refused(name, address, wait)
            self.set_status(429)
            html = await self._render(
                login_error=(
                    "Too many failed logins. Please wait "
                    f"{int(wait + 0.999)} seconds before trying again."
                ),
                username=name,
            )
            self.finish(html)
            return
        # NativeAuthenticator answers a failed login with its form and status 200; say 403
        # as JupyterHub's own login does (a successful login still redirects: 302).
        self.set_status(403)
        await super().post()


class TutorSignUpHandler(NativeSignUpHandler):  # type: ignore[misc]
    """NativeAuthenticator's sign-up page, which tells a learner whose name the teacher
    listed that they may log in now (its own message says "sent to the admin" to anyone
    but an admin, though a listed name is approved at once)."""

    def get_result_message(self, user: Any, *args: Any) -> tuple[str, str]:
        alert, message = super().get_result_message(user, *args)
        if user is not None and user.is_authorized and alert == "alert-info":
            alert = "alert-success"
            message = "The signup was successful! You can now log in with your name and password."
        return alert, message


class TutorAuthenticator(NativeAuthenticator):  # type: ignore[misc]
    """NativeAuthenticator with failed-login limits (per name, per address, a growing
    wait, each failure logged) and the teacher's account created at start."""

    name_failures_allowed = Integer(
        5, config=True, help="Failed logins in a row for one name before tries must wait."
    )
    address_failures_allowed = Integer(
        20,
        config=True,
        help="Failed logins in a row from one address before tries must wait (higher than "
        "per name: a whole class may share one address).",
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
            address_allowed=self.address_failures_allowed,
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
                hashed = bcrypt.hashpw(password.encode(), bcrypt.gensalt())
                self.db.add(UserInfo(username=name, password=hashed, is_authorized=True))
                self.log.info("Created the teacher account %r", name)
        self.db.commit()

    def log_refused(self, name: str, address: str, wait: float) -> None:
        by_name, by_address = self.throttle.failures(name, address)
        self.log.warning(
            "Login refused without checking: name %r from address %s must wait %.0f s "
            "(%d failed logins in a row for the name, %d from the address)",
            name,
            address,
            wait,
            by_name,
            by_address,
        )

    async def authenticate(self, handler: Any, data: dict[str, str]) -> str | None:
        name = self.normalize_username(data.get("username", ""))
        address = client_address(handler)
        wait = self.throttle.wait(name, address)
        if wait > 0:  # (the login page checks first; other callers come here)
            self.log_refused(name, address, wait)
            return None
        result = await self._check_password(name, data.get("password", ""), data)
        if result:
            self.throttle.succeeded(name)
            return result
        self.throttle.failed(name, address)
        by_name, by_address = self.throttle.failures(name, address)
        self.log.warning(
            "Failed login: name %r from address %s (%d in a row for the name, %d from the address)",
            name,
            address,
            by_name,
            by_address,
        )
        return None

    async def _check_password(self, name: str, password: str, data: dict[str, str]) -> str | None:
        """NativeAuthenticator's check (an approved account, the right password, the
        one-time code if the account has one), with bcrypt in a thread: it takes about
        0.3 s of CPU (benchmarks/class_results_benchmark.py), and in the hub's event loop
        forty pupils logging in at once would hold up every other request for 12 s."""
        user = self.get_user(name)
        if user is None:
            return None
        stored = bytes(user.password)
        valid = await asyncio.to_thread(bcrypt.checkpw, password.encode(), stored)
        if not (valid and user.is_authorized):
            return None
        if user.has_2fa and not user.is_valid_token(data.get("2fa")):
            return None
        return name

    def get_handlers(self, app: Any) -> list[tuple[str, Any]]:
        ours = {r"/login": TutorLoginHandler, r"/signup": TutorSignUpHandler}
        handlers: list[tuple[str, Any]] = [
            (pattern, ours.get(pattern, handler)) for pattern, handler in super().get_handlers(app)
        ]
        return handlers
