"""The rules layer: the exact rules engine of Wizard, knowing no screen and no words.

Cards (:mod:`~tutor.rules.cards`), the trump reveal (:mod:`~tutor.rules.trump`), one trick
(:mod:`~tutor.rules.trick`), seats (:mod:`~tutor.rules.seats`), scoring
(:mod:`~tutor.rules.scoring`), the schedule of rounds (:mod:`~tutor.rules.schedule`), the
variants (:mod:`~tutor.rules.variants`), a round (:mod:`~tutor.rules.round`) and a game
(:mod:`~tutor.rules.game`). The errors it raises are :mod:`tutor.errors`.

Nothing here imports the teaching, play or display layers; the one exception is the rich
display of notebooks (``_repr_svg_`` / ``_repr_html_``), which imports the display layer
inside the method, when a notebook asks. The public API is re-exported by :mod:`tutor`.
"""
