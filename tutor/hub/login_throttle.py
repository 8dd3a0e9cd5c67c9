"""Failed logins on the hub, counted so that guessing stays slow while nobody with the
right password is held up by other people's failures (:class:`LoginThrottle`, which says
how), and what a try is counted under: the account, this browser's device cookie for it
(:func:`device_cookie_name`), or the address for names without an account
(:func:`client_address`).

NativeAuthenticator lacks it (1.3: ``allowed_failed_logins`` blocks a *known* name for a
fixed time, in memory; unknown names not counted, nothing logged).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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
