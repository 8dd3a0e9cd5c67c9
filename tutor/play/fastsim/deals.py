"""Batches of deals for the fast simulator: many deals of the same size as arrays of card
codes (:class:`DealBatch`), dealt at random or taken from the engine's rounds, and each
one back as a reference-engine :class:`~tutor.rules.round.Round`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from tutor.errors import InvalidDealError, InvalidPlayersError
from tutor.play.fastsim.codes import NO_CARD, decode_card, decode_cards, encode_cards
from tutor.rules.cards import DECK_SIZE
from tutor.rules.checks import is_whole_number
from tutor.rules.round import Dealt, Round
from tutor.rules.seats import check_players
from tutor.rules.variants import Rules


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
