"""The learner's progress: every graded answer, and every page finished, is an event,
appended and never rewritten; what the course page, practice and the teacher's page show
(pages done, quiz scores, right and wrong per topic, where to continue) is computed from
the events by one summary. The contract (the events' format and versions, what "right at
the first try", "done" and "continue" mean) is docs/progress.md. Its parts, a module each:

- :mod:`tutor.teaching.progress_events`: the events, their JSON form and their parser;
- :mod:`tutor.teaching.progress_summary`: what the events add up to (:class:`Summary`,
  practice's topic weights);
- :mod:`tutor.teaching.progress_stores`: where the events are kept (a file, the browser,
  memory) and every way a store can be bad;
- here, :class:`Progress`: one learner's events from their store, the answers they give
  recorded to it, and what they add up to, for the pages to show.

>>> progress = Progress(MemoryStore())
>>> _ = progress.record_answer(AnswerSource.PRACTICE, topic=Topic.JESTER_LEAD, correct=False)
>>> progress.weights()[Topic.JESTER_LEAD] > progress.weights()[Topic.SCORE]
True
>>> progress.reset()
>>> progress.count(Topic.JESTER_LEAD)
TopicCount(right=0, wrong=0)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime
from enum import StrEnum

from tutor.teaching.progress_events import (
    AnswerCode,
    AnswerEvent,
    AnswerSource,
    Event,
    FinishedEvent,
    ResetEvent,
    StepEvent,
    check_page_name,
    format_event_time,
    parse_event,
)
from tutor.teaching.progress_stores import MemoryStore, ProgressStoreError, Store
from tutor.teaching.progress_summary import BASE_WEIGHTS, Summary, TopicCount, topic_weight
from tutor.teaching.quiz import Topic


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
    >>> _ = progress.record_answer(AnswerSource.QUIZ, topic="trick-winner", correct=True,
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
        kind: AnswerSource,
        *,
        topic: Topic | str,
        correct: bool,
        first_try: bool = True,
        lesson: str | None = None,
        item: str | None = None,
        rules: Sequence[str] = (),
        time: datetime | None = None,
        answer: AnswerCode | None = None,
    ) -> AnswerEvent:
        """Record one graded answer (``rules``: those a practice or review answer asked;
        ``time``: when, if not now; ``answer``: what a quiz answer was;
        :class:`~tutor.teaching.progress_events.EventError` names a value the parser would
        refuse)."""
        event = AnswerEvent(
            kind=kind,
            topic=str(topic),
            correct=correct,
            first_try=first_try,
            lesson=lesson,
            item=item,
            rules=tuple(rules),
            answer=answer,
            **({"time": format_event_time(time)} if time is not None else {}),
        )
        parse_event(event.to_json())  # what is kept is what a reload can read
        self._keep(event)
        return event

    def record_finished(self, page: str) -> FinishedEvent:
        """Record that the learner got to the end of ``page`` (its notebook's name)."""
        check_page_name(page)
        event = FinishedEvent(page)
        self._keep(event)
        return event

    def record_step(self, page: str, step: int, steps: int) -> StepEvent:
        """Record that the learner moved to ``step`` (from 1) of the ``steps`` steps of
        ``page`` (its notebook's name); :class:`~tutor.teaching.progress_events.EventError`
        names a value out of range (the event's rules are the parser's: what is kept is
        what a reload can read)."""
        event = StepEvent(page, step, steps)
        parse_event(event.to_json())
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
