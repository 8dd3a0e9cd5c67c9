# Over 600 lines, one job: a round's state machine. Round alone is ~560 lines of checks,
# actions, views and replay over one private state; the records here are the ones it makes.
"""One round: deal, trump reveal (and the dealer's choice), bidding, and play.

State changes only through three actions, each checked before anything changes
(pokerkit's pattern): ``verify_x`` raises with the reason, ``can_x`` asks, ``x`` verifies,
applies and appends a frozen event to :attr:`Round.events`. Replaying the events
(:meth:`Round.replay`) rebuilds the round exactly.

Seats are numbered 0 to players-1 clockwise; the seat left of the dealer is
``(dealer + 1) % players``. It bids first and leads the first trick.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from operator import itemgetter
from typing import Any, NoReturn

from tutor.errors import (
    IllegalBidError,
    IllegalPlayError,
    IllegalTrumpChoiceError,
    InvalidCardError,
    InvalidDealError,
    InvalidPlayersError,
    OutOfTurnError,
    WizardRuleError,
)
from tutor.rules.cards import (
    DECK,
    DECK_SIZE,
    Card,
    Suit,
    check_cards_from_one_deck,
    parse_card,
    parse_cards,
)
from tutor.rules.checks import is_whole_number
from tutor.rules.records import quick_init, record_maker
from tutor.rules.scoring import points_for
from tutor.rules.seats import MAX_PLAYERS, MIN_PLAYERS, check_players, default_names, seat_order
from tutor.rules.trick import (
    ILLEGAL_RULES,
    PlayJudgement,
    PlayRule,
    TrickExplanation,
    TrickState,
    explain_cards,
    followers_in,
    judge_card,
    opening_state,
)
from tutor.rules.trump import TrumpReveal, parse_trump, reveal_trump
from tutor.rules.variants import Bidding, Rules


class Phase(StrEnum):
    """Where a round stands."""

    TRUMP_CHOICE = "trump-choice"
    """A Wizard was turned: the dealer must choose the trump suit."""
    BIDDING = "bidding"
    PLAYING = "playing"
    FINISHED = "finished"


# -- events: the round's log ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dealt:
    """The deal: every hand (by seat) and the turned card (``None``: nothing left).

    It also records the rules and seat names, so that the log alone replays the round.
    """

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    turned: Card | None
    rules: Rules = field(default_factory=Rules)
    names: tuple[str, ...] = ()


@quick_init
@dataclass(frozen=True, slots=True)
class TrumpChosen:
    """The dealer chose ``suit`` after a Wizard was turned."""

    seat: int
    suit: Suit


@quick_init
@dataclass(frozen=True, slots=True)
class BidMade:
    seat: int
    bid: int


@quick_init
@dataclass(frozen=True, slots=True)
class CardPlayed:
    """``seat`` played ``card``; ``judgement`` says which rule allowed it."""

    seat: int
    card: Card
    judgement: PlayJudgement = field(compare=False, repr=False)


Event = Dealt | TrumpChosen | BidMade | CardPlayed


@quick_init
@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, the seats and cards in play order, the trump, and which
    card took it (``winning_index``, in play order).

    Why it did (:attr:`explanation`) follows from the cards and the trump by the rules of
    :mod:`tutor.rules.trick`, and is worked out when asked: a round records twelve tricks
    for every explanation anybody reads.
    """

    number: int
    leader: int
    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    trump: Suit | None
    winning_index: int

    @property
    def winner(self) -> int:
        """The seat that took the trick."""
        return self.seats[self.winning_index]

    @property
    def explanation(self) -> TrickExplanation:
        """Who takes the trick and why, as data (:func:`tutor.rules.trick.explain_trick`)."""
        return explain_cards(self.cards, self.trump)

    @property
    def plays(self) -> tuple[tuple[int, Card], ...]:
        """``(seat, card)`` pairs in play order."""
        return tuple(zip(self.seats, self.cards, strict=True))

    @property
    def reason(self) -> TrickExplanation:
        """Why the winner took the trick (same as :attr:`explanation`)."""
        return self.explanation

    def _repr_svg_(self) -> str:
        from tutor.display.svg import trick_svg

        return trick_svg(self.cards, winner=self.winning_index)


@quick_init
@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may know: its own hand, the public table, and bids the variant shows.

    A bid hidden from this seat is ``None`` in :attr:`bids`; :attr:`has_bid` still tells
    who has bid. Bots and screens act on this view only.

    :attr:`reveal` is what the turned card means for trump, :attr:`chosen_trump` the
    suit the dealer chose after a turned Wizard (``None`` otherwise, and while the choice
    is due) and :attr:`trump` the round's trump either way. :attr:`legal_bids`,
    :attr:`forbidden_bid` (plus/minus one: the bid refused, and why) and
    :attr:`legal_plays` are empty (``None``) unless this seat is to act; then
    :attr:`judgements` holds the engine's judgement of each card of :attr:`hand`, in its
    order (the rule that allows or refuses it), and is empty otherwise.
    """

    seat: int
    players: int
    names: tuple[str, ...]
    cards: int
    dealer: int
    rules: Rules
    phase: Phase
    to_act: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    turned: Card | None
    reveal: TrumpReveal
    chosen_trump: Suit | None
    trump: Suit | None
    bids: tuple[int | None, ...]
    has_bid: tuple[bool, ...]
    current_leader: int | None
    current_trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    taken: tuple[int, ...]
    legal_bids: tuple[int, ...]
    forbidden_bid: ForbiddenBid | None
    legal_plays: tuple[Card, ...]
    judgements: tuple[PlayJudgement, ...]

    def judgement_of(self, card: Card) -> PlayJudgement | None:
        """The engine's judgement of ``card`` from this hand (``None`` unless this seat is
        to play, or for a card it does not hold): screens say why a card may not go without
        asking the round again."""
        for judgement in self.judgements:
            if judgement.card == card:
                return judgement
        return None


@dataclass(frozen=True, slots=True)
class ForbiddenBid:
    """Plus/minus one: the last bidder may not make the bids add up to the number of
    tricks. ``bid`` is refused because the other bids add up to ``others``, and
    ``others + bid`` would equal the round's ``tricks``."""

    bid: int
    others: int
    tricks: int


_NOT_GIVEN: Any = object()


class Round:
    """One round of Wizard.

    Deal at random with a seed, or give the deal (hands by seat, and the turned card).
    The worked example of RULES.md (A-D clockwise, D deals, red 9 turned):

    >>> rnd = Round(hands=["J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10"], turned="R9",
    ...             dealer=3)
    >>> rnd.trump, rnd.to_act, rnd.phase
    (<Suit.RED: 'R'>, 0, <Phase.BIDDING: 'bidding'>)
    >>> for amount in (1, 2, 0, 0):
    ...     _ = rnd.bid(amount)
    >>> for card in "J B5 B11 B7 R4 R12 R2 W G3 J G10 G8".split():
    ...     _ = rnd.play(card)
    >>> [trick.winner for trick in rnd.tricks], rnd.taken, rnd.scores()
    ([2, 1, 3], (0, 1, 1, 1), (-10, -10, -10, -10))

    A rejected action raises and leaves the round as it was:

    >>> rnd = Round(players=4, cards=3, dealer=3, seed=7)
    >>> rnd.play("R9")
    Traceback (most recent call last):
    ...
    tutor.errors.OutOfTurnError: card 'R9' cannot be played now: the round is in the bidding phase
    """

    def __init__(
        self,
        *,
        players: int | None = None,
        cards: int | None = None,
        dealer: int = 0,
        rules: Rules | None = None,
        seed: int | None = None,
        rng: random.Random | None = None,
        hands: Sequence[str | Iterable[Card | str]] | None = None,
        turned: Card | str | None = _NOT_GIVEN,
        names: Sequence[str] | None = None,
    ) -> None:
        if rules is not None and not isinstance(rules, Rules):
            raise WizardRuleError(f"rules must be a Rules value, not {rules!r}")
        self.rules = rules if rules is not None else _STANDARD
        if hands is None:
            if turned is not _NOT_GIVEN:
                raise InvalidDealError("a turned card can only be given with the hands")
            if players is None or cards is None:
                raise InvalidDealError("give players= and cards= for a random deal, or hands=")
            if seed is not None and rng is not None:
                raise InvalidDealError("give seed= or rng=, not both")
            dealer, hands_dealt, turned_card = _random_deal(
                players=players,
                cards=cards,
                dealer=dealer,
                rng=rng if rng is not None else random.Random(seed),
            )
        else:
            if seed is not None or rng is not None:
                raise InvalidDealError("an explicit deal takes no seed= or rng=")
            dealer, hands_dealt, turned_card = _explicit_deal(
                hands, turned, players=players, cards=cards, dealer=dealer
            )
        self.players = len(hands_dealt)
        self.cards = len(hands_dealt[0])
        self.dealer = dealer
        self.names: tuple[str, ...] = (
            tuple(names) if names is not None else default_names(self.players)
        )
        if len(self.names) != self.players:
            raise InvalidPlayersError(
                f"{len(self.names)} names given for {self.players} players: {list(self.names)!r}"
            )
        self.reveal: TrumpReveal = reveal_trump(turned_card)
        self.trump: Suit | None = self.reveal.trump
        self.hands: list[list[Card]] = list(map(list, hands_dealt))
        self.bids: list[int | None] = [None] * self.players
        self.tricks: list[Trick] = []
        self.current_trick: list[tuple[int, Card]] = []
        self.leader = self.first_seat
        self.phase = Phase.TRUMP_CHOICE if self.reveal.dealer_chooses else Phase.BIDDING
        self.events: list[Event] = [Dealt(dealer, hands_dealt, turned_card, self.rules, self.names)]
        # Kept up to date by the actions, so that no question re-reads the whole state:
        # the seat to act, the lead of the trick on the table, the tricks taken by seat.
        self._to_act: int | None = (
            self.dealer if self.phase is Phase.TRUMP_CHOICE else self.first_seat
        )
        # the rules of the next card, given the trick so far (a state of the trick's lead:
        # tables built from the rules of tutor.rules.trick), and the trick's opening state
        self._opening = opening_state(self.trump)
        self._state = self._opening
        self._best_power = -1  # the power of the card winning the trick so far,
        self._winning = 0  # and its position in the trick
        self._taken = [0] * self.players

    # -- who is where ----------------------------------------------------------------

    @property
    def first_seat(self) -> int:
        """The seat left of the dealer: it bids first and leads the first trick."""
        return (self.dealer + 1) % self.players

    @property
    def turned(self) -> Card | None:
        return self.reveal.turned

    @property
    def to_act(self) -> int | None:
        """The seat whose action is due, or ``None`` once the round is finished: the
        dealer choosing trump, then clockwise from the dealer's left for the bids, then
        clockwise from each trick's leader."""
        return self._to_act

    @property
    def chosen_trump(self) -> Suit | None:
        """The suit the dealer chose after a turned Wizard (``None``: no Wizard was
        turned, or the choice is still due)."""
        return self.trump if self.reveal.dealer_chooses else None

    @property
    def finished(self) -> bool:
        return self._to_act is None  # nobody is to act exactly when the round is over

    @property
    def taken(self) -> tuple[int, ...]:
        """Tricks taken so far, by seat (a trick counts once, whatever its cards)."""
        return tuple(self._taken)

    @property
    def tricks_taken(self) -> tuple[int, ...]:
        """Same as :attr:`taken`."""
        return self.taken

    def _seat_name(self, seat: int) -> str:
        return f"seat {seat} ({self.names[seat]})"

    def _check_turn(self, seat: int | None, action: str) -> int:
        due = self._to_act
        assert due is not None
        if seat is None:
            return due
        if not is_whole_number(seat) or not 0 <= seat < self.players:
            raise InvalidPlayersError(f"invalid seat {seat!r}: seats are 0 to {self.players - 1}")
        if seat != due:
            raise OutOfTurnError(
                f"{self._seat_name(seat)} cannot {action} now: it is {self._seat_name(due)}'s turn"
            )
        return seat

    def _refuse_phase(self, noun: str, value: object, verb: str) -> NoReturn:
        raise OutOfTurnError(
            f"{noun} {_shown(value)!r} cannot be {verb} now: "
            f"the round is in the {self.phase.value} phase"
        )

    # -- trump choice ----------------------------------------------------------------

    def verify_trump_choice(self, suit: Suit | str | None, *, seat: int | None = None) -> Suit:
        """The suit the dealer may choose, or raise why the choice is refused."""
        if self.phase is not Phase.TRUMP_CHOICE:
            raise IllegalTrumpChoiceError(
                f"trump choice {suit!r} refused: no choice is due (turned card: "
                f"{self.turned or 'nothing'}): the dealer "
                "chooses trump only when a Wizard is turned, before bidding"
            )
        self._check_turn(seat, "choose trump")
        try:
            chosen = parse_trump(suit)
        except WizardRuleError as error:
            raise IllegalTrumpChoiceError(str(error)) from None
        if chosen is None:
            raise IllegalTrumpChoiceError(
                f"the dealer must choose one of the four suits: {suit!r} is 'no trump', "
                "which is not allowed when a Wizard is turned"
            )
        return chosen

    def can_choose_trump(self, suit: Suit | str | None, *, seat: int | None = None) -> bool:
        try:
            self.verify_trump_choice(suit, seat=seat)
        except WizardRuleError:
            return False
        return True

    def choose_trump(self, suit: Suit | str, *, seat: int | None = None) -> TrumpChosen:
        """The dealer chooses ``suit`` as trump (``seat``, if given, must be the dealer)."""
        chosen = self.verify_trump_choice(suit, seat=seat)
        event = TrumpChosen(self.dealer, chosen)
        self.trump = chosen
        self._opening = self._state = opening_state(chosen)
        self.phase = Phase.BIDDING
        self._to_act = self.first_seat
        self.events.append(event)
        return event

    # -- bidding ---------------------------------------------------------------------

    def legal_bids(self, seat: int | None = None) -> list[int]:
        """The bids the seat to act may make (empty for another seat or another phase).

        >>> rnd = Round(players=3, cards=2, dealer=0, seed=1, rules=Rules(plus_minus_one=True))
        >>> _ = rnd.bid(1); _ = rnd.bid(0)
        >>> rnd.legal_bids()
        [0, 2]
        """
        if self.phase is not _BIDDING or (seat is not None and seat != self._to_act):
            return []
        bids = list(range(self.cards + 1))
        forbidden = self.forbidden_bid_reason()
        if forbidden is not None:
            bids.remove(forbidden.bid)
        return bids

    def forbidden_bid(self) -> int | None:
        """Under plus/minus one, the last bidder's bid that would make the total equal
        the number of tricks; ``None`` when no bid is forbidden."""
        reason = self.forbidden_bid_reason()
        return None if reason is None else reason.bid

    def forbidden_bid_reason(self) -> ForbiddenBid | None:
        """The bid plus/minus one forbids now, with the other bids' total (``None``: no
        bid is forbidden).

        >>> rnd = Round(players=3, cards=2, dealer=0, seed=1, rules=Rules(plus_minus_one=True))
        >>> _ = rnd.bid(1); _ = rnd.bid(0)
        >>> rnd.forbidden_bid_reason()
        ForbiddenBid(bid=1, others=1, tricks=2)
        """
        if not self.rules.plus_minus_one or self.phase is not _BIDDING:
            return None
        made = [bid for bid in self.bids if bid is not None]
        if len(made) != self.players - 1:
            return None
        others = sum(made)
        forbidden = self.cards - others
        return ForbiddenBid(forbidden, others, self.cards) if forbidden >= 0 else None

    def verify_bid(self, bid: int, *, seat: int | None = None) -> int:
        """``bid`` if the seat to act may make it, else raise why not."""
        if self.phase is not _BIDDING:
            self._refuse_phase("bid", bid, "made")
        seat = self._to_act if seat is None else self._check_turn(seat, "bid")
        assert seat is not None
        if not is_whole_number(bid) or not 0 <= bid <= self.cards:
            raise IllegalBidError(
                f"invalid bid {bid!r} by {self._seat_name(seat)}: a bid is a whole number "
                f"of tricks from 0 to {self.cards} in a round of {self.cards} cards"
            )
        forbidden = self.forbidden_bid_reason()
        if forbidden is not None and bid == forbidden.bid:
            raise IllegalBidError(
                f"bid {bid} by {self._seat_name(seat)} is forbidden by plus/minus one: the "
                f"other bids add up to {forbidden.others}, and the last bidder may not make "
                f"the total equal the {forbidden.tricks} tricks of the round"
            )
        return bid

    def can_bid(self, bid: int, *, seat: int | None = None) -> bool:
        try:
            self.verify_bid(bid, seat=seat)
        except WizardRuleError:
            return False
        return True

    def bid(self, bid: int, *, seat: int | None = None) -> BidMade:
        """The seat to act bids ``bid`` tricks (``seat``, if given, must be that seat)."""
        self.verify_bid(bid, seat=seat)
        due = self._to_act
        assert due is not None
        event = _make_bid(due, bid)
        self.bids[due] = bid
        if None in self.bids:
            self._to_act = (due + 1) % self.players
        else:
            self.phase = _PLAYING
            self._to_act = self.leader
        self.events.append(event)
        return event

    # -- play ------------------------------------------------------------------------

    def legal_plays(self, seat: int | None = None) -> list[Card]:
        """The cards the seat to act may play (empty for another seat or another phase)."""
        due = self._to_act
        if self.phase is not _PLAYING or (seat is not None and seat != due):
            return []
        assert due is not None
        hand = self.hands[due]
        state = self._state
        if state.followers.isdisjoint(hand):  # nothing binds the hand: all of it
            return hand[:]
        allowed = state.legal_when_bound
        # A loop, not a comprehension: on Python 3.11 a comprehension is a function of its
        # own, called each time (a fifth of the work here).
        legal: list[Card] = []
        for card in hand:
            if card in allowed:
                legal.append(card)
        return legal

    def judge(self, card: Card | str) -> PlayJudgement:
        """Whether the seat to act may play ``card`` now, and the rule that decides it."""
        if self.phase is not _PLAYING:
            self._refuse_phase("card", card, "played")
        return self._judge(parse_card(card))

    def _judge(self, card: Card) -> PlayJudgement:
        # The hand and the trick are the round's own: valid by construction, not checked.
        due = self._to_act
        assert due is not None
        hand, state = self.hands[due], self._state
        return judge_card(hand, state.lead, state.suit, followers_in(hand, state.suit), card)

    def verify_play(self, card: Card | str, *, seat: int | None = None) -> PlayJudgement:
        """The judgement allowing ``card`` for the seat to act, or raise why it is illegal."""
        if self.phase is not _PLAYING:
            self._refuse_phase("card", card, "played")
        due = self._to_act if seat is None else self._check_turn(seat, "play")
        assert due is not None
        judgement = self._judge(card if isinstance(card, Card) else self._played_card(card, due))
        if judgement.rule in ILLEGAL_RULES:
            raise self._refusal(judgement, due)
        return judgement

    def _played_card(self, card: object, seat: int) -> Card:
        try:
            return parse_card(card)  # type: ignore[arg-type]  # parse_card names bad input
        except InvalidCardError as error:
            raise IllegalPlayError(f"{error} (played by {self._seat_name(seat)})") from None

    def _refusal(self, judgement: PlayJudgement, seat: int) -> IllegalPlayError:
        if judgement.rule is PlayRule.NOT_IN_HAND:
            return IllegalPlayError(
                f"illegal play {str(judgement.card)!r} by {self._seat_name(seat)}: "
                "that card is not in the hand "
                f"({' '.join(map(str, self.hands[seat])) or 'empty'})",
                judgement,
            )
        suit = judgement.led_suit  # the other refusal: MUST_FOLLOW
        assert suit is not None
        return IllegalPlayError(
            f"illegal play {str(judgement.card)!r} by {self._seat_name(seat)}: "
            f"{suit.colour} was led and the hand holds {suit.colour} "
            f"({' '.join(map(str, judgement.followers))}); follow suit, "
            "or play a Wizard or a Jester",
            judgement,
        )

    def can_play(self, card: Card | str, *, seat: int | None = None) -> bool:
        try:
            self.verify_play(card, seat=seat)
        except WizardRuleError:
            return False
        return True

    def play(self, card: Card | str, *, seat: int | None = None) -> CardPlayed:
        """The seat to act plays ``card`` (``seat``, if given, must be that seat)."""
        # The checks of verify_play, written out with the trick state's tables: a
        # simulated round plays hundreds of cards, and a call less per card shows
        # (tests/rules check that both give the same judgement or error on every card).
        if self.phase is not _PLAYING:
            self._refuse_phase("card", card, "played")
        due = self._to_act if seat is None else self._check_turn(seat, "play")
        assert due is not None
        if not isinstance(card, Card):
            card = self._played_card(card, due)
        hand = self.hands[due]
        state = self._state
        try:
            position = hand.index(card)  # where to take it from, once it proves legal
        except ValueError:
            raise self._refusal(self._judge(card), due) from None
        following = state.followers
        if following.isdisjoint(hand):  # nothing binds the hand
            # The event is a value of the seat, the card and the lead: built once.
            key = (due, card, state)
            event = _FREE_PLAYS.get(key)
            if event is None:
                event = _FREE_PLAYS[key] = _make_card_played(due, card, state.free[card])
        else:
            rule = state.bound[card]
            if rule is _MUST_FOLLOW:
                raise self._refusal(self._judge(card), due)
            followers: list[Card] = []  # a loop, not a comprehension: see legal_plays
            for held in hand:
                if held in following:
                    followers.append(held)
            judgement = _make_judgement(card, rule, state.lead, state.suit, tuple(followers))
            event = _make_card_played(due, card, judgement)
        # The card is legal: from here on, nothing can fail.
        self.events.append(event)
        del hand[position]
        trick = self.current_trick
        trick.append((due, card))
        # Follow the trick card by card: the power of each card (the first card of the
        # highest power takes the trick) and the lead the cards build up.
        power = state.powers[card]
        self._state = state.after[card]
        if power > self._best_power:
            self._best_power, self._winning = power, len(trick) - 1
        if len(trick) < self.players:
            self._to_act = (due + 1) % self.players
        else:
            self._finish_trick()
        return event

    def _finish_trick(self) -> None:
        seats = _SEAT_ORDERS[self.players][self.leader]
        cards = tuple(map(_card_of_play, self.current_trick))
        self.tricks.append(
            _make_trick(len(self.tricks) + 1, self.leader, seats, cards, self.trump, self._winning)
        )
        winner = seats[self._winning]
        self._taken[winner] += 1
        self.current_trick = []
        self.leader = winner
        self._state, self._best_power = self._opening, -1
        if len(self.tricks) == self.cards:
            self.phase = _FINISHED
            self._to_act = None
        else:
            self._to_act = winner

    # -- results ---------------------------------------------------------------------

    def scores(self) -> tuple[int, ...]:
        """Each seat's points for the round (only once the round is finished)."""
        if self.phase is not Phase.FINISHED:
            raise OutOfTurnError(
                f"the round is not finished: {len(self.tricks)} of {self.cards} tricks played"
            )
        # the round's own bids and tricks: whole numbers from 0 by construction
        return tuple(map(points_for, self.bids, self._taken))  # type: ignore[arg-type]

    @property
    def final_bids(self) -> tuple[int, ...]:
        """Every seat's bid, once bidding is over."""
        if None in self.bids:
            raise OutOfTurnError("bidding is not over yet")
        return tuple(self.bids)  # type: ignore[arg-type]  # no bid is None

    # -- views, replay, snapshot -----------------------------------------------------

    def bid_visible(self, bid_of: int, *, to: int | None) -> bool:
        """Whether seat ``to`` (``None``: an onlooker) may see the bid of seat ``bid_of``."""
        if to == bid_of or self.rules.bidding is Bidding.OPEN:
            return True
        if self.rules.bidding is Bidding.HIDDEN:
            return self.phase in (Phase.PLAYING, Phase.FINISHED)
        return self.phase is Phase.FINISHED

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see now."""
        if not is_whole_number(seat) or not 0 <= seat < self.players:
            raise InvalidPlayersError(f"invalid seat {seat!r}: seats are 0 to {self.players - 1}")
        bids = tuple(self.bids)  # open bidding shows every bid; else ask bid_visible
        if self.rules.bidding is not _OPEN:
            bids = tuple(
                bid if self.bid_visible(owner, to=seat) else None for owner, bid in enumerate(bids)
            )
        return _make_seat_view(
            seat=seat,
            players=self.players,
            names=self.names,
            cards=self.cards,
            dealer=self.dealer,
            rules=self.rules,
            phase=self.phase,
            to_act=self._to_act,
            hand=tuple(self.hands[seat]),
            hand_sizes=tuple(map(len, self.hands)),
            turned=self.turned,
            reveal=self.reveal,
            chosen_trump=self.chosen_trump,
            trump=self.trump,
            bids=bids,
            has_bid=tuple([bid is not None for bid in self.bids]),
            current_leader=self.leader if self.phase is _PLAYING else None,
            current_trick=tuple(self.current_trick),
            tricks=tuple(self.tricks),
            taken=self.taken,
            legal_bids=tuple(self.legal_bids(seat)),
            forbidden_bid=self.forbidden_bid_reason() if seat == self._to_act else None,
            legal_plays=tuple(self.legal_plays(seat)),
            judgements=self._judgements(seat),
        )

    def _judgements(self, seat: int) -> tuple[PlayJudgement, ...]:
        """The judgement of each card of ``seat``'s hand, if ``seat`` is to play."""
        if self.phase is not _PLAYING or seat != self._to_act:
            return ()
        hand, state = self.hands[seat], self._state
        followers = followers_in(hand, state.suit)
        return tuple([judge_card(hand, state.lead, state.suit, followers, card) for card in hand])

    @classmethod
    def replay(
        cls,
        events: Iterable[Event],
        *,
        rules: Rules | None = None,
        names: Sequence[str] | None = None,
    ) -> Round:
        """Rebuild a round from its event log (the deal first, then every action).

        The rules and names recorded in the deal are used unless given here.
        """
        log = list(events)
        if not log or not isinstance(log[0], Dealt):
            raise InvalidDealError("an event log starts with the deal (a Dealt event)")
        deal = log[0]
        rnd = cls(
            hands=deal.hands,
            turned=deal.turned,
            dealer=deal.dealer,
            rules=rules if rules is not None else deal.rules,
            names=names if names is not None else (deal.names or None),
        )
        for event in log[1:]:
            if isinstance(event, TrumpChosen):
                rnd.choose_trump(event.suit, seat=event.seat)
            elif isinstance(event, BidMade):
                rnd.bid(event.bid, seat=event.seat)
            elif isinstance(event, CardPlayed):
                rnd.play(event.card, seat=event.seat)
            else:
                raise InvalidDealError(f"a round's log holds one deal, then actions: {event!r}")
        return rnd

    def snapshot(self) -> tuple[object, ...]:
        """Every piece of the round's state, as an immutable value (for comparisons)."""
        return (
            self.rules,
            self.names,
            self.dealer,
            self.reveal,
            self.trump,
            self.phase,
            tuple(tuple(hand) for hand in self.hands),
            tuple(self.bids),
            tuple(self.tricks),
            tuple(self.current_trick),
            self.leader,
            tuple(self.events),
        )

    def __repr__(self) -> str:
        return (
            f"<Round players={self.players} cards={self.cards} dealer={self.dealer} "
            f"trump={self.trump} phase={self.phase.value} to_act={self.to_act}>"
        )

    def _repr_html_(self) -> str:
        from tutor.display.html import round_html

        return round_html(self)


def _shown(card: object) -> object:
    """A card as its notation in messages; anything else (bad input) as given."""
    return str(card) if isinstance(card, Card) else card


_STANDARD = Rules()
# The records of every card and trick, built without the type call (see tutor.rules.records).
_make_bid = record_maker(BidMade)
_make_card_played = record_maker(CardPlayed)
_make_judgement = record_maker(PlayJudgement)
_make_trick = record_maker(Trick)
_make_seat_view = record_maker(SeatView)
_card_of_play = itemgetter(1)  # of a (seat, card) pair
_FREE_PLAYS: dict[tuple[int, Card, TrickState], CardPlayed] = {}
"""The event of each card played from a hand that need not follow, by seat, card and trick
state (at most 6 x 54 x 35): frozen values, shared like the free judgements they hold."""
_SEAT_ORDERS = {
    players: tuple(tuple(seat_order(leader, players)) for leader in range(players))
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}
"""The seats of a trick in play order, by the number of players and the leader."""
# Members named on every card played (and every seat view), as module globals: on Python 3.11 ``Phase.PLAYING``
# goes through the enum's member descriptor, about ten times the cost of a global.
_BIDDING, _PLAYING, _FINISHED = Phase.BIDDING, Phase.PLAYING, Phase.FINISHED
_OPEN, _MUST_FOLLOW = Bidding.OPEN, PlayRule.MUST_FOLLOW
_Deal = tuple[int, tuple[tuple[Card, ...], ...], Card | None]
"""What a deal decides: the dealer's seat, the hands by seat and the turned card."""


def _random_deal(*, players: int, cards: int, dealer: int, rng: random.Random) -> _Deal:
    players = check_players(players)
    _check_cards(cards, players)
    dealer = _check_dealer(dealer, players)
    deck = list(DECK)
    rng.shuffle(deck)
    dealt = players * cards
    # One card at a time, clockwise from the dealer's left: the seat ``offset`` places
    # left of the dealer gets every ``players``-th card from position ``offset - 1``.
    hands: list[tuple[Card, ...]] = [()] * players
    for offset in range(1, players + 1):
        hands[(dealer + offset) % players] = tuple(deck[offset - 1 : dealt : players])
    turned = deck[dealt] if dealt < DECK_SIZE else None
    return dealer, tuple(hands), turned


def _explicit_deal(
    hands: Sequence[str | Iterable[Card | str]],
    turned: Card | str | None,
    *,
    players: int | None,
    cards: int | None,
    dealer: int,
) -> _Deal:
    if isinstance(hands, str):
        raise InvalidDealError(f"hands= is one hand per seat, not a single string {hands!r}")
    parsed = tuple(tuple(parse_cards(hand)) for hand in hands)
    count = check_players(len(parsed))
    if players is not None and players != count:
        raise InvalidDealError(f"players={players!r} but {count} hands were given")
    sizes = {len(hand) for hand in parsed}
    if len(sizes) != 1:
        raise InvalidDealError(
            "every hand must hold the same number of cards, got sizes "
            + ", ".join(str(len(hand)) for hand in parsed)
        )
    size = sizes.pop()
    _check_cards(size, count)
    if cards is not None and cards != size:
        raise InvalidDealError(f"cards={cards!r} but each hand holds {size} cards")
    dealt_all = size * count == DECK_SIZE
    if turned is _NOT_GIVEN:
        if not dealt_all:
            raise InvalidDealError(
                f"give the turned card: {DECK_SIZE - size * count} cards remain in the stock"
            )
        turned = None
    turned_card = None if turned is None else parse_card(turned)
    if turned_card is not None and dealt_all:
        raise InvalidDealError(
            f"turned card {turned_card} is impossible: every card was dealt, nothing is left"
        )
    if turned_card is None and not dealt_all:
        raise InvalidDealError(
            f"turned=None means nothing was left to turn, but {DECK_SIZE - size * count} "
            "cards remain in the stock: give the turned card"
        )
    all_cards = [card for hand in parsed for card in hand]
    if turned_card is not None:
        all_cards.append(turned_card)
    try:
        check_cards_from_one_deck(all_cards, "the deal")
    except InvalidCardError as error:
        raise InvalidDealError(str(error)) from None
    return _check_dealer(dealer, count), parsed, turned_card


def _check_cards(cards: object, players: int) -> int:
    most = DECK_SIZE // players
    if not is_whole_number(cards) or not 1 <= cards <= most:
        raise InvalidDealError(
            f"invalid number of cards {cards!r} for {players} players: "
            f"each round deals 1 to {most} cards to each player (60 cards / {players})"
        )
    return cards


def _check_dealer(dealer: object, players: int) -> int:
    if not is_whole_number(dealer) or not 0 <= dealer < players:
        raise InvalidPlayersError(f"invalid dealer seat {dealer!r}: seats are 0 to {players - 1}")
    return dealer
