"""A game against bots (tutor.play.session), as the play screen runs it; the screen itself
is tests/display/test_play_screen.py."""

from __future__ import annotations

import pytest

from tutor.errors import OutOfTurnError
from tutor.play.session import PlaySession


def test_the_session_refuses_actions_out_of_turn() -> None:
    session = PlaySession(players=3, seed=5, cards=3)
    with pytest.raises(OutOfTurnError):
        session.play(session.view().hand[0])  # it is the bidding phase
    with pytest.raises(OutOfTurnError):
        session.next_round()  # a single round has no next one
    with pytest.raises(OutOfTurnError):
        session.winners()
