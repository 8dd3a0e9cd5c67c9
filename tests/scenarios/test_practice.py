"""Practice as a learner does it, the same in every host: five questions in a row (whatever
kinds practice asks), each graded, then Next question; the tally counts every one; after a
reload the tally is still there.

Practice's questions are random, so the learner answers whatever is asked (the first choice,
the first card then Check, or a number then Enter) and the test counts what the page
graded right and wrong: the tally must say the same.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser.fixtures import wait_until

from tutor.teaching.text import text

from .hosts import ACTION_TIMEOUT, LOAD_TIMEOUT, Host
from .learner import FEEDBACK, NEXT, TRY_AGAIN, answer_whatever_is_asked, expect, tally_pattern

QUESTIONS = 5


def _tally(content: Any, lang: str) -> dict[str, tuple[int, int]]:
    """The tally's rows: topic -> (right, wrong)."""
    pattern = tally_pattern(lang)
    rows = {}
    for row in content.locator(".practice-tally li").all_inner_texts():
        found = pattern.match(row.strip())
        assert found, f"a tally row not in the catalog's words: {row!r}"
        rows[found["topic"]] = (int(found["right"]), int(found["wrong"]))
    return rows


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_practice_five_questions_in_a_row_then_a_reload_keeps_the_tally(
    host: Host, page: Any, lang: str
) -> None:
    host.open(page, "09_practice.ipynb", lang=lang)
    content = host.content(page)
    tally = content.locator(".practice-tally")
    expect()(tally).to_contain_text(text("practice.tally-empty", lang), timeout=LOAD_TIMEOUT)
    quiz = content.locator(".tutor-quiz").first
    right = 0
    for number in range(1, QUESTIONS + 1):
        right += answer_whatever_is_asked(quiz, lang)
        next_button = quiz.locator(NEXT)
        expect()(next_button).to_be_visible(timeout=ACTION_TIMEOUT)
        expect()(next_button).to_have_text(text("widgets.next", lang))
        if number < QUESTIONS:
            next_button.click()
            # a fresh question: nothing graded, no Try again
            expect()(quiz.locator(FEEDBACK)).to_have_count(0, timeout=ACTION_TIMEOUT)
            expect()(quiz.locator(TRY_AGAIN)).to_be_hidden()

    def every_answer_counted() -> dict[str, tuple[int, int]] | None:
        counted = _tally(content, lang)
        return counted if sum(r + w for r, w in counted.values()) == QUESTIONS else None

    counted = wait_until(
        every_answer_counted,
        ACTION_TIMEOUT,
        lambda: f"the tally {_tally(content, lang)} to count {QUESTIONS} answers",
    )
    assert sum(r for r, _wrong in counted.values()) == right, (counted, right)
    rows = tally.locator("li").all_inner_texts()
    # The tally is the kernel's; the store (the browser's, or Lab's file) is written a
    # moment later: a reload before that would find one answer fewer, under load seconds.
    wait_until(
        lambda: host.saved_events(page) >= QUESTIONS,
        ACTION_TIMEOUT,
        lambda: f"the store to hold {QUESTIONS} answers (it holds {host.saved_events(page)})",
    )

    host.reload(page)
    content = host.content(page)
    expect()(content.locator(".practice-tally li")).to_have_text(rows, timeout=LOAD_TIMEOUT)
