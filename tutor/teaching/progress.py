"""The learner's progress: every graded answer is an event, appended and never rewritten;
what the course page and practice show (lessons done, quiz scores, right and wrong per
topic, where to continue) is computed from the events (/work/notes/PROGRESS_CONTRACT.md).

Events live in a store that belongs to one learner:

- :class:`FileStore`: a JSON Lines file (``$TUTOR_PROGRESS_FILE``, default
  ``~/.wizard-tutor/progress.jsonl``), one event per line, appended with ``O_APPEND`` under an
  advisory lock, so two kernels of one learner (two open pages) both count. JupyterHub (the
  file sits in the learner's own home) and JupyterLab use it.
- the learner's browser (``localStorage``), for the plain app, classroom mode and the static
  site: a widget of the display layer (:mod:`tutor.display.browser_store`) talks to it.
- :class:`MemoryStore`: nothing is kept (tests, and "continue without saving").

``$TUTOR_PROGRESS_STORE`` (``browser`` or ``file``) chooses; the launcher sets it.

>>> progress = Progress(MemoryStore())
>>> _ = progress.record_answer(AnswerKind.PRACTICE, topic=Topic.JESTER_LEAD, correct=False)
>>> progress.weights()[Topic.JESTER_LEAD] > progress.weights()[Topic.SCORE]
True
>>> progress.reset()
>>> progress.count(Topic.JESTER_LEAD)
TopicCount(right=0, wrong=0)
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Protocol

from tutor.teaching.quiz import Topic
from tutor.teaching.text import DEFAULT_LANGUAGE, catalog, text

try:  # POSIX; elsewhere (Windows) appends rely on O_APPEND alone
    import fcntl
except ImportError:  # pragma: no cover - not on the machines the tests run on
    fcntl = None  # type: ignore[assignment]

PROGRESS_FILE_VARIABLE = "TUTOR_PROGRESS_FILE"
"""Environment variable naming the progress file (default :func:`default_progress_path`)."""

PROGRESS_STORE_VARIABLE = "TUTOR_PROGRESS_STORE"
"""Environment variable choosing where progress is kept: ``browser`` or ``file``."""

BROWSER_STORAGE_KEY = "wizard-tutor/progress/v1"
"""The browser's ``localStorage`` key: a JSON array of events."""
BROWSER_SOURCE = f"localStorage {BROWSER_STORAGE_KEY!r}"
"""How errors name the browser's store (a learner reads "this browser's storage")."""

EVENT_VERSION = 1
MAX_LINE_BYTES = 4096
"""An event takes about 250 bytes; a longer line is not one the tutor wrote (and is not
parsed: no deep nesting or giant number reaches the JSON parser)."""
MAX_STORE_BYTES = 32 * 1024 * 1024
"""About 130,000 answers: more is not a progress store."""

PRACTICE = "practice"
"""The activity of practice answers (their events carry no lesson)."""
PRACTICE_GOAL = 10
"""Practice answers after which practice counts as done on the course page (it never ends,
but a learner who answered ten questions has tried it and may go on)."""

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


class PracticeTopicError(ValueError):
    """A topic practice asks no questions about (see :data:`BASE_WEIGHTS`)."""


def check_practice_topic(topic: Topic) -> None:
    """Refuse a topic practice asks no questions about (:class:`PracticeTopicError`)."""
    if topic not in BASE_WEIGHTS:
        raise PracticeTopicError(
            f"practice asks no questions on topic {str(topic)!r} (lessons do); practice "
            "topics: " + ", ".join(str(known) for known in BASE_WEIGHTS)
        )


# -- events ----------------------------------------------------------------------------------


class AnswerKind(StrEnum):
    """Where an answer was given."""

    QUIZ = "quiz"
    """A lesson's quiz (the event names the lesson and the item)."""
    PRACTICE = "practice"
    """Practice (no lesson, no item)."""


RESET = "reset"
"""The ``kind`` of a :class:`ResetEvent`."""


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _new_id() -> str:
    return uuid.uuid4().hex


@dataclass(frozen=True, slots=True)
class AnswerEvent:
    """One graded answer. Only ``first_try`` answers count in a score."""

    kind: AnswerKind
    topic: str
    correct: bool
    first_try: bool
    lesson: str | None = None
    item: str | None = None
    id: str = field(default_factory=_new_id)
    time: str = field(default_factory=_now)

    def to_json(self) -> dict[str, object]:
        return {
            "v": EVENT_VERSION,
            "id": self.id,
            "time": self.time,
            "kind": self.kind.value,
            "lesson": self.lesson,
            "item": self.item,
            "topic": self.topic,
            "correct": self.correct,
            "first_try": self.first_try,
        }


@dataclass(frozen=True, slots=True)
class ResetEvent:
    """"Forget every answer before this one" (a reset is an event, so a second open page
    cannot bring back what was reset)."""

    id: str = field(default_factory=_new_id)
    time: str = field(default_factory=_now)

    def to_json(self) -> dict[str, object]:
        return {"v": EVENT_VERSION, "id": self.id, "time": self.time, "kind": RESET}


Event = AnswerEvent | ResetEvent


# -- reading stores: every way a store can be bad ---------------------------------------------


class StoreProblem(StrEnum):
    """What is wrong with a progress store (its message in every language is
    ``progress.problem-<value>`` in the catalogs)."""

    UNREADABLE = "unreadable"
    FOLDER = "folder"
    TOO_BIG = "too-big"
    NOT_UTF8 = "not-utf8"
    DAMAGED = "damaged"
    NEWER = "newer"
    UNWRITABLE = "unwritable"
    BROWSER_BLOCKED = "browser-blocked"
    BROWSER_WRITE = "browser-write"


class ProgressStoreError(ValueError):
    """A progress store that cannot be read or written: which store, what is wrong, and
    where (a line of a file, an entry of the browser's list). ``message(lang)`` says it
    in the learner's language; ``str()`` in English with the technical detail."""

    def __init__(
        self, problem: StoreProblem, source: str, *, line: int | None = None, detail: str = ""
    ) -> None:
        self.problem = problem
        self.source = source
        self.line = line
        self.detail = detail
        where = f"{source}, line {line}" if line is not None else source
        super().__init__(
            f"progress store {where}: {problem.value}" + (f" ({detail})" if detail else "")
        )

    def message(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """What is wrong, for the learner (names the store, and the line if one is bad).

        >>> print(ProgressStoreError(StoreProblem.DAMAGED, "/h/p.jsonl", line=3).message())
        /h/p.jsonl is damaged at line 3: it is not an answer the tutor wrote.
        >>> print(ProgressStoreError(StoreProblem.DAMAGED, BROWSER_SOURCE).message("ja"))
        「このブラウザーの保存領域」は壊れています。チューターが書いた答えの一覧ではありません。
        """
        key = f"progress.problem-{self.problem.value}"
        if self.line is not None and f"problem-{self.problem.value}-line" in catalog(lang)["progress"]:
            key += "-line"
        source = text("progress.browser-source", lang) if self.source == BROWSER_SOURCE else self.source
        return text(key, lang, source=source, line=self.line if self.line is not None else "")


_ID = re.compile(r"[0-9a-f]{32}")
_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
"""A lesson, item or topic name: lesson files' ids, items' ids and topics all fit."""


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number JSON allows")


def _load_json(text_value: str) -> object:
    """JSON that must be small and plain: no NaN/Infinity; nesting and huge numbers are
    refused by the callers' size limits and reported as damage, not as a crash."""
    return json.loads(text_value, parse_constant=_refuse_constant)


def parse_event(data: object) -> Event:
    """An event from its JSON form; ``ValueError`` says which field is wrong.

    >>> parse_event({"v": 1, "id": "0" * 32, "time": "2026-12-01T10:00:00Z", "kind": "reset"})
    ResetEvent(id='00000000000000000000000000000000', time='2026-12-01T10:00:00Z')
    >>> parse_event({"v": 1, "id": "0" * 32, "time": "2026-12-01T10:00:00Z", "kind": "quiz",
    ...              "lesson": "06_trick_winner", "item": "q1", "topic": "trick-winner",
    ...              "correct": "yes", "first_try": True})
    Traceback (most recent call last):
    ...
    ValueError: "correct" must be true or false, got 'yes'
    """
    if not isinstance(data, dict):
        raise ValueError(f"an event is a JSON object, got {type(data).__name__}")
    version = data.get("v")
    if type(version) is not int or version < 1:
        raise ValueError(f'"v" must be a version number, got {version!r}')
    if version > EVENT_VERSION:
        raise _NewerEventError(version)
    event_id, time = data.get("id"), data.get("time")
    if not isinstance(event_id, str) or not _ID.fullmatch(event_id):
        raise ValueError(f'"id" must be 32 hexadecimal digits, got {event_id!r}')
    if not isinstance(time, str) or not _TIME.fullmatch(time):
        raise ValueError(f'"time" must be a UTC time like 2026-12-01T10:00:00Z, got {time!r}')
    kind = data.get("kind")
    if kind == RESET:
        return ResetEvent(id=event_id, time=time)
    if kind not in {answer.value for answer in AnswerKind}:
        raise ValueError(f'"kind" must be quiz, practice or reset, got {kind!r}')
    answer_kind = AnswerKind(kind)
    in_quiz = answer_kind is AnswerKind.QUIZ  # only a quiz's answers name a lesson and item
    lesson, item = _event_name(data, "lesson", in_quiz), _event_name(data, "item", in_quiz)
    topic = _event_name(data, "topic", True)
    for name in ("correct", "first_try"):
        if not isinstance(data.get(name), bool):
            raise ValueError(f'"{name}" must be true or false, got {data.get(name)!r}')
    return AnswerEvent(
        kind=answer_kind,
        topic=str(topic),
        correct=bool(data["correct"]),
        first_try=bool(data["first_try"]),
        lesson=lesson,
        item=item,
        id=event_id,
        time=time,
    )


def _event_name(data: Mapping[str, object], field: str, needed: bool) -> str | None:
    """An event's ``field`` that holds a name (a lesson, an item, a topic); ``None`` if it
    is missing and not ``needed``."""
    value = data.get(field)
    if value is None and not needed:
        return None
    if not isinstance(value, str) or not _NAME.fullmatch(value):
        raise ValueError(f'"{field}" must be a name, got {value!r}')
    return value


class _NewerEventError(ValueError):
    def __init__(self, version: int) -> None:
        super().__init__(f"event version {version}; this tutor reads version {EVENT_VERSION}")


def _entry_problem(
    error: ValueError | RecursionError, source: str, line: int
) -> ProgressStoreError:
    """What an entry that is not an event means for its store (a line of a file, an entry
    of the browser's list): written by a newer tutor, or damaged."""
    if isinstance(error, _NewerEventError):
        return ProgressStoreError(StoreProblem.NEWER, source, line=line, detail=str(error))
    return ProgressStoreError(StoreProblem.DAMAGED, source, line=line, detail=str(error)[:200])


def parse_lines(raw: bytes, source: str) -> list[Event]:
    """The events of a JSON Lines file's bytes (blank lines are skipped). A line that is
    not an event the tutor wrote is reported (its number and the file), never dropped.

    >>> parse_lines(b'{"v": 1}\\n', "p.jsonl")
    Traceback (most recent call last):
    ...
    tutor.teaching.progress.ProgressStoreError: progress store p.jsonl, line 1: damaged ("id" must be 32 hexadecimal digits, got None)
    """
    if len(raw) > MAX_STORE_BYTES:
        raise ProgressStoreError(StoreProblem.TOO_BIG, source, detail=f"{len(raw)} bytes")
    events: list[Event] = []
    for number, line in enumerate(raw.split(b"\n"), start=1):
        if not line.strip():
            continue
        if len(line) > MAX_LINE_BYTES:
            raise ProgressStoreError(
                StoreProblem.DAMAGED, source, line=number, detail=f"a line of {len(line)} bytes"
            )
        try:
            decoded = line.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ProgressStoreError(
                StoreProblem.NOT_UTF8, source, line=number, detail=str(error)
            ) from None
        try:
            events.append(parse_event(_load_json(decoded)))
        except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
            raise _entry_problem(error, source, number) from None
    return events


def parse_list(raw: str, source: str) -> list[Event]:
    """The events of the browser's form: one JSON array. ``line`` in a problem is the
    position (from 1) of the bad entry.

    >>> parse_list('[{"v": 1, "id": "%s", "time": "2026-12-01T10:00:00Z", "kind": "reset"}]'
    ...            % ("a" * 32), "this browser")[0].id == "a" * 32
    True
    >>> parse_list("{}", "this browser")
    Traceback (most recent call last):
    ...
    tutor.teaching.progress.ProgressStoreError: progress store this browser: damaged (not a list of events)
    """
    if len(raw) > MAX_STORE_BYTES:
        raise ProgressStoreError(StoreProblem.TOO_BIG, source, detail=f"{len(raw)} characters")
    try:
        # The entries are checked one by one below: the list itself must parse, and a
        # deep nesting or a giant number is damage, not a crash.
        data = _load_json(raw)
    except (ValueError, RecursionError) as error:
        raise ProgressStoreError(StoreProblem.DAMAGED, source, detail=str(error)[:200]) from None
    if not isinstance(data, list):
        raise ProgressStoreError(StoreProblem.DAMAGED, source, detail="not a list of events")
    events: list[Event] = []
    for number, entry in enumerate(data, start=1):
        try:
            events.append(parse_event(entry))
        except (ValueError, RecursionError) as error:
            raise _entry_problem(error, source, number) from None
    return events


# -- what the events add up to -----------------------------------------------------------------


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


@dataclass(frozen=True, slots=True)
class LessonResult:
    """A lesson's quiz for this learner: how many of its ``items`` were answered and how
    many right at the first try (each item's latest first try counts)."""

    items: int
    answered: int = 0
    right: int = 0

    @property
    def done(self) -> bool:
        return self.items > 0 and self.answered >= self.items

    @property
    def started(self) -> bool:
        return self.answered > 0


@dataclass(frozen=True, slots=True)
class Summary:
    """What the events since the last reset add up to.

    ``quiz_items`` names every lesson's quiz items (by lesson id), so a lesson's result
    counts only items it still has.

    >>> events = [AnswerEvent(AnswerKind.QUIZ, "trick-winner", True, True, "06_x", "q1"),
    ...           AnswerEvent(AnswerKind.QUIZ, "trick-winner", False, True, "06_x", "q2")]
    >>> summary = Summary.of(events, {"06_x": ["q1", "q2"], "07_y": ["q1"]})
    >>> summary.lesson("06_x"), summary.lesson("06_x").done
    (LessonResult(items=2, answered=2, right=1), True)
    >>> summary.continue_at(["06_x", "07_y"])
    '07_y'
    """

    lessons: Mapping[str, LessonResult]
    topics: Mapping[str, TopicCount]
    last_activity: str | None

    @classmethod
    def of(cls, events: Iterable[Event], quiz_items: Mapping[str, Sequence[str]]) -> Summary:
        since_reset: list[AnswerEvent] = []
        for event in events:
            if isinstance(event, ResetEvent):
                since_reset.clear()
            else:
                since_reset.append(event)
        latest: dict[tuple[str, str], bool] = {}  # (lesson, item) -> its latest first try
        topics: dict[str, TopicCount] = {}
        last: str | None = None
        for answer in since_reset:
            if answer.kind is AnswerKind.QUIZ and answer.lesson is not None:
                last = answer.lesson
                if answer.first_try and answer.item is not None:
                    latest[(answer.lesson, answer.item)] = answer.correct
            elif answer.kind is AnswerKind.PRACTICE:
                last = PRACTICE
                if answer.first_try:
                    topics[answer.topic] = topics.get(answer.topic, TopicCount()).plus(
                        answer.correct
                    )
        lessons = {}
        for lesson, items in quiz_items.items():
            answered = [latest[(lesson, item)] for item in items if (lesson, item) in latest]
            lessons[lesson] = LessonResult(
                items=len(items), answered=len(answered), right=sum(answered)
            )
        return cls(lessons=lessons, topics=topics, last_activity=last)

    def lesson(self, lesson: str) -> LessonResult:
        return self.lessons.get(lesson, LessonResult(items=0))

    def count(self, topic: Topic | str) -> TopicCount:
        return self.topics.get(str(topic), TopicCount())

    @property
    def practice(self) -> TopicCount:
        """Every practice answer (first tries), whatever the topic."""
        counts = list(self.topics.values())
        return TopicCount(sum(c.right for c in counts), sum(c.wrong for c in counts))

    def done(self, activity: str) -> bool:
        """Whether a lesson's quiz is answered through, or practice has had its
        :data:`PRACTICE_GOAL` answers; pages without answers (the worked example, the
        play screen) are never done."""
        if activity == PRACTICE:
            return self.practice.answered >= PRACTICE_GOAL
        return self.lesson(activity).done

    def continue_at(self, course: Sequence[str]) -> str | None:
        """Where to continue, given the course's activities in order: the page of the
        learner's last answer if it is not done, else the first page after it that is not
        done; a learner with no answers starts at the beginning.

        >>> Summary.of([], {}).continue_at(["01_a", "02_b"])
        '01_a'
        """
        if not course:
            return None
        if self.last_activity is None or self.last_activity not in course:
            return next((page for page in course if not self.done(page)), course[0])
        start = course.index(self.last_activity)
        if not self.done(self.last_activity):
            return self.last_activity
        return next((page for page in course[start + 1 :] if not self.done(page)), None)


# -- stores ---------------------------------------------------------------------------------


class Store(Protocol):
    """Where one learner's events are kept. ``load`` gives every event, or ``None`` while
    the store has not answered yet (the browser's store then calls
    :meth:`Progress.reload` once it has); both methods raise :class:`ProgressStoreError`
    when the store cannot be read or the event could not be kept."""

    def load(self) -> list[Event] | None: ...

    def append(self, event: Event) -> None: ...

    def start_afresh(self) -> str | None:
        """Put a broken store aside (never delete it) and start an empty one; the name
        of where the old one went, if anywhere."""
        ...

    def where(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """A sentence for the learner: where the progress is kept."""
        ...


class MemoryStore:
    """Events kept by this page only (nothing survives it).

    >>> store = MemoryStore()
    >>> store.append(ResetEvent()); len(store.load())
    1
    """

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self.events = list(events)

    def load(self) -> list[Event]:
        return list(self.events)

    def append(self, event: Event) -> None:
        self.events.append(event)

    def start_afresh(self) -> str | None:
        self.events.clear()
        return None

    def where(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("progress.where-nowhere", lang)


def aside_name(name: str) -> str:
    """The name a broken store ``name`` is kept under when the learner starts afresh (it
    is put aside, never deleted): ``<name>.broken-<UTC time>``.

    >>> aside_name("progress.jsonl").startswith("progress.jsonl.broken-20")
    True
    """
    return f"{name}.broken-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}"


def default_progress_path() -> Path:
    """Where the progress file is: ``$TUTOR_PROGRESS_FILE`` if set, else
    ``~/.wizard-tutor/progress.jsonl`` in the learner's home folder.

    >>> default_progress_path().name
    'progress.jsonl'
    """
    override = os.environ.get(PROGRESS_FILE_VARIABLE)
    if override:
        return Path(override).expanduser()
    return Path.home() / ".wizard-tutor" / "progress.jsonl"


class FileStore:
    """Events in a JSON Lines file, one per line. Appending opens the file with
    ``O_APPEND`` and holds an exclusive ``flock`` while it writes the whole line at once,
    so two kernels (two pages of one learner) both count; reading holds a shared lock.
    The file and its folder are the learner's only (modes 600 and 700).

    >>> import tempfile
    >>> store = FileStore(Path(tempfile.mkdtemp()) / "progress.jsonl")
    >>> store.append(ResetEvent()); store.append(ResetEvent()); len(store.load())
    2
    """

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_progress_path()

    def _problem(self, problem: StoreProblem, error: OSError | None = None) -> ProgressStoreError:
        detail = error.strerror or str(error) if error is not None else ""
        return ProgressStoreError(problem, str(self.path), detail=detail)

    def load(self) -> list[Event]:
        """Every event in the file (none if there is no file yet)."""
        try:
            with self.path.open("rb") as stream:
                if fcntl is not None:
                    fcntl.flock(stream.fileno(), fcntl.LOCK_SH)
                raw = stream.read(MAX_STORE_BYTES + 1)
        except FileNotFoundError:
            return []
        except IsADirectoryError as error:
            raise self._problem(StoreProblem.FOLDER, error) from None
        except OSError as error:
            raise self._problem(StoreProblem.UNREADABLE, error) from None
        return parse_lines(raw, str(self.path))

    def append(self, event: Event) -> None:
        """Add ``event`` as one line at the end of the file (creating it if needed)."""
        line = json.dumps(event.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n"
        data = line.encode("utf-8")
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            handle = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        except IsADirectoryError as error:
            raise self._problem(StoreProblem.FOLDER, error) from None
        except OSError as error:
            raise self._problem(StoreProblem.UNWRITABLE, error) from None
        try:
            if fcntl is not None:
                fcntl.flock(handle, fcntl.LOCK_EX)
            size = os.fstat(handle).st_size
            # A line cut short (a crash while writing) must not swallow this one: it stays
            # on a line of its own, and loading reports it.
            if size and os.pread(handle, 1, size - 1) != b"\n":
                data = b"\n" + data
            written = 0
            while written < len(data):
                written += os.write(handle, data[written:])
            os.fsync(handle)
        except OSError as error:
            raise self._problem(StoreProblem.UNWRITABLE, error) from None
        finally:
            os.close(handle)  # closing releases the lock

    def start_afresh(self) -> str | None:
        """Move the file (or whatever is in its place) aside (:func:`aside_name`); the
        next answer starts a new file."""
        if not self.path.exists() and not self.path.is_symlink():
            return None
        aside = self.path.with_name(aside_name(self.path.name))
        try:
            self.path.rename(aside)
        except OSError as error:
            raise self._problem(StoreProblem.UNWRITABLE, error) from None
        return str(aside)

    def where(self, lang: str = DEFAULT_LANGUAGE) -> str:
        user = os.environ.get("JUPYTERHUB_USER")
        if user:
            return text("progress.where-hub", lang, user=user, file=str(self.path))
        return text("progress.where-file", lang, file=str(self.path))


class StoreSetting(StrEnum):
    """The values of ``$TUTOR_PROGRESS_STORE``."""

    BROWSER = "browser"
    FILE = "file"


class UnknownStoreError(ValueError):
    """A ``TUTOR_PROGRESS_STORE`` naming no store."""


def store_setting(environ: Mapping[str, str] | None = None) -> StoreSetting | None:
    """The store ``$TUTOR_PROGRESS_STORE`` asks for (``None`` when unset: the page's kind
    decides). A typo is refused loudly, naming the known values.

    >>> store_setting({"TUTOR_PROGRESS_STORE": "file"})
    <StoreSetting.FILE: 'file'>
    >>> store_setting({"TUTOR_PROGRESS_STORE": "cloud"})
    Traceback (most recent call last):
    ...
    tutor.teaching.progress.UnknownStoreError: TUTOR_PROGRESS_STORE='cloud' names no progress store; known: 'browser', 'file'
    """
    value = (os.environ if environ is None else environ).get(PROGRESS_STORE_VARIABLE, "")
    if not value.strip():
        return None
    try:
        return StoreSetting(value.strip().lower())
    except ValueError:
        known = ", ".join(repr(setting.value) for setting in StoreSetting)
        raise UnknownStoreError(
            f"{PROGRESS_STORE_VARIABLE}={value!r} names no progress store; known: {known}"
        ) from None


# -- the learner's progress -----------------------------------------------------------------


class ProgressState(StrEnum):
    LOADING = "loading"
    """The store has not answered yet (the browser's store answers once the page is up)."""
    READY = "ready"
    BROKEN = "broken"
    """The store could not be read: :attr:`Progress.problem` says why; answers are kept
    by this page only until the learner starts afresh."""


Listener = Callable[["Progress"], None]


class Progress:
    """One learner's events, from a :class:`Store`, and what they add up to.

    An answer the store could not take is kept by this page and sent again with the
    next one; while the store is broken, answers are this page's only, until the learner
    starts afresh (they then go to the new store). ``observe(listener)`` calls
    ``listener(progress)`` after every change.

    >>> progress = Progress(MemoryStore())
    >>> _ = progress.record_answer(AnswerKind.QUIZ, topic="trick-winner", correct=True,
    ...                            lesson="06_x", item="q1")
    >>> progress.summary({"06_x": ["q1", "q2"]}).lesson("06_x")
    LessonResult(items=2, answered=1, right=1)
    """

    def __init__(self, store: Store | None = None, *, load: bool = True) -> None:
        self.store: Store = store if store is not None else MemoryStore()
        self.state = ProgressState.LOADING
        self.problem: ProgressStoreError | None = None
        self.write_problem: ProgressStoreError | None = None
        self._events: list[Event] = []
        self._unsaved: list[Event] = []  # recorded here, not (yet) in the store
        self._listeners: list[Listener] = []
        if load:
            self.reload()

    # -- the store's side ----------------------------------------------------------------

    def reload(self) -> None:
        """Read the store again (another page of this learner may have added answers)."""
        self._read_store()
        self._changed()

    def _read_store(self) -> None:
        try:
            events = self.store.load()
        except ProgressStoreError as error:
            self.state, self.problem = ProgressState.BROKEN, error
        else:
            if events is not None:
                self._take(events)

    def _take(self, events: Sequence[Event]) -> None:
        self._events = list(events)
        known = {event.id for event in self._events}
        self._unsaved = [event for event in self._unsaved if event.id not in known]
        self.state, self.problem = ProgressState.READY, None

    def write_failed(self, error: ProgressStoreError) -> None:
        """The store could not keep an answer (this page still counts it)."""
        self.write_problem = error
        self._changed()

    def start_afresh(self) -> str | None:
        """Put the broken store aside and carry on with an empty one (keeping this page's
        answers); where the old store went, if anywhere."""
        aside = self.store.start_afresh()
        pending, self._unsaved = self._unsaved, []
        self.problem = None
        self.write_problem = None
        self._events = []
        self.state = ProgressState.READY
        for event in pending:
            self._keep(event)
        self.reload()
        return aside

    def forget_store(self) -> None:
        """Carry on without keeping anything (the store cannot be repaired from here)."""
        self.store = MemoryStore(self._events + self._unsaved)
        self._unsaved = []
        self.problem = None
        self.write_problem = None
        self.reload()

    # -- the learner's side ----------------------------------------------------------------

    def record_answer(
        self,
        kind: AnswerKind,
        *,
        topic: Topic | str,
        correct: bool,
        first_try: bool = True,
        lesson: str | None = None,
        item: str | None = None,
    ) -> AnswerEvent:
        """Record one graded answer."""
        event = AnswerEvent(
            kind=kind, topic=str(topic), correct=correct, first_try=first_try, lesson=lesson, item=item
        )
        self._keep(event)
        return event

    def reset(self) -> None:
        """Forget every answer so far (for this learner only: a reset event in their store)."""
        self._keep(ResetEvent())

    def _keep(self, event: Event) -> None:
        self._unsaved.append(event)
        if self.state is not ProgressState.BROKEN:
            try:
                # Earlier answers the store could not take go first: a store that works
                # again gets them all (a store keeps an event once, whatever it is sent).
                for pending in list(self._unsaved):
                    self.store.append(pending)
            except ProgressStoreError as error:
                self.write_problem = error
            else:
                self.write_problem = None
                self._read_store()  # a file may hold answers of the learner's other pages too
        self._changed()

    # -- what it adds up to ---------------------------------------------------------------

    @property
    def events(self) -> list[Event]:
        """The store's events, then this page's not (yet) in it."""
        return self._events + self._unsaved

    def summary(self, quiz_items: Mapping[str, Sequence[str]] | None = None) -> Summary:
        return Summary.of(self.events, quiz_items or {})

    def count(self, topic: Topic) -> TopicCount:
        """Practice answers in ``topic`` (first tries since the last reset)."""
        return self.summary().count(topic)

    def weights(self) -> dict[Topic, float]:
        """Every practice topic's weight for the next question (:func:`topic_weight`)."""
        summary = self.summary()
        return {topic: topic_weight(topic, summary.count(topic)) for topic in BASE_WEIGHTS}

    def __iter__(self) -> Iterator[tuple[Topic, TopicCount]]:
        """The practice topics with their counts, in :data:`BASE_WEIGHTS` order."""
        summary = self.summary()
        return iter([(topic, summary.count(topic)) for topic in BASE_WEIGHTS])

    def observe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener(self)

    def __repr__(self) -> str:
        return f"<Progress {self.state.value}: {len(self.events)} events>"
