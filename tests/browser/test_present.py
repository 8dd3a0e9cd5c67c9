"""Presenter mode on a classroom projector: every slide of every lesson and every step of
the worked example, at 1280x720 and 1920x1080, in every language.

Each lesson page is walked forward with Page Down (what a presentation clicker sends) at
1280x720, then back with Page Up at 1920x1080. On every screen (present_measure.js):

- something is shown: no slide is blank;
- nothing runs off the stage or under the control bar, and nothing scrolls;
- no text is smaller than MIN_TEXT CSS px at 1280x720 (in proportion on a larger screen),
  and no card smaller than MIN_CARD_FACE, so its corners read from the back of a room;
- the slide fills the stage across or down, or is already at its largest magnification;
- the bar's controls are exactly where they were on the first screen;
- a slide that asks the room ("Who takes this trick?") holds the engine's answer back,
  and the next press reveals it.

The expected questions and answers come from the lessons and the engine, in the page's
language.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tutor.teaching.explain import card_name
from tutor.teaching.lesson import Lesson
from tutor.teaching.lesson_loader import list_lessons, load_lesson
from tutor.teaching.question import revealed
from tutor.teaching.quiz import Question
from tutor.teaching.text import LANGUAGES, join_words, text
from tutor.teaching.worked_example import StepKind, worked_example

from .app_process import AppServer
from .conftest import PageLog, lesson_notebook

pytestmark = pytest.mark.browser

MIN_TEXT = 24.0
"""The smallest text on a slide, in CSS px at 1280x720 (tutor-slides.js MIN_TEXT)."""
MIN_CARD_FACE = 140.0
"""The smallest card face on a slide, in CSS px at 1280x720: its corner index is 19 px."""
FILLED = 0.8
"""A slide covers at least this share of the stage across or down, unless it is already
at its largest magnification."""
SIZES = ((1280, 720), (1920, 1080))
WORKED_EXAMPLE_LESSON = "08_worked_example"
"""The lesson whose page is the worked example's stepper."""
LOAD_TIMEOUT = 90_000  # ms: a page waits for its kernel to run the notebook
STEP_TIMEOUT = 30_000  # ms: a press shows its slide at once; a stepper's page needs the kernel

MEASURE = (Path(__file__).with_name("present_measure.js")).read_text(encoding="utf-8")


def _lessons() -> list[Lesson]:
    return [lesson for lesson in list_lessons() if lesson_notebook(f"{lesson.number:02d}")]


def _asked(lesson: Lesson, lang: str) -> list[tuple[str, str]]:
    """What the page asks the room, in order, and (part of) the answer it then reveals:
    every example that is a question, on the worked example's page every card played
    ("Which cards may C play?") and every trick ("Who takes this trick?"), then every
    question of the quiz."""
    asked = [
        (item.subject.prompt(lang), item.subject.answer_text(lang))
        for section in lesson.sections
        for item in section.examples
        if isinstance(item.subject, Question)
    ]
    if lesson.id == WORKED_EXAMPLE_LESSON:
        for step in worked_example(lang).steps:
            if step.kind is StepKind.PLAY and step.played is not None:
                player = step.played.player
                legal = join_words([card_name(card, lang) for card in step.legal], lang)
                asked.append(
                    (
                        text("presenter.ask-play", lang, player=player),
                        text("presenter.may-play", lang, player=player, cards=legal),
                    )
                )
            elif step.kind is StepKind.TRICK:
                asked.append((text("presenter.ask-trick", lang), step.sentences[0]))
    # then the quiz, each question put to the room, its answer and why held back
    asked += [
        (
            item.question.prompt(lang),
            revealed(item.question, item.question.correct_answer(), lang).answer,
        )
        for item in lesson.quiz
    ]
    return asked


def _squeezed(words: str) -> str:
    """Text as the page's answer holds it: list items without their "- ", no spaces."""
    return re.sub(r"\s+", "", re.sub(r"^- ", "", words, flags=re.MULTILINE))


def _state(page: Any) -> tuple[str, bool]:
    return page.evaluate(
        "[document.querySelector('.tutor-present-position').textContent.trim(),"
        " document.body.classList.contains('tutor-holding')]"
    )


def _press(page: Any, key: str) -> None:
    """Press ``key`` and wait until the screen changed (a new slide, step or reveal)."""
    _until_changed(page, lambda: page.keyboard.press(key))


def _until_changed(page: Any, action: Callable[[], object]) -> None:
    """Do ``action`` and wait until the screen changed (a new slide, step or reveal), and
    a quiz question on it is built (its stand-in shows until the kernel has built it)."""
    before = _state(page)
    action()
    page.wait_for_function(
        "([position, holding]) =>"
        " (document.querySelector('.tutor-present-position').textContent.trim() !== position"
        " || document.body.classList.contains('tutor-holding') !== holding)"
        " && !document.querySelector('.tutor-unit:not(.tutor-hidden) .tutor-reach')",
        arg=list(before),
        timeout=STEP_TIMEOUT,
    )


def _present_at_720p(page: Any, app: AppServer, number: str, query: str = "") -> None:
    """Open lesson ``number`` presenting on a 1280x720 projector, its control bar shown."""
    notebook = lesson_notebook(number)
    assert notebook is not None
    page.set_viewport_size({"width": 1280, "height": 720})
    url = app.render_url(notebook.name, f"present=1&{query}" if query else "present=1")
    page.goto(url, timeout=LOAD_TIMEOUT)
    page.locator(".tutor-present-bar").wait_for(timeout=LOAD_TIMEOUT)
    # The page drawn to its end: every quiz question's slide is there (slides are counted
    # from what is drawn).
    page.wait_for_function(
        "count => document.querySelectorAll('.tutor-present-question').length === count",
        arg=len(load_lesson(number).quiz),
        timeout=LOAD_TIMEOUT,
    )


def _slide_number(position: str, lang: str) -> tuple[int, int] | None:
    """(3, 11) for the bar's "Slide 3 of 11"; ``None`` for a stepper's "Step 7 of 20"."""
    numbers = [int(n) for n in re.findall(r"\d+", position)]
    if len(numbers) != 2:
        return None
    slide = text("present.position", lang, number=numbers[0], total=numbers[1])
    return (numbers[0], numbers[1]) if position == slide else None


def _problems(screen: dict[str, Any], where: str) -> list[str]:
    """What is wrong with one measured screen, in words."""
    found = []
    scale = screen["scale"]
    if not screen["shown"]:
        found.append(f"{where}: blank: no words, picture or control on the stage")
    if screen["outside"]:
        found.append(f"{where}: runs off the stage: {screen['outside'][:3]}")
    if screen["scrolling"]:
        found.append(f"{where}: scrolls: {screen['scrolling'][:3]}")
    if screen["smallestText"] < MIN_TEXT * scale - 0.05:
        found.append(
            f"{where}: text of {screen['smallestText'] / scale:.1f} px at 1280x720 "
            f"({screen['smallestTextWords']!r})"
        )
    if screen["smallestCard"] < MIN_CARD_FACE * scale - 0.5:
        found.append(f"{where}: a card {screen['smallestCard'] / scale:.0f} px tall at 1280x720")
    at_largest = screen["zoom"] >= screen["maxZoom"] - 0.01
    if not at_largest and max(screen["fillWidth"], screen["fillHeight"]) < FILLED:
        found.append(
            f"{where}: fills {screen['fillWidth']:.0%} across, {screen['fillHeight']:.0%} down"
        )
    if screen["barText"] < MIN_TEXT * scale - 0.05:
        found.append(f"{where}: the bar's position is {screen['barText']:.1f} px")
    if screen["holding"] and (screen["answersSeen"] or not screen["asks"]):
        found.append(f"{where}: holds its answer back, but shows it or asks nothing")
    if not screen["holding"] and screen["beforeSeen"]:
        found.append(f"{where}: the answer is out, but the unanswered picture still shows")
    return found


def _resize(page: Any, width: int, height: int) -> None:
    """Give the page another screen size, and wait until the slide was fitted to it (its
    magnification follows the screen's scale)."""
    zoom = page.evaluate(
        "document.getElementById('rendered_cells').firstElementChild.currentCSSZoom"
    )
    before = min(page.viewport_size["width"] / 1280, page.viewport_size["height"] / 720)
    after = min(width / 1280, height / 720)
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(
        "(wanted) => Math.abs("
        "document.getElementById('rendered_cells').firstElementChild.currentCSSZoom - wanted"
        ") < 0.02 * wanted",
        arg=zoom * after / before,
        timeout=STEP_TIMEOUT,
    )


def _frames(page: Any, count: int) -> None:
    """Wait until the page has drawn ``count`` more frames."""
    page.evaluate(
        "count => new Promise(done => { const step = left => left ? "
        "requestAnimationFrame(() => step(left - 1)) : done(); step(count); })",
        count,
    )


def _walk(page: Any, key: str, lang: str) -> list[dict[str, Any]]:
    """Every screen from here to the end (Page Down) or the start (Page Up), measured."""
    screens = [page.evaluate(MEASURE)]
    while True:
        slide = _slide_number(screens[-1]["position"], lang)
        at_end = slide is not None and slide[0] == (slide[1] if key == "PageDown" else 1)
        if at_end and not screens[-1]["holding"]:
            return screens
        _press(page, key)
        screens.append(page.evaluate(MEASURE))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("lesson", _lessons(), ids=lambda lesson: f"{lesson.number:02d}")
def test_every_slide_fits_the_projector_and_asks_before_it_answers(
    app: AppServer, page: tuple[Any, PageLog], lesson: Lesson, lang: str
) -> None:
    browser_page, log = page
    notebook = lesson_notebook(f"{lesson.number:02d}")
    assert notebook is not None
    width, height = SIZES[0]
    browser_page.set_viewport_size({"width": width, "height": height})
    url = app.render_url(notebook.name, f"present=1&lang={lang}")
    browser_page.goto(url, timeout=LOAD_TIMEOUT)
    browser_page.locator(".tutor-present-bar").wait_for(timeout=LOAD_TIMEOUT)

    # The bar speaks the page's language (the catalog's words), as does <html lang>.
    labels = browser_page.evaluate(
        "[...document.querySelectorAll('.tutor-present-bar .tutor-label')]"
        ".map(label => label.textContent)"
    )
    assert labels == [
        text(f"present.{key}", lang)
        for key in ("back", "next", "show-answer", "show-counts", "show-why", "exit")
    ]
    assert browser_page.evaluate("document.documentElement.lang") == lang

    forward = _walk(browser_page, "PageDown", lang)
    _resize(browser_page, *SIZES[1])
    backward = _walk(browser_page, "PageUp", lang)

    problems: list[str] = []
    for (width, height), screens in zip(SIZES, (forward, backward), strict=True):
        for screen in screens:
            where = f"{width}x{height} {screen['position']}" + (
                " (asking)" if screen["holding"] else ""
            )
            problems += _problems(screen, where)
            if screen["controls"] != screens[0]["controls"]:
                problems.append(f"{where}: the bar's controls moved")
    assert problems == [], "\n".join(problems)
    # The figures for a report (pytest -s): screens seen, and the smallest text and card
    # face on any of them, in CSS px at 1280x720.
    every = forward + backward
    print(
        f"\n[present] {lesson.id} {lang}: {len(forward)} + {len(backward)} screens;"
        f" smallest text {min(s['smallestText'] / s['scale'] for s in every):.1f} px,"
        f" smallest card {min(s['smallestCard'] / s['scale'] for s in every):.0f} px"
    )

    # Both ways saw the same screens; going forward, each press showed a new slide or step
    # (or the answer of the one shown), never one seen before.
    assert [(s["position"], s["holding"]) for s in forward] == [
        (s["position"], s["holding"]) for s in reversed(backward)
    ]
    positions = [s["position"] for s in forward]
    shown = [p for i, p in enumerate(positions) if i == 0 or p != positions[i - 1]]
    assert len(shown) == len(set(shown)) >= len(lesson.sections) + 1

    # Everything that asks something asked the room, in order, and the next press showed
    # the engine's answer and reason.
    expected = _asked(lesson, lang)
    asking = [s for s in forward if s["holding"]]
    assert [s["asks"] for s in asking] == [[ask] for ask, _ in expected]
    for screen, (_, answer) in zip(asking, expected, strict=True):
        revealed = forward[forward.index(screen) + 1]
        assert revealed["position"] == screen["position"] and not revealed["holding"]
        assert any(_squeezed(answer) in shown for shown in revealed["answers"]), answer
        assert revealed["answersSeen"] == len(revealed["answers"])
    log.assert_clean()


def _visible_label(page: Any) -> str:
    """The words the bar's Next button shows now ("Next", or "Show the answer")."""
    return page.evaluate(
        "[...document.querySelectorAll('.tutor-present-next .tutor-label')]"
        ".find(label => getComputedStyle(label).visibility === 'visible').textContent"
    )


def test_a_clicker_the_keyboard_and_the_bar_drive_the_slides(
    app: AppServer, page: tuple[Any, PageLog]
) -> None:
    """Clickers send Page Down / Page Up or the arrow keys; a keyboard also has Space,
    Home and End; the bar's buttons do the same. B blanks the screen, F5 (a clicker's
    "start show" button) does not reload the page, Escape leaves presenter mode."""
    from playwright.sync_api import expect

    browser_page, log = page
    _present_at_720p(browser_page, app, "06")
    position = browser_page.locator(".tutor-present-position")
    expect(position).to_have_text(re.compile(r"^Slide 1 of \d+$"))
    total = int(position.inner_text().split()[-1])
    browser_page.evaluate("window.tutorTestMarker = 'still this page'")

    def screen() -> tuple[int, bool]:
        shown, holding = _state(browser_page)
        return int(shown.split()[1]), holding

    for key in ("PageDown", "ArrowRight", "ArrowDown", "Space", "PageDown", "PageDown"):
        before = screen()
        _press(browser_page, key)
        after = screen()
        # Forward: the next slide, or the answer of the one that asked.
        assert after == (before[0] + 1, after[1]) or after == (before[0], False), key
        assert _visible_label(browser_page) == text(
            "present." + ("show-answer" if after[1] else "next")
        )
    for key in ("PageUp", "ArrowLeft", "ArrowUp", "Shift+Space"):
        before = screen()
        _press(browser_page, key)
        after = screen()
        # Back: the question again (answer hidden), or the slide before, answered.
        assert after == (before[0], True) or after == (before[0] - 1, False), key

    before = _state(browser_page)
    _until_changed(browser_page, browser_page.locator(".tutor-present-next").click)
    _until_changed(browser_page, browser_page.locator(".tutor-present-back").click)
    assert _state(browser_page) == before

    browser_page.keyboard.press("End")
    expect(position).to_have_text(f"Slide {total} of {total}")
    browser_page.keyboard.press("Home")
    expect(position).to_have_text(f"Slide 1 of {total}")

    # B blanks the screen; the next press brings the same slide back.
    browser_page.keyboard.press("b")
    expect(browser_page.locator("body")).to_have_class(re.compile(r"\btutor-blank\b"))
    assert (
        browser_page.evaluate("getComputedStyle(document.body, '::after').backgroundColor")
        == "rgb(0, 0, 0)"
    )
    browser_page.keyboard.press("PageDown")
    expect(browser_page.locator("body")).not_to_have_class(re.compile(r"\btutor-blank\b"))
    expect(position).to_have_text(f"Slide 1 of {total}")

    browser_page.keyboard.press("F5")
    browser_page.wait_for_timeout(500)
    assert browser_page.evaluate("window.tutorTestMarker") == "still this page"
    log.assert_clean()

    browser_page.keyboard.press("Escape")  # leaves presenter mode: the page reloads without it
    browser_page.wait_for_url(re.compile(r"06_[a-z_]+\.ipynb$"), timeout=LOAD_TIMEOUT)
    browser_page.locator(".jp-Cell").first.wait_for(timeout=LOAD_TIMEOUT)
    expect(browser_page.locator(".tutor-present-bar")).to_have_count(0)


def test_the_bar_drives_the_worked_examples_stepper(
    app: AppServer, page: tuple[Any, PageLog]
) -> None:
    """One set of controls: the stepper's own Back, Next, position, presenter toggle and
    key hint are not on the screen; the bar steps it and shows "Step 7 of 20"."""
    from playwright.sync_api import expect

    browser_page, log = page
    _present_at_720p(browser_page, app, "08")
    position = browser_page.locator(".tutor-present-position")
    expect(position).to_have_text(re.compile(r"^Slide 1 of \d+$"))
    total = int(position.inner_text().split()[-1])
    _press(browser_page, "PageDown")
    count = len(worked_example().steps)

    def step(number: int) -> str:
        return text("stepper.position", number=number, total=count)

    expect(position).to_have_text(step(1))
    stepper = browser_page.locator(".tutor-stepper")
    for hidden in ("button", ".tutor-step-position", ".tutor-step-keys"):
        assert (
            stepper.locator(hidden).evaluate_all(
                "nodes => nodes.filter(node => node.offsetParent !== null).length"
            )
            == 0
        ), hidden
    browser_page.locator(".tutor-present-next").click()  # the deal asks nothing: next step
    expect(position).to_have_text(step(2))
    steps_seen = {step(1), step(2)}
    while position.inner_text() != step(count) or _state(browser_page)[1]:
        _press(browser_page, "PageDown")
        steps_seen.add(position.inner_text())
    assert steps_seen == {step(n) for n in range(1, count + 1)}
    _press(browser_page, "PageDown")  # after the last step: the tricks at a glance
    expect(browser_page.locator(".tutor-unit:not(.tutor-hidden) .tricks-summary")).to_be_visible()
    at_a_glance = position.inner_text()
    # then the quiz about the example (issue 31): its first question comes next
    first_note = load_lesson(WORKED_EXAMPLE_LESSON).quiz[0].note
    assert first_note is not None
    shown_note = browser_page.locator(".tutor-unit:not(.tutor-hidden) .tutor-quiz-note")
    for _ in range(3):  # the quiz's heading may be a slide of its own
        _press(browser_page, "PageDown")
        if shown_note.count():
            break
    expect(shown_note.first).to_have_text(first_note("en"))
    assert position.inner_text() != f"Slide {total} of {total}"  # more questions follow
    while position.inner_text() != at_a_glance:
        _press(browser_page, "PageUp")
    _press(browser_page, "PageUp")
    expect(position).to_have_text(step(count))
    log.assert_clean()


_STEP_ON_THE_PAGE = """() => {
  const stepper = document.querySelector('.tutor-stepper');
  const step = stepper.querySelector('.tutor-step-page section, .tutor-step-page .tutor-present-step');
  const cut = [];
  stepper.querySelectorAll('.tutor-step-page .tutor-scroll').forEach((box) => {
    if (box.scrollWidth > box.clientWidth + 1) cut.push(box.getAttribute('aria-label'));
  });
  stepper.querySelectorAll('.tutor-step-page th, .tutor-step-page td').forEach((cell) => {
    if (cell.getBoundingClientRect().right > innerWidth + 1) cut.push(cell.textContent.trim());
  });
  return {
    position: stepper.querySelector('.tutor-step-position').textContent.trim(),
    width: step.getBoundingClientRect().width,
    room: stepper.querySelector('.tutor-step-page').getBoundingClientRect().width,
    cut,
  };
}"""


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_worked_examples_own_presenter_mode_uses_the_page_and_cuts_nothing(
    app: AppServer, page: tuple[Any, PageLog], size: tuple[int, int]
) -> None:
    """The stepper's "Presenter mode" button on the learner's page (not ?present=1): every
    step, the score sheet of the last one included, takes the page's width and nothing
    in it is cut or scrolls."""
    from playwright.sync_api import expect

    browser_page, log = page
    browser_page.set_viewport_size({"width": size[0], "height": size[1]})
    notebook = lesson_notebook("08")
    assert notebook is not None
    browser_page.goto(app.render_url(notebook.name), timeout=LOAD_TIMEOUT)
    toggle = browser_page.get_by_role("button", name=text("stepper.present"), exact=True)
    toggle.click(timeout=LOAD_TIMEOUT)
    expect(browser_page.locator(".tutor-stepper.tutor-present")).to_have_count(1)
    position = browser_page.locator(".tutor-step-position")
    count = len(worked_example().steps)
    problems = []
    for number in range(1, count + 1):
        expect(position).to_have_text(text("stepper.position", number=number, total=count))
        expect(
            browser_page.locator(".tutor-step-page .is-big, .tutor-present-step")
        ).not_to_have_count(0)
        seen = browser_page.evaluate(_STEP_ON_THE_PAGE)
        if seen["cut"]:
            problems.append(f"{seen['position']}: cut: {seen['cut'][:4]}")
        if seen["width"] < 0.9 * seen["room"]:
            problems.append(f"{seen['position']}: {seen['width']:.0f} of {seen['room']:.0f} px")
        if number < count:
            browser_page.locator("button.tutor-step-next").click()
    assert problems == [], "\n".join(problems)
    log.assert_clean()
