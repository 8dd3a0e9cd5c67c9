"""The live room's pages pass axe-core's check (WCAG 2 A/AA: no serious or critical
violation, tests/accessibility.py) in the states a learner and a teacher meet: the learner's
phone page with its join form, with a question open, and with the answer revealed; the
projector showing how the room answered; the teacher's summary page of the room.

The session's classroom app (``room_app``), one teacher's browser and one learner's phone;
the room is driven as tests/browser/test_live_room.py drives it.
"""

from __future__ import annotations

from typing import Any

import pytest
from accessibility import assert_accessible

from .conftest import PageLog
from .fixtures import RoomApp
from .test_live_room import PHONE, Learner, _answer, _present, _right, _to_first_question
from .test_present import LOAD_TIMEOUT, STEP_TIMEOUT

pytestmark = pytest.mark.browser

LANG = "en"
LESSON = "06"


def test_the_learners_phone_the_projector_and_the_summary_are_accessible(
    room_app: RoomApp, browser: Any
) -> None:
    from playwright.sync_api import expect

    projector_context = browser.new_context(viewport={"width": 1280, "height": 720})
    phone_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        projector = projector_context.new_page()
        projector.goto(room_app.teacher_start, timeout=LOAD_TIMEOUT)  # the teacher's cookie
        phone = phone_context.new_page()
        learner = Learner(phone, LANG, PageLog())
        learner.log.attach(phone)

        phone.goto(room_app.learner_url(LANG), timeout=LOAD_TIMEOUT)
        phone.locator("#room-nickname").wait_for(timeout=STEP_TIMEOUT)
        assert_accessible(phone, "the learner's phone, the join form")
        phone.fill("#room-nickname", "Ada")
        phone.locator(".room-join button[type=submit]").click()

        _present(projector, room_app, LESSON, LANG)
        asked = _to_first_question(projector)
        expect(phone.locator("main")).to_have_attribute("data-state", "open", timeout=STEP_TIMEOUT)
        expect(phone.locator("#room-prompt")).not_to_be_empty()
        assert_accessible(phone, f"the learner's phone, question {asked.key} open")

        _answer(learner, asked.question, _right(asked.question))
        projector.keyboard.press("PageDown")  # the reveal: the room's counts
        expect(projector.locator(".tutor-room-results")).to_be_visible(timeout=STEP_TIMEOUT)
        assert_accessible(projector, "the projector, the room's answers revealed")
        expect(phone.locator("main")).to_have_attribute(
            "data-state", "revealed", timeout=STEP_TIMEOUT
        )
        assert_accessible(phone, "the learner's phone, the answer revealed")
        learner.log.assert_clean()

        summary = projector_context.new_page()
        summary.goto(room_app.server.url(f"/room/summary?lang={LANG}"), timeout=LOAD_TIMEOUT)
        expect(summary.locator("table.room-summary")).to_be_visible()
        assert_accessible(summary, "the room's summary page")
    finally:
        projector_context.close()
        phone_context.close()
