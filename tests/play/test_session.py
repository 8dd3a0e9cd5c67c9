"""A game against bots (tutor.play.session), as the play screen runs it; the screen itself
is tests/display/test_play_screen.py."""

from __future__ import annotations

import pytest

from tutor.errors import IllegalPlayError, OutOfTurnError
from tutor.play.session import PlaySession
from tutor.rules.round import Phase, Round
from tutor.teaching.explain import describe_play


def test_the_session_refuses_actions_out_of_turn() -> None:
    session = PlaySession(players=3, seed=5, cards=3)
    with pytest.raises(OutOfTurnError):
        session.play(session.view().hand[0])  # it is the bidding phase
    with pytest.raises(OutOfTurnError):
        session.next_round()  # a single round has no next one
    with pytest.raises(OutOfTurnError):
        session.winners()


def test_a_refused_card_is_judged_once_by_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The session tells why a card is refused from the refusal itself: the round judges
    the card once, when it refuses it, and is not asked again."""
    for seed in range(40):
        session = PlaySession(players=3, seed=seed, cards=4, first_dealer=1)
        session.bid(0)
        view = session.view()
        refused = [j for j in view.judgements if not j.legal]
        if view.phase is Phase.PLAYING and refused:
            break
    else:
        raise AssertionError("no seed in 0-39 gives the learner a card to refuse")
    judged = []
    judge = Round._judge
    monkeypatch.setattr(Round, "_judge", lambda rnd, card: judged.append(card) or judge(rnd, card))
    before = session.round.snapshot()
    outcome = session.play(refused[0].card)
    assert not outcome.accepted and outcome.judgement == refused[0]
    assert outcome.reason == describe_play(refused[0])
    assert judged == [refused[0].card]
    assert session.round.snapshot() == before
    with pytest.raises(IllegalPlayError, match="'X9'"):  # no card at all: nothing to judge
        session.play("X9")
