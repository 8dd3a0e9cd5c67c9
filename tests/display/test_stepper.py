"""The worked example's stepper (tutor.display.stepper): it moves through the steps that
tutor.teaching.worked_example computed with the engine, as a widget and in presenter mode,
and asks no rule of its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tutor.display.stepper import (
    BACK_CLASS,
    CONTROLS_CLASS,
    FIRST_CLASS,
    NEXT_CLASS,
    PAGE_CLASS,
    KeptPlace,
    Stepper,
    worked_example_stepper,
    worked_step_html,
)
from tutor.display.words import words_html
from tutor.teaching.progress import Progress, ProgressState
from tutor.teaching.progress_events import Event, StepEvent
from tutor.teaching.progress_stores import MemoryStore, ProgressStoreError, StoreProblem
from tutor.teaching.text import LANGUAGES, text
from tutor.teaching.worked_example import StepKind, worked_example

EXAMPLE = worked_example()
STEPS = EXAMPLE.steps
TRICK_STEPS = [step for step in STEPS if step.kind is StepKind.TRICK]


def test_stepper_moves_within_bounds() -> None:
    stepper = Stepper(3, lambda index, present: f"<p>{index} {present}</p>")
    stepper.back()
    assert stepper.index == 0
    stepper.next()
    stepper.next()
    stepper.next()
    assert stepper.index == 2 and stepper.page_html() == "<p>2 False</p>"
    stepper.set_present(True)
    assert stepper.page_html() == "<p>2 True</p>"
    with pytest.raises(ValueError, match="no step 3"):
        stepper.go(3)
    with pytest.raises(ValueError, match="at least one step"):
        Stepper(0, lambda index, present: "")


def test_stepper_widget_buttons_step_and_disable_at_the_ends() -> None:
    stepper = worked_example_stepper(present=False)
    box = stepper.widget
    assert "tutor-stepper" in box._dom_classes
    back, next_ = stepper._back, stepper._next
    assert NEXT_CLASS in next_._dom_classes
    assert back.disabled and not next_.disabled
    assert "Round 3: the deal" in stepper._page.value
    for _ in range(len(STEPS) - 1):
        next_.click()
    assert stepper.index == len(STEPS) - 1 and next_.disabled and not back.disabled
    assert stepper._position.value == f"<span>Step {len(STEPS)} of {len(STEPS)}</span>"
    assert "step-mistakes" in stepper._page.value and "score-sheet" in stepper._page.value
    back.click()
    assert "step-score-sheet" in stepper._page.value
    back.click()
    assert "round-scores" in stepper._page.value
    stepper._present_toggle.value = True
    assert stepper.present and "tutor-present" in box._dom_classes


def test_presenter_mode_draws_the_table_large() -> None:
    step = TRICK_STEPS[0]
    normal = worked_step_html(EXAMPLE, step, present=False)
    large = worked_step_html(EXAMPLE, step, present=True)
    assert 'class="tutor-table seats-4"' in normal
    assert 'class="tutor-table seats-4 is-big"' in large


def test_the_controls_come_before_the_page_so_next_never_moves() -> None:
    """Back and Next sit in a row above the step (it sticks to the top of the window):
    whatever the height of a step, Next stays where it was."""
    stepper = worked_example_stepper(present=False)
    box = stepper.widget
    controls = next(child for child in box.children if CONTROLS_CLASS in child._dom_classes)
    page = next(child for child in box.children if PAGE_CLASS in child._dom_classes)
    assert box.children.index(controls) < box.children.index(page)
    assert controls.children[:2] == (stepper._back, stepper._next)
    assert BACK_CLASS in stepper._back._dom_classes and NEXT_CLASS in stepper._next._dom_classes


def test_every_step_shows_the_table_or_its_scores() -> None:
    """What a step shows follows its data: a score sheet, else a round's scores, else the
    table as it stands (so a new kind of step needs no new branch here)."""
    assert {StepKind.SCORE_SHEET, StepKind.ROUND_SCORES} <= {step.kind for step in STEPS}
    for step in STEPS:
        page = worked_step_html(EXAMPLE, step)
        if step.sheet is not None:
            assert 'class="score-sheet"' in page and "tutor-table" not in page
        elif step.score_lines:
            assert 'class="round-scores"' in page and "tutor-table" not in page
        else:
            assert page.count('class="tutor-table ') == 1
            assert all(words_html(sentence) in page for sentence in step.sentences)


def test_the_stepper_presents_when_the_page_context_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``?present=1`` is read where the language is (tutor.display.context): in the app it
    asks for presenter mode; Lab has no presenter mode, whatever its environment says."""
    monkeypatch.setenv("QUERY_STRING", "present=1&lang=ja")
    monkeypatch.setenv("SERVER_SOFTWARE", "voila/0.5.13")
    assert worked_example_stepper().present
    monkeypatch.setenv("QUERY_STRING", "lang=ja")
    assert not worked_example_stepper().present
    monkeypatch.setenv("QUERY_STRING", "present=1")
    monkeypatch.delenv("SERVER_SOFTWARE")
    monkeypatch.delenv("TUTOR_FRONTEND", raising=False)
    assert not worked_example_stepper().present


def test_stepper_module_asks_no_rule_module() -> None:
    """The display layer shows steps; rules stay in the engine (tutor.teaching.worked_example
    asks)."""
    source = Path(__file__).resolve().parents[2] / "tutor" / "display" / "stepper.py"
    imported = {
        node.module
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module
    }
    rule_modules = {
        "tutor.rules.trick",
        "tutor.rules.round",
        "tutor.rules.scoring",
        "tutor.rules.variants",
        "tutor.rules.trump",
        "tutor.rules.game",
        "tutor.rules.schedule",
        "tutor.rules.seats",
    }
    assert imported & rule_modules == set()
    assert "tutor.teaching.worked_example" in imported


# -- the step a learner reached is kept in their progress ----------------------------------


class LateStore(MemoryStore):
    """A store that has not answered yet (the browser's, before the page is up)."""

    def __init__(self, events: list[Event]) -> None:
        super().__init__(events)
        self.answered = False

    def load(self) -> list[Event] | None:
        return super().load() if self.answered else None


def _kept(events: list[Event]) -> tuple[Stepper, Progress]:
    progress = Progress(MemoryStore(events))
    stepper = worked_example_stepper(present=False)
    KeptPlace(stepper, progress, "08_worked_example")
    return stepper, progress


def test_a_move_is_kept_and_the_page_opens_there_again_with_its_buttons_right() -> None:
    stepper, progress = _kept([])
    stepper.widget  # noqa: B018 - drawn, as on a page
    assert stepper._first.disabled and FIRST_CLASS in stepper._first._dom_classes
    for _ in range(6):
        stepper._next.click()
    stepper._back.click()
    steps = [e for e in progress.events if isinstance(e, StepEvent)]
    assert [(e.page, e.step, e.steps) for e in steps][-2:] == [
        ("08_worked_example", 7, len(STEPS)),
        ("08_worked_example", 6, len(STEPS)),
    ]
    reopened, again = _kept(progress.events)  # the same learner opens the page again
    assert reopened.index == 5 and again.events == progress.events  # opening writes nothing
    reopened.widget  # noqa: B018
    assert reopened._position.value == f"<span>Step 6 of {len(STEPS)}</span>"
    assert STEPS[5].title in reopened._page.value
    assert not reopened._back.disabled and not reopened._next.disabled
    reopened._first.click()  # the way back to the start
    assert reopened.index == 0 and reopened._back.disabled and reopened._first.disabled
    assert again.summary().open_at("08_worked_example", len(STEPS)) == 0


def test_a_store_that_answers_late_moves_the_page_unless_the_learner_moved_first() -> None:
    saved: list[Event] = [StepEvent("08_worked_example", 9, len(STEPS))]
    store = LateStore(saved)
    progress = Progress(store)
    stepper = worked_example_stepper(present=False)
    KeptPlace(stepper, progress, "08_worked_example")
    assert progress.state is ProgressState.LOADING and stepper.index == 0
    store.answered = True
    progress.reload()  # the browser's store reports
    assert stepper.index == 8 and progress.events == saved

    store = LateStore(list(saved))
    progress = Progress(store)
    stepper = worked_example_stepper(present=False)
    KeptPlace(stepper, progress, "08_worked_example")
    stepper.next()  # before the store answered
    store.answered = True
    progress.reload()
    assert stepper.index == 1  # the learner's own move wins


def test_a_broken_store_or_a_page_whose_steps_changed_opens_at_step_1() -> None:
    stepper, _ = _kept([StepEvent("08_worked_example", 9, len(STEPS) + 1)])
    assert stepper.index == 0

    class Broken(MemoryStore):
        def load(self) -> list[Event]:
            raise ProgressStoreError(StoreProblem.DAMAGED, "p.jsonl", line=1)

    progress = Progress(Broken())
    stepper = worked_example_stepper(present=False)
    KeptPlace(stepper, progress, "08_worked_example")
    assert stepper.index == 0 and progress.state is ProgressState.BROKEN
    stepper.next()  # the page still counts the move (the notice says the store is broken)
    assert progress.summary().open_at("08_worked_example", len(STEPS)) == 1


def test_the_first_step_button_is_in_every_language() -> None:
    for lang in LANGUAGES:
        stepper = worked_example_stepper(present=False, lang=lang)
        assert stepper.widget is not None
        assert stepper._first.description == text("stepper.first", lang)
    assert len({text("stepper.first", lang) for lang in LANGUAGES}) == len(LANGUAGES)
