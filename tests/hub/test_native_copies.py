"""The parts of NativeAuthenticator the tutor copies or re-does (tutor/hub/login.py,
tutor/hub/login_pages.py), pinned to the installed NativeAuthenticator: an upgrade that
changes one of them fails here, naming the tutor's copy to read again, instead of the
copy silently drifting from what it copies (the version pin in pyproject.toml alone
would not say which part to re-read).

Two ways: the source of every part copied is pinned by its hash, and the two copies with
the most cases are compared with the original, case by case."""

from __future__ import annotations

import hashlib
import inspect
import itertools
import textwrap
from collections.abc import Callable
from importlib import metadata
from types import SimpleNamespace
from typing import Any

import pytest
from event_loops import run_in_own_thread as run
from nativeauthenticator import NativeAuthenticator
from nativeauthenticator import handlers as native

from tutor.hub.login import TutorAuthenticator
from tutor.hub.login_pages import TutorSignUpHandler
from tutor.hub.passwords import hash_password

PINNED: dict[str, tuple[Callable[..., Any], str, str]] = {
    # NativeAuthenticator's part: (the part, the hash of its source, the tutor's copy)
    "NativeAuthenticator.authenticate": (
        NativeAuthenticator.authenticate,
        "dc5d8c6b3bfdfaa8",
        "TutorAuthenticator._check_password (login.py): the same checks, in a thread",
    ),
    "NativeAuthenticator.create_user": (
        NativeAuthenticator.create_user,
        "a9a5f347aadfd93f",
        "TutorAuthenticator.create_user (login.py): relies on it hashing a placeholder",
    ),
    "NativeAuthenticator.change_password": (
        NativeAuthenticator.change_password,
        "2cdd2b95797fee8f",
        "TutorAuthenticator.change_password (login.py): the same criteria",
    ),
    "LoginHandler.post": (
        native.LoginHandler.post,
        "2488364a1992a654",
        "TutorLoginHandler.post (login_pages.py): the not-authorized hint",
    ),
    "SignUpHandler.post": (
        native.SignUpHandler.post,
        "eb7dfa12ba9cbc49",
        "TutorSignUpHandler (login_pages.py): its render_template and get_result_message",
    ),
    "SignUpHandler.get_result_message": (
        native.SignUpHandler.get_result_message,
        "573ccbb32375b76e",
        "TutorSignUpHandler.get_result_message (login_pages.py): the same cases, in order",
    ),
    "ChangePasswordHandler.post": (
        native.ChangePasswordHandler.post,
        "2887e54312d83a92",
        "TutorChangePasswordHandler.post (login_pages.py): the same form fields",
    ),
    "ChangePasswordAdminHandler.get": (
        native.ChangePasswordAdminHandler.get,
        "7b499a5a00bef297",
        "TutorAdminPasswordHandler.get (login_pages.py)",
    ),
    "ChangePasswordAdminHandler.post": (
        native.ChangePasswordAdminHandler.post,
        "a174b7086d0a95a0",
        "TutorAdminPasswordHandler.post (login_pages.py): the same form fields",
    ),
}


def source_hash(part: Callable[..., Any]) -> str:
    """The first 16 hex digits of the SHA-256 of ``part``'s source, dedented."""
    source = textwrap.dedent(inspect.getsource(part))
    return hashlib.sha256(source.encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", PINNED)
def test_each_part_the_tutor_copies_is_the_installed_nativeauthenticators(name: str) -> None:
    part, pinned, copy = PINNED[name]
    version = metadata.version("jupyterhub-nativeauthenticator")
    assert source_hash(part) == pinned, (
        f"NativeAuthenticator {version} changed {name}: read {copy} against it again, "
        f"then pin the new hash {source_hash(part)} here"
    )


def test_the_pin_tells_a_changed_source_from_the_same() -> None:
    """The check can fail: a part whose source differs by one character has another hash."""

    def a(x: int) -> int:
        return x + 1

    def b(x: int) -> int:
        return x + 2

    assert source_hash(a) != source_hash(b)
    assert source_hash(a) == source_hash(a)


# -- the copies with many cases, compared with the original, case by case --------------------

RIGHT, CODE = "the-right-password", "123456"


def _account(*, authorized: bool, two_factor: bool) -> SimpleNamespace:
    """An account both checks can read: NativeAuthenticator's methods and the stored hash."""
    return SimpleNamespace(
        password=hash_password(RIGHT),
        is_authorized=authorized,
        has_2fa=two_factor,
        is_valid_password=lambda password: password == RIGHT,
        is_valid_token=lambda code: code == CODE,
    )


@pytest.mark.parametrize(
    ("authorized", "two_factor"), list(itertools.product([True, False], repeat=2))
)
def test_the_password_check_lets_in_whom_nativeauthenticator_lets_in(
    authorized: bool, two_factor: bool
) -> None:
    account = _account(authorized=authorized, two_factor=two_factor)
    theirs_self = SimpleNamespace(
        normalize_username=lambda name: name,
        get_user=lambda name: account if name == "ada" else None,
        allowed_failed_logins=0,
        successful_login=lambda name: None,
        add_login_attempt=lambda name: None,
    )
    ours_self = SimpleNamespace(
        get_user=theirs_self.get_user, db=SimpleNamespace(commit=lambda: None)
    )
    for name, password, code in itertools.product(["ada", "bo"], [RIGHT, "wrong"], [CODE, "0"]):
        data = {"username": name, "password": password, "2fa": code}
        theirs = run(NativeAuthenticator.authenticate(theirs_self, None, data))
        ours = run(TutorAuthenticator._check_password(ours_self, name, password, data))  # type: ignore[arg-type]
        assert ours == theirs, (name, password, code)


def _signup_page(*, open_signup: bool) -> SimpleNamespace:
    """What both get_result_message read of their handler."""
    return SimpleNamespace(
        authenticator=SimpleNamespace(minimum_password_length=8, open_signup=open_signup),
        page_language=lambda: "en",
        set_status=lambda status: None,
        _too_long=False,
    )


USERS = {
    "none": None,
    "waiting": SimpleNamespace(is_authorized=False, login_email_sent=False),
    "waiting, emailed": SimpleNamespace(is_authorized=False, login_email_sent=True),
    "listed": SimpleNamespace(is_authorized=True, login_email_sent=False),
}


def test_the_sign_up_answers_are_nativeauthenticators_cases_in_its_order() -> None:
    """Every case gets NativeAuthenticator's level of alert, but one the tutor changes on
    purpose: a name the teacher listed is approved at once, so its sign-up is a success,
    not "sent to the admin"."""
    differences = []
    for user_key, human, taken, matches, admin, open_signup in itertools.product(
        USERS, *[[True, False]] * 5
    ):
        page = _signup_page(open_signup=open_signup)
        args = (USERS[user_key], human, taken, matches, admin)
        theirs, _ = native.SignUpHandler.get_result_message(page, *args)
        ours, _ = TutorSignUpHandler.get_result_message(page, *args)  # type: ignore[arg-type]
        if ours != theirs:
            differences.append((user_key, human, taken, matches, admin, open_signup, ours))
    listed_approved = [
        ("listed", True, False, True, False, False, "alert-success"),
    ]
    assert differences == listed_approved
