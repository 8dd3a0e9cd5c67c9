"""What a presenter's slide holds back (tutor.display.presenter) and what the lessons and
the worked example put on slides: the question to the room, the engine's answer marked
for the reveal, and the three tricks on one screen."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import unescape

import pytest

from tutor.display.lesson_quiz import LessonQuiz
from tutor.display.lesson_view import example_html, show_sections
from tutor.display.presenter import (
    ANSWER,
    LEARNER_ONLY,
    PRESENT_ONLY,
    ROOM_QUESTION,
    SLIDE,
    UNANSWERED,
    room_question,
    worked_step_slide,
)
from tutor.display.words import words_html
from tutor.display.worked_summary import tricks_summary_html
from tutor.teaching.explain import card_name
from tutor.teaching.lesson import Lesson, LessonItem
from tutor.teaching.lesson_loader import list_lessons
from tutor.teaching.quiz import LegalPlaysQuestion, Question, TrickWinnerQuestion
from tutor.teaching.text import LANGUAGES, join_words, text
from tutor.teaching.worked_example import (
    StepKind,
    TablePlay,
    play_worked_round,
    worked_example,
)

EXAMPLES = [item for lesson in list_lessons() for s in lesson.sections for item in s.examples]


def _parts(html: str, klass: str) -> list[str]:
    """The inner HTML of each element carrying ``klass`` (elements of one kind don't nest)."""
    found = []
    for match in re.finditer(rf'<(\w+) class="(?:[^"]* )?{klass}(?: [^"]*)?"[^>]*>', html):
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
    assert asks == [words_html(question.prompt(lang))]
    answers = [_words(part) for part in _parts(block, ANSWER)]
    expected = re.sub(r"\s+", "", re.sub(r"^- ", "", question.answer_text(lang), flags=re.M))
    assert any(expected in answer for answer in answers)
    assert all(f'class="{PRESENT_ONLY}' not in part for part in _parts(block, ANSWER))
    if item.note is not None:  # the note often tells the answer: on a slide it comes with it
        note = _words(words_html(item.note(lang)))
        assert any(note in answer for answer in answers)
        assert note not in _words("".join(_parts(block, "tutor-ask")))
        rest = block
        for part in _parts(block, LEARNER_ONLY) + _parts(block, ANSWER):
            rest = rest.replace(part, "")
        assert note not in _words(rest)  # nowhere else on the slide
    if isinstance(question, TrickWinnerQuestion | LegalPlaysQuestion):
        # Until the reveal: the same cards with nothing marked; then the marked ones.
        (before,) = _parts(block, UNANSWERED)
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
        assert won and won.group(1) == words_html(plays[trick.explanation.winner])
        leader = rnd.names[trick.plays[0][0]]
        assert _words(text("worked-summary.leads", lang, player=leader)) in cells


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_card_and_trick_of_the_worked_example_asks_before_it_answers(lang: str) -> None:
    from tutor.rules.trick import legal_plays

    example = worked_example(lang)
    asked = 0
    for step in example.steps:
        slide = worked_step_slide(example, step, lang=lang)
        if step.kind not in (StepKind.PLAY, StepKind.TRICK):
            assert slide is None or 'tutor-ask"' not in slide  # nothing to predict
            continue
        assert slide is not None
        asked += 1
        befores, answers = _parts(slide, UNANSWERED), _parts(slide, ANSWER)
        assert step.title not in "".join(befores)  # the title gives nothing away
        if step.kind is StepKind.PLAY:
            assert step.played is not None
            played, player = step.played.card, step.played.player
            assert text("presenter.ask-play", lang, player=player) in slide
            # Until the reveal the card is not on the table; then the engine's legal
            # plays of the hand it was played from, and the card on the table.
            before_table = next(part for part in befores if "tutor-table" in part)
            after_table = next(part for part in answers if "tutor-table" in part)
            assert _trick_label(before_table) == _trick_words(step.table[:-1], lang)
            assert _trick_label(after_table) == _trick_words(step.table, lang)
            assert card_name(played, lang) not in _trick_label(before_table)
            hand = step.hands[step.played.seat]
            legal = legal_plays(hand, [play.card for play in step.table[:-1]])
            may = text(
                "presenter.may-play",
                lang,
                player=player,
                cards=join_words([card_name(card, lang) for card in legal], lang),
            )
            assert any(words_html(may) in part for part in answers)
        else:
            assert step.winner is not None
            before_table = next(part for part in befores if "tutor-table" in part)
            assert not _has_class(before_table, "is-winner")
            assert not _has_class(before_table, "is-lit")
            assert _has_class(next(p for p in answers if "tutor-table" in p), "is-winner")
            assert any(words_html(step.sentences[0]) in part for part in answers)
    assert asked == 12 + 3  # twelve cards, three tricks


def _trick_label(table: str) -> str:
    """The words for screen readers that name the cards on a drawn table's trick."""
    label = re.search(r'class="tutor-trick" role="group" aria-label="([^"]*)"', table)
    assert label
    return unescape(label.group(1))


def _trick_words(plays: Sequence[TablePlay], lang: str) -> str:
    """How a table names a trick of ``plays`` (its screen readers' words)."""
    if not plays:
        return text("display.trick-empty", lang)
    played = [
        text("display.played-by", lang, player=play.player, card=card_name(play.card, lang))
        for play in plays
    ]
    return text("display.trick", lang, cards=join_words(played, lang))


def _has_class(html: str, klass: str) -> bool:
    """Whether an element of ``html`` (not its style sheet) carries ``klass``."""
    return re.search(rf'class="(?:[^"]* )?{klass}[ "]', html) is not None


@pytest.mark.parametrize("lesson", list_lessons(), ids=lambda lesson: lesson.id)
def test_every_question_a_lesson_shows_names_itself_for_the_live_room(
    lesson: Lesson, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each example that asks and each quiz question carries one mark with the lesson's
    and the item's ids (what the room opens); facts carry none; the mark shows nothing."""
    import tutor.display.lesson_view as lesson_view

    shown: list[str] = []
    monkeypatch.setattr(lesson_view, "_html", shown.append)
    monkeypatch.setattr(lesson_view, "_markdown", lambda _source: None)
    show_sections(lesson, "ja")
    examples = [item for section in lesson.sections for item in section.examples]
    assert len(shown) == len(examples)
    for item, html in zip(examples, shown, strict=True):
        marks = re.findall(rf'<span class="{ROOM_QUESTION}"[^>]*></span>', html)
        if isinstance(item.subject, Question):
            assert marks == [room_question(lesson.id, item.id)]
            assert " hidden>" in marks[0]
        else:
            assert marks == []
    for item, widget in zip(lesson.quiz, LessonQuiz(lesson, lang="ja").quizzes, strict=True):
        assert widget.title.value.count(ROOM_QUESTION) == 1
        assert widget.title.value.startswith(room_question(lesson.id, item.id))
