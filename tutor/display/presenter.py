"""Presenter mode, the display layer's side: how a page marks what a projected slide
holds back until the next press, and the worked example's steps drawn as slides
(:func:`worked_step_slide`).

The page script (``static/tutor.js`` of the app's template) shows a page one slide at a
time, scaled to the screen. It knows no rule: what a slide asks the room, and the answer
it holds back, are written here into the HTML from the engine's data, as classes the script
and its style sheet (``tutor.css``) know by these names:

- :data:`SLIDE`: an output holding it is a slide of its own (nothing before or after it
  joins it).
- :data:`PRESENT_ONLY`: shown only while presenting (the question put to the room); hidden
  by an inline style everywhere else, so a learner's page and JupyterLab never show it.
- :data:`LEARNER_ONLY`: hidden while presenting (words that repeat what the slide shows).
- :data:`ANSWER`: held back while presenting until the next press reveals it.
- :data:`ANSWER_STACK`: an answer picture and the picture shown before it
  (:data:`UNANSWERED`, presenting only) in one place, so nothing moves at the reveal.
- :data:`ROOM_QUESTION`: the slide asks a lesson's question (:func:`room_question`), which
  the live room (the app in classroom mode, docs/live-room.md) puts to the learners' phones
  when the presenter reaches it.

>>> print(answer_stack("<p>?</p>", "<p>C</p>"))
<div class="tutor-answer-stack"><div class="tutor-unanswered tutor-present-only" style="display:none"><p>?</p></div><div class="tutor-answer"><p>C</p></div></div>
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from html import escape

from tutor.display.svg import card_svg, hand_svg, trick_svg
from tutor.display.table import SeatMark, TableScene, scene_from_step, table_html
from tutor.display.words import words_html
from tutor.teaching.explain import card_name
from tutor.teaching.question import AnswerKind, Question, revealed
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, text
from tutor.teaching.worked_example import Step, StepKind, WorkedExample

SLIDE = "tutor-slide"
PRESENT_ONLY = "tutor-present-only"
LEARNER_ONLY = "tutor-learner-only"
ANSWER = "tutor-answer"
UNANSWERED = "tutor-unanswered"
ANSWER_STACK = "tutor-answer-stack"
ROOM_QUESTION = "tutor-room-question"

_HIDDEN = ' style="display:none"'

HAND_SCALE = 0.86
"""The hand in question on a worked example's slide: cards 96 px tall at the slide's base
size, so at least 144 px on a 1280x720 projector."""


def _classes(*names: str) -> str:
    return " ".join(name for name in names if name)


def present_only(html: str, *, tag: str = "div", klass: str = "") -> str:
    """``html`` shown only while presenting.

    >>> present_only("Who takes this trick?", tag="p", klass="tutor-ask")
    '<p class="tutor-present-only tutor-ask" style="display:none">Who takes this trick?</p>'
    """
    return f'<{tag} class="{_classes(PRESENT_ONLY, klass)}"{_HIDDEN}>{html}</{tag}>'


def learner_only(html: str, *, tag: str = "div", klass: str = "") -> str:
    """``html`` shown everywhere except on a presenter's slide."""
    return f'<{tag} class="{_classes(LEARNER_ONLY, klass)}">{html}</{tag}>'


def answer(html: str, *, tag: str = "div", klass: str = "") -> str:
    """``html`` that a presenter's slide holds back until the next press."""
    return f'<{tag} class="{_classes(ANSWER, klass)}">{html}</{tag}>'


def answer_stack(before: str, after: str) -> str:
    """``after`` (the answer: a picture with the engine's answer marked) held back while
    presenting, with ``before`` (the same picture without the answer) in its place until
    the reveal. Outside presenting only ``after`` shows."""
    return (
        f'<div class="{ANSWER_STACK}">'
        f'<div class="{UNANSWERED} {PRESENT_ONLY}"{_HIDDEN}>{before}</div>'
        f"{answer(after)}</div>"
    )


def room_question(lesson: str, question: str) -> str:
    """An empty mark naming the lesson's question a slide asks (the lesson's id and the
    item's, as the teaching layer gives them): in classroom mode the page script opens that
    question in the live room when the presenter reaches the slide. It shows nothing, to
    anyone, and means nothing outside presenter mode.

    >>> print(room_question("04_follow_suit", "quiz-you-lead"))
    <span class="tutor-room-question" data-lesson="04_follow_suit" data-question="quiz-you-lead" hidden></span>
    """
    return (
        f'<span class="{ROOM_QUESTION}" data-lesson="{escape(lesson)}"'
        f' data-question="{escape(question)}" hidden></span>'
    )


def text_html(words: str) -> str:
    """Plain text as HTML: each line a line, a run of ``- `` lines a bulleted list.

    >>> html = text_html("You may play: blue 7.\\n- blue 7: follows.\\n- red 12: <no>")
    >>> html.count("<p>"), html.count("<li>"), "&lt;no&gt;" in html
    (1, 2, True)
    >>> html.count('class="tutor-unbroken"')  # a card's name is never broken inside
    3
    >>> text_html("Trump: red.\\nThe winner is C.")
    '<p>Trump: red.<br>The winner is C.</p>'
    """
    blocks: list[str] = []
    lines: list[str] = []
    items: list[str] = []

    def flush() -> None:
        if lines:
            blocks.append("<p>" + "<br>".join(lines) + "</p>")
            lines.clear()
        if items:
            blocks.append("<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>")
            items.clear()

    for line in words.splitlines():
        if line.startswith("- "):
            if lines:
                flush()
            items.append(words_html(line[2:]))
        elif line.strip():
            if items:
                flush()
            lines.append(words_html(line))
    flush()
    return "".join(blocks)


# -- the worked example on a presenter's screen ---------------------------------------------
# A step is laid out at the slide's base size (16 px text, 820 x 420 px) for the page script
# to magnify by 1.5 or more. A whole table with every hand cannot hold 24 px words and
# readable cards on a 720p screen, so the table shows the seats (bids, tricks, whose turn)
# and the trick, and the cards that matter are drawn large beside it: the hand in question,
# or at the deal all four hands.

_STEP_CSS = """
<style>
.tutor-present-step { font-size: 16px; line-height: 1.35; }
body.tutor-presenting .tutor-present-step { width: 820px; }
.tutor-present-step h3 { margin: 0 0 0.25em; font-size: 1.15em; line-height: 1.25; }
.tutor-present-step p { margin: 0 0 0.3em; }
.tutor-present-step figure { margin: 0; }
.tutor-present-step figcaption { font-weight: 600; }
.tutor-present-body { display: grid; gap: 0 20px; align-items: start;
  grid-template-columns: 490px minmax(0, 1fr); }
.tutor-present-side > .tutor-answer-stack { margin: 0 0 0.4em; }
.tutor-present-body.with-hands { grid-template-columns: auto minmax(0, 1fr); }
.tutor-present-step .tutor-table { width: 480px; margin: 0 0 0 10px; }
/* The table's words at 16 px, its trick's cards 96 px tall (its own sizes are smaller:
   they suit a page read from up close). */
.tutor-present-step .tutor-table.is-big .tutor-felt { font-size: 16px; --trick-w: 80px; }
.tutor-present-step .tutor-felt :is(.tutor-dealer-chip, .tutor-trick-name, .tutor-seat-mark,
  .tutor-corner, .tutor-counter) { font-size: 16px; }
.tutor-present-step .tutor-felt .tutor-seat-facts > span { white-space: normal; }
/* Room above and below the trick for the names under and over its cards ("C ★ wins"):
   they would cover the seats' plates. This margin is that room: the trick's own room for
   the names on a phone (--name-x, --name-y, set for a narrow table, which the slide's
   480 px table also is) would shrink the whole slide. */
.tutor-present-step .tutor-trick { margin: 1.4em auto; --name-x: 0em; --name-y: 0em; }
/* The lit seat is enough: its words would cover the trick's labels at this size, and the
   slide says who plays or takes the trick beside the table. */
.tutor-present-step .tutor-felt .tutor-seat-mark { display: none; }
.tutor-present-step .tutor-felt .tutor-seat.is-lit { margin-bottom: 0; padding-bottom: 0.3em; }
.tutor-present-side .tutor-ask { font-weight: 700; }
.tutor-present-hands { display: grid; grid-template-columns: repeat(2, max-content);
  gap: 0.6em 1.6em; }
</style>
"""


def _hand_figure(caption: str, hand: str) -> str:
    return f"<figure><figcaption>{words_html(caption)}</figcaption>{hand}</figure>"


def _seat_words(example: WorkedExample, step: Step, seat: int, lang: str) -> str:
    """ "D · Dealer · Bid 0 · Taken 0": who holds the hand, and what they bid and took."""
    words = [example.players[seat]]
    if seat == example.dealer:
        words.append(text("table.dealer", lang))
    if step.bids is not None:
        words.append(text("table.bid", lang, bid=step.bids[seat]))
        words.append(text("table.taken", lang, taken=step.taken[seat]))
    return " · ".join(words)


def _table(scene: TableScene, lang: str) -> str:
    """The table with the seats and the trick; the hands, and the turned card (trump is in
    its words), are drawn large beside it when they matter."""
    seats = tuple(replace(seat, show_hand=False) for seat in scene.seats)
    return table_html(replace(scene, seats=seats, turned=None), big=True, lang=lang)


def _slide(title: str, body: str, side: str, *, klass: str = "", hands: bool = False) -> str:
    """The step's slide: the hands under the title, or the table with the title beside it
    (the table is the tallest thing on a slide: it starts at the top)."""
    if hands:
        top, side, layout = title, side, " with-hands"
    else:
        top, side, layout = "", title + side, ""
    return (
        f'{_STEP_CSS}<section class="tutor-present-step tutor-worked-step {klass}">{top}'
        f'<div class="tutor-present-body{layout}">'
        f'<div class="tutor-present-main">{body}</div>'
        f'<div class="tutor-present-side">{side}</div></div></section>'
    )


def _paragraphs(sentences: Sequence[str]) -> str:
    return "".join(f"<p>{words_html(sentence)}</p>" for sentence in sentences)


def worked_step_slide(
    example: WorkedExample, step: Step, *, lang: str = DEFAULT_LANGUAGE
) -> str | None:
    """A step of the worked example as a presenter's slide, or ``None`` for a step whose
    score tables the stepper draws as it always does.

    A play or trick step asks the room first ("Which cards may C play?", "Who takes this
    trick?") over the table as it stood before the answer, and holds back the answer: the
    cards the player could have played (marked in their hand), the card played, or the
    trick's winner, and why.

    >>> from tutor.teaching.worked_example import worked_example
    >>> example = worked_example()
    >>> slide = worked_step_slide(example, example.steps[4])  # C plays blue 11
    >>> from tutor.display.words import words_html
    >>> "Which cards may C play?" in slide, words_html("C may play: blue 11, Jester.") in slide
    (True, True)
    >>> "Who takes this trick?" in worked_step_slide(example, example.steps[6])
    True
    >>> worked_step_slide(example, example.steps[-1]) is None  # the score sheet
    True
    """
    heading = f"<h3>{escape(step.title)}</h3>"
    kind = f"step-{step.kind.value}"
    if step.kind in (StepKind.DEAL, StepKind.BIDS):
        hands = "".join(
            _hand_figure(
                _seat_words(example, step, seat, lang),
                hand_svg(hand, scale=HAND_SCALE, lang=lang),
            )
            for seat, hand in enumerate(step.hands)
        )
        turned = _hand_figure(
            text("lesson.picture-turned", lang),
            card_svg(example.turned, scale=HAND_SCALE, lang=lang),
        )
        return _slide(
            heading,
            f'<div class="tutor-present-hands">{hands}</div>',
            turned + _paragraphs(step.sentences),
            klass=kind,
            hands=True,
        )
    if step.kind is StepKind.TAKEN:
        return _slide(
            heading,
            _table(scene_from_step(example, step), lang),
            _paragraphs(step.sentences),
            klass=kind,
        )
    if step.kind is StepKind.PLAY and step.played is not None:
        return _play_slide(example, step, lang)
    if step.kind is StepKind.TRICK and step.winner is not None:
        after = scene_from_step(example, step)
        winner = step.table[step.winner].seat
        # Before the answer nothing tells who took it: no mark, and not yet counted.
        before = replace(
            after,
            winner=None,
            seats=tuple(
                replace(s, mark=None, taken=s.taken - (index == winner))
                for index, s in enumerate(after.seats)
            ),
        )
        title = text("presenter.trick-title", lang, trick=step.trick_number)
        return _slide(
            answer_stack(f"<h3>{escape(title)}</h3>", heading),
            answer_stack(_table(before, lang), _table(after, lang)),
            present_only(escape(text("presenter.ask-trick", lang)), tag="p", klass="tutor-ask")
            + answer(_paragraphs(step.sentences)),
            klass=f"{kind} tutor-predict",
        )
    return None


def _play_slide(example: WorkedExample, step: Step, lang: str) -> str:
    assert step.played is not None
    player, seat = step.played.player, step.played.seat
    after = scene_from_step(example, step)
    seats = list(after.seats)
    seats[seat] = replace(seats[seat], mark=SeatMark.TO_PLAY)
    before = replace(
        after,
        seats=tuple(seats),
        trick=after.trick[:-1],
        just_played=None,
        leader=seat if len(after.trick) == 1 else None,
    )
    hand = step.hands[seat]  # as it was before the card was played
    legal = set(step.legal)
    # The question above the hand names whose hand it is ("Which cards may C play?").
    plain = hand_svg(hand, scale=HAND_SCALE, lang=lang)
    marked = hand_svg(
        hand,
        highlight=[i for i, card in enumerate(hand) if card in legal],
        dimmed=[i for i, card in enumerate(hand) if card not in legal],
        scale=HAND_SCALE,
        lang=lang,
    )
    may = text(
        "presenter.may-play",
        lang,
        player=player,
        cards=join_words([card_name(card, lang) for card in step.legal], lang),
    )
    title = text(
        "presenter.play-title",
        lang,
        trick=step.trick_number,
        position=len(step.table),
        size=len(example.players),
        player=player,
    )
    return _slide(
        answer_stack(f"<h3>{escape(title)}</h3>", f"<h3>{escape(step.title)}</h3>"),
        answer_stack(_table(before, lang), _table(after, lang)),
        present_only(
            escape(text("presenter.ask-play", lang, player=player)), tag="p", klass="tutor-ask"
        )
        + answer_stack(plain, marked)
        + answer(_paragraphs([may, *step.sentences])),
        klass=f"step-{step.kind.value} tutor-predict",
    )


# -- a quiz question on a presenter's screen ------------------------------------------------
# The room answers on its phones (or aloud): the projector shows the question as the room
# sees it, never a learner's controls. Its answer is held back: the right choice marked (in
# words too) and the engine's reason, the same words a learner's "Show the answer" gives.

_QUESTION_CSS = """
<style>
.tutor-present-question { font-size: 16px; line-height: 1.25; }
.tutor-present-question .quiz-prompt { margin: 0.3em 0 0.4em; }
.tutor-present-question figure { margin: 0 0 0.4em; }
.tutor-present-question figcaption { font-weight: 600; }
.tutor-present-choices { margin: 0.2em 0 0.4em; padding-left: 1.6em; }
.tutor-present-choices li { margin: 0 0 0.15em; break-inside: avoid; }
.tutor-present-choices.two-columns { columns: 2; column-gap: 1.6em; }
.tutor-present-right-cards { margin: 0.2em 0 0; }
.tutor-present-choices .is-right { font-weight: 700; }
/* The question (its pictures and choices) on the left, the engine's why on the right: a
   why that lists a reason a card would make the slide too tall under the question (and
   its place is kept while it is held back). */
.tutor-present-question-body { display: grid; gap: 0 24px; align-items: start;
  grid-template-columns: minmax(0, 1.2fr) minmax(0, 1fr); }
/* cards (a trick, a hand to choose from) want the width: they would be too small to read
   across the room */
.tutor-present-question-body.with-cards { grid-template-columns: minmax(0, 2fr) minmax(0, 1fr); }
.tutor-present-why li { margin: 0; }
.tutor-present-why { margin: 0.3em 0 0; padding: 0.3em 0.8em;
  border-left: 0.35em solid var(--jp-success-color1, #166534); }
.tutor-present-why p, .tutor-present-why ul { margin: 0.15em 0; }
</style>
"""


def _choice_list(labels: Sequence[str], right: Sequence[bool], lang: str, *, marked: bool) -> str:
    """The choices as a numbered list; ``marked``: the right ones say so ("✔ right answer")."""
    mark = escape(text("projector.right", lang))
    items = "".join(
        f'<li class="is-right">{escape(label)} <strong>{mark}</strong></li>'
        if marked and is_right
        else f"<li>{escape(label)}</li>"
        for label, is_right in zip(labels, right, strict=True)
    )
    columns = " two-columns" if len(labels) > 3 else ""
    return f'<ol class="tutor-present-choices{columns}">{items}</ol>'


def question_why(question: Question, lang: str = DEFAULT_LANGUAGE) -> str:
    """The engine's right answer and reason for ``question``, as HTML: what a learner who
    asks for the answer reads (its details a list).

    >>> from tutor.teaching.quiz import ScoreQuestion
    >>> question_why(ScoreQuestion(bid=2, taken=2))
    '<p>Bid 2, took 2: bid met, so 20 + 10 × 2 = 40.</p>'
    """
    feedback = revealed(question, question.correct_answer(), lang)
    lines = [part for part in (feedback.answer, feedback.explanation) if part]
    lines += [f"- {detail}" for detail in feedback.details]
    return text_html("\n".join(lines))


def question_slide(
    question: Question, *, title: str, note: str = "", mark: str = "", lang: str = DEFAULT_LANGUAGE
) -> str:
    """``question`` as a presenter's slide: its title ("Question 2 of 6"), note and prompt,
    the cards it shows, its choices (cards drawn, or words in a list) and, held back until
    the reveal, the right choice marked and the engine's reason (:func:`question_why`).
    ``mark`` goes first (the live room's :func:`room_question`). Nothing on it is a control:
    the room answers on its phones.

    >>> from tutor.teaching.quiz import TrickWinnerQuestion
    >>> slide = question_slide(TrickWinnerQuestion.of("J B5 B11 B7", trump="R", players="ABCD"),
    ...                        title="Question 1 of 3")
    >>> "<button" in slide, "<input" in slide
    (False, False)
    >>> slide.count(f'class="{ANSWER}"'), slide.count(f'class="{ANSWER} tutor-present-why"')
    (1, 1)
    """
    from tutor.display.widgets.quiz_html import prompt_html, question_heading_html

    scene = question.scene()
    shown = []
    if scene.trick:
        shown.append(
            f"<figure><figcaption>{escape(text('lesson.picture-trick', lang))}</figcaption>"
            f"{trick_svg(scene.trick, lang=lang)}</figure>"
        )
    if scene.turned is not None:
        shown.append(
            _hand_figure(text("lesson.picture-turned", lang), card_svg(scene.turned, lang=lang))
        )
    choices = question.choices() if question.answer_kind is not AnswerKind.NUMBER else ()
    right = [question.is_right_choice(choice) for choice in choices]
    cards = [question.choice_card(choice) for choice in choices]
    if choices and all(card is not None for card in cards):
        drawn = [card for card in cards if card is not None]
        # the right cards raised, the others dimmed, and named in words under them (a
        # label on each card would be too small to read across a room)
        named = join_words(
            [
                card_name(card, lang)
                for card, is_right in zip(drawn, right, strict=True)
                if is_right
            ],
            lang,
        )
        shown.append(
            answer_stack(
                hand_svg(drawn, lang=lang),
                hand_svg(
                    drawn,
                    highlight=[i for i, is_right in enumerate(right) if is_right],
                    dimmed=[i for i, is_right in enumerate(right) if not is_right],
                    lang=lang,
                )
                + f'<p class="tutor-present-right-cards"><strong>'
                f"{escape(text('projector.right', lang))}</strong> {escape(named)}</p>",
            )
        )
    elif choices:
        labels = [question.choice_label(choice, lang) for choice in choices]
        shown.append(
            answer_stack(
                _choice_list(labels, right, lang, marked=False),
                _choice_list(labels, right, lang, marked=True),
            )
        )
    wide = bool(scene.trick) or (bool(choices) and all(card is not None for card in cards))
    why = answer(question_why(question, lang), klass="tutor-present-why")
    return (
        f'{_QUESTION_CSS}<section class="{SLIDE} tutor-present-question">'
        f"{mark}{question_heading_html(title, note)}"
        f'<div class="tutor-present-question-body{" with-cards" if wide else ""}"><div>'
        f'<div class="tutor-ask">{prompt_html(question, lang)}</div>{"".join(shown)}</div>'
        f"{why}</div></section>"
    )


ROOM_RESULT = "tutor-room-result"


def room_result(
    lesson: str, questions: Sequence[tuple[str, str]], lang: str = DEFAULT_LANGUAGE
) -> str:
    """The last slide of a lesson presented to a live room: each question (``(item id,
    title)``) and how the room did on it, which the page script fills in from the room's
    summary. Hidden (and no slide) until then: without a room there is nothing to show.

    >>> print(room_result("04_follow_suit", [("quiz-you-lead", "Question 1 of 1")]))
    <section class="tutor-slide tutor-room-result" data-lesson="04_follow_suit" hidden><h2>How the room did</h2><ol><li data-item="quiz-you-lead"><strong>Question 1 of 1</strong> <span class="tutor-room-result-counts"></span></li></ol></section>
    """
    rows = "".join(
        f'<li data-item="{escape(item)}"><strong>{escape(title)}</strong>'
        ' <span class="tutor-room-result-counts"></span></li>'
        for item, title in questions
    )
    heading = escape(text("projector.result-title", lang))
    return (
        f'<section class="{SLIDE} {ROOM_RESULT}" data-lesson="{escape(lesson)}" hidden>'
        f"<h2>{heading}</h2><ol>{rows}</ol></section>"
    )
