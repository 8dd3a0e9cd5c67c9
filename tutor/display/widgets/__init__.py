"""Jupyter widgets (ipywidgets 8): card pickers, a trick view, quizzes and the score sheet,
one widget to a module.

The widgets know no rules: what is legal, who wins and what an answer is worth come from
the engine (through the :class:`tutor.teaching.quiz.Question` protocol). Every control a
learner uses is a real button or text box, so Tab moves between them and Space/Enter press
them; every state is said in words (a check mark and "selected", "Right!" with an icon), never by
colour alone. Child widgets are attributes, so tests drive them without a browser.

- :mod:`~tutor.display.widgets.toggle_choices`, :mod:`~tutor.display.widgets.hand_selector`,
  :mod:`~tutor.display.widgets.card_picker`, :mod:`~tutor.display.widgets.trick_view`: the
  parts a question is answered with;
- :mod:`~tutor.display.widgets.quiz_widget`: any question, graded by the engine;
- :mod:`~tutor.display.widgets.score_sheet_widget`: the score sheet and its chart;
- :mod:`~tutor.display.widgets.quiz_style` and :mod:`~tutor.display.widgets.quiz_html`: the
  look and the words the quiz widgets share; :mod:`~tutor.display.widgets.html_widget`: the
  HTML widget every page part uses.

The names below are those the package offered as one module, so ``from
tutor.display.widgets import QuizWidget`` still works.
"""

from tutor.display.widgets.card_picker import CardPicker
from tutor.display.widgets.hand_selector import HandSelector
from tutor.display.widgets.html_widget import html_widget
from tutor.display.widgets.quiz_html import (
    feedback_html,
    hint_html,
    prompt_html,
    question_heading_html,
)
from tutor.display.widgets.quiz_style import (
    CARD_CHOICE_CLASS,
    HINT_COLOUR,
    QUIZ_CLASS,
    QUIZ_CSS,
    RIGHT_COLOUR,
    WRONG_COLOUR,
)
from tutor.display.widgets.quiz_widget import GradedCallback, QuizWidget, UnsupportedQuestionError
from tutor.display.widgets.score_sheet_widget import ScoreSheetWidget
from tutor.display.widgets.toggle_choices import ToggleChoices
from tutor.display.widgets.trick_view import TrickView

__all__ = [
    "CARD_CHOICE_CLASS",
    "HINT_COLOUR",
    "QUIZ_CLASS",
    "QUIZ_CSS",
    "RIGHT_COLOUR",
    "WRONG_COLOUR",
    "CardPicker",
    "GradedCallback",
    "HandSelector",
    "QuizWidget",
    "ScoreSheetWidget",
    "ToggleChoices",
    "TrickView",
    "UnsupportedQuestionError",
    "feedback_html",
    "hint_html",
    "html_widget",
    "prompt_html",
    "question_heading_html",
]
