"""The widgets, driven as a learner would (buttons clicked, toggles pressed, a number
entered), with the engine as the judge: right answers say so, wrong answers show the
engine's own explanation, every control is a real button or text box. QuizWidget shows
every kind of question (tutor.teaching.quiz and tutor.teaching.round_quiz) through the one Question
protocol."""

from __future__ import annotations

import re
from collections.abc import Collection

import ipywidgets as widgets
import pytest

from tutor.display.chart import score_chart_html
from tutor.display.html import format_points
from tutor.display.widgets import (
    CardPicker,
    HandSelector,
    QuizWidget,
    ScoreSheetWidget,
    ToggleChoices,
    TrickView,
    UnsupportedQuestionError,
    feedback_html,
)
from tutor.display.words import words_html
from tutor.rules.cards import DECK, Card, parse_cards
from tutor.rules.game import Game
from tutor.rules.round import Phase, Round
from tutor.rules.schedule import GameLength, cards_per_round
from tutor.rules.scoring import ScoreSheet
from tutor.rules.trick import trick_winner
from tutor.rules.variants import Bidding, Rules
from tutor.teaching.explain import card_name
from tutor.teaching.quiz import (
    AnswerKind,
    Feedback,
    LegalPlaysQuestion,
    Question,
    ScoreQuestion,
    Topic,
    TrickWinnerQuestion,
    TrumpQuestion,
    feedback_for,
)
from tutor.teaching.round_quiz import (
    BidTime,
    BidVisibilityQuestion,
    DealerQuestion,
    FirstBidderQuestion,
    LegalBidsQuestion,
    ScheduleAsk,
    ScheduleQuestion,
)
from tutor.teaching.text import text

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
SCORE_QUESTIONS = [
    ScoreQuestion(bid=2, taken=2),
    ScoreQuestion(bid=0, taken=0),
    ScoreQuestion(bid=3, taken=1),
    ScoreQuestion(bid=1, taken=4),
]
TRUMP_QUESTIONS = [TrumpQuestion.of(turned) for turned in ("R9", "B13", "W", "J", None)]


def shows(feedback: Feedback, widget: widgets.HTML) -> bool:
    """Whether the feedback widget shows every sentence of the engine's feedback."""
    sentences = [feedback.verdict, feedback.answer, feedback.explanation, *feedback.details]
    return all(words_html(s) in widget.value for s in sentences if s)


def says_right(quiz: QuizWidget) -> bool:
    return text("quiz.correct") in quiz.feedback.value and "✔" in quiz.feedback.value


def says_wrong(quiz: QuizWidget) -> bool:
    return text("quiz.wrong") in quiz.feedback.value and "✘" in quiz.feedback.value


def enter(quiz: QuizWidget, typed: str) -> None:
    """Type ``typed`` in the number box and press Enter or Check: the browser sends one
    "submit" message carrying what is in the box."""
    assert quiz.answer_input is not None
    quiz.answer_input._handle_custom_msg({"event": "submit", "value": typed, "via": "enter"}, [])


def hinted_then_shown(quiz: QuizWidget, question: Question, answer: object) -> None:
    """A first wrong answer shows the question's hint and none of the engine's answer;
    Show the answer then shows the engine's whole feedback."""
    full = question.check(answer)
    assert not full.correct
    assert 'class="quiz-feedback wrong hinted"' in quiz.feedback.value
    assert words_html(question.hint()) in quiz.feedback.value
    for sentence in (full.answer, full.explanation, *full.details):
        assert not sentence or words_html(sentence) not in quiz.feedback.value
    assert quiz.show_answer_button.layout.display != "none"
    quiz.show_answer_button.click()
    assert shows(full, quiz.feedback) and "hinted" not in quiz.feedback.value
    assert quiz.show_answer_button.layout.display == "none"


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
    # The hint marks only the learner's card: the winner is not given away yet.
    assert quiz.card_picker is not None
    assert text("widgets.your-answer") in quiz.card_picker.verdicts[wrong].value
    assert quiz.card_picker.verdicts[winner].value == ""
    assert not quiz.choice_buttons[winner].description.startswith("✔")
    hinted_then_shown(quiz, question, wrong)
    # The engine's winner and the learner's card are then marked on the cards themselves,
    # in words and with an icon (the ring and the colour only repeat it).
    assert "highlight-ring" in quiz.card_picker.pictures[winner].value
    assert text("quiz.winner-mark") in quiz.card_picker.verdicts[winner].value
    assert text("widgets.your-answer") in quiz.card_picker.verdicts[wrong].value
    assert quiz.choice_buttons[wrong].description.startswith("✘")
    assert quiz.choice_buttons[winner].description.startswith("✔")
    assert quiz.choice_buttons[wrong].button_style == "danger"


def test_trick_winner_buttons_name_the_card_and_its_player() -> None:
    question = TRICK_QUESTIONS[0]
    quiz = QuizWidget(question)
    assert [b.description for b in quiz.choice_buttons] == [
        text("widgets.pick-card", card=card_name(card), player=player)
        for card, player in zip(question.plays, "ABCD", strict=True)
    ]


# -- legal plays: toggles, then Check ------------------------------------------------------


def select(quiz: QuizWidget, chosen: Collection[object]) -> None:
    """Press the toggle of every choice in ``chosen`` (cards, bids...)."""
    assert quiz.choice_toggles is not None
    for toggle, choice in zip(quiz.choice_toggles.toggles, quiz.choices, strict=True):
        toggle.value = choice in chosen


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
    assert says_wrong(quiz)
    toggles = quiz.choice_toggles
    assert toggles is not None
    assert all(verdict.value == "" for verdict in toggles.verdicts)  # a hint marks no card
    hinted_then_shown(quiz, question, chosen)
    # Each card then says in words whether it may be played, and what the learner did.
    for index, card in enumerate(question.hand):
        toggle, verdict = toggles.toggles[index], toggles.verdicts[index].value
        assert text("quiz.legal-card" if card in legal else "quiz.illegal-card") in verdict
        assert card_name(card) in toggle.description and toggle.disabled
        if card in chosen and card not in legal:  # picked, but may not be played
            assert text("widgets.your-choice") in verdict and toggle.description.startswith("✘")
        elif card in legal and card not in chosen:  # may be played, but left out
            assert text("widgets.missed") in verdict and toggle.description.startswith("✘")
            assert "is-dimmed" not in toggles.pictures[index].value  # not drawn as disabled


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
    # Enter sends what is in the box with it (a "submit" message carrying the text).
    enter(quiz, format_points(question.correct_answer()))  # "−20", as the page writes it
    assert says_right(quiz)
    assert shows(question.check(question.correct_answer()), quiz.feedback)
    # The feedback says which number it graded.
    assert (
        text("quiz.you-answered", answer=format_points(question.correct_answer()))
        in quiz.feedback.value
    )
    assert quiz.answer_mark is not None and text("widgets.yours-right") in quiz.answer_mark.value


@pytest.mark.parametrize("question", SCORE_QUESTIONS, ids=lambda q: f"{q.bid}-{q.taken}")
def test_score_wrong_number_shows_the_formula(question: ScoreQuestion) -> None:
    quiz = QuizWidget(question)
    assert quiz.answer_input is not None
    wrong = question.correct_answer() + 10
    enter(quiz, str(wrong))
    assert says_wrong(quiz)
    assert text("quiz.you-answered", answer=format_points(wrong)) in quiz.feedback.value
    hinted_then_shown(quiz, question, wrong)
    assert quiz.answer_input.value == str(wrong)  # the learner's answer stays in the box
    assert quiz.answer_mark is not None and text("widgets.yours-wrong") in quiz.answer_mark.value


def test_score_check_grades_the_number_it_carries_not_the_boxs_earlier_value() -> None:
    """Check and Enter carry the text typed (issue 19: "12" typed and checked at once
    was graded on the box's previous value)."""
    question = SCORE_QUESTIONS[2]
    quiz = QuizWidget(question)
    box = quiz.answer_input
    assert box is not None
    box.value = "-10"  # what the box held before: a stale value must not be graded
    box._handle_custom_msg({"event": "submit", "value": "-20", "via": "check"}, [])
    assert says_right(quiz) and shows(question.check(-20), quiz.feedback)
    assert quiz.last_answer == -20 and box.value == "-20"
    assert text("quiz.you-answered", answer=format_points(-20)) in quiz.feedback.value


@pytest.mark.parametrize(
    "content",
    [
        {"event": "submit"},
        {"event": "submit", "value": None},
        {"event": "submit", "value": 40},
        {"event": "blur", "value": "40"},
    ],
)
def test_a_submit_without_typed_text_grades_nothing(content: dict[str, object]) -> None:
    """A message without the text (a Python None may arrive as nothing at all in the
    static site's kernel) is no answer."""
    quiz = QuizWidget(SCORE_QUESTIONS[0])
    assert quiz.answer_input is not None
    quiz.answer_input._handle_custom_msg(content, [])
    assert quiz.attempts == 0 and quiz.feedback.value == ""


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
    hinted_then_shown(quiz, question, wrong)


def test_trump_buttons_name_each_suit_with_its_letter() -> None:
    quiz = QuizWidget(TRUMP_QUESTIONS[0])
    words = [b.description for b in quiz.choice_buttons]
    assert words[:4] == ["yellow (Y)", "red (R)", "green (G)", "blue (B)"]
    assert words[4:] == [text("card.no_trump"), text("quiz.choice-dealer-chooses")]


# -- the questions about setting up a round: one protocol, no kind-specific code ---------------


def _engine_bidding_round(players: int, cards: int, dealer: int, rules: Rules) -> Round:
    """A round dealt by the engine, past the dealer's trump choice: bidding is due."""
    rnd = Round(players=players, cards=cards, dealer=dealer, seed=0, rules=rules)
    if rnd.phase is Phase.TRUMP_CHOICE:  # a Wizard was turned: the dealer picks trump
        rnd.choose_trump("Y")
    return rnd


def press_choice(quiz: QuizWidget, answer: object) -> None:
    """Press the button of the choice ``answer`` (the buttons are in choices() order)."""
    quiz.choice_buttons[list(quiz.choices).index(answer)].click()


SCHEDULE_QUESTIONS = [
    ScheduleQuestion(players=4, ask=ScheduleAsk.ROUNDS),
    ScheduleQuestion(players=3, ask=ScheduleAsk.TRICKS, round=20),
    ScheduleQuestion(players=5, ask=ScheduleAsk.CARDS, round=3, length=GameLength.FIVE),
]


def _schedule_answer(question: ScheduleQuestion) -> int:
    schedule = cards_per_round(question.players, question.length)
    return len(schedule) if question.round is None else schedule[question.round - 1]


@pytest.mark.parametrize("question", SCHEDULE_QUESTIONS, ids=lambda q: f"{q.players}-{q.ask}")
def test_schedule_number_right_and_wrong_from_the_engines_schedule(
    question: ScheduleQuestion,
) -> None:
    right = _schedule_answer(question)
    quiz = QuizWidget(question)
    assert quiz.answer_input is not None and quiz.choice_buttons == []
    assert quiz.answer_input.description == text("round-quiz.number-input")
    enter(quiz, str(right))
    assert says_right(quiz) and shows(question.check(right), quiz.feedback)
    wrong = QuizWidget(question)
    assert wrong.answer_input is not None
    enter(wrong, str(right + 1))
    assert says_wrong(wrong)
    hinted_then_shown(wrong, question, right + 1)
    assert str(right) in wrong.feedback.value
    enter(wrong, str(right))  # locked until Try again: the shown answer stays
    assert says_wrong(wrong) and wrong.attempts == 1


def test_dealer_buttons_name_the_players_and_the_engine_picks_the_dealer() -> None:
    question = DealerQuestion(players=4, first_dealer=2, round=7, names=("Ann", "Ben", "Cy", "Di"))
    dealer = Game(players=4, first_dealer=2, seed=0).dealer_of(7)
    quiz = QuizWidget(question)
    assert [b.description for b in quiz.choice_buttons] == ["Ann", "Ben", "Cy", "Di"]
    assert quiz.card_picker is None  # the choices are players, not cards
    press_choice(quiz, dealer)
    assert says_right(quiz) and shows(question.check(dealer), quiz.feedback)
    wrong = QuizWidget(question)
    press_choice(wrong, (dealer + 1) % 4)
    assert says_wrong(wrong)
    hinted_then_shown(wrong, question, (dealer + 1) % 4)
    assert "The deal passes one seat clockwise" in wrong.feedback.value
    assert all(button.disabled for button in wrong.choice_buttons)


@pytest.mark.parametrize("dealer", [0, 2])
def test_first_bidder_is_whoever_the_engine_asks_to_bid_first(dealer: int) -> None:
    question = FirstBidderQuestion(players=3, dealer=dealer, names=("Ann", "Ben", "Cleo"))
    first = _engine_bidding_round(3, 1, dealer, Rules()).to_act
    assert first is not None
    quiz = QuizWidget(question)
    press_choice(quiz, first)
    assert says_right(quiz) and shows(question.check(first), quiz.feedback)
    other = next(seat for seat in range(3) if seat != first)
    wrong = QuizWidget(question)
    press_choice(wrong, other)
    assert says_wrong(wrong)
    hinted_then_shown(wrong, question, other)


LEGAL_BIDS_QUESTIONS = [
    LegalBidsQuestion(players=3, cards=2, bids=(1, 0), plus_minus_one=True),
    LegalBidsQuestion(players=4, cards=3, bids=(1, 1), plus_minus_one=True),
    LegalBidsQuestion(players=3, cards=2, bids=(1, 1)),
]


def _engine_legal_bids(question: LegalBidsQuestion) -> set[int]:
    rules = Rules(plus_minus_one=question.plus_minus_one)
    rnd = _engine_bidding_round(question.players, question.cards, question.players - 1, rules)
    for bid in question.bids:
        rnd.bid(bid)
    return set(rnd.legal_bids())


@pytest.mark.parametrize(
    "question", LEGAL_BIDS_QUESTIONS, ids=lambda q: f"{q.bids}-{q.plus_minus_one}"
)
def test_legal_bids_toggles_then_check_graded_by_the_engine(question: LegalBidsQuestion) -> None:
    legal = _engine_legal_bids(question)
    quiz = QuizWidget(question)
    assert quiz.choice_toggles is not None and quiz.choice_toggles.cards == ()
    assert [t.description for t in quiz.choice_toggles.toggles] == [
        str(bid) for bid in range(question.cards + 1)
    ]
    select(quiz, set(legal))
    assert quiz.feedback.value == ""  # nothing is graded before Check
    quiz.check_button.click()
    assert says_right(quiz) and shows(question.check(legal), quiz.feedback)


def test_legal_bids_wrong_selection_shows_what_plus_minus_one_forbids() -> None:
    question = LEGAL_BIDS_QUESTIONS[0]
    legal = _engine_legal_bids(question)
    forbidden = set(range(question.cards + 1)) - legal
    assert forbidden  # plus/minus one forbids one bid to the last bidder
    quiz = QuizWidget(question)
    select(quiz, set(range(question.cards + 1)))
    assert quiz.choice_toggles is not None
    assert quiz.choice_toggles.toggles[0].description == text(
        "widgets.card-button-selected", card="0"
    )
    quiz.check_button.click()
    every = set(range(question.cards + 1))
    assert says_wrong(quiz)
    hinted_then_shown(quiz, question, every)
    assert "forbids it to the last bidder" in quiz.feedback.value
    # Each bid's button then says in words whether it may be bid and that it was
    # chosen, and locks.
    for bid, toggle in enumerate(quiz.choice_toggles.toggles):
        key = "round-quiz.legal-bid" if bid in legal else "round-quiz.illegal-bid"
        assert text(key) in toggle.description and toggle.disabled
        assert text("widgets.your-choice") in toggle.description
        assert toggle.description.startswith("✔" if bid in legal else "✘")


@pytest.mark.parametrize("bidding", list(Bidding))
@pytest.mark.parametrize("when", list(BidTime))
def test_bid_visibility_yes_no_buttons_follow_the_engines_round(
    bidding: Bidding, when: BidTime
) -> None:
    question = BidVisibilityQuestion(bidding=bidding, when=when)
    # RULES.md: open bids are heard by all; hidden bids are revealed before play; secret
    # bids stay hidden until scoring.
    visible = {
        Bidding.OPEN: True,
        Bidding.HIDDEN: when is not BidTime.BIDDING,
        Bidding.SECRET: when is BidTime.SCORING,
    }[bidding]
    quiz = QuizWidget(question)
    assert [b.description for b in quiz.choice_buttons] == [
        text("round-quiz.yes"),
        text("round-quiz.no"),
    ]
    press_choice(quiz, visible)
    assert says_right(quiz) and shows(question.check(visible), quiz.feedback)
    wrong = QuizWidget(question)
    press_choice(wrong, not visible)
    assert says_wrong(wrong)
    hinted_then_shown(wrong, question, not visible)
    assert text(f"bidding-mode.{bidding.value}") in wrong.feedback.value


def test_quiz_widget_asks_only_the_protocol_never_the_kind() -> None:
    """A kind the widget has never heard of is shown from its answers alone."""

    class CountJesters(Question):
        __slots__ = ()
        answer_kind = AnswerKind.NUMBER

        @property
        def topic(self) -> Topic:
            return Topic.CARDS_AND_ROUNDS

        def prompt(self, lang: str = "en") -> str:
            return "How many Jesters are in the deck?"

        def correct_answer(self) -> int:
            return sum(card.is_jester for card in DECK)

        def check(self, answer: object, lang: str = "en") -> Feedback:
            right = self.correct_answer()
            return Feedback.graded(answer == right, f"There are {right}.", "", lang)

    quiz = QuizWidget(CountJesters())
    assert quiz.answer_input is not None
    enter(quiz, "4")
    assert says_right(quiz)


# -- answering once, callbacks, next question ----------------------------------------------


def test_first_answer_counts_and_is_reported_once() -> None:
    answers: list[tuple[Question, bool, bool]] = []
    question = TRICK_QUESTIONS[0]
    quiz = QuizWidget(question)
    quiz.on_graded(lambda *call: answers.append(call))
    quiz.choice_buttons[0].click()
    quiz.choice_buttons[2].click()  # too late: the buttons are locked, and ignored anyway
    assert answers == [(question, False, True)]
    feedback = quiz.last_feedback
    # A first miss: what the learner was shown, a hint (the teaching layer's choice).
    assert quiz.last_answer == 0 and feedback == feedback_for(question, 0)
    assert not feedback.revealed
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
    assert quiz.answer_input is not None and quiz.answer_input.value == ""
    assert quiz.attempts == 0 and quiz.first_try_correct is None and not quiz.check_button.disabled


def test_quiz_refuses_what_it_cannot_show() -> None:
    with pytest.raises(UnsupportedQuestionError, match="cannot show 'R9'"):
        QuizWidget("R9")  # type: ignore[arg-type]
    with pytest.raises(UnsupportedQuestionError, match="cannot show"):
        QuizWidget(SCORE_QUESTIONS[0]).load(("bid", 2))  # type: ignore[arg-type]


def test_prompt_comes_from_the_question() -> None:
    for question in (TRICK_QUESTIONS[0], LEGAL_QUESTIONS[0], SCORE_QUESTIONS[0]):
        assert words_html(question.prompt()) in QuizWidget(question).prompt.value


# -- keyboard: real buttons and text boxes, named in words ---------------------------------


ALL_QUESTIONS: list[Question] = [
    TRICK_QUESTIONS[0],
    LEGAL_QUESTIONS[0],
    SCORE_QUESTIONS[0],
    TRUMP_QUESTIONS[2],
    ScheduleQuestion(players=4, ask=ScheduleAsk.ROUNDS),
    DealerQuestion(players=4, first_dealer=0, round=6),
    FirstBidderQuestion(players=3, dealer=1, names=("Ann", "Ben", "Cleo")),
    LegalBidsQuestion(players=3, cards=2, bids=(1, 0), plus_minus_one=True),
    BidVisibilityQuestion(bidding=Bidding.HIDDEN, when=BidTime.BIDDING),
]


def controls(widget: widgets.Widget) -> list[widgets.Widget]:
    """Every widget a learner can act on inside ``widget``."""
    found = []
    stack = [widget]
    while stack:
        current = stack.pop()
        if isinstance(current, widgets.Box):
            stack.extend(current.children)
        elif isinstance(current, widgets.Button | widgets.ToggleButton | widgets.Text):
            found.append(current)
    return found


@pytest.mark.parametrize("question", ALL_QUESTIONS, ids=lambda q: type(q).__name__)
def test_every_control_is_a_focusable_button_or_box_named_in_words(question: Question) -> None:
    quiz = QuizWidget(question)
    found = controls(quiz)
    assert found, "a question needs something to answer with"
    for control in found:
        # Buttons and text boxes are native, focusable elements: Tab reaches them,
        # Space/Enter press a button; the description is the name a screen reader reads.
        assert type(control) in (widgets.Button, widgets.ToggleButton, widgets.Text)
        assert control.description.strip()
        assert not control.disabled


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


def test_toggle_choices_without_cards_select_and_mark_in_words() -> None:
    bids = ToggleChoices(["0", "1", "2"])
    assert bids.pictures == [] and list(bids.children) == bids.toggles
    bids.toggles[1].value = True
    assert bids.selected_indices == (1,)
    assert bids.toggles[1].description == text("widgets.card-button-selected", card="1")
    bids.mark(1, description="1: may be bid", highlight=True, dimmed=False, style="success")
    assert bids.toggles[1].description == "1: may be bid"
    assert bids.toggles[1].button_style == "success"
    bids.clear()
    assert not bids.selected_indices and bids.toggles[1].button_style == ""
    assert bids.toggles[1].description == text("widgets.card-button", card="1")


def test_card_picker_reports_the_pressed_card() -> None:
    picked: list[int] = []
    picker = CardPicker("W R9 J", on_pick=picked.append)
    picker.buttons[1].click()
    picker.buttons[0].click()
    assert picked == [1, 0]
    with pytest.raises(ValueError, match="2 player names for 3 cards"):
        CardPicker("W R9 J", players="AB")
    labelled = CardPicker("W R9", labels=["first", "second"])
    assert [b.description for b in labelled.buttons] == ["first", "second"]


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
    assert all((a or b).startswith("#") for a, b in references)
    assert "<style" not in chart
    # Described in words for screen readers: every player's total now.
    label = re.search(r'role="img" aria-label="([^"]*)"', chart)
    assert label is not None
    for name, total in zip(sheet.names, sheet.totals, strict=True):
        assert f"{name} {format_points(total)}" in label.group(1)


# -- fair to answer: nothing is graded without an answer; a wrong answer can be tried again --


def graded_calls(quiz: QuizWidget) -> list[tuple[bool, bool]]:
    """Where ``quiz`` reports each graded answer: (correct, first_try)."""
    calls: list[tuple[bool, bool]] = []
    quiz.on_graded(lambda question, correct, first_try: calls.append((correct, first_try)))
    return calls


@pytest.mark.parametrize("typed", ["", "   ", "fifty", "2.5", "4 0", "--20", "20-"])
def test_a_number_box_without_a_number_asks_for_one_and_grades_nothing(typed: str) -> None:
    quiz = QuizWidget(SCORE_QUESTIONS[0])
    calls = graded_calls(quiz)
    assert quiz.answer_input is not None and quiz.answer_input.value == ""  # not 0
    enter(quiz, typed)
    assert 'class="quiz-hint"' in quiz.feedback.value
    assert not says_right(quiz) and not says_wrong(quiz)
    # A score question's example numbers are scores (one below zero).
    if typed.strip():
        asked = text("quiz.number-not-a-number-points", typed=typed.strip())
    else:
        asked = text("quiz.number-empty-points")
    assert words_html(asked) in quiz.feedback.value and "−20" in asked
    assert calls == [] and quiz.attempts == 0 and quiz.first_try_correct is None
    assert not quiz.answer_input.disabled
    enter(quiz, "40")  # then a number is graded as usual, as the first try
    assert says_right(quiz) and calls == [(True, True)]


@pytest.mark.parametrize("typed", ["", "fifty"])
def test_a_count_question_asks_for_a_number_with_counts_for_examples(typed: str) -> None:
    """A rounds question's request quotes counts, not a score (no −20 rounds)."""
    quiz = QuizWidget(ScheduleQuestion(players=4, ask=ScheduleAsk.ROUNDS))
    enter(quiz, typed)
    key = "quiz.number-not-a-number" if typed else "quiz.number-empty"
    asked = text(key, typed=typed)
    assert words_html(asked) in quiz.feedback.value
    assert "−" not in asked and "40" not in asked and quiz.attempts == 0


def test_leaving_the_number_box_grades_nothing() -> None:
    """The box sends nothing as it is typed in or left; only Check or Enter grades, with
    what they carry."""
    quiz = QuizWidget(SCORE_QUESTIONS[0])
    calls = graded_calls(quiz)
    assert quiz.answer_input is not None
    quiz.answer_input.value = "40"
    quiz.answer_input._handle_custom_msg({"event": "blur"}, [])
    assert quiz.feedback.value == "" and calls == []


@pytest.mark.parametrize("typed", ["−20", "-20", "－２０", " -20 "])
def test_a_negative_score_may_be_typed_with_any_minus_sign(typed: str) -> None:
    quiz = QuizWidget(ScoreQuestion(bid=3, taken=1))
    enter(quiz, typed)
    assert says_right(quiz)


@pytest.mark.parametrize(
    "question",
    [LEGAL_QUESTIONS[0], LegalBidsQuestion(players=3, cards=2, bids=(1,))],
    ids=["cards", "bids"],
)
def test_check_with_nothing_selected_asks_for_a_choice_and_grades_nothing(
    question: Question,
) -> None:
    quiz = QuizWidget(question)
    calls = graded_calls(quiz)
    quiz.check_button.click()
    assert words_html(text("widgets.choose-first")) in quiz.feedback.value
    assert 'class="quiz-hint"' in quiz.feedback.value and "✔" not in quiz.feedback.value
    assert calls == [] and quiz.first_try_correct is None
    assert quiz.choice_toggles is not None
    assert not any(toggle.disabled for toggle in quiz.choice_toggles.toggles)


@pytest.mark.parametrize("question", ALL_QUESTIONS, ids=lambda q: type(q).__name__)
def test_a_wrong_answer_can_be_tried_again_and_the_first_try_counts(question: Question) -> None:
    quiz = QuizWidget(question)
    calls = graded_calls(quiz)
    right = question.correct_answer()
    if question.answer_kind is AnswerKind.NUMBER:
        wrong: object = right + 1  # type: ignore[operator]
    elif question.answer_kind is AnswerKind.ONE_CHOICE:
        wrong = next(choice for choice in question.choices() if choice != right)
    else:
        wrong = tuple(question.choices())  # every choice: never right here
    assert not question.check(wrong).correct
    answer_as_learner(quiz, wrong)
    assert says_wrong(quiz) and quiz.first_try_correct is False and not quiz.solved
    # The hint stays on screen with a way to try again below it.
    assert quiz.try_again_button.layout.display != "none"
    assert "hinted" in quiz.feedback.value
    assert quiz.children.index(quiz.feedback) < len(quiz.children) - 1
    quiz.try_again_button.click()
    assert quiz.feedback.value == "" and quiz.try_again_button.layout.display == "none"
    assert all(
        not control.disabled for control in controls(quiz) if control is not quiz.try_again_button
    )
    answer_as_learner(quiz, right)
    assert says_right(quiz) and quiz.solved
    assert quiz.first_try_correct is False  # the score keeps the first try
    assert calls == [(False, True), (True, False)] and quiz.attempts == 2
    assert quiz.try_again_button.layout.display == "none"  # nothing to retry once right
    quiz.try_again()
    assert says_right(quiz)


@pytest.mark.parametrize("question", ALL_QUESTIONS, ids=lambda q: type(q).__name__)
def test_a_second_miss_shows_the_whole_answer_without_asking(question: Question) -> None:
    """The hint is for the first miss; after the retry the engine's answer comes at once."""
    quiz = QuizWidget(question)
    wrong = _a_wrong_answer(question)
    answer_as_learner(quiz, wrong)
    assert "hinted" in quiz.feedback.value
    quiz.try_again_button.click()
    answer_as_learner(quiz, wrong)
    assert says_wrong(quiz) and shows(question.check(wrong), quiz.feedback)
    assert "hinted" not in quiz.feedback.value
    assert quiz.show_answer_button.layout.display == "none"
    assert quiz.first_try_correct is False and quiz.attempts == 2


@pytest.mark.parametrize("question", ALL_QUESTIONS, ids=lambda q: type(q).__name__)
def test_every_hint_is_words_of_the_rule_not_the_answer(question: Question) -> None:
    for lang in ("en", "ja", "zh-Hant"):
        hint = question.hint(lang)
        full = question.check(_a_wrong_answer(question), lang)
        assert hint and hint != text("quiz-hint.generic", lang)  # each kind has its own
        assert full.answer not in hint and (not full.explanation or full.explanation not in hint)


def _a_wrong_answer(question: Question) -> object:
    right = question.correct_answer()
    if question.answer_kind is AnswerKind.NUMBER:
        return right + 1  # type: ignore[operator]
    if question.answer_kind is AnswerKind.ONE_CHOICE:
        return next(choice for choice in question.choices() if choice != right)
    return tuple(question.choices())  # every choice: never right here


def answer_as_learner(quiz: QuizWidget, answer: object) -> None:
    """Answer as a learner would: a button, toggles then Check, or typing then Enter."""
    kind = quiz.question.answer_kind
    if kind is AnswerKind.NUMBER:
        enter(quiz, str(answer))
    elif kind is AnswerKind.ONE_CHOICE:
        press_choice(quiz, answer)
    else:
        select(quiz, set(answer))  # type: ignore[call-overload]
        quiz.check_button.click()


@pytest.mark.parametrize("question", ALL_QUESTIONS, ids=lambda q: type(q).__name__)
def test_after_an_answer_the_learners_choice_is_marked_in_words(question: Question) -> None:
    """Every kind of question shows what the learner chose, and what was right."""
    quiz = QuizWidget(question)
    right = question.correct_answer()
    if question.answer_kind is AnswerKind.NUMBER:
        answer_as_learner(quiz, right + 1)  # type: ignore[operator]
        assert quiz.answer_mark is not None
        assert text("widgets.yours-wrong") in quiz.answer_mark.value
        return
    if question.answer_kind is AnswerKind.ONE_CHOICE:
        wrong = next(choice for choice in question.choices() if choice != right)
        answer_as_learner(quiz, wrong)
        quiz.show_answer_button.click()  # after the hint, the learner asks for the answer
        index = list(quiz.choices).index(wrong)
        chosen = quiz.choice_buttons[index]
        correct = quiz.choice_buttons[list(quiz.choices).index(right)]
        # A card's words go under it; a plain button says it all itself.
        said = chosen.description + (
            quiz.card_picker.verdicts[index].value if quiz.card_picker else ""
        )
        assert text("widgets.your-answer") in said and chosen.description.startswith("✘")
        assert correct.description.startswith("✔") and correct.button_style == "success"
        return
    chosen_set = set(question.choices())
    answer_as_learner(quiz, chosen_set)
    quiz.show_answer_button.click()
    toggles = quiz.choice_toggles
    assert toggles is not None
    for index, _choice in enumerate(question.choices()):
        words = toggles.toggles[index].description + (
            toggles.verdicts[index].value if toggles.cards else ""
        )
        assert text("widgets.your-choice") in words


def test_a_marked_button_keeps_its_full_colour_when_locked() -> None:
    """Disabled ipywidgets buttons are drawn faded; a marked one (the learner's, the
    right one, a missed card) must not look like a card that cannot be chosen."""
    quiz = QuizWidget(LegalPlaysQuestion.of(hand="B7 R12 W", plays="B5", trump="R"))
    select(quiz, {Card.parse("B7")})  # the Wizard is missed
    quiz.check_button.click()
    quiz.show_answer_button.click()
    assert quiz.choice_toggles is not None
    missed = quiz.choice_toggles.toggles[2]
    assert missed.disabled and "tutor-quiz-marked" in missed._dom_classes
    assert missed.button_style == "warning"
    assert (
        ".tutor-quiz .jupyter-button.tutor-quiz-marked:disabled { opacity: 1;" in quiz._style.value
    )


@pytest.mark.parametrize("question", ALL_QUESTIONS, ids=lambda q: type(q).__name__)
def test_a_question_with_several_answers_says_so_before_any_check(question: Question) -> None:
    """Issue 19: "pick all" was said only after Check with nothing chosen."""
    quiz = QuizWidget(question, lang="ja")
    shown = "".join(child.value for child in _html_parts(quiz))
    words = text("quiz.pick-all-lower" if question.answer_label("ja") else "quiz.pick-all", "ja")
    says = words_html(words) in shown
    assert says is (question.answer_kind is AnswerKind.MANY_CHOICES)


def _html_parts(widget: widgets.Widget) -> list[widgets.HTML]:
    """Every HTML widget inside ``widget``, in order."""
    if isinstance(widget, widgets.HTML):
        return [widget]
    return [part for child in getattr(widget, "children", ()) for part in _html_parts(child)]


def test_each_card_choice_is_one_column_whose_button_covers_it() -> None:
    """The picture is inside the column the button's ::after covers (QUIZ_CSS)."""
    quiz = QuizWidget(LEGAL_QUESTIONS[0])
    assert quiz.choice_toggles is not None
    for column, toggle in zip(
        quiz.choice_toggles.children, quiz.choice_toggles.toggles, strict=True
    ):
        assert "tutor-quiz-card-choice" in column._dom_classes and column.children[-1] is toggle
    assert ".tutor-quiz-card-choice > button::after" in quiz._style.value
