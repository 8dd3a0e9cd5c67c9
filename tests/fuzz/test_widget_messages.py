"""Widget messages a browser can send to a page's kernel (comm messages: ``update``,
``custom``, ``request_state``), fed to the tutor's real widgets in-process, guarded as the
app's kernel guards them (:func:`tutor.app.kernel.guard_widget_messages`): a malformed one
(wrong type, unknown property, unknown method, content that is not an object, buffers that
do not fit) is refused with one line naming the problem; a well-formed one, however odd
(huge values, clicks on any button in any order), is handled; never an exception, a
traceback, a hang or unbounded memory."""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ipywidgets
import pytest
from hypothesis import given
from hypothesis import strategies as st
from ipywidgets.widgets import widget as widget_module

from tutor.app.kernel import guard_widget_messages
from tutor.display.answer_box import AnswerBox
from tutor.display.browser_store import BrowserStore
from tutor.display.reach import Deferred
from tutor.display.widgets import QuizWidget
from tutor.teaching.progress import Progress
from tutor.teaching.progress_stores import PROGRESS_FILE_VARIABLE, PROGRESS_STORE_VARIABLE
from tutor.teaching.quiz import MAX_NUMBER_DIGITS, ScoreQuestion
from tutor.teaching.text import text

from .bounds import bounded, examples

ENTRY = "widget messages (in-process)"
SECONDS, MEGABYTES = 10.0, 64.0


@pytest.fixture(scope="module")
def guarded() -> Iterator[None]:
    """The app kernel's guard, for this module only."""
    original = ipywidgets.Widget._handle_msg
    guard_widget_messages()
    yield
    ipywidgets.Widget._handle_msg = original


@pytest.fixture(scope="module")
def page_widgets(guarded: None, tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    """Every widget of four pages (a lesson with its quiz, the scoring lesson's number box,
    practice, the play screen) and the browser's progress store."""
    from tutor.display import show_lesson_page, show_play_page, show_practice_page

    progress_file = tmp_path_factory.mktemp("progress") / "progress.jsonl"
    patch = pytest.MonkeyPatch()
    patch.setenv(PROGRESS_STORE_VARIABLE, "file")
    patch.setenv(PROGRESS_FILE_VARIABLE, str(progress_file))
    before = set(widget_module._instances)
    with contextlib.redirect_stdout(io.StringIO()):  # display() outside a kernel prints
        show_lesson_page("06")
        unreached = set(widget_module._instances)
        show_lesson_page("07")
        # Lesson 07's questions reached, as a learner scrolling to them does: 06's stay
        # stand-ins, so both are fuzzed.
        for key, widget in list(widget_module._instances.items()):
            if key not in unreached and isinstance(widget, Deferred):
                widget.stand_in.reached = True
        show_practice_page("09_practice")
        show_play_page("11_play_a_round")
    store = BrowserStore()
    store.serve(Progress(store))
    patch.undo()
    return [w for key, w in widget_module._instances.items() if key not in before]


def send(widget: Any, data: object, buffers: list[bytes] | None = None) -> None:
    """What the kernel does with a comm message from the page to ``widget``."""
    widget.comm.handle_msg(
        {"content": {"comm_id": widget.model_id, "data": data}, "buffers": buffers or []}
    )


def no_traceback(records: list[logging.LogRecord]) -> None:
    for record in records:
        assert record.exc_info is None, record.getMessage()
        assert "Traceback" not in record.getMessage()


def refusals(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "tutor.app.kernel"]


def first(widgets: list[Any], kind: type, **where: object) -> Any:
    return next(
        w
        for w in widgets
        if isinstance(w, kind) and all(getattr(w, k) == v for k, v in where.items())
    )


# -- a corpus of malformed messages ----------------------------------------------------------

MALFORMED: dict[str, tuple[type, object, str]] = {
    # the widget's kind, the message's data, words of the refusal
    "a number where text goes": (
        AnswerBox,
        {"method": "update", "state": {"value": 5}},
        "value = 5",
    ),
    "an unknown property": (
        ipywidgets.Button,
        {"method": "update", "state": {"evil": 1}},
        "'evil' is not a property",
    ),
    "a list where true/false goes": (
        ipywidgets.Button,
        {"method": "update", "state": {"disabled": [1]}},
        "disabled = [1]",
    ),
    "a layout width of a number": (
        ipywidgets.Layout,
        {"method": "update", "state": {"width": 5}},
        "width = 5",
    ),
    "state that is a list": (
        ipywidgets.HTML,
        {"method": "update", "state": [1, 2]},
        "state [1, 2] is not an object",
    ),
    "no method": (ipywidgets.Button, {"state": {}}, "unknown method None"),
    "an unknown method": (
        ipywidgets.Button,
        {"method": "exec", "code": "1"},
        "unknown method 'exec'",
    ),
    "custom content that is a list": (
        ipywidgets.Button,
        {"method": "custom", "content": ["click"]},
        "is not an object",
    ),
    "custom content that is text": (
        AnswerBox,
        {"method": "custom", "content": "submit"},
        "is not an object",
    ),
    "data that is text": (ipywidgets.Button, "update", "its data is not an object"),
    "data that is null": (ipywidgets.Button, None, "its data is not an object"),
    "buffers that do not fit": (
        ipywidgets.HTML,
        {"method": "update", "state": {}, "buffer_paths": [["no", "such", 1]]},
        "buffer paths",
    ),
    "a browser store's value of a number": (
        BrowserStore,
        {"method": "update", "state": {"stored": 12}},
        "stored = 12",
    ),
    "a huge number where text goes": (
        AnswerBox,
        {"method": "update", "state": {"value": 10**4000}},
        "value = 1000000",
    ),
}


@pytest.mark.parametrize("kind, data, words", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_message_is_refused_with_one_line_naming_the_problem(
    page_widgets: list[Any], caplog: pytest.LogCaptureFixture, kind: type, data: object, words: str
) -> None:
    caplog.set_level(logging.DEBUG)
    widget = first(page_widgets, kind)
    before = widget.get_state()
    with bounded(ENTRY, words, seconds=SECONDS, megabytes=MEGABYTES):
        send(widget, data, [b"x"] if isinstance(data, dict) and "buffer_paths" in data else None)
    assert widget.get_state() == before  # nothing changed
    (refusal,) = refusals(caplog)
    assert words in refusal and len(refusal) < 400, refusal
    no_traceback(caplog.records)


def test_5000_digits_in_a_points_box_are_too_long_and_grade_nothing(
    page_widgets: list[Any], caplog: pytest.LogCaptureFixture
) -> None:
    quiz = next(w for w in page_widgets if isinstance(w, QuizWidget) and w.answer_input is not None)
    assert isinstance(quiz.question, ScoreQuestion)
    box = quiz.answer_input
    for typed, words in (
        ("9" * 5000, text("quiz.number-too-long", digits=5000, limit=MAX_NUMBER_DIGITS)),
        ("−" + "１" * 10, text("quiz.number-too-long", digits=10, limit=MAX_NUMBER_DIGITS)),
        ("x" * 1_000_000, "“xxxxxxxxxxxxxxxxxxxx…” is not a number"),
    ):
        attempts = quiz.attempts
        with bounded(ENTRY, typed[:20], seconds=SECONDS, megabytes=MEGABYTES):
            send(box, {"method": "custom", "content": {"event": "submit", "value": typed}})
        assert words in quiz.feedback.value, quiz.feedback.value[:300]
        assert quiz.attempts == attempts and not quiz.answered  # nothing graded
        assert len(quiz.feedback.value) < 2000
    assert refusals(caplog) == []
    no_traceback(caplog.records)


# -- generated messages ----------------------------------------------------------------------

_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False)
    | st.text(max_size=50)
    | st.sampled_from(["x" * 100_000, "9" * 5000, "IPY_MODEL_nope", "click", "submit"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
_EVENTS = st.fixed_dictionaries(
    {"event": st.sampled_from(["click", "submit", "x"])},
    optional={
        "value": st.text(max_size=20) | _JSON,
        "op": st.sampled_from(["failed"]),
        "reason": _JSON,
    },
)


@st.composite
def messages(draw: st.DrawFn, widget: Any) -> tuple[object, list[bytes]]:
    keys = sorted(widget.keys)
    method = draw(
        st.sampled_from(["update", "update", "update", "custom", "custom", "request_state", "nope"])
    )
    if method == "update":
        state = draw(
            st.dictionaries(st.sampled_from(keys) | st.text(max_size=8), _JSON, max_size=3)
        )
        return {"method": "update", "state": state}, []
    if method == "custom":
        return {"method": "custom", "content": draw(_EVENTS | _JSON)}, []
    return {"method": method}, []


@examples(300)
@given(data=st.data())
def test_any_message_to_any_widget_is_handled_or_refused(
    page_widgets: list[Any], caplog: pytest.LogCaptureFixture, data: st.DataObject
) -> None:
    caplog.set_level(logging.DEBUG)
    caplog.clear()
    widget = data.draw(st.sampled_from(page_widgets), label="widget")
    message, buffers = data.draw(messages(widget), label="message")
    with bounded(
        ENTRY, f"{type(widget).__name__}: {message!r}", seconds=SECONDS, megabytes=MEGABYTES
    ):
        send(widget, message, buffers)
    no_traceback(caplog.records)


def test_the_pages_built_here_are_the_apps(page_widgets: list[Any]) -> None:
    """The fuzzed widgets include every kind the pages' learners type into or press."""
    kinds = {type(w).__name__ for w in page_widgets}
    assert {
        "Button",
        "ToggleButton",
        "AnswerBox",
        "HTML",
        "QuizWidget",
        "BrowserStore",
        "StandIn",
    } <= kinds, kinds
    assert Path(ipywidgets.__file__).exists()
