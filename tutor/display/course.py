"""The course: its pages in order (every notebook of the folder), with their titles and
summaries, and the links between them. The course page that lists them (``index.ipynb``)
is :mod:`tutor.display.course_page`; the form the notebooks are kept in,
:mod:`tutor.display.notebook_form`.

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

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from tutor.display.context import PageContext
from tutor.display.presenter import LEARNER_ONLY
from tutor.teaching.language import LANGUAGE_NAMES, with_language
from tutor.teaching.lesson import Lesson
from tutor.teaching.progress_summary import PRACTICE
from tutor.teaching.text import (
    DEFAULT_LANGUAGE,
    MissingTextError,
    text,
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


def course_link(href: str, words: str, css: str, *, rel: str = "", label: str = "") -> str:
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
            course_link(
                context.link(INDEX_NOTEBOOK), "↑ " + text("nav.course", lang), "tutor-nav-course"
            )
        )
        if index is not None:
            position = text("nav.position", lang, number=index + 1, total=len(entries))
            parts.append(f'<span class="tutor-nav-position">{escape(position)}</span>')
    steps = []
    if index is not None and index > 0:
        before = entries[index - 1]
        words = "← " + text("nav.previous", lang, title=before.title)
        steps.append(
            course_link(context.link(before.file), words, "tutor-nav-previous", rel="prev")
        )
    if index is not None and index + 1 < len(entries):
        after = entries[index + 1]
        words = text("nav.next", lang, title=after.title) + " →"
        steps.append(course_link(context.link(after.file), words, "tutor-nav-next", rel="next"))
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
