"""Computer players (bots), and helpers that drive a round or a game with them.

A bot answers three questions, each from one seat's view (:meth:`tutor.rules.round.Round.view`):
it never sees another hand, nor a bid that the variant keeps hidden.

- ``choose_trump(view) -> Suit`` when a Wizard was turned and the bot deals;
- ``bid(view) -> int``, one of ``view.legal_bids``;
- ``play(view) -> Card``, one of ``view.legal_plays``.

Two bots: :class:`RandomBot` picks any legal action with an injected, seeded
``random.Random``; :class:`SensibleBot` bids from its hand (Wizards, high trumps, trump
length) and plays to make its bid. The sensible bot is deterministic, so
:mod:`tutor.play.fastsim` can reproduce it exactly in array form; its scoring knobs
(:func:`card_strength`, :func:`bid_quarters`, :func:`trump_choice_key`) live here once and
the fast path tabulates them.

The drivers act through the round's public actions only, so every rule is checked by the
engine: :func:`take_bot_turn` (one action), :func:`play_bot_turns` (until a seat without a
bot, e.g. the learner's, is to act: what a play screen needs), :func:`play_round` and
:func:`play_game`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, TypeVar, runtime_checkable

from tutor.errors import InvalidPlayersError, OutOfTurnError
from tutor.rules.cards import Card, Suit
from tutor.rules.game import Game
from tutor.rules.round import Event, Phase, Round, SeatView
from tutor.rules.scoring import ScoreSheet
from tutor.rules.trick import winning_position


@runtime_checkable
class Bot(Protocol):
    """What a computer player answers, from its own seat's view only."""

    def choose_trump(self, view: SeatView) -> Suit:
        """The trump suit, when a Wizard was turned and this seat deals."""
        ...

    def bid(self, view: SeatView) -> int:
        """A bid from ``view.legal_bids``."""
        ...

    def play(self, view: SeatView) -> Card:
        """A card from ``view.legal_plays``."""
        ...


class RandomBot:
    """Any legal action, chosen uniformly with the injected ``random.Random``.

    >>> rnd = Round(players=3, cards=2, dealer=0, seed=5)
    >>> bot = RandomBot(random.Random(1))
    >>> bot.bid(rnd.view(1)) in rnd.legal_bids()
    True
    >>> RandomBot(1)
    Traceback (most recent call last):
    ...
    TypeError: RandomBot needs a random.Random (seeded for repeatable games), not 1
    """

    def __init__(self, rng: random.Random) -> None:
        if not isinstance(rng, random.Random):
            raise TypeError(
                f"RandomBot needs a random.Random (seeded for repeatable games), not {rng!r}"
            )
        self.rng = rng

    def choose_trump(self, view: SeatView) -> Suit:
        """Any of the four suits."""
        return self.rng.choice(list(Suit))

    def bid(self, view: SeatView) -> int:
        """Any legal bid."""
        return self.rng.choice(_options(view.legal_bids, view, "bid"))

    def play(self, view: SeatView) -> Card:
        """Any legal card."""
        return self.rng.choice(_options(view.legal_plays, view, "play"))

    def __repr__(self) -> str:
        return "RandomBot(random.Random(...))"


# -- the sensible bot's knobs (tabulated by tutor.play.fastsim) -----------------------------

WIZARD_STRENGTH = 200
TRUMP_STRENGTH_BASE = 100


def card_strength(card: Card, trump: Suit | None) -> int:
    """How strong ``card`` is for the sensible bot, as an ordering key (higher: stronger).

    Wizard > trumps by rank > other number cards by rank (the suit breaks ties, so two
    different cards never share a key) > Jester. The bot leads its strongest card when it
    wants tricks and discards its weakest when it cannot win.

    >>> from tutor.rules.cards import parse_cards
    >>> [card_strength(card, Suit.RED) for card in parse_cards("W R2 B13 Y13 J")]
    [200, 102, 55, 52, 0]
    """
    if card.is_wizard:
        return WIZARD_STRENGTH
    if card.is_jester:
        return 0
    assert card.suit is not None and card.rank is not None
    if card.suit is trump:
        return TRUMP_STRENGTH_BASE + card.rank
    return card.rank * 4 + _SUIT_INDEX[card.suit]


_SUIT_INDEX = {suit: index for index, suit in enumerate(Suit)}

QUARTERS_PER_TRICK = 4
LONG_TRUMP_FROM = 4
"""Each trump from the fourth on adds :data:`LONG_TRUMP_QUARTERS`: long trumps ruff."""
LONG_TRUMP_QUARTERS = 2


def bid_quarters(card: Card, trump: Suit | None) -> int:
    """The sensible bot's estimate of the tricks ``card`` takes, in quarter tricks.

    A Wizard or a trump from 11 up is a trick; a middle trump (8-10) half a trick; a low
    trump a quarter; an off-suit 13 three quarters and a 12 one quarter (they can be
    trumped); Jesters and other cards nothing. (Weights picked by simulating a few
    variants with :mod:`tutor.play.fastsim`: the results barely move around these.)

    >>> from tutor.rules.cards import parse_cards
    >>> [bid_quarters(card, Suit.RED) for card in parse_cards("W R12 R9 R3 B13 B12 B5 J")]
    [4, 4, 2, 1, 3, 1, 0, 0]
    """
    if card.is_wizard:
        return 4
    if card.is_jester:
        return 0
    assert card.rank is not None
    if card.suit is trump:
        return 4 if card.rank >= 11 else 2 if card.rank >= 8 else 1
    return 3 if card.rank == 13 else 1 if card.rank == 12 else 0


def hand_quarters(hand: Iterable[Card], trump: Suit | None) -> int:
    """The sensible bot's trick estimate for a whole hand, in quarter tricks.

    The sum of :func:`bid_quarters`, plus :data:`LONG_TRUMP_QUARTERS` for each trump from
    the :data:`LONG_TRUMP_FROM`-th on.

    >>> from tutor.rules.cards import parse_cards
    >>> hand_quarters(parse_cards("W R12 R9 R3 R2 B13"), Suit.RED)  # 4+4+2+1+1+3 + 2
    17
    """
    cards = list(hand)
    trumps = sum(1 for card in cards if card.is_number and card.suit is trump)
    long_bonus = LONG_TRUMP_QUARTERS * max(0, trumps - LONG_TRUMP_FROM + 1)
    return sum(bid_quarters(card, trump) for card in cards) + long_bonus


def nearest_bid(quarters: int, legal_bids: Sequence[int]) -> int:
    """The legal bid closest to ``quarters / 4`` tricks; halfway goes to the higher bid.

    >>> nearest_bid(6, range(4)), nearest_bid(5, range(4)), nearest_bid(6, [0, 1, 3])
    (2, 1, 1)
    >>> nearest_bid(6, [])
    Traceback (most recent call last):
    ...
    tutor.errors.OutOfTurnError: no bid is legal now: nearest_bid needs the legal bids of the seat to act
    """
    if not legal_bids:
        raise OutOfTurnError(
            "no bid is legal now: nearest_bid needs the legal bids of the seat to act"
        )
    return min(legal_bids, key=lambda bid: (abs(QUARTERS_PER_TRICK * bid - quarters), -bid))


def trump_choice_key(hand: Iterable[Card], suit: Suit) -> int:
    """How much the sensible dealer likes ``suit`` as trump: most cards, then highest ranks.

    >>> from tutor.rules.cards import parse_cards
    >>> hand = parse_cards("R2 R3 B13 W")
    >>> trump_choice_key(hand, Suit.RED) > trump_choice_key(hand, Suit.BLUE)
    True
    """
    ranks = [card.rank for card in hand if card.is_number and card.suit is suit]
    # 13 * 14 / 2 = 91 is the largest rank sum, so the count always decides first.
    return len(ranks) * 100 + sum(rank for rank in ranks if rank is not None)


def sensible_card(
    legal: Sequence[Card],
    takes: Sequence[bool],
    *,
    wants_tricks: bool,
    leading: bool,
    last_to_play: bool,
) -> Card:
    """The sensible bot's card: its whole way of playing, in one place.

    ``legal`` are the legal cards ordered weakest first by :func:`card_strength`;
    ``takes[i]`` says whether ``legal[i]`` would take the trick so far (ignored when
    ``leading``). :class:`SensibleBot` asks this from a seat's view; the bidding coach
    (:mod:`tutor.play.coach`) from its own playouts, so both play alike.

    >>> from tutor.rules.cards import parse_cards
    >>> weak_to_strong = parse_cards("J R3 B12 W")
    >>> sensible_card(weak_to_strong, [False, False, True, True], wants_tricks=True,
    ...               leading=False, last_to_play=False)  # the cheapest card that takes it
    Card.parse('B12')
    >>> sensible_card(weak_to_strong, [False, False, True, True], wants_tricks=False,
    ...               leading=False, last_to_play=False)  # the strongest card that loses
    Card.parse('R3')
    """
    if leading:
        return legal[-1] if wants_tricks else legal[0]
    if wants_tricks:
        # the weakest card that takes the trick so far, else throw the weakest away
        return next((card for card, wins in zip(legal, takes, strict=True) if wins), legal[0])
    losers = [card for card, wins in zip(legal, takes, strict=True) if not wins]
    if losers:
        return losers[-1]
    # every legal card takes the trick: the last to play keeps its strongest (the trick
    # is its anyway), earlier seats play the weakest and hope to be beaten
    return legal[-1] if last_to_play else legal[0]


class SensibleBot:
    """Bids from its hand and plays to make the bid. Deterministic: no random choices.

    - Trump choice: the suit it holds most of (then the highest ranks, then Y R G B order).
    - Bid: the legal bid nearest :func:`hand_quarters` / 4.
    - Play, while short of its bid: lead its strongest card; follow with the weakest
      card that takes the trick so far, or discard its weakest if none can.
    - Play, once the bid is made (or a bid of 0): lead its weakest card; follow with the
      strongest card that loses the trick so far; if every legal card wins, play the
      strongest when last to play (the trick is its anyway), else the weakest.

    "Takes the trick so far" is asked of the engine's trick rule
    (:func:`tutor.rules.trick.winning_position`).

    The hands of RULES.md's worked example (red trump): D's red 12 is worth a trick.

    >>> rnd = Round(hands=["J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10"], turned="R9",
    ...             dealer=2)
    >>> bot = SensibleBot()
    >>> rnd.to_act, bot.bid(rnd.view(3))
    (3, 1)
    >>> _ = rnd.bid(1); _ = rnd.bid(0); _ = rnd.bid(1); _ = rnd.bid(0)
    >>> bot.play(rnd.view(3))  # wants a trick and leads: its strongest card
    Card.parse('R12')
    >>> _ = rnd.play("R12")
    >>> bot.play(rnd.view(0))  # bid 0: ducks with its strongest loser, keeping the Jester
    Card.parse('R2')
    """

    def choose_trump(self, view: SeatView) -> Suit:
        """The suit of :func:`trump_choice_key`'s best score (ties: Y, R, G, B order)."""
        return max(Suit, key=lambda suit: (trump_choice_key(view.hand, suit), -_SUIT_INDEX[suit]))

    def bid(self, view: SeatView) -> int:
        """The legal bid nearest the hand's estimate in quarter tricks."""
        legal = _options(view.legal_bids, view, "bid")
        return nearest_bid(hand_quarters(view.hand, view.trump), legal)

    def play(self, view: SeatView) -> Card:
        """Take tricks while short of the bid, duck once it is made (:func:`sensible_card`)."""
        legal = _options(view.legal_plays, view, "play")
        bid = view.bids[view.seat]
        assert bid is not None  # a seat always sees its own bid
        trick = [card for _, card in view.current_trick]
        position = len(trick)
        ordered = sorted(legal, key=lambda card: card_strength(card, view.trump))
        # The view's cards are the engine's own, so the rule runs unchecked (winning_position
        # is trick_winner without the checks of notation and of one deck).
        takes = (
            [winning_position([*trick, card], view.trump) == position for card in ordered]
            if trick
            else []
        )
        return sensible_card(
            ordered,
            takes,
            wants_tricks=bid > view.taken[view.seat],
            leading=not trick,
            last_to_play=position == view.players - 1,
        )

    def __repr__(self) -> str:
        return "SensibleBot()"


_Option = TypeVar("_Option", int, Card)


def _options(options: Sequence[_Option], view: SeatView, action: str) -> Sequence[_Option]:
    if not options:
        raise OutOfTurnError(
            f"seat {view.seat} cannot {action} now: the round is in the {view.phase.value} "
            f"phase and seat {view.to_act} is to act"
        )
    return options


# -- drivers ---------------------------------------------------------------------------

BotsLike = Sequence[Bot] | Mapping[int, Bot]


def take_bot_turn(round_: Round, bot: Bot) -> Event:
    """Let ``bot`` make the action due (trump choice, bid or card) for the seat to act.

    The bot sees only that seat's view; the round checks the action like any other.

    >>> rnd = Round(players=3, cards=1, dealer=0, seed=2)
    >>> take_bot_turn(rnd, SensibleBot())
    BidMade(seat=1, bid=0)
    """
    seat = round_.to_act
    if seat is None:
        raise OutOfTurnError("the round is finished: no bot has a turn to take")
    view = round_.view(seat)
    if round_.phase is Phase.TRUMP_CHOICE:
        return round_.choose_trump(bot.choose_trump(view), seat=seat)
    if round_.phase is Phase.BIDDING:
        return round_.bid(bot.bid(view), seat=seat)
    return round_.play(bot.play(view), seat=seat)


def play_bot_turns(round_: Round, bots: BotsLike) -> list[Event]:
    """Let the bots act until a seat without a bot is to act or the round ends.

    ``bots`` maps seats to bots (a sequence covers every seat). A play screen calls this
    after each of the learner's actions; the events returned are the bots' actions, in
    order, for it to show.

    The learner sits at seat 1, left of the dealer: they bid first, then the bots bid,
    then the learner leads.

    >>> rnd = Round(players=3, cards=1, dealer=0, seed=2)
    >>> bots = {0: SensibleBot(), 2: SensibleBot()}
    >>> play_bot_turns(rnd, bots), rnd.to_act
    ([], 1)
    >>> _ = rnd.bid(1)
    >>> play_bot_turns(rnd, bots), rnd.to_act
    ([BidMade(seat=2, bid=0), BidMade(seat=0, bid=0)], 1)
    """
    by_seat = _bots_by_seat(bots, round_.players, complete=False)
    events: list[Event] = []
    while (seat := round_.to_act) is not None and seat in by_seat:
        events.append(take_bot_turn(round_, by_seat[seat]))
    return events


def play_round(round_: Round, bots: BotsLike) -> tuple[int, ...]:
    """Play ``round_`` to the end with one bot per seat; return each seat's points.

    >>> rnd = Round(players=4, cards=3, dealer=3, seed=11)
    >>> scores = play_round(rnd, [SensibleBot(), RandomBot(random.Random(1)),
    ...                           SensibleBot(), RandomBot(random.Random(2))])
    >>> rnd.finished, len(scores)
    (True, 4)
    >>> play_round(Round(players=4, cards=3, seed=1), [SensibleBot()])
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidPlayersError: play_round needs a bot for every seat: seats 1, 2, 3 have none
    """
    by_seat = _bots_by_seat(bots, round_.players, complete=True)
    while (seat := round_.to_act) is not None:
        take_bot_turn(round_, by_seat[seat])
    return round_.scores()


def play_game(game: Game, bots: BotsLike) -> ScoreSheet:
    """Play every remaining round of ``game`` with one bot per seat; return the score sheet.

    >>> from tutor.rules.variants import Rules
    >>> game = Game(players=3, rules=Rules.preset("five-rounds"), seed=3)
    >>> sheet = play_game(game, [SensibleBot(), SensibleBot(), RandomBot(random.Random(0))])
    >>> game.finished, len(sheet.rows)
    (True, 5)
    """
    by_seat = _bots_by_seat(bots, game.players, complete=True)
    while True:
        play_round(game.round, by_seat)
        if game.finished:
            return game.score_sheet
        game.next_round()


def _bots_by_seat(bots: BotsLike, players: int, *, complete: bool) -> dict[int, Bot]:
    if isinstance(bots, Mapping):
        by_seat = dict(bots)
    else:
        by_seat = dict(enumerate(bots))
    unknown = sorted(seat for seat in by_seat if not 0 <= seat < players)
    if unknown:
        raise InvalidPlayersError(
            f"bots given for seats {unknown!r}, but the seats are 0 to {players - 1}"
        )
    for seat, bot in by_seat.items():
        if not isinstance(bot, Bot):
            raise TypeError(f"the bot for seat {seat} has no choose_trump/bid/play: {bot!r}")
    missing = [seat for seat in range(players) if seat not in by_seat]
    if complete and missing:
        raise InvalidPlayersError(
            "play_round needs a bot for every seat: seats "
            + ", ".join(map(str, missing))
            + " have none"
        )
    return by_seat
