"""A learner who reloads the worked example comes back to the step they reached, in every
host: the step is part of their progress (a ``step`` event in the learner's store, the
browser's or Lab's file), the page opens there with the step's own content and Back and
Next as they are at that step, and "Back to step 1", reached with the keyboard, starts it
again (and that too is kept)."""

from __future__ import annotations

from typing import Any

from tutor.teaching.text import text
from tutor.teaching.worked_example import worked_example

from .hosts import ACTION_TIMEOUT, LOAD_TIMEOUT, Host
from .learner import expect

WORKED = "08_worked_example.ipynb"
REACHED = 6
"""The step the learner goes to (Next to step 7, then Back: Back is a move too)."""


def test_the_worked_example_opens_again_at_the_step_the_learner_reached(
    host: Host, page: Any
) -> None:
    lang = "en"
    steps = worked_example(lang).steps
    host.open(page, WORKED, lang=lang)
    content = host.content(page)
    position = content.locator(".tutor-step-position")
    title = content.locator(".tutor-step-page h3")
    back = content.locator("button.tutor-step-back")
    following = content.locator("button.tutor-step-next")
    first = content.locator("button.tutor-step-first")

    def at_step(number: int, timeout: int = ACTION_TIMEOUT) -> None:
        expect()(position).to_have_text(
            text("stepper.position", lang, number=number, total=len(steps)), timeout=timeout
        )
        expect()(title).to_have_text(steps[number - 1].title)

    at_step(1, LOAD_TIMEOUT)
    for number in range(2, REACHED + 2):
        following.click()
        at_step(number)
    back.click()
    at_step(REACHED)

    host.reload(page)
    at_step(REACHED, LOAD_TIMEOUT)  # the browser's store answers once the page is up
    expect()(back).to_be_enabled()
    expect()(following).to_be_enabled()
    expect()(first).to_have_text(text("stepper.first", lang))

    # The way back to the start, with the keyboard as with the mouse.
    first.focus()
    page.keyboard.press("Enter")
    at_step(1)
    expect()(back).to_be_disabled()
    expect()(first).to_be_disabled()
    host.reload(page)
    at_step(1, LOAD_TIMEOUT)
    following.click()  # the page works on from there
    at_step(2)
