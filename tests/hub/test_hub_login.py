"""Logging in to the hub as deploy/hub.sh starts it by default (each learner's own
password, HTTPS with the certificate it makes), on the session's shared hub
(conftest.py's ``login_hub``), with the cases of issue 21:

- the hub serves HTTPS with the certificate whose fingerprint it printed, and its login
  cookie is Secure;
- long passwords (a 75-character passphrase, 28 Japanese characters) sign up and log in;
  an 80-character wrong one is refused as wrong; over 1024 bytes is a 400 naming the
  limit; never a 500;
- a login form without a name or a password is a 400 saying what is missing;
- from one address, failures at ada and at 19 made-up names hold up neither the teacher
  nor bo; a classmate's burst at ada makes tries at ada from new browsers wait, but not
  ada on her own browser; the teacher (only the teacher) sees and lifts the wait;
- a learner changes their password to a long one, and the teacher sets one.

Runs in the test command (marker ``hub``). About half a minute on 2 cores, with the hub's
start.
"""

from __future__ import annotations

import os
import re
import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests
from cryptography import x509

from tutor.hub.certificate import fingerprint

from .hub_forms import TEACHER, TEACHER_PASSWORD, Visitor
from .hub_harness import HUB_SCRIPT, REPO, RunningHub

pytestmark = [pytest.mark.hub, pytest.mark.slow]

PASSWORDS = {
    "ada": "correct horse battery staple, and then some more words to pass 72 bytes!!!",  # 75
    "bo": "パスワードは長い日本語の文章でも大丈夫でしょうか本当にね",  # 28 characters, 84 bytes
    "cy": "cy-plain-password-9",
}


def hub_log(hub: RunningHub) -> str:
    return hub.log_path.read_text(errors="replace")


@pytest.fixture(scope="module")
def browsers(login_hub: RunningHub) -> Iterator[dict[str, Visitor]]:
    """Each learner's own browser, signed up and logged in once (so it has the hub's
    device cookie for that learner), and the teacher's, logged in."""
    own: dict[str, Visitor] = {}
    for name, password in PASSWORDS.items():
        visitor = Visitor(login_hub)
        signed_up = visitor.sign_up(name, password)
        assert signed_up.status == 200 and "signup was successful" in signed_up.text, (
            name,
            signed_up.status,
            signed_up.text[:500],
        )
        assert visitor.log_in(name, password).status == 302, name
        visitor.log_out()  # logged out, the browser still has its device cookie
        own[name] = visitor
    teacher = Visitor(login_hub)
    assert teacher.log_in(TEACHER, TEACHER_PASSWORD).status == 302
    own[TEACHER] = teacher
    lift_every_wait(teacher)  # the shared hub may have been fuzzed before
    yield own


def lift_every_wait(teacher: Visitor) -> list[str]:
    """The teacher lets everyone listed on /hub/login-waits try again; the keys lifted."""
    lifted = []
    while True:
        page = teacher.get("hub/login-waits")
        assert page.status == 200, page.status
        keys = re.findall(r'name="key" value="([^"]+)"', page.text)
        if not keys:
            return lifted
        answer = teacher.post("hub/login-waits", [("key", keys[0])])
        assert answer.status == 200 and "Lifted" in answer.text, answer.text[:300]
        lifted.append(keys[0])


def test_the_hub_serves_https_with_the_certificate_it_printed(
    login_hub: RunningHub, browsers: dict[str, Visitor]
) -> None:
    parts = urlsplit(login_hub.url)
    assert parts.scheme == "https"
    served = x509.load_pem_x509_certificate(
        ssl.get_server_certificate((parts.hostname or "", parts.port or 443)).encode()
    )
    printed = re.search(r"SHA-256 fingerprint:\s+([0-9A-F:]{95})", hub_log(login_hub))
    assert printed, "deploy/hub.sh printed no fingerprint"
    assert fingerprint(served) == printed[1]
    assert "Your connection is\nnot private" in hub_log(login_hub)  # what learners will see
    # The teacher logged in over HTTPS; the login cookie is sent over HTTPS only.
    cookies = {c.name: c for c in browsers[TEACHER].session.cookies}
    assert cookies["jupyterhub-hub-login"].secure
    # Plain HTTP to the same port is no way in: no page, no cookie in clear text.
    with pytest.raises(requests.ConnectionError):
        requests.get(f"http://{parts.hostname}:{parts.port}/hub/login", timeout=10)


def test_long_passwords_sign_up_and_log_in_and_too_long_says_the_limit(
    login_hub: RunningHub, browsers: dict[str, Visitor]
) -> None:
    for name in ("ada", "bo"):  # signed up by the fixture; a new browser logs in too
        assert Visitor(login_hub).log_in(name, PASSWORDS[name]).status == 302, name
    stranger = Visitor(login_hub)
    taken = stranger.sign_up("ada", "another-password-1")  # a refusal: 400 and why
    assert taken.status == 400 and "already in use" in taken.text
    wrong = stranger.log_in("cy", "w" * 80)
    assert wrong.status == 403 and "Invalid username or password" in wrong.text
    too_long = stranger.sign_up("di", "字" * 400)  # 1200 bytes
    assert too_long.status == 400, too_long.status
    assert "too long: at most 1024 bytes" in too_long.text
    at_login = stranger.log_in("ada", "x" * 5000)
    assert at_login.status == 400 and "too long: at most 1024 bytes" in at_login.text
    assert "Traceback" not in hub_log(login_hub)
    assert "cannot be longer than 72 bytes" not in hub_log(login_hub)


def test_a_login_without_a_name_or_a_password_is_a_clear_400(
    login_hub: RunningHub, browsers: dict[str, Visitor]
) -> None:
    someone = Visitor(login_hub)
    for fields in ([("password", "x")], [("username", "ada")], []):
        answer = someone.post("hub/login", fields)
        assert answer.status == 400, (fields, answer.status)
        assert "Please enter your name and your password." in answer.text
    assert "Traceback" not in hub_log(login_hub)


def test_one_address_locks_out_neither_the_class_nor_the_teacher(
    login_hub: RunningHub, browsers: dict[str, Visitor]
) -> None:
    """All from 127.0.0.1: one address, like a class behind one NAT."""
    classmate = Visitor(login_hub)
    for attempt in range(5):
        assert classmate.log_in("ada", f"guess-{attempt}").status == 403
    for number in range(19):
        assert classmate.log_in(f"made-up-{number}", "whatever").status == 403
    # The teacher and bo, each from a browser that never logged in before:
    assert Visitor(login_hub).log_in(TEACHER, TEACHER_PASSWORD).status == 302
    assert Visitor(login_hub).log_in("bo", PASSWORDS["bo"]).status == 302
    # A classmate's burst at ada: tries at ada from new browsers now wait (guessing
    # stays slow)...
    burst = [classmate.log_in("ada", f"burst-{n}").status for n in range(5)]
    assert burst.count(429) >= 4, burst
    told = classmate.log_in("ada", PASSWORDS["ada"])
    assert told.status == 429 and "Too many failed logins. Please wait" in told.text
    # ...but ada, on her own browser, logs in with her password.
    assert browsers["ada"].log_in("ada", PASSWORDS["ada"]).status == 302
    browsers["ada"].log_out()
    # And so do the others, even after the burst.
    assert Visitor(login_hub).log_in("cy", PASSWORDS["cy"]).status == 302
    # The teacher sees the wait and lifts it; a learner may not.
    bo = browsers["bo"]
    assert bo.log_in("bo", PASSWORDS["bo"]).status == 302
    assert bo.get("hub/login-waits").status == 403
    lifting = bo.post("hub/login-waits", [("key", "account:ada")], xsrf_from="hub/change-password")
    assert lifting.status == 403
    bo.log_out()
    page = browsers[TEACHER].get("hub/login-waits")
    assert "ada (from browsers that never logged in as ada)" in page.text
    assert "account:ada" in lift_every_wait(browsers[TEACHER])
    assert classmate.log_in("ada", "one-more-guess").status == 403  # checked again
    assert Visitor(login_hub).log_in("ada", PASSWORDS["ada"]).status == 302
    log = hub_log(login_hub)
    assert "Failed login: name 'ada' from address 127.0.0.1" in log
    assert "Login wait 'account:ada' lifted by teach" in log


def test_a_learner_changes_to_a_long_password_and_the_teacher_sets_one(
    login_hub: RunningHub, browsers: dict[str, Visitor]
) -> None:
    cy = browsers["cy"]
    assert cy.log_in("cy", PASSWORDS["cy"]).status == 302
    long_one = "長い新しいパスワード" * 15  # 450 bytes
    fields = [
        ("old_password", PASSWORDS["cy"]),
        ("new_password", long_one),
        ("new_password_confirmation", long_one),
    ]
    changed = cy.post("hub/change-password", fields)
    assert changed.status == 200 and "changed successfully" in changed.text, changed.text[:300]
    too_long = cy.post(
        "hub/change-password",
        [
            ("old_password", long_one),
            ("new_password", "n" * 2000),
            ("new_password_confirmation", "n" * 2000),
        ],
    )
    assert too_long.status == 400 and "at most 1024 bytes" in too_long.text
    wrong_old = cy.post("hub/change-password", [("old_password", "nope"), *fields[1:]])
    assert wrong_old.status == 403 and "current password was incorrect" in wrong_old.text
    # Guessing the current password here is as slow as at the login page.
    guesses = [
        cy.post("hub/change-password", [("old_password", f"nope-{n}"), *fields[1:]]).status
        for n in range(5)
    ]
    assert guesses == [403, 403, 403, 403, 429], guesses
    assert "account:cy" not in lift_every_wait(browsers[TEACHER])  # cy's browser's own count
    assert Visitor(login_hub).log_in("cy", long_one).status == 302
    # The teacher sets it again (a forgotten password), also over 72 bytes.
    set_twice = "先生が決めた新しいパスワード" * 2  # 28 characters, 84 bytes
    answer = browsers[TEACHER].post(
        "hub/change-password/cy",
        [("new_password", set_twice), ("new_password_confirmation", set_twice)],
    )
    assert answer.status == 200 and "changed successfully" in answer.text
    assert Visitor(login_hub).log_in("cy", set_twice).status == 302
    assert "Traceback" not in hub_log(login_hub)


def test_a_teachers_certificate_that_is_not_there_stops_the_start_naming_it(
    tmp_path: Path,
) -> None:
    env = {
        **os.environ,
        "TUTOR_HUB_STATE": str(tmp_path / "state"),
        "TUTOR_HUB_SSL_CERT": str(tmp_path / "school.crt"),  # not there
        "TUTOR_HUB_SSL_KEY": str(tmp_path / "school.key"),
        "TUTOR_HUB_ADMIN_PASSWORD": "not-started-at-all",
        "TUTOR_HUB_ALLOW_ROOT": "1",  # (as the harness: this check comes after root's)
    }
    done = subprocess.run(
        ["bash", str(HUB_SCRIPT)], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 1
    assert f"TUTOR_HUB_SSL_CERT is '{tmp_path / 'school.crt'}', not a readable file" in done.stderr
    assert not (tmp_path / "state" / "jupyterhub.sqlite").exists()
