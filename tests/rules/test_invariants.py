"""Random whole games, for 3-6 players under every playable combination of variants, with
the invariants of RULES.md checked after every action:

- the seat to act always has a legal action;
- a rejected action (wrong seat, card not in hand, card breaking follow-suit, bid out of
  range or forbidden, trump choice not due or 'no trump') raises a ValueError subclass and
  leaves ``Round.snapshot()`` unchanged;
- no card is lost or duplicated (hands + tricks + turned card come from one 60-card deck,
  and the counts add up);
- each trick has exactly one winner, who leads the next; tricks taken add up to the cards
  dealt; bids are seen only as the variant allows;
- what the round keeps up to date as actions happen (the seat to act, the tricks taken,
  the lead of the trick on the table) agrees with its state counted afresh;
- replaying ``Round.events`` gives an equal snapshot;
- over a Game: the dealer rotates clockwise, the score sheet totals are the sums of the
  round scores, and the winners are the seats with the highest total.

48 configurations x GAMES_PER_CONFIG seeded games: about 2,300 rounds per run.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter

import pytest

from tutor.errors import WizardRuleError
from tutor.rules.cards import DECK, Card, Suit
from tutor.rules.game import Game
from tutor.rules.round import Phase, Round
from tutor.rules.schedule import GameLength
from tutor.rules.scoring import round_score
from tutor.rules.seats import seat_order
from tutor.rules.trick import judge_play, legal_plays, trick_winner
from tutor.rules.variants import Bidding, Rules

GAMES_PER_CONFIG = 5
DECK_COUNTS = Counter(DECK)

PLAYABLE_RULES = [
    Rules(bidding=bidding, plus_minus_one=plus_minus_one, length=length)
    for bidding in Bidding
    for plus_minus_one in (False, True)
    for length in GameLength
    if not (plus_minus_one and bidding is not Bidding.OPEN)
]


def rules_id(rules: Rules) -> str:
    return f"{rules.bidding.value}{'-pm1' if rules.plus_minus_one else ''}-{rules.length.value}"


def test_every_playable_combination_is_covered_and_the_rest_refused() -> None:
    assert len(PLAYABLE_RULES) == 12
    for bidding in (Bidding.HIDDEN, Bidding.SECRET):
        for length in GameLength:
            with pytest.raises(WizardRuleError):
                Rules(bidding=bidding, plus_minus_one=True, length=length)


# -- checks --------------------------------------------------------------------------------


def check_cards_conserved(rnd: Round) -> None:
    in_hands = [card for hand in rnd.hands for card in hand]
    played = [card for trick in rnd.tricks for card in trick.cards]
    played += [card for _, card in rnd.current_trick]
    seen = Counter(in_hands + played)
    if rnd.turned is not None:
        seen[rnd.turned] += 1
    assert seen <= DECK_COUNTS, f"cards beyond the deck: {seen - DECK_COUNTS}"
    assert len(in_hands) + len(played) == rnd.players * rnd.cards
    stock = 60 - rnd.players * rnd.cards
    assert (rnd.turned is None) == (stock == 0)
    assert seen.total() + stock - (rnd.turned is not None) == 60


def check_kept_state(rnd: Round) -> None:
    """The round keeps the seat to act, the tricks taken and the lead as it goes: they
    must equal what its state says when counted from scratch."""
    if rnd.phase is Phase.TRUMP_CHOICE:
        due: int | None = rnd.dealer
    elif rnd.phase is Phase.BIDDING:
        due = (rnd.first_seat + sum(bid is not None for bid in rnd.bids)) % rnd.players
    elif rnd.phase is Phase.PLAYING:
        due = (rnd.leader + len(rnd.current_trick)) % rnd.players
    else:
        due = None
    assert rnd.to_act == due and rnd.finished == (due is None)
    taken = Counter(trick.winner for trick in rnd.tricks)
    assert rnd.taken == tuple(taken[seat] for seat in range(rnd.players))
    if rnd.phase is Phase.PLAYING:
        trick = [card for _, card in rnd.current_trick]
        for card in set(rnd.hands[due]):
            assert rnd.judge(card) == judge_play(rnd.hands[due], trick, card)


def check_bids_visibility(rnd: Round) -> None:
    for seat in range(rnd.players):
        shown = rnd.view(seat).bids
        for owner, bid in enumerate(rnd.bids):
            if bid is None or owner == seat or rnd.rules.bidding is Bidding.OPEN:
                visible = True
            elif rnd.rules.bidding is Bidding.HIDDEN:
                visible = rnd.phase in (Phase.PLAYING, Phase.FINISHED)
            else:
                visible = rnd.phase is Phase.FINISHED
            assert shown[owner] == (bid if visible else None)


def check_legal_action_exists(rnd: Round, *, card_by_card: bool) -> None:
    seat = rnd.to_act
    assert seat is not None
    if rnd.phase is Phase.TRUMP_CHOICE:
        assert seat == rnd.dealer
        assert all(rnd.can_choose_trump(suit) for suit in Suit)
        assert not rnd.can_choose_trump(None)
    elif rnd.phase is Phase.BIDDING:
        bids = rnd.legal_bids()
        assert bids and set(bids) <= set(range(rnd.cards + 1))
        is_last = sum(b is not None for b in rnd.bids) == rnd.players - 1
        forbidden = rnd.forbidden_bid()
        if rnd.rules.plus_minus_one and is_last:
            total = sum(b for b in rnd.bids if b is not None)
            assert forbidden == (rnd.cards - total if total <= rnd.cards else None)
        else:
            assert forbidden is None
        assert bids == [b for b in range(rnd.cards + 1) if b != forbidden]
    else:
        hand = rnd.hands[seat]
        plays = rnd.legal_plays()
        assert plays
        assert Counter(plays) <= Counter(hand)
        trick = [card for _, card in rnd.current_trick]
        assert plays == legal_plays(hand, trick)
        if not card_by_card:  # the per-card cross-check is the costly part: a sample of steps
            return
        for card in set(hand):
            assert rnd.can_play(card) == (card in plays) == judge_play(hand, trick, card).legal


def illegal_actions(
    rnd: Round, rng: random.Random
) -> list[tuple[str, tuple[object, ...], dict[str, object]]]:
    """Actions the round must refuse now: (method name, arguments, keyword arguments)."""
    seat = rnd.to_act
    assert seat is not None
    other = (seat + rng.randrange(1, rnd.players)) % rnd.players
    actions: list[tuple[str, tuple[object, ...], dict[str, object]]] = []
    if rnd.phase is Phase.TRUMP_CHOICE:
        actions += [
            ("choose_trump", (None,), {}),
            ("choose_trump", ("R",), {"seat": other}),
            ("bid", (0,), {}),
        ]
    elif rnd.phase is Phase.BIDDING:
        actions += [
            ("bid", (rnd.cards + 1,), {}),
            ("bid", (-1,), {}),
            ("bid", (0,), {"seat": other}),
            ("choose_trump", ("R",), {}),
            ("play", (rnd.hands[seat][0],), {}),
        ]
        forbidden = rnd.forbidden_bid()
        if forbidden is not None:
            actions.append(("bid", (forbidden,), {}))
    else:
        hand = rnd.hands[seat]
        legal = rnd.legal_plays()
        not_held = [card for card in DECK if card not in hand]
        actions += [
            ("play", (rng.choice(not_held),), {}),
            ("play", (rng.choice(legal),), {"seat": other}),
            ("bid", (0,), {}),
            ("choose_trump", ("B",), {}),
        ]
        breaking = [card for card in hand if card not in legal]
        if breaking:
            actions.append(("play", (rng.choice(breaking),), {}))
    return actions


def check_rejections(rnd: Round, rng: random.Random) -> None:
    before = rnd.snapshot()
    for method, args, keywords in illegal_actions(rnd, rng):
        with pytest.raises(WizardRuleError):
            getattr(rnd, method)(*args, **keywords)
        assert rnd.snapshot() == before, f"{method}{args} {keywords} changed the round"


def check_finished_round(rnd: Round) -> None:
    assert rnd.phase is Phase.FINISHED and rnd.to_act is None
    assert len(rnd.tricks) == rnd.cards
    assert sum(rnd.taken) == rnd.cards
    assert all(not hand for hand in rnd.hands)
    leader = rnd.first_seat
    for trick in rnd.tricks:
        assert trick.leader == leader
        assert list(trick.seats) == list(seat_order(leader, rnd.players))
        winners = [seat for seat in trick.seats if seat == trick.winner]
        assert len(winners) == 1
        assert trick.winner == trick.seats[trick_winner(trick.cards, rnd.trump)]
        leader = trick.winner
    assert rnd.scores() == tuple(map(round_score, rnd.final_bids, rnd.taken))
    again = Round.replay(rnd.events, rules=rnd.rules, names=rnd.names)
    assert again.snapshot() == rnd.snapshot()


def play_checked_round(rnd: Round, rng: random.Random) -> None:
    check_cards_conserved(rnd)
    while not rnd.finished:
        check_legal_action_exists(rnd, card_by_card=rng.random() < 0.15)
        if rng.random() < 0.2:
            check_kept_state(rnd)
        if rng.random() < 0.25:
            check_rejections(rnd, rng)
        if rng.random() < 0.1:
            check_bids_visibility(rnd)
        if rnd.phase is Phase.TRUMP_CHOICE:
            rnd.choose_trump(rng.choice(list(Suit)))
        elif rnd.phase is Phase.BIDDING:
            rnd.bid(rng.choice(rnd.legal_bids()))
        else:
            card: Card = rng.choice(rnd.legal_plays())
            rnd.play(card)
        if not rnd.current_trick:  # after each deal, bid and finished trick
            check_cards_conserved(rnd)
    check_bids_visibility(rnd)
    check_kept_state(rnd)
    check_finished_round(rnd)


@pytest.mark.parametrize("rules", PLAYABLE_RULES, ids=rules_id)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_keep_every_invariant(players: int, rules: Rules) -> None:
    for game_number in range(GAMES_PER_CONFIG):
        seed = zlib.crc32(f"{players}-{rules_id(rules)}-{game_number}".encode())
        rng = random.Random(seed)
        first_dealer = rng.randrange(players)
        game = Game(players=players, rules=rules, seed=seed, first_dealer=first_dealer)
        while True:
            rnd = game.round
            assert rnd.dealer == (first_dealer + game.round_number - 1) % players
            assert rnd.cards == game.schedule[game.round_number - 1]
            play_checked_round(rnd, rng)
            if game.finished:
                break
            game.next_round()
        sheet = game.score_sheet
        assert len(sheet.rows) == len(game.schedule)
        for seat in range(players):
            assert sheet.totals[seat] == sum(r.scores()[seat] for r in game.rounds)
        best = max(sheet.totals)
        assert game.winners() == [s for s in range(players) if sheet.totals[s] == best]
