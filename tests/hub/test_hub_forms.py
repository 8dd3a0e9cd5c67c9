"""Fuzzing the hub's forms: sign-up, login, change-password (the learner's own and the
teacher's for a learner), on the session's shared hub (conftest.py's ``login_hub``: as
deploy/hub.sh starts it, HTTPS), from a corpus of nasty cases and from Hypothesis.

Every input gets a normal page or a 4xx with a message, never a 5xx; the hub's log gets
no traceback; each answer comes within CASE_SECONDS; the hub's memory stays bounded.

The names of the login tests' accounts (test_hub_login.py) are left alone: failed logins
at them would make their new browsers wait. Runs in the test command (marker ``hub``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import psutil
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .hub_forms import TEACHER, TEACHER_PASSWORD, Answer, Visitor
from .hub_harness import RunningHub, rss_mib

pytestmark = [pytest.mark.hub, pytest.mark.slow]

CASE_SECONDS = 20.0  # one request, on 2 busy cores (a password check is 0.15-0.3 s of CPU)
MEMORY_GROWTH_MIB = 150.0
FUZZER = "fuzz"  # the fuzzing's own listed learner
FUZZER_PASSWORD = "fuzz-password-1"
PROTECTED = {TEACHER, "ada", "bo", "cy", "di"}  # test_hub_login.py's accounts

Field = tuple[str | bytes, str | bytes]

NASTY_VALUES: list[str | bytes] = [
    "",
    " ",
    "\x00",
    "a\x00b",
    b"\xff\xfe",  # not UTF-8
    b"\xed\xa0\x80",  # an encoded lone surrogate: not UTF-8 either
    b"\xc3",  # a cut-off character
    "x" * 100_000,
    "字" * 30_000,  # 90 KB of UTF-8
    "👩‍👩‍👧‍👦" * 2000,
    "\u202eevil\u202c",
    "e\u0301" * 500,
    "<script>alert(1)</script>",
    "{{ 7*7 }}",
    "%(name)s %s %d",
    "../../etc/passwd",
    "'; DROP TABLE users_info; --",
    "\r\nSet-Cookie: x=1",
    "FUZZ",
    " fuzz ",
]


def protected(value: str | bytes) -> bool:
    """Whether ``value`` would be taken as one of the login tests' names."""
    return isinstance(value, str) and value.strip().lower() in PROTECTED


FORMS: dict[str, list[str]] = {
    "hub/login": ["username", "password"],
    "hub/signup": ["username", "signup_password", "signup_password_confirmation"],
    "hub/change-password": ["old_password", "new_password", "new_password_confirmation"],
    f"hub/change-password/{FUZZER}": ["new_password", "new_password_confirmation"],
}


def fair_value(field: str) -> str:
    """A value that is fine for ``field`` (the others in a case are the nasty ones)."""
    if field == "username":
        return "made-up-name"
    if field == "old_password":
        return FUZZER_PASSWORD
    return "a-fine-password-7"


def corpus(path: str) -> list[list[Field]]:
    """The nasty cases for the form on ``path``: each field missing, each field nasty
    (the rest fine), every field nasty at once, repeated fields, an unknown field."""
    names = FORMS[path]
    fine: list[Field] = [(name, fair_value(name)) for name in names]
    cases: list[list[Field]] = [[], *[[f for f in fine if f[0] != name] for name in names]]
    for value in NASTY_VALUES:
        for index in range(len(names)):
            case = list(fine)
            case[index] = (names[index], value)
            cases.append(case)
        cases.append([(name, value) for name in names])
    cases.append([*fine, *fine])  # every field twice
    cases.append([*fine, (names[0], "\x00"), (names[0], b"\xff")])
    cases.append([*fine, ("unknown", "x"), ("2fa", "123456"), ("next", "//evil.example/")])
    cases.append([*fine, (b"\xff", b"\xff")])  # a field name that is not UTF-8
    return cases


@pytest.fixture(scope="module")
def fuzzers(login_hub: RunningHub) -> Iterator[dict[str, Visitor]]:
    """A stranger (logged out), the fuzzing's learner and the teacher (logged in)."""
    learner = Visitor(login_hub)
    signed_up = learner.sign_up(FUZZER, FUZZER_PASSWORD)
    assert signed_up.status == 200, signed_up.text[:300]
    assert learner.log_in(FUZZER, FUZZER_PASSWORD).status == 302
    teacher = Visitor(login_hub)
    assert teacher.log_in(TEACHER, TEACHER_PASSWORD).status == 302
    yield {
        "hub/login": Visitor(login_hub),
        "hub/signup": Visitor(login_hub),
        "hub/change-password": learner,
        f"hub/change-password/{FUZZER}": teacher,
    }
    # The failures made here leave nobody waiting for the tests that follow.
    page = teacher.get("hub/login-waits")
    for key in re.findall(r'name="key" value="([^"]+)"', page.text):
        teacher.post("hub/login-waits", [("key", key)])


class LogWatch:
    """The hub's log since the last look."""

    def __init__(self, hub: RunningHub) -> None:
        self.hub = hub
        self.offset = hub.log_path.stat().st_size

    def new(self) -> str:
        with self.hub.log_path.open("rb") as log:
            log.seek(self.offset)
            data = log.read()
        self.offset += len(data)
        return data.decode(errors="replace")


def check(answer: Answer, watch: LogWatch, case: object) -> None:
    """The rules for every answer (``case`` names the input in a failure)."""
    shown = repr(case)[:300]
    assert answer.status < 500, (answer.status, shown, answer.text[:500])
    assert answer.seconds < CASE_SECONDS, (answer.seconds, shown)
    assert "Traceback" not in answer.text, shown
    assert "<script>alert(1)</script>" not in answer.text, shown  # shown escaped, if at all
    log = watch.new()
    assert "Traceback" not in log, (shown, log[-3000:])
    assert not re.search(r"\] 5\d\d (GET|POST) ", log), (shown, log[-3000:])


def hub_rss(hub: RunningHub) -> float:
    return rss_mib([psutil.Process(hub.process.pid), *hub.remember_processes()])


@pytest.mark.parametrize("path", list(FORMS))
def test_the_nasty_corpus_gets_pages_and_4xx_never_a_5xx(
    path: str, login_hub: RunningHub, fuzzers: dict[str, Visitor]
) -> None:
    visitor = fuzzers[path]
    watch = LogWatch(login_hub)
    before = hub_rss(login_hub)
    worst = 0.0
    statuses: dict[int, int] = {}
    token = visitor.xsrf(path)  # one form, posted again and again, as a script would
    for case in corpus(path):
        assert not any(protected(value) for _name, value in case)
        answer = visitor.post(path, [("_xsrf", token), *case], xsrf=False)
        check(answer, watch, case)
        worst = max(worst, answer.seconds)
        statuses[answer.status] = statuses.get(answer.status, 0) + 1
    grown = hub_rss(login_hub) - before
    print(
        f"\n{path}: {sum(statuses.values())} cases, statuses {statuses}, "
        f"worst {worst:.2f} s, hub memory {grown:+.1f} MiB"
    )
    assert grown < MEMORY_GROWTH_MIB


def test_a_form_posted_without_its_xsrf_token_or_as_json_is_a_4xx(
    login_hub: RunningHub, fuzzers: dict[str, Visitor]
) -> None:
    watch = LogWatch(login_hub)
    for path, visitor in fuzzers.items():
        fields: list[Field] = [(name, fair_value(name)) for name in FORMS[path]]
        check(visitor.post(path, fields, xsrf=False), watch, (path, "no xsrf"))
        as_json = visitor.post(path, fields, content_type="application/json")
        check(as_json, watch, (path, "json content type"))
        multipart = visitor.post(path, fields, content_type="multipart/form-data; boundary=")
        check(multipart, watch, (path, "multipart without a boundary"))


field_values = st.one_of(
    st.text(max_size=300),
    st.binary(max_size=300),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=60, max_size=2000),
)


@pytest.mark.parametrize("path", list(FORMS))
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_hypothesis_forms_get_pages_and_4xx_never_a_5xx(
    path: str, login_hub: RunningHub, fuzzers: dict[str, Visitor], data: st.DataObject
) -> None:
    names = st.sampled_from([*FORMS[path], "next", "2fa", "email", "x"])
    fields = data.draw(
        st.lists(st.tuples(names | st.text(max_size=20), field_values), max_size=6),
        label="fields",
    )
    fields = [(name, value) for name, value in fields if not protected(value) and name != "_xsrf"]
    check(fuzzers[path].post(path, fields), LogWatch(login_hub), fields)
