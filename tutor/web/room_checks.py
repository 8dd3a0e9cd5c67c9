"""What the live room refuses, and how it says so: :class:`RoomError` (an HTTP status, a
stable code and a message naming the value and the rule), the rooms' codes, the learners'
nicknames and the limits on joins and answers. The room (:mod:`tutor.web.room`) and its
questions (:mod:`tutor.web.room_questions`) check their input with these.
"""

from __future__ import annotations

import json
import secrets
import time
import unicodedata
from collections import deque

CODE_LETTERS = "ACDEFHJKMNPRTUVWXY"
"""Letters of a room code: none that a phone's font or a projector mixes up with a digit
or another letter (O 0, I 1 L, S 5, B 8, G 6, Z 2, Q)."""
CODE_LENGTH = 4

NICKNAME_LENGTH = 24
"""The most characters of a nickname (it must fit a line of the teacher's list)."""
MAX_LEARNERS = 300
"""The most learners of one room (a class is far fewer; this stops a script filling memory)."""
ANSWER_LIMIT = (8, 10.0)
"""A learner may answer this many times in so many seconds (changing their mind included)."""
JOIN_LIMIT = (200, 10.0)
"""The room takes this many joins in so many seconds (a lecture hall arriving at once fits;
a script joining in a loop is slowed down, and stopped at :data:`MAX_LEARNERS`)."""


class RoomError(Exception):
    """A request the room refuses: ``status`` (HTTP), ``code`` (stable, for the pages)
    and a message naming the value and the rule. Nothing was changed."""

    def __init__(self, status: int, code: str, message: str, *, retry_after: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


def new_code(taken: set[str]) -> str:
    """A room code not in ``taken``.

    >>> code = new_code({"ACDE"})
    >>> len(code), set(code) <= set(CODE_LETTERS), code != "ACDE"
    (4, True, True)
    """
    while True:
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def clean_nickname(value: object) -> str:
    """A learner's nickname as kept: the text with control characters taken out and spaces
    squeezed, at most :data:`NICKNAME_LENGTH` characters (longer is refused, never cut
    silently). Kept as typed otherwise: every page escapes it where it shows it.

    >>> clean_nickname("  Aiko\\n  <b> ")
    'Aiko <b>'
    """
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RoomError(400, "bad-field", f"nickname must be text, not {type(value).__name__}")
    kept = "".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in value)
    kept = " ".join(kept.split())
    if len(kept) > NICKNAME_LENGTH:
        raise RoomError(
            400,
            "bad-field",
            f"nickname {kept[:NICKNAME_LENGTH]!r}... has {len(kept)} characters: "
            f"at most {NICKNAME_LENGTH}",
        )
    return kept


class RateLimit:
    """At most ``count`` events in ``seconds`` (per key)."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count, self.seconds = count, seconds
        self._times: dict[str, deque[float]] = {}

    def wait(self, key: str, now: float | None = None) -> float:
        """0 when an event for ``key`` may happen now (it is counted), else the seconds
        until one may.

        >>> limit = RateLimit(2, 10.0)
        >>> limit.wait("aiko", 0.0), limit.wait("aiko", 1.0), limit.wait("aiko", 2.0)
        (0.0, 0.0, 8.0)
        >>> limit.wait("ben", 2.0), limit.wait("aiko", 10.0)
        (0.0, 0.0)
        """
        now = time.monotonic() if now is None else now
        times = self._times.setdefault(key, deque())
        while times and now - times[0] >= self.seconds:
            times.popleft()
        if len(times) >= self.count:
            return self.seconds - (now - times[0])
        times.append(now)
        return 0.0


def quoted(value: object) -> str:
    """``value`` as an error message quotes it: JSON, cut at 40 characters.

    >>> quoted("x" * 50)
    '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'
    """
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."
