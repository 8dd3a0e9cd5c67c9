"""What a teacher does in presenter mode, in any host that has it: press a key (Page Down,
as a clicker sends, or an arrow) and wait until the screen changed."""

from __future__ import annotations

from typing import Any

from .hosts import ACTION_TIMEOUT


def _state(page: Any) -> tuple[str, bool]:
    """The bar's position ("Slide 3 of 11") and whether the slide holds its answer back."""
    return tuple(  # type: ignore[return-value]
        page.evaluate(
            "[document.querySelector('.tutor-present-position').textContent.trim(),"
            " document.body.classList.contains('tutor-holding')]"
        )
    )


def press(page: Any, key: str) -> None:
    """Press ``key`` and wait until the screen changed (a new slide, step or answer)."""
    before = _state(page)
    page.keyboard.press(key)
    page.wait_for_function(
        "([position, holding]) =>"
        " document.querySelector('.tutor-present-position').textContent.trim() !== position"
        " || document.body.classList.contains('tutor-holding') !== holding",
        arg=list(before),
        timeout=ACTION_TIMEOUT,
    )
