"""The words of a quiz as HTML: a question's heading and prompt, the line above its
choices, and the feedback on an answer (or the hint after a first miss)."""

from __future__ import annotations

from html import escape

from tutor.display.widgets.quiz_style import (
    HINT_COLOUR,
    QUIZ_CLASS,
    RIGHT_COLOUR,
    WRONG_COLOUR,
)
from tutor.display.words import words_html
from tutor.teaching.quiz import (
    AnswerKind,
    Feedback,
    Question,
)
from tutor.teaching.text import DEFAULT_LANGUAGE, join_sentences, sentence_gap, text


def feedback_html(feedback: Feedback, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The grading of an answer as HTML: an icon AND the verdict in words, the learner's
    number if the feedback repeats it, the right answer, the engine's explanation (or, on
    a first miss, the hint: class ``hinted``) and any details (a list).

    >>> from tutor.teaching.quiz import ScoreQuestion
    >>> page = feedback_html(ScoreQuestion(bid=3, taken=1).check(-10))
    >>> "✘" in page, "Not quite." in page, "2 off" in page
    (True, True, True)
    """
    icon = text("widgets.right-icon" if feedback.correct else "widgets.wrong-icon", lang)
    colour = RIGHT_COLOUR if feedback.correct else WRONG_COLOUR
    state = "right" if feedback.correct else "wrong"
    if not feedback.revealed:
        state += " hinted"
    gap = sentence_gap(feedback.verdict)  # none after a full-width 「！」 (Japanese, Chinese)
    first = join_sentences((feedback.given, feedback.answer))
    parts = [
        f'<div class="quiz-feedback {state}" role="status" '
        f'style="border-left:0.35em solid {colour};padding:0.3em 0.8em;margin:0.4em 0">',
        f'<p style="margin:0.2em 0"><span aria-hidden="true" style="color:{colour};'
        f'font-weight:700">{escape(icon)}</span> <strong>{words_html(feedback.verdict)}</strong>'
        f"{gap if first else ''}{words_html(first)}</p>",
    ]
    if feedback.explanation:
        parts.append(f'<p style="margin:0.2em 0">{words_html(feedback.explanation)}</p>')
    if feedback.details:
        items = "".join(f"<li>{words_html(detail)}</li>" for detail in feedback.details)
        parts.append(f'<ul style="margin:0.2em 0">{items}</ul>')
    parts.append("</div>")
    return "".join(parts)


def hint_html(words: str) -> str:
    """A request to the learner that grades nothing ("Type a number first"): words in a
    grey-edged box, with no right or wrong icon.

    >>> 'class="quiz-hint"' in hint_html("Type a number first.")
    True
    """
    return (
        f'<div class="quiz-hint" role="status" style="border-left:0.35em solid {HINT_COLOUR};'
        f'padding:0.3em 0.8em;margin:0.4em 0"><p style="margin:0.2em 0">{words_html(words)}</p></div>'
    )


def answer_heading_html(question: Question, lang: str) -> str:
    """The line above the choices: what they are ("Your hand"), and, when several may be
    right, that several may be picked (said with the question, not first when Check
    finds nothing chosen).

    >>> from tutor.teaching.quiz import LegalPlaysQuestion
    >>> answer_heading_html(LegalPlaysQuestion.of("B7 W", "B5", "R"), "en")
    '<strong>Your hand</strong>: <span class="quiz-pick-all">pick all that apply.</span>'
    """
    label = question.answer_label(lang)
    if question.answer_kind is not AnswerKind.MANY_CHOICES:
        return f"<strong>{words_html(label)}</strong>" if label else ""
    if not label:
        return f'<span class="quiz-pick-all">{words_html(text("quiz.pick-all", lang))}</span>'
    return text(
        "quiz.pick-all-from",
        lang,
        label=f"<strong>{words_html(label)}</strong>",
        pick=f'<span class="quiz-pick-all">{words_html(text("quiz.pick-all-lower", lang))}</span>',
    )


def question_heading_html(title: str, note: str) -> str:
    """A quiz's title ("Question 2 of 6") and, under it, its note ('' without either)."""
    heading = (
        f'<p style="margin:0.6em 0 0;font-weight:600">{words_html(title)}</p>' if title else ""
    )
    if note:
        heading += f'<p class="{QUIZ_CLASS}-note" style="margin:0.3em 0 0">{words_html(note)}</p>'
    return heading


def prompt_html(question: Question, lang: str = DEFAULT_LANGUAGE) -> str:
    """A question's prompt as a quiz shows it, above its cards and choices."""
    return (
        f'<p class="quiz-prompt" style="font-size:1.1em;margin:0.3em 0">'
        f"<strong>{words_html(question.prompt(lang))}</strong></p>"
    )
