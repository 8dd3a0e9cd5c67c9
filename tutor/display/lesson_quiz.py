"""A lesson's quiz as widgets: one :class:`QuizWidget` per quiz item, then a summary of how
the learner did on the first try ("First try: 4 of 6 right") that offers the missed
questions again.

The questions are separate widgets, shown one after another by
:func:`tutor.display.show_quiz`, each with its note under its heading, so a presenter gets
each on its own screen; the :class:`LessonQuiz` widget itself is the summary, shown after
them, and the place where the missed questions come back. Each question is built when the
learner reaches it (:attr:`LessonQuiz.places`, :class:`~tutor.display.reach.Deferred`):
until then its place shows its title, note and prompt, a widget model where the question
has some eighty.

Hooks for a progress store (see ``LessonQuiz``): ``on_graded`` for every graded answer,
``on_finished`` once every question has had its first answer.

>>> from tutor.teaching.lesson_loader import load_lesson
>>> quiz = LessonQuiz(load_lesson("07"))
>>> for number, widget in enumerate(quiz.quizzes):     # right, except the second one
...     _ = widget.answer(widget.question.correct_answer() + (number == 1))
>>> quiz.summary.first_try_right, quiz.summary.total, quiz.summary.missed
(5, 6, ('quiz-bid-three-met',))
>>> quiz.retry_button.click()
>>> [widget.question for widget in quiz.retry_quizzes] == [quiz.quizzes[1].question]
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

import ipywidgets as widgets

from tutor.display.reach import Deferred
from tutor.display.visibility import set_visible
from tutor.display.widgets import (
    QUIZ_CLASS,
    QuizWidget,
    html_widget,
    prompt_html,
    question_heading_html,
)
from tutor.teaching.lesson import Lesson, LessonItem
from tutor.teaching.quiz import Question
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, text

SUMMARY_CLASS = "tutor-quiz-summary"
PLACE_CLASS = f"{QUIZ_CLASS}-place"
"""CSS class of a question's place on the page: its stand-in, then its quiz."""

ItemGradedCallback = Callable[[LessonItem, bool, bool], None]
"""Called with (item, correct, first_try) for every graded answer of a lesson's quiz."""


@dataclass(frozen=True, slots=True)
class QuizSummary:
    """How a learner did in a lesson's quiz, on the first try of each question."""

    lesson: str
    """The lesson's id, e.g. ``"07_scoring"``."""
    total: int
    first_try_right: int
    missed: tuple[str, ...]
    """The ids of the items whose first answer was wrong, in quiz order."""


class LessonQuiz(widgets.VBox):  # type: ignore[misc]
    """The quiz of ``lesson``: :attr:`quizzes` (one :class:`QuizWidget` per quiz item, in
    order, titled "Question 2 of 6") and this widget, the summary: how many are answered
    so far, then "First try: 4 of 6 right", the numbers of the missed questions and
    :attr:`retry_button`, which shows them again, fresh, below it
    (:attr:`retry_quizzes`); a question missed again is offered again.

    Only the first answer to each question counts in the score; answers given on a second
    try (the question's own Try again, or the missed questions again) are reported with
    ``first_try=False``.

    Hooks:

    - ``on_graded(callback)``: ``callback(item, correct, first_try)`` for every graded
      answer; ``item.id`` and ``item.question.topic`` say what was answered, and
      :attr:`lesson` which lesson.
    - ``on_finished(callback)``: ``callback(summary)`` (a :class:`QuizSummary`) once,
      when the last question gets its first answer. :attr:`summary` is the same value
      (``None`` before then).
    """

    def __init__(self, lesson: Lesson, *, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lesson = lesson
        self.lang = lang
        self.items: tuple[LessonItem, ...] = lesson.quiz
        self._graded_callbacks: list[ItemGradedCallback] = []
        self._finished_callbacks: list[Callable[[QuizSummary], None]] = []
        self._finished = False
        self.places = [
            Deferred(functools.partial(self._question, item, again=False), html=self._words(item))
            for item in self.items
        ]
        for place in self.places:
            place.add_class(PLACE_CLASS)
        self.status = html_widget()
        self.status.add_class(f"{SUMMARY_CLASS}-status")
        self.retry_button = widgets.Button(
            description="",
            tooltip=text("lesson-quiz.retry-tooltip", lang),
            button_style="primary",
            layout=widgets.Layout(width="auto", display="none"),
        )
        self.retry_button.add_class(f"{SUMMARY_CLASS}-retry")
        self.retry_button.on_click(lambda _button: self.retry_missed())
        self.retry_area = widgets.VBox()
        self.retry_quizzes: list[QuizWidget] = []
        self._retry_items: list[LessonItem] = []
        self._rounds = 0
        super().__init__([self.status, self.retry_button, self.retry_area])
        self.add_class(SUMMARY_CLASS)
        self._show_status()

    # -- hooks --------------------------------------------------------------------------

    def on_graded(self, callback: ItemGradedCallback, *, remove: bool = False) -> None:
        """Register (or remove) ``callback(item, correct, first_try)``."""
        if remove:
            self._graded_callbacks.remove(callback)
        else:
            self._graded_callbacks.append(callback)

    def on_finished(
        self, callback: Callable[[QuizSummary], None], *, remove: bool = False
    ) -> None:
        """Register (or remove) ``callback(summary)``, called once every question has had
        its first answer."""
        if remove:
            self._finished_callbacks.remove(callback)
        else:
            self._finished_callbacks.append(callback)

    def notes(self) -> list[str | None]:
        """Each question's note (words shown before it), in the learner's language."""
        return [item.note(self.lang) if item.note is not None else None for item in self.items]

    @property
    def quizzes(self) -> list[QuizWidget]:
        """Every question's widget, in order, built now if the learner has not reached it
        yet (the page itself builds each one only then)."""
        return [place.build() for place in self.places]

    def _first_tries(self) -> list[bool | None]:
        """Each question's first answer: right, wrong, or ``None`` (not answered, or not
        reached yet)."""
        return [
            place.built.first_try_correct if isinstance(place.built, QuizWidget) else None
            for place in self.places
        ]

    # -- the score ----------------------------------------------------------------------

    @property
    def summary(self) -> QuizSummary | None:
        """The first-try score, once every question has been answered (else ``None``)."""
        first_tries = self._first_tries()
        if any(first is None for first in first_tries):
            return None
        missed = tuple(
            item.id for item, first in zip(self.items, first_tries, strict=True) if not first
        )
        return QuizSummary(
            lesson=self.lesson.id,
            total=len(self.items),
            first_try_right=len(self.items) - len(missed),
            missed=missed,
        )

    def _title(self, item: LessonItem) -> str:
        """``item``'s place in the quiz: "Question 2 of 6"."""
        number = self.items.index(item) + 1
        return text("lesson-quiz.question-number", self.lang, number=number, total=len(self.items))

    def _note(self, item: LessonItem) -> str:
        return item.note(self.lang) if item.note is not None else ""

    def _words(self, item: LessonItem) -> str:
        """What ``item``'s place shows before its question is built: the question's own
        first lines (title, note, prompt), so nothing above its cards moves when they come."""
        heading = question_heading_html(self._title(item), self._note(item))
        return (
            f'<div style="min-height:{_height_em(item.question)}em">'
            f'<div class="{QUIZ_CLASS}-title">{heading}</div>'
            f'<div class="{QUIZ_CLASS}-prompt">{prompt_html(item.question, self.lang)}</div>'
            "</div>"
        )

    def _question(self, item: LessonItem, *, again: bool) -> QuizWidget:
        """``item``'s question, titled with its place in the quiz ("Question 2 of 6"), its
        graded answers reported to the hooks (``again``: a missed question asked again)."""
        quiz = QuizWidget(
            item.question, lang=self.lang, title=self._title(item), note=self._note(item)
        )
        quiz.on_graded(self._reporter(item, again=again))
        return quiz

    def _reporter(self, item: LessonItem, *, again: bool) -> Callable[[Question, bool, bool], None]:
        def report(_question: Question, correct: bool, first_try: bool) -> None:
            for callback in list(self._graded_callbacks):
                callback(item, correct, first_try and not again)
            self._show_status()

        return report

    def _show_status(self) -> None:
        lang = self.lang
        summary = self.summary
        if summary is None:
            answered = sum(first is not None for first in self._first_tries())
            self.status.value = _paragraph(
                text("lesson-quiz.progress", lang, answered=answered, total=len(self.items))
            )
            return
        lines = [
            f"<strong>{escape(text('lesson-quiz.score', lang, right=summary.first_try_right, total=summary.total))}</strong>"
        ]
        if summary.missed:
            numbers = [
                text("lesson-quiz.number", lang, number=index)
                for index, item in enumerate(self.items, start=1)
                if item.id in summary.missed
            ]
            lines.append(escape(text("lesson-quiz.missed", lang, numbers=join_words(numbers, lang))))
        else:
            lines.append(escape(text("lesson-quiz.all-right", lang)))
        if self._rounds:
            right = sum(bool(quiz.first_try_correct) for quiz in self.retry_quizzes)
            answered = sum(quiz.first_try_correct is not None for quiz in self.retry_quizzes)
            key = "lesson-quiz.again-score" if answered == len(self.retry_quizzes) else "lesson-quiz.again-progress"
            lines.append(
                escape(text(key, lang, right=right, answered=answered, total=len(self.retry_quizzes)))
            )
        self.status.value = _paragraph(*lines)
        still_missed = self._still_missed()
        self.retry_button.description = text(
            "lesson-quiz.retry", lang, count=len(still_missed)
        )
        set_visible(self.retry_button, bool(still_missed))
        if not self._finished:
            self._finished = True
            for callback in list(self._finished_callbacks):
                callback(summary)

    def _still_missed(self) -> list[LessonItem]:
        """The questions to offer again: those missed on the first try, or, after a round
        of them, those missed again in it (none while that round is not done)."""
        if not self._rounds:
            summary = self.summary
            missed = summary.missed if summary is not None else ()
            return [item for item in self.items if item.id in missed]
        if any(quiz.first_try_correct is None for quiz in self.retry_quizzes):
            return []
        return [
            item
            for item, quiz in zip(self._retry_items, self.retry_quizzes, strict=True)
            if not quiz.first_try_correct
        ]

    # -- the missed questions again -----------------------------------------------------

    def retry_missed(self) -> None:
        """Show the questions still missed again, fresh, below the summary."""
        items = self._still_missed()
        if not items:
            return
        self._rounds += 1
        self._retry_items = items
        count = len(items)
        self.retry_quizzes = []
        shown: list[widgets.Widget] = [
            html_widget(
                f"<h3>{escape(text('lesson-quiz.again-heading', self.lang, count=count))}</h3>"
            )
        ]
        for item in items:
            quiz = self._question(item, again=True)
            self.retry_quizzes.append(quiz)
            shown.append(quiz)
        self.retry_area.children = shown
        self._show_status()


def _height_em(question: Question) -> int:
    """About the height of ``question`` once built, in em, for its stand-in to keep: the
    questions below move little when it comes, and a screen holds about as many
    stand-ins as questions (only those are built). Measured in the app at 1280 and 800 px
    wide: 7 em for words and buttons, 8 more for cards to pick, 4 more for the trick or
    the turned card beside them."""
    choices = question.choices()  # none for a number
    cards = bool(choices) and all(question.choice_card(choice) is not None for choice in choices)
    scene = question.scene()
    return 7 + (8 if cards else 0) + (4 if scene.trick or scene.turned is not None else 0)


def _paragraph(*lines: str) -> str:
    """Lines (already HTML) as one paragraph, a line each."""
    return f'<p class="{QUIZ_CLASS}-summary-text" role="status">' + "<br>".join(lines) + "</p>"
