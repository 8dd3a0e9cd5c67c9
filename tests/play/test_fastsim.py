"""The fast path (tutor.play.fastsim) against the reference engine: same deals and choices give
the same legal plays, trick winners, tricks taken and scores; its policies make the bots'
choices."""

from __future__ import annotations

import importlib.util
import random
import sys
from types import ModuleType

import numpy as np
import pytest

import tutor.play.fastsim.tables
import tutor.rules.trick
import tutor.rules.trump
from tutor.errors import InvalidCardError, InvalidDealError, InvalidPlayersError, WizardRuleError
from tutor.play.bots import SensibleBot, play_round
from tutor.play.fastsim import (
    CHUNK,
    NO_BID,
    NO_CARD,
    NO_TRUMP,
    DealBatch,
    Playout,
    Policy,
    batch_from_rounds,
    card_code,
    deal_batch,
    decode_card,
    decode_cards,
    encode_cards,
    simulate,
    trick_winners,
    trump_index,
    trump_of_index,
)
from tutor.play.fastsim.codes import JESTER_CODES, WIZARD_CODES
from tutor.rules.cards import DECK, Card, Suit, parse_cards
from tutor.rules.round import BidMade, CardPlayed, Phase, Round, TrumpChosen
from tutor.rules.trick import trick_winner
from tutor.rules.variants import Rules

# (players, cards) shapes: single-card rounds, middle rounds, and the last round of each
# player count (every card dealt: nothing turned, no trump).
SHAPES = [(3, 1), (3, 7), (3, 20), (4, 1), (4, 10), (4, 15), (5, 6), (5, 12), (6, 3), (6, 10)]
DEALS_PER_SHAPE = 40
RULE_SETS = [Rules(), Rules(plus_minus_one=True)]


# -- encoding ---------------------------------------------------------------------------


def test_codes_follow_the_deck_order() -> None:
    assert decode_cards(range(60)) == list(DECK)
    assert encode_cards(DECK) == list(range(60))


def test_every_card_round_trips_through_its_code() -> None:
    for code in range(60):
        card = decode_card(code)
        copy = code - 52 if card.is_wizard else code - 56 if card.is_jester else 0
        assert card_code(card, copy) == code
        assert card_code(str(card), copy) == code


def test_wizards_and_jesters_get_one_code_per_copy() -> None:
    cards = parse_cards("J W W J W W J J")
    codes = encode_cards(cards)
    assert codes == [56, 52, 53, 57, 54, 55, 58, 59]
    assert decode_cards(codes) == cards


def test_random_hands_round_trip() -> None:
    rng = random.Random(1)
    for _ in range(500):
        hand = rng.sample(list(DECK), rng.randint(1, 20))
        assert decode_cards(encode_cards(hand)) == hand


def test_bad_codes_and_copies_are_refused() -> None:
    with pytest.raises(InvalidCardError, match="invalid card code -1"):
        decode_card(-1)
    with pytest.raises(InvalidCardError, match="invalid copy 1 of R9"):
        card_code("R9", 1)
    with pytest.raises(InvalidCardError, match="W appears 5 times"):
        encode_cards(["W"] * 5)


def test_trump_index_round_trips() -> None:
    for trump in [*Suit, None]:
        assert trump_of_index(trump_index(trump)) is trump
    assert trump_index(None) == NO_TRUMP


# -- one home for each rule: the tables come from the engine's rule functions ------------


def fresh_tables(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The fast simulator's tables (tutor.play.fastsim.tables) loaded again from their
    file, as a separate module: built from whatever the engine's rule functions are now."""
    path = tutor.play.fastsim.tables.__file__
    spec = importlib.util.spec_from_file_location("fastsim_tables_again", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "fastsim_tables_again", module)
    spec.loader.exec_module(module)
    return module


def test_the_trick_power_table_is_the_engines_card_power(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        tutor.rules.trick, "card_power", lambda card, trump, suit: 7 if card.is_jester else 1
    )
    again = fresh_tables(monkeypatch)
    jesters = list(JESTER_CODES)
    assert (again.TRICK_POWER[:, :, jesters] == 7).all()
    assert (again.TRICK_POWER[:, :, : jesters[0]] == 1).all()


def test_the_led_suit_table_is_the_engines_lead_after(monkeypatch: pytest.MonkeyPatch) -> None:
    lead_after = tutor.rules.trick.lead_after
    monkeypatch.setattr(  # as if a Jester led set nothing, and nothing else did either
        tutor.rules.trick, "lead_after", lambda lead, suit, card: (lead, suit)
    )
    again = fresh_tables(monkeypatch)
    assert (np.arange(6)[:, None] == again.NEXT_LED).all()
    monkeypatch.setattr(tutor.rules.trick, "lead_after", lead_after)
    assert (fresh_tables(monkeypatch).NEXT_LED == tutor.play.fastsim.tables.NEXT_LED).all()


def test_who_must_follow_and_what_they_may_play_come_from_the_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    play_rule = tutor.rules.trick.play_rule

    def jesters_banned(card: Card, lead: object, suit: object, holds_suit: bool) -> object:
        rule = play_rule(card, lead, suit, holds_suit)  # type: ignore[arg-type]
        return tutor.rules.trick.PlayRule.MUST_FOLLOW if card.is_jester else rule

    monkeypatch.setattr(tutor.rules.trick, "play_rule", jesters_banned)
    again = fresh_tables(monkeypatch)
    assert not again.ALLOWED_WHEN_BOUND[:, list(JESTER_CODES)].any()
    assert again.ALLOWED_WHEN_BOUND[:, list(WIZARD_CODES)].all()
    free = again.FREE_WHEN_BOUND
    assert free[list(WIZARD_CODES)].all() and not free[list(JESTER_CODES)].any()


def test_the_trump_a_turned_card_makes_is_the_engines_reveal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reveal = tutor.rules.trump.reveal_trump
    monkeypatch.setattr(  # as if a turned Jester let the dealer choose
        tutor.rules.trump,
        "reveal_trump",
        lambda card: reveal("W") if card is not None and card.is_jester else reveal(card),
    )
    again = fresh_tables(monkeypatch)
    turned = np.array(list(JESTER_CODES) + list(WIZARD_CODES) + [NO_CARD])
    assert again.DEALER_CHOOSES[turned].tolist() == [True] * 8 + [False]


# -- the vectorised trick winner ----------------------------------------------------------


def _check_tricks(tricks: list[list[Card]], trumps: list[Suit | None]) -> int:
    length = len(tricks[0])
    codes = np.array([encode_cards(trick) for trick in tricks])
    assert codes.shape == (len(tricks), length)
    found = trick_winners(codes, np.array([trump_index(trump) for trump in trumps]))
    expected = [trick_winner(trick, trump) for trick, trump in zip(tricks, trumps, strict=True)]
    assert found.tolist() == expected
    return len(tricks)


TRUMPS: list[Suit | None] = [*Suit, None]


@pytest.mark.parametrize("length", [3, 4, 5, 6])
def test_trick_winner_matches_the_engine_on_random_tricks(length: int) -> None:
    rng = random.Random(length)
    tricks = [rng.sample(list(DECK), length) for _ in range(4000)]
    trumps = [rng.choice(TRUMPS) for _ in tricks]
    assert _check_tricks(tricks, trumps) == 4000


def _special_tricks(rng: random.Random, length: int, first: list[Card]) -> list[Card]:
    rest = list(DECK)
    for card in first:
        rest.remove(card)
    return first + rng.sample(rest, length - len(first))


@pytest.mark.parametrize(
    "opening",
    ["J", "J J", "J J J", "J W", "J J W", "W", "R5 W", "B13 W W", "J R2", "J J Y1 W"],
    ids=lambda text: "led-" + text.replace(" ", "-"),
)
def test_trick_winner_matches_the_engine_on_jester_and_wizard_openings(opening: str) -> None:
    rng = random.Random(opening)
    first = parse_cards(opening)
    tricks = [
        _special_tricks(rng, length, first)
        for length in range(max(3, len(first)), 7)
        for _ in range(300)
    ]
    for length in {len(trick) for trick in tricks}:
        same = [trick for trick in tricks if len(trick) == length]
        _check_tricks(same, [rng.choice(TRUMPS) for _ in same])


def test_trick_winner_all_jesters_is_the_first_jester() -> None:
    jesters = parse_cards("J J J J")
    for trump in TRUMPS:
        assert _check_tricks([jesters[:3], jesters[:3]], [trump, None]) == 2
        assert trick_winners(np.array([encode_cards(jesters)]), np.array([NO_TRUMP]))[0] == 0


def test_trick_winner_wizard_after_a_number_card_wins_and_later_wizards_do_not() -> None:
    tricks = [parse_cards("R4 R12 R2 W"), parse_cards("B6 W Y13 W"), parse_cards("W R13 W J")]
    assert _check_tricks(tricks, [Suit.RED, Suit.YELLOW, None]) == 3


def test_trick_winner_without_trump_takes_the_highest_led_card() -> None:
    tricks = [parse_cards("G3 Y13 G10 B12"), parse_cards("J G3 Y13 G10")]
    assert _check_tricks(tricks, [None, None]) == 2


# -- deals ------------------------------------------------------------------------------


def test_a_deal_batch_holds_sixty_distinct_cards_per_deal() -> None:
    batch = deal_batch(300, players=5, cards=11, rng=np.random.default_rng(0))
    everything = np.concatenate([batch.hands.reshape(300, -1), batch.turned[:, None]], axis=1)
    assert all(len(set(row)) == 56 for row in everything.tolist())
    assert (np.diff(batch.hands, axis=2) > 0).all()  # hands are sorted


def test_the_last_round_turns_nothing() -> None:
    batch = deal_batch(10, players=6, cards=10, rng=np.random.default_rng(0))
    assert (batch.turned == NO_CARD).all()


def test_batch_from_rounds_matches_each_rounds_deal() -> None:
    rounds = [Round(players=4, cards=9, dealer=seed % 4, seed=seed) for seed in range(30)]
    batch = batch_from_rounds(rounds)
    for index, rnd in enumerate(rounds):
        again = batch.round(index)
        assert sorted(map(str, again.hands[0])) == sorted(map(str, rnd.hands[0]))
        assert [sorted(map(str, hand)) for hand in again.hands] == [
            sorted(map(str, hand)) for hand in rnd.hands
        ]
        assert again.turned == rnd.turned and again.dealer == rnd.dealer


def test_bad_batches_are_refused() -> None:
    good = deal_batch(2, players=3, cards=2, rng=np.random.default_rng(0))
    doubled = good.hands.copy()
    doubled[0, 1, 0] = doubled[0, 0, 0]
    with pytest.raises(InvalidDealError, match="same card code twice"):
        DealBatch(hands=doubled, turned=good.turned, dealer=good.dealer)
    with pytest.raises(InvalidDealError, match="turned card is -1 exactly when"):
        DealBatch(hands=good.hands, turned=np.full(2, NO_CARD, np.int8), dealer=good.dealer)
    with pytest.raises(InvalidPlayersError, match="dealer seats run from 0 to 2"):
        DealBatch(hands=good.hands, turned=good.turned, dealer=np.full(2, 3, np.int8))
    with pytest.raises(InvalidPlayersError, match="invalid dealer seat 5"):
        deal_batch(2, players=3, cards=2, rng=np.random.default_rng(0), dealer=5)
    with pytest.raises(InvalidDealError, match="same players and cards"):
        batch_from_rounds([Round(players=3, cards=2, seed=1), Round(players=3, cards=3, seed=1)])


# -- playouts against the engine ----------------------------------------------------------


def _replay_step_by_step(playout: Playout, index: int, rules: Rules) -> tuple[int, int]:
    """Drive the engine with the playout's choices one action at a time, comparing the
    legal plays before each card and each trick's leader and winner. Returns the numbers
    of plays and tricks compared."""
    batch = playout.batch
    assert playout.legal is not None
    rnd = batch.round(index, rules=rules)
    if rnd.phase is Phase.TRUMP_CHOICE:
        assert playout.trump_chosen[index]
        rnd.choose_trump(trump_of_index(int(playout.trump[index])))
    assert trump_index(rnd.trump) == playout.trump[index]
    while rnd.phase is Phase.BIDDING:
        seat = rnd.to_act
        assert seat is not None
        rnd.bid(int(playout.bids[index, seat]))
    plays = 0
    for trick in range(batch.cards):
        leader = int(playout.leaders[index, trick])
        for position in range(batch.players):
            assert rnd.to_act == (leader + position) % batch.players
            legal_codes = np.flatnonzero(playout.legal[index, trick, position])
            assert sorted(map(str, decode_cards(legal_codes))) == sorted(
                map(str, rnd.legal_plays())
            )
            rnd.play(decode_card(int(playout.plays[index, trick, position])))
            plays += 1
        assert rnd.tricks[-1].winner == playout.winners[index, trick]
    assert rnd.finished
    assert rnd.taken == tuple(playout.taken[index].tolist())
    assert rnd.final_bids == tuple(playout.bids[index].tolist())
    assert rnd.scores() == tuple(playout.scores[index].tolist())
    return plays, batch.cards


@pytest.mark.parametrize("rules", RULE_SETS, ids=["standard", "plus-minus-one"])
@pytest.mark.parametrize(("players", "cards"), SHAPES)
def test_random_playouts_replay_exactly_through_the_engine(
    players: int, cards: int, rules: Rules
) -> None:
    rng = np.random.default_rng(players * 100 + cards)
    batch = deal_batch(
        DEALS_PER_SHAPE, players=players, cards=cards, rng=rng, dealer=cards % players
    )
    playout = simulate(batch, policies=Policy.RANDOM, rng=rng, rules=rules, record_legal=True)
    plays = tricks = 0
    for index in range(batch.size):
        done = _replay_step_by_step(playout, index, rules)
        plays, tricks = plays + done[0], tricks + done[1]
    assert plays == DEALS_PER_SHAPE * players * cards
    assert tricks == DEALS_PER_SHAPE * cards


def test_replays_cover_turned_wizards_and_forbidden_bids() -> None:
    # Guard for the tests above: enough deals turn a Wizard (dealer's choice) and, under
    # plus/minus one, leave the last bidder a forbidden bid, so those paths are compared.
    wizards = forbidden = 0
    for players, cards in SHAPES:
        rng = np.random.default_rng(players * 100 + cards)
        batch = deal_batch(
            DEALS_PER_SHAPE, players=players, cards=cards, rng=rng, dealer=cards % players
        )
        playout = simulate(batch, policies="random", rng=rng, rules=RULE_SETS[1])
        wizards += int(playout.trump_chosen.sum())
        forbidden += sum(
            0 <= cards - (int(row.sum()) - int(row[int(dealer)])) <= cards
            for row, dealer in zip(playout.bids, batch.dealer, strict=True)
        )
    assert wizards >= 10
    assert forbidden >= 100


@pytest.mark.parametrize("rules", RULE_SETS, ids=["standard", "plus-minus-one"])
@pytest.mark.parametrize(("players", "cards"), SHAPES)
def test_sensible_policy_makes_the_sensible_bots_choices(
    players: int, cards: int, rules: Rules
) -> None:
    rng = np.random.default_rng(players * 1000 + cards)
    batch = deal_batch(
        DEALS_PER_SHAPE, players=players, cards=cards, rng=rng, dealer=(cards + 1) % players
    )
    playout = simulate(batch, policies=Policy.SENSIBLE, rules=rules)
    for index in range(batch.size):
        by_bots = batch.round(index, rules=rules)
        play_round(by_bots, [SensibleBot()] * players)
        assert playout.replay(index, rules=rules).events == by_bots.events


def test_mixed_seats_follow_their_own_policy() -> None:
    rng = np.random.default_rng(7)
    batch = deal_batch(60, players=4, cards=8, rng=rng, dealer=2)
    policies = [Policy.SENSIBLE, Policy.RANDOM, Policy.SENSIBLE, Policy.RANDOM]
    playout = simulate(batch, policies=policies, rng=rng)
    bot = SensibleBot()
    checked = 0
    for index in range(batch.size):
        again = batch.round(index)
        for event in playout.replay(index).events[1:]:
            sensible = policies[event.seat] is Policy.SENSIBLE
            view = again.view(event.seat)
            if isinstance(event, TrumpChosen):
                assert not sensible or bot.choose_trump(view) is event.suit
                again.choose_trump(event.suit)
            elif isinstance(event, BidMade):
                assert not sensible or bot.bid(view) == event.bid
                again.bid(event.bid)
            else:
                assert isinstance(event, CardPlayed)
                assert not sensible or bot.play(view) == event.card
                again.play(event.card)
            checked += sensible
    assert checked >= 60 * (2 + 2 * 8)


def test_chunks_do_not_change_the_sensible_results() -> None:
    rng = np.random.default_rng(3)
    batch = deal_batch(CHUNK + 100, players=4, cards=5, rng=rng)
    whole = simulate(batch, policies="sensible")
    tail = batch_from_rounds([batch.round(index) for index in range(CHUNK, CHUNK + 100)])
    part = simulate(tail, policies="sensible")
    names = np.array([str(card) for card in DECK])  # Wizard copies may be renumbered
    assert (names[part.plays] == names[whole.plays[CHUNK:]]).all()
    assert (part.winners == whole.winners[CHUNK:]).all()


def test_given_bids_and_dealer_choice_are_kept() -> None:
    rounds = []
    for seed in range(200):
        rnd = Round(players=3, cards=4, dealer=0, seed=seed)
        if rnd.phase is Phase.TRUMP_CHOICE:
            rounds.append(rnd)
    batch = batch_from_rounds(rounds)
    bids = np.full((batch.size, 3), NO_BID)
    bids[:, 1] = 4
    playout = simulate(batch, policies="sensible", bids=bids, dealer_choice=Suit.GREEN)
    assert (playout.bids[:, 1] == 4).all()
    assert (playout.trump == trump_index(Suit.GREEN)).all() and playout.trump_chosen.all()
    assert playout.replay(0).trump is Suit.GREEN


def test_random_policy_picks_uniformly_among_legal_cards() -> None:
    # The leader may play any card: over many deals each of the 12 hand slots is led
    # about 1/12 of the time.
    rng = np.random.default_rng(11)
    batch = deal_batch(24_000, players=4, cards=12, rng=rng)
    playout = simulate(batch, policies="random", rng=rng)
    leader_hands = batch.hands[np.arange(batch.size), playout.leaders[:, 0]]
    slots = np.argmax(leader_hands == playout.plays[:, 0, :1], axis=1)
    share = np.bincount(slots, minlength=12) / batch.size
    assert np.abs(share - 1 / 12).max() < 0.01


def test_bad_simulation_requests_are_refused() -> None:
    batch = deal_batch(3, players=3, cards=2, rng=np.random.default_rng(0))
    with pytest.raises(WizardRuleError, match="needs rng="):
        simulate(batch, policies="random")
    with pytest.raises(WizardRuleError, match="unknown policy: 'clever'"):
        simulate(batch, policies="clever")
    with pytest.raises(InvalidPlayersError, match="2 policies given for 3 players"):
        simulate(batch, policies=["random", "random"], rng=np.random.default_rng(0))
    with pytest.raises(InvalidDealError, match=r"bids= needs shape \(3, 3\)"):
        simulate(batch, policies="sensible", bids=np.zeros((3, 2), dtype=np.int64))
    with pytest.raises(InvalidDealError, match="bids= holds bids from 0 to 2"):
        simulate(batch, policies="sensible", bids=np.full((3, 3), 3))
