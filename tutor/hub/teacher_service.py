"""The teacher's view of the class: a JupyterHub service (``python -m tutor.hub.teacher_service``).

The hub starts it, gives it its address and API token, and logs its visitors in (HubOAuth:
no password of its own). Two doors:

- ``GET <prefix>``: the class's results, for teachers only (hub admins, or members of the
  ``teachers`` group; anyone else gets 403), in the teacher's language (the hub's one rule,
  :func:`tutor.hub.page_language.request_language`: ``?lang=``, else their last choice on
  the hub's pages, else the browser's Accept-Language, else ``TUTOR_LANG``): the page is
  :mod:`tutor.hub.teacher_page`'s. Plain HTML and CSS served by this service: nothing
  from outside.
- ``POST <prefix>api/events``: a learner's server reports that learner's new answers (the
  events of docs/progress.md), authenticated with the server's own hub token, so a learner
  can only ever report for themselves. A report is checked whole before any of it is kept
  in the class's database (:mod:`tutor.hub.class_events`: each event once, so a report
  sent twice, or the same file sent again after a restart, changes nothing).

The database is SQLite by default (``TUTOR_CLASS_DB_URL`` unset: ``class-results.sqlite``
in the working directory, the hub's state folder), PostgreSQL when ``TUTOR_CLASS_DB_URL``
names one (``postgresql+psycopg://...``, as the cluster values set up). The live room's
answers are kept in the same database (:mod:`tutor.hub.room_service`).
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import os
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlparse

from jupyterhub.services.auth import HubOAuthCallbackHandler, HubOAuthenticated
from jupyterhub.utils import url_path_join
from tornado import web
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.ioloop import IOLoop

from tutor.hub.class_events import DB_URL_VARIABLE, EventStore
from tutor.hub.class_progress import SteppedPage, place_problem, stepped_pages
from tutor.hub.page_language import request_language
from tutor.hub.teacher_page import render_page
from tutor.teaching.lesson import Lesson
from tutor.teaching.lesson_loader import list_lessons
from tutor.teaching.progress_events import EventError, StepEvent, parse_event

log = logging.getLogger("tutor.class-results")

TEACHERS_GROUP = "teachers"
MAX_EVENTS_PER_REPORT = 1000
MAX_BODY_BYTES = 1_000_000


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
        lang = request_language(self)
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
