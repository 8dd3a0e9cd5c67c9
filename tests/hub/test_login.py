"""The hub's logins without a hub: how passwords are stored (any length up to the limit,
old hashes still taken) and the failed-login limits, scenario by scenario from issue 21.
(The same on a real hub: test_hub_login.py.)"""

from __future__ import annotations

import base64
import hashlib
import hmac
from types import SimpleNamespace

import bcrypt
import pytest
from event_loops import run_in_own_thread as run

from tutor.hub.login import TutorAuthenticator
from tutor.hub.login_throttle import ACCOUNT, ADDRESS, DEVICE, LoginThrottle
from tutor.hub.passwords import (
    BCRYPT_SHA256_PREFIX,
    MAX_PASSWORD_BYTES,
    hash_password,
    is_too_long,
    needs_rehash,
    password_matches,
)

# -- passwords --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "password",
    [
        "correct horse battery staple, and then some more words to pass 72 bytes!!!",  # 75
        "パスワードは長い日本語の文章でも大丈夫でしょうか本当にね",  # 28 characters, 84 bytes
        "x" * 80,
        "密碼" * 100,  # 600 bytes
        "y" * MAX_PASSWORD_BYTES,
    ],
)
def test_a_long_password_is_stored_and_only_it_matches(password: str) -> None:
    stored = hash_password(password)
    assert password_matches(password, stored)
    # Every byte counts: the same beginning with another end does not match (bcrypt
    # alone would compare only the first 72 bytes).
    assert not password_matches(password[:-1] + chr(ord(password[-1]) + 1), stored)
    assert not password_matches(password.encode()[:72].decode(errors="ignore"), stored)


def nativeauthenticators_hash(password: str) -> bytes:
    return bcrypt.hashpw(password.encode(), bcrypt.gensalt())


def the_tutors_bcrypt_sha256_hash(password: str) -> bytes:
    """The scheme before Argon2id, made here as it was made then (bcrypt over a base64
    HMAC-SHA-256 keyed with the salt), so the test does not lean on the code it checks."""
    salt = bcrypt.gensalt()
    prehash = base64.b64encode(hmac.new(salt, password.encode(), hashlib.sha256).digest())
    return BCRYPT_SHA256_PREFIX + bcrypt.hashpw(prehash, salt)


def test_new_hashes_are_argon2id_and_need_no_rehash() -> None:
    stored = hash_password("a-fine-password")
    assert stored.startswith(b"$argon2id$")
    assert not needs_rehash(stored)


@pytest.mark.parametrize("older", [nativeauthenticators_hash, the_tutors_bcrypt_sha256_hash])
def test_a_hash_from_before_argon2_still_matches_and_is_to_be_stored_anew(older) -> None:  # type: ignore[no-untyped-def]
    legacy = older("ada-old-password")
    assert password_matches("ada-old-password", legacy)
    assert not password_matches("ada-old-passwore", legacy)
    assert not password_matches("z" * 100, legacy)  # over bcrypt's limit: no, not a crash
    assert needs_rehash(legacy)


def test_an_older_hash_is_stored_anew_in_argon2id_at_the_next_login() -> None:
    """The login's own check (no hub): the right password re-stores an older hash, a wrong
    one leaves it as it was."""
    legacy = the_tutors_bcrypt_sha256_hash("ada-old-password")
    ada = SimpleNamespace(password=legacy, is_authorized=True, has_2fa=False)
    commits = []
    login = SimpleNamespace(
        get_user=lambda name: ada if name == "ada" else None,
        db=SimpleNamespace(commit=lambda: commits.append(1)),
    )

    def check(password: str) -> str | None:
        found: str | None = run(
            TutorAuthenticator._check_password(login, "ada", password, {})  # type: ignore[arg-type]
        )
        return found

    assert check("ada-old-passwore") is None
    assert ada.password == legacy and commits == []
    assert check("ada-old-password") == "ada"
    assert ada.password.startswith(b"$argon2id$") and commits == [1]
    assert password_matches("ada-old-password", ada.password)
    assert check("ada-old-password") == "ada" and commits == [1]  # stored once


def test_too_long_or_not_utf8_never_matches_and_never_raises() -> None:
    stored = hash_password("a-fine-password")
    assert is_too_long("x" * (MAX_PASSWORD_BYTES + 1))
    assert not password_matches("x" * 100_000, stored)
    assert not password_matches("\udcff\udcfe", stored)  # what an undecodable byte becomes
    assert not password_matches("a-fine-password", b"not a bcrypt hash")
    assert not password_matches("a-fine-password", b"$argon2id$v=19$not-a-hash")
    with pytest.raises(ValueError, match="at most 1024 bytes"):
        hash_password("x" * (MAX_PASSWORD_BYTES + 1))


# -- failed logins ----------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_wait_starts_after_five_failures_and_doubles_with_each_further_one() -> None:
    clock = Clock()
    throttle = LoginThrottle(clock=clock)  # the deployed defaults: 5 per account, 10 s, 900 s
    ada = (ACCOUNT, "ada")
    waits = []
    for _ in range(12):
        waits.append(throttle.wait(ada))
        clock.now += waits[-1]  # the guesser waits exactly as long as told
        throttle.failed(ada)
    assert waits == [0, 0, 0, 0, 0, 10, 20, 40, 80, 160, 320, 640]
    assert throttle.wait(ada) == 900  # capped
    clock.now += 899
    assert throttle.wait(ada) == pytest.approx(1)
    clock.now += 1
    throttle.succeeded(ada)  # the right password, once allowed, clears the count
    assert throttle.failures(ada) == 0


def test_made_up_names_and_a_classmates_typos_hold_up_neither_the_teacher_nor_bo() -> None:
    """The issue's scenario from one address (a class behind one NAT): 5 failures at ada,
    then 19 made-up names; the teacher and bo are not held up, nor is the address."""
    clock = Clock()
    throttle = LoginThrottle(clock=clock)
    nat = "10.0.0.1"
    for _ in range(5):
        throttle.failed((ACCOUNT, "ada"))
    for _made_up_name in range(19):
        throttle.failed((ADDRESS, nat))
    assert throttle.wait((ACCOUNT, "teacher")) == 0
    assert throttle.wait((ACCOUNT, "bo")) == 0
    assert throttle.wait((ADDRESS, nat)) == 0  # a class's typos are far below the limit
    # Even far more made-up names hold up only more made-up names from that address.
    for _ in range(200):
        throttle.failed((ADDRESS, nat))
    assert throttle.wait((ADDRESS, nat)) > 0
    assert throttle.wait((ACCOUNT, "teacher")) == 0
    assert throttle.wait((ACCOUNT, "bo")) == 0


def test_a_classmates_burst_at_ada_does_not_hold_up_ada_on_her_own_browser() -> None:
    clock = Clock()
    throttle = LoginThrottle(clock=clock)
    for _ in range(30):  # the burst: each try while waiting is refused, not counted
        if throttle.wait((ACCOUNT, "ada")) == 0:
            throttle.failed((ACCOUNT, "ada"))
    assert throttle.wait((ACCOUNT, "ada")) > 0  # guessing at ada is slowed...
    assert throttle.wait((DEVICE, "f00d:ada")) == 0  # ...but ada's browser is not
    throttle.succeeded((DEVICE, "f00d:ada"))
    assert throttle.wait((ACCOUNT, "ada")) > 0  # and her login does not reopen guessing


def test_the_teacher_lifts_a_wait_and_sees_who_waits() -> None:
    clock = Clock()
    throttle = LoginThrottle(clock=clock)
    for _ in range(6):
        throttle.failed((ACCOUNT, "ada"))
    for _ in range(3):
        throttle.failed((ACCOUNT, "bo"))  # below the allowance: not listed
    [wait] = throttle.waits()
    assert (wait.key, wait.failures, wait.seconds) == ("account:ada", 6, 20)
    assert throttle.lift("account:ada")
    assert throttle.wait((ACCOUNT, "ada")) == 0
    assert not throttle.lift("account:ada")  # nothing left to lift
    assert throttle.waits() == []


def test_old_failures_are_forgotten() -> None:
    clock = Clock()
    throttle = LoginThrottle(forget_after=3600, clock=clock)
    for _ in range(7):
        throttle.failed((ACCOUNT, "bo"))
        clock.now += 1000
    clock.now += 3601
    assert throttle.wait((ACCOUNT, "bo")) == 0
    throttle.failed((ACCOUNT, "bo"))
    assert throttle.failures((ACCOUNT, "bo")) == 1
