"""The course's notebooks, executed as a learner's kernel runs them, in the app (Voilà's
variables: ``?lang=`` in every language) and in JupyterLab (``TUTOR_LANG``), and compared
with what the engine says: every example's answer and reason, every quiz question, the
worked example's first step, in the page's language.

Why more than nbval: ``pytest --nbval-lax notebooks/`` (also in scripts/test.sh, the way
a teacher checks a notebook of their own) runs every notebook and fails on an error, but
compares no output; nbval proper compares a run with the outputs saved in the notebook,
which checks that an output did not change, not that it is right, and would need saved
outputs in one language, with widget model ids, in the very files a learner opens in Lab.
Here the notebooks keep no run outputs (only the note saying how to run them), and the
expected words are computed by the engine in this test, for each language.

Each configuration runs all the notebooks one after another in one kernel (started in
notebooks/, as Voilà and Lab do), to keep the test quick.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import nbformat
import pytest

from display.notebook_run import run_notebook
from tutor.display.course import INDEX_NOTEBOOK, course_entries
from tutor.display.html import format_points
from tutor.display.notebook_form import KERNELSPEC, canonical_notebook
from tutor.display.words import words_html
from tutor.teaching.language import LANGUAGE_NAMES
from tutor.teaching.lesson import DeckFact, ScheduleTableFact, ScoreSheetFact, VariantsFact
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.text import join_words, text
from tutor.teaching.worked_example import worked_example

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

ENGLISH_WORD = re.compile(r"(?<![A-Za-z])(?=[A-Z]?[a-z])[A-Za-z]{3,}(?![A-Za-z])")
"""A word of English (three ASCII letters or more, lower case after the first, even next
to a kana). Card notation (R13, W), seat letters and names in capitals stay the same in
every language; words do not."""
KEPT_WORDS = {"Run", "All", "Cells", "Tab", "Enter", "Escape", "Page", "Down", "Wizard"}
"""JupyterLab's menu words (the run note), the names of keys, and the game's name (as
tests/teaching/test_translations.py keeps them)."""


def notebook_paths() -> list[Path]:
    return sorted(NOTEBOOKS.glob("*.ipynb"))


@dataclass(frozen=True)
class Config:
    lang: str
    frontend: str  # "app" (as Voilà runs a page) or "lab"

    @property
    def id(self) -> str:
        return f"{self.frontend}-{self.lang}"

    def environ(self, progress_file: Path) -> dict[str, str]:
        env = {"TUTOR_PROGRESS_FILE": str(progress_file)}
        if self.frontend == "app":
            env.update(SERVER_SOFTWARE="voila/0.5.13", QUERY_STRING=f"lang={self.lang}")
        else:
            env["TUTOR_LANG"] = self.lang
        return env


CONFIGS = [Config("en", "app"), Config("ja", "app"), Config("zh-Hant", "app"), Config("ja", "lab")]


INLINE_TAGS = frozenset({"a", "b", "code", "em", "i", "small", "span", "strong"})
"""Tags inside a line of words: no space between their words and the words around."""


class _Text(HTMLParser):
    """The words of some HTML, and its links."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self.links: list[dict[str, str]] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script"):
            self._skip += 1
        if tag == "a":
            self.links.append({name: value or "" for name, value in attrs})
        self._between(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script"):
            self._skip -= 1
        self._between(tag)

    def _between(self, tag: str) -> None:
        # words in a line's markup (a card's name in its span) run on; a block's end apart
        if tag not in INLINE_TAGS:
            self.words.append(" ")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.words.append(data)


def html_text(html: str) -> tuple[str, list[dict[str, str]]]:
    parser = _Text()
    parser.feed(html)
    return "".join(parser.words), parser.links


@dataclass
class Page:
    """What one notebook displayed: its outputs, and the texts of its widgets."""

    name: str
    progress_file: str = ""
    outputs: list[dict[str, Any]] = field(default_factory=list)
    widget_html: list[str] = field(default_factory=list)

    def markdown(self) -> str:
        parts = [
            "".join(output["data"]["text/markdown"])
            for output in self.outputs
            if "text/markdown" in output.get("data", {})
        ]
        return "\n".join(parts).replace("  \n", "\n")

    def html(self) -> list[str]:
        return [
            "".join(output["data"]["text/html"])
            for output in self.outputs
            if "text/html" in output.get("data", {})
        ] + self.widget_html

    def words(self) -> str:
        return self.markdown() + "\n" + "\n".join(html_text(html)[0] for html in self.html())

    def links(self) -> list[dict[str, str]]:
        return [link for html in self.html() for link in html_text(html)[1]]


def _widget_children(state: dict[str, Any], model_id: str) -> Iterator[dict[str, Any]]:
    """The state of ``model_id`` and of every widget inside it (children, outputs)."""
    seen: set[str] = set()
    todo = [model_id]
    while todo:
        current = todo.pop()
        if current in seen or current not in state:
            continue
        seen.add(current)
        model = state[current]["state"]
        yield model
        for value in model.values():
            values = value if isinstance(value, list | tuple) else [value]
            for item in values:
                if isinstance(item, str) and item.startswith("IPY_MODEL_"):
                    todo.append(item.removeprefix("IPY_MODEL_"))


def _widget_html(state: dict[str, Any], model_id: str) -> list[str]:
    found = []
    for model in _widget_children(state, model_id):
        if isinstance(model.get("value"), str):
            found.append(model["value"])
        if isinstance(model.get("html"), str):  # a question's stand-in, until it is reached
            found.append(model["html"])
        for output in model.get("outputs", []) or []:
            if "text/html" in output.get("data", {}):
                found.append("".join(output["data"]["text/html"]))
    return found


def progress_file(pages: dict[str, Page]) -> str:
    """The progress file a run used (the practice page names it in Lab)."""
    return pages["index"].progress_file


def run_course(config: Config, tmp_path: Path) -> dict[str, Page]:
    """Every notebook run in one kernel under ``config``, by notebook name."""
    merged = nbformat.v4.new_notebook()
    places: list[str] = []
    for path in notebook_paths():
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code":
                merged.cells.append(nbformat.v4.new_code_cell(cell.source))
                places.append(path.stem)
    unset = ("TUTOR_PROGRESS_FILE", "TUTOR_PROGRESS_STORE", "TUTOR_LANG", "TUTOR_FRONTEND",
             "SERVER_SOFTWARE", "QUERY_STRING")  # fmt: skip
    env: dict[str, str | None] = dict.fromkeys(unset)
    env.update(config.environ(tmp_path / "progress.jsonl"))
    state = run_notebook(
        merged, env=env, folder=NOTEBOOKS, kernel_name=KERNELSPEC["name"], allow_errors=True
    )
    pages: dict[str, Page] = {}
    for name, cell in zip(places, merged.cells, strict=True):
        page = pages.setdefault(name, Page(name, str(tmp_path / "progress.jsonl")))
        for output in cell.outputs:
            page.outputs.append(output)
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view:
                page.widget_html += _widget_html(state, view["model_id"])
    return pages


@pytest.fixture(scope="module", params=CONFIGS, ids=lambda config: config.id)
def course(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Config, dict[str, Page]]:
    config: Config = request.param
    return config, run_course(config, tmp_path_factory.mktemp(config.id))


# -- the files themselves ------------------------------------------------------------------------


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda path: path.name)
def test_a_notebook_is_kept_in_its_canonical_form(path: Path) -> None:
    """No run outputs, no execution counts, ipykernel's kernelspec: JupyterLab shows the
    run note before a run, and saving it in this form changes nothing that matters."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert notebook == json.loads(nbformat.writes(nbformat.from_dict(canonical_notebook(notebook))))


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda path: path.name)
def test_a_notebook_is_one_call_with_no_comment_for_the_app_or_the_tests(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    assert len(code) == 1 and len(notebook.cells) == 1
    assert "#" not in code[0] and "def " not in code[0]
    lines = [line for line in code[0].splitlines() if line.strip()]
    assert len(lines) == 2 and lines[0].startswith("from tutor.display import show_")
    if path.name != INDEX_NOTEBOOK:
        assert lines[1] == f'{lines[0].split()[-1]}("{path.stem}")'


def test_the_course_has_every_kind_of_page() -> None:
    names = {path.stem for path in notebook_paths()}
    assert {"index", "08_worked_example", "09_practice", "11_play_a_round", "review"} <= names
    assert len(names) == 13


# -- what a run shows ----------------------------------------------------------------------------------


def test_every_page_runs_and_shows_nothing_printed_and_no_repr(
    course: tuple[Config, dict[str, Page]],
) -> None:
    config, pages = course
    assert set(pages) == {path.stem for path in notebook_paths()}
    note = text("course.widget-note", config.lang)
    for name, page in pages.items():
        assert page.outputs, name
        for output in page.outputs:
            kind = output["output_type"]
            assert kind == "display_data", (
                f"{name}: {kind} {output.get('ename', '')} {output.get('evalue', '')}"
            )
            data = output["data"]
            rich = set(data) - {"text/plain"}
            assert rich, f"{name} shows plain text only: {data.get('text/plain')!r}"
            if WIDGET_VIEW in data:  # where a widget cannot be drawn, the note, never a repr
                assert "".join(data["text/plain"]) == note, name


def test_every_page_links_to_the_course_and_its_neighbours(
    course: tuple[Config, dict[str, Page]],
) -> None:
    config, pages = course
    entries = course_entries(NOTEBOOKS, lang=config.lang)
    files = [entry.file for entry in entries]
    query = f"?lang={config.lang}" if config.frontend == "app" else ""
    for position, entry in enumerate(entries):
        top = "".join(pages[entry.name].outputs[0]["data"]["text/html"])
        words, links = html_text(top)
        hrefs = [link["href"] for link in links]
        expected = [f"{INDEX_NOTEBOOK}{query}"]
        if position > 0:
            expected.append(f"{files[position - 1]}{query}")
        if position + 1 < len(files):
            expected.append(f"{files[position + 1]}{query}")
        assert hrefs == expected, entry.file
        assert text("nav.course", config.lang) in words
        if position + 1 < len(files):
            assert text("nav.next", config.lang, title=entries[position + 1].title) in words


def test_lesson_pages_show_the_engines_answers_in_the_pages_language(
    course: tuple[Config, dict[str, Page]],
) -> None:
    config, pages = course
    lang = config.lang
    checked = 0
    for name, page in pages.items():
        if not name[:2].isdigit() or name in ("08_worked_example", "11_play_a_round"):
            continue
        lesson = load_lesson(name)
        shown = page.words()
        assert f"# {lesson.title(lang)}" in page.markdown()
        for section in lesson.sections:
            assert section.heading(lang) in shown
        for item in lesson.examples:
            subject = item.subject
            if isinstance(subject, ScheduleTableFact):
                expected = [join_words(schedule, lang) for schedule in subject.schedules().values()]
            elif isinstance(subject, ScoreSheetFact):
                expected = [format_points(total) for total in subject.sheet().totals]
            elif isinstance(subject, DeckFact | VariantsFact):
                expected = [subject.as_text(lang)]
            else:
                # "- " lines are the items of a bulleted list on the page
                lines = item.as_text(lang).splitlines()
                expected = [line.removeprefix("- ") for line in lines if line.strip()]
            for line in expected:
                assert line in shown, f"{name}, example {item.id!r} in {lang}: {line!r} not shown"
            checked += 1
        for question in lesson.questions():
            prompt = words_html(question.prompt(lang))
            assert any(prompt in html for html in page.widget_html), (name, prompt)
    assert checked > 40


def test_the_worked_example_practice_and_play_pages_show_their_widgets(
    course: tuple[Config, dict[str, Page]],
) -> None:
    config, pages = course
    lang = config.lang
    first_step = worked_example(lang).steps[0].title
    assert any(first_step in html for html in pages["08_worked_example"].widget_html)
    assert f"# {text('worked.title', lang)}" in pages["08_worked_example"].markdown()
    assert any(
        text("practice.tally-heading", lang) in html for html in pages["09_practice"].widget_html
    )
    assert f"# {text('play-screen.title', lang)}" in pages["11_play_a_round"].markdown()
    assert any(WIDGET_VIEW in output["data"] for output in pages["11_play_a_round"].outputs)
    # a new learner's review page: nothing due (the app's browser store answers only once
    # a browser shows the page: until then it says so)
    assert f"# {text('review.title', lang)}" in pages["review"].markdown()
    status = text("course.loading" if config.frontend == "app" else "review.none-due", lang)
    assert any(status in html for html in pages["review"].widget_html)


def test_the_course_page_lists_every_page_with_its_summary(
    course: tuple[Config, dict[str, Page]],
) -> None:
    config, pages = course
    index = pages["index"]
    shown = index.words()
    assert text("course.title", config.lang) in shown
    links = [link["href"] for link in index.links() if "tutor-open" in link.get("class", "")]
    query = f"?lang={config.lang}" if config.frontend == "app" else ""
    entries = course_entries(NOTEBOOKS, lang=config.lang)
    assert links == [f"{entry.file}{query}" for entry in entries]
    for entry in entries:
        assert entry.title in shown and entry.summary in shown
    present = [link for link in index.links() if "tutor-present-link" in link.get("class", "")]
    languages = [link for link in index.links() if "tutor-language" in link.get("class", "")]
    if config.frontend == "app":  # Lab has no presenter mode, and TUTOR_LANG sets its language
        assert len(present) == len(entries) and len(languages) == 3
    else:
        assert present == [] and languages == []


def test_translated_pages_keep_no_english(course: tuple[Config, dict[str, Page]]) -> None:
    config, pages = course
    if config.lang == "en":
        return
    for name, page in pages.items():
        words = page.words().replace(str(progress_file(pages)), "")
        for name_of_a_language in LANGUAGE_NAMES.values():  # each language by its own name
            words = words.replace(name_of_a_language, "")
        words = re.sub(r"（[A-Za-z/ -]+）", "", words)  # a term's English name as a gloss
        left = {word for word in ENGLISH_WORD.findall(words) if word not in KEPT_WORDS}
        assert not left, (
            f"{name} in {config.lang} ({config.frontend}) shows English: {sorted(left)[:10]}"
        )


def test_an_unknown_tutor_lang_stops_a_page_with_one_line_naming_it(tmp_path: Path) -> None:
    """In JupyterLab (``TUTOR_LANG`` set by whoever started it): the cell fails with the
    value and the known languages, not the tutor's calls down to the check."""
    notebook = nbformat.read(NOTEBOOKS / "04_follow_suit.ipynb", as_version=4)
    run_notebook(
        notebook,
        env={"TUTOR_LANG": "xx"},
        folder=tmp_path,
        kernel_name=KERNELSPEC["name"],
        allow_errors=True,
    )
    errors = [output for output in notebook.cells[0].outputs if output.output_type == "error"]
    assert len(errors) == 1 and len(notebook.cells[0].outputs) == 1
    assert errors[0].traceback == [
        "UnknownLanguageError: TUTOR_LANG='xx' is not a language of the tutor; "
        "known languages: 'en', 'ja', 'zh-Hant'"
    ]
