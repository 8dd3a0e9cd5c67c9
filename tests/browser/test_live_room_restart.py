"""A class across a restart (issue 32): the app with ``--classroom`` and its room's file in
a folder of this test, a projector presenting a lesson on a question's slide, three phones
(en, ja, zh-Hant), one answer; then the app is stopped and started again on the same port
in the middle of the question. The projector says it is reconnecting, then connected again,
on the same slide with the same question open; the other phones' answers count on; no page
was given a new address (the app kept its token and the teacher's sign-in with the room's
file). The seconds it took are printed (``pytest -s``)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tutor.teaching.text import LANGUAGES, text

from .app_process import AppServer
from .conftest import PageLog
from .fixtures import RoomApp
from .test_live_room import (
    PHONE,
    Learner,
    _answer,
    _position,
    _present,
    _right,
    _room_state,
    _say,
    _to_first_question,
    _wrong,
)
from .test_present import LOAD_TIMEOUT, STEP_TIMEOUT

pytestmark = pytest.mark.browser

PROJECTOR_LANG = "ja"
RESTART_TIMEOUT = 180_000
"""ms the projector may take to be back once the app answers again (it loads its page
again: a kernel, the lesson's notebook, the widgets, on a loaded machine)."""


@pytest.fixture
def classroom(tmp_path: Path) -> Iterator[RoomApp]:
    """The app in classroom mode, its room's file in this test's folder."""
    server = AppServer(classroom=True, env={"TUTOR_ROOM_DB": str(tmp_path / "room.sqlite3")})
    server.start()
    try:
        start = re.search(r"(http://127\.0\.0\.1:\d+/room/teacher\?key=\S+)", server.log())
        assert start and server.room_code(), server.log()
        yield RoomApp(server, str(server.room_code()), start.group(1), tmp_path)
    finally:
        server.close()


def test_a_restart_mid_question_keeps_the_projector_on_its_slide_and_the_phones_counting(
    classroom: RoomApp, browser: Any
) -> None:
    from playwright.sync_api import expect

    lang = PROJECTOR_LANG
    projector = browser.new_context(viewport={"width": 1280, "height": 720})
    page = projector.new_page()
    navigations: list[str] = []
    page.on(
        "framenavigated",
        lambda frame: navigations.append(frame.url) if frame == page.main_frame else None,
    )
    page.goto(classroom.teacher_start, timeout=LOAD_TIMEOUT)
    _present(page, classroom, "06", lang)
    asked = _to_first_question(page)
    question = asked.question
    slide = _position(page)

    phones = []
    for number, learner_lang in enumerate(LANGUAGES):
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        phone = context.new_page()
        phone.goto(classroom.learner_url(learner_lang), timeout=LOAD_TIMEOUT)
        phone.fill("#room-nickname", f"Learner {number}")
        phone.locator(".room-join button[type=submit]").click()
        phones.append(Learner(phone, learner_lang, PageLog()))
    status = page.locator(".tutor-present-room")
    _answer(phones[0], question, _right(question))
    expect(status).to_have_text(_say("answered", lang, answered=1, present=3))
    addresses = [page.url, *(phone.page.url for phone in phones)]

    classroom.server.stop()
    expect(page.locator(".tutor-present-connection")).to_have_text(
        text("present.reconnecting", lang), timeout=STEP_TIMEOUT
    )
    for phone in phones:  # the phones say so too, each in its language
        expect(phone.page.locator("#room-connection")).to_have_text(
            text("room.reconnecting", phone.lang), timeout=STEP_TIMEOUT
        )
    assert _position(page) == slide  # the slide stays on the screen meanwhile

    classroom.server.start()
    answering = time.monotonic()
    expect(page.locator(".tutor-present-connection")).to_have_text(
        text("present.reconnected", lang), timeout=RESTART_TIMEOUT
    )
    back_in = time.monotonic() - answering
    # the same slide (the count of slides comes back with the room: its result is the last)
    expect(page.locator(".tutor-present-position")).to_have_text(slide, timeout=STEP_TIMEOUT)
    expect(status).to_have_text(_say("answered", lang, answered=1, present=3))
    state = _room_state(page, classroom)
    assert (state["phase"], state["question"]["key"]) == ("open", asked.key)

    _answer(phones[1], question, _wrong(question))
    _answer(phones[2], question, _right(question))
    expect(status).to_have_text(_say("answered", lang, answered=3, present=3))
    for phone in phones:
        expect(phone.page.locator("#room-connection")).to_have_text("")
    # Nobody was handed a new address: the pages are where they were (the projector
    # loaded its own address again, once).
    assert [page.url, *(phone.page.url for phone in phones)] == addresses
    assert navigations[-1] == addresses[0]
    token = classroom.server.token()
    assert token and all(token not in phone.page.content() for phone in phones)
    print(
        f"\nthe app answered again after {classroom.server.started_in:.1f} s of starting; "
        f"the projector was connected again {back_in:.1f} s later"
    )
    for phone in phones:
        phone.page.context.close()
    projector.close()
