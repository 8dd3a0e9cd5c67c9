"""Widget messages sent to a running page's kernel over the app's websocket, as a
tampered browser would send them (the session's one app: tests/conftest.py's ``app``):
malformed comm messages to every widget of a lesson page, frames that are not messages,
code, comms that do not exist. The kernel refuses each with one line in the server's log,
never a traceback or "Something went wrong" sent to the page, and still answers."""

from __future__ import annotations

import http.client
import json
import re
import time
import uuid
from collections.abc import Callable, Coroutine
from typing import Any

from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

from .app_requests import rss_megabytes
from .bounds import load_scaled, record, within

ENTRY = "widget messages over the app's websocket"
LESSON = "07_scoring.ipynb"  # its quiz has the points box
SECONDS = 120.0


def open_page(port: int) -> tuple[str, str]:
    """Load the lesson's page as a browser does: its kernel's id and the cookies it set."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=load_scaled(SECONDS))
    connection.request("GET", f"/voila/render/{LESSON}")
    response = connection.getresponse()
    page = response.read().decode()
    assert response.status == 200, page[:300]
    cookies = "; ".join(
        value.split(";", 1)[0]
        for name, value in response.getheaders()
        if name.lower() == "set-cookie"
    )
    match = re.search(r'"kernelId": ?"([0-9a-f-]{36})"', page)
    assert match, "no kernel id in the page"
    return match.group(1), cookies


def message(msg_type: str, content: object, channel: str = "shell") -> str:
    return json.dumps(
        {
            "header": {
                "msg_id": uuid.uuid4().hex,
                "msg_type": msg_type,
                "session": "fuzz",
                "username": "fuzz",
                "version": "5.3",
                "date": "",
            },
            "parent_header": {},
            "metadata": {},
            "content": content,
            "channel": channel,
            "buffers": [],
        }
    )


def comm_msg(comm_id: str, data: object) -> str:
    return message("comm_msg", {"comm_id": comm_id, "data": data})


def crafted(comm_id: str) -> list[str]:
    """What is sent to each widget: every kind of malformed message the kernel's guard
    refuses, and a huge but well-formed one."""
    return [
        comm_msg(comm_id, {"method": "update", "state": {"value": 5, "description": [1]}}),
        comm_msg(comm_id, {"method": "update", "state": {"no_such_property": 1}}),
        comm_msg(comm_id, {"method": "update", "state": "not an object"}),
        comm_msg(comm_id, {"method": "custom", "content": ["click"]}),
        comm_msg(comm_id, {"method": "exec", "code": "import os"}),
        comm_msg(comm_id, "no data object"),
        comm_msg(comm_id, {"method": "update", "state": {}, "buffer_paths": [["x", 9]]}),
        comm_msg(comm_id, {"method": "request_state"}),
    ]


FRAMES: list[str | bytes] = [
    "not JSON at all",
    "{}",
    '{"header": 1, "content": []}',
    json.dumps({"channel": "shell"}),
    message("comm_msg", {"comm_id": "9" * 5000, "data": {"method": "update", "state": {}}}),
    message("comm_msg", {"comm_id": uuid.uuid4().hex, "data": {"method": "update", "state": {}}}),
    message("comm_close", {"comm_id": uuid.uuid4().hex, "data": {}}),
    message("comm_open", {"comm_id": uuid.uuid4().hex, "target_name": "nope", "data": {}}),
    message("execute_request", {"code": "import os; os.system('id')", "silent": False}),
    message("kernel_info_request", {}, channel="nowhere"),
    '{"header": {"msg_type": "comm_msg"}, "content": {"data": ' + "9" * 5000 + "}}",
    "[" * 10_000 + "]" * 10_000,
    message("comm_msg", {"comm_id": 7, "data": {}}),
    message("comm_msg", {"comm_id": "a", "data": []}),
    message("comm_open", {"comm_id": "x"}),
    json.dumps({"header": {"msg_id": "1", "msg_type": "comm_info_request"}, "content": {}}),
    b"\x7f\xff\xff\xff" + b"x" * 64,  # a binary frame announcing 2**31 buffers
    b"\x00\x00\x00\x01\x00\x00\x00\x08" + b"{not json",
    b"",
]

V1 = "v1.kernel.websocket.jupyter.org"


def v1_frame(msg_type: str, content: object, channel: str = "shell") -> bytes:
    parts = json.loads(message(msg_type, content, channel))
    packed = [
        json.dumps(parts[name]).encode()
        for name in ("header", "parent_header", "metadata", "content")
    ]
    return serialize_msg_to_ws_v1(packed, channel)


V1_FRAMES: list[str | bytes] = [
    (2**62).to_bytes(8, "little") + b"\x00" * 64,  # 2**62 offsets: the server counted them all
    (6).to_bytes(8, "little") + b"\xff" * 56,
    b"\x00" * 3,
    "a text frame",
    v1_frame("comm_msg", {"comm_id": "z" * 100, "data": {}}),
]


async def fuzz_kernel(port: int, kernel_id: str, cookies: str) -> dict[str, Any]:
    request = HTTPRequest(
        f"ws://127.0.0.1:{port}/api/kernels/{kernel_id}/channels?session_id=fuzz",
        headers={"Cookie": cookies},
    )
    ws = await websocket_connect(request)
    received: list[dict[str, Any]] = []

    async def first(wanted: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        async def read() -> dict[str, Any]:
            while True:
                raw = await ws.read_message()
                assert raw is not None, "the websocket closed"
                if isinstance(raw, bytes):
                    continue
                msg = json.loads(raw)
                received.append(msg)
                if wanted(msg):
                    return msg

        return await within(read(), 60, what)

    async def reply_to(msg_type: str) -> dict[str, Any]:
        def of_type(msg: dict[str, Any]) -> bool:
            return msg_type in (msg.get("msg_type"), msg.get("header", {}).get("msg_type"))

        return await first(of_type, f"the kernel's {msg_type}")

    async def idle_after(request_id: str) -> None:
        """Until the kernel is idle after the request ``request_id``: IOPub is one ordered
        stream, so all the kernel said about the messages before it has arrived then (a
        reply on the shell channel can come before them)."""

        def idle(msg: dict[str, Any]) -> bool:
            return (
                msg.get("msg_type") == "status"
                and msg.get("content", {}).get("execution_state") == "idle"
                and msg.get("parent_header", {}).get("msg_id") == request_id
            )

        if not any(idle(msg) for msg in received):  # it may come before the reply
            await first(idle, "the kernel idle after its last request")

    await ws.write_message(message("comm_info_request", {}))
    comms = (await reply_to("comm_info_reply"))["content"]["comms"]
    sent = 0
    for comm_id in comms:
        for frame in crafted(comm_id):
            await ws.write_message(frame)
            sent += 1
    for frame in FRAMES:
        await ws.write_message(frame, binary=isinstance(frame, bytes))
        sent += 1
    # The kernel still answers, after everything before it.
    await ws.write_message(message("kernel_info_request", {}))
    info = await reply_to("kernel_info_reply")
    await idle_after(info["parent_header"]["msg_id"])
    ws.close()
    # The binary protocol the pages' own scripts use.
    request.url = request.url.replace("session_id=fuzz", "session_id=fuzz-v1")
    ws = await websocket_connect(request, subprotocols=[V1])
    assert ws.selected_subprotocol == V1
    for frame in V1_FRAMES:
        await ws.write_message(frame, binary=isinstance(frame, bytes))
        sent += 1
    await ws.write_message(v1_frame("kernel_info_request", {}), binary=True)

    async def v1_info() -> None:
        while True:
            raw = await ws.read_message()
            assert isinstance(raw, bytes), "the websocket closed"
            if b"kernel_info_reply" in raw:
                return

    await within(v1_info(), 60, "the kernel's kernel_info_reply (v1)")
    ws.close()
    return {"comms": len(comms), "sent": sent, "info": info, "received": received}


def test_a_tampered_browser_gets_refusals_and_the_kernel_goes_on(
    app: Any, run_coroutine: Callable[[Coroutine[Any, Any, Any]], Any]
) -> None:
    before_pids = set(app.kernel_pids())
    kernel_id, cookies = open_page(app.port)
    kernel = max(set(app.kernel_pids()) - before_pids or app.kernel_pids())  # the newest
    memory = rss_megabytes(kernel)
    offset = len(app.log())
    start = time.perf_counter()
    # (not asyncio.run here: after a browser test, Playwright's loop runs in this thread)
    result = run_coroutine(within(fuzz_kernel(app.port, kernel_id, cookies), SECONDS, ENTRY))
    seconds = time.perf_counter() - start
    assert result["comms"] >= 20, result["comms"]  # every widget of the page was reached
    assert result["info"]["content"]["status"] == "ok"
    errors = [m for m in result["received"] if m.get("msg_type") == "error"]
    assert errors == [], errors[:2]  # the page was never told something went wrong
    waited = time.monotonic()  # the kernel's lines reach the log late on a busy machine
    while app.log()[offset:].count("refused a message to a") < 5 * result["comms"]:
        if time.monotonic() - waited > load_scaled(60):
            break
        time.sleep(0.2)
    log = app.log()[offset:]
    assert "Traceback" not in log and "Exception in comm_msg" not in log, log[-3000:]
    assert "No such comm target" not in log, log[-3000:]
    # the comm opening of an unknown target is refused by the kernel (the one naming no
    # target, by the server already)
    assert log.count("refused a comm_open: no comm target 'nope'") == 1, log[-3000:]
    # Five of each widget's eight messages are refused by the kernel, one ("no data
    # object") by the server already, with most of FRAMES and V1_FRAMES.
    refused = log.count("refused a message to a")
    assert refused >= 5 * result["comms"], (refused, log[-2000:])
    frames = log.count("refused a websocket message")
    assert frames >= result["comms"] + 10 + len(V1_FRAMES), (frames, log[-2000:])
    assert all(len(line) < 600 for line in log.splitlines())
    grown = rss_megabytes(kernel) - memory
    record(ENTRY, f"{result['sent']} messages to {result['comms']} widgets", seconds, grown)
    for _ in range(result["sent"] - 1):
        record(ENTRY, "", 0.0)
    assert grown < 64, f"the kernel grew by {grown:.0f} MB"
