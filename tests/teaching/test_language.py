"""The learner's language: where it comes from (tutor.teaching.language). How the course
index offers it and keeps it on every link is tests/display/test_course.py."""

from __future__ import annotations

import pytest

from tutor.teaching.language import UnknownLanguageError, current_language, with_language
from tutor.teaching.text import LANGUAGES


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
