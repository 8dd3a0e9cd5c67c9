"""Inside a learner's server on the hub (a Jupyter Server extension, switched on by
deploy/singleuser/jupyter_server_config.py):

1. **Answers reach the teacher.** :class:`ProgressForwarder` reads the learner's progress
   file (``TUTOR_PROGRESS_FILE``, default ``~/.wizard-tutor/progress.jsonl``: one event per
   line, appended by the tutor's pages, two open pages included) and sends the lines it
   has not sent yet to the class-results service (``TUTOR_CLASS_RESULTS_URL``), with this
   server's own hub token, so the service knows whose answers they are. The service keeps
   each event once, so sending again is harmless: after a restart of this server the
   whole file is sent again; while the service is down the forwarder retries, waiting
   longer each time (up to a minute), and loses nothing. A line that is not an event, or
   a ``step`` event the service would refuse (a page it does not know as stepped, another
   number of steps: tutor.hub.class_progress.place_problem), is logged with the file's
   name and line number and skipped: the service refuses a report with one whole, and
   every later report would wait behind it.
2. **Voila's page-close kernel shutdown obeys the lock-down.** Voila registers
   ``POST /voila/api/shutdown/<kernel>`` without asking the server's authorizer, so it
   stopped kernels the authorizer refuses to let a learner stop by hand. Here that
   address is served by :class:`PageCloseShutdownHandler`, which asks the authorizer
   (``write`` on ``kernels``); the tutor's authorizer allows this one door (a page giving
   its kernel back as it closes) and nothing else that stops a kernel.
3. **Kernels do not get the server's hub token.** Voila starts each page's kernel with
   the server's environment; once every JupyterHub object of the server that needs
   ``JUPYTERHUB_API_TOKEN`` has read it (the login check, and the activity reports to
   the hub), it is taken out of the environment (deploy/singleuser/
   start_server.py already keeps it out of the server's ``/proc/<pid>/environ``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jupyter_core.utils import ensure_async
from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join
from tornado import web
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest

from tutor.hub.class_progress import place_problem, stepped_pages
from tutor.teaching.progress_events import Event, EventError, StepEvent, parse_event
from tutor.teaching.progress_stores import default_progress_path

SERVICE_URL_VARIABLE = "TUTOR_CLASS_RESULTS_URL"
BATCH = 500  # events per report (the service takes up to 1000)


@dataclass
class _Line:
    end: int  # byte offset just after the line
    event: Event | None  # None: not an event (reported once, skipped)


class ProgressForwarder:
    """Sends the new lines of a progress file to the class-results service."""

    def __init__(
        self,
        path: Path,
        url: str,
        token: str,
        *,
        interval: float = 2.0,
        max_interval: float = 60.0,
        log: logging.Logger | None = None,
    ) -> None:
        self.path = path
        self.url = url
        self.token = token
        self.interval = interval
        self.max_interval = max_interval
        self.log = log or logging.getLogger("tutor.forwarder")
        self.offset = 0  # bytes of the file already sent (or skipped)
        self.line_number = 0  # lines before ``offset``
        self._task: asyncio.Task[None] | None = None

    def _read_new_lines(self) -> list[_Line]:
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            return []
        if size < self.offset:  # the file was replaced or cut: read it from the start
            self.log.warning(
                "%s is shorter than before; sending it again from the start", self.path
            )
            self.offset = self.line_number = 0
        if size == self.offset:
            return []
        with self.path.open("rb") as handle:
            handle.seek(self.offset)
            data = handle.read(size - self.offset)
        complete = data[: data.rfind(b"\n") + 1]  # a line still being written waits
        lines: list[_Line] = []
        position = self.offset
        number = self.line_number
        for raw in complete.splitlines(keepends=True):
            position += len(raw)
            number += 1
            if not raw.strip():
                lines.append(_Line(position, None))
                continue
            try:
                event = parse_event(json.loads(raw))
                if isinstance(event, StepEvent):
                    problem = place_problem(event, stepped_pages())
                    if problem is not None:
                        raise EventError(problem)
            except (ValueError, UnicodeDecodeError) as error:  # EventError is a ValueError
                reason = error if isinstance(error, EventError) else f"not JSON ({error})"
                self.log.error(
                    "%s, line %d: not a progress event, skipped: %s", self.path, number, reason
                )
                event = None
            lines.append(_Line(position, event))
        return lines

    async def _send(self, events: list[Event]) -> None:
        body = json.dumps({"events": [event.to_json() for event in events]})
        request = HTTPRequest(
            self.url,
            method="POST",
            body=body,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
            request_timeout=20,
        )
        await AsyncHTTPClient().fetch(request)

    async def forward(self) -> bool:
        """Send what is new; whether everything read so far has been delivered."""
        lines = self._read_new_lines()
        while lines:
            batch, lines = lines[:BATCH], lines[BATCH:]
            events = [line.event for line in batch if line.event is not None]
            if events:
                try:
                    await self._send(events)
                except HTTPClientError as error:
                    self.log.warning(
                        "class results refused %d events (%s); will retry", len(events), error
                    )
                    return False
                except OSError as error:
                    self.log.warning("class results not reachable (%s); will retry", error)
                    return False
            self.offset = batch[-1].end
            self.line_number += len(batch)
        return True

    async def run(self) -> None:
        """Forward every ``interval`` seconds; after a failure wait twice as long as the
        last time (up to ``max_interval``)."""
        wait = self.interval
        while True:
            try:
                delivered = await self.forward()
            except Exception:  # keep forwarding whatever happened to one round
                self.log.exception("forwarding %s failed", self.path)
                delivered = False
            wait = self.interval if delivered else min(self.max_interval, wait * 2)
            await asyncio.sleep(wait)

    def start(self) -> None:
        self._task = asyncio.ensure_future(self.run())


class PageCloseShutdownHandler(APIHandler):
    """``POST /voila/api/shutdown/<kernel>``, Voila's page-close shutdown, asking the
    server's authorizer first (``write`` on ``kernels``)."""

    auth_resource = "kernels"

    @web.authenticated
    @authorized
    async def post(self, kernel_id: str) -> None:
        if kernel_id not in self.kernel_manager:
            raise web.HTTPError(404, f"no kernel {kernel_id!r} in this server")
        await ensure_async(self.kernel_manager.shutdown_kernel(kernel_id))  # type: ignore[no-untyped-call]
        self.set_status(204)
        self.finish()


def hub_auth_objects(serverapp: Any) -> list[Any]:
    """JupyterHub's HubAuth objects in this server: the identity provider's, and those of
    extension apps (JupyterHub's own ``jupyterhub-singleuser`` app has one)."""
    found: list[Any] = []
    owners: list[Any] = [serverapp.identity_provider]
    for apps in serverapp.extension_manager.extension_apps.values():
        owners.extend(apps)
    for owner in owners:
        hub_auth = getattr(owner, "hub_auth", None)
        if hub_auth is not None and all(hub_auth is not seen for seen in found):
            found.append(hub_auth)
    return found


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "tutor.hub.server_extension"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    # Served before Voila's own handler for the same address: extensions load in
    # alphabetical order ("tutor.hub..." before "voila") and tornado takes the first
    # handler that matches. The hub test checks the refusal through the real address.
    base_url = serverapp.web_app.settings["base_url"]
    serverapp.web_app.add_handlers(
        ".*$", [(url_path_join(base_url, r"/voila/api/shutdown/(.*)"), PageCloseShutdownHandler)]
    )
    token = ""
    hub_auths = hub_auth_objects(serverapp)
    for hub_auth in hub_auths:
        # Each reads its token from the environment the first time it is asked (a
        # traitlets default): ask every one now, before the token leaves the environment.
        # JupyterHub's extension app has one of its own, with which it reports the
        # server's activity; left unread, it later found no token (403 "Missing or invalid
        # credentials" at every report).
        token = hub_auth.api_token or token
    if hub_auths:
        for name in ("JUPYTERHUB_API_TOKEN", "JPY_API_TOKEN"):
            os.environ.pop(name, None)
    url = os.environ.get(SERVICE_URL_VARIABLE, "")
    if url and token:
        forwarder = ProgressForwarder(default_progress_path(), url, token, log=serverapp.log)
        serverapp.io_loop.add_callback(forwarder.start)
        serverapp.log.info("Forwarding %s to the class results at %s", forwarder.path, url)
    elif url:
        serverapp.log.warning(
            "%s is set but this server has no hub token: answers stay here", SERVICE_URL_VARIABLE
        )
