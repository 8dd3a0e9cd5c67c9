"""Lab's page language widget carries the same CJK line breaking as the app's tutor.css."""

from __future__ import annotations

import re
from pathlib import Path

import tutor.app
from tutor.display.lab_page import LANGUAGE_CSS

TUTOR_CSS = Path(tutor.app.__file__).parent / "jupyter/nbconvert/templates/tutor/static/tutor.css"


def _language_rules(css: str) -> list[tuple[str, str]]:
    """Each ``selector { body }`` rule whose selector names a language, whitespace folded."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    rules = re.findall(r"([^{}]+)\{([^{}]*)\}", css)
    fold = lambda part: " ".join(part.split())  # noqa: E731
    return [(fold(selector), fold(body)) for selector, body in rules if ":lang(" in selector]


def test_lab_gets_the_line_breaking_rules_of_the_app() -> None:
    found = _language_rules(LANGUAGE_CSS)
    assert found and any("line-break: strict" in body for _selector, body in found), found
    assert found == _language_rules(TUTOR_CSS.read_text(encoding="utf-8"))
