"""What a page may send its kernel: each websocket frame checked before Jupyter Server
parses it.

Jupyter Server parses a browser's websocket frame with no guard: a frame that is not JSON,
lacks a header, holds a 5000-digit number or a 10,000-deep array raised in the server
("Uncaught exception" and its traceback in the log, the websocket closed); a binary frame
announcing 2**31 parts built a string that big before failing. A message with a header
the kernel cannot read made the kernel log a traceback of its own. Each frame is checked
first (:func:`kernel_message_problem`); one that fails gets one line in the log and goes
nowhere (:class:`tutor.app.kernel_access.OwnKernelWebsocketHandler`).
"""

from __future__ import annotations

import json
import re
import struct
from typing import Any

from jupyter_server.services.kernels.connection.base import (
    deserialize_binary_message,
    deserialize_msg_from_ws_v1,
)

KERNEL_PROTOCOL_V1 = "v1.kernel.websocket.jupyter.org"
MAX_MESSAGE_PARTS = 64
"""The most parts (header, parent header, metadata, content, buffers) of one message."""

_COMM_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")
_CONTENT_CHECKS: dict[str, tuple[tuple[str, type], ...]] = {
    # message type -> the content's fields the kernel reads without checking
    "comm_msg": (("comm_id", str), ("data", dict)),
    "comm_close": (("comm_id", str),),
    "comm_open": (("comm_id", str), ("target_name", str)),
}


def _message_parts(frame: str | bytes, subprotocol: str | None) -> list[Any] | str:
    """The header, parent header, metadata and content of ``frame``, or why not."""
    if subprotocol == KERNEL_PROTOCOL_V1:
        if not isinstance(frame, bytes):
            return "a text frame in the binary protocol"
        count = int.from_bytes(frame[:8], "little")
        if not 6 <= count <= min(MAX_MESSAGE_PARTS + 2, len(frame) // 8):
            return f"a frame announcing {count} offsets"
        _channel, parts = deserialize_msg_from_ws_v1(frame)  # type: ignore[no-untyped-call]
        return [json.loads(part) for part in parts[:4]]
    if isinstance(frame, bytes):
        count = int.from_bytes(frame[:4], "big", signed=True)
        if not 1 <= count <= min(MAX_MESSAGE_PARTS, (len(frame) - 4) // 4):
            return f"a frame announcing {count} buffers"
        message = deserialize_binary_message(frame)  # type: ignore[no-untyped-call]
    else:
        message = json.loads(frame)
    if not isinstance(message, dict):
        return "not a message object"
    return [message.get(name) for name in ("header", "parent_header", "metadata", "content")]


def kernel_message_problem(frame: str | bytes, subprotocol: str | None) -> str | None:
    """Why the websocket frame a page sent its kernel cannot be passed on, or ``None``.

    >>> kernel_message_problem("not JSON", None)
    'not a Jupyter message (JSONDecodeError)'
    >>> kernel_message_problem('{"header": {"msg_id": "1", "msg_type": "comm_msg"}, '
    ...     '"parent_header": {}, "metadata": {}, "content": {"comm_id": 7}}', None)
    "content field 'comm_id' of a comm_msg must be a str"
    """
    try:
        parts = _message_parts(frame, subprotocol)
    except (ValueError, RecursionError, TypeError, KeyError, IndexError, struct.error) as error:
        return f"not a Jupyter message ({type(error).__name__})"
    if isinstance(parts, str):
        return parts
    header, parent, metadata, content = [*parts, None, None, None, None][:4]
    if not all(isinstance(part, dict) for part in (header, parent, metadata, content)):
        return "a message is four objects: header, parent header, metadata, content"
    if not (isinstance(header.get("msg_id"), str) and isinstance(header.get("msg_type"), str)):
        return "its header has no msg_id or msg_type"
    for name, kind in _CONTENT_CHECKS.get(header["msg_type"], ()):
        if not isinstance(content.get(name), kind):
            return f"content field {name!r} of a {header['msg_type']} must be a {kind.__name__}"
    if "comm_id" in content and not _COMM_ID.fullmatch(content["comm_id"]):
        return "its comm_id is not a comm's id"
    return None
