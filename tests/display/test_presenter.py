"""What a presenter's slide holds back (tutor.display.presenter) and what the lessons and
the worked example put on slides: the question to the room, the engine's answer marked
for the reveal, and the three tricks on one screen."""

from __future__ import annotations

import re
from html import escape

import pytest

from tutor.display.lesson_view import example_html
from tutor.display.presenter import ANSWER, BEFORE_REVEAL, PRESENT_ONLY, SLIDE
from tutor.display.worked_summary import tricks_summary_html
from tutor.teaching.explain import card_name
from tutor.teaching.lesson import LessonItem
from tutor.teaching.lesson_loader import list_lessons
from tutor.teaching.quiz import LegalPlaysQuestion, Question, TrickWinnerQuestion
from tutor.teaching.text import LANGUAGES, text
from tutor.teaching.worked_example import play_worked_round

EXAMPLES = [item for lesson in list_lessons() for s in lesson.sections for item in s.examples]


def _parts(html: str, klass: str) -> list[str]:
    """The inner HTML of each element carrying ``klass`` (elements of one kind don't nest)."""
    found = []
    for match in re.finditer(rf'<(\w+) class="[^"]*\b{klass}\b[^"]*"[^>]*>', html):
        tag, start = match.group(1), match.end()
        depth, index = 1, start
        while depth:
            following = re.compile(rf"<(/?){tag}\b[^>]*>").search(html, index)
            assert following, f"unclosed <{tag}>"
            depth += -1 if following.group(1) else 1
            index = following.end()
        found.append(html[start : following.start()])
    return found


def _words(html: str) -> str:
    return re.sub(r"\s+", "", re.sub(r"<title>.*?</title>|<[^>]+>", "", html))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("item", EXAMPLES, ids=lambda item: item.id)
def test_an_example_asks_the_room_and_holds_the_engines_answer_back(
    item: LessonItem, lang: str
) -> None:
    block = example_html(item, lang)
    assert SLIDE in block
    asks = re.findall(r'<p class="[^"]*\btutor-ask\b[^"]*" style="display:none">(.*?)</p>', block)
    if not isinstance(item.subject, Question):
        assert asks == [] and ANSWER not in block  # a fact asks nothing
        return
    question = item.subject
    # The question goes to the room only when presenting: hidden inline everywhere else.
    assert asks == [escape(question.prompt(lang), quote=False)]
    answers = [_words(part) for part in _parts(block, ANSWER)]
    expected = re.sub(r"\s+", "", re.sub(r"^- ", "", question.answer_text(lang), flags=re.M))
    assert expected in answers
    assert all(f'class="{PRESENT_ONLY}' not in part for part in _parts(block, ANSWER))
    if isinstance(question, TrickWinnerQuestion | LegalPlaysQuestion):
        # Until the reveal: the same cards with nothing marked; then the marked ones.
        (before,) = _parts(block, BEFORE_REVEAL)
        assert "is-highlighted" not in before and "winner-mark" not in before
        assert "is-dimmed" not in before
        marked = "winner-mark" if isinstance(question, TrickWinnerQuestion) else "is-highlighted"
        assert any(marked in part for part in _parts(block, ANSWER))
        if isinstance(question, TrickWinnerQuestion):  # not even the label gives it away
            winner = question.names()[question.correct_answer()]
            assert f"{winner} takes the trick" not in before


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tricks_summary_names_each_trick_its_cards_and_the_engines_winner(
    lang: str,
) -> None:
    rnd = play_worked_round()
    page = tricks_summary_html(lang=lang)
    rows = re.findall(r'<tr class="trick-(\d)">(.*?)</tr>', page)
    assert [int(number) for number, _ in rows] == [trick.number for trick in rnd.tricks]
    for (_, row), trick in zip(rows, rnd.tricks, strict=True):
        plays = [
            text("quiz.trick-play", lang, player=rnd.names[seat], card=card_name(card, lang))
            for seat, card in trick.plays
        ]
        cells = _words(row)
        assert all(_words(play) in cells for play in plays)  # every card, in play order
        assert cells.index(_words(plays[0])) < cells.index(_words(plays[-1]))
        won = re.search(r"<strong>★ (.*?)</strong>", row)
        assert won and won.group(1) == plays[trick.explanation.winner]
        leader = rnd.names[trick.plays[0][0]]
        assert _words(text("worked-summary.leads", lang, player=leader)) in cells
