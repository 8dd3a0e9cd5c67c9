"""The hub's other own pages in the learner's language, in Chromium: sign-up, changing a
password (the learner's and the teacher's), the teacher's failed-logins page, and their
error pages. Each page is in each language, chosen as the login page chooses it (``?lang=``,
else Accept-Language); the server writes ``<html lang>`` (not a script after load); the
language chosen on the login page goes on to sign-up and back; the forms work with the
keyboard alone and answer their errors in the page's language; a narrow phone's screen
needs no sideways scrolling.

Uses the session's ``login_hub`` (tests/hub/conftest.py) and ``browser`` (tests/browser/fixtures.py). Markers ``hub``,
``browser``, ``slow``: about half a minute on 2 cores once the hub is up.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tutor.hub.passwords import MAX_PASSWORD_BYTES
from tutor.teaching.language import LANGUAGE_NAMES
from tutor.teaching.text import LANGUAGES, text

from .hub_forms import TEACHER, TEACHER_PASSWORD, Visitor
from .hub_harness import RunningHub, running_hub

pytestmark = [pytest.mark.hub, pytest.mark.browser, pytest.mark.slow]

TIMEOUT_MS = 30_000
PHONE = {"width": 390, "height": 844}
LOCALES = {"en": "en-US", "ja": "ja-JP", "zh-Hant": "zh-TW"}


def _page(browser: Any, locale: str, viewport: dict[str, int] | None = None) -> Any:
    """A fresh browser (no cookies) whose Accept-Language is ``locale``."""
    context = browser.new_context(
        locale=locale, ignore_https_errors=True, viewport=viewport or {"width": 1280, "height": 720}
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.script_errors = []  # uncaught errors of the pages' scripts (see _close)
    page.on("pageerror", lambda error: page.script_errors.append(str(error)))
    return page


def _close(page: Any) -> None:
    """Close ``page``'s browser; its pages' scripts must have run without an error."""
    page.context.close()
    assert page.script_errors == [], page.script_errors


def _open(page: Any, url: str, lang: str) -> None:
    """Open ``url`` and check the server sent it in ``lang``: ``<html lang>`` as served,
    before any script ran (JupyterHub's page.html hard-codes "en")."""
    response = page.goto(url)
    assert response.status == 200, (url, response.status)
    assert f'<html lang="{lang}">' in response.text(), (url, response.text()[:400])
    assert page.evaluate("document.documentElement.lang") == lang


def _press_enter_in(page: Any, selector: str) -> Any:
    """Press Enter in the field ``selector``: the form's answer."""
    with page.expect_response(lambda response: response.request.method == "POST") as posted:
        page.press(selector, "Enter")
    return posted.value


def _type_by_tab(page: Any, values: list[str]) -> None:
    """Type ``values`` into the form's fields in Tab order, starting from the focused one
    (the eye button between password fields is tabbed past)."""
    for index, value in enumerate(values):
        if index:
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.id") == "eye":
                page.keyboard.press("Tab")
        page.keyboard.type(value)


def _fits(page: Any) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page is wider than the screen: {width}"


def _fresh_name() -> str:
    return f"lang{secrets.token_hex(3)}"


@pytest.fixture(scope="module")
def teacher(login_hub: RunningHub) -> Iterator[Visitor]:
    visitor = Visitor(login_hub)
    assert visitor.log_in(TEACHER, TEACHER_PASSWORD).status == 302
    yield visitor


def _learner(hub: RunningHub, teacher: Visitor) -> tuple[str, str]:
    """A new learner, signed up (without a browser) and approved by the teacher."""
    name, password = _fresh_name(), f"pw-{secrets.token_urlsafe(9)}"
    assert Visitor(hub).sign_up(name, password).status == 200
    assert teacher.get(f"hub/authorize/{name}").status == 302
    return name, password


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sign_up_speaks_the_language_chosen_on_the_login_page_and_goes_back_in_it(
    login_hub: RunningHub, browser: Any, lang: str
) -> None:
    page = _page(browser, "en-US", PHONE)  # an English browser: the choice is the link's
    try:
        _open(page, f"{login_hub.url}/hub/login?lang={lang}", lang)
        page.focus("#signup-link")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert f"lang={lang}" in page.url, page.url
        assert page.evaluate("document.documentElement.lang") == lang
        expect(page.locator("h1")).to_have_text(text("signup.title", lang))
        expect(page.locator("label[for=password_confirmation_input]")).to_have_text(
            text("signup.confirm", lang)
        )
        expect(page.locator("#signup_submit")).to_have_value(text("signup.submit", lang))
        current = page.locator("#page-languages a[aria-current=page]")
        expect(current).to_have_text(LANGUAGE_NAMES[lang])
        # Told apart by weight, not by colour only.
        assert current.evaluate("a => getComputedStyle(a).fontWeight") == "700"
        _fits(page)
        # The form by keyboard: the name is focused; a confirmation that differs is
        # refused, in the page's language, and the name stays typed.
        name = _fresh_name()
        assert page.evaluate("document.activeElement.id") == "username_input"
        _type_by_tab(page, [name, "a-good-password-1", "another-password-2"])
        refused = _press_enter_in(page, "#password_confirmation_input")
        assert refused.status == 400
        expect(page.locator("#signup-message")).to_have_text(text("signup.mismatch", lang))
        expect(page.locator("#username_input")).to_have_value(name)
        assert page.evaluate("document.documentElement.lang") == lang
        # The eye button, by keyboard, shows both password fields, and says so.
        page.focus("#eye")
        page.keyboard.press("Enter")
        expect(page.locator("#eye")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#eye")).to_have_text(text("hub-page.hide-passwords", lang))
        expect(page.locator("#password_confirmation_input")).to_have_attribute("type", "text")
        # Then the sign-up goes through (an unlisted name waits for the teacher).
        page.fill("#password_input", "a-good-password-1")
        page.fill("#password_confirmation_input", "a-good-password-1")
        done = _press_enter_in(page, "#password_confirmation_input")
        assert done.status == 200
        expect(page.locator("#signup-message")).to_have_text(text("signup.sent", lang))
        # And back to the login page, still in the chosen language.
        page.focus("#login-link")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        expect(page.locator("h1")).to_have_text(text("login.title", lang))
        assert page.evaluate("document.documentElement.lang") == lang
    finally:
        _close(page)


def test_sign_up_errors_from_nativeauthenticator_in_a_japanese_browser(
    login_hub: RunningHub, browser: Any
) -> None:
    page = _page(browser, "ja-JP")  # no ?lang=: Accept-Language chooses
    taken = _fresh_name()
    assert Visitor(login_hub).sign_up(taken, "a-good-password-1").status == 200
    try:
        _open(page, f"{login_hub.url}/hub/signup", "ja")
        refused = ("signup.refused", {"minimum": 8})
        cases = [
            ([taken, "a-good-password-1", "a-good-password-1"], ("signup.taken", {})),
            (["has space", "a-good-password-1", "a-good-password-1"], refused),
            ([_fresh_name(), "short", "short"], refused),
            (
                [_fresh_name(), "字" * 400, "字" * 400],
                ("login.too-long", {"limit": MAX_PASSWORD_BYTES}),
            ),
        ]
        for fields, (key, values) in cases:
            page.fill("#username_input", "")
            page.fill("#password_input", "")
            page.fill("#password_confirmation_input", "")
            page.focus("#username_input")
            _type_by_tab(page, fields)
            answer = _press_enter_in(page, "#password_confirmation_input")
            assert answer.status == 400, (fields[0], answer.status)
            expect(page.locator("#signup-message")).to_have_text(text(key, "ja", **values))
            expect(page.locator("h1")).to_have_text(text("signup.title", "ja"))
        # A form without a password.
        page.fill("#password_input", "")
        page.fill("#password_confirmation_input", "")
        missing = _press_enter_in(page, "#password_input")
        assert missing.status == 400
        expect(page.locator("#signup-message")).to_have_text(text("signup.missing", "ja"))
    finally:
        _close(page)
    assert "Traceback" not in login_hub.log_path.read_text(errors="replace")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_learner_changes_their_password_in_their_language(
    login_hub: RunningHub, browser: Any, teacher: Visitor, lang: str
) -> None:
    name, password = _learner(login_hub, teacher)
    page = _page(browser, LOCALES[lang])
    try:
        page.goto(f"{login_hub.url}/hub/login?next=/hub/change-password")
        page.fill("#username_input", name)
        page.fill("#password_input", password)
        with page.expect_navigation(url="**/hub/change-password**"):
            page.press("#password_input", "Enter")
        _open(page, f"{login_hub.url}/hub/change-password", lang)
        expect(page.locator("h1")).to_have_text(text("password.title", lang, name=name))
        expect(page.locator("#password_submit")).to_have_value(text("password.submit", lang))
        expect(page.locator("#logout")).to_have_text(text("hub-page.logout", lang))
        # By keyboard from the focused current-password field: a wrong one, then a
        # mismatch, each refused in the page's language.
        assert page.evaluate("document.activeElement.id") == "old_password_input"
        _type_by_tab(page, ["not-my-password", "new-password-77", "new-password-77"])
        wrong = _press_enter_in(page, "#new_password_confirmation_input")
        assert wrong.status == 403
        expect(page.locator("#password-message")).to_have_text(text("password.incorrect", lang))
        page.fill("#old_password_input", password)
        page.fill("#new_password_input", "new-password-77")
        page.fill("#new_password_confirmation_input", "new-password-78")
        mismatch = _press_enter_in(page, "#new_password_confirmation_input")
        assert mismatch.status == 400
        expect(page.locator("#password-message")).to_have_text(text("password.mismatch", lang))
        page.fill("#old_password_input", password)  # an answer is a fresh, empty form
        page.fill("#new_password_input", "new-password-77")
        page.fill("#new_password_confirmation_input", "new-password-77")
        changed = _press_enter_in(page, "#new_password_confirmation_input")
        assert changed.status == 200
        expect(page.locator("#password-message")).to_have_text(text("password.changed", lang))
        assert page.evaluate("document.documentElement.lang") == lang
    finally:
        _close(page)
    assert Visitor(login_hub).log_in(name, "new-password-77").status == 302


def test_the_teachers_pages_follow_the_language_links(
    login_hub: RunningHub, browser: Any, teacher: Visitor
) -> None:
    name, _ = _learner(login_hub, teacher)
    page = _page(browser, "zh-TW")
    try:
        # Logged in straight to the waits page: without a next page, the hub starts the
        # teacher's server, whose page then moves on by itself, under the next goto.
        page.goto(f"{login_hub.url}/hub/login?next=%2Fhub%2Flogin-waits")
        page.fill("#username_input", TEACHER)
        page.fill("#password_input", TEACHER_PASSWORD)
        with page.expect_navigation(url="**/hub/login-waits"):
            page.press("#password_input", "Enter")
        _open(page, f"{login_hub.url}/hub/login-waits", "zh-Hant")
        expect(page.locator("h1")).to_have_text(text("login-waits.title", "zh-Hant"))
        _open(page, f"{login_hub.url}/hub/change-password/{name}", "zh-Hant")
        expect(page.locator("h1")).to_have_text(text("password.title", "zh-Hant", name=name))
        assert page.locator("#old_password_input").count() == 0  # the teacher is not asked
        # The language links switch the page with the keyboard; the form keeps the choice.
        page.focus("#page-languages a[lang=ja]")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert page.evaluate("document.documentElement.lang") == "ja"
        page.fill("#new_password_input", "short")
        page.fill("#new_password_confirmation_input", "short")
        weak = _press_enter_in(page, "#new_password_confirmation_input")
        assert weak.status == 400
        expect(page.locator("#password-message")).to_have_text(
            text("password.weak", "ja", minimum=8)
        )
        page.fill("#new_password_input", "teacher-set-9")
        page.fill("#new_password_confirmation_input", "teacher-set-9")
        done = _press_enter_in(page, "#new_password_confirmation_input")
        assert done.status == 200
        expect(page.locator("#password-message")).to_have_text(
            text("password.changed-admin", "ja", name=name)
        )
        # An error page of these pages speaks the page's language too.
        missing = page.goto(f"{login_hub.url}/hub/change-password/nobody-{name}?lang=ja")
        assert missing.status == 404
        assert '<html lang="ja">' in missing.text()
        assert text("password.no-account", "ja", name=f"nobody-{name}") in page.inner_text("body")
    finally:
        _close(page)
    assert Visitor(login_hub).log_in(name, "teacher-set-9").status == 302
    assert "Traceback" not in login_hub.log_path.read_text(errors="replace")


CLASS_PASSWORD = f"class-{secrets.token_urlsafe(9)}"


@pytest.fixture(scope="module")
def class_password_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHub]:
    """A hub logging in with the class password (JupyterHub's own login form, which the
    tutor's page replaces). Nobody's server is started."""
    with running_hub(tmp_path_factory.mktemp("class-password-hub"), password=CLASS_PASSWORD) as hub:
        yield hub


def test_the_class_password_login_speaks_the_learners_language(
    class_password_hub: RunningHub, browser: Any
) -> None:
    hub = class_password_hub
    page = _page(browser, "ja-JP", PHONE)
    try:
        _open(page, f"{hub.url}/hub/login?next=/hub/home", "ja")
        expect(page.locator("h1")).to_have_text(text("login.title", "ja"))
        expect(page.locator("#login_submit")).to_have_value(text("login.submit", "ja"))
        assert "Sign in" not in page.inner_text("body")
        _fits(page)
        assert page.evaluate("document.activeElement.id") == "username_input"
        _type_by_tab(page, ["ada", "not-the-class-password"])
        wrong = _press_enter_in(page, "#password_input")
        assert wrong.status == 403
        expect(page.locator(".login_error")).to_have_text(text("login.invalid", "ja"))
        page.fill("#password_input", "")
        missing = _press_enter_in(page, "#username_input")
        assert missing.status == 400
        expect(page.locator(".login_error")).to_have_text(text("login.missing", "ja"))
        # The language links keep where the learner was going; the login works.
        page.focus("#login-languages a[lang=zh-Hant]")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert page.evaluate("document.documentElement.lang") == "zh-Hant"
        expect(page.locator("h1")).to_have_text(text("login.title", "zh-Hant"))
        page.fill("#username_input", "ada")
        page.fill("#password_input", CLASS_PASSWORD)
        done = _press_enter_in(page, "#password_input")
        assert done.status == 302, done.status
        assert done.headers["location"].endswith("/hub/home"), done.headers["location"]
    finally:
        _close(page)
    assert "Traceback" not in hub.log_path.read_text(errors="replace")


def test_a_form_refused_before_its_handler_says_so_in_the_pages_language(
    login_hub: RunningHub,
) -> None:
    # Without its XSRF token (an expired form): 403, and "try again", not "you may not
    # open this page", in the language of the form's address.
    answer = Visitor(login_hub).post(
        "hub/signup?lang=zh-Hant", [("username", "x"), ("signup_password", "y")], xsrf=False
    )
    assert answer.status == 403
    assert '<html lang="zh-Hant">' in answer.text
    assert text("hub-page.error-400", "zh-Hant") in answer.text
    assert text("hub-page.error-title", "zh-Hant", status=403) in answer.text
