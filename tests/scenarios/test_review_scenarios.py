"""Spaced review and the learner's map, the same in every host (the app, the static site,
Lab):

- a learner answers a lesson's quiz: the course page's map then shows the groups of the
  rules it asked as "learning" (every other group still "not yet seen"), in words and a
  symbol, readable on a 360 px phone; nothing is due yet (the answers are today's);
- a learner who answered a lesson's quiz ten days ago (events dated then, in the host's
  store): the course page says how many rules are due, with a link to the review page; the
  review page asks exactly those rules, one question after another, with the quizzes'
  feedback (a miss, Try again, then right); afterwards nothing is due, there and on the
  course page.

What is due, and which questions the page asks, come from the teaching layer
(tutor.teaching.review, ReviewSession) run on the same events, never typed here.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from browser.fixtures import wait_until

from tutor.display.course import INDEX_NOTEBOOK, course_entries, review_entry
from tutor.display.widgets import QUIZ_CLASS
from tutor.resources import notebooks_dir
from tutor.teaching.lesson import Lesson
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.progress import Progress
from tutor.teaching.progress_events import EVENT_VERSION, parse_event
from tutor.teaching.progress_stores import MemoryStore
from tutor.teaching.progress_summary import Summary
from tutor.teaching.review import RuleMemories, item_rules
from tutor.teaching.review_session import ReviewSession
from tutor.teaching.rule_map import rule_map
from tutor.teaching.text import text, text_for_count

from .hosts import ACTION_TIMEOUT, LOAD_TIMEOUT, Host
from .learner import TRY_AGAIN, expect, feedback_of, give, question_titled, wrong_answer

LESSON = "07_scoring"
PHONE = {"width": 360, "height": 740}
MAP_ROW = ".tutor-map-group"


def course_lessons() -> list[Lesson]:
    return [entry.lesson for entry in course_entries(notebooks_dir()) if entry.lesson]


def groups_asked(lesson: Lesson) -> set[str]:
    """The groups of the rules ``lesson``'s quiz asks (the course's own tags)."""
    rules = {rule for item in lesson.quiz for rule in item.rules}
    assert rules, f"{lesson.id}'s quiz names no rule: the map cannot move"
    return {rule_map().rule(rule).group for rule in rules}


def open_course(host: Host, page: Any, lang: str) -> Any:
    """The course page, once it shows this learner's progress (and so the map)."""
    host.open(page, INDEX_NOTEBOOK, lang=lang)
    content = host.content(page)
    expect()(content.locator(".tutor-continue-link")).to_be_visible(timeout=LOAD_TIMEOUT)
    expect()(content.locator(MAP_ROW)).to_have_count(len(rule_map().groups))
    return content


def shown_map(content: Any, lang: str) -> dict[str, str]:
    """Each group's status on the map, checked to be said in words and a symbol."""
    statuses = {}
    by_name = {group.name(lang): group.id for group in rule_map().groups}
    for row in content.locator(MAP_ROW).all():
        group = by_name[row.locator(".tutor-map-name").inner_text().strip()]
        status = next(
            name.removeprefix("is-")
            for name in (row.get_attribute("class") or "").split()
            if name.startswith("is-")
        )
        words = row.inner_text()
        assert text(f"review.status-{status}", lang) in words, words
        assert words.strip()[0] in "○◐●", words
        statuses[group] = status
    return statuses


def test_answering_a_lessons_quiz_moves_its_groups_on_the_map(host: Host, page: Any) -> None:
    lang = "en"
    lesson = load_lesson(LESSON)
    asked = groups_asked(lesson)
    content = open_course(host, page, lang)
    assert set(shown_map(content, lang).values()) == {"new"}

    host.open(page, f"{LESSON}.ipynb", lang=lang)
    content = host.content(page)
    questions = lesson.questions()
    for number, question in enumerate(questions, start=1):
        quiz = question_titled(content, number, len(questions), lang)
        give(quiz, question, question.correct_answer(), lang)
        feedback_of(quiz, right=True)
    wait_until(
        lambda: host.saved_events(page) >= len(questions),
        ACTION_TIMEOUT,
        lambda: f"the store to hold {len(questions)} answers ({host.saved_events(page)})",
    )

    content = open_course(host, page, lang)
    statuses = shown_map(content, lang)
    assert {group for group, status in statuses.items() if status != "new"} == asked
    assert {statuses[group] for group in asked} == {"learning"}
    expect()(content.locator(".tutor-review-due")).to_have_count(0)  # today's answers

    # On a phone: the map is one column, every row inside the page's width.
    host.narrow(page, PHONE)
    rows = content.locator(MAP_ROW)
    overflow = content.locator(".tutor-rule-map").evaluate(
        """(map) => {
            const width = document.documentElement.clientWidth;
            return [...map.children].filter(row => row.getBoundingClientRect().right > width + 0.5
                || row.scrollWidth > row.clientWidth + 0.5).map(row => row.textContent);
        }"""
    )
    assert overflow == [], f"rows of the map past a {PHONE['width']} px phone's width: {overflow}"
    lefts = {round(row.bounding_box()["x"]) for row in rows.all()}  # type: ignore[index]
    assert len(lefts) == 1, f"the map is not one column on a phone: {lefts}"


def answered_days_ago(lesson: Lesson, days: int) -> list[dict[str, Any]]:
    """Every question of ``lesson``'s quiz answered right at the first try, ``days`` ago,
    as that day's lesson page wrote it."""
    when = datetime.now(UTC) - timedelta(days=days)
    return [
        {
            "v": EVENT_VERSION,
            "id": uuid.uuid4().hex,
            "time": (when + timedelta(seconds=number)).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            "kind": "quiz",
            "lesson": lesson.id,
            "item": item.id,
            "topic": item.question.topic.value,
            "correct": True,
            "first_try": True,
        }
        for number, item in enumerate(lesson.quiz)
    ]


def test_rules_answered_days_ago_are_due_and_a_review_asks_exactly_them(
    host: Host, page: Any
) -> None:
    lang = "ja"  # the map's scenario is in English
    lessons = course_lessons()
    old = answered_days_ago(load_lesson(LESSON), 10)
    events = [parse_event(json.loads(json.dumps(raw))) for raw in old]
    due = RuleMemories.of(Summary.of(events, {}), item_rules(lessons)).due(datetime.now(UTC))
    expected = ReviewSession(Progress(MemoryStore(events)), lessons, seed=len(events))
    assert due and expected.due == due  # ten days on, every rule the quiz asked

    open_course(host, page, lang)
    host.keep_events(page, old)
    content = open_course(host, page, lang)
    review = content.locator(".tutor-review-due a")
    expect()(review).to_have_text(
        text_for_count("review.due", len(due), lang, count=len(due)) + " →"
    )
    page_file = review_entry(notebooks_dir())
    assert page_file is not None
    # the review page's own address in this host (the static site's is review.html, Lab's
    # a path under /files/ that Lab opens as a notebook)
    href = (review.get_attribute("href") or "").split("?")[0]
    assert href.rsplit("/", 1)[-1].rsplit(".", 1)[0] == page_file.name, href

    host.open(page, page_file.file, lang=lang)
    content = host.content(page)
    status = content.locator(".tutor-review-status")
    expect()(status).to_have_text(
        text_for_count("review.due", len(due), lang, count=len(due)), timeout=LOAD_TIMEOUT
    )
    total = len(expected.questions)
    quizzes = content.locator(f".tutor-review .{QUIZ_CLASS}")
    expect()(quizzes).to_have_count(total, timeout=ACTION_TIMEOUT)
    for number, asked in enumerate(expected.questions, start=1):
        question = asked.question
        quiz = question_titled_in_review(content, number, total, lang)
        expect()(quiz).to_contain_text(question.prompt(lang))
        if number == 1:  # a miss first: the quizzes' hint, Try again, then right
            wrong = wrong_answer(question)
            give(quiz, question, wrong, lang)
            assert question.check(wrong, lang).verdict in feedback_of(quiz, right=False)
            quiz.locator(TRY_AGAIN).click()
            expect()(quiz.locator(TRY_AGAIN)).to_be_hidden(timeout=ACTION_TIMEOUT)
        right = question.correct_answer()
        give(quiz, question, right, lang)
        graded = question.check(right, lang)
        shown = feedback_of(quiz, right=True)
        assert graded.verdict in shown and graded.answer in shown, shown
    expect()(status).to_have_text(text("review.done", lang), timeout=ACTION_TIMEOUT)
    kept = len(old) + total + 1  # the first question twice
    wait_until(
        lambda: host.saved_events(page) >= kept,
        ACTION_TIMEOUT,
        lambda: f"the store to hold {kept} events ({host.saved_events(page)})",
    )

    content = open_course(host, page, lang)
    expect()(content.locator(".tutor-review-due")).to_have_count(0)
    statuses = shown_map(content, lang)
    assert {statuses[group] for group in groups_asked(load_lesson(LESSON))} <= {
        "learning",
        "known",
    }


def question_titled_in_review(content: Any, number: int, total: int, lang: str) -> Any:
    """The review's question ``number`` of ``total``, scrolled to as a learner does."""
    title = text("lesson-quiz.question-number", lang, number=number, total=total)
    quiz = content.locator(f".tutor-review .{QUIZ_CLASS}").filter(
        has=content.page.locator(f".{QUIZ_CLASS}-title", has_text=title)
    )
    quiz.scroll_into_view_if_needed(timeout=ACTION_TIMEOUT)
    return quiz
