"""The hub's login page in the class's language, in Chromium: a browser asking for Japanese
(Accept-Language) gets the page and its errors in Japanese; the language links switch it
with the keyboard and keep where the learner was going (``next``); the form keeps the
chosen language across a failed try; an English browser still gets English; and a login
from a translated page works.

Uses the session's ``login_hub`` (tests/hub/conftest.py) and ``browser`` (tests/browser/fixtures.py). Markers ``hub``, ``browser``,
``slow``: about 20 s on 2 cores once the hub is up.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tutor.hub.passwords import MAX_PASSWORD_BYTES
from tutor.teaching.text import text

from .hub_forms import TEACHER, TEACHER_PASSWORD
from .hub_harness import RunningHub

pytestmark = [pytest.mark.hub, pytest.mark.browser, pytest.mark.slow]

TIMEOUT_MS = 30_000


def _page(browser: Any, locale: str) -> Any:
    """A fresh browser (no cookies) whose Accept-Language is ``locale``."""
    context = browser.new_context(locale=locale, ignore_https_errors=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page


def _submit(page: Any, name: str, password: str) -> Any:
    page.fill("#username_input", name)
    page.fill("#password_input", password)
    with page.expect_response(lambda response: response.request.method == "POST") as posted:
        page.press("#password_input", "Enter")
    return posted.value


def test_a_japanese_browser_gets_the_login_page_and_its_errors_in_japanese(
    login_hub: RunningHub, browser: Any
) -> None:
    page = _page(browser, "ja-JP")
    try:
        page.goto(f"{login_hub.url}/hub/login?next=/hub/home")
        expect(page.locator("h1")).to_have_text(text("login.title", "ja"))
        assert page.evaluate("document.documentElement.lang") == "ja"
        expect(page.locator("label[for=username_input]")).to_have_text(text("login.name", "ja"))
        expect(page.locator("#login_submit")).to_have_value(text("login.submit", "ja"))
        expect(page.locator("#eye")).to_have_attribute(
            "aria-label", text("login.show-password", "ja")
        )
        assert "Sign In" not in page.inner_text("body")
        # A wrong password (at a name without an account: the throttle's address count,
        # far from its allowance): 403 and why, in Japanese, on a Japanese page.
        wrong = _submit(page, "nobody-here", "not-the-password")
        assert wrong.status == 403
        expect(page.locator(".login_error")).to_have_text(text("login.invalid", "ja"))
        expect(page.locator("h1")).to_have_text(text("login.title", "ja"))
        too_long = _submit(page, "nobody-here", "字" * 400)
        assert too_long.status == 400
        expect(page.locator(".login_error")).to_have_text(
            text("login.too-long", "ja", limit=MAX_PASSWORD_BYTES)
        )
    finally:
        page.context.close()
    assert "Traceback" not in login_hub.log_path.read_text(errors="replace")


def test_the_language_links_switch_with_the_keyboard_and_keep_next(
    login_hub: RunningHub, browser: Any
) -> None:
    page = _page(browser, "en-US")
    try:
        page.goto(f"{login_hub.url}/hub/login?next=/hub/home")
        expect(page.locator("h1")).to_have_text(text("login.title", "en"))
        current = page.locator("#login-languages a[aria-current=page]")
        expect(current).to_have_text("English")  # the current one says so, not by colour only
        link = page.locator("#login-languages a[lang=zh-Hant]")
        link.focus()
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert "lang=zh-Hant" in page.url and "next=%2Fhub%2Fhome" in page.url, page.url
        expect(page.locator("h1")).to_have_text(text("login.title", "zh-Hant"))
        expect(current).to_have_text("繁體中文")
        # A name without a password: 400 and why, in the chosen language (the form's
        # address keeps it, whatever the browser's Accept-Language says).
        missing = _submit(page, "ada", "")
        assert missing.status == 400
        expect(page.locator(".login_error")).to_have_text(text("login.missing", "zh-Hant"))
        assert page.evaluate("document.documentElement.lang") == "zh-Hant"
        # And the teacher logs in from the translated page, on to where they were going.
        done = _submit(page, TEACHER, TEACHER_PASSWORD)
        assert done.status == 302, done.status
        assert done.headers["location"].endswith("/hub/home"), done.headers["location"]
    finally:
        page.context.close()
    assert "Traceback" not in login_hub.log_path.read_text(errors="replace")
