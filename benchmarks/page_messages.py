"""What a lesson page's kernel sends the browser, phase by phase, as a learner of the
classroom benchmark uses it: the page's first render (the notebook's cell), scrolling to
the quiz's first question (the browser reports its place reached, which builds it), and a
click on its first answer. For each phase: the widget models opened (``comm_open``), the
state updates sent (``update``; ``echo_update``, ipywidgets' reply to a browser's own
change, counted apart) and the bytes of their JSON.

Run in a process of its own with the tutor to measure first on ``PYTHONPATH`` (see
``page_widgets_benchmark.py``, which runs it for two revisions side by side); it prints
one JSON object. The kernel's messages are recorded by a comm of its own (the ``comm``
package lets a kernel give its own), so no kernel, server or browser runs: the same
widget code, the same messages, none of the transport.

Run: ``PYTHONPATH=. .venv/bin/python benchmarks/page_messages.py 06_trick_winner``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import comm
from comm.base_comm import BaseComm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from process_guard import sigterm_as_exit


class Tally:
    """Messages and bytes sent, by kind."""

    def __init__(self) -> None:
        self.count: Counter[str] = Counter()
        self.bytes = 0

    def add(self, kind: str, data: Any) -> None:
        self.count[kind] += 1
        self.bytes += len(json.dumps(data, default=str))

    def phase(self) -> dict[str, int]:
        """What was sent since the last call."""
        done = {
            "models": self.count["comm_open"],
            "updates": self.count["update"],
            "echoes": self.count["echo_update"],
            "custom": self.count["custom"],
            "bytes": self.bytes,
        }
        self.count.clear()
        self.bytes = 0
        return done


TALLY = Tally()


class RecordingComm(BaseComm):  # type: ignore[misc]
    """A comm that counts what it would send."""

    def publish_msg(self, msg_type: str, data: Any = None, metadata: Any = None,
                    buffers: Any = None, **keys: Any) -> None:  # fmt: skip
        if msg_type == "comm_msg" and isinstance(data, dict):
            TALLY.add(str(data.get("method")), data)
        else:
            TALLY.add(msg_type, data)


def browser_says(widget: Any, data: dict[str, Any]) -> None:
    """A message from the browser to ``widget``'s model, as the kernel receives it."""
    widget.comm.handle_msg({"content": {"comm_id": widget.model_id, "data": data}, "buffers": []})


def main(lesson: str) -> int:
    comm.create_comm = RecordingComm  # before any widget is made
    os.environ.update({"SERVER_SOFTWARE": "voila/0.5.13", "QUERY_STRING": "lang=en"})
    os.environ.setdefault("TUTOR_PROGRESS_STORE", "browser")  # the app's default
    from tutor.display import show_lesson_page

    phases = {}
    with contextlib.redirect_stdout(io.StringIO()):  # no IPython here: displays print
        show_lesson_page(lesson)
    phases["first render"] = TALLY.phase()
    from ipywidgets.widgets.widget import _instances

    place = next(
        w for w in list(_instances.values()) if "tutor-quiz-place" in getattr(w, "_dom_classes", ())
    )
    stand_in = place.children[0]
    browser_says(stand_in, {"method": "update", "state": {"reached": True}, "buffer_paths": []})
    phases["reach question 1"] = TALLY.phase()
    choice = next(
        (
            w
            for w in list(_instances.values())
            if "tutor-quiz-choice" in getattr(w, "_dom_classes", ())
        ),
        None,
    )
    if choice is not None:  # a question answered by picking cards has no choice button
        browser_says(choice, {"method": "custom", "content": {"event": "click"}})
        phases["answer it"] = TALLY.phase()
    print(json.dumps(phases))
    return 0


if __name__ == "__main__":
    sigterm_as_exit()
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lesson", nargs="?", default="06_trick_winner", help="a lesson's name")
    lesson = parser.parse_args().lesson
    from tutor.teaching.lesson import LessonError
    from tutor.teaching.lesson_loader import load_lesson

    try:
        load_lesson(lesson)
    except LessonError as error:
        parser.error(str(error))
    sys.exit(main(lesson))
