"""Fast simulation: many whole rounds at once, as NumPy array operations.

The reference engine (:class:`tutor.rules.round.Round`) checks and explains every action; that
costs time. The benchmarks and the analyses of the bots need hundreds of thousands of
playouts, so this package plays a *batch* of deals in lock-step: each step of the round (one
bid, one card played) is a handful of array operations across every deal of the batch.

It is a tool for benchmarks, analyses and tests, not part of the tutor a learner runs: it
needs NumPy (in the ``test`` extra), which the browser build cannot have. The bidding coach
(:mod:`tutor.play.coach`) plays its few hundred deals in plain Python instead, and
:func:`trick_chances` here is the yardstick its figures are checked against.

It holds no rule of its own: its tables (the led suit after each card, each card's power
in a trick, who must follow, what may be played, the trump a turned card makes) are built
at import by calling the engine's rule functions (:mod:`tutor.rules.trick`,
:mod:`tutor.rules.trump`) for every card, and the bots' scoring knobs come from
:mod:`tutor.play.bots` the same way. The array code that applies the tables is checked
against the engine (``tests/play/test_fastsim.py``): on the same deals and choices it gives
exactly the engine's legal plays, trick winners, tricks taken and scores, and its policies
make exactly the choices of :class:`tutor.play.bots.RandomBot` (any legal action) and
:class:`tutor.play.bots.SensibleBot`.

Its parts, one job each: :mod:`~tutor.play.fastsim.codes` (cards as integer codes 0-59),
:mod:`~tutor.play.fastsim.tables` (the rules as tables), :mod:`~tutor.play.fastsim.deals`
(batches of deals), :mod:`~tutor.play.fastsim.playout` (playing them to the end) and
:mod:`~tutor.play.fastsim.coach_estimate` (the coach's yardstick). What the benchmarks and
tests use is importable from here.

>>> import numpy as np
>>> batch = deal_batch(1000, players=4, cards=12, rng=np.random.default_rng(1))
>>> playout = simulate(batch, policies=Policy.RANDOM, rng=np.random.default_rng(2))
>>> sorted(set(playout.taken.sum(axis=1).tolist()))  # every deal: 12 tricks taken
[12]
"""

from tutor.play.fastsim.coach_estimate import sample_deals, trick_chances
from tutor.play.fastsim.codes import (
    NO_CARD,
    NO_TRUMP,
    card_code,
    decode_card,
    decode_cards,
    encode_cards,
    trump_index,
    trump_of_index,
)
from tutor.play.fastsim.deals import DealBatch, batch_from_rounds, deal_batch
from tutor.play.fastsim.playout import (
    CHUNK,
    NO_BID,
    Playout,
    Policy,
    simulate,
    trick_winners,
)

__all__ = [
    "CHUNK",
    "NO_BID",
    "NO_CARD",
    "NO_TRUMP",
    "DealBatch",
    "Playout",
    "Policy",
    "batch_from_rounds",
    "card_code",
    "deal_batch",
    "decode_card",
    "decode_cards",
    "encode_cards",
    "sample_deals",
    "simulate",
    "trick_chances",
    "trick_winners",
    "trump_index",
    "trump_of_index",
]
