"""A live room served by its own handlers in a thread (no Voila, no kernels), and light
HTTP clients for it: the teacher (cookie + XSRF header, as a browser gets them from the
start address) and learners (their key only). Used by tests/web/test_room_http.py; the same
clients talk to the real app in tests/browser/test_room_phone.py and
benchmarks/live_room_benchmark.py.
"""

from __future__ import annotations

import asyncio
import http.client
import http.cookiejar
import json
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import tornado.httpserver
import tornado.testing
import tornado.web

from tutor.app.refused_requests import log_request
from tutor.web.room import Room
from tutor.web.room_server import Teacher, room_handlers
from tutor.web.room_store import RoomStore


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Client:
    """HTTP to ``base`` with a cookie jar; replies as (status, JSON or text, headers)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect
        )
        self.headers: dict[str, str] = {}

    def call(
        self, method: str, path: str, body: object = None, *, raw: bytes | None = None
    ) -> tuple[int, Any, dict[str, str]]:
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path,
            method=method,
            data=data,
            headers={"Content-Type": "application/json", **self.headers},
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                status, content, headers = response.status, response.read(), response.headers
        except urllib.error.HTTPError as error:
            status, content, headers = error.code, error.read(), error.headers
        # utf-8-sig: as a spreadsheet reads the summary's CSV (sent with a byte-order mark)
        text = content.decode("utf-8-sig", errors="replace")
        kind = headers.get("Content-Type", "")
        return (
            status,
            json.loads(text) if kind.startswith("application/json") else text,
            dict(headers),
        )

    def cookie(self, name: str) -> str | None:
        return next((cookie.value for cookie in self.jar if cookie.name == name), None)


class TeacherClient(Client):
    """The teacher's browser after the start address: the room cookie, the XSRF header."""

    def start(self, key: str) -> tuple[int, Any, dict[str, str]]:
        reply = self.call("GET", f"/room/teacher?key={key}")
        xsrf = self.cookie("_xsrf")
        if xsrf:
            self.headers["X-XSRFToken"] = xsrf
        return reply

    def cookie_header(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.jar)}

    def act(self, action: str, body: object = None) -> Any:
        status, reply, _ = self.call("POST", f"/room/api/{action}", body or {})
        assert status == 200, (action, status, reply)
        return reply


class LearnerClient(Client):
    def __init__(self, base: str, code: str) -> None:
        super().__init__(base)
        self.code = code
        self.key = ""

    def join(self, nickname: str | None = None) -> tuple[int, Any, dict[str, str]]:
        reply = self.call("POST", f"/room/{self.code}/api/join", {"nickname": nickname})
        if reply[0] == 201:
            self.key = reply[1]["learner"]
        return reply

    def answer(self, question: str, answer: object) -> tuple[int, Any, dict[str, str]]:
        body = {"learner": self.key, "question": question, "answer": answer}
        return self.call("POST", f"/room/{self.code}/api/answer", body)

    def state(self, lang: str = "en") -> Any:
        status, reply, _ = self.call(
            "GET", f"/room/{self.code}/api/state?learner={self.key}&lang={lang}"
        )
        assert status == 200, reply
        return reply


class EventReader:
    """A text/event-stream read line by line: ``next_event()`` is the next event's JSON."""

    def __init__(self, host: str, port: int, path: str, headers: dict[str, str] | None = None):
        self.connection = http.client.HTTPConnection(host, port, timeout=20)
        self.connection.request("GET", path, headers=headers or {})
        self.response = self.connection.getresponse()

    def next_event(self) -> tuple[str, Any]:
        event, data = "", ""
        while True:
            line = self.response.fp.readline().decode("utf-8")
            if not line:
                raise EOFError("the stream ended")
            line = line.rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
            elif line == "" and data:
                return event, json.loads(data)

    def close(self) -> None:
        self.connection.close()


class RoomServer:
    """The room's handlers on a free port of 127.0.0.1, in a thread of their own."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.sock, self.port = tornado.testing.bind_unused_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.room = Room(RoomStore.open_file(db), join=self.base)
        self.teacher = Teacher()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        async def serve() -> None:
            app = tornado.web.Application(
                room_handlers(self.room, self.teacher, "classroom-token"),
                cookie_secret="secret-of-the-test-server-0123456789",
                log_function=log_request,
            )
            server = tornado.httpserver.HTTPServer(app)
            server.add_sockets([self.sock])
            self._loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()
            self._ready.set()
            await self._stop.wait()
            server.stop()

        asyncio.run(serve())

    def start(self) -> RoomServer:
        self._thread.start()
        self._ready.wait(10)
        return self

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)
        self.room.store.close()

    def teacher_client(self) -> TeacherClient:
        client = TeacherClient(self.base)
        status, _reply, _headers = client.start(self.teacher.key)
        assert status == 302
        return client

    def learner(self, nickname: str | None = None) -> LearnerClient:
        learner = LearnerClient(self.base, self.room.code)
        status, reply, _ = learner.join(nickname)
        assert status == 201, reply
        return learner
