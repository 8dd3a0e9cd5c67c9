"""A card's name never breaks over two lines (issue 34: "黄の / 1" on a phone): in a page's
HTML each name is a span that never wraps, in plain text (the live room's phone page, a
lesson's Markdown) its parts are joined by characters no line breaks at."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest

from tutor.display.widgets.quiz_html import feedback_html
from tutor.display.words import UNBROKEN_CLASS, words_html
from tutor.rules.cards import DECK
from tutor.teaching.explain import WORD_JOINER, card_name, unbroken
from tutor.teaching.quiz import TrickWinnerQuestion
from tutor.teaching.text import LANGUAGES, text

KEPT = re.compile(rf'<span class="{UNBROKEN_CLASS}" style="white-space:nowrap">(.*?)</span>')


def kept(html: str) -> list[str]:
    """The words of ``html`` kept on one line, in order."""
    return KEPT.findall(html)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_name_in_a_sentence_is_kept_whole(lang: str) -> None:
    for card in DECK:
        name = card_name(card, lang)
        sentence = text("play-screen.undone", lang, card=name)
        html = words_html(sentence)
        if " " in name or not name.isascii():  # a line could break inside it
            assert kept(html) == [name], (sentence, html)
        else:  # "Wizard" among English words: one word, nothing to keep
            assert kept(html) == [], html


def test_a_longer_rank_is_kept_with_its_colour_not_cut_at_a_shorter_name() -> None:
    assert kept(words_html("黄の13と黄の1")) == ["黄の13", "黄の1"]
    assert kept(words_html("A plays blue 13, B blue 1.")) == ["blue 13", "blue 1"]
    assert kept(words_html("藍11、藍1")) == ["藍11", "藍1"]


def test_a_latin_word_among_japanese_or_chinese_words_is_kept_whole() -> None:
    assert kept(words_html("Wizard巫師牌")) == ["Wizard", "巫師"]
    assert kept(words_html("Aさんの番です")) == []  # a one-letter name cannot break
    assert kept(words_html("Ann plays first")) == []  # English words break at spaces only


def test_words_stay_escaped_around_and_inside_the_spans() -> None:
    html = words_html("<b>red 9</b> & 'blue 11'")
    assert html.startswith("&lt;b&gt;<span") and "&amp; '<span" in html
    assert kept(html) == ["red 9", "blue 11"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_engines_feedback_on_a_trick_keeps_each_card_named_whole(lang: str) -> None:
    question = TrickWinnerQuestion.of("Y1 R12 Y13 B2", trump=None, players="ABCD")
    html = feedback_html(question.check(question.correct_answer(), lang), lang=lang)
    shown = re.sub(r"<[^>]+>", "", html)
    names = [card_name(card, lang) for card in question.plays]
    named = [name for name in names if re.search(rf"{re.escape(name)}(?![0-9])", shown)]
    assert card_name("Y13", lang) in named  # the winner, named in the engine's reason
    assert [name for name in named if name not in kept(html)] == []


@pytest.mark.parametrize("lang", ["ja", "zh-Hant"])
def test_plain_text_joins_every_part_of_a_japanese_or_chinese_card_name(lang: str) -> None:
    for card in DECK:
        name = card_name(card, lang)
        joined = unbroken(f"A{name}B")
        assert joined.replace(WORD_JOINER, "") == f"A{name}B"  # the words read the same
        inside = joined[1:-1]
        for before, after in pairwise(inside):
            if before != WORD_JOINER and after != WORD_JOINER:  # no break opportunity left
                assert before.isascii() and after.isascii(), (name, joined)


def test_plain_text_gives_an_english_card_name_a_no_break_space() -> None:
    assert unbroken("C plays yellow 13 and then blue 1.") == (
        "C plays yellow\N{NO-BREAK SPACE}13 and then blue\N{NO-BREAK SPACE}1."
    )
