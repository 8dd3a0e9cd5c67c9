"""The play screen's look: its CSS classes and style, and the small parts every piece of
the screen is built from (an action button, an HTML part, a heading, a paragraph, a list).

The style is one block for the whole screen (:data:`PLAY_CSS`): the table, the actions, the
hand and the side panel share one grid, which lays them out for a laptop or a phone.
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets

from tutor.display.widgets import html_widget

PLAY_CLASS = "tutor-play"
"""CSS class of the screen; its parts add a suffix (``-message``, ``-table``, ...)."""
CARD_CLASS = "tutor-card-button"
"""CSS class of a card in the learner's hand (a button); ``is-illegal`` marks a card the
rules do not allow now."""

TABLE_STYLE = "border-collapse:collapse;font-variant-numeric:tabular-nums;margin:0.4em 0"
CELL_STYLE = "padding:0.2em 0.6em;border:1px solid #8a8a8a;text-align:right"
HEADING_STYLE = "font-size:1.05em;margin:0.6em 0 0.2em"

# The page keeps its own colours (light and dark themes); the table and the cards keep
# theirs. On a wide box (a laptop) the table, the actions and the hand sit left of a side
# panel: table, hand and controls fit 1280 x 800 without scrolling. On a narrow box (a
# phone) everything stacks: status, table, actions, hand, then the side panel.
PLAY_CSS = f"""
<style>
.{PLAY_CLASS} {{ container-type: inline-size; max-width: 84rem; }}
.{PLAY_CLASS} .{PLAY_CLASS}-main {{
  --hand-w: 74px; --hand-h: 100px; --hand-basis: 30px; --hand-step: 80px; }}
.{PLAY_CLASS} .widget-html-content {{ line-height: 1.4; }}
.{PLAY_CLASS} .{PLAY_CLASS}-top {{ align-items: center; gap: 0.6rem; flex-wrap: wrap; }}
.{PLAY_CLASS} .{PLAY_CLASS}-status {{ flex: 1 1 20rem; min-width: 0; }}
.{PLAY_CLASS} .{PLAY_CLASS}-status p {{ margin: 0; }}
.{PLAY_CLASS} .{PLAY_CLASS}-settings {{ border: 1px solid #8a8a8a; border-radius: 0.3rem;
  padding: 0.3rem 0.6rem; margin-bottom: 0.4rem; }}
.{PLAY_CLASS} .{PLAY_CLASS}-main {{ display: grid; gap: 0.2rem 1rem;
  grid-template-columns: minmax(0, 1fr);
  grid-template-areas: "table" "act" "message" "hand" "side"; }}
.{PLAY_CLASS} .{PLAY_CLASS}-table {{ grid-area: table; min-width: 0; }}
.{PLAY_CLASS} .{PLAY_CLASS}-act {{ grid-area: act; min-width: 0; }}
.{PLAY_CLASS} .{PLAY_CLASS}-handarea {{ grid-area: hand; min-width: 0; }}
.{PLAY_CLASS} .{PLAY_CLASS}-side {{ grid-area: side; min-width: 0; }}
.{PLAY_CLASS} .{PLAY_CLASS}-side h3 {{ font-size: 1rem; margin: 0.5rem 0 0.2rem; }}
/* A narrow column of Japanese or Chinese: lines break between phrases (Japanese) or at
   punctuation, never inside a word (ラウンド, 新しいゲーム), and inside one only if it is
   longer than the line; so do the headers of the coach's table, which fits the column. */
.{PLAY_CLASS} .{PLAY_CLASS}-side {{ word-break: keep-all; overflow-wrap: anywhere; }}
.{PLAY_CLASS} .{PLAY_CLASS}-side th {{ overflow-wrap: anywhere !important; }}
.{PLAY_CLASS} .{PLAY_CLASS}-side:lang(ja),
.{PLAY_CLASS} .{PLAY_CLASS}-side:lang(ja) th {{ word-break: auto-phrase !important; }}
/* How a player scores wraps between words (between phrases in Japanese), never inside. */
.{PLAY_CLASS} .{PLAY_CLASS}-how td {{ word-break: keep-all; overflow-wrap: anywhere; }}
.{PLAY_CLASS} .{PLAY_CLASS}-how td:lang(ja) {{ word-break: auto-phrase; }}
.{PLAY_CLASS} .{PLAY_CLASS}-side ul {{ margin: 0.2em 0; padding-left: 1.2em; }}
/* The last trick of five or six players is drawn smaller to fit the column, not cut. */
.{PLAY_CLASS} .{PLAY_CLASS}-side svg {{ max-width: 100%; height: auto; }}
.{PLAY_CLASS} .{PLAY_CLASS}-actions {{ flex-wrap: wrap; align-items: center; }}
.{PLAY_CLASS} .{PLAY_CLASS}-message {{ grid-area: message; min-width: 0; }}
.{PLAY_CLASS} .{PLAY_CLASS}-prompt p {{ margin: 0.15rem 0; }}
.{PLAY_CLASS} .{PLAY_CLASS}-message .widget-html-content {{ font-size: 1.02em; }}
.{PLAY_CLASS} button.jupyter-button {{ margin-right: 0.4rem; }}
.{PLAY_CLASS} .{PLAY_CLASS}-hand {{ display: flex; flex-wrap: wrap; justify-content: center;
  align-items: flex-end; padding: 0.75rem 2.4rem 0.2rem 0.2rem; row-gap: 0.5rem; }}
.{PLAY_CLASS} .{PLAY_CLASS}-hand > .widget-html {{ display: none; }}
.{PLAY_CLASS} button.{CARD_CLASS} {{ position: relative; flex: 1 1 var(--hand-basis);
  max-width: var(--hand-step); min-width: 0; width: auto; height: var(--hand-h);
  padding: 0; margin: 0; border: none; background: none; box-shadow: none;
  overflow: visible; color: transparent; font-size: 1px; cursor: pointer; opacity: 1; }}
.{PLAY_CLASS} button.{CARD_CLASS}:hover, .{PLAY_CLASS} button.{CARD_CLASS}:active,
.{PLAY_CLASS} button.{CARD_CLASS}:focus {{ box-shadow: none; background: none; }}
.{PLAY_CLASS} button.{CARD_CLASS}::before {{ content: ""; position: absolute; left: 0; top: 0;
  width: var(--hand-w); height: var(--hand-h); background: var(--face) center / contain no-repeat;
  border-radius: 8px; transition: transform 0.12s ease-out; }}
.{PLAY_CLASS} button.{CARD_CLASS}:disabled {{ cursor: default; opacity: 1; }}
.{PLAY_CLASS} button.{CARD_CLASS}:not(:disabled):not(.is-illegal):hover,
.{PLAY_CLASS} button.{CARD_CLASS}:focus-visible {{ z-index: 5; }}
.{PLAY_CLASS} button.{CARD_CLASS}:not(:disabled):not(.is-illegal):hover::before,
.{PLAY_CLASS} button.{CARD_CLASS}:focus-visible::before {{ transform: translateY(-12px); }}
/* The focus ring goes round the card's picture, not round the button's narrow strip. */
.{PLAY_CLASS} button.{CARD_CLASS}:focus,
.{PLAY_CLASS} button.{CARD_CLASS}:focus-visible {{ outline: none !important; }}
.{PLAY_CLASS} button.{CARD_CLASS}:focus-visible::before {{
  outline: 3px solid var(--tutor-focus, #1a56db); outline-offset: 1px; }}
.{PLAY_CLASS} button.{CARD_CLASS}.is-illegal {{ cursor: not-allowed; }}
.{PLAY_CLASS} button.{CARD_CLASS}.is-illegal::before {{
  filter: grayscale(0.85) brightness(1.12) contrast(0.6); }}
.{PLAY_CLASS} button.{CARD_CLASS}.is-illegal::after {{ content: "✕"; position: absolute;
  left: 3px; bottom: 6px; width: 22px; height: 22px; border-radius: 50%;
  display: flex; align-items: center; justify-content: center; font: 700 15px/1 sans-serif;
  color: #ffffff; background: #b3261e; border: 2px solid #ffffff; }}
@container (min-width: 900px) {{
  /* The verdict on the learner's move heads the side panel, level with the table. The
     panel runs down beside the table, the actions and the hand, and shows all it holds
     (no box that scrolls and cuts words off): a long panel adds room under the hand,
     never between the table and the hand (it spans the last, flexible row, so the other
     rows are sized without it). */
  .{PLAY_CLASS} .{PLAY_CLASS}-main {{ grid-template-columns: minmax(0, 1fr) 22rem;
    grid-template-rows: auto auto auto auto 1fr;
    grid-template-areas: "table message" "table side" "act side" "hand side" ". side"; }}
  .{PLAY_CLASS} .{PLAY_CLASS}-side {{ align-self: start; }}
}}
@container (max-width: 560px) {{
  /* the round's results in a phone's width: tighter cells, and Japanese headers broken
     between phrases (取った / トリック), never inside a word */
  .{PLAY_CLASS} .{PLAY_CLASS}-results th, .{PLAY_CLASS} .{PLAY_CLASS}-results td {{
    padding: 0.2em 0.3em !important; }}
  .{PLAY_CLASS} .{PLAY_CLASS}-results th:lang(ja) {{ word-break: auto-phrase !important; }}
  .{PLAY_CLASS} .{PLAY_CLASS}-main {{
    --hand-w: 56px; --hand-h: 76px; --hand-basis: 40px; --hand-step: 60px; }}
  .{PLAY_CLASS} .{PLAY_CLASS}-hand {{ padding-right: 1.4rem; }}
}}
</style>
"""


def action_button(description: str, tooltip: str, *, primary: bool = False) -> widgets.Button:
    """A button of the play screen's actions (Undo, a bid, Start, ...), as wide as its words."""
    return widgets.Button(
        description=description,
        tooltip=tooltip,
        button_style="primary" if primary else "",
        layout=widgets.Layout(width="auto", min_width="6em", margin="0.15em 0.4em 0.15em 0"),
    )


def html_part(value: str = "", *, klass: str = "") -> widgets.HTML:
    """An HTML widget of the play screen, with the CSS class ``klass`` if given."""
    widget = html_widget(value)
    if klass:
        widget.add_class(klass)
    return widget


def heading_html(words: str) -> str:
    """A heading of the side panel or the replay."""
    return f'<h3 style="{HEADING_STYLE}">{escape(words)}</h3>'


def paragraph_html(words: str, *, klass: str = "") -> str:
    """One paragraph of the screen's words, escaped."""
    attribute = f' class="{klass}"' if klass else ""
    return f'<p{attribute} style="margin:0.25em 0">{escape(words, quote=False)}</p>'


def lines_html(lines: list[str], *, klass: str) -> str:
    """``lines`` as a bulleted list (what happened since the learner's move, the story)."""
    items = "".join(f"<li>{escape(line, quote=False)}</li>" for line in lines)
    return f'<ul class="{klass}" style="margin:0.2em 0;padding-left:1.4em">{items}</ul>'
