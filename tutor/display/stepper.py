"""A Next/Back stepper widget, and the worked example shown through it.

:class:`Stepper` knows no rule: it shows page ``i`` of a sequence, drawn by a function it
is given, with Back and Next buttons and one back to the first step (keyboard: Tab to
them and press Enter or Space; in the app, the left and right arrow keys too, see
``app/``) and a presenter mode (one step per screen, large cards) for a projector.
:class:`KeptPlace` keeps the step a learner reached in their progress, so the page opens
there again. :func:`worked_example_stepper` draws the steps that
:mod:`tutor.teaching.worked_example` computed with the engine.

The widget is built on ipywidgets only when it is displayed, so this module imports (and
its doctests run) without a kernel.

>>> stepper = Stepper(3, lambda index, present: f"<p>page {index}</p>")
>>> stepper.index, stepper.page_html()
(0, '<p>page 0</p>')
>>> stepper.next(); stepper.next(); stepper.next(); stepper.index
2
>>> stepper.go(7)
Traceback (most recent call last):
...
ValueError: no step 7: steps are 0 to 2
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from tutor.display.context import page_context
from tutor.display.html import (
    HEAD_STYLE,
    KEYS_HINT_CLASS,
    KEYS_HINT_CSS,
    format_points,
    score_sheet_html,
    scroll_box,
)
from tutor.display.presenter import worked_step_slide
from tutor.display.table import scene_from_step, table_html
from tutor.display.widgets import html_widget
from tutor.display.words import words_html
from tutor.teaching.progress import Progress, ProgressState
from tutor.teaching.text import DEFAULT_LANGUAGE, text
from tutor.teaching.worked_example import Step, StepKind, WorkedExample, worked_example

PageRenderer = Callable[[int, bool], str]
"""Draws page ``index`` as HTML; the flag asks for presenter size."""

STEPPER_CLASS = "tutor-stepper"
NEXT_CLASS = "tutor-step-next"
BACK_CLASS = "tutor-step-back"
FIRST_CLASS = "tutor-step-first"
PRESENT_CLASS = "tutor-present"

CONTROLS_CLASS = "tutor-step-controls"
POSITION_CLASS = "tutor-step-position"
PAGE_CLASS = "tutor-step-page"

# Sizes only; the page keeps its own colours so light and dark themes both work. The
# control row comes first and sticks to the top of the window while the step scrolls: Next
# is in the same place on every step, and in reach on a phone without scrolling back.
STEPPER_CSS = f"""
<style>
.{STEPPER_CLASS} {{ max-width: 72rem; overflow: visible; }}
/* Sticking needs every box between the row and the page's scroller to let it out. */
.jp-OutputArea:has(.{STEPPER_CLASS}), .jp-OutputArea-child:has(.{STEPPER_CLASS}),
.jp-OutputArea-output:has(.{STEPPER_CLASS}) {{ overflow: visible; }}
.{STEPPER_CLASS} .{CONTROLS_CLASS} {{ position: sticky; top: 0; z-index: 30;
  background: var(--jp-layout-color0, #ffffff); padding: 0.3rem 0;
  border-bottom: 1px solid var(--jp-border-color2, #d0d0d0); }}
.{STEPPER_CLASS} .{PAGE_CLASS} .widget-html-content {{ font-size: 1rem; line-height: 1.45; }}
.{STEPPER_CLASS} .{PAGE_CLASS} h3 {{ font-size: 1.25em; margin: 0.4em 0 0.4em; }}
.{STEPPER_CLASS} .{POSITION_CLASS} {{ font-variant-numeric: tabular-nums;
  min-width: 9em; }}
.{STEPPER_CLASS} .{CONTROLS_CLASS} button.jupyter-button {{ min-width: 7rem; height: 2.4rem;
  margin: 0 0.8rem 0 0; }}
.{STEPPER_CLASS} button.tutor-present-toggle {{ width: auto; margin-left: auto; }}
.{STEPPER_CLASS} .tutor-step-keys {{ opacity: 0.85; }}
/* Presenter mode: the step is laid out in px at a 16 px base, at most 820 x 425 px, and the
   presenter magnifies it to the projector (see the presenter's contract in the notes). */
.{STEPPER_CLASS}.{PRESENT_CLASS} {{ max-width: none; }}
.{STEPPER_CLASS}.{PRESENT_CLASS} .{PAGE_CLASS} .widget-html-content {{ font-size: 16px; }}
@media (max-width: 480px) {{
  /* A phone: one short row (a projector mode has no use there). */
  .{STEPPER_CLASS} .{CONTROLS_CLASS} button.jupyter-button {{ width: auto; min-width: 6rem;
    margin-right: 0.5rem; }}
  .{STEPPER_CLASS} .{POSITION_CLASS} {{ min-width: 0; }}
  .{STEPPER_CLASS} button.tutor-present-toggle {{ display: none; }}
}}
</style>
"""


class Stepper:
    """Page ``index`` of ``count`` pages, drawn by ``render(index, present)``, with Back
    and Next buttons, the position ("Step 3 of 20") and a presenter-mode toggle.

    >>> stepper = Stepper(20, lambda index, present: f"<p>{index} {present}</p>", start=2)
    >>> stepper.position_text(), stepper.page_html()
    ('Step 3 of 20', '<p>2 False</p>')
    >>> stepper.set_present(True); stepper.back(); stepper.page_html()
    '<p>1 True</p>'
    """

    def __init__(
        self,
        count: int,
        render: PageRenderer,
        *,
        start: int = 0,
        present: bool = False,
        lang: str = DEFAULT_LANGUAGE,
        keys: bool = True,
    ) -> None:
        if not isinstance(count, int) or count < 1:
            raise ValueError(f"a stepper needs at least one step, got count={count!r}")
        self.count = count
        self.render = render
        self.lang = lang
        self.present = present
        self.keys = keys  # the app's arrow keys (tutor.js): JupyterLab has none to offer
        self._cache: dict[tuple[int, bool], str] = {}
        self._widget: Any = None
        self._step_callbacks: list[Callable[[int], None]] = []
        self.index = 0
        self.go(start)

    def on_step(self, callback: Callable[[int], None], *, remove: bool = False) -> None:
        """Register (or remove) ``callback(index)``, called at each step chosen, just
        before it is drawn: what a callback keeps (the step reached, the page finished)
        is sent before the learner sees the step, so a reload as it shows finds it.

        >>> stepper = Stepper(2, lambda index, present: "")
        >>> stepper.on_step(lambda index: print(index, stepper.at_last_step))
        >>> stepper.next()
        1 True
        """
        if remove:
            self._step_callbacks.remove(callback)
        else:
            self._step_callbacks.append(callback)

    @property
    def at_last_step(self) -> bool:
        """Whether the last page is shown."""
        return self.index == self.count - 1

    def page_html(self, index: int | None = None) -> str:
        """The HTML of page ``index`` (default: the current one), drawn once and kept."""
        chosen = self.index if index is None else index
        key = (chosen, self.present)
        if key not in self._cache:
            self._cache[key] = self.render(chosen, self.present)
        return self._cache[key]

    def go(self, index: int) -> None:
        """Show page ``index``."""
        if not isinstance(index, int) or not 0 <= index < self.count:
            raise ValueError(f"no step {index!r}: steps are 0 to {self.count - 1}")
        self.index = index
        for callback in list(self._step_callbacks):
            callback(index)
        self._refresh()

    def next(self) -> None:
        """One page forward (nothing at the last page)."""
        if self.index + 1 < self.count:
            self.go(self.index + 1)

    def back(self) -> None:
        """One page back (nothing at the first page)."""
        if self.index > 0:
            self.go(self.index - 1)

    def first(self) -> None:
        """Back to the first page (nothing there)."""
        if self.index > 0:
            self.go(0)

    def set_present(self, present: bool) -> None:
        """Switch presenter mode (one step per screen, large cards) on or off."""
        self.present = bool(present)
        self._refresh()

    def position_text(self) -> str:
        """ "Step 3 of 20", in the learner's language."""
        return text("stepper.position", self.lang, number=self.index + 1, total=self.count)

    # -- the widget ---------------------------------------------------------------------

    @property
    def widget(self) -> Any:
        """The ipywidgets box (built on first use)."""
        if self._widget is None:
            self._widget = self._build()
            self._refresh()
        return self._widget

    def _build(self) -> Any:
        import ipywidgets as widgets

        lang = self.lang
        self._back = widgets.Button(
            description=text("stepper.back", lang),
            tooltip=text("stepper.back-tip", lang) if self.keys else "",
        )
        self._next = widgets.Button(
            description=text("stepper.next", lang),
            tooltip=text("stepper.next-tip", lang) if self.keys else "",
            button_style="primary",
        )
        self._back.add_class(BACK_CLASS)
        self._next.add_class(NEXT_CLASS)
        self._back.on_click(lambda _button: self.back())
        self._next.on_click(lambda _button: self.next())
        # A page that opens where the learner left it needs a way back to its start.
        self._first = widgets.Button(description=text("stepper.first", lang))
        self._first.add_class(FIRST_CLASS)
        self._first.on_click(lambda _button: self.first())
        self._present_toggle = widgets.ToggleButton(
            value=self.present,
            description=text("stepper.present", lang),
            tooltip=text("stepper.present-tip", lang),
        )
        self._present_toggle.add_class("tutor-present-toggle")
        self._present_toggle.observe(lambda change: self.set_present(change["new"]), names="value")
        self._position = html_widget()
        self._position.add_class(POSITION_CLASS)
        self._page = html_widget()
        self._page.add_class(PAGE_CLASS)
        keys = html_widget(f"<small>{escape(text('stepper.keys', lang))}</small>")
        keys.add_class("tutor-step-keys")
        keys.add_class(KEYS_HINT_CLASS)
        # Back and Next first, each of a fixed width: Next never moves (the position text
        # after it changes width from "Step 9" to "Step 10").
        controls = widgets.HBox(
            [self._back, self._next, self._position, self._first, self._present_toggle],
            layout=widgets.Layout(align_items="center", flex_flow="row wrap"),
        )
        controls.add_class(CONTROLS_CLASS)
        style = html_widget(STEPPER_CSS + KEYS_HINT_CSS)
        box = widgets.VBox([style, controls, self._page, *([keys] if self.keys else [])])
        box.add_class(STEPPER_CLASS)
        return box

    def add_below(self, widget: Any) -> None:
        """Show ``widget`` under the steps, inside the stepper: its control row sticks to
        the top of the stepper's box, so Back and Next stay in reach while it is read."""
        children = list(self.widget.children)
        at = children.index(self._page) + 1
        self.widget.children = (*children[:at], widget, *children[at:])

    def _refresh(self) -> None:
        if self._widget is None:
            return
        # The page region is announced to screen readers when it changes.
        self._page.value = f'<div aria-live="polite">{self.page_html()}</div>'
        self._position.value = f"<span>{escape(self.position_text())}</span>"
        self._back.disabled = self.index == 0
        self._first.disabled = self.index == 0
        self._next.disabled = self.index == self.count - 1
        if self._present_toggle.value != self.present:
            self._present_toggle.value = self.present
        if self.present:
            self._widget.add_class(PRESENT_CLASS)
        else:
            self._widget.remove_class(PRESENT_CLASS)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


class KeptPlace:
    """The step a learner reached on a stepped ``page``, kept in their ``progress`` (a
    step event at each move) and taken back when the page opens. The browser's store
    answers only once the page is drawn: the stepper goes to the kept step then, unless
    the learner moved first (their move wins). Taking the place back writes nothing.

    >>> from tutor.teaching.progress_stores import MemoryStore
    >>> progress = Progress(MemoryStore())
    >>> place = KeptPlace(Stepper(5, lambda index, present: ""), progress, "08_w")
    >>> place.stepper.next(); place.stepper.next(); len(progress.events)
    2
    >>> KeptPlace(Stepper(5, lambda index, present: ""), progress, "08_w").stepper.index
    2
    """

    def __init__(self, stepper: Stepper, progress: Progress, page: str) -> None:
        self.stepper = stepper
        self.progress = progress
        self.page = page
        self.restoring = False
        """True while the stepper goes to the kept step (its step callbacks can tell)."""
        self._settled = False  # the kept step was looked up, or the learner moved first
        stepper.on_step(self._moved)
        progress.observe(self._loaded)
        self._loaded(progress)

    def _loaded(self, progress: Progress) -> None:
        if self._settled or progress.state is ProgressState.LOADING:
            return
        self._settled = True  # a broken store has no place to give: the page stays at 1
        if progress.state is ProgressState.READY:
            index = progress.summary().open_at(self.page, self.stepper.count)
            if index != self.stepper.index:
                self.restoring = True
                try:
                    self.stepper.go(index)
                finally:
                    self.restoring = False

    def _moved(self, index: int) -> None:
        if self.restoring:
            return
        self._settled = True
        self.progress.record_step(self.page, index + 1, self.stepper.count)


# -- the worked example -------------------------------------------------------------------

WORKED_CSS = """
<style>
.tutor-worked-step { container-type: inline-size; }
.tutor-worked-step.is-big { font-size: 16px; }
/* Presenting, a step is laid out 820 px wide and magnified to the screen (tutor.js);
   on a page (the stepper's own Presenter mode) it takes the page's width. */
body.tutor-presenting .tutor-worked-step.is-big { width: 820px; max-width: 820px; }
.tutor-worked-step.is-big h3 { margin: 0 0 0.2em; font-size: 1.2em; }
.tutor-worked-body { display: grid; gap: 0.6rem 1.4rem; align-items: start;
  grid-template-columns: minmax(0, 5fr) minmax(14rem, 3fr); }
.tutor-worked-text p { margin: 0 0 0.5em; }
.tutor-worked-step .tutor-follow { font-weight: 600; }
@container (max-width: 720px) {
  .tutor-worked-body { grid-template-columns: minmax(0, 1fr); }
}
.tutor-worked-step.is-big .tutor-worked-body { grid-template-columns: 480px minmax(0, 1fr); }
</style>
"""


def worked_step_html(
    example: WorkedExample, step: Step, *, present: bool = False, lang: str = DEFAULT_LANGUAGE
) -> str:
    """One step of the worked example as HTML: its title, the card table as it stands
    (:mod:`tutor.display.table`: every hand face up, the card just played ringed in
    front of its player, a complete trick's winner marked) beside the sentences, or, for
    a step with scores, its score tables. ``present`` draws the table large.

    >>> example = worked_example()
    >>> page = worked_step_html(example, example.steps[6])
    >>> from tutor.display.words import words_html
    >>> words_html("C takes the trick with blue 11") in page, "★ takes the trick" in page
    (True, True)
    """
    if present:  # presenter mode: a step that asks the room holds its answer back
        slide = worked_step_slide(example, step, lang=lang)
        if slide is not None:
            return slide
    size = " is-big" if present else ""
    parts = [WORKED_CSS, f'<section class="tutor-worked-step step-{step.kind.value}{size}">']
    parts.append(f"<h3>{escape(step.title)}</h3>")
    sentences = []
    for index, sentence in enumerate(step.sentences):
        klass = "tutor-follow" if step.kind is StepKind.PLAY and index == 0 else "tutor-reason"
        sentences.append(f'<p class="{klass}">{words_html(sentence)}</p>')
    if step.sheet is not None:
        parts += sentences
        parts.append(score_sheet_html(step.sheet, lang=lang))
    elif step.score_lines:
        parts += sentences
        parts.append(round_scores_html(step, lang=lang))
    else:
        table = table_html(scene_from_step(example, step), big=present, lang=lang)
        parts.append(
            '<div class="tutor-worked-body">'
            f'<div class="tutor-worked-table">{table}</div>'
            f'<div class="tutor-worked-text">{"".join(sentences)}</div></div>'
        )
    parts.append("</section>")
    return "".join(parts)


def round_scores_html(step: Step, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The round's scores as a table: player, bid, tricks taken, points and how; it
    scrolls sideways inside itself on a narrow screen, and its headers never break inside
    a word.

    >>> example = worked_example()
    >>> page = round_scores_html(example.steps[-2])
    >>> page.count("<tr"), "−10" in page, "keep-all" in page
    (5, True, True)
    """
    cell = "padding:0.2em 0.6em;border:1px solid #8a8a8a"
    heads = "".join(
        f'<th scope="col" style="{HEAD_STYLE}">{escape(text(f"worked.{key}", lang))}</th>'
        for key in ("player", "bid", "taken-head", "points", "formula")
    )
    rows = "".join(
        f'<tr class="seat-{seat}"><th scope="row" style="{HEAD_STYLE}">{escape(line.player)}</th>'
        f'<td class="bid" style="{cell};text-align:right">{line.bid}</td>'
        f'<td class="taken" style="{cell};text-align:right">{line.taken}</td>'
        f'<td class="points" style="{cell};text-align:right;white-space:nowrap">'
        f"{format_points(line.points, signed=True)}</td>"
        f'<td class="formula" style="{cell};min-width:14em">{escape(line.formula)}</td></tr>'
        for seat, line in enumerate(step.score_lines)
    )
    caption = text("worked.scores-caption", lang)
    return scroll_box(
        '<table class="round-scores" style="border-collapse:collapse;margin:0.5em 0">'
        f'<caption style="text-align:left;font-weight:600">{escape(caption)}</caption>'
        f"<thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>",
        label=caption,
    )


def worked_example_stepper(
    *,
    present: bool | None = None,
    start: int = 0,
    lang: str = DEFAULT_LANGUAGE,
    keys: bool = True,
) -> Stepper:
    """The worked example of RULES.md in a stepper (presenter mode if ``present``, or,
    by default, if the page was opened with ``?present=1``); ``keys=False`` where the
    app's arrow keys do not exist (JupyterLab).

    >>> stepper = worked_example_stepper(present=False)
    >>> stepper.count, "Round 3: the deal" in stepper.page_html()
    (21, True)
    """
    example = worked_example(lang)

    def render(index: int, big: bool) -> str:
        return worked_step_html(example, example.steps[index], present=big, lang=lang)

    return Stepper(
        len(example.steps),
        render,
        start=start,
        present=page_context().presenting if present is None else present,
        lang=lang,
        keys=keys,
    )
