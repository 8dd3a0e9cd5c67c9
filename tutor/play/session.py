"""A game against bots, as the play screen runs it: the learner's actions, the bots'
replies, undo, the bidding coach, and the round told in words from the learner's seat
(:mod:`tutor.teaching.narrate`).

The learner sits at one seat; a bot (:mod:`tutor.play.bots`) plays every other seat from
its own view. After each of the learner's actions the bots act until the learner is due
again (:func:`tutor.play.bots.play_bot_turns`). Every action goes through the engine
(:class:`tutor.rules.round.Round`, :class:`tutor.rules.game.Game`): a card the rules
refuse comes back with the engine's judgement and leaves the round as it was. What the
session tells about other seats comes from the learner's
:class:`tutor.rules.round.SeatView`, so a bid the variant hides stays hidden.

The engine has no undo, and needs none: a round's event log replays it exactly, so undo
rebuilds the round from its log cut just before the learner's last card.

>>> session = PlaySession(players=3, variant="five-rounds", seed=4)
>>> session.round_number, session.round_count, session.view().phase.value
(1, 5, 'bidding')
>>> _ = session.bid(0)
>>> before = session.round.snapshot()
>>> card = session.view().legal_plays[0]
>>> outcome = session.play(card)
>>> outcome.accepted, session.undo() == card, session.round.snapshot() == before
(True, True, True)
>>> session.undo()
Traceback (most recent call last):
...
tutor.play.session.NothingToUndoError: nothing to undo: you have played no card in round 1
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tutor.errors import IllegalPlayError, InvalidPlayersError, OutOfTurnError
from tutor.play.bots import Bot, SensibleBot, play_bot_turns, play_round
from tutor.play.coach import DEFAULT_SIMULATIONS, BidAdvice, advise_bid
from tutor.rules.cards import Card, Suit
from tutor.rules.checks import is_whole_number
from tutor.rules.game import Game
from tutor.rules.round import CardPlayed, Event, Phase, Round, SeatView
from tutor.rules.scoring import ScoreSheet
from tutor.rules.seats import check_players, default_names
from tutor.rules.trick import PlayJudgement
from tutor.rules.variants import PRESETS, Rules
from tutor.teaching.explain import describe_play, describe_score
from tutor.teaching.narrate import LogEntry, finished_round_text, round_log, since_last_action
from tutor.teaching.text import DEFAULT_LANGUAGE, join_all, text

VariantLike = str | Sequence[str] | Rules
"""A preset name (``"hidden-bids"``), several names combined, or a :class:`Rules` value."""


class NothingToUndoError(OutOfTurnError):
    """Undo asked for, but the learner has played no card in the current round."""


def rules_of(variant: VariantLike) -> Rules:
    """The rules of ``variant``: a preset name, a list of names, or a Rules value.

    >>> rules_of("secret-bids").bidding.value, rules_of(["hidden-bids", "five-rounds"]).length.value
    ('secret', 'five')
    >>> rules_of("speed")
    Traceback (most recent call last):
    ...
    tutor.errors.UnknownVariantError: unknown variant: 'speed'; known: 'standard', 'plus-minus-one', 'hidden-bids', 'secret-bids', 'five-rounds', 'tournament'
    """
    if isinstance(variant, Rules):
        return variant
    if isinstance(variant, str):
        return Rules.preset(variant)
    return Rules.preset(*variant)


@dataclass(frozen=True, slots=True)
class PlayOutcome:
    """What became of a card the learner tried to play.

    ``judgement`` is the engine's (:meth:`tutor.rules.round.Round.judge`), ``reason`` its words
    (:func:`tutor.teaching.explain.describe_play`); ``bot_events`` the bots' actions that followed
    (none when the card was refused).
    """

    judgement: PlayJudgement
    reason: str
    bot_events: tuple[Event, ...]

    @property
    def accepted(self) -> bool:
        return self.judgement.legal


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's line at the end of a round: bid, tricks taken, points and the formula."""

    seat: int
    name: str
    bid: int
    taken: int
    points: int
    how: str


class PlaySession:
    """The learner at seat ``learner`` against bots, for a whole game or one round.

    ``cards=None`` plays a whole game (:class:`tutor.rules.game.Game`, its length set by the
    variant); ``cards=n`` a single round of ``n`` cards each. ``seed`` deals the same cards
    again (``None``: a fresh seed, kept in :attr:`seed`). The bots default to
    :class:`tutor.play.bots.SensibleBot`, which is deterministic, so after an undo the bots
    answer the same card the same way.

    The learner's name is their seat letter marked "(you)": the engine's sentences name
    players ("A (you) takes the trick ...").

    >>> session = PlaySession(players=4, seed=3, cards=2, learner=2)
    >>> session.names, session.round.cards, session.view().seat
    (('A', 'B', 'C (you)', 'D'), 2, 2)
    >>> PlaySession(players=3, learner=3)
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidPlayersError: invalid learner seat 3: seats are 0 to 2
    """

    def __init__(
        self,
        *,
        players: int = 4,
        variant: VariantLike = "standard",
        seed: int | None = None,
        cards: int | None = None,
        learner: int = 0,
        first_dealer: int = 0,
        bots: Mapping[int, Bot] | None = None,
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        self.players = check_players(players)
        self.rules = rules_of(variant)
        if not is_whole_number(learner) or not 0 <= learner < players:
            raise InvalidPlayersError(
                f"invalid learner seat {learner!r}: seats are 0 to {players - 1}"
            )
        self.learner = learner
        self.lang = lang
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
        self.variant_names = _preset_names(variant, self.rules)
        self.names = tuple(
            text("play-screen.you-name", lang, name=name) if seat == learner else name
            for seat, name in enumerate(default_names(players))
        )
        self.bots = self._check_bots(bots)
        self.game: Game | None = None
        self._single: Round | None = None
        if cards is None:
            self.game = Game(
                players=players,
                rules=self.rules,
                seed=self.seed,
                first_dealer=first_dealer,
                names=self.names,
            )
        else:
            self._single = Round(
                players=players,
                cards=cards,
                dealer=first_dealer,
                rules=self.rules,
                seed=self.seed,
                names=self.names,
            )
        self.last_bot_events: tuple[Event, ...] = self._bots_act()

    def _check_bots(self, bots: Mapping[int, Bot] | None) -> dict[int, Bot]:
        others = [seat for seat in range(self.players) if seat != self.learner]
        if bots is None:
            return {seat: SensibleBot() for seat in others}
        chosen = dict(bots)
        if sorted(chosen) != others:
            raise InvalidPlayersError(
                f"bots given for seats {sorted(chosen)!r}: give one bot for each seat but "
                f"the learner's ({self.learner}), i.e. seats {others!r}"
            )
        return chosen

    # -- where the game stands -----------------------------------------------------------

    @property
    def rounds(self) -> list[Round]:
        """Every round dealt so far (one, for a single round)."""
        if self.game is not None:
            return self.game.rounds
        assert self._single is not None
        return [self._single]

    @property
    def round(self) -> Round:
        """The round being played."""
        return self.rounds[-1]

    @property
    def round_number(self) -> int:
        return len(self.rounds)

    @property
    def round_count(self) -> int:
        """How many rounds the session plays (1 for a single round)."""
        return len(self.game.schedule) if self.game is not None else 1

    @property
    def finished(self) -> bool:
        """Whether the last round is over."""
        return self.game.finished if self.game is not None else self.round.finished

    @property
    def can_deal_next(self) -> bool:
        """Whether the round is over and the game has another one."""
        return self.game is not None and self.round.finished and not self.game.finished

    @property
    def can_undo(self) -> bool:
        return self._last_learner_card() is not None

    def view(self) -> SeatView:
        """What the learner may see now: the only source of what is shown of other seats."""
        return self.round.view(self.learner)

    def again(self, *, same_deal: bool = False) -> PlaySession:
        """A new session like this one (players, rules, a whole game or a round of as many
        cards, the learner's seat, the bots) from its start: a new seed, or with
        ``same_deal`` this one's, which deals the same cards again.

        >>> session = PlaySession(players=3, variant="five-rounds", seed=5)
        >>> rematch = session.again(same_deal=True)
        >>> rematch.seed, rematch.round.hands == session.round.hands, rematch.round_count
        (5, True, 5)
        """
        return PlaySession(
            players=self.players,
            variant=self.rules,
            seed=self.seed if same_deal else None,
            cards=None if self.game is not None else self.round.cards,
            learner=self.learner,
            bots=self.bots,
            lang=self.lang,
        )

    # -- the learner's actions -----------------------------------------------------------

    def choose_trump(self, suit: Suit | str) -> tuple[Event, ...]:
        """The learner deals and a Wizard was turned: choose trump; the bots then act."""
        self._check_learner_turn(Phase.TRUMP_CHOICE, "choose trump")
        self.round.choose_trump(suit, seat=self.learner)
        self.last_bot_events = self._bots_act()
        return self.last_bot_events

    def bid(self, amount: int) -> tuple[Event, ...]:
        """The learner bids (the engine refuses an illegal bid); the bots then act."""
        self._check_learner_turn(Phase.BIDDING, "bid")
        self.round.bid(amount, seat=self.learner)
        self.last_bot_events = self._bots_act()
        return self.last_bot_events

    def play(self, card: Card | str) -> PlayOutcome:
        """The learner tries ``card``. The engine judges it: a refused card changes
        nothing; an allowed one is played, and the bots act until the learner is due.

        >>> session = PlaySession(players=3, seed=0, cards=3, first_dealer=1)
        >>> _ = session.bid(0)
        >>> session.view().current_trick  # C, left of the dealer B, led
        ((2, Card.parse('B9')),)
        >>> outcome = session.play("G8")
        >>> outcome.accepted, outcome.reason
        (False, 'You may not play green 8: blue was led and you hold blue (blue 6). Follow blue, or play a Wizard or a Jester.')
        """
        self._check_learner_turn(Phase.PLAYING, "play")
        try:
            played = self.round.play(card, seat=self.learner)
        except IllegalPlayError as refused:  # the round unchanged; the judgement says why
            if refused.judgement is None:  # not a card at all: nothing to judge
                raise
            judgement = refused.judgement
            return PlayOutcome(judgement, describe_play(judgement, lang=self.lang), ())
        self.last_bot_events = self._bots_act()
        judgement = played.judgement
        return PlayOutcome(
            judgement, describe_play(judgement, lang=self.lang), self.last_bot_events
        )

    def undo(self) -> Card:
        """Take back the learner's last card of this round, and the bots' actions after
        it; return that card. The round is rebuilt from its event log (exact replay)."""
        cut = self._last_learner_card()
        if cut is None:
            raise NothingToUndoError(
                f"nothing to undo: you have played no card in round {self.round_number}"
            )
        rnd = self.round
        event = rnd.events[cut]
        assert isinstance(event, CardPlayed)
        replayed = Round.replay(rnd.events[:cut], rules=rnd.rules, names=rnd.names)
        if self.game is not None:
            self.game.rounds[-1] = replayed  # the game's rng is untouched: it dealt already
        else:
            self._single = replayed
        self.last_bot_events = ()
        return event.card

    def next_round(self) -> Round:
        """Deal the game's next round; the bots act until the learner is due."""
        if self.game is None:
            raise OutOfTurnError("a single round has no next round: start a new session")
        self.game.next_round()
        self.last_bot_events = self._bots_act()
        return self.round

    def advise(
        self, *, simulations: int = DEFAULT_SIMULATIONS, rng: random.Random | None = None
    ) -> BidAdvice:
        """The bidding coach on the learner's view (:func:`tutor.play.coach.advise_bid`). By
        default the random deals follow from :meth:`coach_seed`, so the same game gets the
        same advice."""
        self._check_learner_turn(Phase.BIDDING, "ask the bidding coach")
        if rng is None:
            return advise_bid(self.view(), simulations=simulations, seed=self.coach_seed())
        return advise_bid(self.view(), simulations=simulations, rng=rng)

    def coach_seed(self) -> str:
        """The seed of the coach's random deals in this round: the session's seed and the
        round number (a string seeds ``random.Random`` the same way everywhere)."""
        return f"coach {self.seed} {self.round_number}"

    # -- results -------------------------------------------------------------------------

    def score_sheet(self) -> ScoreSheet:
        """The score sheet of every finished round (the engine's)."""
        if self.game is not None:
            return self.game.score_sheet
        sheet = ScoreSheet(players=self.players, names=self.names)
        if self.round.finished:
            sheet.record(bids=self.round.final_bids, taken=self.round.taken, cards=self.round.cards)
        return sheet

    def winners(self) -> list[int]:
        """The seats with the highest total once everything is played; ties share."""
        if not self.finished:
            raise OutOfTurnError("the game is not over yet")
        return self.score_sheet().leaders()

    def results(self) -> tuple[SeatResult, ...]:
        """Each seat's bid, tricks taken and points once the round is over, with the
        scoring formula in words (:func:`tutor.teaching.explain.describe_score`)."""
        view = self.view()
        if view.phase is not Phase.FINISHED:
            raise OutOfTurnError(
                f"round {self.round_number} is not over: the bids are scored at its end"
            )
        points = self.round.scores()
        rows = []
        for seat, name in enumerate(view.names):
            bid = view.bids[seat]
            assert bid is not None  # every bid is shown at scoring, in every variant
            taken = view.taken[seat]
            rows.append(
                SeatResult(
                    seat, name, bid, taken, points[seat], describe_score(bid, taken, self.lang)
                )
            )
        return tuple(rows)

    def winners_text(self) -> str:
        """Who won the game (or scored most in the single round), in words; ties share
        ("C and D win with 110 points.").

        >>> session = PlaySession(players=3, seed=2, cards=1)
        >>> session.winners_text()
        Traceback (most recent call last):
        ...
        tutor.errors.OutOfTurnError: the game is not over yet
        """
        winners = self.winners()
        total = self.score_sheet().totals[winners[0]]
        players = join_all((self.names[s] for s in winners), self.lang)
        key = "game-over" if self.game is not None else "round-best"
        key += "-one" if len(winners) == 1 else "-many"
        return text(f"play-screen.{key}", self.lang, players=players, total=total)

    def log(self) -> list[LogEntry]:
        """The round so far, told from the learner's seat (:func:`round_log`)."""
        return round_log(
            self.view(),
            first_seat=self.round.first_seat,
            learner=self.learner,
            round_number=self.round_number if self.game is not None else None,
            round_count=self.round_count,
            lang=self.lang,
        )

    def latest(self) -> list[LogEntry]:
        """The log from the learner's last action on: what the bots did since."""
        return since_last_action(self.log(), self.learner)

    # -- helpers -------------------------------------------------------------------------

    def _bots_act(self) -> tuple[Event, ...]:
        return tuple(play_bot_turns(self.round, self.bots))

    def _check_learner_turn(self, phase: Phase, action: str) -> None:
        rnd = self.round
        if rnd.phase is not phase or rnd.to_act != self.learner:
            raise OutOfTurnError(
                f"you cannot {action} now: the round is in the {rnd.phase.value} phase "
                f"and seat {rnd.to_act} is to act"
            )

    def _last_learner_card(self) -> int | None:
        for index in range(len(self.round.events) - 1, 0, -1):
            event = self.round.events[index]
            if isinstance(event, CardPlayed) and event.seat == self.learner:
                return index
        return None

    def __repr__(self) -> str:
        return (
            f"<PlaySession players={self.players} seed={self.seed} learner={self.learner} "
            f"round={self.round_number}/{self.round_count} phase={self.round.phase.value}>"
        )


def _preset_names(variant: VariantLike, rules: Rules) -> tuple[str, ...]:
    if isinstance(variant, str):
        return (variant,)
    if isinstance(variant, Rules):
        return tuple(name for name, preset in PRESETS.items() if preset == rules)[:1]
    return tuple(variant)


def bot_round_text(
    *,
    players: int = 4,
    cards: int = 3,
    seed: int = 1,
    dealer: int = 0,
    lang: str = DEFAULT_LANGUAGE,
) -> str:
    """A round played by sensible bots at every seat (:func:`tutor.play.bots.play_round`), in
    plain text: trump, the bids, each trick with its winner and why, and the scores
    (told by :func:`tutor.teaching.narrate.finished_round_text`).

    >>> print(bot_round_text(players=3, cards=2, seed=3))
    3 bots play one round (cards per player: 2; seed 3); A deals.
    The yellow 11 is turned, so yellow is trump this round (the whole suit, not just that card).
    Bids: B 0, C 1, A 0. Total of the bids: 1; tricks in the round: 2.
    Trick 1: green 3 (B), Wizard (C), red 10 (A). C takes the trick with the Wizard: the first Wizard played always wins.
    Trick 2: red 5 (C), blue 1 (A), red 9 (B). B takes the trick with red 9: nobody played a Wizard or a trump, so the highest red card wins.
    Bids, tricks taken and points:
    A: Bid 0, took 0: bid met, so 20 points.
    B: Bid 0, took 1: 1 off, so −10 × 1 = −10. Tricks taken earn nothing when the bid is missed.
    C: Bid 1, took 1: bid met, so 20 + 10 × 1 = 30.
    """
    rnd = Round(players=players, cards=cards, dealer=dealer, seed=seed)
    play_round(rnd, [SensibleBot() for _ in range(rnd.players)])
    heading = text(
        "play-sample.heading",
        lang,
        players=rnd.players,
        cards=rnd.cards,
        seed=seed,
        dealer=rnd.names[rnd.dealer],
    )
    return heading + "\n" + finished_round_text(rnd, lang)
