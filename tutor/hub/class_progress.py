"""A class's results, for the teacher's page: each learner's events summed up by the one
summary the learner's own course page uses (:class:`tutor.teaching.progress.Summary`), so
the two pages say the same of the same answers (docs/progress.md), and the topics the
class missed most.

>>> from tutor.teaching.progress import AnswerEvent, AnswerSource
>>> missed = AnswerEvent(AnswerSource.PRACTICE, "score", False, True)
>>> results = class_results({"ada": [missed]}, {"07_scoring": ("quiz-bid-one-met",)})
>>> results["ada"].count("score"), results["ada"].lesson("07_scoring").done
(TopicCount(right=0, wrong=1), False)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from tutor.teaching.progress import Event, Summary, TopicCount


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
