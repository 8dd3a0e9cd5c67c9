"""The questions asked in the live room: lesson items found by lesson and item id (the
course's lessons and the teacher's ``--lessons``), and the learners' answers to them read,
checked, graded by the engine and put in words for the projector and the phones.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from tutor.display.svg import card_svg, trick_svg
from tutor.teaching.explain import unbroken
from tutor.teaching.lesson import LessonError
from tutor.teaching.lesson_loader import list_lessons, load_lesson
from tutor.teaching.quiz import AnswerKind, Question, read_number
from tutor.teaching.text import join_words, text

from .room_checks import RoomError, quoted

MAX_NUMBER = 10**9
"""A number answer is less than this in size (no question's answer comes close)."""
_LESSON_ID = re.compile(r"\d{2}_[a-z0-9_]{1,80}")
_ITEM_ID = re.compile(r"[A-Za-z0-9_-]{1,80}")


@dataclass
class RoomQuestion:
    """A lesson item asked in the room, and how its answers are read and graded."""

    key: str
    lesson: str
    item: str
    question: Question
    _grades: dict[str, bool] = field(default_factory=dict)

    @property
    def kind(self) -> AnswerKind:
        return self.question.answer_kind

    @property
    def choices(self) -> tuple[object, ...]:
        return self.question.choices()

    def read_answer(self, value: Any) -> Any:
        """The answer of a request, checked (JSON: an index, sorted indices, a number)."""
        count = len(self.choices)
        if self.kind is AnswerKind.ONE_CHOICE:
            if not _is_int(value) or not 0 <= value < count:
                raise RoomError(
                    400,
                    "bad-field",
                    f"answer {quoted(value)} is not a choice: give 0 to {count - 1}",
                )
            return value
        if self.kind is AnswerKind.MANY_CHOICES:
            if not isinstance(value, list) or not all(_is_int(v) for v in value):
                raise RoomError(
                    400,
                    "bad-field",
                    f"answer {quoted(value)} is not a list of choices (0 to {count - 1})",
                )
            wrong = [v for v in value if not 0 <= v < count]
            if wrong or len(set(value)) != len(value):
                raise RoomError(
                    400,
                    "bad-field",
                    f"answer {quoted(value)}: each choice once, each from 0 to {count - 1}",
                )
            return sorted(value)
        number: int | None = (
            value
            if _is_int(value)
            else read_number(value)
            if isinstance(value, str) and len(value) < 40
            else None
        )
        if number is None or abs(number) >= MAX_NUMBER:
            raise RoomError(400, "bad-field", f"answer {quoted(value)} is not a whole number")
        return number

    def value(self, answer: Any) -> object:
        """A checked answer as the engine takes it (choices, not indices)."""
        if self.kind is AnswerKind.ONE_CHOICE:
            return self.choices[answer]
        if self.kind is AnswerKind.MANY_CHOICES:
            return frozenset(self.choices[i] for i in answer)
        return answer

    def is_right(self, answer: Any) -> bool:
        """Whether the engine grades ``answer`` right (remembered per distinct answer)."""
        key = json.dumps(answer)
        if key not in self._grades:
            self._grades[key] = self.question.check(self.value(answer)).correct
        return self._grades[key]

    def right_answer(self) -> object:
        if self.kind is AnswerKind.NUMBER:
            return self.question.correct_answer()
        right = [
            i for i, choice in enumerate(self.choices) if self.question.is_right_choice(choice)
        ]
        return right[0] if self.kind is AnswerKind.ONE_CHOICE else right

    def label(self, answer: Any, lang: str) -> str:
        """An answer in words (the choices' labels, or the number)."""
        if self.kind is AnswerKind.ONE_CHOICE:
            return self.question.choice_label(self.choices[answer], lang)
        if self.kind is AnswerKind.MANY_CHOICES:
            chosen = [self.question.choice_label(self.choices[i], lang) for i in answer]
            return join_words(chosen, lang) if chosen else text("room.nothing-chosen", lang)
        return self.question.number_words(answer)

    def words(self, lang: str) -> dict[str, Any]:
        """The question's words in ``lang`` (no pictures: the projector draws its own)."""
        return {
            "key": self.key,
            "lesson": self.lesson,
            "item": self.item,
            "kind": str(self.kind),
            "prompt": self.question.prompt(lang),
            "choices": [
                {
                    "index": index,
                    "label": self.question.choice_label(choice, lang),
                    "right": self.question.is_right_choice(choice),
                }
                for index, choice in enumerate(self.choices)
            ]
            if self.kind is not AnswerKind.NUMBER
            else [],
            # a number's right answer is no choice: the projector marks it even when no
            # learner gave it (the projector is the teacher's, who may know it before the reveal)
            "right_label": self.label(self.right_answer(), lang),
        }

    def for_learner(self, lang: str) -> dict[str, Any]:
        """The question as a learner's page shows it: words and cards, not the answer. The
        phone shows the words as plain text, each card's name unbroken
        (:func:`~tutor.teaching.explain.unbroken`), as in
        :func:`tutor.web.room_views.learner_state`."""
        question = self.question
        scene = question.scene()
        pictures = []
        if scene.trick:
            pictures.append(trick_svg(scene.trick, lang=lang))
        if scene.turned is not None:
            pictures.append(card_svg(scene.turned, lang=lang))
        # The situation in words, unless the cards drawn already show it (their pictures
        # name each card for a screen reader) or the prompt says it.
        situation = question.situation_text(lang)
        if pictures or any(question.choice_card(choice) for choice in self.choices):
            situation = question.prompt(lang)
        choices = []
        for index, choice in enumerate(self.choices):
            card = question.choice_card(choice)
            choices.append(
                {
                    "index": index,
                    "label": unbroken(question.choice_label(choice, lang)),
                    "card": card_svg(card, lang=lang) if card is not None else None,
                }
            )
        return {
            "key": self.key,
            "kind": str(self.kind),
            "prompt": unbroken(question.prompt(lang)),
            "situation": "" if situation == question.prompt(lang) else unbroken(situation),
            "scene": "".join(pictures),
            "answer_label": unbroken(question.answer_label(lang)),
            "choices": choices,
        }


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def find_question(lesson_id: object, item_id: object) -> RoomQuestion:
    """The lesson item ``item_id`` of the lesson ``lesson_id``, if it is a question.

    >>> find_question("06_trick_winner", "quiz-trump-led").kind
    <AnswerKind.ONE_CHOICE: 'one-choice'>
    >>> find_question("../secret.toml", "x")
    Traceback (most recent call last):
    ...
    tutor.web.room_checks.RoomError: lesson "../secret.toml" is not a lesson id like '06_trick_winner'
    """
    if not isinstance(lesson_id, str) or not _LESSON_ID.fullmatch(lesson_id):
        raise RoomError(
            400,
            "bad-field",
            f"lesson {quoted(lesson_id)} is not a lesson id like '06_trick_winner'",
        )
    if not isinstance(item_id, str) or not _ITEM_ID.fullmatch(item_id):
        raise RoomError(400, "bad-field", f"item {quoted(item_id)} is not an item id like 'quiz-1'")
    try:
        lesson = load_lesson(lesson_id)
        if lesson.id != lesson_id:
            raise LessonError(f"unknown lesson {lesson_id!r}")
        item = lesson.item(item_id)
        question = item.question
    except LessonError as error:
        raise RoomError(404, "unknown-question", str(error)) from None
    return RoomQuestion(f"{lesson_id}/{item_id}", lesson_id, item_id, question)


def question_list(lang: str) -> list[dict[str, Any]]:
    """Every lesson with the items that can be asked in the room."""
    listed = []
    for lesson in list_lessons():
        items = []
        for item in lesson.items():
            try:
                question = item.question
            except LessonError:
                continue  # a fact, not a question
            items.append(
                {
                    "item": item.id,
                    "kind": str(question.answer_kind),
                    "prompt": question.prompt(lang),
                }
            )
        if items:
            listed.append({"lesson": lesson.id, "title": lesson.title(lang), "items": items})
    return listed
