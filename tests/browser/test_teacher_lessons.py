"""A teacher's own lessons served beside the built-in ones (``wizard-tutor app --lessons
FOLDER``): listed on the course index, shown with a working quiz, and in English when the
teacher wrote only English."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tutor.display.course import course_entries

from .app_process import ROOT, AppServer
from .fixtures import reach_question

TEACHERS_LESSON = ROOT / "tests" / "data" / "teachers_lesson.toml"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def teacher_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    folder = tmp_path_factory.mktemp("my-lessons")
    shutil.copy(TEACHERS_LESSON, folder / "12_our_tricks.toml")
    server = AppServer(args=["--lessons", str(folder)]).start()
    yield server
    server.close()
    shutil.rmtree(folder, ignore_errors=True)


def test_a_teachers_lesson_is_on_the_index_and_its_quiz_works(
    teacher_app: AppServer, browser: Any
) -> None:
    assert "12 Our class: tricks" in teacher_app.log()
    context = browser.new_context()
    page = context.new_page()
    page.goto(teacher_app.url("/voila/render/index.ipynb?lang=ja"))
    link = page.get_by_role("link", name="Our class: tricks", exact=True)
    link.wait_for(timeout=90_000)
    # Beside every notebook of the course.
    course = course_entries(ROOT / "notebooks")  # the review page is not a course entry
    assert page.locator(".tutor-course-entry a.tutor-open").count() == len(course) + 1
    link.click()
    page.wait_for_url("**/voila/render/12_our_tricks.ipynb?lang=ja", timeout=90_000)
    page.get_by_text("Our class: tricks").first.wait_for(timeout=90_000)  # English: no ja text
    choice = reach_question(page, 0, 90_000).locator(".tutor-quiz-choice").first
    choice.click(timeout=90_000)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.tutor-quiz-feedback')]"
        ".some((node) => node.textContent.trim())",
        timeout=30_000,
    )
    assert page.locator(".tutor-page-notice").count() == 0
    context.close()
