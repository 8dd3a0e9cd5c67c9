"""The play layer: bots, the bidding coach, a game against bots, and the fast simulator.

Bots that act on a seat's view (:mod:`~tutor.play.bots`), the bidding coach, which plays
the learner's hand out many times in plain Python (:mod:`~tutor.play.coach`), and the
learner's game against bots as the play screen runs it (:mod:`~tutor.play.session`): none
of them needs more than the standard library, so they run in the browser too. The NumPy
simulator of many rounds at once (:mod:`~tutor.play.fastsim`) serves the benchmarks and
the tests that check the coach; it needs NumPy (the ``test`` extra), which the tutor does
not.

It imports the rules and teaching layers only: the play screen is the display layer's.
"""
