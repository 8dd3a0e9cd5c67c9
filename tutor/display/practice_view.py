"""Endless practice in a notebook: a :class:`QuizWidget` whose Next button asks the
session's next question, the learner's results per topic, where they are kept, and the
reset button (which asks first).

:func:`show_practice_page` is the practice notebook's one call; practice itself needs no
screen, so the practice module never imports this one.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

import ipywidgets as widgets

from tutor.display.context import PageContext
from tutor.display.lesson_view import show_sections
from tutor.display.page import PageFrame, show_widget
from tutor.display.presenter import LEARNER_ONLY
from tutor.display.progress_view import LearnerProgress, ResetControl, where_kept_html
from tutor.display.widgets import QuizWidget, html_widget
from tutor.display.words import words_html
from tutor.teaching.practice import PracticeSession
from tutor.teaching.quiz import Question
from tutor.teaching.text import DEFAULT_LANGUAGE, text


class PracticeWidget(widgets.VBox):  # type: ignore[misc]
    """The practice quiz: :attr:`quiz` (Next asks a fresh question), :attr:`tally` (right
    and wrong per topic, from the learner's progress), :attr:`where` (where it is kept)
    and :attr:`reset` (asks, then resets this learner's progress).

    >>> box = PracticeWidget(PracticeSession(seed=5))
    >>> _ = box.quiz.answer(box.quiz.question.correct_answer())
    >>> "1 right, 0 wrong" in box.tally.value
    True
    >>> box.reset.button.click(); box.reset.confirm_button.click()
    >>> "No answers yet." in box.tally.value
    True
    """

    def __init__(self, session: PracticeSession, *, lang: str = DEFAULT_LANGUAGE) -> None:
        self.session = session
        self.lang = lang
        self.tally = html_widget()
        self.where = html_widget()
        self.quiz = QuizWidget(
            session.question or session.next_question(),
            lang=lang,
            on_next=self._next_question,
        )
        self.quiz.on_graded(self._graded)
        self.reset = ResetControl(session.progress, lang=lang)
        session.progress.observe(lambda _progress: self._show_tally())
        self._show_tally()
        # A presenter's slide shows the question only: this browser's results, where they
        # are kept and the reset are no business of the room.
        for part in (self.tally, self.where, self.reset):
            part.add_class(LEARNER_ONLY)
        super().__init__([self.quiz, self.tally, self.where, self.reset])

    def _show_tally(self) -> None:
        rows = "".join(
            f"<li>{words_html(row)}</li>" for row in self.session.tally_text(self.lang).split("\n")
        )
        heading = escape(text("practice.tally-heading", self.lang))
        self.tally.value = (
            f'<div class="practice-tally"><strong>{heading}</strong><ul>{rows}</ul></div>'
        )
        self.where.value = where_kept_html(self.session.progress, self.lang)

    def _graded(self, question: Question, correct: bool, first_try: bool) -> None:
        self.session.record(question, correct=correct, first_try=first_try)

    def _next_question(self, quiz: QuizWidget) -> None:
        quiz.load(self.session.next_question())


def show_practice_page(
    name: str,
    *,
    folder: Path | str | None = None,
    context: PageContext | None = None,
    learner: LearnerProgress | None = None,
) -> None:
    """The practice notebook's page: the practice lesson's text, then the practice quiz,
    its answers recorded in the learner's progress."""
    frame = PageFrame(name, folder=folder, context=context, learner=learner)
    lesson = frame.lesson()
    frame.show_top(lesson.title(frame.lang), lesson.summary(frame.lang))
    show_sections(lesson, frame.lang)
    session = PracticeSession(progress=frame.progress)
    show_widget(PracticeWidget(session, lang=frame.lang), frame.lang)
    frame.show_bottom()
