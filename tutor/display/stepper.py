"""A Next/Back stepper widget, and the worked example shown through it.

:class:`Stepper` knows no rule: it shows page ``i`` of a sequence, drawn by a function it
is given, with Back and Next buttons (keyboard: Tab to them and press Enter or Space; in
the app, the left and right arrow keys too, see ``app/``) and a presenter mode (one step
per screen, large cards) for a projector. :func:`worked_example_stepper` draws the steps
that :mod:`tutor.teaching.worked_example` computed with the engine.

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

import os
from collections.abc import Callable, Iterable
from html import escape
from typing import Any
from urllib.parse import parse_qs

from tutor.display.html import format_points, score_sheet_html
from tutor.display.svg import card_svg, hand_svg, trick_svg
from tutor.teaching.explain import card_name, suit_name
from tutor.teaching.text import DEFAULT_LANGUAGE, text
from tutor.teaching.worked_example import Step, StepKind, WorkedExample, worked_example

PageRenderer = Callable[[int, bool], str]
"""Draws page ``index`` as HTML; the flag asks for presenter size."""

PRESENT_PARAMETER = "present"
"""The URL query parameter (``?present=1``) that opens the app in presenter mode."""

STEPPER_CLASS = "tutor-stepper"
NEXT_CLASS = "tutor-step-next"
BACK_CLASS = "tutor-step-back"
PRESENT_CLASS = "tutor-present"

# Sizes only; the page keeps its own colours so light and dark themes both work.
STEPPER_CSS = f"""
<style>
.{STEPPER_CLASS} {{ max-width: 70rem; }}
.{STEPPER_CLASS} .tutor-step-page .widget-html-content {{ font-size: 1rem; line-height: 1.45; }}
.{STEPPER_CLASS} .tutor-step-page {{ min-height: 24rem; }}
.{STEPPER_CLASS} .tutor-step-page h3 {{ font-size: 1.25em; margin: 0.2em 0 0.4em; }}
.{STEPPER_CLASS} .tutor-step-page p {{ margin: 0.3em 0; }}
.{STEPPER_CLASS} .tutor-follow {{ font-weight: 600; }}
.{STEPPER_CLASS} .tutor-hands {{ display: flex; flex-wrap: wrap; gap: 0.4rem 1.5rem; }}
.{STEPPER_CLASS} .tutor-seat {{ margin: 0; }}
.{STEPPER_CLASS} .tutor-seat figcaption {{ font-weight: 600; }}
.{STEPPER_CLASS} .tutor-active figcaption {{ text-decoration: underline; }}
.{STEPPER_CLASS} .tutor-step-position {{ font-variant-numeric: tabular-nums; }}
.{STEPPER_CLASS} button.jupyter-button {{ min-width: 7rem; margin-right: 0.8rem; }}
.{STEPPER_CLASS} button.tutor-present-toggle {{ width: auto; }}
.{STEPPER_CLASS}.{PRESENT_CLASS} {{ max-width: none; }}
.{STEPPER_CLASS}.{PRESENT_CLASS} .tutor-step-page .widget-html-content {{ font-size: 1.6rem; }}
.{STEPPER_CLASS}.{PRESENT_CLASS} .tutor-step-page {{ min-height: 0; }}
.{STEPPER_CLASS}.{PRESENT_CLASS} table {{ font-size: 1.2rem; }}
.{STEPPER_CLASS}.{PRESENT_CLASS} button.jupyter-button {{
  font-size: 1.4rem; height: 3rem; min-width: 10rem; }}
.{STEPPER_CLASS}.{PRESENT_CLASS} .tutor-step-position .widget-html-content {{ font-size: 1.4rem; }}
</style>
"""


def presenter_requested(query: str | None = None) -> bool:
    """Whether the page was opened with ``?present=1`` (Voilà hands the query string to
    the kernel as ``QUERY_STRING``).

    >>> presenter_requested("present=1"), presenter_requested("present=0&x=1")
    (True, False)
    >>> presenter_requested("")
    False
    """
    if query is None:
        query = os.environ.get("QUERY_STRING", "")
    values = parse_qs(query).get(PRESENT_PARAMETER, [])
    return any(value.lower() in ("1", "true", "yes", "on") for value in values)


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
    ) -> None:
        if not isinstance(count, int) or count < 1:
            raise ValueError(f"a stepper needs at least one step, got count={count!r}")
        self.count = count
        self.render = render
        self.lang = lang
        self.present = present
        self._cache: dict[tuple[int, bool], str] = {}
        self._widget: Any = None
        self.index = 0
        self.go(start)

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
        self._refresh()

    def next(self) -> None:
        """One page forward (nothing at the last page)."""
        if self.index + 1 < self.count:
            self.go(self.index + 1)

    def back(self) -> None:
        """One page back (nothing at the first page)."""
        if self.index > 0:
            self.go(self.index - 1)

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
            description=text("stepper.back", lang), tooltip=text("stepper.back-tip", lang)
        )
        self._next = widgets.Button(
            description=text("stepper.next", lang),
            tooltip=text("stepper.next-tip", lang),
            button_style="primary",
        )
        self._back.add_class(BACK_CLASS)
        self._next.add_class(NEXT_CLASS)
        self._back.on_click(lambda _button: self.back())
        self._next.on_click(lambda _button: self.next())
        self._present_toggle = widgets.ToggleButton(
            value=self.present,
            description=text("stepper.present", lang),
            tooltip=text("stepper.present-tip", lang),
        )
        self._present_toggle.add_class("tutor-present-toggle")
        self._present_toggle.observe(lambda change: self.set_present(change["new"]), names="value")
        self._position = widgets.HTML()
        self._position.add_class("tutor-step-position")
        self._page = widgets.HTML()
        self._page.add_class("tutor-step-page")
        keys = widgets.HTML(f"<small>{escape(text('stepper.keys', lang))}</small>")
        controls = widgets.HBox(
            [self._back, self._next, self._position, self._present_toggle],
            layout=widgets.Layout(align_items="center", flex_flow="row wrap"),
        )
        box = widgets.VBox([widgets.HTML(STEPPER_CSS), self._page, controls, keys])
        box.add_class(STEPPER_CLASS)
        return box

    def _refresh(self) -> None:
        if self._widget is None:
            return
        # The page region is announced to screen readers when it changes.
        self._page.value = f'<div aria-live="polite">{self.page_html()}</div>'
        self._position.value = f"<span>{escape(self.position_text())}</span>"
        self._back.disabled = self.index == 0
        self._next.disabled = self.index == self.count - 1
        if self._present_toggle.value != self.present:
            self._present_toggle.value = self.present
        if self.present:
            self._widget.add_class(PRESENT_CLASS)
        else:
            self._widget.remove_class(PRESENT_CLASS)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


# -- the worked example -------------------------------------------------------------------


def worked_step_html(
    example: WorkedExample, step: Step, *, present: bool = False, lang: str = DEFAULT_LANGUAGE
) -> str:
    """One step of the worked example as HTML: its title, the trick on the table (the
    winner marked), the sentences, the hands (the card being played ringed) and, at the
    end, the score tables.

    >>> example = worked_example()
    >>> page = worked_step_html(example, example.steps[6])
    >>> "C takes the trick with blue 11" in page, 'class="winner-mark"' in page
    (True, True)
    """
    scale = 1.5 if present else 1.0
    parts = [f'<section class="tutor-worked-step step-{step.kind.value}">']
    parts.append(f"<h3>{escape(step.title)}</h3>")
    setting = text(
        "worked.setting",
        lang,
        card=card_name(example.turned, lang),
        trump=suit_name(example.trump, lang),
    )
    parts.append(
        '<p class="tutor-setting" style="display:flex;align-items:center;gap:0.6em">'
        f"{card_svg(example.turned, scale=0.4, lang=lang)}"
        f"<span>{escape(setting)}</span></p>"
    )
    if step.table:
        parts.append(
            f'<div class="tutor-table" role="group" aria-label="{escape(text("worked.table", lang))}">'
            + trick_svg(
                [play.card for play in step.table],
                winner=step.winner,
                players=[play.player for play in step.table],
                scale=scale,
                lang=lang,
            )
            + "</div>"
        )
    for index, sentence in enumerate(step.sentences):
        klass = "tutor-follow" if step.kind is StepKind.PLAY and index == 0 else "tutor-reason"
        parts.append(f'<p class="{klass}">{escape(sentence)}</p>')
    if step.kind is StepKind.ROUND_SCORES:
        parts.append(round_scores_html(step, lang=lang))
    elif step.kind is StepKind.SCORE_SHEET and step.sheet is not None:
        parts.append(score_sheet_html(step.sheet, lang=lang))
    elif not present:
        parts.append(_hands_html(example, step, seats=range(len(step.hands)), lang=lang))
    elif step.kind is StepKind.PLAY and step.active_seat is not None:
        # One screen on a projector: only the hand of the player who plays now.
        parts.append(_hands_html(example, step, seats=[step.active_seat], scale=0.8, lang=lang))
    elif step.kind is not StepKind.TRICK:
        parts.append(_hands_html(example, step, seats=range(len(step.hands)), lang=lang))
    parts.append("</section>")
    return "".join(parts)


def _hands_html(
    example: WorkedExample,
    step: Step,
    *,
    seats: Iterable[int],
    scale: float = 0.75,
    lang: str,
) -> str:
    played = step.played
    figures = []
    for seat in seats:
        hand = step.hands[seat]
        ring = [hand.index(played.card)] if played is not None and played.seat == seat else []
        facts = [text("worked.bid", lang) + f" {step.bids[seat]}"] if step.bids else []
        facts.append(text("worked.taken-head", lang) + f" {step.taken[seat]}")
        active = " tutor-active" if seat == step.active_seat else ""
        figures.append(
            f'<figure class="tutor-seat seat-{seat}{active}">'
            f"<figcaption>{escape(example.players[seat])} · {escape(' · '.join(facts))}"
            f"</figcaption>{hand_svg(hand, highlight=ring, scale=scale, lang=lang)}</figure>"
        )
    return (
        f'<div class="tutor-hands" role="group" aria-label="{escape(text("worked.hands", lang))}">'
        + "".join(figures)
        + "</div>"
    )


def round_scores_html(step: Step, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The round's scores as a table: player, bid, tricks taken, points and how.

    >>> example = worked_example()
    >>> page = round_scores_html(example.steps[-2])
    >>> page.count("<tr"), "−10" in page
    (5, True)
    """
    cell = "padding:0.2em 0.6em;border:1px solid #8a8a8a"
    heads = "".join(
        f'<th scope="col" style="{cell}">{escape(text(f"worked.{key}", lang))}</th>'
        for key in ("player", "bid", "taken-head", "points", "formula")
    )
    rows = "".join(
        f'<tr class="seat-{seat}"><th scope="row" style="{cell}">{escape(line.player)}</th>'
        f'<td class="bid" style="{cell};text-align:right">{line.bid}</td>'
        f'<td class="taken" style="{cell};text-align:right">{line.taken}</td>'
        f'<td class="points" style="{cell};text-align:right">'
        f"{format_points(line.points, signed=True)}</td>"
        f'<td class="formula" style="{cell}">{escape(line.formula)}</td></tr>'
        for seat, line in enumerate(step.score_lines)
    )
    return (
        '<table class="round-scores" style="border-collapse:collapse;margin:0.5em 0">'
        '<caption style="text-align:left;font-weight:600">'
        f"{escape(text('worked.scores-caption', lang))}</caption>"
        f"<thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>"
    )


def worked_example_stepper(
    *, present: bool | None = None, start: int = 0, lang: str = DEFAULT_LANGUAGE
) -> Stepper:
    """The worked example of RULES.md in a stepper (presenter mode if ``present``, or,
    by default, if the page was opened with ``?present=1``).

    >>> stepper = worked_example_stepper(present=False)
    >>> stepper.count, "Round 3: the deal" in stepper.page_html()
    (20, True)
    """
    example = worked_example(lang)

    def render(index: int, big: bool) -> str:
        return worked_step_html(example, example.steps[index], present=big, lang=lang)

    return Stepper(
        len(example.steps),
        render,
        start=start,
        present=presenter_requested() if present is None else present,
        lang=lang,
    )
