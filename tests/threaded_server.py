"""``serving(app)``: a tornado application served on a free port of 127.0.0.1 by a thread of
its own (an event loop of its own), for tests that talk to it over real HTTP from the test's
thread."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import Iterator
from typing import Any

import tornado.web
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets


@contextlib.contextmanager
def serving(app: tornado.web.Application, **server_options: Any) -> Iterator[int]:
    """Serve ``app`` (``server_options`` go to tornado's HTTPServer) until the block ends;
    yields the port."""
    (sock,) = bind_sockets(0, "127.0.0.1", family=socket.AF_INET)
    loop = asyncio.new_event_loop()
    started = threading.Event()

    def serve() -> None:
        asyncio.set_event_loop(loop)
        server = HTTPServer(app, **server_options)
        server.add_sockets([sock])
        loop.call_soon(started.set)
        loop.run_forever()
        server.stop()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert started.wait(30), "the test's server did not start in 30 s"
    try:
        yield sock.getsockname()[1]
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
