"""RULES.md "Players, rounds, dealing", "Bidding" and "Playing a trick" as enforced by
Round: order of bids and plays, round vs trick, events, replay and seat views."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from itertools import pairwise
from typing import Any

import pytest

from tutor.errors import InvalidDealError, OutOfTurnError, WizardRuleError
from tutor.rules.cards import DECK, Suit, parse_card, parse_cards
from tutor.rules.round import BidMade, CardPlayed, Dealt, Phase, Round, TrumpChosen
from tutor.rules.seats import seat_order
from tutor.rules.trick import PlayRule, WinRule
from tutor.rules.trump import RevealRule, reveal_trump
from tutor.rules.variants import Rules

FinishRound = Callable[[Round, random.Random], Round]
WORKED_HANDS = ("J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10")


def test_round_r_deals_r_cards_to_each_player() -> None:
    for players in (3, 4, 5, 6):
        for cards in (1, 2, 60 // players):
            rnd = Round(players=players, cards=cards, dealer=0, seed=cards)
            assert [len(hand) for hand in rnd.hands] == [cards] * players
            dealt = [card for hand in rnd.hands for card in hand]
            assert all(dealt.count(card) <= DECK.count(card) for card in dealt)


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_left_of_dealer_bids_first_and_leads_the_first_trick(dealer: int) -> None:
    rnd = Round(players=4, cards=2, dealer=dealer, seed=dealer)
    left = (dealer + 1) % 4
    assert rnd.first_seat == left
    assert rnd.to_act == left
    for _ in range(4):
        rnd.bid(0)
    assert rnd.to_act == left
    assert rnd.view(0).current_leader == left


def test_bidding_goes_clockwise_from_the_dealers_left() -> None:
    rnd = Round(players=4, cards=3, dealer=2, seed=1)
    order = []
    while rnd.phase is Phase.BIDDING:
        seat = rnd.to_act
        assert seat is not None
        order.append(seat)
        rnd.bid(seat % 2)
    assert order == [3, 0, 1, 2]
    assert rnd.final_bids == (0, 1, 0, 1)
    assert [e for e in rnd.events if isinstance(e, BidMade)] == [
        BidMade(3, 1),
        BidMade(0, 0),
        BidMade(1, 1),
        BidMade(2, 0),
    ]


def test_all_bids_are_recorded_before_the_first_card() -> None:
    rnd = Round(players=3, cards=2, dealer=0, seed=2)
    rnd.bid(1)
    rnd.bid(0)
    card = rnd.hands[1][0]
    with pytest.raises(OutOfTurnError, match="bidding phase"):
        rnd.play(card)
    assert rnd.legal_plays() == []
    assert not rnd.can_play(card)
    with pytest.raises(OutOfTurnError, match="bidding is not over"):
        _ = rnd.final_bids
    rnd.bid(2)
    assert rnd.phase is Phase.PLAYING and None not in rnd.bids
    assert rnd.legal_bids() == []


def test_play_goes_clockwise_from_the_leader(finish_round: FinishRound) -> None:
    rnd = finish_round(Round(players=5, cards=6, dealer=4, seed=3), random.Random(3))
    for trick in rnd.tricks:
        assert list(trick.seats) == list(seat_order(trick.leader, 5))


def test_the_winner_leads_the_next_trick(worked_example: Round) -> None:
    for amount in (1, 2, 0, 0):
        worked_example.bid(amount)
    for card in parse_cards("J B5 B11 B7 R4 R12 R2 W G3 J G10 G8"):
        worked_example.play(card)
    tricks = worked_example.tricks
    assert [t.leader for t in tricks] == [0, 2, 1]
    assert [t.winner for t in tricks] == [2, 1, 3]
    for before, after in pairwise(tricks):
        assert after.leader == before.winner


def test_a_round_is_r_tricks_of_one_card_per_player(finish_round: FinishRound) -> None:
    rnd = finish_round(Round(players=4, cards=3, dealer=0, seed=4), random.Random(4))
    assert len(rnd.tricks) == 3
    assert all(len(trick.cards) == 4 for trick in rnd.tricks)
    assert [trick.number for trick in rnd.tricks] == [1, 2, 3]


def test_one_trick_of_four_cards_counts_as_one_trick_taken(worked_example: Round) -> None:
    for amount in (1, 2, 0, 0):
        worked_example.bid(amount)
    for card in parse_cards("J B5 B11 B7"):
        worked_example.play(card)
    assert worked_example.taken == (0, 0, 1, 0)
    assert len(worked_example.tricks[0].cards) == 4


def test_trick_records_leader_seats_cards_and_reason(worked_example: Round) -> None:
    for amount in (1, 2, 0, 0):
        worked_example.bid(amount)
    for card in parse_cards("J B5 B11 B7"):
        worked_example.play(card)
    trick = worked_example.tricks[0]
    assert trick.leader == 0 and trick.seats == (0, 1, 2, 3)
    assert trick.plays == tuple(zip((0, 1, 2, 3), parse_cards("J B5 B11 B7"), strict=True))
    assert trick.explanation.rule is WinRule.HIGHEST_LED
    assert worked_example.current_trick == []


def test_scores_only_once_the_round_is_finished(worked_example: Round) -> None:
    with pytest.raises(OutOfTurnError, match="0 of 3 tricks"):
        worked_example.scores()


def test_no_action_once_the_round_is_finished(finish_round: FinishRound) -> None:
    rnd = finish_round(Round(players=3, cards=1, dealer=0, seed=5), random.Random(5))
    assert rnd.finished and rnd.to_act is None and rnd.phase is Phase.FINISHED
    assert rnd.legal_plays() == [] and rnd.legal_bids() == []
    with pytest.raises(OutOfTurnError, match="finished phase"):
        rnd.play("W")
    with pytest.raises(OutOfTurnError, match="finished phase"):
        rnd.bid(0)


def test_a_seed_fixes_the_deal_and_the_global_random_is_not_used() -> None:
    random.seed(1)
    first = Round(players=4, cards=5, dealer=0, seed=99)
    random.seed(2)
    again = Round(players=4, cards=5, dealer=0, seed=99)
    assert first.hands == again.hands and first.turned == again.turned
    other = Round(players=4, cards=5, dealer=0, rng=random.Random(100))
    assert other.hands != first.hands


def test_actions_may_name_the_seat(worked_example: Round) -> None:
    assert worked_example.bid(1, seat=0) == BidMade(0, 1)
    assert worked_example.bid(2, seat=1) == BidMade(1, 2)
    worked_example.bid(0)
    worked_example.bid(0)
    event = worked_example.play("J", seat=0)
    assert (event.seat, event.card) == (0, parse_card("J"))
    assert event.judgement.rule is PlayRule.LEADS


def test_the_event_log_starts_with_the_deal_and_records_each_action(
    worked_example: Round,
) -> None:
    deal = worked_example.events[0]
    assert isinstance(deal, Dealt)
    assert deal.dealer == 3 and deal.turned == parse_card("R9")
    assert deal.hands[1] == tuple(parse_cards("B5 W G3"))
    for amount in (1, 2, 0, 0):
        worked_example.bid(amount)
    worked_example.play("J")
    worked_example.play("B5")
    played = worked_example.events[-1]
    assert isinstance(played, CardPlayed)
    assert played == CardPlayed(1, parse_card("B5"), played.judgement)
    assert played.judgement.rule is PlayRule.NO_SUIT_YET
    assert len(worked_example.events) == 1 + 4 + 2


def test_replay_rebuilds_the_round_exactly(finish_round: FinishRound) -> None:
    rnd = Round(players=4, cards=4, dealer=1, seed=8)
    finish_round(rnd, random.Random(8))
    assert Round.replay(rnd.events).snapshot() == rnd.snapshot()


def test_replay_rebuilds_a_dealers_trump_choice() -> None:
    rnd = Round(hands=("J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10"), turned="W", dealer=3)
    rnd.choose_trump("B")
    rnd.bid(1)
    assert isinstance(rnd.events[1], TrumpChosen)
    again = Round.replay(rnd.events)
    assert again.snapshot() == rnd.snapshot()
    assert again.trump is rnd.trump


def test_replay_keeps_the_variant_and_names_recorded_in_the_deal() -> None:
    rules = Rules.preset("secret-bids")
    rnd = Round(players=3, cards=2, dealer=0, seed=5, rules=rules, names=["Ann", "Bo", "Cy"])
    rnd.bid(1)
    again = Round.replay(rnd.events)
    assert again.rules == rules
    assert again.names == ("Ann", "Bo", "Cy")
    assert again.snapshot() == rnd.snapshot()


def test_replay_needs_the_deal_first() -> None:
    with pytest.raises(InvalidDealError, match="Dealt"):
        Round.replay([BidMade(0, 1)])


def test_a_seat_sees_its_own_hand_and_the_sizes_of_the_others(worked_example: Round) -> None:
    view = worked_example.view(2)
    assert view.hand == tuple(parse_cards("B11 R4 J"))
    assert view.hand_sizes == (3, 3, 3, 3)
    assert view.turned == parse_card("R9")
    assert view.to_act == 0 and view.dealer == 3
    assert view.legal_bids == ()  # not seat 2's turn
    assert worked_example.view(0).legal_bids == (0, 1, 2, 3)


def test_legal_plays_are_offered_to_the_seat_to_act_only(worked_example: Round) -> None:
    for amount in (1, 2, 0, 0):
        worked_example.bid(amount)
    worked_example.play("J")
    worked_example.play("B5")
    assert worked_example.legal_plays() == parse_cards("B11 J")
    assert worked_example.legal_plays(2) == parse_cards("B11 J")
    assert worked_example.legal_plays(3) == []
    assert worked_example.judge("R4").rule is PlayRule.MUST_FOLLOW
    assert worked_example.view(2).legal_plays == tuple(parse_cards("B11 J"))


def test_seat_names_default_to_letters_and_may_be_given() -> None:
    assert Round(players=3, cards=1, seed=1).names == ("A", "B", "C")
    named = Round(players=3, cards=1, seed=1, names=["Ann", "Bo", "Cy"])
    with pytest.raises(OutOfTurnError, match=r"seat 2 \(Cy\).*seat 1 \(Bo\)"):
        named.bid(0, seat=2)


def test_an_action_names_its_seat_by_keyword_only(worked_example: Round) -> None:
    with pytest.raises(TypeError):
        worked_example.bid(0, 1)  # type: ignore[misc]
    assert worked_example.snapshot() == Round(hands=WORKED_HANDS, turned="R9", dealer=3).snapshot()
    assert worked_example.bid(1, seat=0) == BidMade(0, 1)


def test_the_view_carries_the_trump_reveal() -> None:
    rnd = Round(hands=WORKED_HANDS, turned="R9", dealer=3)
    view = rnd.view(1)
    assert view.reveal == reveal_trump("R9") and view.trump is Suit.RED
    assert view.chosen_trump is None  # a number card was turned: nobody chose


def test_the_view_carries_the_dealers_chosen_trump_once_chosen() -> None:
    rnd = Round(hands=WORKED_HANDS, turned="W", dealer=3)
    for seat in range(4):
        view = rnd.view(seat)
        assert view.reveal.rule is RevealRule.WIZARD and view.chosen_trump is None
    rnd.choose_trump("G")
    for seat in range(4):
        view = rnd.view(seat)
        assert view.chosen_trump is Suit.GREEN is view.trump is rnd.chosen_trump
    assert Round.replay(rnd.events).view(0).chosen_trump is Suit.GREEN


def test_events_judgements_and_tricks_are_frozen(worked_example: Round) -> None:
    for amount in (1, 2, 0, 0):
        worked_example.bid(amount)
    for card in ["J", "B5", "B11", "B7"]:
        event = worked_example.play(card)
    trick = worked_example.tricks[0]
    for record, name in [
        (event, "card"),
        (event.judgement, "rule"),
        (trick, "cards"),
        (trick.explanation, "winner"),
        (worked_example.events[1], "bid"),
    ]:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, name, None)
    assert trick.explanation.winner == 2 and trick.winner == 2


def test_play_refuses_and_judges_exactly_as_verify_play() -> None:
    # play runs verify_play's checks itself (a call less per card, for speed): on every
    # turn of random rounds, each card of the deck (as a Card and as notation), a wrong
    # seat and a malformed card get the same judgement or the same refusal from both.
    for seed in range(12):
        rng = random.Random(seed)
        rnd = Round(players=rng.randint(3, 6), cards=rng.randint(1, 10), seed=seed)
        if rnd.phase is Phase.TRUMP_CHOICE:
            rnd.choose_trump(rng.choice(list(Suit)))
        while rnd.phase is Phase.BIDDING:
            rnd.bid(rng.choice(rnd.legal_bids()))
        while not rnd.finished:
            seat = rnd.to_act
            assert seat is not None
            other = (seat + 1) % rnd.players
            tries: list[tuple[tuple[Any, ...], dict[str, Any]]]
            tries = [((card,), {}) for card in set(DECK)]
            tries += [
                ((str(rnd.hands[seat][0]),), {}),
                ((rnd.hands[seat][0],), {"seat": other}),
                ((rnd.hands[seat][0],), {"seat": seat}),
                (("R14",), {}),
                ((None,), {}),
            ]
            legal = []
            for args, keywords in tries:
                try:
                    judgement = rnd.verify_play(*args, **keywords)
                except WizardRuleError as refusal:
                    before = rnd.snapshot()
                    with pytest.raises(type(refusal)) as raised:
                        rnd.play(*args, **keywords)
                    assert str(raised.value) == str(refusal)
                    assert rnd.snapshot() == before
                    # a refused card carries the judgement that refused it, the same from
                    # both (None only where there is no card to judge: malformed, not due)
                    carried = getattr(raised.value, "judgement", None)
                    assert carried == getattr(refusal, "judgement", None)
                    if isinstance(args[0], type(DECK[0])) and "seat" not in keywords:
                        assert carried == rnd.judge(args[0]) and not carried.legal
                else:
                    legal.append((args, keywords, judgement))
            args, keywords, judgement = rng.choice(legal)
            assert rnd.play(*args, **keywords).judgement == judgement


def test_a_seats_view_carries_the_engines_judgement_of_each_card_it_may_play_now() -> None:
    """The seat to play sees each card of its hand judged, in the hand's order, exactly as
    Round.judge judges it, the allowed ones being legal_plays; every other seat, and every
    other phase, sees none."""
    judged_turns = refused_cards = 0
    for seed in range(20):
        rng = random.Random(seed)
        rnd = Round(players=rng.randint(3, 6), cards=rng.randint(1, 10), seed=seed)
        if rnd.phase is Phase.TRUMP_CHOICE:
            rnd.choose_trump(rng.choice(list(Suit)))
        while rnd.phase is Phase.BIDDING:
            assert all(rnd.view(seat).judgements == () for seat in range(rnd.players))
            rnd.bid(rng.choice(rnd.legal_bids()))
        while not rnd.finished:
            due = rnd.to_act
            for seat in range(rnd.players):
                view = rnd.view(seat)
                if seat != due:
                    assert view.judgements == ()
                    assert all(view.judgement_of(card) is None for card in view.hand)
                    continue
                assert view.judgements == tuple(rnd.judge(card) for card in view.hand)
                assert tuple(j.card for j in view.judgements if j.legal) == view.legal_plays
                assert all(view.judgement_of(j.card) == j for j in view.judgements)
                judged_turns += 1
                refused_cards += sum(not j.legal for j in view.judgements)
            rnd.play(rng.choice(rnd.legal_plays()))
        assert rnd.view(0).judgements == ()
    assert judged_turns > 100 and refused_cards > 20  # the seeds do test refusals
