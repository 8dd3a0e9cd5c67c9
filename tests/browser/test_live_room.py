"""The live room on the projector (issue 22): the teacher presents a lesson in the app with
``--classroom``, learners answer on their phones (390x844 pages of the room), and the
projector shows how the room answered.

One app for the module (``room_app``: classroom mode, its room's answers in a file of this
run), one teacher's browser per test (the room's cookie, from the printed start address),
three learners per test, one in each language. What the projector and the learners' pages must
show comes from the lessons, the engine and the catalogs, never from the page itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tutor.teaching.explain import unbroken
from tutor.teaching.lesson import Lesson
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.question import revealed
from tutor.teaching.quiz import AnswerKind, Question
from tutor.teaching.text import LANGUAGES, join_words, text

from .conftest import PageLog, lesson_notebook, wait_until
from .fixtures import RoomApp
from .test_present import LOAD_TIMEOUT, MEASURE, STEP_TIMEOUT, _problems

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
PROJECTORS = ((1280, 720), (1920, 1080))
MIN_TEXT = 24.0
"""The smallest text the room's panel, line and counts show, in CSS px at 1280x720 (as
every slide: test_present.MIN_TEXT)."""

# Each projector language presents a lesson whose first question is of another kind.
LESSON_OF = {"en": "06", "ja": "04", "zh-Hant": "01"}


@dataclass
class Asked:
    """The question a slide asks the room: its key in the room and the engine's question."""

    key: str
    question: Question


@dataclass
class Learner:
    page: Any
    lang: str
    log: PageLog


# -- the teacher's projector ---------------------------------------------------------------


@pytest.fixture
def teacher(room_app: RoomApp, browser: Any) -> Iterator[tuple[Any, PageLog]]:
    """A projector's browser holding the room's teacher cookie (the start address sets it
    and opens the course in presenter mode)."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    log = PageLog()
    log.attach(page)
    page.goto(room_app.teacher_start, timeout=LOAD_TIMEOUT)
    assert "present=1" in page.url
    yield page, log
    context.close()


@pytest.fixture
def learners(room_app: RoomApp, browser: Any) -> Iterator[list[Learner]]:
    """Three learners who joined the room on their phones, one in each language."""
    contexts = []
    joined = []
    for number, lang in enumerate(LANGUAGES):
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        contexts.append(context)
        page = context.new_page()
        log = PageLog()
        log.attach(page)
        page.goto(room_app.learner_url(lang), timeout=LOAD_TIMEOUT)
        page.fill("#room-nickname", f"Learner {number} <b>")  # escaped, never markup
        page.locator(".room-join button[type=submit]").click()
        page.locator("main[data-state='waiting'], main[data-state='open']").wait_for(
            timeout=STEP_TIMEOUT
        )
        joined.append(Learner(page, lang, log))
    yield joined
    for context in contexts:
        context.close()


def _present(page: Any, room_app: RoomApp, number: str, lang: str) -> None:
    notebook = lesson_notebook(number)
    assert notebook is not None
    page.goto(
        room_app.server.render_url(notebook.name, f"present=1&lang={lang}"), timeout=LOAD_TIMEOUT
    )
    page.locator(".tutor-present-bar .tutor-present-room").wait_for(timeout=LOAD_TIMEOUT)


def _asked(page: Any, *teachers: Lesson) -> Asked | None:
    """The lesson's question the slide shown asks (its mark, read from the page), if any;
    ``teachers``: a teacher's lessons the app serves beside the course's."""
    mark = page.evaluate(
        "(() => { const mark = document.querySelector("
        "'.tutor-unit:not(.tutor-hidden) .tutor-room-question');"
        " return mark && [mark.dataset.lesson, mark.dataset.question]; })()"
    )
    if not mark:
        return None
    lesson, item = mark
    theirs = {teacher.id: teacher for teacher in teachers}
    found = theirs[lesson] if lesson in theirs else load_lesson(lesson)
    return Asked(f"{lesson}/{item}", found.item(item).question)


def _position(page: Any) -> str:
    return str(page.locator(".tutor-present-position").text_content()).strip()


def _next_slide(page: Any) -> None:
    """Page Down until the bar names another slide (a question's slide first shows the
    room's counts, then its own answer if it holds one back)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    before = _position(page)
    for _ in range(3):
        page.keyboard.press("PageDown")
        try:
            page.wait_for_function(
                "before => document.querySelector('.tutor-present-position')"
                ".textContent.trim() !== before",
                arg=before,
                timeout=2_000,
            )
            return
        except PlaywrightTimeout:  # this press revealed something: press again
            continue
    raise AssertionError(f"Page Down did not leave {before!r}")


def _to_first_question(page: Any, *teachers: Lesson) -> Asked:
    """Page Down to the first slide that asks a lesson's question."""
    for _ in range(30):
        asked = _asked(page, *teachers)
        if asked is not None:
            return asked
        _next_slide(page)
    raise AssertionError("no slide asks a lesson's question")


def _room_state(page: Any, room_app: RoomApp) -> dict[str, Any]:
    """The room as its teacher's API gives it (with the teacher's cookie)."""
    response = page.request.get(room_app.server.url("/room/api/state?lang=en"))
    assert response.ok, response.text()
    return dict(response.json())


def _say(key: str, lang: str, **values: object) -> str:
    return text(f"projector.{key}", lang, **values)


# -- the learners' answers ----------------------------------------------------------------------


def _right(question: Question) -> Any:
    """The right answer as the room takes it: a choice's index, the indices, a number."""
    kind = question.answer_kind
    if kind is AnswerKind.NUMBER:
        return question.correct_answer()
    right = [i for i, choice in enumerate(question.choices()) if question.is_right_choice(choice)]
    return right[0] if kind is AnswerKind.ONE_CHOICE else right


def _wrong(question: Question) -> Any:
    kind = question.answer_kind
    right = _right(question)
    if kind is AnswerKind.NUMBER:
        return right + 1
    if kind is AnswerKind.ONE_CHOICE:
        return next(i for i in range(len(question.choices())) if i != right)
    wrong = sorted(set(range(len(question.choices()))) ^ {right[0]})  # one card more or less
    assert wrong != right
    return wrong


def _answer_words(question: Question, answer: Any, lang: str) -> str:
    """An answer as the learner's page writes it back ("Your answer is in: ...")."""
    if question.answer_kind is AnswerKind.NUMBER:
        return question.number_words(answer)
    indices = answer if isinstance(answer, list) else [answer]
    choices = question.choices()
    return join_words([question.choice_label(choices[i], lang) for i in indices], lang)


def _answer(learner: Learner, question: Question, answer: Any) -> None:
    """Answer on the learner's phone as a learner does (taps, or a number and Send), and wait
    until the page says the answer is in."""
    page = learner.page
    page.locator("main[data-state='open'], main[data-state='answered']").wait_for(
        timeout=STEP_TIMEOUT
    )
    kind = question.answer_kind
    if kind is AnswerKind.NUMBER:
        page.fill("#room-number", str(answer))
        page.locator(".room-number button[type=submit]").click()
    elif kind is AnswerKind.ONE_CHOICE:
        page.locator(f".room-choice[data-index='{answer}']").click()
    else:
        for index in range(len(question.choices())):
            choice = page.locator(f".room-choice[data-index='{index}']")
            if (choice.get_attribute("aria-pressed") == "true") != (index in answer):
                choice.click()
        page.locator("#room-send").click()
    _answered(learner, question, answer)


def _answered(learner: Learner, question: Question, answer: Any) -> None:
    from playwright.sync_api import expect

    words = unbroken(_answer_words(question, answer, learner.lang))  # as the phone words it
    expect(learner.page.locator("#room-status")).to_have_text(
        text("room.answered", learner.lang, answer=words), timeout=STEP_TIMEOUT
    )


def _expected_rows(
    question: Question, answers: list[Any], lang: str
) -> list[tuple[str, int, bool]]:
    """The projector's rows for these answers: every choice with how many answers include
    it, or every number given, most given first; and whether the engine says it is right."""
    if question.answer_kind is AnswerKind.NUMBER:
        given: dict[int, int] = {}
        for number in answers:
            given[number] = given.get(number, 0) + 1
        ordered = sorted(given.items(), key=lambda pair: (-pair[1], json.dumps(pair[0])))
        rows = [
            (question.number_words(number), count, number == question.correct_answer())
            for number, count in ordered
        ]
        if not any(is_right for _words, _count, is_right in rows):  # nobody gave it: shown, 0
            rows.append((question.number_words(question.correct_answer()), 0, True))
        return rows
    rows = []
    for index, choice in enumerate(question.choices()):
        count = sum(
            index in (answer if isinstance(answer, list) else [answer]) for answer in answers
        )
        rows.append((question.choice_label(choice, lang), count, question.is_right_choice(choice)))
    return rows


def _projector_shows(page: Any, question: Question, answers: list[Any], lang: str) -> None:
    """Wait until the projector's counts are these answers' (rows, counts, marks)."""
    wanted = [
        {"label": label, "mark": _say("right", lang) if is_right else "", "count": str(count)}
        for label, count, is_right in _expected_rows(question, answers, lang)
    ]
    wait_until(
        lambda: page.evaluate(_ROWS) == wanted,
        STEP_TIMEOUT,
        lambda: f"the projector's rows {page.evaluate(_ROWS)} to be {wanted}",
    )


_ROWS = """() => Array.from(document.querySelectorAll('.tutor-room-results .tutor-room-row'))
  .map((row) => ({
    label: row.querySelector('.tutor-room-label').firstChild.textContent,
    mark: (row.querySelector('.tutor-room-right') || {}).textContent || '',
    count: (row.querySelector('.tutor-room-count') || {}).textContent || null,
  }))"""


# -- the lesson with the room ------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_room_answers_on_phones_and_the_projector_shows_how(
    room_app: RoomApp, teacher: tuple[Any, PageLog], learners: list[Learner], lang: str
) -> None:
    """The presenter reaches a question; three learners answer it (one changes their answer,
    one reloads and keeps theirs); the projector counts them live, and at the reveal shows
    the counts and the right answer, as the learners' pages do; the keys hide the counts and
    reopen the question; the next slide moves the learners on."""
    from playwright.sync_api import expect

    page, log = teacher
    _present(page, room_app, LESSON_OF[lang], lang)
    status = page.locator(".tutor-present-room")
    asked = _to_first_question(page)
    question = asked.question
    # The slide's question is the room's now, and every phone shows it, in its own language.
    wait_until(
        lambda: (
            _room_state(page, room_app)["question"] is not None
            and _room_state(page, room_app)["question"]["key"] == asked.key
        ),
        STEP_TIMEOUT,
        f"the room opening {asked.key}",
    )
    for learner in learners:
        expect(learner.page.locator("#room-prompt")).to_have_text(
            unbroken(question.prompt(learner.lang)), timeout=STEP_TIMEOUT
        )
    state = _room_state(page, room_app)
    present = state["present"]
    assert state["answered"] == 0, "each language's lesson asks a question nobody answered yet"
    expect(status).to_have_text(_say("answered", lang, answered=0, present=present))

    right, wrong = _right(question), _wrong(question)
    first, changer, reloader = learners
    _answer(first, question, right)
    _answer(changer, question, wrong)
    _answer(changer, question, right)  # changed: only the last answer counts
    _answer(reloader, question, wrong)
    reloader.page.reload()
    _answered(reloader, question, wrong)  # the phone kept its key, and the answer
    answers = [right, right, wrong]
    expect(status).to_have_text(_say("answered", lang, answered=3, present=present))

    # The reveal: the counts, and the right answer marked in words, on the projector...
    page.keyboard.press("PageDown")
    results = page.locator(".tutor-room-results")
    expect(results).to_be_visible()
    expect(results.locator("h2")).to_have_text(question.prompt(lang))
    _projector_shows(page, question, answers, lang)
    expect(results).to_contain_text(
        _say("right-count", lang, right=2, answered=3), use_inner_text=True
    )
    # ... and on every phone: the learner's verdict, the right answer, the counts.
    for learner, answer in zip(learners, answers, strict=True):
        phone = learner.page
        expect(phone.locator("main")).to_have_attribute(
            "data-state", "revealed", timeout=STEP_TIMEOUT
        )
        verdict = "room.right" if answer == right else "room.wrong"
        expect(phone.locator(".room-verdict")).to_contain_text(text(verdict, learner.lang))
        if question.answer_kind is AnswerKind.NUMBER:
            expect(phone.locator(".room-reveal")).to_contain_text(
                text("room.right-answer-is", learner.lang, answer=question.number_words(right))
            )
        else:
            marked = phone.locator(".room-choice.is-right")
            expect(marked).to_have_count(len(right) if isinstance(right, list) else 1)
            expect(marked.first).to_contain_text(text("room.right-answer", learner.lang))
        expect(phone.locator(".room-counts")).to_be_visible()

    # H hides the counts, on the projector and the phones; H again shows them.
    page.keyboard.press("h")
    expect(results.locator(".tutor-room-count")).to_have_count(0)
    expect(results).to_contain_text(_say("counts-hidden", lang))
    expect(first.page.locator(".room-counts")).to_have_count(0, timeout=STEP_TIMEOUT)
    page.keyboard.press("h")
    _projector_shows(page, question, answers, lang)
    expect(first.page.locator(".room-counts")).to_be_visible(timeout=STEP_TIMEOUT)

    # R opens the question again: the phones may answer again, each answer still theirs.
    page.keyboard.press("r")
    expect(results).to_be_hidden()
    for learner, answer in zip(learners, answers, strict=True):
        _answered(learner, question, answer)
    _answer(reloader, question, right)
    expect(status).to_have_text(_say("answered", lang, answered=3, present=present))
    page.keyboard.press("PageDown")
    _projector_shows(page, question, [right, right, right], lang)

    # Moving on closes the question; the phones follow the projector.
    _next_slide(page)
    expect(results).to_be_hidden()
    following = _asked(page)
    for learner in learners:
        if following is None:
            expect(learner.page.locator("main")).to_have_attribute(
                "data-state", "waiting", timeout=STEP_TIMEOUT
            )
        else:
            expect(learner.page.locator("main")).to_have_attribute(
                "data-state", "open", timeout=STEP_TIMEOUT
            )
            expect(learner.page.locator("#room-prompt")).to_have_text(
                unbroken(following.question.prompt(learner.lang))
            )
            assert following.key != asked.key
    # Nicknames are the learners' words, never markup.
    assert all(
        learner["nickname"].endswith("<b>")
        for learner in _room_state(page, room_app)["learners"][-3:]
    )
    log.assert_clean()
    for learner in learners:
        learner.log.assert_clean()


# -- a lesson's quiz put to the room, from the start address ------------------------------------

_STAGE_CONTROLS = """() => [...document.querySelectorAll(
  '#rendered_cells .tutor-unit:not(.tutor-hidden) :is(button, input, select, textarea)')]
  .filter((control) => control.getClientRects().length).length"""


def test_a_teacher_puts_a_lessons_quiz_to_the_room_from_the_start_address(
    room_app: RoomApp, teacher: tuple[Any, PageLog], learners: list[Learner]
) -> None:
    """The start address opens a slide listing the lessons, each with its Present link, the
    join panel beside it. A lesson's quiz question is asked as the room sees it (none of a
    learner's controls on the projector); the phones answer in three languages; the presses
    reveal the counts, then the engine's why, then go on; the lesson's last slide shows how
    the room did (answered, right at the first answer), not the teacher's own browser."""
    from playwright.sync_api import expect

    page, log = teacher
    lang = "en"
    lesson = load_lesson("03")
    notebook = lesson_notebook("03")
    assert notebook is not None
    links = page.locator(".tutor-unit:not(.tutor-hidden) .tutor-present-start a")
    expect(links.first).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.locator(".tutor-room-join")).to_be_visible()
    assert links.count() >= 10, "every lesson of the course is listed"
    listed = page.locator(f'.tutor-present-start a[href^="{notebook.name}?"]')
    expect(listed).to_contain_text(lesson.title(lang))
    listed.click()
    page.wait_for_url(f"**/{notebook.name}?*present=1*", timeout=LOAD_TIMEOUT)
    page.locator(".tutor-present-bar .tutor-present-room").wait_for(timeout=LOAD_TIMEOUT)

    first = lesson.quiz[0]
    asking = page.locator(".tutor-unit:not(.tutor-hidden) .tutor-present-question")
    for _ in range(60):
        if asking.count() and _asked(page) is not None:
            break
        _next_slide(page)
    asked = _asked(page)
    assert asked is not None and asked.key == f"{lesson.id}/{first.id}", asked
    assert page.evaluate(_STAGE_CONTROLS) == 0, "a learner's controls on the projector"
    question = asked.question
    for learner in learners:
        expect(learner.page.locator("#room-prompt")).to_have_text(
            question.prompt(learner.lang), timeout=STEP_TIMEOUT
        )
    answers = [_right(question), _wrong(question), _right(question)]
    for learner, answer in zip(learners, answers, strict=True):
        _answer(learner, question, answer)
    present = _room_state(page, room_app)["present"]
    status = page.locator(".tutor-present-room")
    expect(status).to_have_text(_say("answered", lang, answered=3, present=present))

    why = page.locator(".tutor-unit:not(.tutor-hidden) .tutor-present-why")
    page.keyboard.press("PageDown")  # the counts
    _projector_shows(page, question, answers, lang)
    expect(why).to_be_hidden()
    page.keyboard.press("PageDown")  # the engine's answer and why
    expect(why).to_be_visible(timeout=STEP_TIMEOUT)
    expect(why).to_contain_text(revealed(question, question.correct_answer(), lang).answer)
    position = _position(page)
    page.keyboard.press("PageDown")  # the next slide
    expect(page.locator(".tutor-present-position")).not_to_have_text(position)

    result = page.locator(".tutor-unit:not(.tutor-hidden) .tutor-room-result")
    for _ in range(3 * len(lesson.quiz) + 5):
        if result.count():
            break
        _next_slide(page)
    expect(result).to_be_visible()
    rows = result.locator("li[data-item]")
    expect(rows).to_have_count(len(lesson.quiz))
    expect(rows.first).to_contain_text(_say("result-row", lang, answered=3, right=2))
    expect(result).not_to_contain_text("progress.jsonl")
    log.assert_clean()


# -- the room's panel and counts on the projector -----------------------------------------------

_ROOM_MEASURE = """(selector) => {
  const scale = Math.min(innerWidth / 1280, innerHeight / 720);
  const bar = document.querySelector('.tutor-present-bar').getBoundingClientRect();
  const root = document.querySelector(selector);
  const found = {smallest: Infinity, words: '', outside: [], scrolls: root.scrollHeight > root.clientHeight + 1, scale, shown: 0};
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) continue;
    found.shown += 1;
    const size = parseFloat(getComputedStyle(node.parentElement).fontSize);
    if (size < found.smallest) { found.smallest = size; found.words = node.textContent; }
    const inBar = root.closest('.tutor-present-bar');
    const bottom = inBar ? innerHeight : bar.top;
    if (box.left < -1 || box.right > innerWidth + 1 || box.top < -1 || box.bottom > bottom + 1) {
      found.outside.push(node.textContent.trim());
    }
  }
  root.querySelectorAll('img').forEach((img) => {
    const box = img.getBoundingClientRect();
    if (box.left < -1 || box.right > innerWidth + 1 || box.bottom > bar.top + 1) found.outside.push('img');
  });
  return found;
}"""


def _room_problems(page: Any, selector: str, where: str) -> list[str]:
    found = page.evaluate(_ROOM_MEASURE, selector)
    problems = []
    if not found["shown"]:
        problems.append(f"{where}: shows nothing")
    if found["smallest"] < MIN_TEXT * found["scale"] - 0.05:
        problems.append(
            f"{where}: text of {found['smallest'] / found['scale']:.1f} px ({found['words']!r})"
        )
    if found["outside"]:
        problems.append(f"{where}: off the screen or under the bar: {found['outside'][:3]}")
    if found["scrolls"]:
        problems.append(f"{where}: scrolls")
    return problems


ADDRESS_LINES = """(() => {
  // The join address as the projector draws it: its text, line by line, and whether a line
  // runs out of the panel (each character's box, from a Range over it).
  const address = document.querySelector(".tutor-room-join .tutor-room-address");
  const right = address.getBoundingClientRect().right;
  const lines = [];
  let top = null, wide = false;
  const walker = document.createTreeWalker(address, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let at = 0; at < node.length; at++) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + 1);
      const box = range.getBoundingClientRect();
      if (top === null || box.top > top + box.height / 2) { lines.push(""); top = box.top; }
      lines[lines.length - 1] += node.data[at];
      wide = wide || box.right > right + 0.5;
    }
  }
  return { lines, wide };
})()"""


@pytest.mark.parametrize("size", PROJECTORS, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_join_address_breaks_only_between_its_parts(
    room_app: RoomApp, teacher: tuple[Any, PageLog], size: tuple[int, int]
) -> None:
    """Seen at 1280x720: "http://192.0.2.2:9" / "100/room/UJUW", the port cut in two. The
    address may break after "//" and before a "/" of the path, never inside host:port."""
    from urllib.parse import urlsplit

    from playwright.sync_api import expect

    page, log = teacher
    page.set_viewport_size({"width": size[0], "height": size[1]})
    _present(page, room_app, "02", "en")
    address = page.locator(".tutor-room-join .tutor-room-address")
    expect(address).to_be_visible()
    join = _room_state(page, room_app)["join"]
    expect(address).to_have_text(join)
    drawn = page.evaluate(ADDRESS_LINES)
    assert "".join(drawn["lines"]) == join and not drawn["wide"], drawn
    parts = urlsplit(join)
    host_end = len(f"{parts.scheme}://{parts.netloc}")
    allowed = {f"{parts.scheme}://"}  # the line ends after "//", or before a "/" of the path
    allowed |= {join[:at] for at in range(host_end, len(join)) if join[at] == "/"}
    ends = {"".join(drawn["lines"][: n + 1]) for n in range(len(drawn["lines"]) - 1)}
    assert ends <= allowed, drawn["lines"]
    assert any(parts.netloc in line for line in drawn["lines"]), drawn["lines"]
    log.assert_clean()


@pytest.mark.parametrize("size", PROJECTORS, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_rooms_panel_and_counts_fit_the_projector_in_japanese(
    room_app: RoomApp, teacher: tuple[Any, PageLog], learners: list[Learner], size: tuple[int, int]
) -> None:
    """The first slide beside the join panel (the address, its QR code, the room code), a
    question's slide with the live count in the bar, and the room's counts at the reveal,
    in Japanese (the longest words): each fits the screen above the bar, with no text
    under 24 px at 1280x720 (36 px at 1920x1080), and the slide is measured as every slide."""
    from playwright.sync_api import expect

    page, log = teacher
    page.set_viewport_size({"width": size[0], "height": size[1]})
    _present(page, room_app, "02", "ja")
    panel = page.locator(".tutor-room-join")
    expect(panel).to_be_visible()
    expect(panel.locator(".tutor-room-code strong")).to_have_text(room_app.code)
    expect(panel.locator("img.tutor-room-qr")).to_have_js_property("complete", True)
    assert page.evaluate("document.querySelector('img.tutor-room-qr').naturalWidth") > 0
    page.wait_for_timeout(300)  # the stage narrowed beside the panel: refitted at a frame
    screen = page.evaluate(MEASURE)
    problems = _problems(screen, "the first slide beside the join panel")
    problems += _room_problems(page, ".tutor-room-join", "the join panel")
    stage = page.evaluate("document.getElementById('rendered_cells').getBoundingClientRect().right")
    assert stage <= panel.bounding_box()["x"] + 1, "the join panel covers the slide"

    asked = _to_first_question(page)
    expect(panel).to_be_hidden()
    wait_until(
        lambda: (
            _room_state(page, room_app)["question"] is not None
            and _room_state(page, room_app)["question"]["key"] == asked.key
        ),
        STEP_TIMEOUT,
        f"the room opening {asked.key}",
    )
    state = _room_state(page, room_app)  # answers of an earlier run are kept
    _answer(learners[0], asked.question, _right(asked.question))
    _answer(learners[1], asked.question, _wrong(asked.question))
    expect(page.locator(".tutor-present-room")).to_have_text(
        _say("answered", "ja", answered=state["answered"] + 2, present=state["present"])
    )
    screen = page.evaluate(MEASURE)
    problems += _problems(screen, "the question's slide")
    problems += _room_problems(page, ".tutor-present-room", "the room's line in the bar")
    # J shows the join panel beside a question's slide too (J again hides it).
    page.keyboard.press("j")
    expect(panel).to_be_visible()
    problems += _room_problems(page, ".tutor-room-join", "the join panel on a question")
    page.keyboard.press("j")
    expect(panel).to_be_hidden()

    page.keyboard.press("PageDown")
    expect(page.locator(".tutor-room-results .tutor-room-count")).to_have_count(
        len(asked.question.choices())
    )
    problems += _room_problems(page, ".tutor-room-results", "the room's counts")
    assert problems == []
    log.assert_clean()


def test_a_teachers_own_lesson_asks_the_room_its_examples_and_its_quiz(
    room_app: RoomApp, teacher: tuple[Any, PageLog], learners: list[Learner]
) -> None:
    """A teacher's lesson (``--lessons``, as ``new-lesson`` writes it): its example that
    asks and its quiz's question each go to the room when the presenter reaches them."""
    from playwright.sync_api import expect

    from tutor.teaching.lesson_loader import load_lesson_file

    page, log = teacher
    lesson = load_lesson_file(room_app.teacher_lesson)
    asking = [
        item
        for section in lesson.sections
        for item in section.examples
        if isinstance(item.subject, Question)
    ]
    assert asking and lesson.quiz, "the starter lesson has an example that asks and a quiz"
    page.goto(
        room_app.server.render_url(f"{lesson.id}.ipynb", "present=1&lang=en"), timeout=LOAD_TIMEOUT
    )
    page.locator(".tutor-present-bar .tutor-present-room").wait_for(timeout=LOAD_TIMEOUT)

    asked = _to_first_question(page, lesson)
    assert asked.key == f"{lesson.id}/{asking[0].id}"
    wait_until(
        lambda: (_room_state(page, room_app)["question"] or {}).get("key") == asked.key,
        STEP_TIMEOUT,
        f"the room opening {asked.key}",
    )
    state = _room_state(page, room_app)
    _answer(learners[0], asked.question, _right(asked.question))
    expect(page.locator(".tutor-present-room")).to_have_text(
        _say("answered", "en", answered=state["answered"] + 1, present=state["present"])
    )

    # The quiz's last question: the slide before the quiz's summary, the last slide.
    page.keyboard.press("End")
    for _ in range(3):
        quiz_asked = _asked(page, lesson)
        if quiz_asked is not None:
            break
        page.keyboard.press("PageUp")
    assert quiz_asked is not None
    assert quiz_asked.key == f"{lesson.id}/{lesson.quiz[-1].id}"
    for learner in learners:
        expect(learner.page.locator("#room-prompt")).to_have_text(
            unbroken(quiz_asked.question.prompt(learner.lang)), timeout=STEP_TIMEOUT
        )
    log.assert_clean()


def test_a_request_the_room_refuses_is_said_on_the_projector(
    room_app: RoomApp, teacher: tuple[Any, PageLog]
) -> None:
    """When the room refuses to open the slide's question (here: the server's answer to
    the open request replaced by a refusal), the bar's room line says so, with the
    room's reason, in the projector's language, instead of a count that is not there."""
    from playwright.sync_api import expect

    page, log = teacher
    reason = "no item 'nowhere' in lesson '02_trump'"
    page.route(
        "**/room/api/open*",
        lambda route: route.fulfill(
            status=404,
            content_type="application/json",
            body=json.dumps({"error": {"code": "unknown-question", "message": reason}}),
        ),
    )
    _present(page, room_app, "02", "zh-Hant")
    _to_first_question(page)
    expect(page.locator(".tutor-present-room")).to_have_text(
        _say("failed", "zh-Hant", reason=reason)
    )
    assert [error for error in log.errors if "404" not in error] == []


def test_a_learner_presenting_on_their_own_sees_no_room_and_no_refusal(
    room_app: RoomApp, browser: Any
) -> None:
    """A learner of the classroom (the classroom token, not the teacher's cookie) who opens
    presenter mode: the projector asks the room whether this is the teacher's browser and
    is told no with a 200, so the learner's console shows no error and no request of the
    page fails; presenter mode is as it is without a room."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    log = PageLog()
    log.attach(page)
    refused: list[str] = []
    page.on(
        "response", lambda r: refused.append(f"{r.status} {r.url}") if r.status >= 400 else None
    )
    page.on("requestfailed", lambda request: refused.append(f"failed {request.url}"))
    notebook = lesson_notebook("06")
    assert notebook is not None
    token = room_app.server.token()
    with page.expect_response(lambda r: "/room/api/probe" in r.url, timeout=LOAD_TIMEOUT) as probe:
        page.goto(
            room_app.server.render_url(notebook.name, f"present=1&token={token}"),
            timeout=LOAD_TIMEOUT,
        )
    assert probe.value.status == 200 and probe.value.json() == {"teacher": False}
    page.locator(".tutor-present-bar .tutor-present-position").wait_for(timeout=LOAD_TIMEOUT)
    page.wait_for_load_state("networkidle", timeout=LOAD_TIMEOUT)
    assert page.locator(".tutor-present-room").count() == 0
    assert refused == []
    log.assert_clean()
    context.close()
