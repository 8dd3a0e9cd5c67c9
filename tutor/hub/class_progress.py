"""A class's results, for the teacher's page: each learner's events summed up by the one
summary the learner's own course page uses (:class:`tutor.teaching.progress.Summary`), so
the two pages say the same of the same answers (docs/progress.md), the topics the
class missed most, and the stepped pages whose place the teacher sees (:data:`STEPPED_PAGES`).

>>> from tutor.teaching.progress import AnswerEvent, AnswerSource
>>> missed = AnswerEvent(AnswerSource.PRACTICE, "score", False, True)
>>> results = class_results({"ada": [missed]}, {"07_scoring": ("quiz-bid-one-met",)})
>>> results["ada"].count("score"), results["ada"].lesson("07_scoring").done
(TopicCount(right=0, wrong=1), False)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from tutor.teaching.progress import Event, StepEvent, Summary, TopicCount
from tutor.teaching.worked_example import worked_example

WORKED_EXAMPLE_PAGE = "08_worked_example"
"""The worked example's page name: its notebook's (notebooks/08_worked_example.ipynb shows
it with ``show_worked_example_page``), the ``page`` of its ``step`` events."""


def class_results(
    events: Mapping[str, Iterable[Event]], quiz_items: Mapping[str, Sequence[str]]
) -> dict[str, Summary]:
    """Each learner's :class:`Summary` from their ``events`` (in the order written);
    ``quiz_items``: each lesson's quiz item ids."""
    return {learner: Summary.of(list(kept), quiz_items) for learner, kept in events.items()}


def most_missed(summaries: Iterable[Summary], limit: int = 5) -> list[tuple[str, TopicCount]]:
    """The class's topics with the most wrong first tries (:attr:`Summary.first_tries`:
    each quiz question once, and practice), most first (then the higher share wrong);
    topics nobody got wrong are left out.

    >>> a = Summary({}, {}, {"score": TopicCount(1, 2), "bidding": TopicCount(0, 1)})
    >>> b = Summary({}, {}, {"score": TopicCount(0, 1), "trump-reveal": TopicCount(3, 0)})
    >>> most_missed([a, b])
    [('score', TopicCount(right=1, wrong=3)), ('bidding', TopicCount(right=0, wrong=1))]
    """
    total: dict[str, TopicCount] = {}
    for summary in summaries:
        for topic, count in summary.first_tries.items():
            before = total.get(topic, TopicCount())
            total[topic] = TopicCount(before.right + count.right, before.wrong + count.wrong)
    missed = [(topic, count) for topic, count in total.items() if count.wrong]
    missed.sort(key=lambda pair: (-pair[1].wrong, -pair[1].wrong / pair[1].answered, pair[0]))
    return missed[:limit]


# -- where each learner is on a stepped page ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class SteppedPage:
    """A page of steps whose place the class's results keep (a ``step`` event's page)."""

    name: str
    """The page's name, as its ``step`` events give it."""
    steps: int
    """How many steps it has."""
    title_key: str
    """Its name on the teacher's page (a catalog key)."""


@cache
def stepped_pages() -> dict[str, SteppedPage]:
    """The stepped pages the teacher sees, by name: the worked example (its number of steps
    is the engine's, so it cannot go stale)."""
    example = SteppedPage(
        WORKED_EXAMPLE_PAGE, len(worked_example().steps), "teacher-places.worked-example"
    )
    return {example.name: example}


def place_problem(event: StepEvent, pages: Mapping[str, SteppedPage]) -> str | None:
    """Why ``event`` is no place on one of ``pages`` (its page unknown, or its number of
    steps not the page's: its ``step`` would mean another step, or none), else ``None``.
    The parser already refused a step outside 1 to ``steps``.

    >>> pages = {"08_w": SteppedPage("08_w", 21, "teacher-places.worked-example")}
    >>> place_problem(StepEvent("08_w", 6, 21), pages) is None
    True
    >>> place_problem(StepEvent("08_w", 25, 30), pages)
    "event field 'steps' is 30; page '08_w' has 21 steps"
    >>> place_problem(StepEvent("09_x", 1, 3), pages)
    "event field 'page' is '09_x'; it must be a stepped page: '08_w'"
    """
    page = pages.get(event.page)
    if page is None:
        known = ", ".join(map(repr, sorted(pages)))
        return f"event field 'page' is {event.page!r}; it must be a stepped page: {known}"
    if event.steps != page.steps:
        return f"event field 'steps' is {event.steps!r}; page {page.name!r} has {page.steps} steps"
    return None
