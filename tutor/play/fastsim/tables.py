"""The fast simulator's rules, as tables built at import by calling the engine's own rule
functions (:mod:`tutor.rules.trick`, :mod:`tutor.rules.trump`, :mod:`tutor.rules.scoring`)
and the bots' scoring knobs (:mod:`tutor.play.bots`) for every card: a rule changes in one
place, and these tables follow (``tests/play/test_fastsim.py`` rebuilds them from changed
rule functions to check it).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from tutor.play.bots import bid_quarters, card_strength
from tutor.play.fastsim.codes import NO_TRUMP, SUITS, trump_index, trump_of_index
from tutor.rules.cards import DECK, DECK_SIZE, Suit
from tutor.rules.scoring import round_score
from tutor.rules.trick import ILLEGAL_RULES, Lead, card_power, followers_in, lead_after, play_rule
from tutor.rules.trump import reveal_trump

# Every rule the simulation applies is a table built here, at import, by calling the
# engine's own rule functions (tutor.rules.trick, tutor.rules.trump) for every card: a
# rule changes in one place, and these tables follow.
#
# A trick's lead is a small code, its "led state": 0-3 the suit to follow (Y R G B);
# LED_OPEN while nothing binds yet (nothing played, or only Jesters: the next number card
# sets the suit); LED_FREE once a Wizard came first (no suit binds in this trick).
LED_OPEN = len(SUITS)
LED_FREE = LED_OPEN + 1
LED_STATES = LED_FREE + 1
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
        for state in range(LED_STATES)
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
            for state in range(LED_STATES)
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
        for state in range(LED_STATES)
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
        for state in range(LED_STATES)
    ]
)
"""``ALLOWED_WHEN_BOUND[led_state, code]``: the card may be played by a hand that holds
the led suit (:func:`tutor.rules.trick.play_rule`): the led suit, Wizards and Jesters."""
BINDING_STATES = [state for state in range(LED_STATES) if FOLLOWS[state].any()]
"""The led states in which a hand can be bound to follow (the four suits)."""
FREE_WHEN_BOUND: NDArray[np.bool_] = (
    ALLOWED_WHEN_BOUND[BINDING_STATES] & ~FOLLOWS[BINDING_STATES]
)[0]
"""The cards a bound hand may play besides its followers (Wizards and Jesters). The
playout computes them once per hand, which is right while they are the same whatever
suit was led: checked here, when the tables are built."""
if not (ALLOWED_WHEN_BOUND[BINDING_STATES] == FOLLOWS[BINDING_STATES] | FREE_WHEN_BOUND).all():
    raise AssertionError("the cards allowed besides the followers depend on the led suit")

STRENGTH: NDArray[np.int16] = np.array(
    [[card_strength(card, trump_of_index(t)) for card in DECK] for t in range(_TRUMP_INDICES)],
    dtype=np.int16,
)
"""``STRENGTH[trump, code]``: :func:`tutor.play.bots.card_strength`, tabulated."""
STRENGTH_FLIP = int(STRENGTH.max()) + 1

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

TRUMP_OF_TURNED: NDArray[np.int8] = np.array(
    [trump_index(reveal_trump(card).trump) for card in (*DECK, None)], dtype=np.int8
)
"""Trump index by turned code (:func:`tutor.rules.trump.reveal_trump`); index -1
(:data:`NO_CARD`, nothing turned) is the last entry. A turned Wizard maps to no trump
here: the dealer's choice replaces it (:data:`DEALER_CHOOSES`)."""
DEALER_CHOOSES: NDArray[np.bool_] = np.array(
    [reveal_trump(card).dealer_chooses for card in (*DECK, None)]
)
"""By turned code, like :data:`TRUMP_OF_TURNED`: the dealer chooses trump."""

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
    TRUMP_OF_TURNED,
    DEALER_CHOOSES,
):
    _table.setflags(write=False)
