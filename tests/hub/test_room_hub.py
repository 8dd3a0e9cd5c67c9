"""The live room on a real JupyterHub (deploy/hub.sh with the class password), in Chromium
on 127.0.0.1 only: the teacher (a hub admin) starts from the class results page and
presents a lesson in their own server; three learners, hub users, log in through the hub at
the join address on 390x844 phones (one in Japanese, one in traditional Chinese) and
answer with no nickname form; the projector counts their answers; a learner who reloads
keeps their answer; the summary on the teacher's page names the question; and the room's
rules hold for requests made by hand with a learner's own login (only the teacher controls
the room, a learner answers for themselves only, XSRF on every script request, JSON errors).

Markers ``hub``, ``browser``, ``slow``: about a minute and a half on 2 cores.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser.test_live_room import (
    Learner,
    _answer,
    _answered,
    _right,
    _say,
    _to_first_question,
    _wrong,
)
from playwright.sync_api import expect

from tutor.teaching.explain import unbroken
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.text import text

from .hub_harness import RunningHub, is_loopback_url, running_hub
from .hub_pages import log_in

pytestmark = [pytest.mark.hub, pytest.mark.browser, pytest.mark.slow]

TEACHER = "teach"
LEARNERS = {"aiko": "ja", "ben": "en", "chen": "zh-Hant"}
CLASS_PASSWORD = f"class-{secrets.token_urlsafe(9)}"
ADMIN_PASSWORD = secrets.token_urlsafe(33)  # shared-password: 32 characters or more
ROOM = "services/class-results/room/"
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 90_000


@pytest.fixture(scope="module")
def room_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHub]:
    with running_hub(
        tmp_path_factory.mktemp("room-hub"),
        auth="shared-password",
        password=CLASS_PASSWORD,
        admins=[TEACHER],
        admin_password=ADMIN_PASSWORD,
        learners=list(LEARNERS),
    ) as hub:
        yield hub


class Person:
    """A browser of its own (cookies) that logs in to the hub, nothing from outside."""

    def __init__(self, hub: RunningHub, browser: Any, viewport: dict[str, int], **options: Any):
        self.hub = hub
        self.context = browser.new_context(viewport=viewport, **options)
        self.outside: list[str] = []
        self.errors: list[str] = []

        def route(route: Any) -> None:
            if is_loopback_url(route.request.url):
                route.continue_()
            else:
                self.outside.append(route.request.url)
                route.abort()

        self.context.route("**/*", route)
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def log_in(self, name: str, password: str, next_path: str) -> None:
        log_in(self.page, self.hub.url, name, password, next_path)


def test_a_teacher_presents_and_learners_answer_in_the_room_on_the_hub(
    room_hub: RunningHub, browser: Any
) -> None:
    teacher = Person(room_hub, browser, {"width": 1280, "height": 720})
    # The results page's link: logged in to the service, then the teacher's own server
    # presents the lesson.
    room_hub.api("POST", f"users/{TEACHER}/server")  # their own server, as their login starts it
    teacher.log_in(TEACHER, ADMIN_PASSWORD, "services/class-results/")
    page = teacher.page
    page.locator("#room-present").wait_for()
    # the lesson's own link in the list of lessons to present
    present = page.locator("#room-lessons a", has_text=load_lesson("06").title("en")).get_attribute(
        "href"
    )
    assert present is not None and "page=06_trick_winner.ipynb" in present
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not room_hub.server_ready(TEACHER) and time.monotonic() < deadline:
        time.sleep(0.5)
    page.goto(f"{room_hub.url}{present}")
    page.wait_for_url("**/user/teach/voila/render/06_trick_winner.ipynb?present=1*")
    status = page.locator(".tutor-present-bar .tutor-present-room")
    status.wait_for()
    code = str(page.locator(".tutor-room-code strong").text_content()).strip()
    assert len(code) == 4
    join = f"{room_hub.url}/{ROOM}{code}"
    expect(page.locator(".tutor-room-address")).to_have_text(join)
    # The hub opened on 127.0.0.1, its public URL not set: no phone reaches that address;
    # the projector says so and names the setting, in place of the QR code.
    warning = page.locator(".tutor-room-join .tutor-room-unreachable")
    expect(warning).to_contain_text(text("projector.join-local", "en"))
    expect(warning).to_contain_text("TUTOR_HUB_PUBLIC_URL=http://")
    expect(page.locator(".tutor-room-join img.tutor-room-qr")).to_have_css("display", "none")
    qr = page.request.get(f"{room_hub.url}/{ROOM}qr.svg")
    assert qr.ok and qr.headers["content-type"].startswith("image/svg+xml")

    # Learners open the join address: the hub's login first, then the room, no nickname form.
    learners: list[Learner] = []
    people: list[Person] = []
    for name, lang in LEARNERS.items():
        person = Person(room_hub, browser, PHONE, is_mobile=True, has_touch=True)
        person.log_in(name, CLASS_PASSWORD, f"{ROOM}{code}?lang={lang}")
        phone = person.page
        phone.locator("main[data-state='waiting'], main[data-state='open']").wait_for()
        assert phone.locator("#room-nickname").count() == 0
        expect(phone.locator("#room-title")).to_have_text(text("room.title", lang, code=code))
        expect(phone.locator('#room-languages [aria-current="page"]')).to_have_attribute(
            "lang", lang
        )
        people.append(person)
        learners.append(Learner(phone, lang, None))
    expect(status).to_have_text(_say("join-button", "en", code=code, present=3))

    asked = _to_first_question(page)
    question = asked.question
    for learner in learners:
        expect(learner.page.locator("#room-prompt")).to_have_text(
            unbroken(question.prompt(learner.lang)), timeout=TIMEOUT_MS
        )
    expect(status).to_have_text(_say("answered", "en", answered=0, present=3))
    right, wrong = _right(question), _wrong(question)
    aiko, ben, chen = learners
    _answer(aiko, question, right)
    _answer(ben, question, wrong)
    _answer(ben, question, right)  # changed: only the last counts
    _answer(chen, question, wrong)
    chen.page.reload()  # the hub knows who she is: her answer is still hers
    _answered(chen, question, wrong)
    expect(status).to_have_text(_say("answered", "en", answered=3, present=3))

    page.keyboard.press("PageDown")  # the reveal
    results = page.locator(".tutor-room-results")
    expect(results).to_contain_text(
        _say("right-count", "en", right=2, answered=3), use_inner_text=True
    )
    for learner, answer in zip(learners, [right, right, wrong], strict=True):
        expect(learner.page.locator("main")).to_have_attribute("data-state", "revealed")
        verdict = "room.right" if answer == right else "room.wrong"
        expect(learner.page.locator(".room-verdict")).to_contain_text(text(verdict, learner.lang))

    # The rules, asked by hand with ben's own login (his browser's cookies).
    phone = people[1].page
    xsrf = phone.evaluate("JSON.parse(document.getElementById('room-data').textContent).xsrf")
    api = f"{room_hub.url}/{ROOM}{code}/api/"
    headers = {"X-XSRFToken": xsrf, "Content-Type": "application/json"}

    def post(url: str, body: str, with_headers: dict[str, str]) -> tuple[int, Any]:
        reply = phone.request.post(url, data=body, headers=with_headers)
        return reply.status, reply.json()

    as_aiko = json.dumps({"learner": "hub:aiko", "question": asked.key, "answer": wrong})
    status_code, reply = post(f"{api}answer", as_aiko, headers)
    assert (status_code, reply["error"]["code"]) == (403, "unknown-learner")
    status_code, reply = post(f"{api}answer", "[1, 2", headers)
    assert (status_code, reply["error"]["code"]) == (400, "bad-json")
    status_code, reply = post(f"{room_hub.url}/{ROOM}api/reopen", "{}", headers)
    assert (status_code, reply["error"]["code"]) == (403, "not-teacher")
    no_xsrf = json.dumps({"learner": "hub:ben", "question": asked.key, "answer": right})
    status_code, reply = post(f"{api}answer", no_xsrf, {"Content-Type": "application/json"})
    assert status_code == 403  # without the token the hub does not say who asks
    # the page's script as the app serves it: at tornado's versioned address, kept for good
    script = phone.locator("script[src]").get_attribute("src")
    assert script and script.startswith(f"/{ROOM}assets/room.js?v="), script
    served = phone.request.get(f"{room_hub.url}{script}")
    assert served.ok and re.search(r"max-age=\d{8,}", served.headers["cache-control"])
    unversioned = phone.request.get(f"{room_hub.url}{script.partition('?')[0]}")
    assert unversioned.ok and unversioned.headers["cache-control"] == "no-cache"
    summary = page.request.get(f"{room_hub.url}/{ROOM}api/state?lang=en").json()
    assert (summary["answered"], summary["right"], summary["phase"]) == (3, 2, "revealed")

    # After the lesson: the summary, from the teacher's results page.
    page.goto(f"{room_hub.url}/services/class-results/?lang=en")
    page.locator("#room-summary").click()
    expect(page.locator("table.room-summary")).to_contain_text(question.prompt("en"))
    csv = page.request.get(f"{room_hub.url}/{ROOM}summary.csv?lang=en")
    assert csv.ok and question.prompt("en").split(",")[0] in csv.text()

    for person in [teacher, *people]:
        assert person.outside == []
        assert person.errors == []  # not even a refused request (the probe answers 200)
        person.context.close()
