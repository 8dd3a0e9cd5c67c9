"""The course index (tutor.display.course): every notebook in order with its title, links
that open it as an app or in presenter mode, and the learner's language offered by its own
name and kept on every link."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tutor.display.course import course_entries, course_index_html
from tutor.teaching.language import LANGUAGE_NAMES
from tutor.teaching.text import LANGUAGES, text

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def test_course_index_lists_notebooks_in_order_with_app_and_presenter_links(
    tmp_path: Path,
) -> None:
    for name in ("02_trump.ipynb", "01_cards.ipynb", "index.ipynb", "08_worked_example.ipynb"):
        (tmp_path / name).write_text('{"cells": [], "metadata": {}}', encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a notebook", encoding="utf-8")
    entries = course_entries(tmp_path, lessons=["Cards", "Trump"])
    assert [(entry.file, entry.title) for entry in entries] == [
        ("01_cards.ipynb", "Cards"),
        ("02_trump.ipynb", "Trump"),
        ("08_worked_example.ipynb", "08 worked example"),
    ]
    page = course_index_html(tmp_path, lessons=["Cards", "Trump"])
    assert page.index('href="01_cards.ipynb?lang=en"') < page.index('href="02_trump.ipynb?lang=en"')
    assert 'href="02_trump.ipynb?present=1&amp;lang=en"' in page
    assert 'class="tutor-open" href="index.ipynb' not in page  # only the language links


def test_worked_example_notebook_titles_itself_from_the_catalog() -> None:
    titles = {entry.file: entry.title for entry in course_entries(NOTEBOOKS)}
    assert titles["08_worked_example.ipynb"] == "The worked example: one round, card by card"


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


def _links(page: str) -> list[dict[str, str]]:
    parser = _Links()
    parser.feed(page)
    return parser.links


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_index_offers_every_language_by_its_own_name(lang: str) -> None:
    choices = [
        link
        for link in _links(course_index_html(NOTEBOOKS, lang=lang))
        if "tutor-language" in link.get("class", "")
    ]
    assert [link["text"] for link in choices] == ["English", "日本語", "繁體中文"]
    assert [link["href"] for link in choices] == [
        f"index.ipynb?lang={code}" for code in LANGUAGE_NAMES
    ]
    # Plain links with an href: reachable with Tab, opened with Enter.
    assert [link["lang"] for link in choices] == list(LANGUAGE_NAMES)
    assert [link for link in choices if "aria-current" in link] == [
        choices[list(LANGUAGE_NAMES).index(lang)]
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_lesson_link_keeps_the_language(lang: str) -> None:
    page = course_index_html(NOTEBOOKS, lang=lang)
    lesson_links = [link for link in _links(page) if "tutor-language" not in link.get("class", "")]
    entries = course_entries(NOTEBOOKS, lang=lang)
    # An "Open" and a "Present" link for each notebook: worked example, practice and play too.
    assert len(lesson_links) == 2 * len(entries)
    assert {"08_worked_example.ipynb", "09_practice.ipynb", "11_play_a_round.ipynb"} <= {
        entry.file for entry in entries
    }
    for link in lesson_links:
        assert re.search(rf"[?&]lang={re.escape(lang)}$", link["href"]), link
    assert f"<h1>{text('course.title', lang)}</h1>" in page
