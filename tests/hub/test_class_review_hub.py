"""The teacher's "Rules the class is weakest on" on a real JupyterHub, in Chromium: three
learners' answers (tests/hub/class_answers.py: each rule's memory state plain by FSRS's own
numbers) reach the class-results service as each learner's server reports them (with that
learner's own hub token), and the teacher's page lists the weakest rules, weakest first,
each rule's sentence and its numbers in words, and every rule the class met in a table
that opens by keyboard, in the teacher's language, readable on a phone and on a projector.

A hub of its own (deploy/hub.sh as a teacher starts it: each learner's own password), with
no learner's server started: the reports are what a server sends. Markers ``hub``,
``browser``, ``slow``: about half a minute on 2 cores.
"""

from __future__ import annotations

import json
import secrets
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from tutor.teaching.rule_map import rule_map
from tutor.teaching.text import LANGUAGES, text

from .class_answers import (
    LEARNERS,
    MET,
    SEEN_RULES,
    WEAKEST,
    a_class,
    counts_in_words,
    row_in_words,
    sentence_in,
)
from .hub_harness import RunningHub, is_loopback_url, running_hub
from .hub_pages import log_in

pytestmark = [pytest.mark.hub, pytest.mark.browser, pytest.mark.slow]

TEACHER = "teach"
TEACHER_PASSWORD = f"teach-{secrets.token_urlsafe(9)}"
SERVICE_PAGE = "services/class-results/"
PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1024, "height": 768}
"""A classroom projector's usual picture (XGA)."""


@pytest.fixture(scope="module")
def review_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHub]:
    with running_hub(
        tmp_path_factory.mktemp("review-hub"),
        auth="native",
        password="",
        admins=[TEACHER],
        admin_password=TEACHER_PASSWORD,
        learners=LEARNERS,
    ) as hub:
        yield hub


def report(hub: RunningHub, learner: str, events: list[dict[str, Any]]) -> dict[str, Any]:
    """Report ``events`` to the class-results service as ``learner``'s server does: with a
    hub token of that learner's."""
    request = urllib.request.Request(
        f"{hub.url}/{SERVICE_PAGE}api/events",
        data=json.dumps({"events": events}).encode(),
        headers={
            "Authorization": f"token {hub.user_token(learner)}",
            "Content-Type": "application/json",
        },
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def weakest_rules_shown(page: Any) -> list[dict[str, Any]]:
    """The section's rules as a person reads them: each one's sentence, that sentence's
    language, and its numbers."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('#weakest-rules > li')].map((li) => {
                 const sentence = li.querySelector('.rule-text');
                 return {
                   sentence: sentence.innerText.trim(),
                   lang: (sentence.querySelector('[lang]') || document.documentElement).lang,
                   counts: [...li.querySelectorAll('.rule-counts li')].map((c) => c.innerText.trim()),
                 };
               })"""
        )
    )


def test_the_teacher_sees_the_rules_the_class_is_weakest_on(
    review_hub: RunningHub, browser: Any
) -> None:
    class_answers = a_class(datetime.now(UTC))
    for learner, events in class_answers.items():
        assert report(review_hub, learner, events) == {
            "received": len(events),
            "new": len(events),
        }
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    context.route(
        "**/*",
        lambda route: route.continue_() if is_loopback_url(route.request.url) else route.abort(),
    )
    page = context.new_page()
    page.on("request", lambda request: requests.append(request.url))
    try:
        posted = log_in(page, review_hub.url, TEACHER, TEACHER_PASSWORD, SERVICE_PAGE)
        assert posted.status == 302
        page.wait_for_url(f"**/{SERVICE_PAGE}")
        for lang in LANGUAGES:
            response = page.goto(f"{review_hub.url}/{SERVICE_PAGE}?lang={lang}")
            assert response is not None and response.status == 200
            heading = page.get_by_role("heading", name=text("teacher-review.heading", lang))
            assert heading.is_visible()
            shown = weakest_rules_shown(page)
            expected = []
            for rule, numbers in WEAKEST:
                sentence, sentence_lang = sentence_in(rule, lang)
                counts = counts_in_words(numbers, lang)
                expected.append({"sentence": sentence, "lang": sentence_lang, "counts": counts})
            assert shown == expected, lang
            # every rule the class met, weakest first: a table folded away, opened by keyboard
            table = page.locator("#class-rules")
            assert not table.is_visible()
            page.locator("#every-rule > summary").focus()
            page.keyboard.press("Enter")
            assert table.is_visible()
            rows = page.evaluate(
                """() => [...document.querySelectorAll('#class-rules tbody tr')].map(
                     (row) => [...row.cells].map((cell) => cell.innerText.trim()))"""
            )
            assert rows == [
                [sentence_in(rule, lang)[0], *row_in_words(numbers, lang)] for rule, numbers in MET
            ], lang
            total = len(rule_map().rules)
            unseen = text(
                "teacher-review.unseen-rules", lang, count=total - SEEN_RULES, total=total
            )
            assert page.locator("#unseen-rules").inner_text() == unseen
        # readable on a phone and on a projector: each rule's sentence and numbers within
        # the screen's width (the page's wide tables of learners scroll on a phone: not
        # this section), in view when scrolled to, in a readable size
        for size, smallest in ((PHONE, 12), (PROJECTOR, 16)):
            page.set_viewport_size(size)
            page.goto(f"{review_hub.url}/{SERVICE_PAGE}?lang=en")
            rules = page.locator("#weakest-rules > li")
            assert rules.count() == len(WEAKEST)
            page.locator("#every-rule > summary").click()
            # the table scrolls sideways within the screen, by keyboard too
            every = text("teacher-review.every-rule", count=SEEN_RULES)
            region = page.get_by_role("region", name=every)
            box = region.bounding_box()
            assert box is not None and box["x"] + box["width"] <= size["width"], (size, box)
            if size == PHONE:
                region.focus()
                page.keyboard.press("ArrowRight")
                page.wait_for_function(
                    "document.querySelector('#every-rule .scrolls').scrollLeft > 0"
                )
            for rule in rules.all():
                rule.scroll_into_view_if_needed()
                for line in rule.locator(".rule-text, .rule-counts li").all():
                    box = line.bounding_box()
                    assert box is not None and box["x"] >= 0, (size, box)
                    assert box["x"] + box["width"] <= size["width"], (size, line.inner_text(), box)
                    assert line.is_visible(), (size, line.inner_text())
                    font = line.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
                    assert font >= smallest, (size, line.inner_text(), font)
        assert [url for url in requests if not is_loopback_url(url)] == []
    finally:
        context.close()
