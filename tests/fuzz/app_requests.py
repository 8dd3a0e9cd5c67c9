"""Raw HTTP requests to the app, for the fuzz suite: any bytes as the request's target,
method and headers (a browser's client library would refuse to send most of them)."""

from __future__ import annotations

import re
import socket
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Reply:
    status: int
    headers: str
    body: str
    seconds: float

    @property
    def refused_by_http(self) -> bool:
        """Refused by the HTTP layer itself (tornado), before the app saw a request: a
        request line or header with control characters, no Host. A bare status, unlogged."""
        return self.status == 400 and self.headers == "HTTP/1.1 400 Bad Request"


def ask(
    port: int,
    target: bytes,
    *,
    method: bytes = b"GET",
    headers: bytes | None = None,
    body: bytes = b"",
    timeout: float = 60.0,
) -> Reply:
    """Send one request (``Connection: close``) and read the whole reply."""
    head = headers if headers is not None else f"Host: 127.0.0.1:{port}\r\n".encode()
    if body:
        head += f"Content-Length: {len(body)}\r\n".encode()
    request = method + b" " + target + b" HTTP/1.1\r\n" + head + b"Connection: close\r\n\r\n" + body
    start = time.perf_counter()
    received = b""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(request)
        while chunk := connection.recv(65536):
            received += chunk
            head, separator, rest = received.partition(b"\r\n\r\n")
            length = re.search(rb"(?im)^content-length: *(\d+)", head)
            if separator and length and len(rest) >= int(length.group(1)):
                break  # (a refused websocket upgrade may keep its connection open)
    seconds = time.perf_counter() - start
    reply = received.decode("utf-8", errors="replace")
    match = re.match(r"HTTP/1\.1 (\d{3})", reply)
    assert match, f"no status for {method!r} {target[:80]!r}: {reply[:200]!r}"
    head_text, _, body_text = reply.partition("\r\n\r\n")
    return Reply(int(match.group(1)), head_text, body_text, seconds)


def rss_megabytes(pid: int) -> float:
    """The resident memory of process ``pid``."""
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", status)
    assert match
    return int(match.group(1)) / 1024
