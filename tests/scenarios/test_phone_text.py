"""Japanese and Chinese text on a phone breaks where a reader expects: no line of a lesson
starts with a prolonged sound mark, a small kana or closing punctuation (on a 390 px phone
the heading "フォローできるなら必ずフォロー" once broke before its last "ー"), and a
Japanese heading breaks between phrases, not inside a word. The text is in the lesson's
language as the browser sees it (screen readers, fonts, line breaking): the page's in the app
and the site, the lesson's output area in JupyterLab, whose own page stays Lab's. And a score sheet's
caption stays readable while its table scrolls sideways. In every host: a narrow Lab panel
wraps the lesson's text as a phone does."""

from __future__ import annotations

from typing import Any

import pytest

from .hosts import Host

PHONE = {"width": 390, "height": 844}

NO_LINE_STARTS_WITH = set("ーァィゥェォッャュョヮヵヶぁぃぅぇぉっゃゅょゎ、。，．）」』】！？：；")
"""Characters a Japanese or Chinese line never starts with (the kinsoku rule)."""

LINE_STARTS = """
(root) => {
  // Each text block's lines, as the text each line starts with: a new line begins where a
  // character's box sits lower than the one before it.
  const blocks = root.querySelectorAll("h1, h2, h3, h4, p, li");
  const found = [];
  for (const block of blocks) {
    if (!block.offsetParent) continue; // hidden: not drawn
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    let lastTop = null;
    const lines = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.data.length; i++) {
        if (/\\s/.test(node.data[i])) continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getBoundingClientRect();
        if (box.height === 0) continue;
        if (lastTop === null || box.top > lastTop + box.height / 2) {
          lines.push(node.data.slice(i, i + 8));
        }
        lastTop = box.top;
      }
    }
    // the language the browser gives the text (assistive tech, fonts, line breaking)
    const lang = (block.closest("[lang]") || {}).lang || "";
    found.push({tag: block.tagName, text: block.textContent.trim().slice(0, 40), lines, lang});
  }
  return found;
}
"""


def _blocks(host: Host, page: Any, notebook: str, lang: str) -> list[dict[str, Any]]:
    # Opened as on a desktop, then narrowed (Lab at 390 px hides the kernel's status in its
    # toolbar, which its harness reads): the same text at the same width in every host.
    host.open(page, notebook, lang=lang)
    host.narrow(page, PHONE)
    blocks: list[dict[str, Any]] = host.content(page).evaluate(LINE_STARTS)
    assert blocks, "no text on the page"
    # BCP 47: "zh-Hant" is the lesson's; the browser's :lang(zh) matches it
    wrong = [(b["tag"], b["text"], b["lang"]) for b in blocks if b["lang"] != lang]
    assert not wrong, f"text not in the lesson's language {lang!r}: {wrong[:5]}"
    return blocks


@pytest.mark.parametrize("lang", ["ja", "zh-Hant"])
def test_no_line_of_a_lesson_starts_with_a_mark_that_must_not_start_a_line(
    host: Host, page: Any, lang: str
) -> None:
    blocks = _blocks(host, page, "04_follow_suit.ipynb", lang)
    wrapped = [block for block in blocks if len(block["lines"]) > 1]
    assert wrapped, f"no text of the page wraps at {PHONE['width']} px: nothing was checked"
    bad = [
        (block["tag"], block["text"], line)
        for block in wrapped
        for line in block["lines"][1:]
        if line[0] in NO_LINE_STARTS_WITH
    ]
    assert not bad, f"lines starting with a mark that must not start a line: {bad}"


def test_a_japanese_heading_breaks_between_phrases(host: Host, page: Any) -> None:
    blocks = _blocks(host, page, "04_follow_suit.ipynb", "ja")
    heading = next(b for b in blocks if b["text"].startswith("フォローできるなら"))
    # Two phrases, one per line: "フォローできるなら" / "必ずフォロー".
    assert [line[:2] for line in heading["lines"]] == ["フォ", "必ず"], heading


CAPTION_SHOWN = """
(box) => {
  // Where the caption's words are drawn, against the part of the box that shows: a word
  // past the box's edge is cut off (the box scrolls its table, its words scroll with it).
  const shown = box.getBoundingClientRect();
  const caption = box.querySelector("caption");
  const range = document.createRange();
  range.selectNodeContents(caption);
  const words = [...range.getClientRects()].filter((r) => r.width > 0);
  return {
    text: caption.textContent,
    cut: words.filter((r) => r.left < shown.left - 0.5 || r.right > shown.right + 0.5).length,
    lines: words.length,
    wide: box.scrollWidth > box.clientWidth,
  };
}
"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_score_sheets_caption_stays_readable_while_its_table_scrolls(
    host: Host, page: Any, lang: str
) -> None:
    """Lesson 07's score sheet on a phone: the table scrolls sideways in its own box, and
    its caption wraps within what the box shows, before and after the table is scrolled."""
    host.open(page, "07_scoring.ipynb", lang=lang)
    host.narrow(page, PHONE)
    box = host.content(page).locator(".tutor-scroll:has(.score-sheet)").first
    box.scroll_into_view_if_needed()
    for where in ("start", "end"):
        shown = box.evaluate(CAPTION_SHOWN)
        assert shown["wide"], f"the score sheet fits {PHONE['width']} px: nothing was checked"
        assert shown["lines"] and not shown["cut"], (where, shown)
        box.evaluate("box => { box.scrollLeft = box.scrollWidth; }")
