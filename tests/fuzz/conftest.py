"""The fuzz suite: every input a person can send to the tutor's entry points (lesson files,
the app's addresses, widget messages, the teacher page's events API) gets a clear message
and a 4xx, never a 5xx, a traceback, a hang or unbounded memory.

Hypothesis runs derandomized with bounded example counts, so the suite takes the same
inputs and about the same time on every run (under two minutes on a quiet machine)."""

from __future__ import annotations

from typing import Any

from .bounds import WORST


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not WORST:
        return
    terminalreporter.section("fuzz: inputs tried, worst time and memory per entry point")
    for entry, worst in sorted(WORST.items()):
        terminalreporter.write_line(
            f"{entry}: {worst.cases} inputs, worst {worst.seconds:.2f} s ({worst.slowest!r}), "
            f"peak {worst.megabytes:.1f} MB"
        )
