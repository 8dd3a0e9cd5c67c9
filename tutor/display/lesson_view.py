"""A lesson shown in a notebook: its text as Markdown, each example as one block with its
cards drawn (the engine marks the winner and the legal cards), then its quiz
(:class:`LessonQuiz`: a :class:`QuizWidget` per question and the first-try summary), whose
graded answers go to the learner's progress.

:func:`show_lesson_page` is a lesson notebook's one call: the lesson inside the course's
page frame (:mod:`tutor.display.page`: links, title, progress notices). :func:`show_lesson`
and :func:`show_quiz` show a lesson or its quiz alone. Loading and checking lessons needs
no screen, so the lessons module never imports this one.

Each example is one slide in presenter mode; an example that asks something (who takes the
trick, which cards may be played) puts the question to the room there and holds the
engine's answer back until the next press (see :mod:`tutor.display.presenter`).

>>> from tutor.teaching.lesson_loader import load_lesson
>>> words = example_words_html(load_lesson("01").item("schedule-four-players"))
>>> words.count("<tr>"), ">1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15</td>" in words
(2, True)
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import Any

import IPython.display

from tutor.display.context import PageContext
from tutor.display.html import title_markdown
from tutor.display.kinds import ITEM_VIEWS
from tutor.display.lesson_quiz import LessonQuiz, question_title
from tutor.display.page import PageFrame, show_widget
from tutor.display.presenter import (
    ANSWER,
    SLIDE,
    answer_stack,
    learner_only,
    present_only,
    question_slide,
    room_question,
    room_result,
    text_html,
)
from tutor.display.progress_view import LearnerProgress
from tutor.display.words import words_html
from tutor.teaching.explain import unbroken
from tutor.teaching.lesson import Lesson, LessonItem
from tutor.teaching.progress import Progress
from tutor.teaching.quiz import Question
from tutor.teaching.text import DEFAULT_LANGUAGE, text

_ipython: Any = IPython.display  # untyped


def _markdown(source: str) -> None:
    _ipython.display(_ipython.Markdown(source))


def _html(source: str) -> None:
    _ipython.display(_ipython.HTML(source))


def example_picture(
    item: LessonItem, lang: str = DEFAULT_LANGUAGE, *, answered: bool = True
) -> str:
    """The cards of an example as SVG/HTML ('' when it has none); the engine marks the
    winner and the legal cards (``answered=False``: the same cards, nothing marked).

    >>> from tutor.teaching.lesson_loader import load_lesson
    >>> item = load_lesson("06").item("source-wizard-first")
    >>> 'class="trick"' in example_picture(item), "winner-mark" in example_picture(item)
    (True, True)
    >>> "winner-mark" in example_picture(item, answered=False)
    False
    """
    return ITEM_VIEWS[item.kind].picture(item.subject, lang, answered)


def example_words_html(item: LessonItem, lang: str = DEFAULT_LANGUAGE) -> str:
    """An example's words as HTML: the engine's answer and reason (or its table)."""
    words = ITEM_VIEWS[item.kind].words
    return text_html(item.as_text(lang)) if words is None else words(item.subject, lang)


def example_heading(item: LessonItem, lang: str = DEFAULT_LANGUAGE) -> str:
    """The line that opens an example: the word "Example" (with the language's own
    punctuation), then its note if it has one. A presenter's slide shows only the note
    (the slide is the example).

    >>> from tutor.teaching.lesson_loader import load_lesson
    >>> print(example_heading(load_lesson("01").item("deck-counts")))
    <p class="tutor-learner-only lesson-example-head"><strong>Example.</strong></p>
    >>> print(example_heading(load_lesson("04").item("source-blue-then-wizard"), "ja")[:92])
    <p class="lesson-example-head"><span class="tutor-learner-only"><strong>例</strong>：</span>Aが
    """
    label = _markdown_bold(text("page.example", lang))
    if item.note is None:
        return learner_only(label, tag="p", klass="lesson-example-head")
    line = text(
        "page.two-sentences",
        lang,
        first=learner_only(label, tag="span"),
        second=words_html(item.note(lang)),
    )
    return f'<p class="lesson-example-head">{line}</p>'


def _markdown_bold(words: str) -> str:
    """A catalog's line written for Markdown (``**Example.**``) as HTML."""
    return re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", escape(words, quote=False))


def example_html(item: LessonItem, lang: str = DEFAULT_LANGUAGE) -> str:
    """One example as one block, and one slide in presenter mode: its heading, its cards
    and its words.

    An example that asks something shows it all on a learner's page; on a presenter's slide
    it asks the room (the question's prompt) over the unmarked cards, and the next press
    reveals the marked cards, the example's note and the engine's answer and reason (a note
    often says who wins and why: before the answer it would give it away).

    >>> from tutor.teaching.lesson_loader import load_lesson
    >>> block = example_html(load_lesson("04").item("must-follow-blue"))
    >>> "tutor-ask" in block, "tutor-answer-stack" in block, "tutor-answer" in block
    (True, True, True)
    >>> "tutor-ask" in example_html(load_lesson("01").item("deck-counts"))
    False
    """
    subject = item.subject
    slides = ITEM_VIEWS[item.kind].slides
    if slides is not None:  # e.g. a score sheet, then its chart: a slide each
        first, *rest = slides(subject, lang)
        return _block(example_heading(item, lang) + first) + "".join(map(_block, rest))
    picture = example_picture(item, lang)
    if isinstance(subject, Question):
        unmarked = example_picture(item, lang, answered=False)
        if unmarked != picture:
            picture = answer_stack(unmarked, picture)
        heading = learner_only(example_heading(item, lang))
        ask = present_only(words_html(subject.prompt(lang)), tag="p", klass="tutor-ask")
        note = "" if item.note is None else f"<p>{words_html(item.note(lang))}</p>"
        words = learner_only(example_words_html(item, lang)) + present_only(
            note + text_html(subject.answer_text(lang)), klass=ANSWER
        )
    else:
        heading, ask, words = example_heading(item, lang), "", example_words_html(item, lang)
    return _block(f'{heading}{ask}{picture}<div class="lesson-example-words">{words}</div>')


def _block(html: str) -> str:
    return f'<section class="lesson-example-block {SLIDE}">{html}</section>'


def show_title(lesson: Lesson, lang: str = DEFAULT_LANGUAGE) -> None:
    """The lesson's title and summary."""
    _markdown(title_markdown(lesson.title(lang), lesson.summary(lang), lang))


def show_sections(lesson: Lesson, lang: str = DEFAULT_LANGUAGE) -> None:
    """The lesson's sections, each with its examples drawn and explained. A section's words
    are Markdown, shown by the host (Voilà, Lab, the static site): each card's name in them
    is kept whole with plain characters (:func:`~tutor.teaching.explain.unbroken`)."""
    for section in lesson.sections:
        _markdown(f"## {section.heading(lang)}\n\n{unbroken(section.body(lang))}")
        for item in section.examples:
            asks = isinstance(item.subject, Question)  # the room may answer it too
            _html((room_question(lesson.id, item.id) if asks else "") + example_html(item, lang))


def show_lesson(
    lesson: Lesson,
    lang: str = DEFAULT_LANGUAGE,
    *,
    quiz: bool = True,
    progress: Progress | None = None,
) -> None:
    """Display ``lesson`` in a notebook: title, sections with their examples drawn and
    explained, then (``quiz=True``) the quiz, its answers recorded in ``progress``."""
    show_title(lesson, lang)
    show_sections(lesson, lang)
    if quiz:
        show_quiz(lesson, lang, progress=progress)


def show_quiz(
    lesson: Lesson,
    lang: str = DEFAULT_LANGUAGE,
    *,
    progress: Progress | None = None,
    presenting: bool = False,
) -> None:
    """Display the quiz of ``lesson``: a heading, each question's place with its note under
    its heading (each its own output: a presenter shows one per screen; each question is
    built when the learner reaches it, or at once when ``presenting``), then the
    :class:`LessonQuiz` summary ("First try: 4 of 6 right") that offers the missed
    questions again. Graded answers are recorded in ``progress`` (by its
    :attr:`~LessonQuiz.session`). ``presenting``: :func:`show_presented_quiz` instead."""
    if not lesson.quiz:
        return
    if presenting:
        show_presented_quiz(lesson, lang)
        return
    quiz = LessonQuiz(lesson, lang=lang, progress=progress)
    _markdown(f"## {text('lesson.quiz-heading', lang)}")
    for place in quiz.places:  # each question is built when the learner reaches it
        show_widget(place, lang)
    show_widget(quiz, lang)


def show_presented_quiz(lesson: Lesson, lang: str = DEFAULT_LANGUAGE) -> None:
    """The quiz of ``lesson`` on a presenter's screen: each question a slide as the room
    sees it (no learner's controls: the room answers on its phones, or aloud), its answer
    and the engine's reason held back until the reveal; then the live room's result (how
    many answered each question, how many right at the first answer), which only a page
    with a room shows. Nothing is graded or recorded: the presenter's browser answers
    nothing."""
    titles = [question_title(lesson, item, lang) for item in lesson.quiz]
    for item, title in zip(lesson.quiz, titles, strict=True):
        note = item.note(lang) if item.note is not None else ""
        mark = room_question(lesson.id, item.id)
        _html(question_slide(item.question, title=title, note=note, mark=mark, lang=lang))
    _html(
        room_result(
            lesson.id,
            [(item.id, title) for item, title in zip(lesson.quiz, titles, strict=True)],
            lang,
        )
    )


def show_lesson_page(
    name: str,
    *,
    folder: Path | str | None = None,
    context: PageContext | None = None,
    learner: LearnerProgress | None = None,
) -> None:
    """A lesson notebook's page: the lesson ``name`` (its file's name, which is the
    notebook's) inside the course's frame, its quiz answers recorded in the learner's
    progress."""
    frame = PageFrame(name, folder=folder, context=context, learner=learner)
    lesson = frame.lesson()
    lang = lesson.shown_language(frame.lang)  # a teacher's lesson may be English only
    frame.show_top(lesson.title(lang), lesson.summary(lang))
    show_sections(lesson, lang)
    show_quiz(lesson, lang, progress=frame.progress, presenting=frame.context.presenting)
    frame.show_bottom()
