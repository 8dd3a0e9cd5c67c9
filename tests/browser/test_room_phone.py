"""The live room in the real app (``--classroom``): the learner page on a 390x844 phone in
each language (join, answer, change the answer, reload, reveal), the teacher's start
address as printed, and a room code that opens nothing but the room."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tutor.teaching.explain import unbroken
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.quiz import AnswerKind
from tutor.teaching.text import text

from .app_process import AppServer
from .fixtures import PageLog, RoomApp
from .room_client import TeacherClient

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

# One question of each kind, one language each: (lesson, item)
QUESTIONS = {
    "en": ("04_follow_suit", "quiz-follow-green"),  # several choices
    "ja": ("06_trick_winner", "quiz-trump-led"),  # one choice
    "zh-Hant": ("07_scoring", "quiz-bid-one-met"),  # a number
}


@pytest.fixture(scope="module")
def classroom_app(room_app: RoomApp) -> AppServer:
    """The session's classroom app (tests/browser/fixtures.py)."""
    return room_app.server


@pytest.fixture(scope="module")
def teacher(classroom_app: AppServer) -> TeacherClient:
    """The teacher's browser after opening the start address the app printed."""
    key = classroom_app.teacher_key()
    assert key, classroom_app.log()
    client = TeacherClient(classroom_app.url("").rstrip("/"))
    status, _, headers = client.start(key)
    assert status == 302
    assert headers["Location"] == (
        f"/voila/render/index.ipynb?present=1&token={classroom_app.token()}"
    )
    return client


@pytest.fixture
def phone(browser: Any) -> Iterator[tuple[Any, Any, PageLog]]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    log = PageLog()
    log.attach(context)
    page = context.new_page()
    yield context, page, log
    context.close()


def right_and_wrong(lesson: str, item: str) -> tuple[Any, Any]:
    """The engine's right answer and a wrong one, as the page's controls give them."""
    question = load_lesson(lesson).item(item).question
    if question.answer_kind is AnswerKind.NUMBER:
        points = int(question.correct_answer())  # type: ignore[call-overload]
        return points, points + 10
    choices = question.choices()
    right = [i for i, choice in enumerate(choices) if question.is_right_choice(choice)]
    wrong = [i for i in range(len(choices)) if i not in right]
    if question.answer_kind is AnswerKind.ONE_CHOICE:
        return right[0], wrong[0]
    return right, [wrong[0]]


def give(page: Any, kind: AnswerKind, answer: Any, before: Any = None) -> None:
    """Answer on the page as a learner does: tap a card, tap cards then Send, or type."""
    if kind is AnswerKind.ONE_CHOICE:
        page.locator(f'.room-choice[data-index="{answer}"]').tap()
    elif kind is AnswerKind.MANY_CHOICES:
        for index in set(before or []) ^ set(answer):  # untap the old ones, tap the new
            page.locator(f'.room-choice[data-index="{index}"]').tap()
        page.locator("#room-send").tap()
    else:
        page.locator("#room-number").fill(str(answer))
        page.locator("#room-number").press("Enter")


@pytest.mark.parametrize("lang", list(QUESTIONS))
def test_a_learner_answers_changes_reloads_and_sees_the_reveal_on_a_phone(
    classroom_app: AppServer, teacher: TeacherClient, phone: tuple[Any, Any, PageLog], lang: str
) -> None:
    _context, page, log = phone
    lesson, item = QUESTIONS[lang]
    question = load_lesson(lesson).item(item).question
    kind = question.answer_kind
    right, wrong = right_and_wrong(lesson, item)
    code = classroom_app.room_code()
    teacher.act("close")

    page.goto(classroom_app.url(f"/room/{code}?lang={lang}"))  # no classroom token
    expect(page.locator("#room-title")).to_have_text(text("room.title", lang, code=code))
    nickname = "<b>Aiko</b>"
    page.get_by_label(text("room.nickname", lang, limit=24)).fill(nickname)
    page.get_by_role("button", name=text("room.join", lang)).click()
    status = page.locator("#room-status")
    expect(status).to_have_text(text("room.waiting", lang))
    # the nickname is shown as typed, as text: no element made of it
    expect(page.locator(".room-who")).to_contain_text(nickname)
    assert page.locator("main b").count() == 0

    # The session's room is shared with other tests: counts are read against what it held.
    before = teacher.act("open", {"lesson": lesson, "item": item})
    # the phone's words keep each card's name whole (tutor.teaching.explain.unbroken)
    expect(page.locator("#room-prompt")).to_have_text(unbroken(question.prompt(lang)))
    expect(status).to_have_text(text("room.not-answered", lang))
    if kind is not AnswerKind.NUMBER:  # cards large enough to tap, inside the phone's width
        for box in [c.bounding_box() for c in page.locator(".room-choice").all()]:
            assert box["width"] >= 48 and box["height"] >= 48
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]

    give(page, kind, wrong)
    expect(page.locator("main")).to_have_attribute("data-state", "answered")
    first = teacher.call("GET", f"/room/api/state?lang={lang}")[1]
    assert (first["answered"], first["right"]) == (before["answered"] + 1, before["right"])
    give(page, kind, right, before=wrong)  # changes their mind
    live = teacher.call("GET", f"/room/api/state?lang={lang}")[1]
    for _ in range(50):  # the second answer's reply may still be on its way
        if live["right"] == before["right"] + 1:
            break
        page.wait_for_timeout(100)
        live = teacher.call("GET", f"/room/api/state?lang={lang}")[1]
    # counted once, the last answer
    assert (live["answered"], live["right"]) == (before["answered"] + 1, before["right"] + 1)
    right_entry = next(entry for entry in live["counts"] if entry["right"])
    right_label = unbroken(right_entry["label"])
    expect(status).to_contain_text(right_label)

    page.reload()  # the phone keeps its key and sees its answer
    expect(status).to_have_text(text("room.answered", lang, answer=right_label))
    if kind is AnswerKind.ONE_CHOICE:
        expect(page.locator(f'.room-choice[data-index="{right}"]')).to_have_attribute(
            "aria-pressed", "true"
        )
    elif kind is AnswerKind.MANY_CHOICES:
        for index in right:  # every card of the answer sent shows chosen, and no other
            expect(page.locator(f'.room-choice[data-index="{index}"]')).to_have_attribute(
                "aria-pressed", "true"
            )
        expect(page.locator('.room-choice[aria-pressed="true"]')).to_have_count(len(right))
    elif kind is AnswerKind.NUMBER:
        expect(page.locator("#room-number")).to_have_value(str(right))
    assert teacher.call("GET", "/room/api/state")[1]["present"] == len(
        teacher.call("GET", "/room/api/state")[1]["learners"]
    )

    teacher.act("reveal")
    expect(page.locator("main")).to_have_attribute("data-state", "revealed")
    expect(page.locator(".room-verdict")).to_contain_text(text("room.right", lang))
    expect(page.locator(".room-reveal")).to_contain_text(
        text("room.right-answer-is", lang, answer=right_label)
    )
    if kind is not AnswerKind.NUMBER:  # the right card is marked in words, not colour only
        rights = right if isinstance(right, list) else [right]
        for index in rights:
            expect(page.locator(f'.room-choice[data-index="{index}"] .room-mark')).to_contain_text(
                text("room.right-answer", lang)
            )
    expect(page.locator(".room-counts")).to_contain_text(  # the room's count, marked
        text("room.count-of-right", lang, answer=right_label, count=right_entry["count"])
    )
    log.assert_clean()
    assert all("/room/" in url for url in log.requests), log.requests  # no Jupyter at all


def test_the_learner_chooses_their_language_whatever_the_projector_shows(
    classroom_app: AppServer, teacher: TeacherClient, phone: tuple[Any, Any, PageLog]
) -> None:
    _context, page, log = phone
    lesson, item = QUESTIONS["ja"]
    teacher.act("open", {"lesson": lesson, "item": item})
    page.goto(classroom_app.url(f"/room/{classroom_app.room_code()}?lang=en"))
    page.get_by_role("button", name=text("room.join", "en")).click()
    question = load_lesson(lesson).item(item).question

    def prompt(lang: str) -> str:
        return unbroken(question.prompt(lang))

    expect(page.locator("#room-prompt")).to_have_text(prompt("en"))
    languages = page.get_by_role("navigation", name=text("room.language", "en"))
    chinese = page.locator("#room-languages").get_by_role("link", name="繁體中文")
    expect(languages.get_by_role("link")).to_have_count(3)
    chinese.click()  # the tutor's language links, switching the page in place
    expect(page.locator("#room-prompt")).to_have_text(prompt("zh-Hant"))
    expect(chinese).to_have_attribute("aria-current", "page")
    expect(page.locator('#room-languages [aria-current="page"]')).to_have_count(1)
    expect(page.locator("#room-languages")).to_have_attribute(
        "aria-label", text("room.language", "zh-Hant")
    )
    expect(chinese).to_be_focused()  # the keyboard stays
    assert page.url.endswith("?lang=zh-Hant")  # the address keeps the choice
    page.reload()  # kept in the phone
    expect(page.locator("#room-prompt")).to_have_text(prompt("zh-Hant"))
    page.locator('#room-languages a[lang="ja"]').focus()  # the keyboard switches too
    page.keyboard.press("Enter")
    expect(page.locator("#room-prompt")).to_have_text(prompt("ja"))
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    # the keyboard reaches the choices and answers with Enter
    page.locator('.room-choice[data-index="0"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_have_attribute("data-state", "answered")
    log.assert_clean()


def test_a_join_refused_as_too_many_at_once_is_tried_again_by_itself(
    classroom_app: AppServer, teacher: TeacherClient, phone: tuple[Any, Any, PageLog]
) -> None:
    """A class joining at once can pass the room's join limit: the learner's first join gets
    the room's 429 (here given by the test, as the room words it, with Retry-After: 2; the
    limit itself is tests/web/test_room.py's), the page says calmly that it joins by
    itself, and joins after the wait without a second tap."""
    _context, page, log = phone
    code = classroom_app.room_code()
    joins: list[float] = []

    def join(route: Any) -> None:
        joins.append(page.evaluate("performance.now()"))
        if len(joins) == 1:
            route.fulfill(
                status=429,
                headers={"Retry-After": "2"},
                content_type="application/json",
                body='{"error": {"code": "too-many", "message": "too many learners joining at once"}}',
            )
        else:
            route.continue_()

    page.route(f"**/room/{code}/api/join", join)
    teacher.act("close")  # the learner then waits for the first question
    before = teacher.call("GET", "/room/api/state")[1]["present"]
    page.goto(classroom_app.url(f"/room/{code}?lang=ja"))
    page.get_by_role("button", name=text("room.join", "ja")).click()
    expect(page.locator("#room-notice")).to_have_text(text("room.joining-again", "ja", seconds=2))
    expect(page.locator("main")).to_have_attribute("data-state", "join")
    expect(page.locator("#room-status")).to_have_text(text("room.waiting", "ja"), timeout=10_000)
    expect(page.locator("#room-notice")).to_have_text("")
    assert len(joins) == 2 and joins[1] - joins[0] >= 1900  # after the server's wait
    assert teacher.call("GET", "/room/api/state")[1]["present"] == before + 1  # joined once
    # the refusal the test gave is the one error in the console
    log.expected["the server responded with a status of 429"] = "the join refused on purpose"
    log.assert_clean()


def test_a_room_code_opens_the_room_and_nothing_else(classroom_app: AppServer) -> None:
    code = classroom_app.room_code()
    assert code
    status, page, headers = classroom_app.get(f"/room/{code}")
    assert status == 200 and "Content-Security-Policy" in headers
    # its script through the app's server as in tests/web/test_room_http.py: versioned, kept
    script = re.search(r'<script src="(/room/assets/room\.js\?v=\w+)"', page)
    assert script, page
    status, _, headers = classroom_app.get(script.group(1))
    assert status == 200 and re.search(r"max-age=\d{8,}", headers["Cache-Control"]), headers
    for path in (
        "/",
        "/voila/render/index.ipynb",
        f"/voila/render/index.ipynb?token={code}",
        "/api/kernels",
        f"/room/api/state?token={classroom_app.token()}",  # the course's token is no teacher's
    ):
        status, _, _ = classroom_app.get(path)
        assert status in (302, 403, 404), (path, status)  # refused, never served
