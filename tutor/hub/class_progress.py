"""A class's results, for the teacher's page: each learner's events summed up by the one
summary the learner's own course page uses (:class:`tutor.teaching.progress_summary.Summary`), so
the two pages say the same of the same answers (docs/progress.md), the topics the
class missed most, the rules the class is weakest on (each learner's memory of each rule
as their own course page has it, :class:`tutor.teaching.review.RuleMemories`), and the
stepped pages whose place the teacher sees (:func:`stepped_pages`).

>>> from tutor.teaching.progress_events import AnswerEvent, AnswerSource
>>> missed = AnswerEvent(AnswerSource.PRACTICE, "score", False, True)
>>> results = class_results({"ada": [missed]}, {"07_scoring": ("quiz-bid-one-met",)})
>>> results["ada"].count("score"), results["ada"].lesson("07_scoring").done
(TopicCount(right=0, wrong=1), False)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache, lru_cache

from tutor.teaching.progress_events import AnswerEvent, AnswerSource, Event, StepEvent
from tutor.teaching.progress_summary import Summary, TopicCount
from tutor.teaching.review import ItemRules, RuleMemories, RuleStatus, rules_asked
from tutor.teaching.rule_map import RuleMap, rule_map
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


# -- the rules the class is weakest on -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClassRule:
    """Where the class is with one rule: how many learners have it known, learning or not
    yet seen, and due for review now (each learner's :class:`RuleMemories`), and the
    class's first tries at the questions that asked it (:func:`rule_first_tries`)."""

    rule: str
    """The rule's id (:mod:`tutor.teaching.rule_map`)."""
    known: int = 0
    learning: int = 0
    new: int = 0
    """Learners who have not yet seen it."""
    due: int = 0
    first_tries: TopicCount = field(default_factory=TopicCount)

    @property
    def weak(self) -> bool:
        """Whether anything says the class is not sure of it yet: a learner still learning
        it, one due to be asked it again, or a wrong first try."""
        return bool(self.learning or self.due or self.first_tries.wrong)


def rule_first_tries(summary: Summary, items: ItemRules) -> dict[str, TopicCount]:
    """Per rule, the first tries of the questions that asked it (the rules
    :func:`tutor.teaching.review.rules_asked` gives): each quiz question once (its
    earliest answer, right only when right at the first try, as
    :attr:`Summary.first_tries` counts it) and every practice or review answer given
    first.

    >>> from tutor.teaching.progress_events import AnswerEvent
    >>> q = AnswerEvent(AnswerSource.QUIZ, "score", False, True, "07_x", "q1")
    >>> again = AnswerEvent(AnswerSource.QUIZ, "score", True, True, "07_x", "q1")
    >>> practice = AnswerEvent(AnswerSource.PRACTICE, "score", True, True, rules=("bid-met-scores",))
    >>> rule_first_tries(Summary.of([q, again, practice], {}), {("07_x", "q1"): ("bid-met-scores",)})
    {'bid-met-scores': TopicCount(right=1, wrong=1)}
    """
    counts: dict[str, TopicCount] = {}
    asked: set[tuple[str, str]] = set()
    for event in summary.answers:
        if event.kind is AnswerSource.QUIZ:
            question = (str(event.lesson), str(event.item))
            if question in asked:
                continue
            asked.add(question)
            right = event.correct and event.first_try
        elif event.first_try:
            right = event.correct
        else:
            continue
        for rule in rules_asked(event, items):
            counts[rule] = counts.get(rule, TopicCount()).plus(right)
    return counts


CLASS_SIZE = 200
"""The learners whose rules' memories the teacher's page keeps between loads (a class
or a few)."""


@lru_cache(maxsize=CLASS_SIZE)
def _memories(
    answers: tuple[AnswerEvent, ...],
    items: tuple[tuple[tuple[str, str], tuple[str, ...]], ...],
    rules: RuleMap,
) -> RuleMemories:
    # RuleMemories.of replays a summary's answers alone; kept by them, so that a reload of
    # the teacher's page replays only the learners with new answers (each replay is some
    # tens of milliseconds: FSRS in pure Python).
    return RuleMemories.of(Summary({}, {}, answers=answers), dict(items), rules=rules)


def rule_memories(summary: Summary, items: ItemRules, *, rules: RuleMap) -> RuleMemories:
    """``RuleMemories.of(summary, items, rules=rules)``, replayed once for the same answers.

    >>> from tutor.teaching.progress_events import AnswerEvent
    >>> right = AnswerEvent(AnswerSource.PRACTICE, "score", True, True, rules=("bid-met-scores",))
    >>> once = rule_memories(Summary.of([right], {}), {}, rules=rule_map())
    >>> once is rule_memories(Summary.of([right], {}), {}, rules=rule_map())
    True
    """
    key = tuple(sorted((item, tuple(asked)) for item, asked in items.items()))
    return _memories(tuple(summary.answers), key, rules)


def class_rules(
    summaries: Iterable[Summary],
    items: ItemRules,
    now: datetime,
    *,
    rules: RuleMap | None = None,
) -> list[ClassRule]:
    """Every rule of the map (in its order) for a class of learners, one ``summaries``
    each: each learner's memory of each rule is the one their own course page shows
    (:meth:`RuleMemories.of`, from the same summary), due at ``now`` (UTC).

    >>> from tutor.teaching.progress_events import AnswerEvent
    >>> from tutor.teaching.review import at
    >>> right = AnswerEvent(AnswerSource.PRACTICE, "score", True, True,
    ...                     time="2026-12-01T10:00:00Z", rules=("bid-met-scores",))
    >>> ada, bo = Summary.of([right], {}), Summary.of([], {})
    >>> standing = class_rules([ada, bo], {}, at("2026-12-09T10:00:00Z"))
    >>> [rule for rule in standing if rule.rule == "bid-met-scores"]
    [ClassRule(rule='bid-met-scores', known=0, learning=1, new=1, due=1, first_tries=TopicCount(right=1, wrong=0))]
    """
    rules = rules if rules is not None else rule_map()
    ids = rules.ids()
    statuses = {rule: dict.fromkeys(RuleStatus, 0) for rule in ids}
    due = dict.fromkeys(ids, 0)
    first_tries: dict[str, TopicCount] = {}
    for summary in summaries:
        memories = rule_memories(summary, items, rules=rules)
        for rule in ids:
            statuses[rule][memories.status(rule)] += 1
        for rule in memories.due(now):
            due[rule] += 1
        for rule, count in rule_first_tries(summary, items).items():
            if rule in statuses:  # a rule the map no longer has is not counted
                before = first_tries.get(rule, TopicCount())
                first_tries[rule] = TopicCount(
                    before.right + count.right, before.wrong + count.wrong
                )
    return [
        ClassRule(
            rule,
            known=statuses[rule][RuleStatus.KNOWN],
            learning=statuses[rule][RuleStatus.LEARNING],
            new=statuses[rule][RuleStatus.NEW],
            due=due[rule],
            first_tries=first_tries.get(rule, TopicCount()),
        )
        for rule in ids
    ]


def ranked_rules(standing: Iterable[ClassRule]) -> list[ClassRule]:
    """The rules some learner of the class has met, weakest first: the most learners still
    learning it, then the most wrong first tries, then the most learners it is due for,
    then the order given (:func:`class_rules` gives the map's).

    >>> [rule.rule for rule in ranked_rules([ClassRule("a", known=2), ClassRule("b", new=2),
    ...                                      ClassRule("c", known=1, learning=1)])]
    ['c', 'a']
    """
    met = (rule for rule in standing if rule.known or rule.learning)
    return sorted(met, key=lambda rule: (-rule.learning, -rule.first_tries.wrong, -rule.due))


def weakest_rules(standing: Iterable[ClassRule], limit: int = 5) -> list[ClassRule]:
    """The ``limit`` rules the class is weakest on, weakest first (:func:`ranked_rules`).
    A rule is left out when nothing says the class is unsure of it (:attr:`ClassRule.weak`):
    every learner who met it knows it, none is due, no first try was wrong; or nobody met
    it yet.

    >>> print(*weakest_rules([ClassRule("a", known=2, new=1), ClassRule("b", learning=1, due=1),
    ...                       ClassRule("c", learning=1, due=1, first_tries=TopicCount(0, 2))]))
    ClassRule(rule='c', known=0, learning=1, new=0, due=1, first_tries=TopicCount(right=0, wrong=2)) ClassRule(rule='b', known=0, learning=1, new=0, due=1, first_tries=TopicCount(right=0, wrong=0))
    """
    return [rule for rule in ranked_rules(standing) if rule.weak][:limit]


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
