"""Spaced review on the pages: the course page says how many rules are due ("3 rules to
review", a link to the review page; nothing when none is) and shows the learner's map (each
group of rules not yet seen / learning / known, in words and a symbol, in every language);
the review page asks the due rules in the quiz widgets and then says nothing more is due.
Times are explicit (a clock the test sets), answers are events the test writes."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from html import unescape
from pathlib import Path

import pytest

from tests.scenarios.learner import wrong_answer
from tutor.display.context import Frontend, PageContext
from tutor.display.course import MAP_MARKS, course_entries, review_entry
from tutor.display.page import CoursePage, PageFrame
from tutor.display.progress_view import LearnerProgress
from tutor.display.review_view import ReviewWidget
from tutor.teaching.progress import Progress
from tutor.teaching.progress_events import AnswerEvent, AnswerSource
from tutor.teaching.progress_stores import MemoryStore
from tutor.teaching.review import RuleStatus, at
from tutor.teaching.rule_map import rule_map
from tutor.teaching.text import LANGUAGES, text

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
START = "2026-12-01T10:00:00Z"
LATER = at(START) + timedelta(days=10)


def practice(rules: tuple[str, ...], time: str = START, correct: bool = True) -> AnswerEvent:
    return AnswerEvent(AnswerSource.PRACTICE, "score", correct, True, time=time, rules=rules)


def html_of(output: object) -> str:
    outputs = output.outputs
    return "".join(str(out["data"]["text/html"]) for out in outputs)


def course_page(events: list[AnswerEvent], now: datetime, lang: str = "en") -> CoursePage:
    learner = LearnerProgress(Progress(MemoryStore(events)))
    frame = PageFrame(
        "index", folder=NOTEBOOKS, context=PageContext(lang, Frontend.LAB), learner=learner
    )
    return CoursePage(frame, clock=lambda: now)


def map_rows(page: CoursePage) -> dict[str, tuple[str, str]]:
    """Each group's (status class, words shown) on the map."""
    html = html_of(page.map)
    rows = re.findall(
        r'<li class="tutor-map-group is-(\w+)">'
        r'<span class="tutor-map-mark" aria-hidden="true">(.)</span>'
        r'<span class="tutor-map-name">([^<]+)</span>([^<]*)<span class="tutor-map-status">([^<]+)<',
        html,
    )
    by_name = {group.name(page.frame.lang): group.id for group in rule_map().groups}
    return {
        by_name[unescape(name)]: (status, f"{mark} {unescape(name)}{unescape(sep)}{words}")
        for status, mark, name, sep, words in rows
    }


def test_the_review_page_is_found_by_its_activity_and_is_no_step_of_the_course() -> None:
    review = review_entry(NOTEBOOKS)
    assert review is not None and review.file == "review.ipynb"
    assert review.file not in [entry.file for entry in course_entries(NOTEBOOKS)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_course_page_says_how_many_rules_are_due_with_a_link_to_review_them(
    lang: str,
) -> None:
    three = [practice(("highest-trump-wins",)), practice(("bid-met-scores", "bid-missed-loses"))]
    due = html_of(course_page(three, LATER, lang).due)
    assert text("review.due", lang, count=3) in due and 'href="review.ipynb"' in due
    one = html_of(course_page(three[:1], LATER, lang).due)
    assert text("review.due-one", lang, count=1) in one
    # the answers' own day: nothing is due, and nothing is said
    assert "tutor-review-due" not in html_of(course_page(three, at(START), lang).due)
    assert "tutor-review-due" not in html_of(course_page([], LATER, lang).due)


def test_one_rule_to_review_is_singular_in_english() -> None:
    html = html_of(course_page([practice(("highest-trump-wins",))], LATER).due)
    assert ">1 rule to review →<" in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_map_shows_each_group_in_words_and_a_symbol_and_follows_the_answers(
    lang: str,
) -> None:
    groups = {group.id: group for group in rule_map().groups}
    fresh = map_rows(course_page([], LATER, lang))
    assert set(fresh) == set(groups)
    new_words = text("review.status-new", lang)
    for group_id, (status, shown) in fresh.items():
        assert status == "new"
        name = groups[group_id].name(lang)
        separator = text("review.map-separator", lang)  # "：" in Japanese and Chinese
        assert shown == f"{MAP_MARKS[RuleStatus.NEW]} {name}{separator}{new_words}"

    jester_rules = tuple(rule.id for rule in groups["jester-leads"].rules)
    seen_once = map_rows(course_page([practice(jester_rules[:1])], LATER, lang))
    assert seen_once["jester-leads"][0] == "learning"
    assert seen_once["jester-leads"][1].startswith(MAP_MARKS[RuleStatus.LEARNING])
    assert seen_once["jester-leads"][1].endswith(text("review.status-learning", lang))
    assert {status for group, (status, _) in seen_once.items() if group != "jester-leads"} == {
        "new"
    }

    # every rule of the group right, then right again when due: known
    two_days = (at(START) + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M:%SZ")
    known = map_rows(
        course_page([practice(jester_rules), practice(jester_rules, two_days)], LATER, lang)
    )
    assert known["jester-leads"][0] == "known"
    assert known["jester-leads"][1].startswith(MAP_MARKS[RuleStatus.KNOWN])
    assert known["jester-leads"][1].endswith(text("review.status-known", lang))


def test_the_course_page_says_nothing_of_review_while_the_progress_loads() -> None:
    learner = LearnerProgress(Progress(MemoryStore([practice(("bid-met-scores",))]), load=False))
    frame = PageFrame(
        "index", folder=NOTEBOOKS, context=PageContext("en", Frontend.APP), learner=learner
    )
    page = CoursePage(frame, clock=lambda: LATER)
    assert html_of(page.map) == "" and "tutor-review-due" not in html_of(page.due)
    learner.progress.reload()  # the store answers
    assert "1 rule to review" in html_of(page.due) and "tutor-map-group" in html_of(page.map)


def test_the_review_page_asks_the_due_rules_then_says_nothing_more_is_due() -> None:
    progress = Progress(
        MemoryStore([practice(("highest-trump-wins",)), practice(("bid-met-scores",))]),
        load=False,
    )
    clock = [LATER]
    box = ReviewWidget(progress, [], clock=lambda: clock[0])
    assert box.quizzes == [] and text("course.loading", "en") in box.status.value
    progress.reload()
    assert "2 rules to review" in box.status.value and len(box.quizzes) == 2
    first, second = box.quizzes
    assert "Question 1 of 2" in first.title.value
    right = first.question.correct_answer()
    feedback = first.answer(right)
    assert feedback.correct and "right" in first.feedback.value
    assert "2 rules to review" in box.status.value  # one question still to answer
    second.answer(wrong_answer(second.question))
    assert not second.last_feedback.correct  # type: ignore[union-attr]
    second.try_again()
    second.answer(second.question.correct_answer())
    assert text("review.done", "en") in box.status.value
    kinds = [(e.kind, e.correct, e.first_try) for e in progress.events[2:]]  # type: ignore[union-attr]
    assert kinds == [
        (AnswerSource.REVIEW, True, True),
        (AnswerSource.REVIEW, False, True),
        (AnswerSource.REVIEW, True, False),
    ]
    assert progress.summary().practice.answered == 2  # review answers are no practice


def test_a_new_learners_review_page_says_nothing_is_due() -> None:
    box = ReviewWidget(Progress(MemoryStore()), [], lang="ja", clock=lambda: LATER)
    assert box.quizzes == [] and text("review.none-due", "ja") in box.status.value
