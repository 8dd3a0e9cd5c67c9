"""The learner's progress in practice: right and wrong answers per topic, the weight they
give each topic for the next question, and the JSON file that keeps them between sessions
(``$TUTOR_PROGRESS_FILE`` or ``~/.wizard-tutor/progress.json``).

A topic's weight grows with the learner's mistakes in it (:func:`topic_weight`), starting
from a base weight that favours the cases learners get wrong most (:data:`BASE_WEIGHTS`).
:mod:`tutor.teaching.practice` picks its questions' topics by these weights.

>>> progress = Progress()
>>> progress.record(Topic.JESTER_LEAD, correct=False)
>>> progress.weights()[Topic.JESTER_LEAD] > progress.weights()[Topic.SCORE]
True
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tutor.rules.checks import is_whole_number
from tutor.teaching.quiz import Topic

PROGRESS_FILE_VARIABLE = "TUTOR_PROGRESS_FILE"
"""Environment variable naming the progress file (default :func:`default_progress_path`)."""

PROGRESS_FORMAT = "wizard-tutor-progress"
PROGRESS_VERSION = 1

BASE_WEIGHTS: Mapping[Topic, float] = {
    Topic.JESTER_LEAD: 2.0,
    Topic.WIZARD_AFTER_NUMBER: 2.0,
    Topic.TRUMP_VS_LED: 2.0,
    Topic.BID_ZERO: 1.5,
    Topic.TRICK_WINNER: 1.0,
    Topic.LEGAL_PLAYS: 1.0,
    Topic.SCORE: 1.0,
    Topic.TRUMP_REVEAL: 1.0,
}
"""The topics practice asks about (those of the card-play questions of
:mod:`tutor.teaching.quiz`), and how often each comes up for a new learner: the cases
learners get wrong most weigh more."""


class ProgressFileError(ValueError):
    """A progress file that cannot be read: the message names the file and how to fix it."""


class PracticeTopicError(ValueError):
    """A topic practice asks no questions about (see :data:`BASE_WEIGHTS`)."""


def check_practice_topic(topic: Topic) -> None:
    """Refuse a topic practice asks no questions about (:class:`PracticeTopicError`)."""
    if topic not in BASE_WEIGHTS:
        raise PracticeTopicError(
            f"practice asks no questions on topic {str(topic)!r} (lessons do); practice "
            "topics: " + ", ".join(str(known) for known in BASE_WEIGHTS)
        )


@dataclass(frozen=True, slots=True)
class TopicCount:
    """Right and wrong answers in one topic."""

    right: int = 0
    wrong: int = 0

    @property
    def answered(self) -> int:
        return self.right + self.wrong

    def plus(self, correct: bool) -> TopicCount:
        """This count with one more answer."""
        if correct:
            return TopicCount(self.right + 1, self.wrong)
        return TopicCount(self.right, self.wrong + 1)


def topic_weight(topic: Topic, count: TopicCount) -> float:
    """How likely ``topic`` comes next: its base weight times 1 + 4 × the share of wrong
    answers (smoothed, so an unanswered topic counts as half wrong). It grows with every
    mistake and shrinks with every right answer, never to zero.

    >>> topic_weight(Topic.SCORE, TopicCount())
    3.0
    >>> topic_weight(Topic.SCORE, TopicCount(right=0, wrong=2)) > topic_weight(
    ...     Topic.SCORE, TopicCount(right=0, wrong=1))
    True
    >>> round(topic_weight(Topic.JESTER_LEAD, TopicCount(right=8, wrong=0)), 2)
    2.8
    """
    check_practice_topic(topic)
    miss_rate = (count.wrong + 1) / (count.answered + 2)
    return BASE_WEIGHTS[topic] * (1 + 4 * miss_rate)


def default_progress_path() -> Path:
    """Where progress is kept: ``$TUTOR_PROGRESS_FILE`` if set, else
    ``~/.wizard-tutor/progress.json`` in the learner's home folder.

    >>> default_progress_path().name
    'progress.json'
    """
    override = os.environ.get(PROGRESS_FILE_VARIABLE)
    if override:
        return Path(override).expanduser()
    return Path.home() / ".wizard-tutor" / "progress.json"


class Progress:
    """Right/wrong counts per topic, kept in a JSON file between sessions.

    ``path=None`` keeps the counts in memory only (nothing is written).

    >>> progress = Progress()
    >>> progress.record(Topic.BID_ZERO, correct=False)
    >>> progress.count(Topic.BID_ZERO), progress.to_json()["topics"]
    (TopicCount(right=0, wrong=1), {'bid-zero': {'right': 0, 'wrong': 1}})
    >>> Progress.from_json({"format": "something else"}, "notes.json")
    Traceback (most recent call last):
    ...
    tutor.teaching.progress.ProgressFileError: notes.json is not a Wizard tutor progress file (expected "format": "wizard-tutor-progress"); delete it or reset the progress
    """

    def __init__(
        self, counts: Mapping[str, TopicCount] | None = None, *, path: Path | None = None
    ) -> None:
        # Keyed by the topic's name, so a file from a newer tutor keeps topics it does not
        # know yet.
        self._counts: dict[str, TopicCount] = dict(counts or {})
        self.path = path

    @classmethod
    def load(cls, path: Path | str | None = None) -> Progress:
        """The progress saved in ``path`` (default :func:`default_progress_path`); empty if
        the file does not exist yet. Nothing is written until :meth:`save`."""
        where = Path(path) if path is not None else default_progress_path()
        try:
            raw = where.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(path=where)
        except OSError as error:
            raise ProgressFileError(f"cannot read the progress file {where}: {error}") from None
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as error:
            raise ProgressFileError(
                f"{where} is not valid JSON ({error}); delete it or reset the progress"
            ) from None
        progress = cls.from_json(data, str(where))
        progress.path = where
        return progress

    @classmethod
    def from_json(cls, data: object, source: str = "the progress data") -> Progress:
        """Counts from the JSON form written by :meth:`to_json`."""
        if not isinstance(data, dict) or data.get("format") != PROGRESS_FORMAT:
            raise ProgressFileError(
                f"{source} is not a Wizard tutor progress file (expected "
                f'"format": "{PROGRESS_FORMAT}"); delete it or reset the progress'
            )
        if data.get("version") != PROGRESS_VERSION:
            raise ProgressFileError(
                f"{source} has progress version {data.get('version')!r}; this tutor reads "
                f"version {PROGRESS_VERSION}: reset the progress"
            )
        topics = data.get("topics", {})
        if not isinstance(topics, dict):
            raise ProgressFileError(f"{source}: \"topics\" must be an object, got {topics!r}")
        counts = {}
        for name, entry in topics.items():
            values = [entry.get(key) if isinstance(entry, dict) else None for key in ("right", "wrong")]
            numbers = [v for v in values if is_whole_number(v) and v >= 0]
            if len(numbers) != 2:
                raise ProgressFileError(
                    f"{source}: topic {name!r} needs whole numbers \"right\" and \"wrong\", "
                    f"got {entry!r}"
                )
            counts[name] = TopicCount(right=numbers[0], wrong=numbers[1])
        return cls(counts)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": PROGRESS_FORMAT,
            "version": PROGRESS_VERSION,
            "topics": {
                name: {"right": count.right, "wrong": count.wrong}
                for name, count in sorted(self._counts.items())
            },
        }

    def count(self, topic: Topic) -> TopicCount:
        return self._counts.get(topic.value, TopicCount())

    def record(self, topic: Topic, *, correct: bool) -> None:
        """Count one answer in ``topic``."""
        self._counts[topic.value] = self.count(topic).plus(correct)

    def weights(self) -> dict[Topic, float]:
        """Every topic's weight for the next question (:func:`topic_weight`)."""
        return {topic: topic_weight(topic, self.count(topic)) for topic in BASE_WEIGHTS}

    def save(self) -> None:
        """Write the counts to :attr:`path` (atomically: a crash leaves the old file)."""
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.path.parent, suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                json.dump(self.to_json(), stream, indent=2)
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def reset(self) -> None:
        """Forget every count, and delete the file."""
        self._counts.clear()
        if self.path is not None:
            self.path.unlink(missing_ok=True)

    def __iter__(self) -> Iterator[tuple[Topic, TopicCount]]:
        """The practice topics with their counts, in :data:`BASE_WEIGHTS` order."""
        return iter([(topic, self.count(topic)) for topic in BASE_WEIGHTS])

    def __repr__(self) -> str:
        return f"<Progress {self.path or 'in memory'}: {self.to_json()['topics']}>"
