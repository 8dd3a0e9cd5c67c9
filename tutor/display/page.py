"""What every page of the course has: links to the course and to the pages before and after
it, its title and summary, the tab title (in the app), and what the page must say about the
learner's progress; and the pages that are nothing more than that around one widget (the
worked example, the play screen) or a course page.

Each notebook is one call: ``show_<kind>_page("<its own name>")`` (the name places it in
the course). Every word is in the page's language; links keep ``?lang=`` in the app and
open notebooks in JupyterLab.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from typing import Any

import IPython.display
import ipywidgets as widgets

from tutor.display import looks
from tutor.display.app_page import AppPage
from tutor.display.context import PageContext, page_context
from tutor.display.course import CourseEntry, course_entries, nav_html, quiz_items, review_entry
from tutor.display.course_page import (
    COURSE_CSS,
    REVIEW_CSS,
    continue_html,
    course_intro_html,
    course_list_html,
    present_start_html,
    review_due_html,
    rule_map_html,
)
from tutor.display.html import title_markdown
from tutor.display.lab_page import LabPage
from tutor.display.progress_view import (
    LearnerProgress,
    ProgressNotice,
    ResetControl,
    learner_progress,
    where_kept_html,
)
from tutor.display.widgets import html_widget
from tutor.teaching.lesson import Lesson
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.progress import Progress, ProgressState
from tutor.teaching.review import RuleMemories, item_rules
from tutor.teaching.text import text

_ipython: Any = IPython.display  # untyped


def _show(*objects: object) -> None:
    _ipython.display(*objects)


def show_widget(widget: widgets.Widget, lang: str) -> None:
    """Display ``widget`` with a short note as its plain-text form: wherever a widget
    cannot be drawn (a saved notebook reopened, a notebook viewer), a learner reads that
    note, not the widget's Python repr."""
    bundle = widget._repr_mimebundle_()
    data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})  # anywidget: a pair
    _ipython.display(
        {**data, "text/plain": text("course.widget-note", lang)}, raw=True, metadata=metadata
    )


def html_output(html: str) -> widgets.Output:
    """An Output widget showing ``html`` as a notebook output (not a widget's HTML), so
    that JupyterLab opens its links to notebooks; :func:`set_html` replaces it."""
    output = widgets.Output()
    set_html(output, html)
    return output


def tab_title(title: str, lang: str) -> str:
    """The browser tab's title: the page's title, then the tutor's name, so a tab among
    others says whose page it is (the course page: the tutor's name alone).

    >>> tab_title("Who takes the trick", "en")
    'Who takes the trick · Wizard: learn the rules'
    >>> tab_title("Wizard: learn the rules", "en")
    'Wizard: learn the rules'
    """
    course = text("course.title", lang)
    if title in ("", course):
        return course
    return text("course.tab-title", lang, page=title, course=course)


def set_html(output: widgets.Output, html: str) -> None:
    output.outputs = ({"output_type": "display_data", "data": {"text/html": html}, "metadata": {}},)


class PageFrame:
    """A page of the course being shown: where it is (:attr:`entries`, :attr:`entry`), in
    which context, and the learner's progress. :meth:`show_top` and :meth:`show_bottom`
    draw what every page has around its content."""

    def __init__(
        self,
        name: str,
        *,
        folder: Path | str | None = None,
        context: PageContext | None = None,
        learner: LearnerProgress | None = None,
    ) -> None:
        self.context = context if context is not None else page_context()
        self.learner = learner if learner is not None else learner_progress(self.context)
        self.folder = Path.cwd() if folder is None else Path(folder)
        self.entries: list[CourseEntry] = course_entries(self.folder, lang=self.context.lang)
        file = name if name.endswith(".ipynb") else f"{name}.ipynb"
        self.name = name
        self.title = ""
        self.entry = next(
            (entry for entry in self.entries if entry.file == file), CourseEntry(file, name)
        )

    @property
    def lang(self) -> str:
        return self.context.lang

    @property
    def progress(self) -> Progress:
        return self.learner.progress

    def lessons(self) -> list[Lesson]:
        """The course's lessons (their quiz items name the rules they ask)."""
        return [entry.lesson for entry in self.entries if entry.lesson is not None]

    def lesson(self) -> Lesson:
        """The page's lesson: its course entry's, else the lesson file of the page's name
        (a page shown from a folder that is not the course's)."""
        return self.entry.lesson if self.entry.lesson is not None else load_lesson(self.name)

    def furniture(self, title: str) -> list[widgets.Widget]:
        """The page's invisible helpers (the tab title in the app, the page's language in
        Lab, the browser's store) and its notice about the learner's progress."""
        parts: list[widgets.Widget] = [ProgressNotice(self.progress, lang=self.lang)]
        if self.context.in_app:
            parts.append(AppPage(title=tab_title(title, self.lang)))
        else:
            parts.append(LabPage(lang=self.lang))
        return parts + self.learner.widgets()

    def show_top(
        self, title: str | None = None, summary: str | None = None, *, one_widget: bool = False
    ) -> None:
        """The links (not on a presenter's slides), the title and summary, and the notice
        and helpers. A ``one_widget`` page shows those with its widget instead
        (:meth:`show_content`), and no summary: its widget needs the window's height (a
        laptop shows the whole card table; a presenter's slide holds the title and the
        widget), and says what it is about itself."""
        self.title = self.entry.title if title is None else title
        summary = self.entry.summary if summary is None else summary
        if not self.context.presenting:
            _show(_ipython.HTML(nav_html(self.entries, self.entry.file, self.context)))
        if one_widget:
            summary = ""
        _show(_ipython.Markdown(title_markdown(self.title, summary, self.lang)))
        if not one_widget:
            show_widget(widgets.VBox(self.furniture(self.title), layout=looks.layout()), self.lang)

    def show_content(self, content: widgets.Widget) -> None:
        """A page's one widget with the notice and helpers in the same output: presenter
        mode makes a slide of the title and what follows up to the first widget, so the
        page's widget is on the title's slide (after ``show_top(one_widget=True)``)."""
        # overflow visible: a Box scrolls by default, which would hold the widget's
        # sticky parts (the stepper's controls) inside it instead of the page.
        box = widgets.VBox(
            [content, *self.furniture(self.title)], layout=looks.layout(overflow="visible")
        )
        show_widget(box, self.lang)

    def show_bottom(self) -> None:
        """The previous and next pages, again at the end (not on a presenter's slides)."""
        if not self.context.presenting:
            _show(_ipython.HTML(nav_html(self.entries, self.entry.file, self.context, bottom=True)))


# -- pages that are one widget inside the frame ----------------------------------------------------


def show_worked_example_page(
    name: str,
    *,
    folder: Path | str | None = None,
    context: PageContext | None = None,
    learner: LearnerProgress | None = None,
) -> None:
    """The worked example of RULES.md, step by step (the engine's steps in a stepper), then
    its three tricks on one screen: a presenter's last slide, or, on a learner's page,
    under the stepper once it reaches the last step (with every winner, it would spoil
    the steps before); then the lesson's quiz about the example, whose answers finish the
    page as on every lesson's page (a lesson without a quiz is finished at the last
    step)."""
    from tutor.display.lesson_view import show_quiz
    from tutor.display.stepper import KeptPlace, worked_example_stepper
    from tutor.display.worked_summary import summary_at_the_end, tricks_summary_html

    frame = PageFrame(name, folder=folder, context=context, learner=learner)
    lesson = frame.lesson()
    frame.show_top(one_widget=True)
    stepper = worked_example_stepper(lang=frame.lang, keys=frame.context.in_app)
    # A learner's page opens at the step they reached; a presenter's slides are the
    # room's, not a learner's progress: they start at step 1 and keep nothing.
    place = (
        None if frame.context.presenting else KeptPlace(stepper, frame.progress, frame.entry.name)
    )
    reached_end = False

    def finish_at_the_last_step(index: int) -> None:
        nonlocal reached_end  # the page is finished once per visit, not at each return
        coming_back = place is not None and place.restoring  # to where they were: no news
        if index == stepper.count - 1 and not reached_end and not coming_back:
            reached_end = True
            if not lesson.quiz:  # else the quiz under the example finishes the page
                frame.progress.record_finished(frame.entry.name)

    stepper.on_step(finish_at_the_last_step)
    if frame.context.presenting:  # slides come one at a time: the table is the last
        frame.show_content(stepper.widget)
        _show(_ipython.HTML(tricks_summary_html(lang=frame.lang)))
    else:
        stepper.add_below(summary_at_the_end(stepper, lang=frame.lang))
        frame.show_content(stepper.widget)
    # The questions about the example, after it as on every lesson's page, recorded alike.
    lang = lesson.shown_language(frame.lang)
    show_quiz(lesson, lang, progress=frame.progress, presenting=frame.context.presenting)
    frame.show_bottom()


def show_play_page(
    name: str,
    *,
    folder: Path | str | None = None,
    context: PageContext | None = None,
    learner: LearnerProgress | None = None,
) -> None:
    """A game of five rounds against three bots, with the coaches."""
    from tutor.display.play import PlayScreen

    frame = PageFrame(name, folder=folder, context=context, learner=learner)
    frame.show_top(one_widget=True)
    screen = PlayScreen(players=4, variant="five-rounds", lang=frame.lang)
    screen.on_round_over(lambda: frame.progress.record_finished(frame.entry.name))
    frame.show_content(screen)
    frame.show_bottom()


# -- the course page ---------------------------------------------------------------------------------


class CoursePage(widgets.VBox):  # type: ignore[misc]
    """The course page's live part: where to continue, how many rules are due for review
    (a link to the review page), every page with its summary and this learner's status,
    the learner's map of the rules, where the progress is kept, and the reset button. It
    follows the learner's progress (which the browser's store sends once the page is up).
    ``clock`` tells the time for "due" (UTC; the wall clock unless a test sets it)."""

    def __init__(self, frame: PageFrame, *, clock: Callable[[], datetime] | None = None) -> None:
        self.frame = frame
        self.clock = clock if clock is not None else (lambda: datetime.now(UTC))
        self.items = quiz_items(frame.entries)
        self.rules_of_items = item_rules(frame.lessons())
        self.review_page = review_entry(frame.folder, lang=frame.lang)
        self.resume = html_output("")
        self.due = html_output("")
        self.map = html_output("")
        self.listing = html_output("")
        self.where = html_widget()
        self.reset = ResetControl(frame.progress, lang=frame.lang)
        title = text("course.title", frame.lang)
        heading = html_widget(f"<h2>{escape(text('course.lessons', frame.lang))}</h2>")
        super().__init__(
            [
                *frame.furniture(title),
                self.resume,
                self.due,
                heading,
                self.listing,
                self.map,
                self.where,
                self.reset,
            ]
        )
        self.add_class("tutor-course-page")
        frame.progress.observe(lambda _progress: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        frame = self.frame
        progress = frame.progress
        loading = progress.state is ProgressState.LOADING
        summary = None if loading else progress.summary(self.items)
        set_html(self.resume, continue_html(frame.entries, frame.context, summary))
        set_html(self.listing, COURSE_CSS + course_list_html(frame.entries, frame.context, summary))
        if summary is None:
            set_html(self.due, "")
            set_html(self.map, "")
        else:
            memories = RuleMemories.of(summary, self.rules_of_items)
            due = len(memories.due(self.clock()))
            set_html(self.due, review_due_html(due, frame.context, self.review_page))
            set_html(self.map, REVIEW_CSS + rule_map_html(memories, frame.lang))
        self.where.value = where_kept_html(progress, frame.lang)


def show_course_page(
    *,
    folder: Path | str | None = None,
    context: PageContext | None = None,
    learner: LearnerProgress | None = None,
) -> None:
    """The course page (``index.ipynb``)."""
    frame = PageFrame("index", folder=folder, context=context, learner=learner)
    if (
        frame.context.presenting
    ):  # a class sees it: the lessons to present, nothing of one learner's
        _show(_ipython.HTML(present_start_html(frame.entries, frame.context)))
        show_widget(widgets.VBox(frame.furniture(text("course.title", frame.lang))), frame.lang)
        return
    _show(_ipython.HTML(course_intro_html(frame.context)))
    show_widget(CoursePage(frame), frame.lang)
