"""One spacing rule for Latin words and numbers in the Japanese and Chinese texts.

THE RULE, for both ``ja`` and ``zh-Hant``: no space between a CJK character (kanji/hanzi,
kana, CJK punctuation) and a Latin letter, a digit or a ``{placeholder}``, in either order:
"Wizard巫師牌", "預報0", "得墩0", "Tabキー", "{name}のパスワード". Latin words keep their own
spaces among themselves ("Page Down"); a symbol keeps its space ("▶ 執行", "A × 2").

Why none rather than the "pangu" space some Taiwanese style guides ask for: in Japanese
(JIS X 4051, W3C JLReq) and Chinese (W3C CLREQ) typesetting the gap between Han and Latin
is the renderer's job, a quarter-em set by the layout (CSS ``text-autospace``), not a
character in the text; a typed space is a full word space that the layout cannot shrink
and that splits a number from its counter word at a line end ("得墩 / 0"). The catalogs
already wrote most of their text this way (about a thousand unspaced joins against two
hundred spaced ones when this rule was chosen), and the card names the engine builds are
unspaced in both languages ("紅9", "赤の9"). One rule for both languages keeps a message
and its translation easy to compare.

The rule is checked on every translated text the tutor shows: every message of the
``ja`` and ``zh-Hant`` catalogs (a placeholder counts as the Latin or digit it usually
stands for, so "得墩 {taken}" is refused even though a Chinese value could fill it), the
``ja``/``zh-Hant`` texts of every lesson and of the rule map (Markdown's ``**`` and
backticks are looked through, as a reader sees the rendered text), and sentences the
engine builds from those messages with real values. Translators find the rule in
``lessons/README.md`` ("Texts and languages").
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from tutor.play.session import bot_round_text
from tutor.resources import lessons_dir
from tutor.teaching.practice import PracticeSession
from tutor.teaching.text import catalog
from tutor.teaching.worked_example import worked_example

LANGUAGES = ("ja", "zh-Hant")

CJK = r"\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff60"
"""Kanji/hanzi, kana, CJK punctuation (「」、。) and the full-width forms (（）：？)."""
LATIN = r"A-Za-z0-9"

_MARKUP = re.compile(r"[`*]")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_VIOLATION = re.compile(rf"[{CJK}] +[{CJK}{LATIN}]|[{LATIN}] +[{CJK}]")


def spacing_violations(words: str) -> list[str]:
    """The places in ``words`` that break the rule, each with a character either side.

    >>> spacing_violations("預報0，得墩 0；Wizard巫師牌、Page Down")
    ['墩 0']
    >>> spacing_violations("{name} のパスワード"), spacing_violations("`R9` は赤の9")
    (['7 の'], ['9 は'])
    """
    plain = _MARKUP.sub("", _PLACEHOLDER.sub("7", words))
    return [match.group() for match in _VIOLATION.finditer(plain)]


def _translated_strings(table: Any, path: str) -> Iterator[tuple[str, str, str]]:
    """(where, language, text) for every ``ja``/``zh-Hant`` string under ``table``."""
    if isinstance(table, dict):
        for key, value in table.items():
            if key in LANGUAGES and isinstance(value, str):
                yield f"{path}.{key}", key, value
            else:
                yield from _translated_strings(value, f"{path}.{key}")
    elif isinstance(table, list):
        for index, value in enumerate(table):
            yield from _translated_strings(value, f"{path}[{index}]")


def translated_texts() -> Iterator[tuple[str, str, str]]:
    """(where, language, text) for every translated text: catalogs, lessons, rule map."""
    for lang in LANGUAGES:
        for section, messages in catalog(lang).items():
            for name, words in messages.items():
                yield f"locale/{lang} {section}.{name}", lang, words
    files = sorted(lessons_dir().glob("*.toml"))
    files.append(Path(str(resources.files("tutor.teaching") / "rule_map.toml")))
    for path in files:
        yield from _translated_strings(tomllib.loads(path.read_text("utf-8")), path.name)


def test_every_kind_of_translated_text_is_checked() -> None:
    """The collector finds each source, so an empty list below means checked, not missed."""
    places = [where for where, _, _ in translated_texts()]
    for source in ("locale/ja ", "locale/zh-Hant ", "01_cards_and_rounds.toml", "rule_map.toml"):
        assert any(where.startswith(source) for where in places), source
    assert len(places) > 2000


def test_every_translated_text_follows_the_spacing_rule() -> None:
    broken = [
        f"{where}: {found!r}"
        for where, _, words in translated_texts()
        for found in spacing_violations(words)
    ]
    assert broken == []


def _built_sentences(lang: str) -> Iterator[str]:
    """Sentences the engine builds from the catalogs with real values (names, cards, scores)."""
    example = worked_example(lang)
    for step in example.steps:
        yield step.title
        yield from step.sentences
    yield bot_round_text(players=4, cards=3, seed=11, lang=lang)
    session = PracticeSession(seed=5)
    for _ in range(40):
        question = session.next_question()
        yield question.prompt(lang)
        yield question.hint(lang)
        for choice in question.choices():
            yield question.choice_label(choice, lang)
        feedback = question.check(question.correct_answer(), lang)
        yield from (feedback.answer, feedback.explanation, *feedback.details)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sentences_built_with_real_values_follow_the_spacing_rule(lang: str) -> None:
    broken = [
        f"{sentence!r}: {found!r}"
        for sentence in _built_sentences(lang)
        for found in spacing_violations(sentence)
    ]
    assert broken == []
