"""A graded answer marked on a quiz's choices themselves (those of
:class:`~tutor.display.widgets.quiz_widget.QuizWidget`): the learner's own choice, the
right one, a card they missed, a card they should not have picked, each in words with an
icon (✔, ✘), the colour only repeating it.

>>> from tutor.teaching.quiz import TrickWinnerQuestion
>>> question = TrickWinnerQuestion.of("J B5 B11", trump="R", players="ABC")
>>> buttons = [widgets.Button() for _ in question.choices()]
>>> mark_one(question, question.choices(), 0, reveal=True, buttons=buttons,
...          card_picker=None, lang="en")       # the learner chose A's Jester
>>> [button.description for button in buttons]
['✘ Jester (A) (your answer)', '', '✔ blue 11 (C) (the right answer)']
"""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as widgets

from tutor.display.widgets.card_picker import CardPicker
from tutor.display.widgets.quiz_style import mark_button
from tutor.display.widgets.toggle_choices import ToggleChoices
from tutor.display.words import words_html
from tutor.teaching.quiz import Question
from tutor.teaching.text import text


def mark_one(
    question: Question,
    choices: Sequence[object],
    answer: object,
    *,
    reveal: bool,
    buttons: Sequence[widgets.Button],
    card_picker: CardPicker | None,
    lang: str,
) -> None:
    """One choice (a button each, or cards above theirs in ``card_picker``): the learner's
    (✔ or ✘, "your answer") and, if ``reveal``, the right one (✔) and what the chosen one
    is; after a hint only "your answer" ✘."""
    for index, choice in enumerate(choices):
        chosen, right = choice == answer, question.is_right_choice(choice)
        if not (chosen or right) or not (chosen or reveal):
            continue
        icon = text("widgets.right-icon" if right else "widgets.wrong-icon", lang)
        style = "success" if right else "danger"
        whose = text("widgets.your-answer" if chosen else "widgets.right-answer", lang)
        if card_picker is not None:
            # Under the card: "your answer", and what the card is ("wins").
            words = [whose] if chosen else []
            words += [question.choice_mark(choice, lang)] if reveal else []
            verdict = "<br>".join(words_html(word) for word in words if word)
            card_picker.mark_answer(index, verdict=verdict, icon=icon, style=style, ring=right)
        else:
            button = buttons[index]
            button.description = button.tooltip = text(
                "widgets.choice-answered",
                lang,
                icon=icon,
                choice=question.choice_label(choice, lang),
                whose=whose,
            )
            mark_button(button, style)


def mark_many(
    question: Question, choices: Sequence[object], toggles: ToggleChoices, *, lang: str
) -> None:
    """Several choices (a toggle each): what each one is, and the learner's decision on
    it: chosen and right (✔), chosen but wrong (✘), right but left out (✘ missed). A
    choice rightly left out only says what it is."""
    chosen_indices = toggles.selected_indices
    for index, choice in enumerate(choices):
        chosen, right = index in chosen_indices, question.is_right_choice(choice)
        label, mark = toggles.labels[index], question.choice_mark(choice, lang)
        what = text("widgets.choice-verdict", lang, choice=label, mark=mark)
        if not chosen and not right:  # rightly left out: it only says what it is
            toggles.mark(
                index,
                description=label if toggles.cards else what,
                tooltip=what,
                highlight=False,
                verdict=words_html(mark),
            )
            continue
        icon = text("widgets.right-icon" if chosen and right else "widgets.wrong-icon", lang)
        whose = text("widgets.your-choice" if chosen else "widgets.missed", lang)
        style = "success" if chosen and right else "danger" if chosen else "warning"
        sentence = text("widgets.choice-decided", lang, icon=icon, verdict=what, whose=whose)
        if toggles.cards:  # the words under the card; the button keeps to the card's name
            toggles.mark(
                index,
                description=f"{icon} {label}",
                tooltip=sentence,
                highlight=chosen,
                verdict=f"<strong>{words_html(icon)} {words_html(whose)}</strong><br>{words_html(mark)}",
                style=style,
            )
        else:
            toggles.mark(index, description=sentence, highlight=chosen, style=style)
