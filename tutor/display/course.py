"""The course: its pages in order (every notebook of the folder), the links between them,
and the course page (``index.ipynb``): each page's summary, which lessons this learner has
done and how they scored, and where to continue.

A page's title and summary come from its lesson file (``lessons/<notebook's name>.toml``),
or from the notebook's metadata (``"tutor": {"title": "<catalog key>", "summary": "<catalog
key>"}``, e.g. the play screen's, which has no lesson file), else from its first heading or
its file name. ``"tutor": {"activity": "practice"}`` marks the practice page (its answers
belong to no lesson); ``"tutor": {"activity": "review"}`` the review page, which is no step
of the course (it is not in the list, and the course page links to it when rules are due:
:func:`review_entry`).

>>> import json, tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> page = {"cells": [{"cell_type": "markdown", "source": ["# Scoring\\n", "text"]}],
...         "metadata": {}}
>>> _ = (folder / "99_scoring.ipynb").write_text(json.dumps(page))
>>> [(entry.file, entry.title) for entry in course_entries(folder, lessons=[])]
[('99_scoring.ipynb', 'Scoring')]
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from tutor.display.context import PageContext
from tutor.display.presenter import LEARNER_ONLY, SLIDE
from tutor.display.words import words_html
from tutor.teaching.language import LANGUAGE_NAMES, with_language
from tutor.teaching.lesson import Lesson
from tutor.teaching.progress_summary import PRACTICE, Summary
from tutor.teaching.review import RuleMemories, RuleStatus
from tutor.teaching.text import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    MissingTextError,
    text,
    text_for_count,
)

INDEX_NOTEBOOK = "index.ipynb"
NAV_LINK_CLASS = "tutor-nav-link"
"""The class of every link between the course's pages."""
LINK_COLOUR = "var(--jp-content-link-color, #1a56db)"
REVIEW = "review"
"""The activity of the review page (``"tutor": {"activity": "review"}``)."""


# -- the course's pages ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CourseEntry:
    """One page of the course: its notebook file, title and summary in the learner's
    language, its lesson (if it has a lesson file) and its activity: the lesson's id when
    its quiz counts, :data:`~tutor.teaching.progress_summary.PRACTICE`, or ``None`` (pages whose
    answers are not recorded)."""

    file: str
    title: str
    summary: str = ""
    lesson: Lesson | None = None
    activity: str | None = None

    @property
    def name(self) -> str:
        """The notebook's name without ``.ipynb`` (a lesson's id)."""
        return Path(self.file).stem


def _lessons() -> dict[str, Lesson]:
    """The lessons by id, each read on its own: a lesson file with a mistake (a teacher's,
    edited while the app runs) is left out, so that its page, not the whole course list,
    shows the problem; none without a lessons folder (a folder of other notebooks). The
    app and Lab check every lesson, and that each number is its own, before they start
    (:func:`tutor.app.launch.add_teacher_lessons`)."""
    from tutor.teaching.lesson_loader import lesson_paths, load_lesson_file

    try:
        paths = lesson_paths()
    except (ValueError, OSError):
        return {}
    lessons: dict[str, Lesson] = {}
    for path in paths:
        try:
            lesson = load_lesson_file(path)
        except (ValueError, OSError):
            continue
        lessons[lesson.id] = lesson
    return lessons


def _heading(notebook: Mapping[str, Any]) -> str | None:
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        source = cell.get("source", "")
        lines = "".join(source) if isinstance(source, list) else str(source)
        for line in lines.splitlines():
            match = re.match(r"#+\s+(.+)", line.strip())
            if match:
                return match.group(1).strip()
    return None


def _catalog_text(key: object, lang: str) -> str | None:
    if not isinstance(key, str):
        return None
    try:
        return text(key, lang)
    except MissingTextError:
        return None


def course_entry(
    path: Path, lessons: Mapping[str, Lesson], lang: str = DEFAULT_LANGUAGE
) -> CourseEntry:
    """The course's view of the notebook at ``path`` (see the module's docstring).

    >>> notebooks = Path(__file__).resolve().parents[2] / "notebooks"  # the repository's
    >>> entry = course_entry(notebooks / "06_trick_winner.ipynb", _lessons())
    >>> entry.title, entry.activity
    ('Who takes the trick', '06_trick_winner')
    """
    try:
        notebook = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        notebook = {}
    meta = notebook.get("metadata", {}).get("tutor", {})
    meta = meta if isinstance(meta, dict) else {}
    lesson = lessons.get(path.stem)
    shown = lesson.shown_language(lang) if lesson else lang  # a teacher's: maybe English only
    title = _catalog_text(meta.get("title"), lang) or (lesson.title(shown) if lesson else None)
    summary = _catalog_text(meta.get("summary"), lang) or (lesson.summary(shown) if lesson else "")
    activity: str | None = None
    if meta.get("activity") in (PRACTICE, REVIEW):
        activity = meta["activity"]
    elif lesson is not None and lesson.quiz:
        activity = lesson.id
    return CourseEntry(
        file=path.name,
        title=title or _heading(notebook) or path.stem.replace("_", " "),
        summary=summary,
        lesson=lesson,
        activity=activity,
    )


def course_entries(
    folder: Path | str, *, lang: str = DEFAULT_LANGUAGE, lessons: Sequence[Lesson] | None = None
) -> list[CourseEntry]:
    """Every notebook of ``folder`` but the course page and the review page, in file-name
    order (the course's order). ``lessons`` overrides the lesson files (``[]``: none).

    >>> notebooks = Path(__file__).resolve().parents[2] / "notebooks"  # the repository's
    >>> [entry.file for entry in course_entries(notebooks)][:2]
    ['01_cards_and_rounds.ipynb', '02_trump.ipynb']
    """
    return [entry for entry in _all_entries(folder, lang, lessons) if entry.activity != REVIEW]


def _all_entries(
    folder: Path | str, lang: str, lessons: Sequence[Lesson] | None
) -> list[CourseEntry]:
    by_id = _lessons() if lessons is None else {lesson.id: lesson for lesson in lessons}
    paths = sorted(
        path
        for path in Path(folder).glob("*.ipynb")
        if path.is_file() and path.name != INDEX_NOTEBOOK
    )
    return [course_entry(path, by_id, lang) for path in paths]


def review_entry(folder: Path | str, *, lang: str = DEFAULT_LANGUAGE) -> CourseEntry | None:
    """The review page of ``folder`` (its notebook's metadata says ``"activity":
    "review"``), if it has one.

    >>> notebooks = Path(__file__).resolve().parents[2] / "notebooks"  # the repository's
    >>> review_entry(notebooks).file
    'review.ipynb'
    """
    return next(
        (entry for entry in _all_entries(folder, lang, []) if entry.activity == REVIEW), None
    )


def quiz_items(entries: Sequence[CourseEntry]) -> dict[str, list[str]]:
    """Every lesson quiz's item ids, by lesson id (what a lesson's score counts)."""
    return {
        entry.lesson.id: [item.id for item in entry.lesson.quiz]
        for entry in entries
        if entry.lesson is not None and entry.lesson.quiz
    }


# -- links between pages -----------------------------------------------------------------------


SAME_TAB = 'target="_self"'
"""On every link between the course's pages: a notebook's HTML output gives links without
a target a new tab (Voilà takes every link for an outside one); the course stays in one."""


def _link(href: str, words: str, css: str, *, rel: str = "", label: str = "") -> str:
    """A link to a page of the course (``label``: its accessible name, if not ``words``)."""
    rel_attribute = f' rel="{rel}"' if rel else ""
    label_attribute = f' aria-label="{escape(label)}"' if label else ""
    return (
        f'<a class="{NAV_LINK_CLASS} {css}" href="{escape(href)}" {SAME_TAB}{rel_attribute}'
        f'{label_attribute} style="color:{LINK_COLOUR}">{escape(words)}</a>'
    )


def nav_html(
    entries: Sequence[CourseEntry], current: str, context: PageContext, *, bottom: bool = False
) -> str:
    """The links of a page: back to the course, the previous and the next page (titled,
    in the page's language; the app's links keep ``?lang=``). At the ``bottom`` of a page
    only the previous and next ones.

    >>> from tutor.display.context import Frontend
    >>> entries = [CourseEntry("01_a.ipynb", "Cards"), CourseEntry("02_b.ipynb", "Trump")]
    >>> html = nav_html(entries, "02_b.ipynb", PageContext("en", Frontend.APP))
    >>> 'href="index.ipynb?lang=en"' in html, 'rel="prev"' in html, 'rel="next"' in html
    (True, True, False)
    >>> 'href="01_a.ipynb"' in nav_html(entries, "02_b.ipynb", PageContext("en", Frontend.LAB))
    True
    """
    lang = context.lang
    files = [entry.file for entry in entries]
    index = files.index(current) if current in files else None
    parts = []
    if not bottom:
        parts.append(
            _link(context.link(INDEX_NOTEBOOK), "↑ " + text("nav.course", lang), "tutor-nav-course")
        )
        if index is not None:
            position = text("nav.position", lang, number=index + 1, total=len(entries))
            parts.append(f'<span class="tutor-nav-position">{escape(position)}</span>')
    steps = []
    if index is not None and index > 0:
        before = entries[index - 1]
        words = "← " + text("nav.previous", lang, title=before.title)
        steps.append(_link(context.link(before.file), words, "tutor-nav-previous", rel="prev"))
    if index is not None and index + 1 < len(entries):
        after = entries[index + 1]
        words = text("nav.next", lang, title=after.title) + " →"
        steps.append(_link(context.link(after.file), words, "tutor-nav-next", rel="next"))
    if steps:
        parts.append(
            '<span class="tutor-nav-steps" style="display:flex;flex-wrap:wrap;gap:0.3em 1.5em;'
            f'margin-left:auto">{"".join(steps)}</span>'
        )
    place = "tutor-nav-bottom" if bottom else "tutor-nav-top"
    return (
        # learner only: presenter mode hides it (a presenter's pages get none anyway).
        f'<nav class="tutor-page-nav {place} {LEARNER_ONLY}" aria-label="{escape(text("nav.label", lang))}" '
        'style="display:flex;flex-wrap:wrap;align-items:baseline;gap:0.3em 1.5em;'
        'margin:0.2em 0">'
        f"{''.join(parts)}</nav>"
    )


def language_choice_html(lang: str = DEFAULT_LANGUAGE) -> str:
    """Links that reload the course page in each language (``index.ipynb?lang=ja``: a bare
    ``?lang=ja`` does not navigate in Voila's page), each named in its own language
    (plain links: the keyboard reaches them with Tab and opens them with Enter); the
    current one is marked ``aria-current``.

    >>> html = language_choice_html("ja")
    >>> 'href="index.ipynb?lang=zh-Hant"' in html, 'aria-current="page" lang="ja"' in html
    (True, True)
    """
    links = []
    for code, name in LANGUAGE_NAMES.items():
        current = ' aria-current="page"' if code == lang else ""
        links.append(
            f'<a class="tutor-language {NAV_LINK_CLASS}" {SAME_TAB} '
            f'href="{escape(with_language(INDEX_NOTEBOOK, code))}"'
            f'{current} lang="{escape(code)}" hreflang="{escape(code)}">{escape(name)}</a>'
        )
    return f'<p class="tutor-languages">{" · ".join(links)}</p>'


# -- the course page ---------------------------------------------------------------------------


def course_intro_html(context: PageContext) -> str:
    """The top of the course page: the language choice (the app's), the title and how to
    use the course (presenter mode only where it exists)."""
    lang = context.lang
    intro = text("course.intro", lang)
    if context.in_app:
        intro = text(
            "page.two-sentences", lang, first=intro, second=text("course.intro-present", lang)
        )
    return (
        f'<div class="tutor-course-index">'
        f"{language_choice_html(lang) if context.in_app else ''}"
        f"<h1>{escape(text('course.title', lang))}</h1>"
        f"<p>{escape(intro)}</p></div>"
    )


def _status(entry: CourseEntry, summary: Summary | None, lang: str) -> tuple[str, bool]:
    """What the course page says of the learner's work on ``entry``, and whether it is done."""
    if summary is None:
        return "", False
    if entry.activity is None:  # a page with no answers: done once finished
        done = summary.done(entry.name)
        return (text("course.status-finished", lang), True) if done else ("", False)
    if entry.activity == PRACTICE:
        count = summary.practice
        if not count.answered:
            return "", False
        words = text("course.status-practice", lang, answered=count.answered, right=count.right)
        return words, summary.done(PRACTICE)
    result = summary.lesson(entry.activity)
    if result.done:
        return text("course.status-done", lang, right=result.right, items=result.items), True
    if result.started:
        return text(
            "course.status-started", lang, answered=result.answered, items=result.items
        ), False
    return "", False


COURSE_CSS = """<style>
.tutor-course { margin: 0.4em 0; }
.tutor-course-entry { margin: 0 0 0.9em; }
.tutor-course-entry::marker { font-weight: 600; }
.tutor-course-entry .tutor-open { font-weight: 600; font-size: 1.05em; }
.tutor-course-entry .tutor-course-summary { margin: 0.15em 0 0; }
.tutor-course-entry .tutor-course-status { font-weight: 600; }
.tutor-continue { font-size: 1.05em; margin: 0.6em 0; padding: 0.5em 0.8em;
  border-left: 0.35em solid var(--jp-brand-color1, #1a56db); }
</style>"""


def course_list_html(
    entries: Sequence[CourseEntry], context: PageContext, summary: Summary | None
) -> str:
    """The numbered list of the course's pages: each title a link, its summary, this
    learner's status (``summary=None``: not known yet), and in the app a "Present" link."""
    lang = context.lang
    if not entries:
        return f"<p>{escape(text('course.none', lang))}</p>"
    present = text("course.present", lang)
    items = []
    for entry in entries:
        status, done = _status(entry, summary, lang)
        head = [_link(context.link(entry.file), entry.title, "tutor-open")]
        if status:
            mark = "✓ " if done else ""  # the words say it too: never the sign alone
            head.append(f' · <span class="tutor-course-status">{mark}{escape(status)}</span>')
        if context.in_app:
            link = context.present_link(entry.file)
            label = f"{present}: {entry.title}"
            head.append(" · " + _link(link, present, "tutor-present-link", label=label))
        summary_html = (
            f'<p class="tutor-course-summary">{words_html(entry.summary)}</p>'
            if entry.summary
            else ""
        )
        state = " is-done" if done else ""
        items.append(f'<li class="tutor-course-entry{state}">{"".join(head)}{summary_html}</li>')
    return f'<ol class="tutor-course">{"".join(items)}</ol>'


PRESENT_START_CSS = """<style>
.tutor-present-start { font-size: 16px; line-height: 1.3; }
.tutor-present-start h1 { margin: 0 0 0.2em; font-size: 1.5em; }
.tutor-present-start p { margin: 0 0 0.5em; }
.tutor-present-start ol { margin: 0; padding-left: 2em; columns: 2; column-gap: 2.5em; }
.tutor-present-start li { margin: 0 0 0.3em; break-inside: avoid; }
.tutor-present-start a { font-weight: 600; }
</style>"""


def present_start_html(entries: Sequence[CourseEntry], context: PageContext) -> str:
    """The presenter's start slide (the course page presented, where a teacher's start
    address lands): the course's lessons in order, each title a link that presents it;
    the live room's join panel stands beside it (the page script's). Nothing of one
    learner's (progress, where it is kept) is on it: it is shown to a class.

    >>> from tutor.display.context import Frontend
    >>> lesson = CourseEntry("06_trick_winner.ipynb", "Who wins", lesson=_lessons()["06_trick_winner"])
    >>> slide = present_start_html([lesson], PageContext("en", Frontend.APP, presenting=True))
    >>> 'href="06_trick_winner.ipynb?present=1&amp;lang=en"' in slide
    True
    """
    lang = context.lang
    lessons = [entry for entry in entries if entry.lesson is not None]
    present = text("course.present", lang)
    items = "".join(
        f"<li>{_link(context.present_link(entry.file), entry.title, 'tutor-present-link', label=f'{present}: {entry.title}')}</li>"
        for entry in lessons
    )
    listing = f"<ol>{items}</ol>" if lessons else f"<p>{escape(text('course.none', lang))}</p>"
    return (
        f'{PRESENT_START_CSS}<section class="{SLIDE} tutor-present-start">'
        f"<h1>{escape(text('course.present-start', lang))}</h1>"
        f"<p>{escape(text('course.present-start-note', lang))}</p>{listing}</section>"
    )


def continue_html(
    entries: Sequence[CourseEntry], context: PageContext, summary: Summary | None
) -> str:
    """ "Continue where you left off" (or "Start here") with a link to that page; while
    the learner's progress is loading, says so."""
    lang = context.lang
    if summary is None:
        return f'<p class="tutor-continue" role="status">{escape(text("course.loading", lang))}</p>'
    activities = [entry.activity or entry.name for entry in entries]
    target = summary.continue_at(activities)
    if target is None:
        return f'<p class="tutor-continue">{escape(text("course.all-done", lang))}</p>'
    entry = entries[activities.index(target)]
    label = text("course.start" if summary.last_activity is None else "course.continue", lang)
    number = text("course.number", lang, number=activities.index(target) + 1)
    link = _link(context.link(entry.file), f"{number} {entry.title} →", "tutor-continue-link")
    # The language's own gap after the label: none after 「：」.
    words = text("page.two-sentences", lang, first=f"<strong>{escape(label)}</strong>", second=link)
    return f'<p class="tutor-continue">{words}</p>'


# -- spaced review: the rules due, and the learner's map -----------------------------------------

REVIEW_CSS = """<style>
.tutor-review-due { font-size: 1.05em; margin: 0.6em 0; padding: 0.5em 0.8em;
  border-left: 0.35em solid var(--jp-warn-color1, #b45309); }
.tutor-rule-map { list-style: none; padding: 0; margin: 0.3em 0 0.8em;
  display: grid; grid-template-columns: repeat(auto-fill, minmax(15em, 1fr)); gap: 0.3em 1.2em; }
.tutor-rule-map li { padding-left: 1.6em; text-indent: -1.6em; }
.tutor-rule-map .tutor-map-mark { display: inline-block; width: 1.6em; text-indent: 0;
  font-size: 1.1em; line-height: 1; }
.tutor-rule-map .tutor-map-status { font-weight: 600; white-space: nowrap; }
.tutor-rule-map .is-known .tutor-map-status { color: var(--jp-success-color1, #166534); }
</style>"""
"""The map flows into as many columns as the width holds: one on a phone (360 px)."""

MAP_MARKS = {RuleStatus.NEW: "○", RuleStatus.LEARNING: "◐", RuleStatus.KNOWN: "●"}
"""Each status's symbol beside its words (never the colour alone)."""


def review_due_html(due: int, context: PageContext, review: CourseEntry | None) -> str:
    """ "3 rules to review", a link to the review page; nothing when no rule is due (or
    the course has no review page).

    >>> from tutor.display.context import Frontend
    >>> page = CourseEntry("review.ipynb", "Review the rules", activity=REVIEW)
    >>> review_due_html(1, PageContext("en", Frontend.LAB), page).count("1 rule to review")
    1
    >>> review_due_html(0, PageContext("en", Frontend.LAB), page)
    ''
    """
    if not due or review is None:
        return ""
    words = text_for_count("review.due", due, context.lang, count=due) + " →"
    link = _link(context.link(review.file), words, "tutor-review-link")
    return f'<p class="tutor-review-due">{link}</p>'


def rule_map_html(memories: RuleMemories, lang: str = DEFAULT_LANGUAGE) -> str:
    """The learner's map: each group of rules with its status (:class:`RuleStatus`) in
    words and a symbol.

    >>> from tutor.teaching.rule_map import rule_map
    >>> html = rule_map_html(RuleMemories({}, rule_map()), "en")
    >>> html.count('class="tutor-map-group is-new"') == len(rule_map().groups)
    True
    """
    rows = []
    separator = text("review.map-separator", lang)
    for group in memories.rules.groups:
        status = memories.group_status(group)
        words = text(f"review.status-{status.value}", lang)
        rows.append(
            f'<li class="tutor-map-group is-{status.value}">'
            f'<span class="tutor-map-mark" aria-hidden="true">{MAP_MARKS[status]}</span>'
            f'<span class="tutor-map-name">{escape(group.name(lang))}</span>'
            f'{escape(separator)}<span class="tutor-map-status">{escape(words)}</span></li>'
        )
    return (
        f'<section class="tutor-rule-map-section" aria-labelledby="tutor-rule-map-heading">'
        f'<h2 id="tutor-rule-map-heading">{escape(text("review.map-heading", lang))}</h2>'
        f"<p>{escape(text('review.map-intro', lang))}</p>"
        f'<ul class="tutor-rule-map">{"".join(rows)}</ul></section>'
    )


# -- the form the notebooks are kept in ----------------------------------------------------------

KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
"""The kernel every course notebook names: ipykernel's own spec, so JupyterLab saving a
notebook does not rewrite it."""

RUN_MENU = "Run ▸ Run All Cells"
"""JupyterLab's menu item that runs a notebook (its own words)."""

RUN_NOTE_COUNT = 1
"""The execution count of the cell that keeps the run note: an output belongs to a run,
and Jupyter's tools (nbval among them) take outputs without a count for a notebook saved
half-way through."""

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
"""An output that only the kernel which made it can draw."""

_PAGE_CALL = re.compile(r"\s*from tutor\.display import (show_\w+_page)\s+\1\(")


def run_note_output() -> dict[str, Any]:
    """What a course notebook shows before it runs (in JupyterLab): one line, in every
    language, saying how to run it: never a widget's Python repr or a stale output."""
    lines = [text("course.run-note", lang, menu=RUN_MENU) for lang in LANGUAGES]
    return {
        "output_type": "display_data",
        "data": {"text/markdown": "\n\n".join(lines), "text/plain": "\n".join(lines)},
        "metadata": {},
    }


def _code_cells(notebook: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [cell for cell in notebook.get("cells", []) if cell.get("cell_type") == "code"]


def _source(cell: Mapping[str, Any]) -> str:
    source = cell.get("source", "")
    return source if isinstance(source, str) else "".join(source)


def is_course_page(notebook: Mapping[str, Any]) -> bool:
    """Whether ``notebook`` shows a page of the tutor: its first code cell calls one of
    ``tutor.display``'s ``show_..._page`` (a course notebook, a teacher's lesson's, or a
    learner's copy of one).

    >>> is_course_page({"cells": [{"cell_type": "code",
    ...     "source": "from tutor.display import show_course_page\\n\\nshow_course_page()"}]})
    True
    >>> is_course_page({"cells": [{"cell_type": "code", "source": "print('mine')"}]})
    False
    """
    cells = _code_cells(notebook)
    return bool(cells) and _PAGE_CALL.match(_source(cells[0])) is not None


def _show_run_note(page_cell: dict[str, Any]) -> None:
    """The page's cell as it is kept: the run note for output, its count, only its tags."""
    metadata = page_cell.get("metadata", {})
    page_cell["metadata"] = {"tags": metadata["tags"]} if metadata.get("tags") else {}
    page_cell["execution_count"] = RUN_NOTE_COUNT
    page_cell["outputs"] = [run_note_output()]


def canonical_notebook(notebook: Mapping[str, Any]) -> dict[str, Any]:
    """``notebook`` in the form the course keeps it: the first code cell's only output is
    the run note (:func:`run_note_output`), other cells have none and no execution count,
    no cell metadata but ``tags``, no widget state; the kernelspec :data:`KERNELSPEC`. A
    run in JupyterLab changes none of it that matters; a learner's copy is saved in the
    like form, :func:`learners_copy`.

    >>> shaped = canonical_notebook({"cells": [{"cell_type": "code", "source": "1",
    ...     "execution_count": 3, "metadata": {"execution": {}}, "outputs": []}],
    ...     "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    >>> shaped["cells"][0]["execution_count"], shaped["cells"][0]["metadata"]
    (1, {})
    >>> shaped["cells"][0]["outputs"][0]["data"]["text/plain"].startswith("▶")
    True
    """
    shaped = learners_copy(notebook)
    for cell in shaped.get("cells", []):
        metadata = cell.get("metadata", {})
        cell["metadata"] = {"tags": metadata["tags"]} if metadata.get("tags") else {}
    for cell in _code_cells(shaped)[1:]:
        cell["execution_count"] = None
        cell["outputs"] = []
    shaped["metadata"]["kernelspec"] = dict(KERNELSPEC)
    shaped["metadata"]["language_info"] = {"name": "python"}
    return shaped


def learners_copy(notebook: Mapping[str, Any]) -> dict[str, Any]:
    """A learner's copy of a course page as JupyterLab saves it (``wizard-tutor lab``,
    :mod:`tutor.app.lab_save`): the page's cell as the course keeps it, with the run note
    and never the page's widgets, which only the kernel that made them can draw (after
    that kernel is gone, Lab would show "Error displaying widget: model not found" where
    the quiz was); no widget state. The cells the learner added keep their outputs but
    widgets. The ``kernelspec`` and ``language_info`` stay as Lab set them from the
    kernel, so that opening the copy again changes nothing.

    >>> page = {"cells": [{"cell_type": "code", "metadata": {}, "execution_count": 4,
    ...     "source": "from tutor.display import show_course_page\\nshow_course_page()",
    ...     "outputs": [{"output_type": "display_data", "metadata": {},
    ...                  "data": {WIDGET_VIEW: {"model_id": "7"}, "text/plain": "…"}}]}],
    ...     "metadata": {"widgets": {}, "language_info": {"name": "python", "version": "3"}}}
    >>> saved = learners_copy(page)
    >>> saved["cells"][0]["outputs"] == [run_note_output()], saved["metadata"]
    (True, {'language_info': {'name': 'python', 'version': '3'}})
    """
    shaped = copy.deepcopy(dict(notebook))
    shaped["metadata"] = {
        key: value for key, value in shaped.get("metadata", {}).items() if key != "widgets"
    }
    cells = _code_cells(shaped)
    for cell in cells[1:]:
        cell["outputs"] = [
            output
            for output in cell.get("outputs", [])
            if WIDGET_VIEW not in output.get("data", {})
        ]
    if cells:
        _show_run_note(cells[0])
    return shaped
