"""Endless practice in a notebook: a :class:`QuizWidget` whose Next button asks the
session's next question, the learner's results per topic, and a button to reset them.

:func:`show_practice` (also ``tutor.display.show_practice``) is the notebook's way in:
practice itself needs no screen, so the practice module never imports this one.
"""

from __future__ import annotations

from html import escape
from typing import Any

import IPython.display
import ipywidgets as widgets

from tutor.display.widgets import QuizWidget
from tutor.teaching.practice import PracticeSession
from tutor.teaching.quiz import Feedback, Question
from tutor.teaching.text import DEFAULT_LANGUAGE, text


class PracticeWidget(widgets.VBox):  # type: ignore[misc]
    """The practice quiz: :attr:`quiz` (Next asks a fresh question), :attr:`tally` (right
    and wrong per topic, saved with the session's progress), :attr:`reset_button` and
    :attr:`status` (says when the progress was reset).

    >>> box = PracticeWidget(PracticeSession(seed=5))
    >>> _ = box.quiz.answer(box.quiz.question.correct_answer())
    >>> "1 right, 0 wrong" in box.tally.value
    True
    >>> box.reset_button.click()
    >>> "No answers yet." in box.tally.value
    True
    """

    def __init__(self, session: PracticeSession, *, lang: str = DEFAULT_LANGUAGE) -> None:
        self.session = session
        self.lang = lang
        self.tally = widgets.HTML()
        self.status = widgets.HTML()
        self.quiz = QuizWidget(
            session.question or session.next_question(),
            lang=lang,
            on_answer=self._answered,
            on_next=self._next_question,
        )
        self.reset_button = widgets.Button(
            description=text("practice.reset", lang),
            tooltip=text("practice.reset", lang),
            button_style="warning",
            layout=widgets.Layout(width="auto"),
        )
        self.reset_button.on_click(lambda _button: self._reset_pressed())
        self._show_tally()
        super().__init__([self.quiz, self.tally, self.reset_button, self.status])

    def _show_tally(self) -> None:
        rows = "".join(
            f"<li>{escape(row)}</li>" for row in self.session.tally_text(self.lang).split("\n")
        )
        heading = escape(text("practice.tally-heading", self.lang))
        self.tally.value = (
            f'<div class="practice-tally"><strong>{heading}</strong><ul>{rows}</ul></div>'
        )

    def _answered(self, question: Question, _answer: object, feedback: Feedback) -> None:
        self.session.record(question, correct=feedback.correct)
        self.status.value = ""
        self._show_tally()

    def _next_question(self, quiz: QuizWidget) -> None:
        quiz.load(self.session.next_question())

    def _reset_pressed(self) -> None:
        self.session.reset_progress()
        done = escape(text("practice.reset-done", self.lang))
        self.status.value = f'<p role="status">{done}</p>'
        self._show_tally()


def show_practice(session: PracticeSession, lang: str = DEFAULT_LANGUAGE) -> None:
    """Display a :class:`PracticeWidget` for ``session`` in a notebook."""
    ipython: Any = IPython.display  # untyped
    ipython.display(PracticeWidget(session, lang=lang))
