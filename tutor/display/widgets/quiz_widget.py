"""Any question as a widget (:class:`QuizWidget`): the prompt, its scene, the controls its
answer needs and the engine's feedback.

>>> from tutor.teaching.quiz import ScoreQuestion
>>> quiz = QuizWidget(ScoreQuestion(bid=2, taken=2))
>>> quiz.answer_input.submit("40")          # what typing 40 and Enter (or Check) does
>>> "Right!" in quiz.feedback.value, quiz.first_try_correct
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import ipywidgets as widgets

from tutor.display import looks
from tutor.display.answer_box import AnswerBox
from tutor.display.svg import card_svg
from tutor.display.visibility import HIDDEN, set_visible
from tutor.display.widgets.card_picker import CardPicker
from tutor.display.widgets.choice_marks import mark_many, mark_one
from tutor.display.widgets.html_widget import html_widget
from tutor.display.widgets.quiz_html import (
    answer_heading_html,
    feedback_html,
    hint_html,
    prompt_html,
    question_heading_html,
)
from tutor.display.widgets.quiz_style import (
    QUIZ_CLASS,
    QUIZ_CSS,
    RIGHT_COLOUR,
    WRONG_COLOUR,
    quiz_button,
    unmark,
)
from tutor.display.widgets.toggle_choices import ToggleChoices
from tutor.display.widgets.trick_view import TrickView
from tutor.display.words import words_html
from tutor.teaching.question import NOT_KEPT
from tutor.teaching.quiz import (
    AnswerKind,
    Feedback,
    Question,
    Scene,
    feedback_for,
    read_number,
    revealed,
)
from tutor.teaching.text import DEFAULT_LANGUAGE, text

GradedCallback = Callable[[Question, bool, bool], None]
"""Called with (question, correct, first_try) each time an answer is graded."""


class UnsupportedQuestionError(ValueError):
    """A question of a kind :class:`QuizWidget` cannot show."""


def _require_question(question: object) -> None:
    if not isinstance(question, Question):
        raise UnsupportedQuestionError(
            f"QuizWidget cannot show {question!r}: it shows a tutor.teaching.quiz.Question "
            "(the kinds of tutor.teaching.quiz and tutor.teaching.round_quiz)"
        )


class QuizWidget(widgets.VBox):  # type: ignore[misc]
    """Any question (a :class:`tutor.teaching.quiz.Question`) as a widget: the prompt, the cards
    its scene shows, the controls its :attr:`~tutor.teaching.quiz.Question.answer_kind` needs, and
    feedback from the engine as soon as the learner answers. It never asks which kind of
    question it shows:

    - one choice: a button per choice (:attr:`choice_buttons`); pressing one answers. When
      every choice is a card (who takes the trick?), each card is drawn above its button
      (:attr:`card_picker`);
    - several choices: a toggle per choice (:attr:`choice_toggles`; cards drawn above
      theirs, e.g. the hand of a legal-plays question), then :attr:`check_button`;
    - a number: a text box with its own Check button (:attr:`answer_input`, an
      :class:`~tutor.display.answer_box.AnswerBox`, empty to start with); Enter in the box
      or its Check grades the text typed, which travels with the press; leaving the box
      grades nothing.

    Above them, the scene: the trick so far (:attr:`trick_view`) or the turned card.

    Checking grades nothing until there is an answer: with nothing selected, an empty box
    or words that are not a number ("fifty"), :attr:`feedback` asks for one instead.

    A graded answer is shown in :attr:`feedback` (an HTML widget) and on the choices
    themselves: the learner's own choice, the right one, a card they missed, a card they
    should not have picked, each in words with an icon (✔, ✘), the colour only repeating
    it. The inputs lock. After a wrong answer :attr:`try_again_button` unlocks them for
    another try, below the explanation; the first try is the one a score counts
    (:attr:`first_try_correct`).

    ``title`` (e.g. "Question 2 of 6") is shown above the prompt, and under it ``note``,
    the words that set the scene ("A led the blue 6 and B played a Wizard. You are C."):
    they belong to this question, under its heading; ``mark`` (HTML) goes before them
    (e.g. the live room's mark on a question it may open).

    Hooks:

    - ``on_graded(callback)`` registers ``callback(question, correct, first_try)``, called
      once for every graded check (a request for an answer is not one). ``first_try`` is
      True for the first graded answer to this question in this widget. This is where a
      progress store records answers (the question's ``topic`` says what it exercised).
    - ``on_next(quiz)``: with it, :attr:`next_button` appears once the question is
      answered; :meth:`load` puts the next question in the same widget.

    >>> from tutor.teaching.quiz import TrickWinnerQuestion
    >>> quiz = QuizWidget(TrickWinnerQuestion.of("J B5 B11 B7", trump="R", players="ABCD"))
    >>> graded = []
    >>> quiz.on_graded(lambda question, correct, first_try: graded.append((correct, first_try)))
    >>> quiz.choice_buttons[3].click()
    >>> quiz.last_feedback.correct, "Not quite." in quiz.feedback.value
    (False, True)
    >>> quiz.try_again_button.click(); quiz.choice_buttons[2].click()
    >>> graded, quiz.first_try_correct, quiz.solved
    ([(False, True), (True, False)], False, True)
    """

    def __init__(
        self,
        question: Question,
        *,
        lang: str = DEFAULT_LANGUAGE,
        on_next: Callable[[QuizWidget], None] | None = None,
        scale: float = 0.9,
        title: str = "",
        note: str = "",
        mark: str = "",
    ) -> None:
        _require_question(question)
        self.lang = lang
        self.scale = scale
        self.on_next = on_next
        self._graded_callbacks: list[GradedCallback] = []
        # Every part is made whole (words, CSS classes, shared look: tutor.display.looks)
        # before the quiz opens, so that each reaches the browser in the one message that
        # opens it. Stable class names for the app's script and style and for browser
        # tests (e.g. to make the feedback box a live region: ipywidgets cannot set ARIA
        # attributes).
        # The note in the heading's own widget: the quiz keeps its parts (a presenter's
        # layout places them by their order, see tutor.css).
        self.note = note
        heading = question_heading_html(title, note)
        self.title = html_widget(
            mark + heading,
            classes=(f"{QUIZ_CLASS}-title",),
            layout=looks.layout(display=None if heading else HIDDEN),
        )
        self.prompt = html_widget(prompt_html(question, lang), classes=(f"{QUIZ_CLASS}-prompt",))
        self.feedback = html_widget(classes=(f"{QUIZ_CLASS}-feedback",))
        self.check_button = quiz_button(
            text("widgets.check", lang),
            text("widgets.check-tooltip", lang),
            classes=(f"{QUIZ_CLASS}-check",),
            button_style="primary",
        )
        self.check_button.on_click(lambda _button: self._check_pressed())
        self.try_again_button = quiz_button(
            text("widgets.try-again", lang),
            text("widgets.try-again-tooltip", lang),
            classes=(f"{QUIZ_CLASS}-try-again",),
            hidden=True,
        )
        self.try_again_button.on_click(lambda _button: self.try_again())
        self.show_answer_button = quiz_button(
            text("widgets.show-answer", lang),
            text("widgets.show-answer-tooltip", lang),
            classes=(f"{QUIZ_CLASS}-show-answer",),
            hidden=True,
        )
        self.show_answer_button.on_click(lambda _button: self.show_answer())
        self.next_button = quiz_button(
            text("widgets.next", lang),
            text("widgets.next-tooltip", lang),
            classes=(f"{QUIZ_CLASS}-next",),
            hidden=True,
        )
        self.next_button.on_click(lambda _button: self._next_pressed())
        self.answer_again_button = quiz_button(
            text("widgets.answer-again", lang),
            text("widgets.answer-again-tooltip", lang),
            classes=(f"{QUIZ_CLASS}-answer-again",),
            hidden=True,
        )
        self.answer_again_button.on_click(lambda _button: self.answer_again())
        self._again_callbacks: list[Callable[[QuizWidget], None]] = []
        self._style = html_widget(QUIZ_CSS, layout=looks.layout(display=HIDDEN))
        super().__init__(self._build(question), layout=looks.layout(), _dom_classes=(QUIZ_CLASS,))

    # -- building -----------------------------------------------------------------------

    def load(self, question: Question) -> None:
        """Show ``question`` (a fresh one: no answer, empty feedback, no tries yet)."""
        self.children = self._build(question)

    def _build(self, question: Question) -> list[widgets.Widget]:
        """The parts that show ``question``, fresh; the quiz's children."""
        _require_question(question)
        self.question: Question = question
        self.answered = False  # an answer is shown and the inputs are locked
        self.attempts = 0  # graded answers (a request for an answer is not one)
        self.misses = 0  # wrong graded answers: the first gets a hint, later ones the answer
        self.first_try_correct: bool | None = None  # None until the first graded answer
        self.last_answer: object = None
        self.last_feedback: Feedback | None = None
        self.choices: tuple[object, ...] = question.choices()
        self.choice_buttons: list[widgets.Button] = []
        self.card_picker: CardPicker | None = None
        self.choice_toggles: ToggleChoices | None = None
        self.trick_view: TrickView | None = None
        self.answer_input: AnswerBox | None = None
        self.answer_mark: widgets.HTML | None = None
        set_visible(self.next_button, False)
        set_visible(self.try_again_button, False)
        set_visible(self.show_answer_button, False)
        set_visible(self.answer_again_button, False)
        self.earlier = False  # showing an answer given before this page (show_earlier)
        self.feedback.value = ""
        self.prompt.value = prompt_html(question, self.lang)
        scene = self._build_scene(question.scene())
        if question.answer_kind is AnswerKind.NUMBER:
            answering: list[widgets.Widget] = [self._build_number(question)]
        else:
            heading = answer_heading_html(question, self.lang)
            answering = []
            if heading:
                answering.append(html_widget(heading, classes=(f"{QUIZ_CLASS}-answer-heading",)))
            answering += self._build_choices(question)
        answer_box = widgets.VBox(
            answering, layout=looks.layout(), _dom_classes=(f"{QUIZ_CLASS}-answer",)
        )
        body: list[widgets.Widget] = [answer_box]
        if scene:
            # The cards on the table beside the hand (below it on a narrow screen): the
            # question fits a laptop's or a projector's screen without scrolling.
            scene_box = widgets.VBox(
                scene,
                layout=looks.layout(margin="0 2em 0 0"),
                _dom_classes=(f"{QUIZ_CLASS}-scene",),
            )
            body = [
                widgets.Box(
                    [scene_box, answer_box],
                    layout=looks.layout(flex_flow="row wrap", align_items="flex-start"),
                )
            ]
        if self.choice_toggles is not None:
            body.append(widgets.HBox([self.check_button], layout=looks.layout()))
        self._unlock()
        return [
            self._style,
            self.title,
            self.prompt,
            *body,
            self.feedback,
            widgets.HBox(
                [
                    self.try_again_button,
                    self.show_answer_button,
                    self.answer_again_button,
                    self.next_button,
                ],
                layout=looks.layout(),
            ),
        ]

    def _build_scene(self, scene: Scene) -> list[widgets.Widget]:
        shown: list[widgets.Widget] = []
        if scene.trick:
            self.trick_view = TrickView(scene.trick, scale=self.scale * 0.8, lang=self.lang)
            caption = text("lesson.picture-trick", self.lang)
            shown += [html_widget(f"<strong>{words_html(caption)}</strong>"), self.trick_view]
        if scene.turned is not None:
            shown.append(html_widget(card_svg(scene.turned, scale=self.scale, lang=self.lang)))
        return shown

    def _build_number(self, question: Question) -> widgets.Widget:
        # Empty to start with: a 0 in the box would be an answer nobody gave. Only Check or
        # Enter grades, and what they grade is the text they carry (never leaving the box).
        self.answer_input = AnswerBox(
            description=question.answer_label(self.lang),
            tooltip=text("widgets.number-input-tooltip", self.lang),
            check_label=self.check_button.description,
            check_tooltip=self.check_button.tooltip,
            layout=looks.layout(),
            _dom_classes=(f"{QUIZ_CLASS}-number",),
        )
        self.answer_input.on_submit(self._number_submitted)
        self.answer_mark = html_widget(classes=(f"{QUIZ_CLASS}-your-answer",))
        return widgets.HBox(
            [self.answer_input, self.answer_mark],
            layout=looks.layout(align_items="center", flex_flow="row wrap"),
        )

    def _build_choices(self, question: Question) -> list[widgets.Widget]:
        labels = [question.choice_label(choice, self.lang) for choice in self.choices]
        drawn = [question.choice_card(choice) for choice in self.choices]
        cards = [card for card in drawn if card is not None]
        all_cards = len(cards) == len(drawn)
        if question.answer_kind is AnswerKind.MANY_CHOICES:
            self.choice_toggles = ToggleChoices(
                labels, cards=cards if all_cards else None, scale=self.scale, lang=self.lang
            )
            return [self.choice_toggles]
        choice_class = (f"{QUIZ_CLASS}-choice",)
        if all_cards:
            self.card_picker = CardPicker(
                cards,
                labels=labels,
                scale=self.scale,
                lang=self.lang,
                on_pick=self._picked,
                button_classes=choice_class,
            )
            self.choice_buttons = self.card_picker.buttons
            shown: widgets.Widget = self.card_picker
        else:
            for index, label in enumerate(labels):
                button = quiz_button(label, label, classes=choice_class)
                button.on_click(lambda _button, index=index: self._picked(index))
                self.choice_buttons.append(button)
            shown = widgets.Box(self.choice_buttons, layout=looks.layout(flex_flow="row wrap"))
        return [shown]

    # -- hooks --------------------------------------------------------------------------

    def on_graded(self, callback: GradedCallback, *, remove: bool = False) -> None:
        """Register (or, with ``remove=True``, unregister) ``callback(question, correct,
        first_try)``, called once for every graded answer, the retries included."""
        if remove:
            self._graded_callbacks.remove(callback)
        else:
            self._graded_callbacks.append(callback)

    @property
    def solved(self) -> bool:
        """Whether the question has been answered right (on any try)."""
        return self.last_feedback is not None and self.last_feedback.correct

    def on_answer_again(self, callback: Callable[[QuizWidget], None]) -> None:
        """Register ``callback(quiz)``, called when the learner asks to answer an earlier
        answer's question again (:meth:`answer_again`), before it is shown fresh."""
        self._again_callbacks.append(callback)

    # -- an answer given before ---------------------------------------------------------

    def show_earlier(self, answer: object, correct: bool) -> None:
        """Show the learner's first answer from before this page (a lesson reopened):
        ``answer`` marked on the choices (:data:`~tutor.teaching.question.NOT_KEPT`: the
        event did not keep it) and graded as
        it was (``correct``), with the whole explanation; locked, with
        :attr:`answer_again_button`. Nothing is graded or recorded."""
        self.load(self.question)
        self.answered = True
        self.earlier = True
        self.attempts = 1
        self.first_try_correct = correct
        self.last_answer = answer
        if answer is not NOT_KEPT:
            if self.choice_toggles is not None and isinstance(answer, tuple):
                for toggle, choice in zip(self.choice_toggles.toggles, self.choices, strict=True):
                    toggle.value = choice in answer
            if self.answer_input is not None and isinstance(answer, int):
                self.answer_input.value = self.question.number_words(answer)
            feedback = revealed(self.question, answer, self.lang)
        else:  # only the verdict was kept: the right answer and why, under it
            right = revealed(self.question, self.question.correct_answer(), self.lang)
            verdict = text("quiz.correct" if correct else "quiz.wrong", self.lang)
            feedback = replace(right, correct=correct, verdict=verdict, given="")
        self.last_feedback = feedback
        said = words_html(text("widgets.earlier-answer", self.lang))
        earlier = f'<p class="{QUIZ_CLASS}-earlier"><strong>{said}</strong></p>'
        self.feedback.value = earlier + feedback_html(feedback, lang=self.lang)
        if answer is not NOT_KEPT:
            self._lock_and_mark(answer)
        else:
            self._lock_and_mark_nothing()
        set_visible(self.answer_again_button, True)

    def answer_again(self) -> None:
        """After an earlier answer (:meth:`show_earlier`): the question fresh, to answer
        again (practice: the callbacks of :meth:`on_answer_again` are told first)."""
        if not self.earlier:
            return
        for callback in list(self._again_callbacks):
            callback(self)
        self.load(self.question)
        self.focus_first()

    def focus_first(self) -> None:
        """The keyboard's focus to the first input, where the browser can be asked (a
        number's box)."""
        if self.answer_input is not None:
            self.answer_input.focus()

    def _lock_and_mark_nothing(self) -> None:
        self.check_button.disabled = True
        for button in self.choice_buttons:
            button.disabled = True
        if self.answer_input is not None:
            self.answer_input.disabled = True
        if self.choice_toggles is not None:
            self.choice_toggles.set_disabled(True)

    # -- answering ----------------------------------------------------------------------

    def _check_pressed(self) -> None:
        """Check under the choices: grade the selection."""
        if self.answered or self.choice_toggles is None:
            return
        chosen = self.choice_toggles.selected_indices
        if not chosen:
            self._ask(text("widgets.choose-first", self.lang))
            return
        self.answer(tuple(self.choices[i] for i in chosen))

    def _number_submitted(self, typed: str) -> None:
        """Enter or Check in the number box, with the text it carried."""
        if self.answered:
            return
        number = read_number(typed)
        if number is None:
            self._ask(self.question.number_request(typed, self.lang))
            return
        self.answer(number)

    def _picked(self, index: int) -> None:
        if not self.answered:
            self.answer(self.choices[index])

    def _next_pressed(self) -> None:
        if self.on_next is not None:
            self.on_next(self)

    def _ask(self, words: str) -> None:
        """Ask the learner for an answer: nothing is graded, nothing locks."""
        self.feedback.value = hint_html(words)

    def answer(self, answer: object) -> Feedback:
        """Grade ``answer`` with the engine, show the feedback and mark the choices. While
        an answer is shown (before :meth:`try_again`), later calls return its feedback
        unchanged.

        What is shown is the teaching layer's choice (:func:`tutor.teaching.quiz.feedback_for`):
        a first wrong answer gets a hint and :attr:`show_answer_button`, a later one the
        whole answer."""
        if self.answered and self.last_feedback is not None:
            return self.last_feedback
        feedback = feedback_for(self.question, answer, misses_before=self.misses, lang=self.lang)
        first_try = self.attempts == 0
        self.attempts += 1
        if not feedback.correct:
            self.misses += 1
        if first_try:
            self.first_try_correct = feedback.correct
        self.answered = True
        self.last_answer = answer
        # Recorded before it is shown: the store's write goes to the browser ahead of the
        # feedback, so a learner who reloads on seeing the feedback finds the answer kept.
        for callback in list(self._graded_callbacks):
            callback(self.question, feedback.correct, first_try)
        self._show_feedback(feedback)
        set_visible(self.try_again_button, not feedback.correct)
        if self.on_next is not None:
            set_visible(self.next_button, True)
        return feedback

    def show_answer(self) -> None:
        """After a hint: the whole answer to the last wrong answer, and the choices marked
        (the learner gave up, or wants to see why). Try again stays."""
        if not self.answered or self.last_feedback is None or self.last_feedback.revealed:
            return
        self._show_feedback(revealed(self.question, self.last_answer, self.lang))

    def _show_feedback(self, feedback: Feedback) -> None:
        self.last_feedback = feedback
        self.feedback.value = feedback_html(feedback, lang=self.lang)
        self._lock_and_mark(self.last_answer)
        set_visible(self.show_answer_button, not feedback.revealed)

    def try_again(self) -> None:
        """After a wrong answer: unlock the inputs, empty and unmarked, for another try
        (the feedback goes too: it gave the answer away, the learner has read it)."""
        if not self.answered or self.solved:
            return
        self.answered = False
        self.feedback.value = ""
        set_visible(self.try_again_button, False)
        set_visible(self.show_answer_button, False)
        self._unlock()
        if self.answer_input is not None:
            self.answer_input.clear()
            self.answer_input.focus()

    def _unlock(self) -> None:
        """The inputs as a fresh question has them: enabled, empty, unmarked."""
        self.check_button.disabled = False
        for button in self.choice_buttons:
            button.disabled = False
        if self.card_picker is not None:
            self.card_picker.unmark()
        else:
            for choice, button in zip(self.choices, self.choice_buttons, strict=False):
                unmark(button)
                button.description = button.tooltip = self.question.choice_label(choice, self.lang)
        if self.choice_toggles is not None:
            self.choice_toggles.set_disabled(False)
            self.choice_toggles.clear()
        if self.answer_input is not None:
            self.answer_input.disabled = False
        if self.answer_mark is not None:
            self.answer_mark.value = ""

    def _lock_and_mark(self, answer: object) -> None:
        """Lock the inputs and say on the choices themselves what the learner chose and
        what was right."""
        self.check_button.disabled = True
        for button in self.choice_buttons:
            button.disabled = True
        if self.answer_input is not None:
            self.answer_input.disabled = True
        if self.answer_mark is not None and self.last_feedback is not None:
            right = self.last_feedback.correct
            key = "widgets.yours-right" if right else "widgets.yours-wrong"
            colour = RIGHT_COLOUR if right else WRONG_COLOUR
            self.answer_mark.value = (
                f'<strong style="color:{colour}">{words_html(text(key, self.lang))}</strong>'
            )
        hinted = self.last_feedback is not None and not self.last_feedback.revealed
        if self.choice_toggles is not None:
            self.choice_toggles.set_disabled(True)
            if not hinted:  # after a hint the selection stays as the learner left it
                mark_many(self.question, self.choices, self.choice_toggles, lang=self.lang)
        elif self.choice_buttons:
            mark_one(
                self.question,
                self.choices,
                answer,
                reveal=not hinted,
                buttons=self.choice_buttons,
                card_picker=self.card_picker,
                lang=self.lang,
            )
