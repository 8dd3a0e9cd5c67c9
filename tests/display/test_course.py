"""The course (tutor.display.course): its pages in order with their titles and summaries,
the links between pages (in the app they keep ``?lang=``; in Lab they are plain paths
that Lab opens), and the course page's list with this learner's status and where to
continue."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from lesson_files import TEACHERS_LESSON, TEACHERS_WRONG_WINNER, lesson_copy

from tutor.display.context import Frontend, PageContext
from tutor.display.course import CourseEntry, course_entries, nav_html, quiz_items
from tutor.display.course_page import continue_html, course_intro_html, course_list_html
from tutor.display.words import words_html
from tutor.resources import LESSONS_DIR_VARIABLE
from tutor.teaching.language import LANGUAGE_NAMES
from tutor.teaching.progress_events import AnswerEvent, AnswerSource, Event, FinishedEvent
from tutor.teaching.progress_summary import PRACTICE, PRACTICE_GOAL, Summary
from tutor.teaching.text import LANGUAGES, text

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
APP = PageContext("en", Frontend.APP)
LAB = PageContext("en", Frontend.LAB)


class _Links(HTMLParser):
    """Every <a> of a page: its attributes and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[dict[str, str]] = []
        self._open: dict[str, str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._open = {name: value or "" for name, value in attrs}
            self._open["text"] = ""

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open["text"] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._open is not None:
            self.links.append(self._open)
            self._open = None


def links(page: str, css: str = "") -> list[dict[str, str]]:
    parser = _Links()
    parser.feed(page)
    return [link for link in parser.links if css in link.get("class", "")]


# -- the pages ------------------------------------------------------------------------------------


def test_pages_are_in_file_order_titled_by_their_lesson_metadata_or_heading(tmp_path: Path) -> None:
    for name in ("02_trump.ipynb", "01_cards.ipynb", "index.ipynb", "08_worked_example.ipynb"):
        (tmp_path / name).write_text('{"cells": [], "metadata": {}}', encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a notebook", encoding="utf-8")
    entries = course_entries(tmp_path, lessons=[])
    assert [(entry.file, entry.title) for entry in entries] == [
        ("01_cards.ipynb", "01 cards"),
        ("02_trump.ipynb", "02 trump"),
        ("08_worked_example.ipynb", "08 worked example"),
    ]


def test_a_lesson_with_a_mistake_leaves_the_other_pages_titled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A teacher's lesson edited with a mistake while the app runs (or two with one
    number, in a folder the app did not check) used to leave every page of the course list
    named by its file, without a summary."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    for path in (NOTEBOOKS.parent / "lessons").glob("*.toml"):
        (lessons / path.name).symlink_to(path)
    lesson_copy(lessons / "12_ours.toml", TEACHERS_LESSON)
    lesson_copy(lessons / "12_again.toml", TEACHERS_LESSON)
    lesson_copy(lessons / "13_broken.toml", TEACHERS_LESSON, change=TEACHERS_WRONG_WINNER)
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    for name in ("06_trick_winner", "12_again", "12_ours", "13_broken"):
        shutil.copy(NOTEBOOKS / "06_trick_winner.ipynb", notebooks / f"{name}.ipynb")
    monkeypatch.setenv(LESSONS_DIR_VARIABLE, str(lessons))
    entries = course_entries(notebooks)
    assert [(entry.title, bool(entry.summary)) for entry in entries] == [
        ("Who takes the trick", True),
        ("Our class: tricks", True),
        ("Our class: tricks", True),
        ("13 broken", False),  # its page says it cannot be shown
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_of_the_course_has_a_title_and_a_summary_in_the_language(lang: str) -> None:
    entries = course_entries(NOTEBOOKS, lang=lang)
    assert len(entries) == 11
    assert all(entry.title and entry.summary for entry in entries)
    by_file = {entry.file: entry for entry in entries}
    assert by_file["08_worked_example.ipynb"].title == text("worked.title", lang)
    assert by_file["11_play_a_round.ipynb"].summary == text("course.play-summary", lang)
    assert by_file["09_practice.ipynb"].activity == PRACTICE
    assert by_file["06_trick_winner.ipynb"].activity == "06_trick_winner"
    # the worked example's quiz is recorded like a lesson's; the play page records no answers
    assert by_file["08_worked_example.ipynb"].activity == "08_worked_example"
    assert by_file["11_play_a_round.ipynb"].activity is None


# -- links between pages ----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_page_links_to_the_course_and_its_neighbours_in_its_language(lang: str) -> None:
    entries = course_entries(NOTEBOOKS, lang=lang)
    html = nav_html(entries, "06_trick_winner.ipynb", PageContext(lang, Frontend.APP))
    found = links(html, "tutor-nav-link")
    assert [link["href"] for link in found] == [
        f"index.ipynb?lang={lang}",
        f"05_jester_leads.ipynb?lang={lang}",
        f"07_scoring.ipynb?lang={lang}",
    ]
    assert found[0]["text"].endswith(text("nav.course", lang))
    assert text("nav.previous", lang, title=entries[4].title) in found[1]["text"]
    assert text("nav.next", lang, title=entries[6].title) in found[2]["text"]
    assert [link.get("rel") for link in found] == [None, "prev", "next"]


def test_the_first_and_last_pages_have_one_neighbour_and_the_bottom_no_course_link() -> None:
    entries = course_entries(NOTEBOOKS)
    first = links(nav_html(entries, entries[0].file, APP), "tutor-nav-link")
    last = links(nav_html(entries, entries[-1].file, APP, bottom=True), "tutor-nav-link")
    assert [link.get("rel") for link in first] == [None, "next"]
    assert [link.get("rel") for link in last] == ["prev"]


def test_in_lab_links_are_plain_paths_and_there_is_no_language_choice_or_present_link() -> None:
    entries = course_entries(NOTEBOOKS)
    assert [
        link["href"] for link in links(nav_html(entries, "02_trump.ipynb", LAB), "tutor-nav")
    ] == [
        "index.ipynb",
        "01_cards_and_rounds.ipynb",
        "03_bidding.ipynb",
    ]
    listing = course_list_html(entries, LAB, None) + course_intro_html(LAB)
    assert links(listing, "tutor-present-link") == links(listing, "tutor-language") == []
    assert all("?" not in link["href"] for link in links(listing))


# -- the course page ----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_course_page_offers_every_language_by_its_own_name(lang: str) -> None:
    choices = links(course_intro_html(PageContext(lang, Frontend.APP)), "tutor-language")
    assert [link["text"] for link in choices] == ["English", "日本語", "繁體中文"]
    assert [link["href"] for link in choices] == [
        f"index.ipynb?lang={code}" for code in LANGUAGE_NAMES
    ]
    assert [link for link in choices if "aria-current" in link] == [
        choices[list(LANGUAGE_NAMES).index(lang)]
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_course_link_keeps_the_language(lang: str) -> None:
    context = PageContext(lang, Frontend.APP)
    entries = course_entries(NOTEBOOKS, lang=lang)
    page = course_list_html(entries, context, Summary.of([], quiz_items(entries)))
    page += continue_html(entries, context, Summary.of([], quiz_items(entries)))
    found = links(page)
    # An "Open" and a "Present" link for each page, and "Start here".
    assert len(found) == 2 * len(entries) + 1
    for link in found:
        assert re.search(rf"[?&]lang={re.escape(lang)}$", link["href"]), link
    summaries = [words_html(entry.summary) for entry in entries]
    assert all(summary in page for summary in summaries)


def _answers(lesson: str, items: list[str], right: int) -> list[AnswerEvent]:
    return [
        AnswerEvent(AnswerSource.QUIZ, "trick-winner", index < right, True, lesson, item)
        for index, item in enumerate(items)
    ]


def test_the_course_page_shows_what_this_learner_did_and_where_to_continue() -> None:
    entries = course_entries(NOTEBOOKS)
    items = quiz_items(entries)
    events = _answers("01_cards_and_rounds", items["01_cards_and_rounds"], right=2)
    events += _answers("02_trump", items["02_trump"][:1], right=1)
    summary = Summary.of(events, items)
    listing = course_list_html(entries, APP, summary)
    done = text("course.status-done", right=2, items=len(items["01_cards_and_rounds"]))
    started = text("course.status-started", answered=1, items=len(items["02_trump"]))
    assert f"✓ {done}" in listing and started in listing
    assert listing.count('class="tutor-course-entry is-done"') == 1
    resume = continue_html(entries, APP, summary)
    assert text("course.continue") in resume
    assert links(resume)[0]["href"] == "02_trump.ipynb?lang=en"


def test_practice_counts_on_the_course_page_and_is_done_after_its_goal() -> None:
    entries = course_entries(NOTEBOOKS)
    practice = [AnswerEvent(AnswerSource.PRACTICE, "score", True, True)] * PRACTICE_GOAL
    summary = Summary.of(practice, quiz_items(entries))
    listing = course_list_html(entries, APP, summary)
    assert text("course.status-practice", answered=PRACTICE_GOAL, right=PRACTICE_GOAL) in listing
    assert links(continue_html(entries, APP, summary))[0]["href"] == "10_variants.ipynb?lang=en"


def test_while_progress_loads_the_page_says_so_and_shows_no_status() -> None:
    entries = course_entries(NOTEBOOKS)
    assert text("course.loading") in continue_html(entries, APP, None)
    assert "tutor-course-status" not in course_list_html(entries, APP, None)


def test_an_empty_folder_says_there_is_nothing_yet(tmp_path: Path) -> None:
    assert text("course.none") in course_list_html(course_entries(tmp_path, lessons=[]), APP, None)
    assert CourseEntry("x.ipynb", "x").name == "x"


def test_the_play_page_shows_done_once_finished_and_the_worked_example_once_its_quiz_is() -> None:
    entries = course_entries(NOTEBOOKS)
    items = quiz_items(entries)
    finished = [FinishedEvent("08_worked_example"), FinishedEvent("11_play_a_round")]
    listing = course_list_html(entries, APP, Summary.of(finished, items))
    done = f'<span class="tutor-course-status">✓ {text("course.status-finished")}</span>'
    assert listing.count(done) == 1  # the worked example's steps alone are not its quiz
    assert re.search(
        r'<li class="tutor-course-entry is-done"><a [^>]*href="11_play_a_round', listing
    )
    answered = _answers("08_worked_example", items["08_worked_example"], right=3)
    listing = course_list_html(entries, APP, Summary.of([*finished, *answered], items))
    quiz_done = text("course.status-done", right=3, items=len(items["08_worked_example"]))
    assert quiz_done in listing and listing.count('class="tutor-course-entry is-done"') == 2
    for name in ("08_worked_example", "11_play_a_round"):
        entry = re.search(rf'<li class="tutor-course-entry is-done"><a [^>]*href="{name}', listing)
        assert entry, name


def test_continue_goes_back_to_a_lesson_left_halfway_through_its_redo() -> None:
    # Lessons 1 to 7 done, then lesson 1 redone (in Japanese) and left halfway: the learner
    # last worked in lesson 1, so Continue goes there, not to the worked example.
    entries = course_entries(NOTEBOOKS)
    items = quiz_items(entries)
    events: list[Event] = []
    for lesson in [name for name in items if name < "08"]:
        events += [*_answers(lesson, items[lesson], right=1), FinishedEvent(lesson)]
    events += _answers("01_cards_and_rounds", items["01_cards_and_rounds"][:2], right=2)
    summary = Summary.of(events, items)
    assert (
        links(continue_html(entries, APP, summary))[0]["href"]
        == "01_cards_and_rounds.ipynb?lang=en"
    )
    assert summary.lesson("01_cards_and_rounds").right == 1  # the redo did not rewrite it
    events.append(FinishedEvent("01_cards_and_rounds"))  # the redo taken to its end
    summary = Summary.of(events, items)
    assert links(continue_html(entries, APP, summary))[0]["href"] == "02_trump.ipynb?lang=en"
