"""The learner's language: where it comes from (tutor.language) and how the course index
offers it and keeps it on every link (tutor.display.course)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tutor.display.course import course_entries, course_index_html
from tutor.language import (
    LANGUAGE_NAMES,
    UnknownLanguageError,
    current_language,
    with_language,
)
from tutor.lessons import LANGUAGES
from tutor.text import text

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_query_chooses_the_language(lang: str) -> None:
    assert current_language(query=f"lang={lang}", environ={}) == lang
    assert current_language(query=f"present=1&lang={lang}", environ={}) == lang


def test_the_page_query_wins_over_the_session_setting() -> None:
    assert current_language(query="lang=zh-Hant", environ={"TUTOR_LANG": "ja"}) == "zh-Hant"
    assert current_language(query="lang=en", environ={"TUTOR_LANG": "ja"}) == "en"


@pytest.mark.parametrize("query", ["lang=fr", "lang=", "lang=%3Cscript%3E", "lang=ja-JP"])
def test_an_unknown_language_in_the_url_shows_english(query: str) -> None:
    assert current_language(query=query, environ={"TUTOR_LANG": "ja"}) == "en"


def test_without_a_query_the_session_setting_decides() -> None:
    assert current_language(query="", environ={"TUTOR_LANG": "ja"}) == "ja"
    assert current_language(query="present=1", environ={"TUTOR_LANG": "zh-hant"}) == "zh-Hant"
    assert current_language(query="", environ={}) == "en"
    assert current_language(query="", environ={"TUTOR_LANG": ""}) == "en"


def test_an_unknown_session_setting_is_refused_naming_it_and_the_languages() -> None:
    with pytest.raises(UnknownLanguageError) as raised:
        current_language(query="", environ={"TUTOR_LANG": "japanese"})
    message = str(raised.value)
    assert "'japanese'" in message and "TUTOR_LANG" in message
    assert all(repr(lang) in message for lang in LANGUAGES)
    assert isinstance(raised.value, ValueError)


def test_the_process_environment_is_read_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "lang=ja")
    monkeypatch.setenv("TUTOR_LANG", "zh-Hant")
    assert current_language() == "ja"
    monkeypatch.delenv("QUERY_STRING")
    assert current_language() == "zh-Hant"
    monkeypatch.setenv("TUTOR_LANG", "klingon")
    with pytest.raises(UnknownLanguageError, match="klingon"):
        current_language()


def test_with_language_adds_to_an_existing_query() -> None:
    assert with_language("a.ipynb", "ja") == "a.ipynb?lang=ja"
    assert with_language("a.ipynb?present=1", "zh-Hant") == "a.ipynb?present=1&lang=zh-Hant"


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
