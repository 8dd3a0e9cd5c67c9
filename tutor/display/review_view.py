"""The review page: the rules due for review asked again, one question each, in the quiz
widgets the lessons use (the same feedback, Try again after a miss), then a line saying
that nothing more is due. What the session *is* (which rules, which questions, what goes
to the learner's progress) is :class:`tutor.teaching.review_session.ReviewSession`; these
widgets draw it and tell it each graded answer.

:func:`show_review_page` is the review notebook's one call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

import ipywidgets as widgets

from tutor.display import looks
from tutor.display.context import PageContext
from tutor.display.page import PageFrame, show_widget
from tutor.display.progress_view import LearnerProgress
from tutor.display.widgets import QuizWidget, html_widget
from tutor.display.words import words_html
from tutor.teaching.lesson import Lesson
from tutor.teaching.progress import Progress, ProgressState
from tutor.teaching.question import Question
from tutor.teaching.review_session import ReviewQuestion, ReviewSession
from tutor.teaching.text import DEFAULT_LANGUAGE, text, text_for_count

REVIEW_CLASS = "tutor-review"
STATUS_CLASS = f"{REVIEW_CLASS}-status"


class ReviewWidget(widgets.VBox):  # type: ignore[misc]
    """The review of the rules due when the learner's progress has loaded (the browser's
    store answers after the page is drawn): :attr:`status` says how many rules are due,
    or that none is; :attr:`quizzes`, one per question of the session; once each has had
    an answer, :attr:`status` says nothing more is due (a rule missed comes back the next
    day). ``seed``: the choice of questions (``None``: from the learner's answers so far,
    so a reload asks the same questions until they are answered).

    >>> from tutor.teaching.progress_events import AnswerEvent, AnswerSource
    >>> from tutor.teaching.progress_stores import MemoryStore
    >>> from tutor.teaching.review import at
    >>> old = AnswerEvent(AnswerSource.PRACTICE, "score", True, True,
    ...                   time="2026-12-01T10:00:00Z", rules=("bid-met-scores",))
    >>> box = ReviewWidget(Progress(MemoryStore([old])), [],
    ...                    clock=lambda: at("2026-12-05T10:00:00Z"))
    >>> len(box.quizzes), "1 rule to review" in box.status.value
    (1, True)
    >>> quiz = box.quizzes[0]
    >>> _ = quiz.answer(quiz.question.correct_answer())
    >>> "no rule is due" in box.status.value
    True
    """

    def __init__(
        self,
        progress: Progress,
        lessons: Sequence[Lesson],
        *,
        lang: str = DEFAULT_LANGUAGE,
        clock: Callable[[], datetime] | None = None,
        seed: int | None = None,
    ) -> None:
        self.progress = progress
        self.lessons = tuple(lessons)
        self.lang = lang
        self.clock = clock
        self.seed = seed
        self.session: ReviewSession | None = None
        self.quizzes: list[QuizWidget] = []
        self.status = html_widget(
            self._status_html(text("course.loading", lang)), classes=(STATUS_CLASS,)
        )
        self.questions = widgets.VBox(layout=looks.layout())
        super().__init__([self.status, self.questions], layout=looks.layout())
        self.add_class(REVIEW_CLASS)
        progress.observe(lambda _progress: self._start())
        self._start()

    def _status_html(self, words: str) -> str:
        return f'<p role="status" style="font-size:1.05em;margin:0.4em 0">{words_html(words)}</p>'

    def _start(self) -> None:
        """Once the learner's answers are there: the session, fixed for this page."""
        if self.session is not None or self.progress.state is ProgressState.LOADING:
            return
        seed = self.seed if self.seed is not None else len(self.progress.summary().answers)
        self.session = ReviewSession(self.progress, self.lessons, clock=self.clock, seed=seed)
        total = len(self.session.questions)
        self.quizzes = [
            self._quiz(asked, number, total)
            for number, asked in enumerate(self.session.questions, start=1)
        ]
        self.questions.children = tuple(self.quizzes)
        self._show_status()

    def _quiz(self, asked: ReviewQuestion, number: int, total: int) -> QuizWidget:
        item = asked.item
        quiz = QuizWidget(
            asked.question,
            lang=self.lang,
            title=text("lesson-quiz.question-number", self.lang, number=number, total=total),
            note=item.note(self.lang) if item is not None and item.note is not None else "",
        )

        def graded(_question: Question, correct: bool, first_try: bool) -> None:
            assert self.session is not None
            self.session.record(asked, correct=correct, first_try=first_try)
            self._show_status()

        quiz.on_graded(graded)
        return quiz

    def _show_status(self) -> None:
        session = self.session
        if session is None:
            return
        # a due rule nothing in the course asks any more (session.unasked) is not counted
        due = len(session.due) - len(session.unasked)
        if not due:
            words = text("review.none-due", self.lang)
        elif all(quiz.attempts for quiz in self.quizzes) and set(session.due_now()) <= set(
            session.unasked
        ):
            words = text("review.done", self.lang)
        else:
            words = text_for_count("review.due", due, self.lang, count=due)
        self.status.value = self._status_html(words)


def show_review_page(
    name: str,
    *,
    folder: Path | str | None = None,
    context: PageContext | None = None,
    learner: LearnerProgress | None = None,
) -> None:
    """The review notebook's page: its title and summary, then the review of the rules
    due, its answers recorded in the learner's progress."""
    frame = PageFrame(name, folder=folder, context=context, learner=learner)
    frame.show_top(text("review.title", frame.lang), text("review.summary", frame.lang))
    show_widget(ReviewWidget(frame.progress, frame.lessons(), lang=frame.lang), frame.lang)
    frame.show_bottom()
