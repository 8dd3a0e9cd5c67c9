"""The look the quiz widgets share: CSS classes and colours, a card above its button, the
verdict line under a choice and the marks on a graded answer's button."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets

from tutor.display import looks
from tutor.display.visibility import HIDDEN, set_visible
from tutor.display.widgets.html_widget import html_widget

QUIZ_CLASS = "tutor-quiz"
"""CSS class of a quiz; its parts add a suffix (``-feedback``, ``-check``, ``-choice``...)."""
RIGHT_COLOUR = "#1a7f37"
WRONG_COLOUR = "#b3261e"
HINT_COLOUR = "#6b6b6b"
CARD_CHOICE_CLASS = f"{QUIZ_CLASS}-card-choice"
"""A card drawn above its button (a choice): the whole column presses the button."""

QUIZ_CSS = f"""<style>
.{QUIZ_CLASS} .{QUIZ_CLASS}-verdict {{ font-size: 0.85em; line-height: 1.25; text-align: center;
  max-width: 6.5em; margin: 0.1em 0; }}
.{QUIZ_CLASS} .{QUIZ_CLASS}-verdict .widget-html-content {{ line-height: 1.25; }}
/* A marked answer (right, wrong, missed) keeps its full colour once the quiz is locked:
   only the choices that say nothing are drawn lighter. */
.{QUIZ_CLASS} .jupyter-button.{QUIZ_CLASS}-marked:disabled {{ opacity: 1; cursor: default; }}
.{QUIZ_CLASS} .{QUIZ_CLASS}-number input:disabled {{ opacity: 1; }}
.{QUIZ_CLASS}-summary {{ border-top: 1px solid #8a8a8a; margin-top: 1em; padding-top: 0.4em; }}
/* The line above the choices wraps to their width rather than widening the quiz (a
   presenter's slide would be drawn smaller for it). */
.{QUIZ_CLASS} .{QUIZ_CLASS}-answer-heading {{ contain: inline-size; }}
/* A card's whole column (picture, words, button) is its button: the button's ::after
   covers the column, so a click or a tap on the picture presses it; the keyboard still
   reaches the one real button, whose focus ring goes round the whole card. */
.{QUIZ_CLASS} .{CARD_CHOICE_CLASS} {{ position: relative; cursor: pointer; }}
/* (Every Lumino widget is position: relative; the button must not be, or it would be
   its own ::after's box.) */
.{QUIZ_CLASS} .{CARD_CHOICE_CLASS} > button {{ position: static; }}
.{QUIZ_CLASS} .{CARD_CHOICE_CLASS} > button::after {{ content: ""; position: absolute; inset: 0;
  z-index: 1; }}
.{QUIZ_CLASS} .{CARD_CHOICE_CLASS} > button:disabled::after {{ cursor: default; }}
.{QUIZ_CLASS} .{CARD_CHOICE_CLASS}:has(> button:focus-visible) {{ outline: 2px solid currentColor;
  outline-offset: 2px; }}
</style>"""
"""Sizes and the look of a locked, marked answer; colours stay the page's own."""


def button_layout(*, hidden: bool = False) -> widgets.Layout:
    """The (shared) layout of a quiz's buttons; ``hidden``: not shown to start with."""
    return looks.layout(
        width="auto", min_width="5.5em", margin="0.15em 0.4em 0.15em 0",
        display=HIDDEN if hidden else None,
    )  # fmt: skip


def quiz_button(
    description: str = "",
    tooltip: str = "",
    *,
    classes: Sequence[str] = (),
    hidden: bool = False,
    toggle: bool = False,
    **options: Any,
) -> widgets.Button | widgets.ToggleButton:
    """A quiz's button (``toggle``: a toggle button) made whole at once: its words, CSS
    ``classes`` and shared look travel in the one message that opens it."""
    kind = widgets.ToggleButton if toggle else widgets.Button
    return kind(
        description=description,
        tooltip=tooltip,
        layout=button_layout(hidden=hidden),
        style=looks.style(kind),
        _dom_classes=tuple(classes),
        **options,
    )


def column_layout() -> widgets.Layout:
    """A card above its button (ipywidgets 8's Layout has no flex gap: margins space them)."""
    return looks.layout(align_items="center", margin="0 0.5em 0.5em 0")


def card_column(
    picture: widgets.HTML, verdict: widgets.HTML, button: widgets.Widget
) -> widgets.VBox:
    """A card's picture, its verdict line and its button, the whole of it pressing the
    button (QUIZ_CSS)."""
    return widgets.VBox(
        [picture, verdict, button], layout=column_layout(), _dom_classes=(CARD_CHOICE_CLASS,)
    )


def verdict_line() -> widgets.HTML:
    """The words under a card once an answer is checked (hidden while empty)."""
    return html_widget(classes=(f"{QUIZ_CLASS}-verdict",), layout=looks.layout(display=HIDDEN))


def say_verdict(line: widgets.HTML, words: str) -> None:
    with line.hold_sync():  # its words and whether it shows: one message
        line.value = f"<div>{words}</div>" if words else ""
        set_visible(line, bool(words))


def mark_button(button: widgets.Button | widgets.ToggleButton, style: str) -> None:
    """Colour an answer's button by its verdict (``success``, ``danger``, ``warning``; ``""``
    leaves it plain); the marked class keeps that colour once the quiz locks (QUIZ_CSS)."""
    with button.hold_sync():
        button.button_style = style
        if style:
            button.add_class(f"{QUIZ_CLASS}-marked")


def unmark(button: widgets.Button | widgets.ToggleButton) -> None:
    """Take back :func:`mark_button`."""
    with button.hold_sync():
        button.button_style = ""
        button.remove_class(f"{QUIZ_CLASS}-marked")
