"""Presenter mode, the display layer's side: how a page marks what a projected slide
holds back until the next press.

The page script (``static/tutor.js`` of the app's template) shows a page one slide at a
time, scaled to the screen. It knows no rule: what a slide asks the room, and the answer
it holds back, are written here into the HTML from the engine's data, as classes the script
and its style sheet (``tutor.css``) know by these names:

- :data:`SLIDE`: an output holding it is a slide of its own (nothing before or after it
  joins it).
- :data:`PRESENT_ONLY`: shown only while presenting (the question put to the room); hidden
  by an inline style everywhere else, so a learner's page and JupyterLab never show it.
- :data:`LEARNER_ONLY`: hidden while presenting (words that repeat what the slide shows).
- :data:`ANSWER`: held back while presenting until the next press reveals it.
- :data:`REVEAL_STACK`: an answer picture and the picture shown before it
  (:data:`BEFORE_REVEAL`, presenting only) in one place, so nothing moves at the reveal.

>>> print(reveal_stack("<p>?</p>", "<p>C</p>"))
<div class="tutor-reveal-stack"><div class="tutor-before-reveal tutor-present-only" style="display:none"><p>?</p></div><div class="tutor-answer"><p>C</p></div></div>
"""

from __future__ import annotations

from html import escape

SLIDE = "tutor-slide"
PRESENT_ONLY = "tutor-present-only"
LEARNER_ONLY = "tutor-learner-only"
ANSWER = "tutor-answer"
BEFORE_REVEAL = "tutor-before-reveal"
REVEAL_STACK = "tutor-reveal-stack"

_HIDDEN = ' style="display:none"'


def _classes(*names: str) -> str:
    return " ".join(name for name in names if name)


def present_only(html: str, *, tag: str = "div", klass: str = "") -> str:
    """``html`` shown only while presenting.

    >>> present_only("Who takes this trick?", tag="p", klass="tutor-ask")
    '<p class="tutor-present-only tutor-ask" style="display:none">Who takes this trick?</p>'
    """
    return f'<{tag} class="{_classes(PRESENT_ONLY, klass)}"{_HIDDEN}>{html}</{tag}>'


def learner_only(html: str, *, tag: str = "div", klass: str = "") -> str:
    """``html`` shown everywhere except on a presenter's slide."""
    return f'<{tag} class="{_classes(LEARNER_ONLY, klass)}">{html}</{tag}>'


def answer(html: str, *, tag: str = "div", klass: str = "") -> str:
    """``html`` that a presenter's slide holds back until the next press."""
    return f'<{tag} class="{_classes(ANSWER, klass)}">{html}</{tag}>'


def reveal_stack(before: str, after: str) -> str:
    """``after`` (the answer: a picture with the engine's answer marked) held back while
    presenting, with ``before`` (the same picture without the answer) in its place until
    the reveal. Outside presenting only ``after`` shows."""
    return (
        f'<div class="{REVEAL_STACK}">'
        f'<div class="{BEFORE_REVEAL} {PRESENT_ONLY}"{_HIDDEN}>{before}</div>'
        f"{answer(after)}</div>"
    )


def text_html(words: str) -> str:
    """Plain text as HTML: each line a line, a run of ``- `` lines a bulleted list.

    >>> text_html("You may play: blue 7.\\n- blue 7: follows.\\n- red 12: <no>")
    '<p>You may play: blue 7.</p><ul><li>blue 7: follows.</li><li>red 12: &lt;no&gt;</li></ul>'
    >>> text_html("Trump: red.\\nThe winner is C.")
    '<p>Trump: red.<br>The winner is C.</p>'
    """
    blocks: list[str] = []
    lines: list[str] = []
    items: list[str] = []

    def flush() -> None:
        if lines:
            blocks.append("<p>" + "<br>".join(lines) + "</p>")
            lines.clear()
        if items:
            blocks.append("<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>")
            items.clear()

    for line in words.splitlines():
        if line.startswith("- "):
            if lines:
                flush()
            items.append(escape(line[2:], quote=False))
        elif line.strip():
            if items:
                flush()
            lines.append(escape(line, quote=False))
    flush()
    return "".join(blocks)
