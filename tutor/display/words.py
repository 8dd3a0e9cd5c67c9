"""Words as HTML: escaped, and what must stay on one line kept on one.

The teaching layer's words are plain text. A card's name in them ("黄の1", "blue 11",
"ウィザード") and a Latin word among Japanese or Chinese words are one thing each
(:func:`tutor.teaching.explain.unbroken_parts`): :func:`words_html` puts each in a span
that never wraps, so no rule of a narrow column (Japanese phrases, a word broken where it
overflows) splits it over two lines.
"""

from __future__ import annotations

from html import escape

from tutor.teaching.explain import unbroken_parts

UNBROKEN_CLASS = "tutor-unbroken"
"""The class of a span whose words stay on one line (a card's name)."""


def words_html(words: str) -> str:
    """Plain words as HTML content: escaped (quotes stay as they are: they are text, not
    markup), each card's name, and each Latin word among Japanese or Chinese words, in a
    span that never wraps.

    >>> words_html("C takes the trick with blue 11 & wins.")
    'C takes the trick with <span class="tutor-unbroken" style="white-space:nowrap">blue 11</span> &amp; wins.'
    >>> words_html("Cが黄の1で取ります。").count("white-space:nowrap")
    1
    >>> words_html('"Wizard" <b>')
    '"Wizard" &lt;b&gt;'
    """
    html = ""
    start = 0
    for begin, end in unbroken_parts(words):
        html += (
            f"{escape(words[start:begin], quote=False)}"
            f'<span class="{UNBROKEN_CLASS}" style="white-space:nowrap">'
            f"{escape(words[begin:end], quote=False)}</span>"
        )
        start = end
    return html + escape(words[start:], quote=False)
