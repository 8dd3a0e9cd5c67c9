"""Jupyter widgets (ipywidgets 8): card pickers, a trick view, quizzes and the score sheet.

The widgets know no rules: what is legal, who wins and what an answer is worth come from
the engine (through the :class:`tutor.teaching.quiz.Question` protocol). Every control a
learner uses is a real button or text box, so Tab moves between them and Space/Enter press
them; every state is said in words (a check mark and "selected", "Right!" with an icon), never by
colour alone. Child widgets are attributes, so tests drive them without a browser:

>>> from tutor.teaching.quiz import ScoreQuestion
>>> quiz = QuizWidget(ScoreQuestion(bid=2, taken=2))
>>> quiz.answer_input.value = 40          # what pressing Enter in the box does
>>> "Right!" in quiz.feedback.value
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from tutor.display.chart import score_chart_html
from tutor.display.html import score_sheet_html
from tutor.display.svg import card_svg, trick_svg
from tutor.rules.cards import Card, parse_cards
from tutor.rules.scoring import ScoreSheet
from tutor.teaching.explain import card_name
from tutor.teaching.quiz import AnswerKind, Feedback, Question, Scene
from tutor.teaching.text import DEFAULT_LANGUAGE, text

AnswerCallback = Callable[[Question, object, Feedback], None]

QUIZ_CLASS = "tutor-quiz"
"""CSS class of a quiz; its parts add a suffix (``-feedback``, ``-check``, ``-choice``...)."""
RIGHT_COLOUR = "#1a7f37"
WRONG_COLOUR = "#b3261e"


class UnsupportedQuestionError(ValueError):
    """A question of a kind :class:`QuizWidget` cannot show."""


def _button_layout() -> widgets.Layout:
    return widgets.Layout(width="auto", min_width="5.5em", margin="0.15em 0.4em 0.15em 0")


def _column_layout() -> widgets.Layout:
    """A card above its button (ipywidgets 8's Layout has no flex gap: margins space them)."""
    return widgets.Layout(align_items="center", margin="0 0.5em 0.5em 0")


class ToggleChoices(widgets.Box):  # type: ignore[misc]
    """Choices to select from: a toggle button each, named in words (``labels``), with a
    card's picture above it when ``cards`` are given. ``multiple=False`` keeps at most one
    selected. A selected choice gets a check mark in its button's words (and a ring in its
    picture).

    >>> bids = ToggleChoices(["0", "1", "2"])
    >>> bids.toggles[2].value = True
    >>> bids.selected_indices, bids.toggles[2].description
    ((2,), '✓ 2')
    """

    def __init__(
        self,
        labels: Sequence[str],
        *,
        cards: Sequence[Card] | None = None,
        multiple: bool = True,
        scale: float = 0.9,
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        self.labels = tuple(labels)
        self.cards: tuple[Card, ...] = tuple(cards) if cards is not None else ()
        if self.cards and len(self.cards) != len(self.labels):
            raise ValueError(f"{len(self.labels)} labels for {len(self.cards)} cards")
        self.multiple = multiple
        self.scale = scale
        self.lang = lang
        self._syncing = False
        self.pictures = [
            widgets.HTML(card_svg(card, scale=scale, lang=lang)) for card in self.cards
        ]
        self.toggles = [
            widgets.ToggleButton(
                value=False,
                description=text("widgets.card-button", lang, card=label),
                tooltip=text("widgets.card-tooltip", lang, card=label),
                layout=_button_layout(),
            )
            for label in self.labels
        ]
        for toggle in self.toggles:
            toggle.observe(self._toggled, names="value")
        columns = (
            [
                widgets.VBox([picture, toggle], layout=_column_layout())
                for picture, toggle in zip(self.pictures, self.toggles, strict=True)
            ]
            if self.cards
            else self.toggles
        )
        super().__init__(
            columns, layout=widgets.Layout(flex_flow="row wrap", align_items="flex-end")
        )

    @property
    def selected_indices(self) -> tuple[int, ...]:
        """Positions of the selected choices, in order."""
        return tuple(i for i, toggle in enumerate(self.toggles) if toggle.value)

    def clear(self) -> None:
        """Unselect every choice."""
        for toggle in self.toggles:
            toggle.value = False

    def set_disabled(self, disabled: bool) -> None:
        """Lock (or unlock) every toggle, e.g. once an answer is checked."""
        for toggle in self.toggles:
            toggle.disabled = disabled

    def mark(self, index: int, *, description: str, highlight: bool, dimmed: bool) -> None:
        """Show a verdict on one choice: new words on its button, ring or fading on its
        picture (the words carry the meaning; the picture repeats it)."""
        self.toggles[index].description = description
        self.toggles[index].tooltip = description
        if self.cards:
            self.pictures[index].value = card_svg(
                self.cards[index], scale=self.scale, lang=self.lang, highlight=highlight, dimmed=dimmed
            )

    def _changed(self) -> None:
        """Called after every change of the selection."""

    def _toggled(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        index = self.toggles.index(change["owner"])
        if change["new"] and not self.multiple:
            self._syncing = True
            try:
                for other, toggle in enumerate(self.toggles):
                    if other != index and toggle.value:
                        toggle.value = False
                        self._show_state(other)
            finally:
                self._syncing = False
        self._show_state(index)
        self._changed()

    def _show_state(self, index: int) -> None:
        words = self.labels[index]
        chosen = bool(self.toggles[index].value)
        key = "card-button-selected" if chosen else "card-button"
        tip = "card-tooltip-selected" if chosen else "card-tooltip"
        self.toggles[index].description = text(f"widgets.{key}", self.lang, card=words)
        self.toggles[index].tooltip = text(f"widgets.{tip}", self.lang, card=words)
        if self.cards:
            self.pictures[index].value = card_svg(
                self.cards[index], scale=self.scale, lang=self.lang, highlight=chosen
            )


class HandSelector(ToggleChoices):
    """A hand of cards to select from: each card's picture above a toggle button named
    with the card's words. ``multiple=False`` keeps at most one card selected.

    ``on_change(selected_cards)`` is called after every change.

    >>> hand = HandSelector("B7 R12 W")
    >>> hand.toggles[0].value = True; hand.toggles[2].value = True
    >>> hand.selected, hand.toggles[0].description
    ((Card.parse('B7'), Card.parse('W')), '✓ blue 7')
    >>> single = HandSelector("B7 R12", multiple=False)
    >>> single.toggles[0].value = True; single.toggles[1].value = True
    >>> single.selected
    (Card.parse('R12'),)
    """

    def __init__(
        self,
        cards: str | Iterable[Card | str],
        *,
        multiple: bool = True,
        scale: float = 0.9,
        lang: str = DEFAULT_LANGUAGE,
        on_change: Callable[[tuple[Card, ...]], None] | None = None,
    ) -> None:
        hand = parse_cards(cards)
        self.on_change = on_change
        super().__init__(
            [card_name(card, lang) for card in hand],
            cards=hand,
            multiple=multiple,
            scale=scale,
            lang=lang,
        )

    @property
    def selected(self) -> tuple[Card, ...]:
        """The selected cards, in hand order."""
        return tuple(self.cards[i] for i in self.selected_indices)

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self.selected)


class CardPicker(widgets.Box):  # type: ignore[misc]
    """Cards with one button each: pressing a card's button picks it at once
    (``on_pick(index)``). Used to answer "which card?" and to play a card.

    ``players`` names who played each card (the buttons then say "blue 11 (C)");
    ``labels`` gives each button's words instead (by default the card's name).

    >>> picked = []
    >>> picker = CardPicker("J B5 B11", players="ABC", on_pick=picked.append)
    >>> picker.buttons[2].description
    'blue 11 (C)'
    >>> picker.buttons[2].click(); picked
    [2]
    """

    def __init__(
        self,
        cards: str | Iterable[Card | str],
        *,
        players: Sequence[str] | None = None,
        labels: Sequence[str] | None = None,
        scale: float = 0.9,
        lang: str = DEFAULT_LANGUAGE,
        on_pick: Callable[[int], None] | None = None,
    ) -> None:
        self.cards: tuple[Card, ...] = tuple(parse_cards(cards))
        self.players = tuple(players) if players is not None else None
        self.labels = tuple(labels) if labels is not None else None
        for given, what in ((self.players, "player names"), (self.labels, "labels")):
            if given is not None and len(given) != len(self.cards):
                raise ValueError(
                    f"{len(given)} {what} for {len(self.cards)} cards: {list(given)!r}"
                )
        self.scale = scale
        self.lang = lang
        self.on_pick = on_pick
        self.pictures = [
            widgets.HTML(card_svg(card, scale=scale, lang=lang)) for card in self.cards
        ]
        self.buttons = [self._button(i) for i in range(len(self.cards))]
        columns = [
            widgets.VBox([picture, button], layout=_column_layout())
            for picture, button in zip(self.pictures, self.buttons, strict=True)
        ]
        super().__init__(
            columns, layout=widgets.Layout(flex_flow="row wrap", align_items="flex-end")
        )

    def _button(self, index: int) -> widgets.Button:
        words = card_name(self.cards[index], self.lang)
        if self.labels is not None:
            description = tooltip = self.labels[index]
        elif self.players is not None:
            player = self.players[index]
            description = text("widgets.pick-card", self.lang, card=words, player=player)
            tooltip = text("widgets.pick-card-tooltip", self.lang, card=words, player=player)
        else:
            description = text("widgets.card-button", self.lang, card=words)
            tooltip = description
        button = widgets.Button(description=description, tooltip=tooltip, layout=_button_layout())
        button.on_click(lambda _button: self._picked(index))
        return button

    def _picked(self, index: int) -> None:
        if self.on_pick is not None:
            self.on_pick(index)

    def set_disabled(self, disabled: bool) -> None:
        """Lock (or unlock) every button."""
        for button in self.buttons:
            button.disabled = disabled

    def mark(self, index: int, label: str) -> None:
        """Ring one card and write ``label`` under it (e.g. "wins" once answered); the
        other cards get an empty line, so all pictures keep one height."""
        for position, card in enumerate(self.cards):
            chosen = position == index
            self.pictures[position].value = card_svg(
                card,
                scale=self.scale,
                lang=self.lang,
                highlight=chosen,
                label=label if chosen else "",
            )


class TrickView(widgets.HTML):  # type: ignore[misc]
    """A trick in play order, each player's name under their card, the winner (an index
    given by the engine) marked with a ring and the word "wins".

    >>> from tutor.rules.trick import trick_winner
    >>> view = TrickView("J B5 B11 B7", players="ABCD")
    >>> view.update("J B5 B11 B7", winner=trick_winner("J B5 B11 B7", "R"), players="ABCD")
    >>> "C takes the trick" in view.value
    True
    """

    def __init__(
        self,
        cards: str | Iterable[Card | str] = (),
        *,
        winner: int | None = None,
        players: Sequence[str] | None = None,
        scale: float = 0.9,
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        self.scale = scale
        self.lang = lang
        super().__init__()
        self.update(cards, winner=winner, players=players)

    def update(
        self,
        cards: str | Iterable[Card | str],
        *,
        winner: int | None = None,
        players: Sequence[str] | None = None,
    ) -> None:
        """Show another trick (or the same one, grown by a card)."""
        self.value = trick_svg(
            cards, winner=winner, players=players, scale=self.scale, lang=self.lang
        )


def feedback_html(feedback: Feedback, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The grading of an answer as HTML: an icon AND the verdict in words, the right
    answer, the engine's explanation and any details (a list).

    >>> from tutor.teaching.quiz import ScoreQuestion
    >>> page = feedback_html(ScoreQuestion(bid=3, taken=1).check(-10))
    >>> "✘" in page, "Not quite." in page, "2 off" in page
    (True, True, True)
    """
    icon = text("widgets.right-icon" if feedback.correct else "widgets.wrong-icon", lang)
    colour = RIGHT_COLOUR if feedback.correct else WRONG_COLOUR
    state = "right" if feedback.correct else "wrong"
    parts = [
        f'<div class="quiz-feedback {state}" role="status" '
        f'style="border-left:0.35em solid {colour};padding:0.3em 0.8em;margin:0.4em 0">',
        f'<p style="margin:0.2em 0"><span aria-hidden="true" style="color:{colour};'
        f'font-weight:700">{escape(icon)}</span> <strong>{_words(feedback.verdict)}</strong> '
        f"{_words(feedback.answer)}</p>",
    ]
    if feedback.explanation:
        parts.append(f'<p style="margin:0.2em 0">{_words(feedback.explanation)}</p>')
    if feedback.details:
        items = "".join(f"<li>{_words(detail)}</li>" for detail in feedback.details)
        parts.append(f'<ul style="margin:0.2em 0">{items}</ul>')
    parts.append("</div>")
    return "".join(parts)


def _words(sentence: str) -> str:
    """A sentence made safe for HTML; quotes stay as they are (they are text, not markup)."""
    return escape(sentence, quote=False)


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
    - a number: a number box (:attr:`answer_input`; Enter answers) and :attr:`check_button`.

    Above them, the scene: the trick so far (:attr:`trick_view`) or the turned card.

    The first answer counts: it is graded, shown in :attr:`feedback` (an HTML widget),
    passed to ``on_answer(question, answer, feedback)`` (practice records progress there),
    and the inputs lock; each choice then says what it was (the winning card "wins", a
    card "may be played"...). With ``on_next``, :attr:`next_button` appears and calls
    ``on_next(quiz)``; :meth:`load` puts the next question in the same widget.

    >>> from tutor.teaching.quiz import TrickWinnerQuestion
    >>> quiz = QuizWidget(TrickWinnerQuestion.of("J B5 B11 B7", trump="R", players="ABCD"))
    >>> quiz.choice_buttons[3].click()
    >>> quiz.last_feedback.correct, "Not quite." in quiz.feedback.value
    (False, True)
    """

    def __init__(
        self,
        question: Question,
        *,
        lang: str = DEFAULT_LANGUAGE,
        on_answer: AnswerCallback | None = None,
        on_next: Callable[[QuizWidget], None] | None = None,
        scale: float = 0.9,
    ) -> None:
        super().__init__()
        self.lang = lang
        self.scale = scale
        self.on_answer = on_answer
        self.on_next = on_next
        self._graded: list[Callable[[Question, bool, bool], None]] = []
        self.prompt = widgets.HTML()
        self.feedback = widgets.HTML()
        self.check_button = widgets.Button(
            description=text("widgets.check", lang),
            tooltip=text("widgets.check-tooltip", lang),
            button_style="primary",
            layout=_button_layout(),
        )
        self.check_button.on_click(lambda _button: self._check_pressed())
        self.next_button = widgets.Button(
            description=text("widgets.next", lang),
            tooltip=text("widgets.next-tooltip", lang),
            layout=_button_layout(),
        )
        self.next_button.on_click(lambda _button: self._next_pressed())
        # Stable class names for the app's script and style and for browser tests (e.g. to
        # make the feedback box a live region: ipywidgets cannot set ARIA attributes).
        self.add_class(QUIZ_CLASS)
        self.prompt.add_class(f"{QUIZ_CLASS}-prompt")
        self.feedback.add_class(f"{QUIZ_CLASS}-feedback")
        self.check_button.add_class(f"{QUIZ_CLASS}-check")
        self.next_button.add_class(f"{QUIZ_CLASS}-next")
        self.load(question)

    # -- building -----------------------------------------------------------------------

    def load(self, question: Question) -> None:
        """Show ``question`` (a fresh one: no answer, empty feedback)."""
        if not isinstance(question, Question):
            raise UnsupportedQuestionError(
                f"QuizWidget cannot show {question!r}: it shows a tutor.teaching.quiz.Question "
                "(the kinds of tutor.teaching.quiz and tutor.teaching.round_quiz)"
            )
        self.question: Question = question
        self.answered = False
        self.last_answer: object = None
        self.last_feedback: Feedback | None = None
        self.choices: tuple[object, ...] = question.choices()
        self.choice_buttons: list[widgets.Button] = []
        self.card_picker: CardPicker | None = None
        self.choice_toggles: ToggleChoices | None = None
        self.trick_view: TrickView | None = None
        self.answer_input: widgets.IntText | None = None
        self.check_button.disabled = False
        self.next_button.disabled = False
        self.next_button.layout.display = "none"
        self.feedback.value = ""
        self.prompt.value = (
            f'<p class="quiz-prompt" style="font-size:1.1em;margin:0.3em 0">'
            f"<strong>{_words(question.prompt(self.lang))}</strong></p>"
        )
        body = self._build_scene(question.scene())
        if question.answer_kind is AnswerKind.NUMBER:
            body.append(self._build_number(question))
        else:
            heading = question.answer_label(self.lang)
            if heading:
                body.append(widgets.HTML(f"<strong>{_words(heading)}</strong>"))
            body += self._build_choices(question)
        self.children = [self.prompt, *body, self.feedback, widgets.HBox([self.next_button])]

    def _build_scene(self, scene: Scene) -> list[widgets.Widget]:
        shown: list[widgets.Widget] = []
        if scene.trick:
            self.trick_view = TrickView(scene.trick, scale=self.scale * 0.8, lang=self.lang)
            shown.append(self.trick_view)
        if scene.turned is not None:
            shown.append(widgets.HTML(card_svg(scene.turned, scale=self.scale, lang=self.lang)))
        if scene.nothing_turned:
            shown.append(
                widgets.HTML(f"<p>{_words(text('widgets.nothing-turned', self.lang))}</p>")
            )
        return shown

    def _build_number(self, question: Question) -> widgets.Widget:
        # continuous_update=False: the value reaches Python when the learner presses Enter
        # (or leaves the box), which is the moment to grade it.
        self.answer_input = widgets.IntText(
            value=0,
            description=question.answer_label(self.lang),
            tooltip=text("widgets.number-input-tooltip", self.lang),
            continuous_update=False,
            layout=widgets.Layout(width="14em"),
        )
        self.answer_input.observe(self._number_entered, names="value")
        self.answer_input.add_class(f"{QUIZ_CLASS}-number")
        return widgets.HBox([self.answer_input, self.check_button])

    def _build_choices(self, question: Question) -> list[widgets.Widget]:
        labels = [question.choice_label(choice, self.lang) for choice in self.choices]
        drawn = [question.choice_card(choice) for choice in self.choices]
        cards = [card for card in drawn if card is not None]
        all_cards = len(cards) == len(drawn)
        if question.answer_kind is AnswerKind.MANY_CHOICES:
            self.choice_toggles = ToggleChoices(
                labels, cards=cards if all_cards else None, scale=self.scale, lang=self.lang
            )
            return [self.choice_toggles, widgets.HBox([self.check_button])]
        if all_cards:
            self.card_picker = CardPicker(
                cards, labels=labels, scale=self.scale, lang=self.lang, on_pick=self._picked
            )
            self.choice_buttons = self.card_picker.buttons
            shown: widgets.Widget = self.card_picker
        else:
            for index, label in enumerate(labels):
                button = widgets.Button(description=label, tooltip=label, layout=_button_layout())
                button.on_click(lambda _button, index=index: self._picked(index))
                self.choice_buttons.append(button)
            shown = widgets.Box(self.choice_buttons, layout=widgets.Layout(flex_flow="row wrap"))
        for button in self.choice_buttons:
            button.add_class(f"{QUIZ_CLASS}-choice")
        return [shown]

    def on_graded(self, callback: Callable[[Question, bool, bool], None]) -> None:
        """Call ``callback(question, correct, first_try)`` after each graded answer."""
        self._graded.append(callback)

    # -- answering ----------------------------------------------------------------------

    def _check_pressed(self) -> None:
        if self.choice_toggles is not None:
            self.answer(tuple(self.choices[i] for i in self.choice_toggles.selected_indices))
        elif self.answer_input is not None:
            self.answer(self.answer_input.value)

    def _picked(self, index: int) -> None:
        self.answer(self.choices[index])

    def _number_entered(self, change: dict[str, Any]) -> None:
        self.answer(change["new"])

    def _next_pressed(self) -> None:
        if self.on_next is not None:
            self.on_next(self)

    def answer(self, answer: object) -> Feedback:
        """Grade ``answer`` with the engine and show the feedback. Only the first answer
        counts; later calls return its feedback unchanged."""
        if self.last_feedback is not None:
            return self.last_feedback
        feedback = self.question.check(answer, self.lang)
        self.answered = True
        self.last_answer = answer
        self.last_feedback = feedback
        self.feedback.value = feedback_html(feedback, lang=self.lang)
        self._lock_and_mark()
        if self.on_next is not None:
            self.next_button.layout.display = None
        if self.on_answer is not None:
            self.on_answer(self.question, answer, feedback)
        for callback in self._graded:
            callback(self.question, feedback.correct, True)  # only the first answer is graded
        return feedback

    def _lock_and_mark(self) -> None:
        """Lock the inputs and say on the choices themselves what each one was."""
        self.check_button.disabled = True
        for button in self.choice_buttons:
            button.disabled = True
        if self.answer_input is not None:
            self.answer_input.disabled = True
        question = self.question
        if self.card_picker is not None:
            right = next(i for i, c in enumerate(self.choices) if question.is_right_choice(c))
            self.card_picker.mark(right, question.choice_mark(self.choices[right], self.lang))
        toggles = self.choice_toggles
        if toggles is not None:
            toggles.set_disabled(True)
            for index, choice in enumerate(self.choices):
                allowed = question.is_right_choice(choice)
                words = question.choice_mark(choice, self.lang) or toggles.labels[index]
                if index in toggles.selected_indices:
                    words = text("widgets.card-button-selected", self.lang, card=words)
                toggles.mark(index, description=words, highlight=allowed, dimmed=not allowed)


class ScoreSheetWidget(widgets.VBox):  # type: ignore[misc]
    """The score sheet as a table and, below it, a line chart of the totals by round.

    >>> from tutor.rules.scoring import ScoreSheet
    >>> sheet = ScoreSheet(players=3)
    >>> board = ScoreSheetWidget(sheet, chart=False)
    >>> _ = sheet.record(bids=[1, 0, 1], taken=[1, 0, 0]); board.update(sheet)
    >>> "−10" in board.table.value
    True
    """

    def __init__(
        self, sheet: ScoreSheet, *, chart: bool = True, lang: str = DEFAULT_LANGUAGE
    ) -> None:
        self.lang = lang
        self.show_chart = chart
        self.table = widgets.HTML()
        self.chart = widgets.HTML()
        super().__init__([self.table, self.chart])
        self.update(sheet)

    def update(self, sheet: ScoreSheet) -> None:
        """Show ``sheet`` as it is now (call after each round)."""
        self.sheet = sheet
        self.table.value = score_sheet_html(sheet, lang=self.lang)
        self.chart.value = score_chart_html(sheet, lang=self.lang) if self.show_chart else ""
