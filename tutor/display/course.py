"""The course index: every notebook of the course, in order, with links that open it as
an app (and in presenter mode).

A notebook's title comes, in this order, from its metadata (``"tutor": {"title": "<catalog
key>"}``, so it follows the learner's language), from the lesson of the same number
(:func:`tutor.teaching.lesson_loader.list_lessons`), from its first heading, or from its file name.

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
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from tutor.teaching.language import LANGUAGE_NAMES, with_language
from tutor.teaching.text import DEFAULT_LANGUAGE, MissingTextError, text

INDEX_NOTEBOOK = "index.ipynb"
PRESENT_QUERY = "?present=1"


@dataclass(frozen=True, slots=True)
class CourseEntry:
    """One notebook of the course: its file name (relative link) and title."""

    file: str
    title: str

    @property
    def href(self) -> str:
        return quote(self.file)

    @property
    def present_href(self) -> str:
        return self.href + PRESENT_QUERY

    def href_in(self, lang: str) -> str:
        """The link that opens the notebook in ``lang``.

        >>> CourseEntry("08_worked_example.ipynb", "x").href_in("ja")
        '08_worked_example.ipynb?lang=ja'
        """
        return with_language(self.href, lang)

    def present_href_in(self, lang: str) -> str:
        """The link that opens the notebook in presenter mode, in ``lang``."""
        return with_language(self.present_href, lang)


def _lesson_titles(lang: str) -> dict[str, str]:
    """Lesson titles by their two-digit number, or nothing if the lessons cannot be read."""
    try:
        from tutor.teaching.lesson_loader import list_lessons

        return {f"{lesson.number:02d}": lesson.title(lang) for lesson in list_lessons()}
    except (ImportError, ValueError, OSError):
        return {}


def _heading(notebook: dict[str, Any]) -> str | None:
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


def notebook_title(path: Path, lesson_titles: dict[str, str], lang: str = DEFAULT_LANGUAGE) -> str:
    """The title shown for the notebook at ``path`` (see the module's docstring).

    >>> notebooks = Path(__file__).resolve().parents[2] / "notebooks"  # the repository's
    >>> notebook_title(notebooks / "08_worked_example.ipynb", {})
    'The worked example: one round, card by card'
    >>> notebook_title(Path("missing/04_follow_suit.ipynb"), {"04": "Following suit"})
    'Following suit'
    """
    try:
        notebook = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        notebook = {}
    key = notebook.get("metadata", {}).get("tutor", {}).get("title")
    if isinstance(key, str):
        try:
            return text(key, lang)
        except MissingTextError:
            pass
    number = path.stem[:2]
    if number.isdigit() and number in lesson_titles:
        return lesson_titles[number]
    return _heading(notebook) or path.stem.replace("_", " ")


def course_entries(
    folder: Path | str,
    *,
    lessons: Sequence[str] | None = None,
    lang: str = DEFAULT_LANGUAGE,
) -> list[CourseEntry]:
    """Every notebook of ``folder`` but the index, in file-name order (lesson order).

    ``lessons`` overrides the lesson titles (by position in the course; ``[]`` for none).

    >>> notebooks = Path(__file__).resolve().parents[2] / "notebooks"  # the repository's
    >>> [entry.file for entry in course_entries(notebooks)][:2]
    ['01_cards_and_rounds.ipynb', '02_trump.ipynb']
    """
    where = Path(folder)
    titles = (
        _lesson_titles(lang)
        if lessons is None
        else {f"{n:02d}": title for n, title in enumerate(lessons, start=1)}
    )
    paths = sorted(
        path for path in where.glob("*.ipynb") if path.is_file() and path.name != INDEX_NOTEBOOK
    )
    return [CourseEntry(path.name, notebook_title(path, titles, lang)) for path in paths]


def language_choice_html(lang: str = DEFAULT_LANGUAGE) -> str:
    """Links that reload the index in each language (``index.ipynb?lang=ja``: a bare
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
            f'<a class="tutor-language" href="{escape(with_language(INDEX_NOTEBOOK, code))}"'
            f'{current} lang="{escape(code)}" hreflang="{escape(code)}">{escape(name)}</a>'
        )
    return f'<p class="tutor-languages">{" · ".join(links)}</p>'


def course_index_html(
    folder: Path | str, *, lang: str = DEFAULT_LANGUAGE, lessons: Sequence[str] | None = None
) -> str:
    """The index page: the language choice, a title, how to use it, and the numbered list
    of notebooks, each with an "Open" link (the app) and a "Present" link (presenter
    mode); every link carries ``?lang=<lang>`` so the next page keeps the language.

    >>> import tempfile
    >>> page = course_index_html(tempfile.mkdtemp(), lessons=[])
    >>> "No lessons found yet." in page
    True
    >>> notebooks = Path(__file__).resolve().parents[2] / "notebooks"  # the repository's
    >>> 'href="06_trick_winner.ipynb?present=1&amp;lang=ja"' in course_index_html(notebooks,
    ...                                                                     lang="ja")
    True
    """
    entries = course_entries(folder, lessons=lessons, lang=lang)
    present = text("course.present", lang)
    items = [
        f'<li class="tutor-course-entry">'
        f'<a class="tutor-open" href="{escape(entry.href_in(lang))}">'
        f"{escape(entry.title)}</a> · "
        f'<a class="tutor-present-link" href="{escape(entry.present_href_in(lang))}" '
        f'aria-label="{escape(present)}: {escape(entry.title)}">{escape(present)}</a></li>'
        for entry in entries
    ]
    listing = (
        f'<ol class="tutor-course">{"".join(items)}</ol>'
        if items
        else f"<p>{escape(text('course.none', lang))}</p>"
    )
    return (
        # Inside the nav: app/.../tutor.js opens the index's links in the same tab.
        f'<nav class="tutor-course-index" aria-label="{escape(text("course.lessons", lang))}">'
        f"{language_choice_html(lang)}"
        f"<h1>{escape(text('course.title', lang))}</h1>"
        f"<p>{escape(text('course.intro', lang))}</p>"
        f"<h2>{escape(text('course.lessons', lang))}</h2>{listing}</nav>"
    )
