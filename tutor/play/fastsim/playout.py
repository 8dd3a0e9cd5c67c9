"""Playing a batch of deals to the end in lock-step (:func:`simulate`): each step of the
round (one bid, one card played) is a handful of array operations across every deal of
the batch, applying the rule tables of :mod:`tutor.play.fastsim.tables`. Seats decide by a
:class:`Policy` that makes exactly the choices of :class:`tutor.play.bots.RandomBot` or
:class:`tutor.play.bots.SensibleBot`; :meth:`Playout.replay` plays a deal's choices again
through the reference engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
from numpy.typing import NDArray

from tutor.errors import InvalidDealError, InvalidPlayersError, WizardRuleError
from tutor.play.bots import LONG_TRUMP_FROM, LONG_TRUMP_QUARTERS, QUARTERS_PER_TRICK
from tutor.play.fastsim.codes import SUITS, decode_card, trump_index, trump_of_index
from tutor.play.fastsim.deals import DealBatch
from tutor.play.fastsim.tables import (
    BID_QUARTERS,
    BINDING_STATES,
    DEALER_CHOOSES,
    FOLLOWS,
    FREE_WHEN_BOUND,
    LED_OPEN,
    LED_STATES,
    NEXT_LED,
    RANK_OF,
    SCORE,
    STRENGTH,
    STRENGTH_FLIP,
    SUIT_OF,
    TRICK_POWER,
    TRUMP_OF_TURNED,
)
from tutor.rules.cards import DECK_SIZE, Suit, parse_suit
from tutor.rules.round import Phase, Round
from tutor.rules.variants import Rules

# -- tricks ------------------------------------------------------------------------------


def trick_winners(tricks: NDArray[np.integer], trump: NDArray[np.integer]) -> NDArray[np.int64]:
    """For each row of codes (play order), the index of the card that takes the trick.

    ``trump`` holds one trump index per row (:data:`NO_TRUMP` for no trump). The same
    rule as :func:`tutor.rules.trick.trick_winner`, vectorised.

    >>> import numpy as np
    >>> from tutor.play.fastsim.codes import encode_cards
    >>> tricks = np.array([encode_cards("J B5 B11 B7".split()), encode_cards("W R13 W J".split())])
    >>> trick_winners(tricks, np.array([1, 4])).tolist()
    [2, 0]
    """
    rows, length = tricks.shape
    led = np.full(rows, LED_OPEN, dtype=np.int64)
    best = np.full(rows, -1, dtype=np.int64)
    winner = np.zeros(rows, dtype=np.int64)
    for position in range(length):
        codes = tricks[:, position]
        power = TRICK_POWER[trump, led, codes]
        takes = power > best
        best = np.where(takes, power, best)
        winner = np.where(takes, position, winner)
        led = NEXT_LED[led, codes].astype(np.int64)
    return winner


# -- playouts ----------------------------------------------------------------------------


class Policy(StrEnum):
    """How a seat decides in a simulation: like :class:`~tutor.play.bots.RandomBot` or
    :class:`~tutor.play.bots.SensibleBot`."""

    RANDOM = "random"
    SENSIBLE = "sensible"


NO_BID = -1
"""In a ``bids`` array given to :func:`simulate`: this seat bids by its policy."""


@dataclass(frozen=True, slots=True, eq=False)
class Playout:
    """The result of :func:`simulate`: every choice and outcome, by deal.

    Shapes (``n`` deals, ``P`` players, ``C`` cards): ``trump`` ``(n,)`` (0-3, or
    :data:`NO_TRUMP`), ``bids``, ``taken`` and ``scores`` ``(n, P)`` by seat, ``leaders``
    and ``winners`` ``(n, C)`` seats by trick, ``plays`` ``(n, C, P)`` codes in play order
    (the leader's first). ``legal`` (when recorded) ``(n, C, P, 60)``: the codes that were
    legal for each play.
    """

    batch: DealBatch
    trump: NDArray[np.int8]
    trump_chosen: NDArray[np.bool_]
    bids: NDArray[np.int8]
    leaders: NDArray[np.int8]
    plays: NDArray[np.int8]
    winners: NDArray[np.int8]
    taken: NDArray[np.int8]
    scores: NDArray[np.int16]
    legal: NDArray[np.bool_] | None = None

    def replay(self, index: int, *, rules: Rules | None = None) -> Round:
        """Deal ``index`` replayed through the reference engine with the same choices.

        Every action goes through the engine's checks, so an illegal choice here would
        raise; the engine's tricks and scores can then be compared with this playout's.

        >>> import numpy as np
        >>> from tutor.play.fastsim.deals import deal_batch
        >>> batch = deal_batch(5, players=3, cards=4, rng=np.random.default_rng(3))
        >>> playout = simulate(batch, policies="random", rng=np.random.default_rng(4))
        >>> rnd = playout.replay(2)
        >>> rnd.scores() == tuple(playout.scores[2].tolist())
        True
        """
        batch = self.batch
        rnd = batch.round(index, rules=rules)
        if rnd.phase is Phase.TRUMP_CHOICE:
            suit = trump_of_index(int(self.trump[index]))
            assert suit is not None  # a turned Wizard: the simulation chose a suit
            rnd.choose_trump(suit, seat=rnd.dealer)
        while rnd.phase is Phase.BIDDING:
            seat = rnd.to_act
            assert seat is not None
            rnd.bid(int(self.bids[index, seat]), seat=seat)
        for trick in range(batch.cards):
            leader = int(self.leaders[index, trick])
            for position in range(batch.players):
                seat = (leader + position) % batch.players
                rnd.play(decode_card(int(self.plays[index, trick, position])), seat=seat)
        return rnd


def simulate(
    batch: DealBatch,
    *,
    policies: Policy | str | Sequence[Policy | str],
    rng: np.random.Generator | None = None,
    rules: Rules | None = None,
    bids: NDArray[np.integer] | None = None,
    dealer_choice: Suit | None = None,
    record_legal: bool = False,
) -> Playout:
    """Play every deal of ``batch`` to the end: trump choice, bids, every card, scores.

    ``policies`` is one :class:`Policy` for every seat or one per seat. ``bids`` (shape
    ``(size, players)``) fixes some bids: :data:`NO_BID` lets the seat's policy bid. Given
    bids are used as they are. ``dealer_choice`` fixes the trump where a Wizard was turned
    (else the dealer's policy chooses). ``rng`` (a seeded ``numpy.random.Generator``) drives
    the random policy; the sensible policy needs none. Of the ``rules``, only plus/minus
    one changes what a bot may do (hidden bids do not: the policies look at their own bid
    only). ``record_legal`` keeps the legal codes of every play (memory: 60 bytes a play).

    Deals are played :data:`CHUNK` at a time: larger arrays would fall out of the CPU
    caches and run slower per deal.

    >>> import numpy as np
    >>> from tutor.play.fastsim.deals import deal_batch
    >>> batch = deal_batch(2000, players=4, cards=10, rng=np.random.default_rng(5))
    >>> sensible = simulate(batch, policies="sensible")
    >>> random = simulate(batch, policies="random", rng=np.random.default_rng(6))
    >>> bool((sensible.bids == sensible.taken).mean() > (random.bids == random.taken).mean())
    True
    >>> simulate(batch, policies="random")
    Traceback (most recent call last):
    ...
    tutor.errors.WizardRuleError: the random policy needs rng= (a seeded numpy.random.Generator)
    """
    rules = rules if rules is not None else Rules()
    size, players = batch.size, batch.players
    sensible_seats = _sensible_seats(policies, players)
    any_random = not bool(sensible_seats.all())
    if any_random and rng is None:
        raise WizardRuleError("the random policy needs rng= (a seeded numpy.random.Generator)")
    deals = np.arange(size)
    hands = batch.hands.astype(np.int64)
    dealer = batch.dealer.astype(np.int64)

    # Trump: the turned card's suit; a turned Wizard lets the dealer choose.
    turned = batch.turned.astype(np.int64)
    trump = TRUMP_OF_TURNED[turned].astype(np.int64)
    trump_chosen = np.zeros(size, dtype=np.bool_)
    wizard_turned = DEALER_CHOOSES[turned]
    if dealer_choice is not None and wizard_turned.any():
        trump = np.where(wizard_turned, trump_index(parse_suit(dealer_choice)), trump)
        trump_chosen = wizard_turned
    elif wizard_turned.any():
        dealer_hands = hands[deals, dealer]
        suits = SUIT_OF[dealer_hands]
        ranks = RANK_OF[dealer_hands].astype(np.int64)
        # tutor.play.bots.trump_choice_key: count * 100 + rank sum; argmax keeps Y R G B order.
        keys = np.stack(
            [((suits == s) * (100 + ranks)).sum(axis=1) for s in range(len(SUITS))], axis=1
        )
        chosen = np.argmax(keys, axis=1)
        if any_random:
            assert rng is not None
            drawn = rng.integers(0, len(SUITS), size=size)
            chosen = np.where(sensible_seats[dealer], chosen, drawn)
        trump = np.where(wizard_turned, chosen, trump)
        trump_chosen = wizard_turned

    suit_in_hand = SUIT_OF[hands]
    bid_array = _make_bids(batch, trump, suit_in_hand, sensible_seats, any_random, rng, rules, bids)
    chunks = [
        _play_tricks(
            batch.hands[start : start + CHUNK],
            batch.dealer[start : start + CHUNK],
            trump[start : start + CHUNK],
            bid_array[start : start + CHUNK],
            sensible_seats,
            rng if any_random else None,
            record_legal=record_legal,
        )
        for start in range(0, size, CHUNK)
    ]
    taken = np.concatenate([chunk.taken for chunk in chunks])
    legal_parts = [chunk.legal for chunk in chunks if chunk.legal is not None]
    return Playout(
        batch=batch,
        trump=trump.astype(np.int8),
        trump_chosen=trump_chosen,
        bids=bid_array.astype(np.int8),
        leaders=np.concatenate([chunk.leaders for chunk in chunks]),
        plays=np.concatenate([chunk.plays for chunk in chunks]),
        winners=np.concatenate([chunk.winners for chunk in chunks]),
        taken=taken.astype(np.int8),
        scores=SCORE[bid_array, taken],
        legal=np.concatenate(legal_parts) if legal_parts else None,
    )


CHUNK = 4096
"""Deals played together by :func:`simulate` (measured fastest on this project's 2-core
machine: larger arrays fall out of the CPU caches)."""


@dataclass(frozen=True, slots=True)
class _Tricks:
    leaders: NDArray[np.int8]
    plays: NDArray[np.int8]
    winners: NDArray[np.int8]
    taken: NDArray[np.int64]
    legal: NDArray[np.bool_] | None


_POWER_BY_STATE = TRICK_POWER.reshape(-1)  # [(trump * 6 + led) * 60 + code]
_NEXT_LED_BY_STATE = NEXT_LED.reshape(-1)  # [led * 60 + code]
_STRENGTH_CAP = np.int16(STRENGTH_FLIP)


def _play_tricks(
    deal_hands: NDArray[np.int8],
    dealer: NDArray[np.int8],
    trump: NDArray[np.int64],
    bids: NDArray[np.int64],
    sensible_seats: NDArray[np.bool_],
    rng: np.random.Generator | None,
    *,
    record_legal: bool,
) -> _Tricks:
    # Per-hand data is flattened to rows (deal * players + seat) so the hand of the seat to
    # act in each deal is one index per deal. A set of slots of a hand (cards still held,
    # cards of a suit, legal cards) is one integer with a bit per slot: legality and the
    # random choice are then a few operations per deal rather than per card.
    size, players, cards = deal_hands.shape
    deals = np.arange(size)
    rows = deals * players
    hands = deal_hands.reshape(size * players, cards)
    codes_flat = hands.reshape(-1)
    slot_bits = _SLOT_BITS[:cards]
    # By row and led state: the slots of the cards that follow the led suit (FOLLOWS); by
    # row, those a bound hand may play besides (FREE_WHEN_BOUND), as slot sets.
    # (Only the states in which some card follows can bind; the others stay 0: no
    # followers, so the whole hand is legal.)
    follow_bits = np.zeros((size * players, LED_STATES), dtype=np.int64)
    for state in BINDING_STATES:
        follow_bits[:, state] = FOLLOWS[state][hands] @ slot_bits
    follow_bits_flat = follow_bits.reshape(-1)
    free_bits = FREE_WHEN_BOUND[hands] @ slot_bits
    held = np.full(size * players, (1 << cards) - 1, dtype=np.int64)
    trump_rows = np.repeat(trump, players)
    state_base = trump * LED_STATES
    any_sensible = bool(sensible_seats.any())
    if any_sensible:
        strength = STRENGTH[trump_rows[:, None], hands]

    taken = np.zeros((size, players), dtype=np.int64)
    plays = np.empty((size, cards, players), dtype=np.int8)
    leaders = np.empty((size, cards), dtype=np.int8)
    winners = np.empty((size, cards), dtype=np.int8)
    legal_record = (
        np.zeros((size, cards, players, DECK_SIZE), dtype=np.bool_) if record_legal else None
    )
    leader = (dealer.astype(np.int64) + 1) % players
    for trick in range(cards):
        led = np.full(size, LED_OPEN, dtype=np.int64)
        best = np.full(size, -1, dtype=np.int64)
        winner = leader.copy()
        for position in range(players):
            seat = (leader + position) % players if position else leader
            index = rows + seat
            holding = held[index]
            following = holding & follow_bits_flat[index * LED_STATES + led]
            legal = np.where(following != 0, following | (holding & free_bits[index]), holding)
            if legal_record is not None or any_sensible:
                legal_slots = (legal[:, None] & slot_bits) != 0
            if legal_record is not None:
                legal_record[deals[:, None], trick, position, hands[index]] = legal_slots
            if rng is not None:
                # Uniform among the legal slots: the (k+1)-th legal one, k below their count.
                k = (rng.random(size) * np.bitwise_count(legal)).astype(np.int64)
                choice = _nth_set_bit(legal, k, cards)
            if any_sensible:
                # the power each card of the hand would have if played now
                power = _POWER_BY_STATE[
                    ((state_base + led) * DECK_SIZE)[:, None] + np.take(hands, index, axis=0)
                ]
                sensible_choice = _sensible_slot(
                    legal_slots,
                    power,
                    best,
                    np.take(strength, index, axis=0),
                    wants_tricks=bids[deals, seat] > taken[deals, seat],
                    leading=position == 0,
                    last=position == players - 1,
                )
                choice = (
                    np.where(sensible_seats[seat], sensible_choice, choice)
                    if rng is not None
                    else sensible_choice
                )
            held[index] = holding & ~slot_bits[choice]
            played = codes_flat[index * cards + choice].astype(np.int64)
            played_power = _POWER_BY_STATE[(state_base + led) * DECK_SIZE + played]
            takes = played_power > best
            best = np.where(takes, played_power, best)
            winner = np.where(takes, seat, winner)
            led = _NEXT_LED_BY_STATE[led * DECK_SIZE + played].astype(np.int64)
            plays[:, trick, position] = played
        taken[deals, winner] += 1
        leaders[:, trick] = leader
        winners[:, trick] = winner
        leader = winner
    return _Tricks(leaders, plays, winners, taken, legal_record)


_SLOT_BITS = np.left_shift(1, np.arange(DECK_SIZE // 3), dtype=np.int64)
_BYTE_BITS = [[bit for bit in range(8) if byte >> bit & 1] for byte in range(256)]
_BYTE_COUNT = np.array([len(bits) for bits in _BYTE_BITS], dtype=np.int64)
_BYTE_NTH_BIT = np.array(
    [[bits[n] if n < len(bits) else 0 for n in range(8)] for bits in _BYTE_BITS], dtype=np.int64
).reshape(-1)
"""``_BYTE_NTH_BIT[byte * 8 + n]``: the position of the (n+1)-th set bit of ``byte``."""


def _nth_set_bit(bits: NDArray[np.int64], n: NDArray[np.int64], width: int) -> NDArray[np.int64]:
    # Byte by byte: skip whole bytes holding too few set bits, then look the bit up.
    position = np.zeros(bits.shape, dtype=np.int64)
    remaining = n
    for shift in range(0, width, 8):
        byte = (bits >> shift) & 0xFF
        count = _BYTE_COUNT[byte]
        here = (remaining >= 0) & (remaining < count)
        # remaining & 7 keeps the table index in range where this byte is not the one
        position = np.where(here, shift + _BYTE_NTH_BIT[byte * 8 + (remaining & 7)], position)
        remaining = remaining - count
    return position


def _sensible_seats(
    policies: Policy | str | Sequence[Policy | str], players: int
) -> NDArray[np.bool_]:
    chosen = [policies] * players if isinstance(policies, str) else list(policies)
    if len(chosen) != players:
        raise InvalidPlayersError(
            f"{len(chosen)} policies given for {players} players: give one, or one per seat"
        )
    parsed: list[Policy] = []
    for policy in chosen:
        try:
            parsed.append(Policy(policy))
        except ValueError:
            raise WizardRuleError(
                f"unknown policy: {policy!r}; known: "
                + ", ".join(repr(known.value) for known in Policy)
            ) from None
    return np.array([policy is Policy.SENSIBLE for policy in parsed], dtype=np.bool_)


def _make_bids(
    batch: DealBatch,
    trump: NDArray[np.int64],
    suit_in_hand: NDArray[np.int8],
    sensible_seats: NDArray[np.bool_],
    any_random: bool,
    rng: np.random.Generator | None,
    rules: Rules,
    given: NDArray[np.integer] | None,
) -> NDArray[np.int64]:
    size, players, cards = batch.size, batch.players, batch.cards
    deals = np.arange(size)
    if given is None:
        result = np.full((size, players), NO_BID, dtype=np.int64)
    else:
        result = np.array(given, dtype=np.int64)
        if result.shape != (size, players):
            raise InvalidDealError(
                f"bids= needs shape {(size, players)} (deals, seats), got {result.shape}"
            )
        if np.any((result < NO_BID) | (result > cards)):
            raise InvalidDealError(
                f"bids= holds bids from 0 to {cards}, or {NO_BID} for the policy's bid"
            )
    hands = batch.hands.astype(np.int64)
    # tutor.play.bots.hand_quarters: the cards' quarters plus a bonus for long trumps.
    trumps_held = (suit_in_hand == trump[:, None, None]).sum(axis=2)
    quarters = BID_QUARTERS[trump[:, None, None], hands].sum(axis=2) + LONG_TRUMP_QUARTERS * (
        np.maximum(0, trumps_held - LONG_TRUMP_FROM + 1)
    )
    candidates = np.arange(cards + 1)
    first = (batch.dealer.astype(np.int64) + 1) % players
    total = np.zeros(size, dtype=np.int64)
    for order in range(players):
        seat = (first + order) % players
        forbidden = np.full(size, -1, dtype=np.int64)
        if rules.plus_minus_one and order == players - 1:
            forbidden = np.where(total <= cards, cards - total, -1)
        # tutor.play.bots.nearest_bid: closest to quarters / 4, halfway to the higher bid.
        distance = np.abs(QUARTERS_PER_TRICK * candidates[None, :] - quarters[deals, seat, None])
        key = distance * (cards + 1) + (cards - candidates[None, :])
        key = np.where(candidates[None, :] == forbidden[:, None], np.iinfo(np.int64).max, key)
        bid = np.argmin(key, axis=1)
        if any_random:
            assert rng is not None
            options = cards + 1 - (forbidden >= 0)
            drawn = rng.integers(0, options)
            drawn = drawn + ((forbidden >= 0) & (drawn >= forbidden))
            bid = np.where(sensible_seats[seat], bid, drawn)
        current = result[deals, seat]
        bid = np.where(current == NO_BID, bid, current)
        result[deals, seat] = bid
        total += bid
    return result


def _sensible_slot(
    legal: NDArray[np.bool_],
    power: NDArray[np.int16],
    best: NDArray[np.int64],
    strength: NDArray[np.int16],
    *,
    wants_tricks: NDArray[np.bool_],
    leading: bool,
    last: bool,
) -> NDArray[np.int64]:
    # tutor.play.bots.SensibleBot.play, as masks: a candidate set, then its strongest or weakest.
    if leading:
        candidates = legal
        strongest = wants_tricks
    else:
        wins = power > best[:, None]
        winning = legal & wins
        losing = legal & ~wins
        can_win: NDArray[np.bool_] = np.any(winning, axis=1)
        can_lose: NDArray[np.bool_] = np.any(losing, axis=1)
        candidates = np.where(
            wants_tricks[:, None],
            np.where(can_win[:, None], winning, legal),
            np.where(can_lose[:, None], losing, legal),
        )
        strongest = ~wants_tricks & (can_lose | last)
    key = np.where(strongest[:, None], strength, _STRENGTH_CAP - strength)
    chosen: NDArray[np.int64] = np.argmax(np.where(candidates, key, -1), axis=1)
    return chosen
