"""The live room's summary after the lesson: per question asked, how many answered, how
many were right at their first answer and the most chosen wrong answer, for the teacher's
summary page and as a CSV file a spreadsheet opens.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from typing import TYPE_CHECKING, Any

from .room_checks import RoomError

if TYPE_CHECKING:
    from .room import Room


def summary(room: Room, lang: str) -> list[dict[str, Any]]:
    """Per question asked (in the order first opened): answered, right at the first
    answer, the most chosen wrong answer (of the final answers) and its count."""
    rows = []
    for key in room.asked:
        try:
            asked = room.question(key)
        except RoomError:
            continue  # its lesson is gone: nothing to say what was asked
        given = room.answers.get(key, {})
        wrong = Counter(
            json.dumps(answer) for answer, _first in given.values() if not asked.is_right(answer)
        )
        top = wrong.most_common(1)
        rows.append(
            {
                "lesson": asked.lesson,
                "item": asked.item,
                "question": asked.question.prompt(lang),
                "answered": len(given),
                "right_first": sum(1 for _a, first in given.values() if asked.is_right(first)),
                "most_chosen_wrong": asked.label(json.loads(top[0][0]), lang) if top else "",
                "most_chosen_wrong_count": top[0][1] if top else 0,
            }
        )
    return rows


def summary_csv(room: Room, lang: str) -> bytes:
    """The summary as a CSV file's bytes: UTF-8 with a byte-order mark. A spreadsheet
    opened by double-click (Excel above all) reads a file without the mark in the
    system's legacy code page and garbles Japanese and Chinese; with it, it reads UTF-8.
    Python's csv reads it with ``encoding="utf-8-sig"``."""
    out = io.StringIO()
    columns = [
        "lesson",
        "item",
        "question",
        "answered",
        "right_first",
        "most_chosen_wrong",
        "most_chosen_wrong_count",
    ]
    writer = csv.DictWriter(out, columns)
    writer.writeheader()
    for row in summary(room, lang):
        writer.writerow({name: _csv_safe(row[name]) for name in columns})
    return out.getvalue().encode("utf-8-sig")


def _csv_safe(value: object) -> object:
    """A cell a spreadsheet shows as text, never runs as a formula (a nickname or answer
    starting with = + - @)."""
    if (
        isinstance(value, str)
        and value[:1]
        and value[0] in "=+-@"
        and not re.fullmatch(r"-\d+", value)
    ):
        return "'" + value
    return value
