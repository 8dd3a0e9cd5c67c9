"""The play layer: bots, the fast simulator, the bidding coach, and a game against bots.

Bots that act on a seat's view (:mod:`~tutor.play.bots`), the NumPy simulator of many
rounds at once (:mod:`~tutor.play.fastsim`), the bidding coach built on it
(:mod:`~tutor.play.coach`), and the learner's game against bots as the play screen runs
it (:mod:`~tutor.play.session`).

It imports the rules and teaching layers only: the play screen is the display layer's.
"""
