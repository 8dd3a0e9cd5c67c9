"""A whole game: the rounds of the chosen length, the dealer rotating clockwise, the score
sheet and the winners."""

from __future__ import annotations

import random
from collections.abc import Sequence

from tutor.errors import InvalidDealError, InvalidPlayersError, OutOfTurnError, WizardRuleError
from tutor.rules.checks import is_whole_number
from tutor.rules.round import Round
from tutor.rules.schedule import cards_per_round
from tutor.rules.scoring import ScoreSheet
from tutor.rules.seats import check_players, default_names
from tutor.rules.variants import Rules


class Game:
    """A game of Wizard. Play each round through :attr:`round`, then :meth:`next_round`.

    >>> game = Game(players=3, rules=Rules.preset("five-rounds"), seed=1)
    >>> game.schedule, game.round.cards, game.round.dealer
    ([1, 2, 3, 4, 5], 1, 0)
    >>> game.next_round()
    Traceback (most recent call last):
    ...
    tutor.errors.OutOfTurnError: round 1 is not finished yet: finish it before dealing the next
    """

    def __init__(
        self,
        *,
        players: int,
        rules: Rules | None = None,
        seed: int | None = None,
        rng: random.Random | None = None,
        first_dealer: int = 0,
        names: Sequence[str] | None = None,
    ) -> None:
        self.players = check_players(players)
        if rules is not None and not isinstance(rules, Rules):
            raise WizardRuleError(f"rules must be a Rules value, not {rules!r}")
        self.rules = rules if rules is not None else Rules()
        if seed is not None and rng is not None:
            raise InvalidDealError("give seed= or rng=, not both")
        if not is_whole_number(first_dealer) or not 0 <= first_dealer < players:
            raise InvalidPlayersError(
                f"invalid dealer seat {first_dealer!r}: seats are 0 to {players - 1}"
            )
        self.names = tuple(names) if names is not None else default_names(players)
        if len(self.names) != players:
            raise InvalidPlayersError(
                f"{len(self.names)} names given for {players} players: {list(self.names)!r}"
            )
        self.first_dealer = first_dealer
        self.schedule = cards_per_round(players, self.rules.length)
        self._rng = rng if rng is not None else random.Random(seed)
        self.rounds: list[Round] = []
        self._deal()

    def _deal(self) -> None:
        number = len(self.rounds)
        self.rounds.append(
            Round(
                players=self.players,
                cards=self.schedule[number],
                dealer=self.dealer_of(number + 1),
                rules=self.rules,
                rng=self._rng,
                names=self.names,
            )
        )

    def dealer_of(self, round_number: int) -> int:
        """The dealer of round ``round_number`` (1-based): one seat clockwise each round."""
        return (self.first_dealer + round_number - 1) % self.players

    @property
    def round(self) -> Round:
        """The round being played (the last one dealt)."""
        return self.rounds[-1]

    @property
    def round_number(self) -> int:
        return len(self.rounds)

    @property
    def finished(self) -> bool:
        return len(self.rounds) == len(self.schedule) and self.round.finished

    def next_round(self) -> Round:
        """Deal the next round once the current one is finished."""
        if not self.round.finished:
            raise OutOfTurnError(
                f"round {self.round_number} is not finished yet: finish it before dealing the next"
            )
        if len(self.rounds) == len(self.schedule):
            raise OutOfTurnError(
                f"the game is over: all {len(self.schedule)} rounds have been played"
            )
        self._deal()
        return self.round

    @property
    def score_sheet(self) -> ScoreSheet:
        """The score sheet of every finished round."""
        sheet = ScoreSheet(players=self.players, names=self.names)
        for rnd in self.rounds:
            if rnd.finished:
                sheet.record(bids=rnd.final_bids, taken=rnd.taken, cards=rnd.cards)
        return sheet

    def winners(self) -> list[int]:
        """The seats with the highest total at the end; ties share the win."""
        if not self.finished:
            raise OutOfTurnError(
                f"the game is not over: round {self.round_number} of {len(self.schedule)}"
            )
        return self.score_sheet.leaders()

    def __repr__(self) -> str:
        return (
            f"<Game players={self.players} round={self.round_number}/{len(self.schedule)} "
            f"totals={self.score_sheet.totals}>"
        )
