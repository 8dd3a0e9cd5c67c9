"""The teacher's page of the class (templates/teacher.html): per learner and lesson, done
and the quiz score; per learner and topic, practice answers right at the first try; per
learner and stepped page, the step they are at; for the class, the topics most often
missed and the rules it is weakest on. In the teacher's language; lesson titles and topic
names from the tutor's own catalogs. Computed from the events at each load
(:mod:`tutor.hub.class_progress`), never stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from markupsafe import Markup

from tutor.display.course import course_entries
from tutor.hub.class_progress import (
    ClassRule,
    SteppedPage,
    class_results,
    class_rules,
    most_missed,
    ranked_rules,
    stepped_pages,
    weakest_rules,
)
from tutor.resources import notebooks_dir
from tutor.teaching.lesson import Lesson
from tutor.teaching.progress_events import Event, StepEvent
from tutor.teaching.progress_summary import TopicCount
from tutor.teaching.review import item_rules
from tutor.teaching.rule_map import RuleMap, rule_map
from tutor.teaching.text import DEFAULT_LANGUAGE, text
from tutor.web.templating import language_links, render

TEMPLATES = Path(__file__).resolve().parent / "templates"

PAGE_STYLE = """
body { font-family: system-ui, "Noto Sans CJK JP", sans-serif; margin: 1.5rem; color: #1b1b1b; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; } h2 { font-size: 1.25rem; margin: 1.5rem 0 .5rem; }
nav a { margin-right: 1rem; } nav a[aria-current] { font-weight: bold; text-decoration: none; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid #999; padding: .3rem .6rem; text-align: left; vertical-align: top; }
thead th { background: #eef; } td.done { background: #e6f4e6; }
.muted { color: #555; }
section[aria-labelledby=room] li { margin: .35rem 0; } /* links apart: 24 px targets (WCAG 2.2) */
#weakest-rules > li { margin: 0 0 .9rem; max-width: 60rem; }
.rule-text { margin: 0 0 .3rem; font-weight: 600; }
.rule-counts { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .3rem; }
.rule-counts li { border: 1px solid #999; border-radius: .3rem; padding: .1rem .5rem; }
.rule-id { font-size: .85rem; margin: .2rem 0 0; }
#every-rule summary { cursor: pointer; margin: .5rem 0; }
.scrolls { overflow-x: auto; } #class-rules th[scope=row] { font-weight: normal; min-width: 12rem; }
#class-rules th[scope=col], #class-rules td { white-space: nowrap; }
"""


def _rate(count: TopicCount | None, lang: str) -> str:
    if count is None or not count.answered:
        return "—"
    percent = round(100 * count.right / count.answered)
    return text("teacher.rate", lang, right=count.right, answered=count.answered, percent=percent)


def _page_words(lang: str, rules: RuleMap | None = None) -> dict[str, Any]:
    """What every part of the teacher's page fills its words with, in ``lang``."""
    rules = rules if rules is not None else rule_map()

    def rule_sentence(rule_id: str) -> tuple[str, str]:
        """A rule's sentence and its language: ``lang``'s, or English while the map has
        no ``lang`` text for it yet (a rule is never shown by its key alone)."""
        sentence = rules.rule(rule_id).text
        shown = DEFAULT_LANGUAGE if sentence.missing_languages([lang]) else lang
        return sentence(shown), shown

    return {
        "lang": lang,
        "t": lambda key, **values: text(key, lang, **values),
        "rule_sentence": rule_sentence,
    }


def _rules_context(standing: Sequence[ClassRule]) -> dict[str, Any]:
    met = ranked_rules(standing)
    return {
        "standing": standing,
        "weakest": weakest_rules(standing),
        "met": met,
        "unseen": len(standing) - len(met),
    }


def weakest_rules_html(
    standing: Sequence[ClassRule], lang: str, *, rules: RuleMap | None = None
) -> str:
    """The teacher's section "Rules the class is weakest on" (HTML) for the class's
    ``standing`` on every rule of ``rules`` (default: the course's map;
    :func:`tutor.hub.class_progress.class_rules`): the weakest few, each rule's sentence
    and its numbers in words (no colour carries any of it), then every rule the class has
    met in a table, folded away (templates/teacher-rules.html).

    >>> from tutor.hub.class_progress import ClassRule
    >>> from tutor.teaching.progress_summary import TopicCount
    >>> section = weakest_rules_html(
    ...     [ClassRule("winner-leads-next", learning=2, due=2, first_tries=TopicCount(1, 2))], "en")
    >>> "The player who takes a trick leads the next one." in section, "Learning: 2" in section
    (True, True)
    """
    return render(
        "teacher-rules.html",
        folders=(TEMPLATES,),
        **_page_words(lang, rules),
        **_rules_context(standing),
    )


def render_page(
    lessons: Sequence[Lesson],
    learners: Sequence[str],
    events: Mapping[str, Sequence[Event]],
    lang: str,
    base_url: str,
    *,
    places: Mapping[str, Mapping[str, StepEvent]] | None = None,
    pages: Mapping[str, SteppedPage] | None = None,
    now: datetime | None = None,
) -> str:
    """The teacher's page (a whole HTML document, templates/teacher.html) for
    ``learners``, their ``events`` and their ``places`` on the stepped ``pages`` (default:
    :func:`stepped_pages`); rules are due as of ``now`` (UTC; default: the present moment)."""
    now = now or datetime.now(UTC)
    quizzes = [lesson for lesson in lessons if lesson.quiz]
    quiz_items = {lesson.id: tuple(item.id for item in lesson.quiz) for lesson in quizzes}
    results = class_results({name: events.get(name, ()) for name in learners}, quiz_items)

    def topic_name(topic: str) -> str:
        return text(f"practice-topic.{topic}", lang)

    topics = sorted({t for r in results.values() for t in r.topics}, key=topic_name)
    return render(
        "teacher.html",
        folders=(TEMPLATES,),
        **_page_words(lang),
        **_rules_context(class_rules(results.values(), item_rules(lessons), now)),
        title=text("teacher.title", lang),
        style=Markup(PAGE_STYLE),
        languages=language_links(base_url),
        updated=now.strftime("%Y-%m-%d %H:%M UTC"),
        room=f"{base_url}room/",
        presentable=course_entries(notebooks_dir(), lang=lang, lessons=lessons),
        missed=most_missed(results.values()),
        topic_name=topic_name,
        learners=learners,
        results=results,
        quizzes=quizzes,
        stepped=list((stepped_pages() if pages is None else pages).values()),
        places=places or {},
        topics=topics,
        rate=lambda count: _rate(count, lang),
    )
