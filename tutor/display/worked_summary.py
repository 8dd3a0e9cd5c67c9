"""The worked example's tricks on one screen, as the source article sums them up: for
each trick who led, the cards in the order played, and who takes it and why; then the
tricks each player took.

Every fact comes from the steps :mod:`tutor.teaching.worked_example` computed with the
engine (the complete tricks and the count of tricks taken); this module only lays them
out. On a presenter's screen the table is a slide of its own, after the stepper; on a
learner's page it appears under the stepper at its last step only
(:func:`summary_at_the_end`): every winner in it, it would spoil the stepping.

>>> page = tricks_summary_html()
>>> from tutor.display.words import words_html
>>> page.count('<tr class="trick-'), words_html("C takes the trick with blue 11") in page
(3, True)
>>> "Tricks taken: A 0, B 1, C 1, D 1" in page
True
"""

from __future__ import annotations

from html import escape
from typing import Any

from tutor.display.presenter import SLIDE
from tutor.display.stepper import Stepper
from tutor.display.widgets import html_widget
from tutor.display.words import words_html
from tutor.teaching.explain import card_name
from tutor.teaching.text import DEFAULT_LANGUAGE, join_sentences, join_words, text
from tutor.teaching.worked_example import StepKind, WorkedExample, worked_example


def tricks_summary_html(
    example: WorkedExample | None = None, *, lang: str = DEFAULT_LANGUAGE
) -> str:
    """The tricks of ``example`` (by default the worked example of RULES.md) as one table,
    the winning card of each marked with a star and in bold (not by colour)."""
    if example is None:
        example = worked_example(lang)
    cell = "padding:0.25em 0.6em;border:1px solid #8a8a8a;vertical-align:top;text-align:left"
    rows = []
    for step in example.steps:
        if step.kind is not StepKind.TRICK or step.winner is None:
            continue
        plays = []
        for index, play in enumerate(step.table):
            name = card_name(play.card, lang)
            words = words_html(text("quiz.trick-play", lang, player=play.player, card=name))
            if index == step.winner:
                words = f"<strong>★ {words}</strong>"
            plays.append(f'<span style="white-space:nowrap">{words}</span>')
        leads = text("worked-summary.leads", lang, player=step.table[0].player)
        rows.append(
            f'<tr class="trick-{step.trick_number}">'
            f'<th scope="row" style="{cell};white-space:nowrap">'
            f"{escape(text('worked-summary.trick', lang, trick=step.trick_number))}<br>"
            f'<span style="font-weight:normal">{escape(leads)}</span></th>'
            f'<td style="{cell}">{join_words(plays, lang)}</td>'
            f'<td style="{cell}">{words_html(step.sentences[0])}</td></tr>'
        )
    heads = "".join(
        f'<th scope="col" style="{cell}">{escape(text(f"worked-summary.{key}", lang))}</th>'
        for key in ("trick-head", "cards-head", "winner-head")
    )
    taken = next(step for step in example.steps if step.kind is StepKind.TAKEN)
    title = text("worked-summary.title", lang, round=example.round_number)
    return (
        f'<section class="tricks-summary {SLIDE}">'
        f'<h3 style="margin:0 0 0.4em">{escape(title)}</h3>'
        '<table style="border-collapse:collapse;margin:0 0 0.5em">'
        f"<thead><tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        f"<p>{words_html(join_sentences(taken.sentences))}</p></section>"
    )


def summary_at_the_end(stepper: Stepper, *, lang: str = DEFAULT_LANGUAGE) -> Any:
    """An HTML widget that shows :func:`tricks_summary_html` while ``stepper`` is at its
    last step and is empty before (the widget stays, only its words change: nothing to
    show or hide).

    >>> from tutor.display.stepper import worked_example_stepper
    >>> stepper = worked_example_stepper(present=False)
    >>> ending = summary_at_the_end(stepper)
    >>> ending.value
    ''
    >>> stepper.go(stepper.count - 1); "tricks-summary" in ending.value
    True
    >>> stepper.back(); ending.value
    ''
    """
    ending = html_widget()
    ending.add_class("tutor-worked-ending")
    summary = tricks_summary_html(lang=lang)

    def follow(_index: int) -> None:
        ending.value = summary if stepper.at_last_step else ""

    stepper.on_step(follow)
    follow(stepper.index)
    return ending
