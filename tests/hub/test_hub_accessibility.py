"""The hub's own pages pass axe-core's check (WCAG 2 A/AA: no serious or critical
violation, tests/accessibility.py): the login page, the sign-up page (and its answer to a
sign-up it refuses), and the teacher's
page of the class's results (the class-results service), reached by logging in as the
teacher. The session's ``login_hub`` (tests/hub/conftest.py) and Chromium.

Markers ``hub``, ``browser``, ``slow``.
"""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from accessibility import assert_accessible
from playwright.sync_api import expect

from tutor.teaching.text import text

from .hub_forms import TEACHER, TEACHER_PASSWORD
from .hub_harness import RunningHub, is_loopback_url
from .hub_pages import log_in

pytestmark = [pytest.mark.hub, pytest.mark.browser, pytest.mark.slow]

TIMEOUT_MS = 30_000
TEACHERS_PAGE = "services/class-results/"


def test_the_hubs_login_sign_up_and_teachers_pages_are_accessible(
    login_hub: RunningHub, browser: Any
) -> None:
    context = browser.new_context(
        locale="en-US", ignore_https_errors=True, viewport={"width": 1280, "height": 720}
    )
    requested: list[str] = []
    context.on("request", lambda request: requested.append(request.url))
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(f"{login_hub.url}/hub/login?lang=en")
        expect(page.locator("#login_submit")).to_be_visible()
        assert_accessible(page, "the hub's login page")

        page.goto(f"{login_hub.url}/hub/signup?lang=en")
        expect(page.locator("h1")).to_have_text(text("signup.title", "en"))
        assert_accessible(page, "the hub's sign-up page")
        # refused (the confirmation differs): the page again, with its message
        page.fill("#username_input", f"axe{secrets.token_hex(3)}")
        page.fill("#password_input", "a-good-password-1")
        page.fill("#password_confirmation_input", "another-password-2")
        page.click("#signup_submit")
        expect(page.locator("#signup-message")).to_have_text(text("signup.mismatch", "en"))
        assert_accessible(page, "the hub's sign-up page, a sign-up refused")

        response = log_in(page, login_hub.url, TEACHER, TEACHER_PASSWORD, TEACHERS_PAGE)
        assert response.status == 302, response.status
        page.wait_for_url(f"**/{TEACHERS_PAGE}*")
        expect(page.locator("h1")).to_be_visible()
        assert_accessible(page, "the teacher's page of the class's results")
        assert [url for url in requested if not is_loopback_url(url)] == []
    finally:
        context.close()
