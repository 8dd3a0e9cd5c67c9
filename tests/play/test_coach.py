"""The bidding coach: chances of each trick count from simulated deals that agree with the
learner's view, and expected scores from the engine's scoring."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from tutor.errors import IllegalBidError, OutOfTurnError, WizardRuleError
from tutor.play.bots import RandomBot, SensibleBot
from tutor.play.coach import (
    DEFAULT_SIMULATIONS,
    BidAdvice,
    advise_bid,
    play_out,
    sample_round,
    unseen_cards,
)
from tutor.play.fastsim import trick_chances
from tutor.rules.cards import DECK, Suit
from tutor.rules.round import Phase, Round
from tutor.rules.scoring import round_score
from tutor.rules.variants import Rules


def _round_at_bidding(
    seed: int, *, players: int = 4, cards: int = 10, rules: Rules | None = None
) -> Round:
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
    first = advise_bid(view, simulations=200, seed=4)
    assert advise_bid(view, simulations=200, seed=4) == first
    assert advise_bid(view, simulations=200, rng=random.Random(4)) == first
    assert advise_bid(view, simulations=200, seed=5) != first


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
    rnd.bid(2)
    view = rnd.view(2)
    rng = random.Random(0)
    deals = [sample_round(view, rng, play_for=3) for _ in range(300)]
    for deal in deals:
        assert deal.hands[2] == list(view.hand)
        assert deal.turned == view.turned and deal.dealer == view.dealer
        assert deal.trump == view.trump and deal.phase is Phase.PLAYING
        assert deal.bids[1] == 2 and deal.bids[2] == 3  # the bid shown, the one played for
        # every card once: the unseen ones shared out among the other seats
        dealt = [card for hand in deal.hands for card in hand] + [deal.turned]
        assert Counter(dealt) <= Counter(DECK) and len(dealt) == 5 * 8 + 1
    # the unseen cards really are shuffled between deals, each to every other seat
    assert len({tuple(deal.hands[0]) for deal in deals}) == len(deals)
    holders = Counter(
        seat
        for deal in deals
        for seat, hand in enumerate(deal.hands)
        if unseen_cards(view)[0] in hand
    )
    assert set(holders) == {0, 1, 3, 4} and min(holders.values()) > 20  # about 47 each


def test_simulated_bots_bid_by_the_rules_plus_minus_one_included() -> None:
    # The learner bids first; the three bots after them bid in the simulations, the last
    # one under plus/minus one: the engine checks each bid, so none is ever forbidden.
    rnd = _round_at_bidding(7, cards=3, rules=Rules(plus_minus_one=True))
    view = rnd.view(rnd.to_act)
    rng = random.Random(2)
    for _ in range(200):
        deal = sample_round(view, rng, play_for=1)
        assert sum(deal.final_bids) != deal.cards
        for event, seat in zip(deal.events[1:], (1, 2, 3, 0), strict=True):
            assert event.seat == seat  # type: ignore[union-attr]


def test_play_out_matches_the_engine_with_the_sensible_bot_at_every_seat() -> None:
    # play_out applies the rule functions itself (no judgement, event or view per card);
    # the engine, with SensibleBot choosing every card, must find the same tricks.
    rng = random.Random(17)
    bot = SensibleBot()
    for _ in range(400):
        players = rng.randint(3, 6)
        cards = rng.randint(1, 60 // players)
        rnd = Round(
            players=players,
            cards=cards,
            dealer=rng.randrange(players),
            rng=rng,
            rules=Rules(plus_minus_one=rng.random() < 0.5),
        )
        if rnd.phase is Phase.TRUMP_CHOICE:
            rnd.choose_trump(bot.choose_trump(rnd.view(rnd.dealer)))
        bidder = RandomBot(rng)  # any legal bids: over- and underbidding seats alike
        while rnd.phase is Phase.BIDDING:
            rnd.bid(bidder.bid(rnd.view(rnd.to_act)))  # type: ignore[arg-type]
        before = rnd.snapshot()
        taken = play_out(rnd)
        assert rnd.snapshot() == before  # the round is left as it was
        while not rnd.finished:
            rnd.play(bot.play(rnd.view(rnd.to_act)))  # type: ignore[arg-type]
        assert taken == rnd.taken


def test_play_out_starts_from_the_first_card() -> None:
    rnd = _round_at_bidding(3, cards=2)
    with pytest.raises(OutOfTurnError, match="bidding phase"):
        play_out(rnd)


def test_the_chances_agree_with_the_numpy_simulator_within_their_error() -> None:
    # The same estimate from NumPy batches (tutor.play.fastsim, the same simulated players)
    # with many more deals: each of the coach's chances lies within 4 standard errors.
    for seed, players, cards in ((4, 4, 5), (8, 3, 12), (12, 6, 6)):
        rnd = _round_at_bidding(seed, players=players, cards=cards)
        rnd.bid(1)
        view = rnd.view(rnd.to_act)  # type: ignore[arg-type]
        advice = advise_bid(view, seed=seed)
        reference = trick_chances(
            view, play_for=advice.played_for, simulations=20_000, rng=np.random.default_rng(seed)
        )
        for estimate, chance in zip(advice.probabilities, reference, strict=True):
            error = (chance * (1 - chance) * (1 / advice.simulations + 1 / 20_000)) ** 0.5
            assert abs(estimate - chance) <= 4 * error + 1e-9


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


def test_the_learner_plays_for_their_own_bid_once_made() -> None:
    rnd = _round_at_bidding(3)
    view = rnd.view(1)
    assert advise_bid(view, simulations=10, seed=0).played_for == SensibleBot().bid(view)
    rnd.bid(4)
    after = advise_bid(rnd.view(1), simulations=10, seed=0)
    assert after.played_for == 4


def test_a_turned_wizard_keeps_the_dealers_choice_and_the_seen_wizards() -> None:
    rnd = Round(hands=["W W Y2", "B5 R13 G3", "B11 R4 J", "B7 R12 G10"], turned="W", dealer=3)
    rnd.choose_trump("B")
    view = rnd.view(0)
    rng = random.Random(1)
    for _ in range(50):
        deal = sample_round(view, rng, play_for=2)
        held = [sum(card.is_wizard for card in hand) for hand in deal.hands]
        # two in the learner's hand, one turned: the others share the fourth at most
        assert held[0] == 2 and sum(held[1:]) <= 1 and deal.turned == rnd.turned
        assert deal.trump is Suit.BLUE


def test_advice_uses_only_legal_bids_and_the_default_number_of_deals() -> None:
    for seed in range(6):
        rnd = _round_at_bidding(seed, players=3, cards=4, rules=Rules(plus_minus_one=True))
        while rnd.to_act != rnd.dealer:
            rnd.bid(1)
        view = rnd.view(rnd.dealer)
        advice = advise_bid(view, seed=seed)
        assert advice.legal_bids == view.legal_bids == tuple(rnd.legal_bids())
        assert advice.best_bid in rnd.legal_bids() and advice.simulations == DEFAULT_SIMULATIONS
        assert advice.played_for in rnd.legal_bids()


def test_bad_requests_are_refused() -> None:
    rnd = _round_at_bidding(2, cards=2)
    with pytest.raises(WizardRuleError, match="invalid number of simulations -5"):
        advise_bid(rnd.view(1), simulations=-5)
    with pytest.raises(IllegalBidError, match=r"invalid bid 3: .* from 0 to 2"):
        advise_bid(rnd.view(1), play_for=3)
    with pytest.raises(WizardRuleError, match="seed= or rng="):
        advise_bid(rnd.view(1), seed=1, rng=random.Random(1))
    with pytest.raises(TypeError, match=r"needs a random\.Random"):
        advise_bid(rnd.view(1), rng=np.random.default_rng(1))  # type: ignore[arg-type]
    last = _round_at_bidding(2, cards=2, rules=Rules(plus_minus_one=True))
    with pytest.raises(OutOfTurnError, match="depends on the bids still to come"):
        advise_bid(last.view(0))  # the dealer bids last: its forbidden bid is not known yet
    while last.to_act != last.dealer:
        last.bid(0)
    with pytest.raises(IllegalBidError, match=r"bid 2 by .* forbidden by plus/minus one"):
        advise_bid(last.view(0), play_for=2)
    while rnd.phase is Phase.BIDDING:
        rnd.bid(0)
    with pytest.raises(OutOfTurnError, match=r"advises during bidding: .* playing phase"):
        advise_bid(rnd.view(1))


def test_advice_is_plain_data() -> None:
    advice = BidAdvice(0, 2, Suit.RED, (0.5, 0.5, 0.0), (5.0, 5.0, -10.0), (0, 1, 2), 0, 0, 2)
    assert advice.chance_to_make(0) == 0.5 and advice.expected_tricks == 0.5
    with pytest.raises(IllegalBidError, match="invalid bid 3"):
        advice.standard_error(3)
