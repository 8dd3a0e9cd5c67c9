"""What each client sees of the live room, in its language: the projector's live event
and counts, the teacher's state, and a learner's state on their phone (the question without
its answer until the reveal, then the engine's why). Functions of a :class:`~tutor.web.room.Room`,
which calls them (``room.teacher_state(lang)``...); the room itself changes nothing here.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any

from tutor.teaching.explain import unbroken
from tutor.teaching.quiz import AnswerKind, revealed

from .room_summary import summary

if TYPE_CHECKING:
    from .room import Room


def answer_counts(room: Room, lang: str) -> dict[str, Any]:
    """How the room answered the current question: answered, every distinct answer with
    its count (most chosen first), per choice, and how many are right."""
    if room.current is None:
        return {"answered": 0, "counts": [], "choice_counts": [], "right": 0}
    asked = room.question(room.current)
    given: list[Any] = [answer for answer, _first in room.answers.get(room.current, {}).values()]
    tally = Counter(json.dumps(answer) for answer in given)
    counts = [
        {
            "answer": json.loads(answer),
            "label": asked.label(json.loads(answer), lang),
            "count": count,
            "right": asked.is_right(json.loads(answer)),
        }
        for answer, count in sorted(tally.items(), key=lambda pair: (-pair[1], pair[0]))
    ]
    choice_counts: list[int] = []
    if asked.kind is not AnswerKind.NUMBER:
        choice_counts = [0] * len(asked.choices)
        for answer in given:
            for index in answer if isinstance(answer, list) else [answer]:
                choice_counts[index] += 1
    return {
        "answered": len(given),
        "counts": counts,
        "choice_counts": choice_counts,
        "right": sum(entry["count"] for entry in counts if entry["right"]),
    }


def live(room: Room, lang: str) -> dict[str, Any]:
    """The projector's live event: the room without words of the question."""
    return {
        "version": room.version,
        "phase": room.phase,
        "question_key": room.current,
        "counts_shown": room.counts_shown,
        "present": len(room.learners),
        **answer_counts(room, lang),
    }


def teacher_state(room: Room, lang: str) -> dict[str, Any]:
    answered = room.answers.get(room.current, {}) if room.current else {}
    return {
        "code": room.code,
        "join": room.join,
        "join_warning": room.join_warning(lang),
        "version": room.version,
        "phase": room.phase,
        "counts_shown": room.counts_shown,
        "present": len(room.learners),
        "learners": [
            {"nickname": learner.nickname, "answered": learner.key in answered}
            for learner in room.learners.values()
        ],
        "question": room.question(room.current).words(lang) if room.current else None,
        # how the room did on each question asked: a presented lesson's last slide
        "summary": summary(room, lang),
        **answer_counts(room, lang),
    }


def learner_live(room: Room) -> dict[str, Any]:
    return {
        "version": room.version,
        "phase": room.phase,
        "question_key": room.current,
        "counts_shown": room.counts_shown,
    }


def learner_state(room: Room, key: object, lang: str) -> dict[str, Any]:
    learner = room.learner(key)
    state: dict[str, Any] = {
        "code": room.code,
        "version": room.version,
        "phase": room.phase,
        "nickname": learner.nickname,
        "question": None,
        "my_answer": None,
        "reveal": None,
    }
    if room.current is None:
        return state
    asked = room.question(room.current)
    state["question"] = asked.for_learner(lang)
    mine = room.answers.get(room.current, {}).get(learner.key)
    state["my_answer"] = mine[0] if mine else None
    state["my_answer_label"] = unbroken(asked.label(mine[0], lang)) if mine else ""
    if room.phase == "revealed":
        reveal: dict[str, Any] = {
            "right_answer": asked.right_answer(),
            "right_label": unbroken(asked.label(asked.right_answer(), lang)),
            "counts_shown": room.counts_shown,
        }
        # The engine's grading of the learner's answer, or of the right one for a learner
        # who gave none (then no verdict): the right answer, why, and the reasons one
        # per line (a list on the phone, never "- " run into a paragraph).
        graded = asked.value(mine[0]) if mine else asked.value(asked.right_answer())
        feedback = revealed(asked.question, graded, lang)
        reveal.update(
            correct=feedback.correct if mine else None,
            verdict=feedback.verdict if mine else "",
            answer=unbroken(feedback.answer),
            explanation=unbroken(feedback.explanation),
            reasons=[unbroken(reason) for reason in feedback.details],
        )
        if room.counts_shown:
            counted = answer_counts(room, lang)
            for entry in counted["counts"]:
                entry["label"] = unbroken(entry["label"])
            reveal.update(counted)
        state["reveal"] = reveal
    return state
