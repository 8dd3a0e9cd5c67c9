"""Fast simulation: many whole rounds at once, as NumPy array operations.

The reference engine (:class:`tutor.rules.round.Round`) checks and explains every action; that
costs time. The benchmarks and the analyses of the bots need hundreds of thousands of
playouts, so this module plays a *batch* of deals in lock-step: each step of the round (one
bid, one card played) is a handful of array operations across every deal of the batch.

It is a tool for benchmarks, analyses and tests, not part of the tutor a learner runs: it
needs NumPy (in the ``test`` extra), which the browser build cannot have. The bidding coach
(:mod:`tutor.play.coach`) plays its few hundred deals in plain Python instead, and
:func:`trick_chances` here is the yardstick its figures are checked against.

It holds no rule of its own: its tables (the led suit after each card, each card's power
in a trick, who must follow, what may be played, the trump a turned card makes) are built
at import by calling the engine's rule functions (:mod:`tutor.rules.trick`,
:mod:`tutor.rules.trump`) for every card, and the bots' scoring knobs come from
:mod:`tutor.play.bots` the same way. The array code that applies the tables is checked
against the engine (``tests/play/test_fastsim.py``): on the same deals and choices it gives
exactly the engine's legal plays, trick winners, tricks taken and scores, and its policies
make exactly the choices of :class:`tutor.play.bots.RandomBot` (any legal action) and
:class:`tutor.play.bots.SensibleBot`.

Cards are integer codes 0-59, in the order of :data:`tutor.rules.cards.DECK`:
``suit * 13 + rank - 1`` for number cards (suits Y R G B are 0-3), 52-55 for the four
Wizards and 56-59 for the four Jesters. Wizards (and Jesters) are interchangeable values
in the engine; here each copy has its own code so a deal holds 60 different codes.

>>> import numpy as np
>>> batch = deal_batch(1000, players=4, cards=12, rng=np.random.default_rng(1))
>>> playout = simulate(batch, policies=Policy.RANDOM, rng=np.random.default_rng(2))
>>> sorted(set(playout.taken.sum(axis=1).tolist()))  # every deal: 12 tricks taken
[12]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
from numpy.typing import NDArray

from tutor.errors import InvalidCardError, InvalidDealError, InvalidPlayersError, WizardRuleError
from tutor.play.bots import (
    LONG_TRUMP_FROM,
    LONG_TRUMP_QUARTERS,
    QUARTERS_PER_TRICK,
    bid_quarters,
    card_strength,
)
from tutor.rules.cards import DECK, DECK_SIZE, MAX_RANK, Card, Suit, parse_card, parse_suit
from tutor.rules.checks import is_whole_number
from tutor.rules.round import Dealt, Phase, Round, SeatView
from tutor.rules.scoring import round_score
from tutor.rules.seats import check_players
from tutor.rules.trick import (
    ILLEGAL_RULES,
    Lead,
    card_power,
    followers_in,
    lead_after,
    play_rule,
)
from tutor.rules.trump import reveal_trump
from tutor.rules.variants import Rules

# -- the card encoding -------------------------------------------------------------------

SUITS: tuple[Suit, ...] = tuple(Suit)
NUMBER_CARDS = len(SUITS) * MAX_RANK
WIZARD_CODES = range(NUMBER_CARDS, NUMBER_CARDS + 4)
JESTER_CODES = range(NUMBER_CARDS + 4, DECK_SIZE)
NO_CARD = -1
"""The turned-card code when every card was dealt and nothing was turned."""
NO_TRUMP = len(SUITS)
"""The trump index of a round without trump (suits are 0-3, in Y R G B order)."""


def card_code(card: Card | str, copy: int = 0) -> int:
    """The code (0-59) of ``card``; ``copy`` (0-3) picks one of the four Wizards or Jesters.

    >>> card_code("Y1"), card_code("R9"), card_code("B13"), card_code("W"), card_code("J", 3)
    (0, 21, 51, 52, 59)
    >>> card_code("W", 4)
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: invalid copy 4 of W: the deck has 4 of them, copies 0 to 3
    """
    parsed = parse_card(card)
    if parsed.is_number:
        if copy != 0:
            raise InvalidCardError(f"invalid copy {copy!r} of {parsed}: a number card is unique")
        assert parsed.suit is not None and parsed.rank is not None
        return SUITS.index(parsed.suit) * MAX_RANK + parsed.rank - 1
    codes = WIZARD_CODES if parsed.is_wizard else JESTER_CODES
    if not is_whole_number(copy) or not 0 <= copy < len(codes):
        raise InvalidCardError(
            f"invalid copy {copy!r} of {parsed}: the deck has {len(codes)} of them, "
            f"copies 0 to {len(codes) - 1}"
        )
    return codes[copy]


def encode_cards(cards: Iterable[Card | str]) -> list[int]:
    """Codes for ``cards``: the first Wizard is 52, the next 53, ...; Jesters likewise.

    >>> encode_cards("W R9 W J".split())
    [52, 21, 53, 56]
    >>> encode_cards(["R9", "R9"])
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: these cards cannot come from one deck: R9 appears 2 times, but the deck has 1
    """
    codes: list[int] = []
    copies = {"W": 0, "J": 0}
    for item in cards:
        card = parse_card(item)
        name = str(card)
        if name in copies:
            if copies[name] >= 4:
                raise InvalidCardError(
                    f"these cards cannot come from one deck: {name} appears "
                    f"{copies[name] + 1} times, but the deck has 4"
                )
            codes.append(card_code(card, copies[name]))
            copies[name] += 1
        else:
            code = card_code(card)
            if code in codes:
                raise InvalidCardError(
                    f"these cards cannot come from one deck: {name} appears 2 times, "
                    "but the deck has 1"
                )
            codes.append(code)
    return codes


def decode_card(code: int) -> Card:
    """The card of ``code``.

    >>> decode_card(21), decode_card(55), decode_card(56)
    (Card.parse('R9'), Card.parse('W'), Card.parse('J'))
    >>> decode_card(60)
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidCardError: invalid card code 60: codes run from 0 to 59
    """
    index = int(code)
    if not 0 <= index < DECK_SIZE:
        raise InvalidCardError(f"invalid card code {code!r}: codes run from 0 to {DECK_SIZE - 1}")
    return DECK[index]


def decode_cards(codes: Iterable[int]) -> list[Card]:
    """The cards of ``codes``.

    >>> decode_cards([52, 21, 53, 56])
    [Card.parse('W'), Card.parse('R9'), Card.parse('W'), Card.parse('J')]
    """
    return [decode_card(code) for code in codes]


def trump_index(trump: Suit | None) -> int:
    """The index of a trump suit (0-3 in Y R G B order), or :data:`NO_TRUMP`.

    >>> trump_index(Suit.RED), trump_index(None)
    (1, 4)
    """
    return NO_TRUMP if trump is None else SUITS.index(trump)


def trump_of_index(index: int) -> Suit | None:
    """The trump suit of an index from :func:`trump_index` (``None``: no trump).

    >>> trump_of_index(1), trump_of_index(4)
    (<Suit.RED: 'R'>, None)
    """
    return None if int(index) == NO_TRUMP else SUITS[int(index)]


# -- tables ------------------------------------------------------------------------------
# Every rule the simulation applies is a table built here, at import, by calling the
# engine's own rule functions (tutor.rules.trick, tutor.rules.trump) for every card: a
# rule changes in one place, and these tables follow.
#
# A trick's lead is a small code, its "led state": 0-3 the suit to follow (Y R G B);
# LED_OPEN while nothing binds yet (nothing played, or only Jesters: the next number card
# sets the suit); LED_FREE once a Wizard came first (no suit binds in this trick).
LED_OPEN = len(SUITS)
LED_FREE = LED_OPEN + 1
_LED_STATES = LED_FREE + 1
_NOT_A_SUIT = 9  # the "suit" of Wizards and Jesters in SUIT_OF: never a led state
_TRUMP_INDICES = NO_TRUMP + 1

SUIT_OF: NDArray[np.int8] = np.array(
    [SUITS.index(c.suit) if c.suit is not None else _NOT_A_SUIT for c in DECK], dtype=np.int8
)
RANK_OF: NDArray[np.int8] = np.array([c.rank or 0 for c in DECK], dtype=np.int8)
IS_WIZARD: NDArray[np.bool_] = np.array([c.is_wizard for c in DECK])
IS_JESTER: NDArray[np.bool_] = np.array([c.is_jester for c in DECK])
IS_NUMBER: NDArray[np.bool_] = np.array([c.is_number for c in DECK])


def _lead_of_state(state: int) -> tuple[Lead, Suit | None]:
    """The engine's lead (:class:`tutor.rules.trick.Lead` and suit) a led state stands for."""
    if state == LED_OPEN:
        return Lead.ONLY_JESTERS, None  # lead_after treats "nothing played" alike
    if state == LED_FREE:
        return Lead.WIZARD_FIRST, None
    return Lead.SUIT, SUITS[state]


def _state_of_lead(lead: Lead, suit: Suit | None) -> int:
    if suit is not None:
        return SUITS.index(suit)
    return LED_FREE if lead is Lead.WIZARD_FIRST else LED_OPEN


def _lead_after_state(state: int, code: int) -> tuple[Lead, Suit | None]:
    return lead_after(*_lead_of_state(state), DECK[code])


NEXT_LED: NDArray[np.int8] = np.array(
    [
        [_state_of_lead(*_lead_after_state(state, code)) for code in range(DECK_SIZE)]
        for state in range(_LED_STATES)
    ],
    dtype=np.int8,
)
"""``NEXT_LED[led_state, code]``: the led state once ``code`` is played
(:func:`tutor.rules.trick.lead_after`)."""

TRICK_POWER: NDArray[np.int16] = np.array(
    [
        [
            [
                card_power(DECK[code], trump_of_index(t), _lead_after_state(state, code)[1])
                for code in range(DECK_SIZE)
            ]
            for state in range(_LED_STATES)
        ]
        for t in range(_TRUMP_INDICES)
    ],
    dtype=np.int16,
)
"""``TRICK_POWER[trump, led_state, code]``: the power of ``code`` played in that state
(:func:`tutor.rules.trick.card_power`, with the led suit it leaves behind: a card that sets
the suit counts as a card of that suit); a card takes the trick from the card winning so
far when its power is strictly greater (the first card beats the start value -1)."""

FOLLOWS: NDArray[np.bool_] = np.array(
    [
        [bool(followers_in([card], _lead_of_state(state)[1])) for card in DECK]
        for state in range(_LED_STATES)
    ]
)
"""``FOLLOWS[led_state, code]``: the card follows the led suit
(:func:`tutor.rules.trick.followers_in`); a hand holding one must follow."""

ALLOWED_WHEN_BOUND: NDArray[np.bool_] = np.array(
    [
        [
            play_rule(card, *_lead_of_state(state), holds_suit=True) not in ILLEGAL_RULES
            for card in DECK
        ]
        for state in range(_LED_STATES)
    ]
)
"""``ALLOWED_WHEN_BOUND[led_state, code]``: the card may be played by a hand that holds
the led suit (:func:`tutor.rules.trick.play_rule`): the led suit, Wizards and Jesters."""
_BINDING_STATES = [state for state in range(_LED_STATES) if FOLLOWS[state].any()]
"""The led states in which a hand can be bound to follow (the four suits)."""
_FREE_WHEN_BOUND: NDArray[np.bool_] = (
    ALLOWED_WHEN_BOUND[_BINDING_STATES] & ~FOLLOWS[_BINDING_STATES]
)[0]
"""The cards a bound hand may play besides its followers (Wizards and Jesters). The
playout computes them once per hand, which is right while they are the same whatever
suit was led: checked here, when the tables are built."""
if not (ALLOWED_WHEN_BOUND[_BINDING_STATES] == FOLLOWS[_BINDING_STATES] | _FREE_WHEN_BOUND).all():
    raise AssertionError("the cards allowed besides the followers depend on the led suit")

STRENGTH: NDArray[np.int16] = np.array(
    [[card_strength(card, trump_of_index(t)) for card in DECK] for t in range(_TRUMP_INDICES)],
    dtype=np.int16,
)
"""``STRENGTH[trump, code]``: :func:`tutor.play.bots.card_strength`, tabulated."""
_STRENGTH_FLIP = int(STRENGTH.max()) + 1

BID_QUARTERS: NDArray[np.int16] = np.array(
    [[bid_quarters(card, trump_of_index(t)) for card in DECK] for t in range(_TRUMP_INDICES)],
    dtype=np.int16,
)
"""``BID_QUARTERS[trump, code]``: :func:`tutor.play.bots.bid_quarters`, tabulated."""

_MAX_CARDS = DECK_SIZE // 3
SCORE: NDArray[np.int16] = np.array(
    [[round_score(bid, taken) for taken in range(_MAX_CARDS + 1)] for bid in range(_MAX_CARDS + 1)],
    dtype=np.int16,
)
"""``SCORE[bid, taken]``: :func:`tutor.rules.scoring.round_score`, tabulated."""

_TRUMP_OF_TURNED: NDArray[np.int8] = np.array(
    [trump_index(reveal_trump(card).trump) for card in (*DECK, None)], dtype=np.int8
)
"""Trump index by turned code (:func:`tutor.rules.trump.reveal_trump`); index -1
(:data:`NO_CARD`, nothing turned) is the last entry. A turned Wizard maps to no trump
here: the dealer's choice replaces it (:data:`_DEALER_CHOOSES`)."""
_DEALER_CHOOSES: NDArray[np.bool_] = np.array(
    [reveal_trump(card).dealer_chooses for card in (*DECK, None)]
)
"""By turned code, like :data:`_TRUMP_OF_TURNED`: the dealer chooses trump."""

for _table in (
    SUIT_OF,
    RANK_OF,
    IS_WIZARD,
    IS_JESTER,
    IS_NUMBER,
    TRICK_POWER,
    NEXT_LED,
    FOLLOWS,
    ALLOWED_WHEN_BOUND,
    STRENGTH,
    BID_QUARTERS,
    SCORE,
    _TRUMP_OF_TURNED,
    _DEALER_CHOOSES,
):
    _table.setflags(write=False)


# -- deals -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class DealBatch:
    """Many deals of the same size: hands by deal and seat as codes, turned card, dealer.

    ``hands`` has shape ``(size, players, cards)`` (each hand sorted), ``turned`` and
    ``dealer`` shape ``(size,)``; ``turned`` is :data:`NO_CARD` when every card was dealt.
    """

    hands: NDArray[np.int8]
    turned: NDArray[np.int8]
    dealer: NDArray[np.int8]

    def __post_init__(self) -> None:
        if (
            self.hands.ndim != 3
            or self.turned.shape != self.hands.shape[:1]
            or (self.dealer.shape != self.hands.shape[:1])
        ):
            raise InvalidDealError(
                "a deal batch needs hands of shape (size, players, cards) and turned and "
                f"dealer of shape (size,); got {self.hands.shape}, {self.turned.shape}, "
                f"{self.dealer.shape}"
            )
        check_players(self.players)
        size, players, cards = self.hands.shape
        if not 1 <= cards <= DECK_SIZE // players:
            raise InvalidDealError(
                f"invalid number of cards {cards} for {players} players: each round deals "
                f"1 to {DECK_SIZE // players} cards to each player"
            )
        everything = np.concatenate([self.hands.reshape(size, -1), self.turned[:, None]], 1)
        if everything.min(initial=0) < NO_CARD or everything.max(initial=0) >= DECK_SIZE:
            raise InvalidDealError(f"card codes run from 0 to {DECK_SIZE - 1} (turned: -1)")
        ordered = np.sort(everything, axis=1)
        if np.any((ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] >= 0)):
            raise InvalidDealError("a deal of the batch holds the same card code twice")
        all_dealt = players * cards == DECK_SIZE
        if np.any((self.turned == NO_CARD) != all_dealt):
            raise InvalidDealError(
                "the turned card is -1 exactly when every card was dealt "
                f"({players} players x {cards} cards)"
            )
        if np.any((self.dealer < 0) | (self.dealer >= players)):
            raise InvalidPlayersError(f"dealer seats run from 0 to {players - 1}")

    @property
    def size(self) -> int:
        return int(self.hands.shape[0])

    @property
    def players(self) -> int:
        return int(self.hands.shape[1])

    @property
    def cards(self) -> int:
        return int(self.hands.shape[2])

    def round(self, index: int, *, rules: Rules | None = None) -> Round:
        """Deal ``index`` as a reference-engine :class:`~tutor.rules.round.Round`, before any
        action.

        >>> import numpy as np
        >>> batch = deal_batch(3, players=3, cards=2, rng=np.random.default_rng(0))
        >>> rnd = batch.round(0)
        >>> rnd.cards, rnd.players, encode_cards(rnd.hands[1]) == list(batch.hands[0, 1])
        (2, 3, True)
        """
        turned = int(self.turned[index])
        return Round(
            hands=[decode_cards(hand) for hand in self.hands[index]],
            turned=None if turned == NO_CARD else decode_card(turned),
            dealer=int(self.dealer[index]),
            rules=rules,
        )


def deal_batch(
    size: int, *, players: int, cards: int, rng: np.random.Generator, dealer: int = 0
) -> DealBatch:
    """``size`` random deals of ``cards`` cards to each of ``players`` seats.

    Each deal shuffles the deck; seat ``s`` gets the shuffled cards ``s*cards`` to
    ``(s+1)*cards - 1`` and the next card is turned. (Any fixed split of a shuffled deck
    deals the same odds as dealing one card at a time.)

    >>> import numpy as np
    >>> batch = deal_batch(2, players=4, cards=15, rng=np.random.default_rng(0))
    >>> batch.hands.shape, batch.turned.tolist()
    ((2, 4, 15), [-1, -1])
    >>> deal_batch(2, players=4, cards=16, rng=np.random.default_rng(0))
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidDealError: invalid number of cards 16 for 4 players: each round deals 1 to 15 cards to each player
    """
    check_players(players)
    if not isinstance(cards, int) or not 1 <= cards <= DECK_SIZE // players:
        raise InvalidDealError(
            f"invalid number of cards {cards!r} for {players} players: each round deals "
            f"1 to {DECK_SIZE // players} cards to each player"
        )
    if not isinstance(size, int) or size < 1:
        raise InvalidDealError(f"invalid batch size {size!r}: deal at least one deal")
    decks = rng.permuted(np.tile(np.arange(DECK_SIZE, dtype=np.int8), (size, 1)), axis=1)
    dealt = players * cards
    hands = np.sort(decks[:, :dealt].reshape(size, players, cards), axis=2)
    turned = decks[:, dealt] if dealt < DECK_SIZE else np.full(size, NO_CARD, dtype=np.int8)
    return DealBatch(
        hands=hands,
        turned=turned.astype(np.int8),
        dealer=np.full(size, _check_seat(dealer, players, "dealer"), dtype=np.int8),
    )


def batch_from_rounds(rounds: Sequence[Round]) -> DealBatch:
    """The deals of ``rounds`` (their first event), as one batch: to replay them fast.

    >>> rnd = Round(hands=["J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10"], turned="R9",
    ...             dealer=3)
    >>> batch = batch_from_rounds([rnd])
    >>> batch.hands[0].tolist(), int(batch.turned[0])
    ([[14, 33, 56], [28, 43, 52], [16, 49, 57], [24, 35, 45]], 21)
    """
    if not rounds:
        raise InvalidDealError("batch_from_rounds needs at least one round")
    hands: list[list[list[int]]] = []
    turned: list[int] = []
    dealers: list[int] = []
    for rnd in rounds:
        deal = rnd.events[0]
        assert isinstance(deal, Dealt)
        codes = encode_cards(
            [
                *(card for hand in deal.hands for card in hand),
                *([] if deal.turned is None else [deal.turned]),
            ]
        )
        flat, turned_code = (codes, NO_CARD) if deal.turned is None else (codes[:-1], codes[-1])
        size = len(deal.hands[0])
        hands.append([sorted(flat[s * size : (s + 1) * size]) for s in range(len(deal.hands))])
        turned.append(turned_code)
        dealers.append(deal.dealer)
    try:
        hand_array = np.array(hands, dtype=np.int8)
    except ValueError:
        raise InvalidDealError(
            "the rounds of a batch must have the same players and cards"
        ) from None
    return DealBatch(
        hands=hand_array,
        turned=np.array(turned, dtype=np.int8),
        dealer=np.array(dealers, dtype=np.int8),
    )


def _check_seat(seat: object, players: int, what: str) -> int:
    if not is_whole_number(seat) or not 0 <= seat < players:
        raise InvalidPlayersError(f"invalid {what} seat {seat!r}: seats are 0 to {players - 1}")
    return seat


# -- tricks ------------------------------------------------------------------------------


def trick_winners(tricks: NDArray[np.integer], trump: NDArray[np.integer]) -> NDArray[np.int64]:
    """For each row of codes (play order), the index of the card that takes the trick.

    ``trump`` holds one trump index per row (:data:`NO_TRUMP` for no trump). The same
    rule as :func:`tutor.rules.trick.trick_winner`, vectorised.

    >>> import numpy as np
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
    trump = _TRUMP_OF_TURNED[turned].astype(np.int64)
    trump_chosen = np.zeros(size, dtype=np.bool_)
    wizard_turned = _DEALER_CHOOSES[turned]
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
_STRENGTH_CAP = np.int16(_STRENGTH_FLIP)


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
    # row, those a bound hand may play besides (_FREE_WHEN_BOUND), as slot sets.
    # (Only the states in which some card follows can bind; the others stay 0: no
    # followers, so the whole hand is legal.)
    follow_bits = np.zeros((size * players, _LED_STATES), dtype=np.int64)
    for state in _BINDING_STATES:
        follow_bits[:, state] = FOLLOWS[state][hands] @ slot_bits
    follow_bits_flat = follow_bits.reshape(-1)
    free_bits = _FREE_WHEN_BOUND[hands] @ slot_bits
    held = np.full(size * players, (1 << cards) - 1, dtype=np.int64)
    trump_rows = np.repeat(trump, players)
    state_base = trump * _LED_STATES
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
            following = holding & follow_bits_flat[index * _LED_STATES + led]
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


# -- the bidding coach's estimate, in batches ---------------------------------------------
# The coach (tutor.play.coach) plays its deals one by one in plain Python, so that it runs
# in the browser too. The same estimate in NumPy batches is the yardstick its figures are
# checked against (tests/play/test_coach.py, benchmarks/coach_benchmark.py): the same
# simulated players, many more deals in the same time.


def sample_deals(view: SeatView, simulations: int, rng: np.random.Generator) -> DealBatch:
    """``simulations`` deals that agree with what ``view`` shows: the seat's own hand and
    the turned card stay put; every other card is shuffled and dealt to the other seats.

    >>> from tutor.rules.round import Round
    >>> rnd = Round(hands=["J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10"], turned="R9",
    ...             dealer=3)
    >>> batch = sample_deals(rnd.view(0), 500, np.random.default_rng(1))
    >>> batch.round(7).hands[0], batch.round(7).turned
    ([Card.parse('R2'), Card.parse('G8'), Card.parse('J')], Card.parse('R9'))
    """
    if not is_whole_number(simulations) or simulations < 1:
        raise WizardRuleError(
            f"invalid number of simulations {simulations!r}: simulate at least one deal"
        )
    own = encode_cards([*view.hand, *([] if view.turned is None else [view.turned])])
    hand_codes = sorted(own[: len(view.hand)])
    turned_code = own[-1] if view.turned is not None else NO_CARD
    unseen = np.setdiff1d(np.arange(DECK_SIZE), own).astype(np.int8)
    others = view.players - 1
    shuffled = rng.permuted(np.tile(unseen, (simulations, 1)), axis=1)[:, : others * view.cards]
    other_hands = np.sort(shuffled.reshape(simulations, others, view.cards), axis=2)
    hands = np.empty((simulations, view.players, view.cards), dtype=np.int8)
    hands[:, view.seat] = np.array(hand_codes, dtype=np.int8)
    other_seats = [seat for seat in range(view.players) if seat != view.seat]
    hands[:, other_seats] = other_hands
    return DealBatch(
        hands=hands,
        turned=np.full(simulations, turned_code, dtype=np.int8),
        dealer=np.full(simulations, view.dealer, dtype=np.int8),
    )


def trick_chances(
    view: SeatView, *, play_for: int, simulations: int, rng: np.random.Generator
) -> tuple[float, ...]:
    """The chances of 0, 1, ... ``view.cards`` tricks for ``view``'s seat playing for
    ``play_for``, as :func:`tutor.play.coach.advise_bid` estimates them (the bids the view
    shows kept, the others the sensible bot's, every seat playing like it), from
    ``simulations`` deals of :func:`sample_deals`.

    >>> from tutor.rules.round import Round
    >>> rnd = Round(hands=["W W W", "B5 R13 G3", "B11 R4 J", "B7 R12 G10"], turned="R9",
    ...             dealer=3)
    >>> trick_chances(rnd.view(0), play_for=3, simulations=100, rng=np.random.default_rng(1))
    (0.0, 0.0, 0.0, 1.0)
    """
    batch = sample_deals(view, simulations, rng)
    bids = np.full((simulations, view.players), NO_BID, dtype=np.int64)
    for seat, shown in enumerate(view.bids):
        if shown is not None:
            bids[:, seat] = shown
    bids[:, view.seat] = play_for
    playout = simulate(
        batch, policies=Policy.SENSIBLE, rules=view.rules, bids=bids, dealer_choice=view.trump
    )
    taken = np.bincount(playout.taken[:, view.seat].astype(np.int64), minlength=view.cards + 1)
    return tuple(float(times) / simulations for times in taken)
