"""The course page (``index.ipynb``): how to use the course, each page's summary with
which lessons this learner has done and how they scored, where to continue, the rules due
for review and the learner's rule map; presented, the teacher's start slide.

The pages themselves, in order, and the links between them are :mod:`tutor.display.course`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from tutor.display.context import PageContext
from tutor.display.course import CourseEntry, course_link, language_choice_html
from tutor.display.presenter import SLIDE
from tutor.display.words import words_html
from tutor.teaching.progress_summary import PRACTICE, Summary
from tutor.teaching.review import RuleMemories, RuleStatus
from tutor.teaching.text import DEFAULT_LANGUAGE, text, text_for_count

# -- the course page ---------------------------------------------------------------------------


def course_intro_html(context: PageContext) -> str:
    """The top of the course page: the language choice (the app's), the title and how to
    use the course (presenter mode only where it exists)."""
    lang = context.lang
    intro = text("course.intro", lang)
    if context.in_app:
        intro = text(
            "page.two-sentences", lang, first=intro, second=text("course.intro-present", lang)
        )
    return (
        f'<div class="tutor-course-index">'
        f"{language_choice_html(lang) if context.in_app else ''}"
        f"<h1>{escape(text('course.title', lang))}</h1>"
        f"<p>{escape(intro)}</p></div>"
    )


def _status(entry: CourseEntry, summary: Summary | None, lang: str) -> tuple[str, bool]:
    """What the course page says of the learner's work on ``entry``, and whether it is done."""
    if summary is None:
        return "", False
    if entry.activity is None:  # a page with no answers: done once finished
        done = summary.done(entry.name)
        return (text("course.status-finished", lang), True) if done else ("", False)
    if entry.activity == PRACTICE:
        count = summary.practice
        if not count.answered:
            return "", False
        words = text("course.status-practice", lang, answered=count.answered, right=count.right)
        return words, summary.done(PRACTICE)
    result = summary.lesson(entry.activity)
    if result.done:
        return text("course.status-done", lang, right=result.right, items=result.items), True
    if result.started:
        return text(
            "course.status-started", lang, answered=result.answered, items=result.items
        ), False
    return "", False


COURSE_CSS = """<style>
.tutor-course { margin: 0.4em 0; }
.tutor-course-entry { margin: 0 0 0.9em; }
.tutor-course-entry::marker { font-weight: 600; }
.tutor-course-entry .tutor-open { font-weight: 600; font-size: 1.05em; }
.tutor-course-entry .tutor-course-summary { margin: 0.15em 0 0; }
.tutor-course-entry .tutor-course-status { font-weight: 600; }
.tutor-continue { font-size: 1.05em; margin: 0.6em 0; padding: 0.5em 0.8em;
  border-left: 0.35em solid var(--jp-brand-color1, #1a56db); }
</style>"""


def course_list_html(
    entries: Sequence[CourseEntry], context: PageContext, summary: Summary | None
) -> str:
    """The numbered list of the course's pages: each title a link, its summary, this
    learner's status (``summary=None``: not known yet), and in the app a "Present" link."""
    lang = context.lang
    if not entries:
        return f"<p>{escape(text('course.none', lang))}</p>"
    present = text("course.present", lang)
    items = []
    for entry in entries:
        status, done = _status(entry, summary, lang)
        head = [course_link(context.link(entry.file), entry.title, "tutor-open")]
        if status:
            mark = "✓ " if done else ""  # the words say it too: never the sign alone
            head.append(f' · <span class="tutor-course-status">{mark}{escape(status)}</span>')
        if context.in_app:
            link = context.present_link(entry.file)
            label = f"{present}: {entry.title}"
            head.append(" · " + course_link(link, present, "tutor-present-link", label=label))
        summary_html = (
            f'<p class="tutor-course-summary">{words_html(entry.summary)}</p>'
            if entry.summary
            else ""
        )
        state = " is-done" if done else ""
        items.append(f'<li class="tutor-course-entry{state}">{"".join(head)}{summary_html}</li>')
    return f'<ol class="tutor-course">{"".join(items)}</ol>'


PRESENT_START_CSS = """<style>
.tutor-present-start { font-size: 16px; line-height: 1.3; }
.tutor-present-start h1 { margin: 0 0 0.2em; font-size: 1.5em; }
.tutor-present-start p { margin: 0 0 0.5em; }
.tutor-present-start ol { margin: 0; padding-left: 2em; columns: 2; column-gap: 2.5em; }
.tutor-present-start li { margin: 0 0 0.3em; break-inside: avoid; }
.tutor-present-start a { font-weight: 600; }
</style>"""


def present_start_html(entries: Sequence[CourseEntry], context: PageContext) -> str:
    """The presenter's start slide (the course page presented, where a teacher's start
    address lands): the course's lessons in order, each title a link that presents it;
    the live room's join panel stands beside it (the page script's). Nothing of one
    learner's (progress, where it is kept) is on it: it is shown to a class.

    >>> from tutor.display.context import Frontend
    >>> from tutor.teaching.lesson_loader import load_lesson
    >>> lesson = CourseEntry("06_trick_winner.ipynb", "Who wins", lesson=load_lesson("06_trick_winner"))
    >>> slide = present_start_html([lesson], PageContext("en", Frontend.APP, presenting=True))
    >>> 'href="06_trick_winner.ipynb?present=1&amp;lang=en"' in slide
    True
    """
    lang = context.lang
    lessons = [entry for entry in entries if entry.lesson is not None]
    present = text("course.present", lang)
    items = "".join(
        f"<li>{course_link(context.present_link(entry.file), entry.title, 'tutor-present-link', label=f'{present}: {entry.title}')}</li>"
        for entry in lessons
    )
    listing = f"<ol>{items}</ol>" if lessons else f"<p>{escape(text('course.none', lang))}</p>"
    return (
        f'{PRESENT_START_CSS}<section class="{SLIDE} tutor-present-start">'
        f"<h1>{escape(text('course.present-start', lang))}</h1>"
        f"<p>{escape(text('course.present-start-note', lang))}</p>{listing}</section>"
    )


def continue_html(
    entries: Sequence[CourseEntry], context: PageContext, summary: Summary | None
) -> str:
    """ "Continue where you left off" (or "Start here") with a link to that page; while
    the learner's progress is loading, says so."""
    lang = context.lang
    if summary is None:
        return f'<p class="tutor-continue" role="status">{escape(text("course.loading", lang))}</p>'
    activities = [entry.activity or entry.name for entry in entries]
    target = summary.continue_at(activities)
    if target is None:
        return f'<p class="tutor-continue">{escape(text("course.all-done", lang))}</p>'
    entry = entries[activities.index(target)]
    label = text("course.start" if summary.last_activity is None else "course.continue", lang)
    number = text("course.number", lang, number=activities.index(target) + 1)
    link = course_link(context.link(entry.file), f"{number} {entry.title} →", "tutor-continue-link")
    # The language's own gap after the label: none after 「：」.
    words = text("page.two-sentences", lang, first=f"<strong>{escape(label)}</strong>", second=link)
    return f'<p class="tutor-continue">{words}</p>'


# -- spaced review: the rules due, and the learner's map -----------------------------------------

REVIEW_CSS = """<style>
.tutor-review-due { font-size: 1.05em; margin: 0.6em 0; padding: 0.5em 0.8em;
  border-left: 0.35em solid var(--jp-warn-color1, #b45309); }
.tutor-rule-map { list-style: none; padding: 0; margin: 0.3em 0 0.8em;
  display: grid; grid-template-columns: repeat(auto-fill, minmax(15em, 1fr)); gap: 0.3em 1.2em; }
.tutor-rule-map li { padding-left: 1.6em; text-indent: -1.6em; }
.tutor-rule-map .tutor-map-mark { display: inline-block; width: 1.6em; text-indent: 0;
  font-size: 1.1em; line-height: 1; }
.tutor-rule-map .tutor-map-status { font-weight: 600; white-space: nowrap; }
.tutor-rule-map .is-known .tutor-map-status { color: var(--jp-success-color1, #166534); }
</style>"""
"""The map flows into as many columns as the width holds: one on a phone (360 px)."""

MAP_MARKS = {RuleStatus.NEW: "○", RuleStatus.LEARNING: "◐", RuleStatus.KNOWN: "●"}
"""Each status's symbol beside its words (never the colour alone)."""


def review_due_html(due: int, context: PageContext, review: CourseEntry | None) -> str:
    """ "3 rules to review", a link to the review page; nothing when no rule is due (or
    the course has no review page).

    >>> from tutor.display.context import Frontend
    >>> from tutor.display.course import REVIEW
    >>> page = CourseEntry("review.ipynb", "Review the rules", activity=REVIEW)
    >>> review_due_html(1, PageContext("en", Frontend.LAB), page).count("1 rule to review")
    1
    >>> review_due_html(0, PageContext("en", Frontend.LAB), page)
    ''
    """
    if not due or review is None:
        return ""
    words = text_for_count("review.due", due, context.lang, count=due) + " →"
    link = course_link(context.link(review.file), words, "tutor-review-link")
    return f'<p class="tutor-review-due">{link}</p>'


def rule_map_html(memories: RuleMemories, lang: str = DEFAULT_LANGUAGE) -> str:
    """The learner's map: each group of rules with its status (:class:`RuleStatus`) in
    words and a symbol.

    >>> from tutor.teaching.rule_map import rule_map
    >>> html = rule_map_html(RuleMemories({}, rule_map()), "en")
    >>> html.count('class="tutor-map-group is-new"') == len(rule_map().groups)
    True
    """
    rows = []
    separator = text("review.map-separator", lang)
    for group in memories.rules.groups:
        status = memories.group_status(group)
        words = text(f"review.status-{status.value}", lang)
        rows.append(
            f'<li class="tutor-map-group is-{status.value}">'
            f'<span class="tutor-map-mark" aria-hidden="true">{MAP_MARKS[status]}</span>'
            f'<span class="tutor-map-name">{escape(group.name(lang))}</span>'
            f'{escape(separator)}<span class="tutor-map-status">{escape(words)}</span></li>'
        )
    return (
        f'<section class="tutor-rule-map-section" aria-labelledby="tutor-rule-map-heading">'
        f'<h2 id="tutor-rule-map-heading">{escape(text("review.map-heading", lang))}</h2>'
        f"<p>{escape(text('review.map-intro', lang))}</p>"
        f'<ul class="tutor-rule-map">{"".join(rows)}</ul></section>'
    )
