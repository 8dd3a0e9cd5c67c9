"""Jupyter widgets (ipywidgets 8): card pickers, a trick view, quizzes and the score sheet.

The widgets know no rules: what is legal, who wins and what an answer is worth come from
the engine (through the :class:`tutor.teaching.quiz.Question` protocol). Every control a
learner uses is a real button or text box, so Tab moves between them and Space/Enter press
them; every state is said in words (a check mark and "selected", "Right!" with an icon), never by
colour alone. Child widgets are attributes, so tests drive them without a browser:

>>> from tutor.teaching.quiz import ScoreQuestion
>>> quiz = QuizWidget(ScoreQuestion(bid=2, taken=2))
>>> quiz.answer_input.submit("40")          # what typing 40 and Enter (or Check) does
>>> "Right!" in quiz.feedback.value, quiz.first_try_correct
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from tutor.display.answer_box import AnswerBox
from tutor.display.chart import score_chart_html
from tutor.display.html import score_sheet_html
from tutor.display.svg import card_svg, trick_svg
from tutor.display.visibility import set_visible
from tutor.rules.cards import Card, parse_cards
from tutor.rules.scoring import ScoreSheet
from tutor.teaching.explain import card_name
from tutor.teaching.quiz import (
    AnswerKind,
    Feedback,
    Question,
    Scene,
    feedback_for,
    read_number,
    revealed,
)
from tutor.teaching.text import DEFAULT_LANGUAGE, join_sentences, sentence_gap, text

GradedCallback = Callable[[Question, bool, bool], None]
"""Called with (question, correct, first_try) each time an answer is graded."""

QUIZ_CLASS = "tutor-quiz"
"""CSS class of a quiz; its parts add a suffix (``-feedback``, ``-check``, ``-choice``...)."""
RIGHT_COLOUR = "#1a7f37"
WRONG_COLOUR = "#b3261e"
HINT_COLOUR = "#6b6b6b"
CARD_CHOICE_CLASS = f"{QUIZ_CLASS}-card-choice"
"""A card drawn above its button (a choice): the whole column presses the button."""

QUIZ_CSS = f"""<style>
.{QUIZ_CLASS} .{QUIZ_CLASS}-verdict {{ font-size: 0.85em; line-height: 1.25; text-align: center;
  max-width: 6.5em; margin: 0.1em 0; }}
.{QUIZ_CLASS} .{QUIZ_CLASS}-verdict .widget-html-content {{ line-height: 1.25; }}
/* A marked answer (right, wrong, missed) keeps its full colour once the quiz is locked:
   only the choices that say nothing are drawn lighter. */
.{QUIZ_CLASS} .jupyter-button.{QUIZ_CLASS}-marked:disabled {{ opacity: 1; cursor: default; }}
.{QUIZ_CLASS} .{QUIZ_CLASS}-number input:disabled {{ opacity: 1; }}
.{QUIZ_CLASS}-summary {{ border-top: 1px solid #8a8a8a; margin-top: 1em; padding-top: 0.4em; }}
/* The line above the choices wraps to their width rather than widening the quiz (a
   presenter's slide would be drawn smaller for it). */
.{QUIZ_CLASS} .{QUIZ_CLASS}-answer-heading {{ contain: inline-size; }}
/* A card's whole column (picture, words, button) is its button: the button's ::after
   covers the column, so a click or a tap on the picture presses it; the keyboard still
   reaches the one real button, whose focus ring goes round the whole card. */
.{QUIZ_CLASS} .{CARD_CHOICE_CLASS} {{ position: relative; cursor: pointer; }}
/* (Every Lumino widget is position: relative; the button must not be, or it would be
   its own ::after's box.) */
.{QUIZ_CLASS} .{CARD_CHOICE_CLASS} > button {{ position: static; }}
.{QUIZ_CLASS} .{CARD_CHOICE_CLASS} > button::after {{ content: ""; position: absolute; inset: 0;
  z-index: 1; }}
.{QUIZ_CLASS} .{CARD_CHOICE_CLASS} > button:disabled::after {{ cursor: default; }}
.{QUIZ_CLASS} .{CARD_CHOICE_CLASS}:has(> button:focus-visible) {{ outline: 2px solid currentColor;
  outline-offset: 2px; }}
</style>"""
"""Sizes and the look of a locked, marked answer; colours stay the page's own."""


class UnsupportedQuestionError(ValueError):
    """A question of a kind :class:`QuizWidget` cannot show."""


def html_widget(value: str = "", **options: Any) -> widgets.HTML:
    """An HTML widget with an empty tooltip: ipywidgets writes a missing one as the
    tooltip "null" on the widget's hidden label."""
    return widgets.HTML(value, tooltip="", **options)


def _button_layout() -> widgets.Layout:
    return widgets.Layout(width="auto", min_width="5.5em", margin="0.15em 0.4em 0.15em 0")


def _column_layout() -> widgets.Layout:
    """A card above its button (ipywidgets 8's Layout has no flex gap: margins space them)."""
    return widgets.Layout(align_items="center", margin="0 0.5em 0.5em 0")


def _card_column(picture: widgets.HTML, verdict: widgets.HTML, button: widgets.Widget) -> widgets.VBox:
    """A card's picture, its verdict line and its button, the whole of it pressing the
    button (QUIZ_CSS)."""
    column = widgets.VBox([picture, verdict, button], layout=_column_layout())
    column.add_class(CARD_CHOICE_CLASS)
    return column


class ToggleChoices(widgets.Box):  # type: ignore[misc]
    """Choices to select from: a toggle button each, named in words (``labels``), with a
    card's picture above it when ``cards`` are given. ``multiple=False`` keeps at most one
    selected. A selected choice gets a check mark in its button's words (and a ring in its
    picture).

    Under each card's picture a line of words (:attr:`verdicts`, empty until used) can say
    what the card turned out to be once an answer is checked (:meth:`mark`).

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
            html_widget(card_svg(card, scale=scale, lang=lang)) for card in self.cards
        ]
        self.verdicts = [_verdict_line() for _card in self.cards]
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
                _card_column(picture, verdict, toggle)
                for picture, verdict, toggle in zip(
                    self.pictures, self.verdicts, self.toggles, strict=True
                )
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
        """Unselect every choice and take back any verdict (:meth:`mark`)."""
        for toggle in self.toggles:
            toggle.value = False
        for index in range(len(self.toggles)):
            self._show_state(index)
            _unmark(self.toggles[index])
            if self.cards:
                _say_verdict(self.verdicts[index], "")
        self.layout.align_items = "flex-end"

    def set_disabled(self, disabled: bool) -> None:
        """Lock (or unlock) every toggle, e.g. once an answer is checked."""
        for toggle in self.toggles:
            toggle.disabled = disabled

    def mark(
        self,
        index: int,
        *,
        description: str,
        highlight: bool,
        dimmed: bool = False,
        verdict: str = "",
        tooltip: str | None = None,
        style: str = "",
    ) -> None:
        """Show a verdict on one choice: new words on its button (and ``tooltip``), a ring
        or fading on its picture and ``verdict`` words under it, ``style`` (``success``,
        ``danger``, ``warning``) as the button's colour. The words carry the meaning; the
        picture and the colour repeat it."""
        toggle = self.toggles[index]
        toggle.description = description
        toggle.tooltip = tooltip if tooltip is not None else description
        _mark_button(toggle, style)
        if self.cards:
            self.pictures[index].value = card_svg(
                self.cards[index], scale=self.scale, lang=self.lang, highlight=highlight, dimmed=dimmed
            )
            _say_verdict(self.verdicts[index], verdict)
            # Verdicts of different lengths: the cards line up at the top.
            self.layout.align_items = "flex-start"

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


def _verdict_line() -> widgets.HTML:
    """The words under a card once an answer is checked (hidden while empty)."""
    line = html_widget(layout=widgets.Layout(display="none"))
    line.add_class(f"{QUIZ_CLASS}-verdict")
    return line


def _say_verdict(line: widgets.HTML, words: str) -> None:
    line.value = f"<div>{words}</div>" if words else ""
    set_visible(line, bool(words))


def _mark_button(button: widgets.Button | widgets.ToggleButton, style: str) -> None:
    """Colour an answer's button by its verdict (``success``, ``danger``, ``warning``; ``""``
    leaves it plain); the marked class keeps that colour once the quiz locks (QUIZ_CSS)."""
    button.button_style = style
    if style:
        button.add_class(f"{QUIZ_CLASS}-marked")


def _unmark(button: widgets.Button | widgets.ToggleButton) -> None:
    """Take back :func:`_mark_button`."""
    button.button_style = ""
    button.remove_class(f"{QUIZ_CLASS}-marked")


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
            html_widget(card_svg(card, scale=scale, lang=lang)) for card in self.cards
        ]
        self.verdicts = [_verdict_line() for _card in self.cards]
        self.buttons = [self._button(i) for i in range(len(self.cards))]
        columns = [
            _card_column(picture, verdict, button)
            for picture, verdict, button in zip(
                self.pictures, self.verdicts, self.buttons, strict=True
            )
        ]
        super().__init__(
            columns, layout=widgets.Layout(flex_flow="row wrap", align_items="flex-end")
        )

    def _button(self, index: int) -> widgets.Button:
        button = widgets.Button(layout=_button_layout())
        self._name_button(index, button)
        button.on_click(lambda _button: self._picked(index))
        return button

    def _name_button(self, index: int, button: widgets.Button) -> None:
        """The button's words: its label, else the card (and who played it)."""
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
        button.description = description
        button.tooltip = tooltip

    def _picked(self, index: int) -> None:
        if self.on_pick is not None:
            self.on_pick(index)

    def set_disabled(self, disabled: bool) -> None:
        """Lock (or unlock) every button."""
        for button in self.buttons:
            button.disabled = disabled

    def mark_answer(
        self,
        index: int,
        *,
        verdict: str,
        icon: str = "",
        style: str = "",
        ring: bool = False,
    ) -> None:
        """Say on one card what it turned out to be: ``verdict`` words under its picture,
        ``icon`` (✔ or ✘) before its button's words, ``style`` (``success``, ``danger``) as
        the button's colour, and a ring round it if ``ring``."""
        button = self.buttons[index]
        self._name_button(index, button)
        if icon:
            button.description = f"{icon} {button.description}"
        _mark_button(button, style)
        self.pictures[index].value = card_svg(
            self.cards[index], scale=self.scale, lang=self.lang, highlight=ring
        )
        _say_verdict(self.verdicts[index], verdict)
        self.layout.align_items = "flex-start"

    def unmark(self) -> None:
        """Take back every verdict: the cards as they were before the answer."""
        for index, button in enumerate(self.buttons):
            self._name_button(index, button)
            _unmark(button)
            self.pictures[index].value = card_svg(
                self.cards[index], scale=self.scale, lang=self.lang
            )
            _say_verdict(self.verdicts[index], "")
        self.layout.align_items = "flex-end"


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
        super().__init__(tooltip="")  # see html_widget
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
    """The grading of an answer as HTML: an icon AND the verdict in words, the learner's
    number if the feedback repeats it, the right answer, the engine's explanation (or, on
    a first miss, the hint: class ``hinted``) and any details (a list).

    >>> from tutor.teaching.quiz import ScoreQuestion
    >>> page = feedback_html(ScoreQuestion(bid=3, taken=1).check(-10))
    >>> "✘" in page, "Not quite." in page, "2 off" in page
    (True, True, True)
    """
    icon = text("widgets.right-icon" if feedback.correct else "widgets.wrong-icon", lang)
    colour = RIGHT_COLOUR if feedback.correct else WRONG_COLOUR
    state = "right" if feedback.correct else "wrong"
    if not feedback.revealed:
        state += " hinted"
    gap = sentence_gap(feedback.verdict)  # none after a full-width 「！」 (Japanese, Chinese)
    first = join_sentences((feedback.given, feedback.answer))
    parts = [
        f'<div class="quiz-feedback {state}" role="status" '
        f'style="border-left:0.35em solid {colour};padding:0.3em 0.8em;margin:0.4em 0">',
        f'<p style="margin:0.2em 0"><span aria-hidden="true" style="color:{colour};'
        f'font-weight:700">{escape(icon)}</span> <strong>{_words(feedback.verdict)}</strong>'
        f"{gap if first else ''}{_words(first)}</p>",
    ]
    if feedback.explanation:
        parts.append(f'<p style="margin:0.2em 0">{_words(feedback.explanation)}</p>')
    if feedback.details:
        items = "".join(f"<li>{_words(detail)}</li>" for detail in feedback.details)
        parts.append(f'<ul style="margin:0.2em 0">{items}</ul>')
    parts.append("</div>")
    return "".join(parts)


def hint_html(words: str) -> str:
    """A request to the learner that grades nothing ("Type a number first"): words in a
    grey-edged box, with no right or wrong icon.

    >>> 'class="quiz-hint"' in hint_html("Type a number first.")
    True
    """
    return (
        f'<div class="quiz-hint" role="status" style="border-left:0.35em solid {HINT_COLOUR};'
        f'padding:0.3em 0.8em;margin:0.4em 0"><p style="margin:0.2em 0">{_words(words)}</p></div>'
    )


def _answer_heading(question: Question, lang: str) -> str:
    """The line above the choices: what they are ("Your hand"), and, when several may be
    right, that several may be picked (said with the question, not first when Check
    finds nothing chosen).

    >>> from tutor.teaching.quiz import LegalPlaysQuestion
    >>> _answer_heading(LegalPlaysQuestion.of("B7 W", "B5", "R"), "en")
    '<strong>Your hand</strong>: <span class="quiz-pick-all">pick all that apply.</span>'
    """
    label = question.answer_label(lang)
    if question.answer_kind is not AnswerKind.MANY_CHOICES:
        return f"<strong>{_words(label)}</strong>" if label else ""
    if not label:
        return f'<span class="quiz-pick-all">{_words(text("quiz.pick-all", lang))}</span>'
    return text(
        "quiz.pick-all-from",
        lang,
        label=f"<strong>{_words(label)}</strong>",
        pick=f'<span class="quiz-pick-all">{_words(text("quiz.pick-all-lower", lang))}</span>',
    )


def _words(sentence: str) -> str:
    """A sentence made safe for HTML; quotes stay as they are (they are text, not markup)."""
    return escape(sentence, quote=False)


def question_heading_html(title: str, note: str) -> str:
    """A quiz's title ("Question 2 of 6") and, under it, its note ('' without either)."""
    heading = f'<p style="margin:0.6em 0 0;font-weight:600">{_words(title)}</p>' if title else ""
    if note:
        heading += f'<p class="{QUIZ_CLASS}-note" style="margin:0.3em 0 0">{_words(note)}</p>'
    return heading


def prompt_html(question: Question, lang: str = DEFAULT_LANGUAGE) -> str:
    """A question's prompt as a quiz shows it, above its cards and choices."""
    return (
        f'<p class="quiz-prompt" style="font-size:1.1em;margin:0.3em 0">'
        f"<strong>{_words(question.prompt(lang))}</strong></p>"
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
    they belong to this question, under its heading.

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
    ) -> None:
        super().__init__()
        self.lang = lang
        self.scale = scale
        self.on_next = on_next
        self._graded_callbacks: list[GradedCallback] = []
        # The note in the heading's own widget: the quiz keeps its parts (a presenter's
        # layout places them by their order, see tutor.css).
        self.note = note
        heading = question_heading_html(title, note)
        self.title = html_widget(heading, layout=widgets.Layout(display=None if heading else "none"))
        self.title.add_class(f"{QUIZ_CLASS}-title")
        self.prompt = html_widget()
        self.feedback = html_widget()
        self.check_button = widgets.Button(
            description=text("widgets.check", lang),
            tooltip=text("widgets.check-tooltip", lang),
            button_style="primary",
            layout=_button_layout(),
        )
        self.check_button.on_click(lambda _button: self._check_pressed())
        self.try_again_button = widgets.Button(
            description=text("widgets.try-again", lang),
            tooltip=text("widgets.try-again-tooltip", lang),
            layout=_button_layout(),
        )
        self.try_again_button.on_click(lambda _button: self.try_again())
        self.show_answer_button = widgets.Button(
            description=text("widgets.show-answer", lang),
            tooltip=text("widgets.show-answer-tooltip", lang),
            layout=_button_layout(),
        )
        self.show_answer_button.on_click(lambda _button: self.show_answer())
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
        self.try_again_button.add_class(f"{QUIZ_CLASS}-try-again")
        self.show_answer_button.add_class(f"{QUIZ_CLASS}-show-answer")
        self.next_button.add_class(f"{QUIZ_CLASS}-next")
        self._style = html_widget(QUIZ_CSS, layout=widgets.Layout(display="none"))
        self.load(question)

    # -- building -----------------------------------------------------------------------

    def load(self, question: Question) -> None:
        """Show ``question`` (a fresh one: no answer, empty feedback, no tries yet)."""
        if not isinstance(question, Question):
            raise UnsupportedQuestionError(
                f"QuizWidget cannot show {question!r}: it shows a tutor.teaching.quiz.Question "
                "(the kinds of tutor.teaching.quiz and tutor.teaching.round_quiz)"
            )
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
        self.feedback.value = ""
        self.prompt.value = prompt_html(question, self.lang)
        scene = self._build_scene(question.scene())
        if question.answer_kind is AnswerKind.NUMBER:
            answering: list[widgets.Widget] = [self._build_number(question)]
        else:
            heading = _answer_heading(question, self.lang)
            answering = []
            if heading:
                answering.append(html_widget(heading))
                answering[0].add_class(f"{QUIZ_CLASS}-answer-heading")
            answering += self._build_choices(question)
        answer_box = widgets.VBox(answering)
        answer_box.add_class(f"{QUIZ_CLASS}-answer")
        body: list[widgets.Widget] = [answer_box]
        if scene:
            # The cards on the table beside the hand (below it on a narrow screen): the
            # question fits a laptop's or a projector's screen without scrolling.
            scene_box = widgets.VBox(scene, layout=widgets.Layout(margin="0 2em 0 0"))
            scene_box.add_class(f"{QUIZ_CLASS}-scene")
            body = [
                widgets.Box(
                    [scene_box, answer_box],
                    layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"),
                )
            ]
        if self.choice_toggles is not None:
            body.append(widgets.HBox([self.check_button]))
        self._unlock()
        self.children = [
            self._style,
            self.title,
            self.prompt,
            *body,
            self.feedback,
            widgets.HBox([self.try_again_button, self.show_answer_button, self.next_button]),
        ]

    def _build_scene(self, scene: Scene) -> list[widgets.Widget]:
        shown: list[widgets.Widget] = []
        if scene.trick:
            self.trick_view = TrickView(scene.trick, scale=self.scale * 0.8, lang=self.lang)
            caption = text("lesson.picture-trick", self.lang)
            shown += [html_widget(f"<strong>{_words(caption)}</strong>"), self.trick_view]
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
        )
        self.answer_input.on_submit(self._number_submitted)
        self.answer_input.add_class(f"{QUIZ_CLASS}-number")
        self.answer_mark = html_widget()
        self.answer_mark.add_class(f"{QUIZ_CLASS}-your-answer")
        return widgets.HBox(
            [self.answer_input, self.answer_mark],
            layout=widgets.Layout(align_items="center", flex_flow="row wrap"),
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
        self._show_feedback(feedback)
        set_visible(self.try_again_button, not feedback.correct)
        if self.on_next is not None:
            set_visible(self.next_button, True)
        for callback in list(self._graded_callbacks):
            callback(self.question, feedback.correct, first_try)
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
                _unmark(button)
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
                f'<strong style="color:{colour}">{_words(text(key, self.lang))}</strong>'
            )
        hinted = self.last_feedback is not None and not self.last_feedback.revealed
        if self.choice_toggles is not None:
            self.choice_toggles.set_disabled(True)
            if not hinted:  # after a hint the selection stays as the learner left it
                self._mark_many()
        elif self.choice_buttons:
            self._mark_one(answer, reveal=not hinted)

    def _mark_one(self, answer: object, *, reveal: bool = True) -> None:
        """One choice: the learner's (✔ or ✘, "your answer") and, if ``reveal``, the right
        one (✔) and what the chosen one is; after a hint only "your answer" ✘."""
        question, lang = self.question, self.lang
        for index, choice in enumerate(self.choices):
            chosen, right = choice == answer, question.is_right_choice(choice)
            if not (chosen or right) or not (chosen or reveal):
                continue
            icon = text("widgets.right-icon" if right else "widgets.wrong-icon", lang)
            style = "success" if right else "danger"
            whose = text("widgets.your-answer" if chosen else "widgets.right-answer", lang)
            if self.card_picker is not None:
                # Under the card: "your answer", and what the card is ("wins").
                words = [whose] if chosen else []
                words += [question.choice_mark(choice, lang)] if reveal else []
                verdict = "<br>".join(_words(word) for word in words if word)
                self.card_picker.mark_answer(
                    index, verdict=verdict, icon=icon, style=style, ring=right
                )
            else:
                button = self.choice_buttons[index]
                button.description = button.tooltip = text(
                    "widgets.choice-answered",
                    lang,
                    icon=icon,
                    choice=question.choice_label(choice, lang),
                    whose=whose,
                )
                _mark_button(button, style)

    def _mark_many(self) -> None:
        """Several choices: what each one is, and the learner's decision on it: chosen and
        right (✔), chosen but wrong (✘), right but left out (✘ missed). A choice rightly
        left out only says what it is."""
        toggles, question, lang = self.choice_toggles, self.question, self.lang
        assert toggles is not None
        chosen_indices = toggles.selected_indices
        for index, choice in enumerate(self.choices):
            chosen, right = index in chosen_indices, question.is_right_choice(choice)
            label, mark = toggles.labels[index], question.choice_mark(choice, lang)
            what = text("widgets.choice-verdict", lang, choice=label, mark=mark)
            if not chosen and not right:  # rightly left out: it only says what it is
                toggles.mark(
                    index,
                    description=label if toggles.cards else what,
                    tooltip=what,
                    highlight=False,
                    verdict=_words(mark),
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
                    verdict=f"<strong>{_words(icon)} {_words(whose)}</strong><br>{_words(mark)}",
                    style=style,
                )
            else:
                toggles.mark(index, description=sentence, highlight=chosen, style=style)


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
        self.table = html_widget()
        self.chart = html_widget()
        super().__init__([self.table, self.chart])
        self.update(sheet)

    def update(self, sheet: ScoreSheet) -> None:
        """Show ``sheet`` as it is now (call after each round)."""
        self.sheet = sheet
        self.table.value = score_sheet_html(sheet, lang=self.lang)
        self.chart.value = score_chart_html(sheet, lang=self.lang) if self.show_chart else ""
