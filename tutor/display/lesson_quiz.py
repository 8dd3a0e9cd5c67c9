"""A lesson's quiz as widgets: one :class:`QuizWidget` per quiz item, then a summary of how
the learner did on the first try ("First try: 4 of 6 right") that offers the missed
questions again. What the quiz *is* (first tries, score, the missed questions again, what
goes to the learner's progress) is :class:`tutor.teaching.practice.LessonQuizSession`:
these widgets draw it and tell it each graded answer.

The questions are separate widgets, shown one after another by
:func:`tutor.display.show_quiz`, each with its note under its heading, so a presenter gets
each on its own screen; the :class:`LessonQuiz` widget itself is the summary, shown after
them, and the place where the missed questions come back. Each question is built when the
learner reaches it (:attr:`LessonQuiz.places`, :class:`~tutor.display.reach.Deferred`):
until then its place shows its title, note and prompt, a widget model where the question
has some eighty.

>>> from tutor.teaching.lesson_loader import load_lesson
>>> quiz = LessonQuiz(load_lesson("07"))
>>> for number, widget in enumerate(quiz.quizzes):     # right, except the second one
...     right = widget.question.correct_answer()
...     _ = widget.answer(right + 1 if number == 1 else right)
>>> quiz.session.summary.first_try_right == len(quiz.quizzes) - 1
True
>>> quiz.session.summary.missed
('quiz-bid-three-met',)
>>> quiz.retry_button.click()
>>> [widget.question for widget in quiz.retry_quizzes] == [quiz.quizzes[1].question]
True
"""

from __future__ import annotations

import functools
from html import escape

import ipywidgets as widgets

from tutor.display import looks
from tutor.display.presenter import room_question
from tutor.display.reach import Deferred
from tutor.display.visibility import HIDDEN, set_visible
from tutor.display.widgets import (
    QUIZ_CLASS,
    QuizWidget,
    html_widget,
    prompt_html,
    question_heading_html,
)
from tutor.teaching.lesson import Lesson, LessonItem
from tutor.teaching.practice import LessonQuizSession
from tutor.teaching.progress import Progress, ProgressState
from tutor.teaching.question import answer_code, answer_from_code
from tutor.teaching.quiz import Question
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, text

SUMMARY_CLASS = "tutor-quiz-summary"
PLACE_CLASS = f"{QUIZ_CLASS}-place"
"""CSS class of a question's place on the page: its stand-in, then its quiz."""


class LessonQuiz(widgets.VBox):  # type: ignore[misc]
    """The quiz of ``lesson``: :attr:`places` (one per quiz item, in order, each building
    its :class:`QuizWidget`, titled "Question 2 of 6", when the learner reaches it) and
    this widget, the summary: how many are answered so far, then "First try: 4 of 6
    right", the numbers of the missed questions and :attr:`retry_button`, which shows them
    again, fresh, below it (:attr:`retry_quizzes`); a question missed again is offered
    again.

    :attr:`session` keeps the score and records every graded answer in ``progress``
    (``None``: kept in memory only). ``build_now`` builds every question at once (the
    presenter's one page: a slide must be whole when it is shown, fitted to the screen
    once, not grow after its question arrives from the kernel).
    """

    def __init__(
        self,
        lesson: Lesson,
        *,
        lang: str = DEFAULT_LANGUAGE,
        progress: Progress | None = None,
        build_now: bool = False,
    ) -> None:
        self.lesson = lesson
        self.lang = lang
        self.session = LessonQuizSession(lesson, progress=progress)
        self.items: tuple[LessonItem, ...] = lesson.quiz
        self.places = [
            Deferred(
                functools.partial(self._question, item, again=False),
                html=self._words(item),
                classes=(PLACE_CLASS,),
            )
            for item in self.items
        ]
        if build_now:
            for place in self.places:
                place.build()
        # Each part made whole before it opens (words, classes, shared look): one message.
        self.status = html_widget(self._status_html(), classes=(f"{SUMMARY_CLASS}-status",))
        self.retry_button = widgets.Button(
            description="",
            tooltip=text("lesson-quiz.retry-tooltip", lang),
            button_style="primary",
            layout=looks.layout(width="auto", display=HIDDEN),
            style=looks.style(widgets.Button),
            _dom_classes=(f"{SUMMARY_CLASS}-retry",),
        )
        self.retry_button.on_click(lambda _button: self.retry_missed())
        self.again_button = widgets.Button(
            description=text("lesson-quiz.answer-all-again", lang),
            tooltip=text("lesson-quiz.answer-all-again-tooltip", lang),
            layout=looks.layout(width="auto", display=HIDDEN),
            style=looks.style(widgets.Button),
            _dom_classes=(f"{SUMMARY_CLASS}-again",),
        )
        self.again_button.on_click(lambda _button: self.answer_all_again())
        self.retry_area = widgets.VBox(layout=looks.layout())
        self.retry_quizzes: list[QuizWidget] = []
        super().__init__(
            [
                self.status,
                widgets.HBox([self.retry_button, self.again_button], layout=looks.layout()),
                self.retry_area,
            ],
            layout=looks.layout(),
            _dom_classes=(SUMMARY_CLASS,),
        )
        self._restored = build_now  # a presenter's slides show the room's quiz, fresh
        self.session.progress.observe(self._restore)
        self._restore(self.session.progress)
        self._show_status()

    def _restore(self, progress: Progress) -> None:
        """Once the learner's store has answered (the browser's, after the page is drawn),
        show their earlier first answers on the questions this page has no answer to yet:
        a lesson reopened shows what was done (docs/progress.md). Writes nothing."""
        if self._restored or progress.state is ProgressState.LOADING:
            return
        self._restored = True  # a broken store has nothing to give: the quiz stays fresh
        if progress.state is not ProgressState.READY:
            return
        summary = progress.summary({self.lesson.id: [item.id for item in self.items]})
        for item in self.session.restore(summary):
            built = self.places[self.items.index(item)].built
            if isinstance(built, QuizWidget):
                if built.attempts:  # the learner answered here before the store answered
                    continue
                self._show_earlier(built, item)
        self._show_status()

    def _show_earlier(self, quiz: QuizWidget, item: LessonItem) -> None:
        event = self.session.earlier[item.id]
        answer = answer_from_code(item.question, event.answer)
        quiz.show_earlier(answer, event.correct and event.first_try)

    def notes(self) -> list[str | None]:
        """Each question's note (words shown before it), in the learner's language."""
        return [item.note(self.lang) if item.note is not None else None for item in self.items]

    @property
    def quizzes(self) -> list[QuizWidget]:
        """Every question's widget, in order, built now if the learner has not reached it
        yet (the page itself builds each one only then)."""
        return [place.build() for place in self.places]

    # -- the questions ------------------------------------------------------------------

    def _title(self, item: LessonItem) -> str:
        return question_title(self.lesson, item, self.lang)

    def _note(self, item: LessonItem) -> str:
        return item.note(self.lang) if item.note is not None else ""

    def _words(self, item: LessonItem) -> str:
        """What ``item``'s place shows before its question is built: the question's own
        first lines (title, note, prompt), so nothing above its cards moves when they come."""
        # the live room's mark too: a presenter who reaches the slide opens its question
        heading = room_question(self.lesson.id, item.id) + question_heading_html(
            self._title(item), self._note(item)
        )
        return (
            f'<div style="min-height:{_height_em(item.question)}em">'
            f'<div class="{QUIZ_CLASS}-title">{heading}</div>'
            f'<div class="{QUIZ_CLASS}-prompt">{prompt_html(item.question, self.lang)}</div>'
            "</div>"
        )

    def _question(self, item: LessonItem, *, again: bool) -> QuizWidget:
        """``item``'s question, titled with its place in the quiz ("Question 2 of 6"), its
        graded answers told to the session (``again``: a missed question asked again)."""
        quiz = QuizWidget(
            item.question,
            lang=self.lang,
            title=self._title(item),
            note=self._note(item),
            # the live room's mark (presenter.room_question), as on the stand-in before it
            mark=room_question(self.lesson.id, item.id),
        )

        def graded(question: Question, correct: bool, first_try: bool) -> None:
            self.session.grade(
                item,
                correct=correct,
                first_try=first_try,
                again=again,
                answer=answer_code(question, quiz.last_answer),
            )
            self._show_status()

        def asked_again(_quiz: QuizWidget) -> None:
            self.session.answer_again(item)
            self._show_status()

        quiz.on_graded(graded)
        quiz.on_answer_again(asked_again)
        if not again and item.id in self.session.earlier and not self.session.practising(item):
            self._show_earlier(quiz, item)
        return quiz

    # -- the summary --------------------------------------------------------------------

    def _show_status(self) -> None:
        self.status.value = self._status_html()
        summary = self.session.summary
        if summary is None:
            return
        set_visible(self.again_button, True)
        still_missed = self.session.still_missed()
        with self.retry_button.hold_sync():  # its words and whether it shows: one message
            self.retry_button.description = text(
                "lesson-quiz.retry", self.lang, count=len(still_missed)
            )
            set_visible(self.retry_button, bool(still_missed))

    def _status_html(self) -> str:
        """The summary's words: answered so far (earlier answers too), then, once all are,
        the first try's score and the rest, and how practice did (questions answered
        again: the first answers stay the score)."""
        lang, session = self.lang, self.session
        summary = session.summary
        # the earlier answers of a lesson reopened count: they are shown on the questions
        answered = text(
            "lesson-quiz.progress", lang, answered=session.answered, total=len(self.items)
        )
        if summary is None:
            return _paragraph(escape(answered))
        score = text("lesson-quiz.score", lang, right=summary.first_try_right, total=summary.total)
        lines = [escape(answered), f"<strong>{escape(score)}</strong>"]
        if summary.missed:
            numbers = [
                text("lesson-quiz.number", lang, number=index)
                for index, item in enumerate(self.items, start=1)
                if item.id in summary.missed
            ]
            lines.append(
                escape(text("lesson-quiz.missed", lang, numbers=join_words(numbers, lang)))
            )
        else:
            lines.append(escape(text("lesson-quiz.all-right", lang)))
        again = session.retry_score
        if again is not None:
            key = (
                "lesson-quiz.again-score"
                if again.answered == again.total
                else "lesson-quiz.again-progress"
            )
            words = text(key, lang, right=again.right, answered=again.answered, total=again.total)
            lines.append(escape(words))
        practice = session.practice_score
        if practice is not None and practice.answered:
            words = text(
                "lesson-quiz.practice-score",
                lang,
                score=summary.first_try_right,
                total=summary.total,
                right=practice.right,
                answered=practice.answered,
            )
            lines.append(f"<strong>{escape(words)}</strong>")
        return _paragraph(*lines)

    # -- answering again ----------------------------------------------------------------

    def answer_all_again(self) -> None:
        """Every question fresh, to answer again for practice: the first answers stay the
        score (the summary says so once answers come)."""
        for item, place in zip(self.items, self.places, strict=True):
            self.session.answer_again(item)
            quiz = place.built
            if isinstance(quiz, QuizWidget):
                quiz.load(item.question)
        self.retry_area.children = []
        self.retry_quizzes = []
        self._show_status()

    # -- the missed questions again -----------------------------------------------------

    def retry_missed(self) -> None:
        """Show the questions still missed again, fresh, below the summary."""
        items = self.session.start_retry()
        if not items:
            return
        heading = text("lesson-quiz.again-heading", self.lang, count=len(items))
        self.retry_quizzes = [self._question(item, again=True) for item in items]
        self.retry_area.children = [html_widget(f"<h3>{escape(heading)}</h3>"), *self.retry_quizzes]
        self._show_status()


def question_title(lesson: Lesson, item: LessonItem, lang: str = DEFAULT_LANGUAGE) -> str:
    """``item``'s place in ``lesson``'s quiz: "Question 2 of 6"."""
    number = lesson.quiz.index(item) + 1
    return text("lesson-quiz.question-number", lang, number=number, total=len(lesson.quiz))


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
