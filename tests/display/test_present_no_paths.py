"""Nothing on a projected page names a file of the server (issue 32): every page of the
course in presenter mode (``?present=1``), drawn for a hub teacher whose answers are kept
in a file on the server, shows no path, whether that file is new or broken (then the
page's notice names it). Seen in front
of a class: the course page said "... in the file .../learners/teacher/.wizard-tutor/
progress.jsonl".

What a projector shows is what the page displays, less what presenter mode hides
(tutor.css: ``body.tutor-presenting .tutor-learner-only``, ``.tutor-hidden``) and what is
not displayed (a widget set invisible); each page is drawn in-process, as the notebook's
one cell draws it in the app.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

import tutor.display as display
from tutor.display.context import Frontend, PageContext
from tutor.display.progress_view import LearnerProgress
from tutor.teaching.progress import Progress
from tutor.teaching.progress_stores import FileStore

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
HIDDEN_WHEN_PRESENTING = {"tutor-learner-only", "tutor-hidden", "tutor-hidden-cell"}
VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
ABSOLUTE_PATH = re.compile(r"(?<![\w:/.~])/(?:[\w.-]+/)+[\w.-]+|~/[\w./-]+")
"""A path as a page would print one: "/srv/hub/learners/x/progress.jsonl", "~/.x/y"
(not a URL's path: that follows a host; not "1/2")."""


def course_pages() -> list[tuple[str, str, str]]:
    """(notebook, the function its cell calls, the name it passes) for every page."""
    pages = []
    for notebook in sorted(NOTEBOOKS.glob("*.ipynb")):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        (source,) = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
        calls = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call)]
        (call,) = calls
        assert isinstance(call.func, ast.Name), source
        name = call.args[0].value if call.args else ""  # type: ignore[attr-defined]
        pages.append((notebook.name, call.func.id, name))
    return pages


class ShownText(HTMLParser):
    """The text HTML shows (no style sheet or script), elements of the ``hidden`` classes
    left out."""

    def __init__(self, hidden: set[str]) -> None:
        super().__init__()
        self.hidden = hidden | {"style", "script"}
        self.words: list[str] = []
        self._hidden_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        classes = {tag, *(dict(attrs).get("class") or "").split()}
        if self._hidden_depth or classes & self.hidden:
            self._hidden_depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self._hidden_depth:
            self._hidden_depth -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden_depth:
            self.words.append(data)


def shown_html(html: str, hidden: set[str]) -> str:
    parser = ShownText(hidden)
    parser.feed(html)
    parser.close()
    return " ".join(parser.words)


def widget_text(widget: Any, hidden: set[str]) -> Iterator[str]:
    """The words a widget shows (and its tooltips), its hidden parts left out."""
    if set(getattr(widget, "_dom_classes", ())) & hidden:
        return
    layout = getattr(widget, "layout", None)
    if layout is not None and layout.display == "none":
        return
    for trait in ("value", "description", "tooltip", "placeholder"):
        value = getattr(widget, trait, None)
        if isinstance(value, str):
            yield shown_html(value, hidden)
    if isinstance(widget, widgets.Output):
        for output in widget.outputs:
            data = output.get("data", {})
            yield shown_html(data.get("text/html", ""), hidden) or data.get("text/plain", "")
    for child in getattr(widget, "children", ()):
        yield from widget_text(child, hidden)


def shown_text(displayed: list[Any], *, presenting: bool) -> str:
    """What the displayed objects show: on a projector, less what presenter mode hides."""
    hidden = HIDDEN_WHEN_PRESENTING if presenting else {"tutor-hidden"}
    parts: list[str] = []
    for shown in displayed:
        if isinstance(shown, dict):  # a widget (show_widget's bundle)
            view = shown.get("application/vnd.jupyter.widget-view+json")
            if view:
                parts += widget_text(widgets.widget._instances[view["model_id"]], hidden)
        elif hasattr(shown, "data"):  # HTML, Markdown
            parts.append(shown_html(str(shown.data), hidden))
    return "\n".join(parts)


def test_presenter_mode_hides_what_this_test_leaves_out() -> None:
    css = (REPO / "tutor/app/jupyter/nbconvert/templates/tutor/static/tutor.css").read_text()
    for name in HIDDEN_WHEN_PRESENTING:
        assert f"body.tutor-presenting .{name}," in css, name


@pytest.fixture
def displayed(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    import IPython.display

    shown: list[Any] = []
    monkeypatch.setattr(IPython.display, "display", lambda *objs, **_kw: shown.extend(objs))
    return shown


@pytest.mark.parametrize("broken", [False, True], ids=["no-file-yet", "broken"])
@pytest.mark.parametrize(("notebook", "function", "name"), course_pages(), ids=lambda v: str(v))
def test_no_presenter_page_shows_a_file_of_the_server(
    notebook: str,
    function: str,
    name: str,
    broken: bool,
    displayed: list[Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("JUPYTERHUB_USER", "teacher")  # the hub's learner: "in your account"
    path = tmp_path / "learners" / "teacher" / ".wizard-tutor" / "progress.jsonl"
    if broken:  # unreadable: the notice names the file
        path.parent.mkdir(parents=True)
        path.write_bytes(b"\xff\n")
    learner = LearnerProgress(Progress(FileStore(path)))
    # (the page's own words name the file where it is not presenting: the test can fail)
    show = getattr(display, function)
    for presenting in (False, True):
        displayed.clear()
        context = PageContext("en", Frontend.APP, presenting=presenting)
        show(*([name] if name else []), folder=NOTEBOOKS, context=context, learner=learner)
        words = shown_text(displayed, presenting=presenting)
        assert words.strip(), f"{notebook}: nothing shown"
        found = [p for p in ABSOLUTE_PATH.findall(words) if "wizard-tutor" in p]
        if presenting:
            assert str(tmp_path) not in words, f"{notebook} on a projector: {words}"
            assert ABSOLUTE_PATH.findall(words) == [], f"{notebook} on a projector"
        elif function == "show_course_page":
            assert found, f"{notebook} for a learner names their file: {words}"
