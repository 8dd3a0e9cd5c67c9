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
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from jupyterhub.services.auth import HubOAuthCallbackHandler, HubOAuthenticated
from jupyterhub.utils import url_path_join
from markupsafe import Markup
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

from tutor.display.course import course_entries
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
from tutor.resources import notebooks_dir
from tutor.teaching.language import choose_language
from tutor.teaching.lesson import Lesson
from tutor.teaching.lesson_loader import list_lessons
from tutor.teaching.progress_events import (
    FINISHED,
    MAX_ANSWER_CHOICES,
    MAX_RULES,
    RESET,
    AnswerCode,
    AnswerEvent,
    AnswerSource,
    Event,
    EventError,
    FinishedEvent,
    ResetEvent,
    StepEvent,
    parse_event,
)
from tutor.teaching.progress_summary import TopicCount
from tutor.teaching.review import item_rules
from tutor.teaching.rule_map import RuleMap, rule_map
from tutor.teaching.text import DEFAULT_LANGUAGE, text
from tutor.web.templating import language_links, render

TEMPLATES = Path(__file__).resolve().parent / "templates"

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
# What a quiz answer was (version 5 events' ``answer``, as the event's JSON has it: a
# number, or a list of choice positions of up to two digits): a table of its own, one row an
# answer that says (create_all adds tables to an older database, never columns).
answers_table = Table(
    "quiz_answers",
    metadata,
    Column("learner", String(128), primary_key=True),
    Column("event_id", String(32), primary_key=True),
    Column("answer", String(3 * MAX_ANSWER_CHOICES + 2), nullable=False),
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
        answered = [
            {"learner": learner, "event_id": event.id, "answer": _answer_text(event)}
            for event in events
            if isinstance(event, AnswerEvent) and event.answer is not None
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
            if answered:
                insert = dialect.insert(answers_table).on_conflict_do_nothing()
                connection.execute(insert, answered)
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
            select(events_table, rules_table.c.rules, answers_table.c.answer)
            .outerjoin(
                rules_table,
                and_(
                    rules_table.c.learner == events_table.c.learner,
                    rules_table.c.event_id == events_table.c.event_id,
                ),
            )
            .outerjoin(
                answers_table,
                and_(
                    answers_table.c.learner == events_table.c.learner,
                    answers_table.c.event_id == events_table.c.event_id,
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
        answer=_answer_code(row["answer"]),
    )


def _answer_text(event: AnswerEvent) -> str:
    """A quiz answer's ``answer`` as the database keeps it: its JSON, as in the event.

    >>> _answer_text(AnswerEvent(AnswerSource.QUIZ, "score", True, True, answer=(0, 2)))
    '[0,2]'
    """
    return json.dumps(event.to_json()["answer"], separators=(",", ":"))


def _answer_code(kept: str | None) -> AnswerCode | None:
    """:func:`_answer_text` read back (``None``: the answer does not say, as none did
    before version 5).

    >>> _answer_code("3"), _answer_code("[0,2]"), _answer_code(None)
    (3, (0, 2), None)
    """
    if kept is None:
        return None
    value = json.loads(kept)
    return tuple(value) if isinstance(value, list) else int(value)


# -- the page -------------------------------------------------------------------------------

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
    rooms = HubRooms(store.engine, prefix)
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
