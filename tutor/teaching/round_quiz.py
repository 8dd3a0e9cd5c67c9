"""Quiz questions about setting up a round, graded by the engine: how many rounds and
cards (:class:`ScheduleQuestion`), who deals (:class:`DealerQuestion`), who bids first
(:class:`FirstBidderQuestion`), which bids are legal (:class:`LegalBidsQuestion`) and who
can see a bid (:class:`BidVisibilityQuestion`); and the questions about the deck
(:class:`DeckCountQuestion`) and the rules themselves (:class:`RuleCheckQuestion`). Each kind has its own module in
:mod:`tutor.teaching.kinds`; this module gathers their names.

Like the questions of :mod:`tutor.teaching.quiz` (about playing the cards), each holds only the
situation and is a :class:`tutor.teaching.question.Question`: the answer and its reason come from the
engine's schedule, :class:`tutor.rules.game.Game` and :class:`tutor.rules.round.Round`.

>>> q = FirstBidderQuestion(players=4, dealer=3)
>>> [q.choice_label(seat) for seat in q.choices()], q.check(1).as_text()
(['A', 'B', 'C', 'D'], "Not quite. A sits on the dealer's left, so A bids first and leads the first trick; the bids go clockwise: A, B, C, D.")
"""

from tutor.teaching.kinds.bid_visibility import BidTime, BidVisibilityQuestion
from tutor.teaching.kinds.dealer import DealerQuestion
from tutor.teaching.kinds.deck_count import DeckCount, DeckCountQuestion
from tutor.teaching.kinds.first_bidder import FirstBidderQuestion
from tutor.teaching.kinds.legal_bids import LegalBidsQuestion
from tutor.teaching.kinds.rule_check import RULE_CHECKS, RuleCheck, RuleCheckQuestion
from tutor.teaching.kinds.schedule import ScheduleAsk, ScheduleQuestion

__all__ = [
    "RULE_CHECKS",
    "BidTime",
    "BidVisibilityQuestion",
    "DealerQuestion",
    "DeckCount",
    "DeckCountQuestion",
    "FirstBidderQuestion",
    "LegalBidsQuestion",
    "RuleCheck",
    "RuleCheckQuestion",
    "ScheduleAsk",
    "ScheduleQuestion",
]
