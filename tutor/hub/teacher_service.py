"""The teacher's view of the class: a JupyterHub service (``python -m tutor.hub.teacher_service``).

The hub starts it, gives it its address and API token, and logs its visitors in (HubOAuth:
no password of its own). Two doors:

- ``GET <prefix>``: the class's results, for teachers only (hub admins, or members of the
  ``teachers`` group; anyone else gets 403): per learner and lesson, done and the quiz
  score; per learner and topic, practice answers right at the first try; per learner and
  stepped page (the worked example), the step they are at; for the class, the topics most
  often missed and the rules it is weakest on (each learner's memory of each rule, as
  spaced review keeps it). In the teacher's language (``?lang=``, else the browser's
  Accept-Language, else ``TUTOR_LANG``); lesson titles and topic names come from the
  tutor's own catalogs. Plain HTML and CSS served by this service: nothing from outside.
- ``POST <prefix>api/events``: a learner's server reports that learner's new answers (the
  events of docs/progress.md), authenticated with the server's own hub token, so a learner
  can only ever report for themselves. Each event is kept once (by learner and event id),
  so a report sent twice, or the same file sent again after a restart, changes nothing.
  A ``step`` event is not kept as an event: it moves the learner's place on its page (one
  row per learner and page), unless a later step of that page or a later reset came first.

The events are kept in a database through SQLAlchemy (which JupyterHub already needs):
SQLite by default (``TUTOR_CLASS_DB_URL`` unset: ``class-results.sqlite`` in the working
directory, the hub's state folder), PostgreSQL when ``TUTOR_CLASS_DB_URL`` names one
(``postgresql+psycopg://...``, as the cluster values set up). Results are computed from
the events at each page load by the summary the learner's own course page uses
(tutor.hub.class_progress), never stored.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import os
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlparse

from jupyterhub.services.auth import HubOAuthCallbackHandler, HubOAuthenticated
from jupyterhub.utils import url_path_join
from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Engine,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    and_,
    create_engine,
    delete,
    or_,
    select,
)
from sqlalchemy.dialects import postgresql, sqlite
from tornado import web
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.ioloop import IOLoop

from tutor.hub.class_progress import (
    ClassRule,
    SteppedPage,
    class_results,
    class_rules,
    most_missed,
    place_problem,
    ranked_rules,
    stepped_pages,
    weakest_rules,
)
from tutor.teaching.language import LANGUAGE_NAMES, choose_language
from tutor.teaching.lesson import Lesson
from tutor.teaching.lesson_loader import list_lessons
from tutor.teaching.progress import (
    FINISHED,
    MAX_RULES,
    RESET,
    AnswerEvent,
    AnswerSource,
    Event,
    EventError,
    FinishedEvent,
    ResetEvent,
    StepEvent,
    TopicCount,
    parse_event,
)
from tutor.teaching.review import item_rules
from tutor.teaching.rule_map import RuleMap, TaughtRule, rule_map
from tutor.teaching.text import DEFAULT_LANGUAGE, LANGUAGES, text

log = logging.getLogger("tutor.class-results")

DB_URL_VARIABLE = "TUTOR_CLASS_DB_URL"
TEACHERS_GROUP = "teachers"
MAX_EVENTS_PER_REPORT = 1000
MAX_BODY_BYTES = 1_000_000

metadata = MetaData()
events_table = Table(
    "progress_events",
    metadata,
    # the order events arrived in, which is the order each learner's file has them in
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("learner", String(128), nullable=False),
    Column("event_id", String(32), nullable=False),
    Column("time", String(40), nullable=False),
    Column("kind", String(16), nullable=False),
    # a quiz answer's lesson, or a finished event's page (one column: a database made
    # before the finished event came keeps working unchanged)
    Column("lesson", String(80)),
    Column("item", String(100)),
    Column("topic", String(40)),
    Column("correct", Boolean),
    Column("first_try", Boolean),
    Column("received", DateTime(timezone=True), nullable=False),
    UniqueConstraint("learner", "event_id", name="one_event_once"),
)
# The rules a practice or review answer named (version 4 events): a table of its own, one
# row an answer with rules, the ids joined by spaces (create_all adds tables to an older
# database, never columns).
rules_table = Table(
    "answer_rules",
    metadata,
    Column("learner", String(128), primary_key=True),
    Column("event_id", String(32), primary_key=True),
    Column("rules", String(MAX_RULES * 64), nullable=False),
)
# Where each learner is on each stepped page: the latest step event since their last reset,
# one row updated in place (a table of its own: create_all adds tables to an older
# database, never columns).
places_table = Table(
    "step_places",
    metadata,
    Column("learner", String(128), primary_key=True),
    Column("page", String(80), primary_key=True),
    Column("step", Integer, nullable=False),
    Column("steps", Integer, nullable=False),
    # the event's time with nine digits after the second (:func:`_moment`): compared as text
    Column("moment", String(40), nullable=False),
    Column("event_id", String(32), nullable=False),
)


def _moment(time: str) -> str:
    """An event's ``time`` in one width, so that times compare as text in SQL ('10:00:00Z'
    sorts after '10:00:00.5Z' as written).

    >>> _moment("2026-12-01T10:00:00Z"), _moment("2026-12-01T10:00:00.5Z")
    ('2026-12-01T10:00:00.000000000Z', '2026-12-01T10:00:00.500000000Z')
    """
    second, _, fraction = time.removesuffix("Z").partition(".")
    return f"{second}.{fraction:0<9}Z"


class EventStore:
    """The class's events in a database (SQLite or PostgreSQL), each kept once."""

    def __init__(self, url: str) -> None:
        self.engine: Engine = create_engine(url, future=True, pool_pre_ping=True)
        metadata.create_all(self.engine)

    def _dialect(self) -> Any:
        dialect = self.engine.dialect.name
        if dialect == "sqlite":
            return sqlite
        if dialect == "postgresql":
            return postgresql
        raise ValueError(
            f"{DB_URL_VARIABLE}: database {dialect!r} is not supported; use sqlite or postgresql"
        )

    def add(self, learner: str, events: Sequence[Event]) -> int:
        """Keep ``events`` of ``learner`` (those already kept are left as they are); how
        many were new. A :class:`StepEvent` is no event kept: it moves the learner's place
        on its page (:meth:`places_by_learner`); in one transaction with the rest."""
        now = datetime.now(UTC)
        rows = [
            {"learner": learner, "received": now, **_row(event)}
            for event in events
            if not isinstance(event, StepEvent)
        ]
        named = [
            {"learner": learner, "event_id": event.id, "rules": " ".join(event.rules)}
            for event in events
            if isinstance(event, AnswerEvent) and event.rules
        ]
        steps = [event for event in events if isinstance(event, StepEvent)]
        resets = any(isinstance(event, ResetEvent) for event in events)
        if not rows and not steps:
            return 0
        dialect = self._dialect()
        new = 0
        with self.engine.begin() as connection:
            if rows:
                # the rows kept, counted by what the database returns: a statement's
                # rowcount over many rows is not that on PostgreSQL (psycopg gave 0)
                insert = dialect.insert(events_table).on_conflict_do_nothing()
                new = len(connection.execute(insert.returning(events_table.c.seq), rows).all())
            if named:
                connection.execute(dialect.insert(rules_table).on_conflict_do_nothing(), named)
            if steps or resets:
                self._move_places(connection, dialect, learner, steps)
        return new

    def _move_places(
        self, connection: Any, dialect: Any, learner: str, steps: Sequence[StepEvent]
    ) -> None:
        """Each page's place of ``learner`` to the latest of ``steps``, unless a later step
        is kept already; a place from before the learner's last reset is forgotten, and a
        step from before it ignored. "Later" is by the events' times (then ids, so that
        the outcome does not depend on the order reports arrive in: a late or repeated
        report moves nothing back)."""
        reset_times = connection.execute(
            select(events_table.c.time).where(
                events_table.c.learner == learner, events_table.c.kind == RESET
            )
        ).scalars()
        last_reset = max(map(_moment, reset_times), default=None)
        if last_reset is not None:
            connection.execute(
                delete(places_table).where(
                    places_table.c.learner == learner, places_table.c.moment <= last_reset
                )
            )
        latest: dict[str, tuple[str, str, StepEvent]] = {}
        for event in steps:
            moment = _moment(event.time)
            if last_reset is not None and moment <= last_reset:
                continue
            kept = latest.get(event.page)
            if kept is None or (moment, event.id) > kept[:2]:
                latest[event.page] = (moment, event.id, event)
        if not latest:
            return
        rows = [
            {
                "learner": learner,
                "page": event.page,
                "step": event.step,
                "steps": event.steps,
                "moment": moment,
                "event_id": event_id,
            }
            for moment, event_id, event in latest.values()
        ]
        insert = dialect.insert(places_table)
        new, held = insert.excluded, places_table.c
        upsert = insert.on_conflict_do_update(
            index_elements=[held.learner, held.page],
            set_={name: new[name] for name in ("step", "steps", "moment", "event_id")},
            where=or_(
                new.moment > held.moment,
                and_(new.moment == held.moment, new.event_id > held.event_id),
            ),
        )
        connection.execute(upsert, rows)

    def places_by_learner(self) -> dict[str, dict[str, StepEvent]]:
        """Each learner's place on each stepped page: the page's latest step event since
        their last reset (its time as :func:`_moment` writes it)."""
        places: dict[str, dict[str, StepEvent]] = {}
        with self.engine.connect() as connection:
            for row in connection.execute(select(places_table)).mappings():
                places.setdefault(row["learner"], {})[row["page"]] = StepEvent(
                    row["page"], row["step"], row["steps"], id=row["event_id"], time=row["moment"]
                )
        return places

    def events_by_learner(self) -> dict[str, list[Event]]:
        """Every learner's events, in the order they arrived."""
        by_learner: dict[str, list[Event]] = {}
        query = (
            select(events_table, rules_table.c.rules)
            .outerjoin(
                rules_table,
                and_(
                    rules_table.c.learner == events_table.c.learner,
                    rules_table.c.event_id == events_table.c.event_id,
                ),
            )
            .order_by(events_table.c.seq)
        )
        with self.engine.connect() as connection:
            for row in connection.execute(query).mappings():
                by_learner.setdefault(row["learner"], []).append(_event(row))
        return by_learner


def _row(event: Event) -> dict[str, Any]:
    """The database's columns of ``event`` (every column, so rows of every kind go in
    one statement)."""
    row: dict[str, Any] = {"event_id": event.id, "time": event.time}
    row |= dict.fromkeys(("lesson", "item", "topic", "correct", "first_try"))
    if isinstance(event, AnswerEvent):
        row |= {
            "kind": event.kind.value,
            "lesson": event.lesson,
            "item": event.item,
            "topic": event.topic,
            "correct": event.correct,
            "first_try": event.first_try,
        }
    elif isinstance(event, FinishedEvent):
        row |= {"kind": FINISHED, "lesson": event.page}
    elif isinstance(event, ResetEvent):
        row |= {"kind": RESET}
    else:  # a new kind of event must get its columns here, not pass for another kind
        raise TypeError(f"no database row for {type(event).__name__}")
    return row


def _event(row: Mapping[Any, Any]) -> Event:
    """The event a database row holds (:func:`_row` in reverse). Rows are not parsed
    again: every event was parsed on its way in (:class:`EventsAPI`), and a page reads
    every row of the class at each load."""
    kind = row["kind"]
    if kind == RESET:
        return ResetEvent(id=row["event_id"], time=row["time"])
    if kind == FINISHED:
        return FinishedEvent(row["lesson"], id=row["event_id"], time=row["time"])
    return AnswerEvent(
        AnswerSource(kind),
        row["topic"],
        row["correct"],
        row["first_try"],
        row["lesson"],
        row["item"],
        id=row["event_id"],
        time=row["time"],
        rules=tuple(row["rules"].split()) if row["rules"] else (),
    )


# -- the page -------------------------------------------------------------------------------

PAGE_STYLE = """
body { font-family: system-ui, "Noto Sans CJK JP", sans-serif; margin: 1.5rem; color: #1b1b1b; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; } h2 { font-size: 1.25rem; margin: 1.5rem 0 .5rem; }
nav a { margin-right: 1rem; } nav a[aria-current] { font-weight: bold; text-decoration: none; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid #999; padding: .3rem .6rem; text-align: left; vertical-align: top; }
thead th { background: #eef; } td.done { background: #e6f4e6; }
.muted { color: #555; }
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


def _rule_text(rule: TaughtRule, lang: str) -> str:
    """A rule's sentence in ``lang`` (HTML), or in English, marked as English, while the map
    has no ``lang`` text for it yet: a rule is never shown by its key alone."""
    if rule.text.missing_languages([lang]):
        return f'<span lang="{DEFAULT_LANGUAGE}">{html.escape(rule.text(DEFAULT_LANGUAGE))}</span>'
    return html.escape(rule.text(lang))


def weakest_rules_html(
    standing: Sequence[ClassRule], lang: str, *, rules: RuleMap | None = None
) -> str:
    """The teacher's section "Rules the class is weakest on" (HTML) for the class's
    ``standing`` on every rule of ``rules`` (default: the course's map;
    :func:`tutor.hub.class_progress.class_rules`): the weakest few, each rule's sentence
    and its numbers in words (no colour carries any of it), then every rule the class has
    met in a table, folded away.

    >>> from tutor.hub.class_progress import ClassRule
    >>> from tutor.teaching.progress import TopicCount
    >>> section = weakest_rules_html(
    ...     [ClassRule("winner-leads-next", learning=2, due=2, first_tries=TopicCount(1, 2))], "en")
    >>> "The player who takes a trick leads the next one." in section, "Learning: 2" in section
    (True, True)
    """
    esc = html.escape
    heading = esc(text("teacher-review.heading", lang))
    parts = [f'<section aria-labelledby="weakest"><h2 id="weakest">{heading}</h2>']
    parts.append(f'<p class="muted">{esc(text("teacher-review.intro", lang))}</p>')
    weakest = weakest_rules(standing)
    met = ranked_rules(standing)
    rules = rules if rules is not None else rule_map()
    if weakest:
        parts.append('<ol id="weakest-rules">')
        for rule in weakest:
            tried = rule.first_tries
            counts = [
                text("teacher-review.known", lang, count=rule.known),
                text("teacher-review.learning", lang, count=rule.learning),
                text("teacher-review.new", lang, count=rule.new),
                text("teacher-review.due", lang, count=rule.due),
                text("teacher-review.first-tries", lang, wrong=tried.wrong, answered=tried.answered)
                if tried.answered
                else text("teacher-review.no-first-tries", lang),
            ]
            parts.append(
                f'<li><p class="rule-text">{_rule_text(rules.rule(rule.rule), lang)}</p>'
                '<ul class="rule-counts">'
                + "".join(f"<li>{esc(count)}</li>" for count in counts)
                + "</ul>"
                f'<p class="rule-id muted">{esc(text("teacher-review.rule-id", lang, id=rule.rule))}</p></li>'
            )
        parts.append("</ol>")
    elif met:
        parts.append(f"<p>{esc(text('teacher-review.none-weak', lang))}</p>")
    else:
        parts.append(f"<p>{esc(text('teacher-review.nothing-seen', lang))}</p>")
    if met:
        # every rule some learner met, weakest first: a table to compare them, folded away
        columns = ("rule", "known", "learning", "new", "due", "wrong")
        head = "".join(
            f'<th scope="col">{esc(text(f"teacher-review.column-{column}", lang))}</th>'
            for column in columns
        )
        every = esc(text("teacher-review.every-rule", lang, count=len(met)))
        # a region that takes the focus, so the keyboard scrolls it sideways on a phone
        parts.append(
            f'<details id="every-rule"><summary>{every}</summary>'
            f'<div class="scrolls" role="region" aria-label="{every}" tabindex="0">'
            f'<table id="class-rules"><thead><tr>{head}</tr></thead><tbody>'
        )
        for rule in met:
            tried = rule.first_tries
            numbers = (rule.known, rule.learning, rule.new, rule.due)
            wrong = text(
                "teacher-review.wrong-of", lang, wrong=tried.wrong, answered=tried.answered
            )
            parts.append(
                f'<tr><th scope="row">{_rule_text(rules.rule(rule.rule), lang)}</th>'
                + "".join(f"<td>{number}</td>" for number in numbers)
                + f"<td>{esc(wrong) if tried.answered else '—'}</td></tr>"
            )
        parts.append("</tbody></table></div></details>")
    unseen = len(standing) - len(met)
    if unseen and met:
        line = text("teacher-review.unseen-rules", lang, count=unseen, total=len(standing))
        parts.append(f'<p id="unseen-rules">{esc(line)}</p>')
    parts.append("</section>")
    return "".join(parts)


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
    """The teacher's page (a whole HTML document) for ``learners``, their ``events`` and
    their ``places`` on the stepped ``pages`` (default: :func:`stepped_pages`); rules are
    due as of ``now`` (UTC; default: the present moment)."""
    now = now or datetime.now(UTC)
    esc = html.escape
    quizzes = [lesson for lesson in lessons if lesson.quiz]
    quiz_items = {lesson.id: tuple(item.id for item in lesson.quiz) for lesson in quizzes}
    results = class_results({name: events.get(name, ()) for name in learners}, quiz_items)
    topics = sorted(
        {t for r in results.values() for t in r.topics},
        key=lambda t: text(f"practice-topic.{t}", lang),
    )

    def topic_name(topic: str) -> str:
        return text(f"practice-topic.{topic}", lang)

    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{esc(lang)}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(text('teacher.title', lang))}</title>",
        f"<style>{PAGE_STYLE}</style></head><body>",
        f"<h1>{esc(text('teacher.title', lang))}</h1>",
        f'<nav aria-label="{esc(text("teacher.language", lang))}">',
    ]
    for code in LANGUAGES:
        current = ' aria-current="page"' if code == lang else ""
        parts.append(
            f'<a href="{esc(base_url)}?lang={esc(code)}" lang="{esc(code)}"{current}>{esc(LANGUAGE_NAMES[code])}</a>'
        )
    parts.append("</nav>")
    stamp = now.strftime("%Y-%m-%d %H:%M UTC")
    parts.append(f'<p class="muted">{esc(text("teacher.updated", lang, time=stamp))}</p>')

    # the live room (tutor/hub/room_service.py): present with it, then its summary
    room = f"{base_url}room/"
    parts.append(
        f'<section aria-labelledby="room"><h2 id="room">{esc(text("teacher.room-heading", lang))}</h2><ul>'
        f'<li><a id="room-present" href="{esc(room)}start?lang={esc(lang)}">{esc(text("teacher.room-present", lang))}</a></li>'
        f'<li><a id="room-summary" href="{esc(room)}summary?lang={esc(lang)}">{esc(text("teacher.room-summary", lang))}</a></li>'
        f'<li><a id="room-summary-csv" href="{esc(room)}summary.csv?lang={esc(lang)}" download>{esc(text("teacher.room-summary-csv", lang, kind="CSV"))}</a></li>'
        "</ul></section>"
    )

    # the class: most missed topics
    parts.append(
        f'<section aria-labelledby="missed"><h2 id="missed">{esc(text("teacher.missed-heading", lang))}</h2>'
    )
    missed = most_missed(results.values())
    if missed:
        parts.append('<ol id="most-missed">')
        for topic, count in missed:
            line = text(
                "teacher.missed-row",
                lang,
                topic=topic_name(topic),
                wrong=count.wrong,
                answered=count.answered,
            )
            parts.append(f"<li>{esc(line)}</li>")
        parts.append("</ol>")
    else:
        parts.append(f"<p>{esc(text('teacher.nothing-missed', lang))}</p>")
    parts.append("</section>")

    # the class: the rules it is weakest on, from each learner's memory of each rule
    standing = class_rules(results.values(), item_rules(lessons), now)
    parts.append(weakest_rules_html(standing, lang))

    if not learners:
        parts.append(f"<p>{esc(text('teacher.no-learners', lang))}</p></body></html>")
        return "\n".join(parts)

    learner_header = f'<th scope="col">{esc(text("teacher.learner", lang))}</th>'

    def learner_table(table_id: str, columns: Sequence[Any], header: Any, cell: Any) -> str:
        """A table of a row per learner and a column per item of ``columns``: ``header``
        gives a column's heading (HTML), ``cell`` a learner's cell in it (a whole ``<td>``)."""
        rows = [f'<table id="{table_id}"><thead><tr>{learner_header}']
        rows += [f'<th scope="col">{header(column)}</th>' for column in columns]
        rows.append("</tr></thead><tbody>")
        for name in learners:
            rows.append(f'<tr><th scope="row">{esc(name)}</th>')
            rows += [cell(name, column) for column in columns]
            rows.append("</tr>")
        rows.append("</tbody></table>")
        return "\n".join(rows)

    def section(heading_id: str, heading: str) -> str:
        return f'<section aria-labelledby="{heading_id}"><h2 id="{heading_id}">{esc(heading)}</h2>'

    # per learner and lesson
    def lesson_cell(name: str, lesson: Lesson) -> str:
        result = results[name].lesson(lesson.id)
        if result.done:
            done = text("teacher.done", lang, right=result.right, items=result.items)
            return f'<td class="done">{esc(done)}</td>'
        if result.answered:
            partly = text(
                "teacher.partly",
                lang,
                answered=result.answered,
                items=result.items,
                right=result.right,
            )
            return f"<td>{esc(partly)}</td>"
        return "<td>—</td>"

    parts.append(section("lessons", text("teacher.lessons-heading", lang)))
    parts.append(
        learner_table(
            "lesson-results",
            quizzes,
            lambda lesson: f"{lesson.number}. {esc(lesson.title(lang))}",
            lesson_cell,
        )
    )
    parts.append("</section>")

    # per learner and stepped page: the step they are at
    stepped = list((stepped_pages() if pages is None else pages).values())
    places = places or {}

    def place_cell(name: str, page: SteppedPage) -> str:
        place = places.get(name, {}).get(page.name)
        if place is None:
            return "<td>—</td>"
        step = text("teacher-places.step", lang, step=place.step, steps=place.steps)
        return f"<td>{esc(step)}</td>"

    parts.append(section("places", text("teacher-places.heading", lang)))
    parts.append(
        learner_table(
            "step-places", stepped, lambda page: esc(text(page.title_key, lang)), place_cell
        )
    )
    parts.append("</section>")

    # per learner and topic (practice)
    parts.append(section("practice", text("teacher.practice-heading", lang)))
    if topics:
        parts.append(
            learner_table(
                "practice-results",
                topics,
                lambda topic: esc(topic_name(topic)),
                lambda name, topic: f"<td>{esc(_rate(results[name].topics.get(topic), lang))}</td>",
            )
        )
    else:
        parts.append(f"<p>{esc(text('teacher.no-practice', lang))}</p>")
    parts.append("</section></body></html>")
    return "\n".join(parts)


# -- the service ------------------------------------------------------------------------------


class _Base(HubOAuthenticated, web.RequestHandler):  # type: ignore[misc]
    def initialize(
        self, store: EventStore, lessons: Sequence[Lesson], pages: Mapping[str, SteppedPage]
    ) -> None:
        self.store = store
        self.lessons = lessons
        self.pages = pages

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        # A short message, never a traceback (tornado's default would show one in debug).
        reason = self._reason
        exc = kwargs.get("exc_info", (None, None, None))[1]
        if isinstance(exc, web.HTTPError) and exc.log_message:
            reason = exc.log_message % exc.args if exc.args else exc.log_message
        if self.request.path.endswith("/api/events"):
            self.set_header("Content-Type", "application/json")
            self.finish(json.dumps({"status": status_code, "message": reason}))
        else:
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish(
                f"<!DOCTYPE html><title>{status_code}</title><p>{status_code}: {html.escape(reason)}</p>"
            )


class ClassPage(_Base):
    """The teacher's page: hub admins and the ``teachers`` group; anyone else 403."""

    @web.authenticated
    async def get(self) -> None:
        name = self.current_user["name"]
        users = await hub_users(self.hub_auth)
        me = users.get(name, {})
        if not (me.get("admin") or TEACHERS_GROUP in me.get("groups", ())):
            raise web.HTTPError(403, "This page is for the teachers of the class.")
        teachers = {
            n for n, u in users.items() if u.get("admin") or TEACHERS_GROUP in u.get("groups", ())
        }
        events = self.store.events_by_learner()
        places = self.store.places_by_learner()
        learners = sorted((set(users) | set(events) | set(places)) - teachers)
        lang = choose_language(
            self.get_query_argument("lang", None), self.request.headers.get("Accept-Language")
        )
        # In a thread: replaying every learner's answers through FSRS for the rules takes
        # a moment for a class (benchmarks/class_results_benchmark.py), and the learners'
        # reports and the live room's answers keep coming in meanwhile.
        page = await asyncio.to_thread(
            render_page,
            self.lessons,
            learners,
            events,
            lang,
            self.hub_auth.base_url,
            places=places,
            pages=self.pages,
        )
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(page)


class EventsAPI(_Base):
    """A learner's server reporting that learner's events (JSON: {"events": [...]})."""

    def check_xsrf_cookie(self) -> None:
        # Only a token in the Authorization header is accepted here (see post), and a
        # browser never sends one by itself: no cross-site request can use this door.
        return None

    @web.authenticated
    async def post(self) -> None:
        if not self.request.headers.get("Authorization", "").startswith(("token ", "Bearer ")):
            raise web.HTTPError(403, "Report with the server's own hub token.")
        user = self.current_user
        if user.get("kind") != "user":
            raise web.HTTPError(403, "Only a learner's own server reports answers.")
        if len(self.request.body) > MAX_BODY_BYTES:
            raise web.HTTPError(413, f"A report is at most {MAX_BODY_BYTES} bytes.")
        try:
            body = json.loads(self.request.body)
        except (ValueError, UnicodeDecodeError, RecursionError) as error:  # (deep nesting)
            raise web.HTTPError(400, f"The report is not JSON: {_shortened(str(error))}") from None
        raw_events = body.get("events") if isinstance(body, dict) else None
        if not isinstance(raw_events, list):
            raise web.HTTPError(400, 'A report is a JSON object {"events": [...]}.')
        if len(raw_events) > MAX_EVENTS_PER_REPORT:
            raise web.HTTPError(413, f"A report has at most {MAX_EVENTS_PER_REPORT} events.")
        events = []
        for number, raw in enumerate(raw_events, start=1):
            try:
                event = parse_event(raw)
            except EventError as error:
                # The whole report is refused: nothing of it is kept.
                raise web.HTTPError(
                    400, f"event {number} of the report: {_shortened(str(error))}"
                ) from None
            problem = place_problem(event, self.pages) if isinstance(event, StepEvent) else None
            if problem is not None:
                raise web.HTTPError(400, f"event {number} of the report: {_shortened(problem)}")
            events.append(event)
        new = self.store.add(user["name"], events)
        log.info("%s reported %d events, %d new", user["name"], len(events), new)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"received": len(events), "new": new}))


def _shortened(message: str, limit: int = 400) -> str:
    """``message`` with its middle cut if longer than ``limit`` (a quoted value of 100 KB
    would drown the field and the rule it names)."""
    if len(message) <= limit:
        return message
    return message[: limit // 2] + " ... " + message[-limit // 2 :]


async def hub_users(hub_auth: Any) -> dict[str, dict[str, Any]]:
    """Every hub user's model (name, admin, groups), read with the service's own token."""
    client = AsyncHTTPClient()
    request = HTTPRequest(
        url_path_join(hub_auth.api_url, "users"),
        headers={"Authorization": f"token {hub_auth.api_token}"},
        request_timeout=20,
    )
    response = await client.fetch(request)
    users: list[dict[str, Any]] = json.loads(response.body)
    return {user["name"]: user for user in users}


async def hub_teachers(hub_auth: Any) -> set[str]:
    """The hub's teachers: admins and the ``teachers`` group."""
    users = await hub_users(hub_auth)
    return {n for n, u in users.items() if u.get("admin") or TEACHERS_GROUP in u.get("groups", ())}


def make_app(store: EventStore, lessons: Sequence[Lesson], prefix: str) -> web.Application:
    """The service's web application under ``prefix`` (JUPYTERHUB_SERVICE_PREFIX): the
    class results, the learners' servers' reports and the live room (its answers in the
    same database)."""
    from jupyterhub.services.auth import HubOAuth

    from tutor.hub.room_service import HubRooms, TeacherCache, room_routes

    args = {"store": store, "lessons": lessons, "pages": stepped_pages()}
    rooms = HubRooms(store.engine, metadata, prefix)
    # the handlers' own HubOAuth (one per process), made when first asked for
    teachers = TeacherCache(lambda: hub_teachers(HubOAuth.instance()))
    return web.Application(
        [
            (prefix, ClassPage, args),
            (url_path_join(prefix, "api/events"), EventsAPI, args),
            (url_path_join(prefix, "oauth_callback"), HubOAuthCallbackHandler),
            *room_routes(prefix, rooms, teachers),
        ],
        cookie_secret=os.urandom(32),
        xsrf_cookies=False,
    )


def main() -> None:
    logging.basicConfig(
        level=logging.INFO, format="[%(levelname)1.1s %(asctime)s class-results] %(message)s"
    )
    url = os.environ.get(DB_URL_VARIABLE) or "sqlite:///class-results.sqlite"
    store = EventStore(url)
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/class-results/")
    listen = urlparse(os.environ.get("JUPYTERHUB_SERVICE_URL", "http://127.0.0.1:10101"))
    app = make_app(store, list_lessons(), prefix)
    # xheaders: the proxy says the address the browsers used (the live room's join address)
    app.listen(
        listen.port or 80,
        listen.hostname or "127.0.0.1",
        max_body_size=MAX_BODY_BYTES,
        xheaders=True,
    )
    log.info(
        "class results at %s (%s), events in %s",
        prefix,
        listen.geturl(),
        store.engine.url.render_as_string(hide_password=True),
    )
    IOLoop.current().start()


if __name__ == "__main__":
    main()
