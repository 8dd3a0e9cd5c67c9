"""A teacher presents every lesson on a projector, in every host with presenter mode:
``?present=1``, then every slide in turn with the keyboard (Page Down, as a clicker
sends, at 1280x720; the right arrow at 1920x1080). On every screen something is shown
(words or a card picture: never a blank slide) and nothing is cut: everything inside the
stage above the control bar, nothing scrolling (tests/browser/present_measure.js).

One page per lesson and screen size; the deeper checks of presenter mode (text and card
sizes, the bar's controls, asking before answering, every language) are in
tests/browser/test_present.py.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tutor.resources import notebooks_dir
from tutor.teaching.lesson import Lesson
from tutor.teaching.lesson_loader import list_lessons, load_lesson
from tutor.teaching.question import revealed
from tutor.teaching.text import text

from .hosts import ACTION_TIMEOUT, Host
from .presenter import press

SIZES = ((1280, 720, "PageDown"), (1920, 1080, "ArrowRight"))
"""Each projector size, with the key that steps forward there."""
MOST_SCREENS = 200
"""More screens than any lesson has: a walk that never reaches the end stops here."""

MEASURE = (Path(__file__).parents[1] / "browser" / "present_measure.js").read_text(encoding="utf-8")

# What the room sees on the stage now: the words and the pictures (svg, img) that are
# displayed, not hidden, not clipped away (screen-reader-only words), and on the screen.
SHOWN = """() => {
  const stage = document.getElementById("rendered_cells");
  const hidden = new Map();
  const isHidden = (node) => {
    if (!node || node === document.body) return false;
    if (!hidden.has(node)) {
      const style = getComputedStyle(node);
      hidden.set(node, style.display === "none" || style.visibility === "hidden" ||
        style.opacity === "0" || (style.clip && style.clip !== "auto") ||
        isHidden(node.parentElement));
    }
    return hidden.get(node);
  };
  const onScreen = (box) => box.width > 1 && box.height > 1 && box.bottom > 0 &&
    box.right > 0 && box.top < innerHeight && box.left < innerWidth;
  const words = [];
  const walker = document.createTreeWalker(stage, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.textContent.trim() || !parent || parent.closest("style, script, title")) continue;
    if (isHidden(parent)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    if ([...range.getClientRects()].some(onScreen)) words.push(node.textContent.trim());
  }
  const pictures = [...stage.querySelectorAll("svg, img")].filter(
    (picture) => !isHidden(picture) && onScreen(picture.getBoundingClientRect())
  ).length;
  return {words: words.join(" ").slice(0, 80), pictures};
}"""


def _lessons() -> list[Lesson]:
    return [lesson for lesson in list_lessons() if list(notebooks_dir().glob(f"{lesson.id}.ipynb"))]


def _slide(position: str) -> tuple[int, int] | None:
    """(3, 11) for the bar's "Slide 3 of 11"; ``None`` for a stepper's "Step 7 of 20"."""
    numbers = [int(n) for n in re.findall(r"\d+", position)]
    if len(numbers) != 2:
        return None
    slide = text("present.position", number=numbers[0], total=numbers[1])
    return (numbers[0], numbers[1]) if position == slide else None


def _problems(screen: dict[str, Any], shown: dict[str, Any], where: str) -> list[str]:
    found = []
    if not shown["words"] and not shown["pictures"]:
        found.append(f"{where}: blank (no words, no picture)")
    if screen["outside"]:
        found.append(f"{where}: cut, runs off the stage: {screen['outside'][:3]}")
    if screen["scrolling"]:
        found.append(f"{where}: scrolls: {screen['scrolling'][:3]}")
    return found


@pytest.mark.parametrize(("width", "height", "key"), SIZES, ids=[f"{w}x{h}" for w, h, _ in SIZES])
@pytest.mark.parametrize("lesson", _lessons(), ids=lambda lesson: lesson.id[:2])
def test_every_slide_shows_something_and_nothing_is_cut(
    presenter_host: Host, page: Any, lesson: Lesson, width: int, height: int, key: str
) -> None:
    started = time.monotonic()
    page.set_viewport_size({"width": width, "height": height})
    presenter_host.open(page, f"{lesson.id}.ipynb", present=True)
    page.locator(".tutor-present-bar").wait_for(timeout=ACTION_TIMEOUT)
    problems: list[str] = []
    screens: list[tuple[str, bool]] = []
    while True:
        screen = page.evaluate(MEASURE)
        shown = page.evaluate(SHOWN)
        state = (screen["position"], screen["holding"])
        screens.append(state)
        where = f"{width}x{height} {state[0]}" + (" (asking)" if state[1] else "")
        problems += _problems(screen, shown, where)
        slide = _slide(state[0])
        if slide is not None and slide[0] == slide[1] and not state[1]:
            break
        assert len(screens) < MOST_SCREENS, f"never reached the last slide: {screens[-3:]}"
        press(page, key)
    assert problems == [], "\n".join(problems)
    # Every slide was seen, in order; a stepper's slide (the worked example) shows its
    # steps instead ("Step 7 of 20"), every one of them.
    positions = list(dict.fromkeys(position for position, _ in screens))
    slides = [slide[0] for position in positions if (slide := _slide(position)) is not None]
    steps = [position for position in positions if _slide(position) is None]
    total = slides[-1]
    assert slides == sorted(set(slides)), positions
    if steps:
        count = len(steps)
        assert steps == [
            text("stepper.position", number=n, total=count) for n in range(1, count + 1)
        ]
        assert len(slides) == total - 1, positions
    else:
        assert slides == list(range(1, total + 1)), positions
    print(
        f"\n[present-scenario] {presenter_host.name} {lesson.id} {width}x{height}:"
        f" {len(screens)} screens in {time.monotonic() - started:.0f} s"
    )


# -- the start slide, and a quiz question without a room ----------------------------------------

STAGE_CONTROLS = """() => [...document.querySelectorAll(
  '#rendered_cells .tutor-unit:not(.tutor-hidden) :is(button, input, select, textarea)')]
  .filter((control) => control.getClientRects().length).length"""


def _next_words(page: Any) -> str:
    """The words of the bar's Next button that show (it holds one label per press)."""
    return str(
        page.evaluate(
            "[...document.querySelectorAll('.tutor-present-next > .tutor-label')]"
            ".find((label) => getComputedStyle(label).visibility === 'visible').textContent"
        )
    )


def test_the_presented_course_page_lists_the_lessons_to_present(
    presenter_host: Host, page: Any
) -> None:
    """The course page presented (where a teacher's start address lands) is one slide: the
    course's lessons in order, each a link that presents it, and nothing of one learner's."""
    from tutor.display.context import Frontend, PageContext
    from tutor.display.course import course_entries

    page.set_viewport_size({"width": 1280, "height": 720})
    presenter_host.open(page, "index.ipynb", lang="ja", present=True)
    page.locator(".tutor-present-bar").wait_for(timeout=ACTION_TIMEOUT)
    context = PageContext("ja", Frontend.APP, presenting=True)
    wanted = [
        (entry.title, context.present_link(entry.file))
        for entry in course_entries(notebooks_dir(), lang="ja")
        if entry.lesson is not None
    ]
    links = page.locator(".tutor-unit:not(.tutor-hidden) .tutor-present-start a")
    # the static site links a page's .html where the app links its notebook
    shown = [
        (link.text_content(), str(link.get_attribute("href")).replace(".html?", ".ipynb?"))
        for link in links.all()
    ]
    assert shown == wanted
    assert page.evaluate(STAGE_CONTROLS) == 0
    screen = page.evaluate(MEASURE)
    assert _problems(screen, page.evaluate(SHOWN), "the start slide") == []
    assert screen["position"] == text("present.position", "ja", number=1, total=1)
    links.nth(2).click()  # the third lesson, presented
    page_name = wanted[2][1].split("?")[0].removesuffix(".ipynb")
    page.wait_for_url(re.compile(rf"/{re.escape(page_name)}\.(ipynb|html)\?.*present=1"))


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_quiz_question_asks_then_shows_the_answer_and_why(
    presenter_host: Host, page: Any, lang: str
) -> None:
    """Without a room a quiz question is put to the class as it is (no learner's controls);
    the next press shows the right answer marked and the engine's reason, the press after
    goes on. The Next button says what each press does."""
    lesson = load_lesson("03")
    page.set_viewport_size({"width": 1280, "height": 720})
    presenter_host.open(page, f"{lesson.id}.ipynb", lang=lang, present=True)
    page.locator(".tutor-present-bar").wait_for(timeout=ACTION_TIMEOUT)
    question = page.locator(".tutor-unit:not(.tutor-hidden) .tutor-present-question")
    for _ in range(MOST_SCREENS):
        if question.count():
            break
        press(page, "PageDown")
    item = lesson.quiz[0]
    why = page.locator(".tutor-unit:not(.tutor-hidden) .tutor-present-why")
    expected_why = revealed(item.question, item.question.correct_answer(), lang).answer
    # asking: the question, no control, no answer
    assert item.question.prompt(lang) in str(question.text_content())
    assert page.evaluate(STAGE_CONTROLS) == 0
    assert not why.is_visible()
    assert _next_words(page) == text("present.show-answer", lang)
    screen = page.evaluate(MEASURE)
    assert _problems(screen, page.evaluate(SHOWN), "asking") == []
    position = screen["position"]
    # the answer and why
    press(page, "PageDown")
    assert why.is_visible()
    assert expected_why in str(why.text_content())
    assert _next_words(page) == text("present.next", lang)
    screen = page.evaluate(MEASURE)
    assert _problems(screen, page.evaluate(SHOWN), "answered") == []
    # then the next slide
    press(page, "PageDown")
    assert page.evaluate(MEASURE)["position"] != position
