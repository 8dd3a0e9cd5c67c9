"""The course in the browser: the index, the worked example stepped through with buttons
and keys, and a lesson quiz answered right and wrong (presenter mode: test_present.py).

Every page's requests are recorded: all must go to 127.0.0.1 (the app works offline);
no page may log a console error (conftest.EXPECTED_CONSOLE_ERRORS names any exception).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from packaging.version import Version

from tutor.display.course import course_entries
from tutor.teaching.explain import card_name
from tutor.teaching.text import text
from tutor.teaching.worked_example import worked_example

from .app_process import NOTEBOOKS, AppServer
from .conftest import QUIZ_NOTEBOOK, PageLog, lesson_notebook, wait_until
from .fixtures import reach_every_question

pytestmark = pytest.mark.browser

STEP_COUNT = len(worked_example().steps)
LOAD_TIMEOUT = 90_000  # ms: a page waits for its kernel to run the notebook
ACTION_TIMEOUT = 30_000  # ms: a click travels to the kernel and back, on a loaded machine


def _number(cell: str) -> int:
    """An integer as the page writes it (a real minus sign, maybe a word after it)."""
    match = re.match(r"\s*([+\-−]?\d+)", cell)
    assert match, f"no number in {cell!r}"
    return int(match.group(1).replace("−", "-"))


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


# webpack's warnings when a widget manager asks a page's shared module at a version the page
# lacks (a singleton: the page's copy is used anyway; another module: the one there is)
VERSION_WARNINGS = (
    re.compile(
        r"Unsatisfied version (?P<have>\S+) from \S+ of shared singleton module "
        r"(?P<module>\S+) \(required (?P<need>\S+)\)"
    ),
    re.compile(
        r"No satisfying version \((?P<need>\S+)\) of shared module (?P<module>\S+) "
        r"found in shared scope default"
    ),
)
SHARE = Path(sys.prefix) / "share" / "jupyter"


def unexplained_version_warning(module: str, have: str | None, need: str) -> str | None:
    """Why a version warning is not the known, harmless kind (tutor/app/settings.py says
    why that one is), else ``None``: the known kind names a module Voila's page has (at
    ``have``, when the warning says), and a ``^`` range of the same major version that a
    widget manager the page loads asks for, as read from the installed files."""
    bundle = (SHARE / "voila/templates/base/static/voila.js").read_text(encoding="utf-8")
    page_has = dict(re.findall(r'\("(@[^"]+)","(\d[^"]*)"', bundle))
    if module not in page_has or have not in (None, page_has[module]):
        return f"Voila's page has {module} at {page_has.get(module)}, not {have}"
    if not need.startswith("^") or Version(need[1:]).major != Version(page_has[module]).major:
        return f"{need} is not a range of {module} {page_has[module]}'s major version"
    managers = [
        *(SHARE / "voila/labextensions/@voila-dashboards/widgets-manager8").glob(
            "static/remoteEntry.*.js"
        ),
        *(SHARE / "labextensions").glob("*/*/static/remoteEntry.*.js"),
        *(SHARE / "labextensions").glob("*/static/remoteEntry.*.js"),
    ]
    as_array = "[1," + need[1:].replace(".", ",") + "]"  # an older webpack's form
    for entry in managers:
        text = entry.read_text(encoding="utf-8")
        if f'"{module}"' in text and (f'requiredVersion:"{need}"' in text or as_array in text):
            return None
    return f"no installed widget manager asks for {module} {need}"


def _open_worked_example(page: Any, url: str) -> None:
    page.goto(url)
    page.locator("button.tutor-step-next").wait_for(state="visible", timeout=LOAD_TIMEOUT)


def test_index_lists_the_lessons_in_order_and_opens_each_as_an_app(
    app: AppServer, page: tuple[Any, PageLog]
) -> None:
    browser_page, log = page
    expect = _expect()
    browser_page.goto(app.url("/"))
    browser_page.wait_for_url("**/voila/render/index.ipynb", timeout=LOAD_TIMEOUT)
    entries = browser_page.locator(".tutor-course-entry a.tutor-open")
    entries.first.wait_for(timeout=LOAD_TIMEOUT)
    served = [entry.file for entry in course_entries(NOTEBOOKS)]  # the review page aside
    assert entries.evaluate_all("links => links.map(a => a.getAttribute('href'))") == [
        f"{name}?lang=en"
        for name in served  # the index keeps the language on every link
    ]
    presents = browser_page.locator(".tutor-course-entry a.tutor-present-link")
    assert presents.evaluate_all("links => links.map(a => a.getAttribute('href'))") == [
        f"{name}?present=1&lang=en" for name in served
    ]
    worked = browser_page.get_by_role("link", name=text("worked.title"), exact=True)
    expect(worked).to_have_count(1)
    worked.click()
    browser_page.wait_for_url(
        "**/voila/render/08_worked_example.ipynb?lang=en", timeout=LOAD_TIMEOUT
    )
    browser_page.locator("button.tutor-step-next").wait_for(timeout=LOAD_TIMEOUT)
    expect(browser_page.locator(".tutor-step-page h3")).to_have_text("Round 3: the deal")
    log.assert_clean()
    # The version warnings of the widget managers, in every page: only the known, harmless
    # kind (tutor/app/settings.py: Voila's JupyterLab 4.2 against managers built with 4.5
    # and 4.6), the same ones in each of the two pages.
    found = [
        (match["module"], match.groupdict().get("have"), match["need"])
        for warning in log.warnings
        for pattern in VERSION_WARNINGS
        if (match := pattern.search(warning))
    ]
    assert [why for why in (unexplained_version_warning(*w) for w in found) if why] == []
    assert found, "no version warning any more: take its explanation out of tutor/app/settings.py"
    assert set(Counter(found).values()) == {2}, Counter(found)  # each once a page


def test_worked_example_steps_through_three_tricks_with_buttons_and_keys(
    app: AppServer, page: tuple[Any, PageLog]
) -> None:
    browser_page, log = page
    expect = _expect()
    _open_worked_example(browser_page, app.render_url("08_worked_example.ipynb"))
    position = browser_page.locator(".tutor-step-position")
    title = browser_page.locator(".tutor-step-page h3")
    next_button = browser_page.locator("button.tutor-step-next")
    back_button = browser_page.locator("button.tutor-step-back")
    expect(position).to_have_text(f"Step 1 of {STEP_COUNT}")
    expect(back_button).to_be_disabled()
    page_text = browser_page.locator(".tutor-step-page")
    assert "red is trump" in page_text.inner_text()
    assert browser_page.locator(".tutor-seat-hand svg.hand").count() == 4  # hands face up
    # The tricks at a glance (every winner in it) wait for the last step.
    glance = browser_page.locator(".tricks-summary")
    expect(glance).to_have_count(0)

    def forward(step: int) -> None:
        """Alternate the ways to go on: click Next, the right arrow key, Enter on Next."""
        way = step % 3
        if way == 0:
            next_button.click()
        elif way == 1:
            browser_page.keyboard.press("ArrowRight")
        else:
            next_button.focus()
            browser_page.keyboard.press("Enter")
        expect(position).to_have_text(f"Step {step + 1} of {STEP_COUNT}", timeout=ACTION_TIMEOUT)

    forward(1)
    expect(title).to_have_text("Round 3: the bids")
    assert "A 1, B 2, C 0, D 0" in page_text.inner_text()

    # Back (left arrow) and forward again land on the same step.
    browser_page.keyboard.press("ArrowLeft")
    expect(position).to_have_text(f"Step 1 of {STEP_COUNT}", timeout=ACTION_TIMEOUT)
    forward(1)

    follows: list[tuple[str, str]] = []
    tricks: list[tuple[str, str, str]] = []
    for step in range(2, 17):
        forward(step)
        heading = title.inner_text()
        if heading.startswith("Trick") and "card" in heading:
            follows.append((heading, browser_page.locator(".tutor-follow").inner_text()))
        else:
            trick = browser_page.locator(".tutor-table .tutor-trick")
            expect(trick.locator(".tutor-trick-card.is-winner")).to_have_count(1)
            reason = browser_page.locator(".tutor-reason").first.inner_text()
            tricks.append((heading, trick.get_attribute("aria-label") or "", reason))

    assert [heading for heading, _ in follows][:4] == [
        "Trick 1, card 1 of 4: A plays Jester",
        "Trick 1, card 2 of 4: B plays blue 5",
        "Trick 1, card 3 of 4: C plays blue 11",
        "Trick 1, card 4 of 4: D plays blue 7",
    ]
    had_to_follow = [sentence.split("?")[1].strip().startswith("Yes") for _, sentence in follows]
    assert had_to_follow == [
        False, False, True, True,  # A leads; B after a Jester; C and D hold blue
        False, True, True, False,  # C leads; D and A hold red; B holds no red
        False, False, True, True,  # B leads; C holds no green; D and A hold green
    ]  # fmt: skip
    assert follows[7][1] == "Had to follow red? No: B holds no red card."
    assert [heading for heading, _, _ in tricks] == [
        "Trick 1: C takes it",
        "Trick 2: B takes it",
        "Trick 3: D takes it",
    ]
    assert tricks[0][1].endswith("C takes the trick.")
    assert tricks[0][2].startswith("C takes the trick with blue 11")
    assert tricks[1][1].endswith("B takes the trick.")
    assert tricks[1][2].startswith("B takes the trick with the Wizard")
    assert tricks[2][1].endswith("D takes the trick.")
    assert tricks[2][2].startswith("D takes the trick with green 10")

    forward(17)
    expect(title).to_have_text("Round 3: tricks taken")
    assert "A 0, B 1, C 1, D 1" in page_text.inner_text()

    forward(18)
    rows = browser_page.locator(".round-scores tbody tr")
    expect(rows).to_have_count(4)
    round_scores = [
        (
            row.locator("th").inner_text(),
            _number(row.locator("td.bid").inner_text()),
            _number(row.locator("td.taken").inner_text()),
            _number(row.locator("td.points").inner_text()),
        )
        for row in rows.all()
    ]
    assert round_scores == [("A", 1, 0, -10), ("B", 2, 1, -10), ("C", 0, 1, -10), ("D", 0, 1, -10)]

    forward(19)
    sheet_rows = browser_page.locator(".score-sheet tbody tr")
    expect(sheet_rows).to_have_count(3)
    points_by_round = [
        [_number(cell) for cell in row.locator("td.points").all_inner_texts()]
        for row in sheet_rows.all()
    ]
    assert points_by_round == [[20, 30, 20, 20], [30, -10, -10, 20], [-10, -10, -10, -10]]
    totals = [
        _number(cell)
        for cell in browser_page.locator(".score-sheet .grand-total").all_inner_texts()
    ]
    assert totals == [40, 10, 0, 30]
    assert "A leads with 40 points." in page_text.inner_text()

    expect(glance).to_have_count(0)
    forward(20)  # the end: the two scoring mistakes learners make most, on the same sheet
    expect(next_button).to_be_disabled()
    expect(glance).to_have_count(1, timeout=ACTION_TIMEOUT)
    expect(glance).to_contain_text(text("worked-summary.title", "en", round=3))
    expect(title).to_have_text(text("worked.mistakes-title"))
    mistakes = browser_page.locator(".tutor-reason").all_inner_texts()
    assert mistakes[0].startswith("B bid 2 in round 3 and took 1: 1 off, so −10.")
    assert mistakes[1].startswith("D bid 0 in round 2 and took none")
    expect(browser_page.locator(".score-sheet tbody tr")).to_have_count(3)
    log.assert_clean()


def _quiz_page(request: pytest.FixtureRequest) -> tuple[AppServer, str]:
    """Lesson 06's notebook once it exists; until then its quiz on the scratch app."""
    notebook = lesson_notebook("06")
    if notebook is not None:
        return request.getfixturevalue("app"), notebook.name
    return request.getfixturevalue("scratch_app"), QUIZ_NOTEBOOK


def test_lesson_quiz_gives_feedback_and_the_reason_right_and_wrong(
    request: pytest.FixtureRequest, page: tuple[Any, PageLog]
) -> None:
    from tutor.teaching.lesson_loader import load_lesson
    from tutor.teaching.quiz import TrickWinnerQuestion

    browser_page, log = page
    expect = _expect()
    server, notebook = _quiz_page(request)
    questions = [
        question
        for question in load_lesson("06").questions()
        if isinstance(question, TrickWinnerQuestion)
    ][:2]
    assert len(questions) == 2
    browser_page.goto(server.render_url(notebook))
    quizzes = browser_page.locator(".widget-vbox:has(> .widget-html .quiz-prompt)")
    reach_every_question(browser_page, LOAD_TIMEOUT)  # each is built when it is reached

    def labels(question: TrickWinnerQuestion) -> list[str]:
        return [
            text("widgets.pick-card", card=card_name(card), player=name)
            for card, name in zip(question.plays, question.names(), strict=True)
        ]

    def quiz_for(question: TrickWinnerQuestion) -> Any:
        """The quiz showing the question's buttons, once drawn (the page's widgets
        appear one by one)."""
        wanted = labels(question)

        def showing() -> Any:
            for quiz in quizzes.all():
                shown = [
                    label.strip() for label in quiz.locator("button:visible").all_inner_texts()
                ]
                if shown == wanted:
                    return quiz
            return None

        return wait_until(showing, LOAD_TIMEOUT, f"a quiz on the page showing the buttons {wanted}")

    for question, right in zip(questions, (True, False), strict=True):
        correct = question.correct_answer()
        answer = correct if right else (correct + 1) % len(question.plays)
        quiz = quiz_for(question)
        quiz.get_by_role("button", name=labels(question)[answer], exact=True).click()
        feedback = quiz.locator(".quiz-feedback")
        expect(feedback).to_have_count(1, timeout=ACTION_TIMEOUT)
        expected = question.check(answer)
        assert expected.correct is right
        expect(feedback).to_have_class(re.compile("right" if right else "wrong"))
        shown = feedback.inner_text()
        assert expected.verdict in shown  # "Right!" / "Not quite."
        if not right:  # a first miss: the rule to look at, then the answer when asked for
            assert question.hint() in shown and expected.answer not in shown
            quiz.locator("button.tutor-quiz-show-answer").click()
            expect(feedback).not_to_have_class(re.compile("hinted"), timeout=ACTION_TIMEOUT)
            shown = feedback.inner_text()
        assert expected.answer in shown  # the winning card and who played it
        assert expected.explanation in shown  # the engine's reason
        expect(
            quiz.locator("button.tutor-quiz-choice").first
        ).to_be_disabled()  # the first answer counts
    log.assert_clean()
