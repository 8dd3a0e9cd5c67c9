"""The widgets, driven as a learner would (buttons clicked, toggles pressed, a number
entered), with the engine as the judge: right answers say so, wrong answers show the
engine's own explanation, every control is a real button or text box."""

from __future__ import annotations

import re
from html import escape

import ipywidgets as widgets
import pytest

from tutor.cards import Card, parse_cards
from tutor.display.chart import score_chart_html
from tutor.display.html import format_points
from tutor.display.widgets import (
    AnyQuestion,
    CardPicker,
    HandSelector,
    QuizWidget,
    ScoreSheetWidget,
    TrickView,
    UnsupportedQuestionError,
    feedback_html,
)
from tutor.explain import card_name
from tutor.quiz import (
    Feedback,
    LegalPlaysQuestion,
    ScoreQuestion,
    TrickWinnerQuestion,
    TrumpQuestion,
)
from tutor.scoring import ScoreSheet
from tutor.text import text
from tutor.trick import trick_winner

TRICK_QUESTIONS = [
    TrickWinnerQuestion.of("J B5 B11 B7", trump="R", players="ABCD"),
    TrickWinnerQuestion.of("R4 R12 R2 W", trump="R", players="CDAB"),
    TrickWinnerQuestion.of("W R13 W J", trump=None),
    TrickWinnerQuestion.of("J J B6 B10", trump="Y"),
    TrickWinnerQuestion.of("G3 B13 G1 Y2 B1", trump="B"),
]
LEGAL_QUESTIONS = [
    LegalPlaysQuestion.of(hand="B7 R12 G10 W", plays="J B5", trump="R"),
    LegalPlaysQuestion.of(hand="R4 G2 J", plays="B6 W", trump="G"),
    LegalPlaysQuestion.of(hand="B7 R12 G10", plays="", trump=None),
    LegalPlaysQuestion.of(hand="Y3 Y9 B1 W W", plays="J J Y5", trump="B"),
]
SCORE_QUESTIONS = [ScoreQuestion(bid=2, taken=2), ScoreQuestion(bid=0, taken=0),
                   ScoreQuestion(bid=3, taken=1), ScoreQuestion(bid=1, taken=4)]
TRUMP_QUESTIONS = [TrumpQuestion.of(turned) for turned in ("R9", "B13", "W", "J", None)]


def shows(feedback: Feedback, widget: widgets.HTML) -> bool:
    """Whether the feedback widget shows every sentence of the engine's feedback."""
    sentences = [feedback.verdict, feedback.answer, feedback.explanation, *feedback.details]
    return all(escape(s, quote=False) in widget.value for s in sentences if s)


def says_right(quiz: QuizWidget) -> bool:
    return text("quiz.correct") in quiz.feedback.value and "✔" in quiz.feedback.value


def says_wrong(quiz: QuizWidget) -> bool:
    return text("quiz.wrong") in quiz.feedback.value and "✘" in quiz.feedback.value


# -- trick winner: a button under each card ------------------------------------------------


@pytest.mark.parametrize("question", TRICK_QUESTIONS, ids=lambda q: " ".join(map(str, q.plays)))
def test_trick_winner_right_button_says_right(question: TrickWinnerQuestion) -> None:
    quiz = QuizWidget(question)
    assert len(quiz.choice_buttons) == len(question.plays)
    quiz.choice_buttons[trick_winner(question.plays, question.trump)].click()
    assert says_right(quiz) and not says_wrong(quiz)
    assert shows(question.check(question.correct_answer()), quiz.feedback)


@pytest.mark.parametrize("question", TRICK_QUESTIONS, ids=lambda q: " ".join(map(str, q.plays)))
def test_trick_winner_wrong_button_shows_the_engines_reason(
    question: TrickWinnerQuestion,
) -> None:
    winner = trick_winner(question.plays, question.trump)
    wrong = (winner + 1) % len(question.plays)
    quiz = QuizWidget(question)
    quiz.choice_buttons[wrong].click()
    assert says_wrong(quiz) and not says_right(quiz)
    assert shows(question.check(wrong), quiz.feedback)
    # The engine's winner is then marked on the cards themselves, in words too.
    assert quiz.card_picker is not None
    marked = quiz.card_picker.pictures[winner].value
    assert "highlight-ring" in marked and text("display.wins") in marked


def test_trick_winner_buttons_name_the_card_and_its_player() -> None:
    question = TRICK_QUESTIONS[0]
    quiz = QuizWidget(question)
    assert [b.description for b in quiz.choice_buttons] == [
        text("widgets.pick-card", card=card_name(card), player=player)
        for card, player in zip(question.plays, "ABCD", strict=True)
    ]


# -- legal plays: toggles, then Check ------------------------------------------------------


def select(quiz: QuizWidget, cards: frozenset[Card] | set[Card]) -> None:
    assert quiz.hand_selector is not None
    for toggle, card in zip(quiz.hand_selector.toggles, quiz.hand_selector.cards, strict=True):
        toggle.value = card in cards


@pytest.mark.parametrize("question", LEGAL_QUESTIONS, ids=lambda q: " ".join(map(str, q.hand)))
def test_legal_plays_right_selection_says_right(question: LegalPlaysQuestion) -> None:
    quiz = QuizWidget(question)
    select(quiz, question.correct_answer())
    assert quiz.feedback.value == ""  # nothing is graded before Check
    quiz.check_button.click()
    assert says_right(quiz)
    assert shows(question.check(question.correct_answer()), quiz.feedback)


@pytest.mark.parametrize("question", LEGAL_QUESTIONS, ids=lambda q: " ".join(map(str, q.hand)))
def test_legal_plays_wrong_selection_shows_the_engines_reasons(
    question: LegalPlaysQuestion,
) -> None:
    legal = question.correct_answer()
    illegal = set(question.hand) - legal
    # Pick every card: wrong when some card is illegal; else leave one legal card out.
    chosen = set(question.hand) if illegal else set(legal) - {question.hand[0]}
    quiz = QuizWidget(question)
    select(quiz, chosen)
    quiz.check_button.click()
    feedback = question.check(chosen)
    assert not feedback.correct and feedback.details
    assert says_wrong(quiz) and shows(feedback, quiz.feedback)
    # Each card's button then says in words whether it may be played.
    assert quiz.hand_selector is not None
    for toggle, card in zip(quiz.hand_selector.toggles, question.hand, strict=True):
        key = "widgets.legal-card" if card in legal else "widgets.illegal-card"
        assert text(key, card=card_name(card)) in toggle.description
        assert toggle.disabled


def test_legal_plays_shows_the_trick_so_far() -> None:
    question = LEGAL_QUESTIONS[0]
    quiz = QuizWidget(question)
    assert quiz.trick_view is not None
    for card in question.plays:
        assert f'aria-label="{card_name(card)}"' in quiz.trick_view.value


# -- score: a number box, Enter or Check ---------------------------------------------------


@pytest.mark.parametrize("question", SCORE_QUESTIONS, ids=lambda q: f"{q.bid}-{q.taken}")
def test_score_entered_with_enter_is_graded(question: ScoreQuestion) -> None:
    quiz = QuizWidget(question)
    assert quiz.answer_input is not None
    # With continuous_update off, the browser sends the value when Enter is pressed.
    assert quiz.answer_input.continuous_update is False
    quiz.answer_input.value = question.correct_answer()
    assert says_right(quiz)
    assert shows(question.check(question.correct_answer()), quiz.feedback)


@pytest.mark.parametrize("question", SCORE_QUESTIONS, ids=lambda q: f"{q.bid}-{q.taken}")
def test_score_wrong_number_shows_the_formula(question: ScoreQuestion) -> None:
    quiz = QuizWidget(question)
    assert quiz.answer_input is not None
    wrong = question.correct_answer() + 10
    quiz.answer_input.value = wrong
    assert says_wrong(quiz)
    assert shows(question.check(wrong), quiz.feedback)


def test_score_check_button_grades_the_number_in_the_box() -> None:
    question = SCORE_QUESTIONS[2]
    quiz = QuizWidget(question)
    assert quiz.answer_input is not None
    quiz.check_button.click()  # the box still holds its starting 0
    assert shows(question.check(quiz.answer_input.value), quiz.feedback)


# -- trump: a button per answer ------------------------------------------------------------


@pytest.mark.parametrize("question", TRUMP_QUESTIONS, ids=lambda q: str(q.turned))
def test_trump_right_button_says_right(question: TrumpQuestion) -> None:
    quiz = QuizWidget(question)
    choices = question.choices()
    assert len(quiz.choice_buttons) == len(choices)
    quiz.choice_buttons[choices.index(question.correct_answer())].click()
    assert says_right(quiz)
    assert shows(question.check(question.correct_answer()), quiz.feedback)


@pytest.mark.parametrize("question", TRUMP_QUESTIONS, ids=lambda q: str(q.turned))
def test_trump_wrong_button_shows_what_the_reveal_means(question: TrumpQuestion) -> None:
    quiz = QuizWidget(question)
    choices = question.choices()
    wrong = next(c for c in choices if c != question.correct_answer())
    quiz.choice_buttons[choices.index(wrong)].click()
    assert says_wrong(quiz)
    assert shows(question.check(wrong), quiz.feedback)


def test_trump_buttons_name_each_suit_with_its_letter() -> None:
    quiz = QuizWidget(TRUMP_QUESTIONS[0])
    words = [b.description for b in quiz.choice_buttons]
    assert words[:4] == ["yellow (Y)", "red (R)", "green (G)", "blue (B)"]
    assert words[4:] == [text("card.no_trump"), text("quiz.choice-dealer-chooses")]


# -- answering once, callbacks, next question ----------------------------------------------


def test_first_answer_counts_and_is_reported_once() -> None:
    answers: list[tuple[object, object, Feedback]] = []
    question = TRICK_QUESTIONS[0]
    quiz = QuizWidget(question, on_answer=lambda *call: answers.append(call))
    quiz.choice_buttons[0].click()
    quiz.choice_buttons[2].click()  # too late: the buttons are locked, and ignored anyway
    assert len(answers) == 1
    asked, answer, feedback = answers[0]
    assert asked is question and answer == 0 and feedback == question.check(0)
    assert all(button.disabled for button in quiz.choice_buttons)
    assert says_wrong(quiz)


def test_next_button_appears_after_the_answer_and_loads_the_next_question() -> None:
    upcoming = iter(SCORE_QUESTIONS)
    quiz = QuizWidget(TRUMP_QUESTIONS[0], on_next=lambda q: q.load(next(upcoming)))
    assert quiz.next_button.layout.display == "none"
    quiz.choice_buttons[1].click()
    assert quiz.next_button.layout.display != "none"
    quiz.next_button.click()
    assert quiz.question is SCORE_QUESTIONS[0]
    assert quiz.feedback.value == "" and quiz.next_button.layout.display == "none"
    assert text("quiz.score-prompt", bid=2, taken=2) in quiz.prompt.value
    assert quiz.answer_input is not None and quiz.check_button in quiz.children[1].children


def test_quiz_refuses_what_it_cannot_show() -> None:
    with pytest.raises(UnsupportedQuestionError, match="cannot show 'R9'"):
        QuizWidget("R9")  # type: ignore[arg-type]


def test_prompt_comes_from_the_question() -> None:
    for question in (TRICK_QUESTIONS[0], LEGAL_QUESTIONS[0], SCORE_QUESTIONS[0]):
        assert escape(question.prompt(), quote=False) in QuizWidget(question).prompt.value


# -- keyboard: real buttons and text boxes, named in words ---------------------------------


ALL_QUESTIONS = [TRICK_QUESTIONS[0], LEGAL_QUESTIONS[0], SCORE_QUESTIONS[0], TRUMP_QUESTIONS[2]]


def controls(widget: widgets.Widget) -> list[widgets.Widget]:
    """Every widget a learner can act on inside ``widget``."""
    found = []
    stack = [widget]
    while stack:
        current = stack.pop()
        if isinstance(current, widgets.Box):
            stack.extend(current.children)
        elif isinstance(current, widgets.Button | widgets.ToggleButton | widgets.IntText):
            found.append(current)
    return found


@pytest.mark.parametrize("question", ALL_QUESTIONS, ids=lambda q: type(q).__name__)
def test_every_control_is_a_focusable_button_or_box_named_in_words(question: AnyQuestion) -> None:
    quiz = QuizWidget(question)
    found = controls(quiz)
    assert found, "a question needs something to answer with"
    for control in found:
        # Buttons and text boxes are native, focusable elements: Tab reaches them,
        # Space/Enter press a button; the description is the name a screen reader reads.
        assert type(control) in (widgets.Button, widgets.ToggleButton, widgets.IntText)
        assert control.description.strip()
        assert not control.disabled or control is quiz.next_button


# -- the components on their own -----------------------------------------------------------


def test_hand_selector_marks_selected_cards_in_words_and_picture() -> None:
    changes: list[tuple[Card, ...]] = []
    hand = HandSelector("B7 R12 W W", on_change=changes.append)
    hand.toggles[3].value = True
    hand.toggles[1].value = True
    assert hand.selected == tuple(parse_cards("R12 W")) and hand.selected_indices == (1, 3)
    assert hand.toggles[1].description == text("widgets.card-button-selected", card="red 12")
    assert "highlight-ring" in hand.pictures[1].value
    assert "highlight-ring" not in hand.pictures[0].value
    hand.toggles[1].value = False
    assert hand.toggles[1].description == text("widgets.card-button", card="red 12")
    assert changes[-1] == (Card.wizard(),)
    hand.clear()
    assert hand.selected == ()


def test_single_choice_hand_keeps_one_card_selected() -> None:
    hand = HandSelector("B7 R12 G10", multiple=False)
    hand.toggles[0].value = True
    hand.toggles[2].value = True
    assert hand.selected == (Card.parse("G10"),)
    assert hand.toggles[0].description == text("widgets.card-button", card="blue 7")
    assert "highlight-ring" not in hand.pictures[0].value


def test_card_picker_reports_the_pressed_card() -> None:
    picked: list[int] = []
    picker = CardPicker("W R9 J", on_pick=picked.append)
    picker.buttons[1].click()
    picker.buttons[0].click()
    assert picked == [1, 0]
    with pytest.raises(ValueError, match="2 player names for 3 cards"):
        CardPicker("W R9 J", players="AB")


def test_trick_view_marks_the_engines_winner() -> None:
    view = TrickView("R4 R12 R2 W", players="CDAB")
    assert "winner-mark" not in view.value
    view.update("R4 R12 R2 W", winner=trick_winner("R4 R12 R2 W", "R"), players="CDAB")
    assert view.value.count('class="winner-mark"') == 1
    assert "B takes the trick" in view.value


def test_feedback_is_words_and_icon_not_colour_alone() -> None:
    right = feedback_html(SCORE_QUESTIONS[0].check(40))
    wrong = feedback_html(SCORE_QUESTIONS[0].check(30))
    assert text("quiz.correct") in right and "✔" in right
    assert text("quiz.wrong") in wrong and "✘" in wrong
    assert 'role="status"' in right


def test_score_sheet_widget_shows_table_and_chart_and_follows_the_game() -> None:
    sheet = ScoreSheet(players=3, names=["Ann", "Ben", "Cleo"])
    board = ScoreSheetWidget(sheet)
    assert board.chart.value == ""  # nothing to plot yet
    sheet.record(bids=[1, 0, 1], taken=[1, 0, 0])
    sheet.record(bids=[0, 2, 0], taken=[0, 1, 1])
    board.update(sheet)
    assert "Ann" in board.table.value and format_points(-20) in board.table.value
    chart = board.chart.value
    assert chart == score_chart_html(sheet)
    assert "<svg" in chart and all(f">{name}<" in chart for name in sheet.names)
    # Nothing loaded from outside; no page-wide <style> leaking onto the cards.
    references = re.findall(r'href="([^"]*)"|url\(([^)]*)\)', chart)
    assert references and all((a or b).startswith("#") for a, b in references)
    assert "<style" not in chart
    # Described in words for screen readers: every player's total now.
    label = re.search(r'role="img" aria-label="([^"]*)"', chart)
    assert label is not None
    for name, total in zip(sheet.names, sheet.totals, strict=True):
        assert f"{name} {format_points(total)}" in label.group(1)
