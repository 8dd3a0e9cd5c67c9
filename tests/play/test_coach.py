"""The bidding coach: chances of each trick count from simulated deals that agree with the
learner's view, and expected scores from the engine's scoring."""

from __future__ import annotations

import numpy as np
import pytest

from tutor.errors import IllegalBidError, OutOfTurnError, WizardRuleError
from tutor.play.bots import SensibleBot
from tutor.play.coach import BidAdvice, advise_bid, sample_deals
from tutor.play.fastsim import NO_BID, Policy, decode_cards, simulate
from tutor.rules.cards import Suit
from tutor.rules.round import Phase, Round
from tutor.rules.scoring import round_score
from tutor.rules.variants import Rules


def _round_at_bidding(seed: int, *, players: int = 4, cards: int = 10,
                      rules: Rules | None = None) -> Round:
    rnd = Round(players=players, cards=cards, dealer=0, seed=seed, rules=rules)
    if rnd.phase is Phase.TRUMP_CHOICE:
        rnd.choose_trump(Suit.GREEN)
    return rnd


def test_three_wizards_leading_take_every_trick() -> None:
    rnd = Round(hands=["W W W", "B5 R13 G3", "B11 R4 J", "B7 R12 G10"], turned="R9", dealer=3)
    advice = advise_bid(rnd.view(0), simulations=500, seed=2)
    assert advice.probabilities == (0.0, 0.0, 0.0, 1.0)
    assert advice.best_bid == 3 and advice.expected_scores[3] == round_score(3, 3)


def test_a_lone_low_card_rarely_takes_a_trick() -> None:
    rnd = Round(hands=["Y2", "B5", "B11", "B7"], turned="R9", dealer=3)
    advice = advise_bid(rnd.view(1), simulations=2000, seed=3)
    assert advice.best_bid == 0
    assert advice.probabilities[0] > 0.9


def test_probabilities_add_up_and_expected_scores_come_from_round_score() -> None:
    rnd = _round_at_bidding(5)
    advice = advise_bid(rnd.view(1), simulations=1500, seed=1)
    assert len(advice.probabilities) == len(advice.expected_scores) == 11
    assert sum(advice.probabilities) == pytest.approx(1.0)
    for bid in range(11):
        expected = sum(p * round_score(bid, k) for k, p in enumerate(advice.probabilities))
        assert advice.expected_scores[bid] == pytest.approx(expected)
    assert advice.best_bid in advice.legal_bids
    assert advice.expected_scores[advice.best_bid] == max(
        advice.expected_scores[bid] for bid in advice.legal_bids
    )
    assert advice.expected_tricks == pytest.approx(
        sum(k * p for k, p in enumerate(advice.probabilities))
    )
    assert advice.simulations == 1500


def test_the_same_seed_gives_the_same_advice() -> None:
    view = _round_at_bidding(9).view(1)
    assert advise_bid(view, seed=4) == advise_bid(view, seed=4)
    assert advise_bid(view, rng=np.random.default_rng(4)) == advise_bid(view, seed=4)


def test_best_bid_skips_the_bid_plus_minus_one_forbids() -> None:
    rnd = _round_at_bidding(21, cards=3, rules=Rules(plus_minus_one=True))
    while rnd.to_act != rnd.dealer:
        rnd.bid(0)
    forbidden = rnd.forbidden_bid()
    assert forbidden == 3
    advice = advise_bid(rnd.view(rnd.dealer), seed=1)
    assert forbidden not in advice.legal_bids and advice.best_bid != forbidden


def test_sampled_deals_keep_what_the_learner_sees_and_shuffle_the_rest() -> None:
    rnd = _round_at_bidding(13, players=5, cards=8)
    view = rnd.view(2)
    batch = sample_deals(view, 300, np.random.default_rng(0))
    own = sorted(map(str, view.hand))
    others_first = None
    for index in range(batch.size):
        deal = batch.round(index)
        assert sorted(map(str, deal.hands[2])) == own
        assert deal.turned == view.turned and deal.dealer == view.dealer
        if others_first is None:
            others_first = [sorted(map(str, hand)) for hand in deal.hands]
    # the unseen cards really are shuffled between deals
    assert others_first != [sorted(map(str, hand)) for hand in batch.round(1).hands]


def test_the_coach_never_uses_bids_the_variant_hides() -> None:
    # Secret bids: the seats before the learner bid differently in two rounds with the same
    # deal; the learner's view shows neither, so the advice is the same.
    views = []
    for earlier_bids in ((0, 0), (7, 9)):
        rnd = Round(players=4, cards=10, dealer=0, seed=31, rules=Rules(bidding="secret"))
        if rnd.phase is Phase.TRUMP_CHOICE:
            rnd.choose_trump(Suit.RED)
        for bid in earlier_bids:
            rnd.bid(bid)
        views.append(rnd.view(3))
    assert views[0].bids == views[1].bids == (None, None, None, None)
    assert advise_bid(views[0], seed=8) == advise_bid(views[1], seed=8)


def test_the_coach_uses_bids_the_view_shows() -> None:
    rnd = _round_at_bidding(31)
    rnd.bid(0)
    rnd.bid(10)  # seat 2 goes for everything: it grabs tricks the learner could take
    grabbing = advise_bid(rnd.view(3), seed=8)
    again = _round_at_bidding(31)
    again.bid(0)
    again.bid(0)
    ducking = advise_bid(again.view(3), seed=8)
    assert grabbing.expected_tricks < ducking.expected_tricks


def test_simulated_tricks_match_the_reference_engine_with_the_bots() -> None:
    # The coach's playouts (fast path) against the engine with SensibleBot at every seat,
    # on the coach's own sampled deals, with the bids the coach holds fixed.
    rnd = _round_at_bidding(44, cards=7)
    rnd.bid(2)
    view = rnd.view(2)
    play_for = 1
    batch = sample_deals(view, 60, np.random.default_rng(5))
    bids = np.full((batch.size, 4), NO_BID)
    bids[:, 1] = 2
    bids[:, 2] = play_for
    playout = simulate(batch, policies=Policy.SENSIBLE, bids=bids, dealer_choice=view.trump)
    bot = SensibleBot()
    for index in range(batch.size):
        deal = batch.round(index)
        if deal.phase is Phase.TRUMP_CHOICE:
            assert view.trump is not None
            deal.choose_trump(view.trump)
        while deal.phase is Phase.BIDDING:
            seat = deal.to_act
            assert seat is not None
            fixed = {1: 2, 2: play_for}
            deal.bid(fixed[seat] if seat in fixed else bot.bid(deal.view(seat)))
        while not deal.finished:
            seat = deal.to_act
            assert seat is not None
            deal.play(bot.play(deal.view(seat)))
        assert deal.taken == tuple(playout.taken[index].tolist())
    advice = advise_bid(view, simulations=60, rng=np.random.default_rng(5), play_for=play_for)
    counts = np.bincount(playout.taken[:, 2], minlength=8) / 60
    assert advice.probabilities == tuple(counts.tolist())


def test_the_learner_plays_for_their_own_bid_once_made() -> None:
    rnd = _round_at_bidding(3)
    view = rnd.view(1)
    assert advise_bid(view, simulations=10, seed=0).played_for == SensibleBot().bid(view)
    rnd.bid(4)
    after = advise_bid(rnd.view(1), simulations=10, seed=0)
    assert after.played_for == 4


def test_hand_in_sampled_deal_decodes_to_the_learners_cards() -> None:
    rnd = Round(hands=["W W Y2", "B5 R13 G3", "B11 R4 J", "B7 R12 G10"], turned="W", dealer=3)
    rnd.choose_trump("B")
    batch = sample_deals(rnd.view(0), 50, np.random.default_rng(1))
    assert decode_cards(batch.hands[0, 0]) == rnd.hands[0][2:] + rnd.hands[0][:2]
    for index in range(50):
        deal = batch.round(index)
        held = [sum(card.is_wizard for card in hand) for hand in deal.hands]
        # two in the learner's hand, one turned: the others share the fourth at most
        assert held[0] == 2 and sum(held[1:]) <= 1 and deal.turned == rnd.turned


def test_bad_requests_are_refused() -> None:
    rnd = _round_at_bidding(2, cards=2)
    with pytest.raises(WizardRuleError, match="invalid number of simulations -5"):
        advise_bid(rnd.view(1), simulations=-5)
    with pytest.raises(IllegalBidError, match=r"invalid bid 3: .* from 0 to 2"):
        advise_bid(rnd.view(1), play_for=3)
    with pytest.raises(WizardRuleError, match="seed= or rng="):
        advise_bid(rnd.view(1), seed=1, rng=np.random.default_rng(1))
    while rnd.phase is Phase.BIDDING:
        rnd.bid(0)
    with pytest.raises(OutOfTurnError, match=r"advises during bidding: .* playing phase"):
        advise_bid(rnd.view(1))


def test_advice_is_plain_data() -> None:
    advice = BidAdvice(0, 2, Suit.RED, (0.5, 0.5, 0.0), (5.0, 5.0, -10.0), (0, 1, 2), 0, 0, 2)
    assert advice.chance_to_make(0) == 0.5 and advice.expected_tricks == 0.5
    with pytest.raises(IllegalBidError, match="invalid bid 3"):
        advice.standard_error(3)
