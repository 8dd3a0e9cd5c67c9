"""Shared looks (tutor/display/looks.py): widgets that look alike share one layout and one
style model, and a widget whose look changes takes another without changing its
neighbours'."""

from __future__ import annotations

import ipywidgets as widgets
import pytest

from tutor.display import looks
from tutor.display.visibility import set_visible
from tutor.display.widgets import QuizWidget
from tutor.teaching.quiz import TrickWinnerQuestion


def descendants(widget: widgets.Widget) -> list[widgets.Widget]:
    found = [widget]
    for child in getattr(widget, "children", ()):
        found += descendants(child)
    return found


def question() -> TrickWinnerQuestion:
    return TrickWinnerQuestion.of("J B5 B11 B7", trump="R", players="ABCD")


def test_two_questions_share_their_layouts_and_styles() -> None:
    first, second = QuizWidget(question()), QuizWidget(question())
    parts = descendants(first) + descendants(second)
    layouts = {id(part.layout) for part in parts}
    styles = {id(part.style) for part in parts if hasattr(part, "style")}
    assert len(parts) > 40
    assert len(layouts) <= 8, len(layouts)  # one per look, not one per widget
    assert len(styles) == 2  # the buttons' and the HTML widgets'
    assert first.choice_buttons[0].layout is second.choice_buttons[3].layout


def test_an_answer_shows_its_own_buttons_only() -> None:
    answered, untouched = QuizWidget(question()), QuizWidget(question())
    answered.choice_buttons[3].click()  # wrong: Try again and Show answer appear
    assert answered.try_again_button.layout.display is None
    assert answered.show_answer_button.layout.display is None
    assert untouched.try_again_button.layout.display == "none"
    assert untouched.show_answer_button.layout.display == "none"
    assert answered.next_button.layout.display == "none"
    # the marked card's picker lines its cards up at the top; the other keeps its own
    assert answered.card_picker is not None and untouched.card_picker is not None
    assert answered.card_picker.layout.align_items == "flex-start"
    assert untouched.card_picker.layout.align_items == "flex-end"
    answered.try_again_button.click()
    assert answered.try_again_button.layout.display == "none"
    assert answered.card_picker.layout.align_items == "flex-end"


def test_a_shared_look_refuses_a_change_that_would_change_every_widget() -> None:
    quiz = QuizWidget(question())
    with pytest.raises(looks.SharedLookError, match="its display cannot change"):
        quiz.choice_buttons[0].layout.display = "none"
    with pytest.raises(looks.SharedLookError, match="its button_color cannot change"):
        quiz.choice_buttons[0].style.button_color = "red"
    assert quiz.choice_buttons[1].layout.display is None  # nothing changed


def test_hiding_a_widget_with_a_layout_of_its_own_keeps_its_other_properties() -> None:
    button = widgets.Button(layout=widgets.Layout(width="12em", margin="1px"))
    set_visible(button, False)
    assert looks.layout_values(button.layout) == {
        "display": "none",
        "margin": "1px",
        "width": "12em",
    }
    set_visible(button, True)
    assert button.layout is looks.layout(width="12em", margin="1px")
