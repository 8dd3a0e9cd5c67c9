"""The play screen's settings: players, variant, seed, a whole game or one round, and the
Start button; folded away while playing, a toggle button (:attr:`PlaySettings.toggle`)
opens them.

The settings draw and forward: what Start does is the play screen's
(:meth:`tutor.display.play.PlayScreen.start`), which asks them for the game they describe
(:meth:`PlaySettings.new_session`).

>>> from tutor.play.session import PlaySession
>>> settings = PlaySettings(PlaySession(players=4, seed=7))
>>> settings.players_input.value, settings.seed_input.value, settings.length_input.value
(4, 7, 'game')
>>> settings.new_session(learner=0).seed == 7  # the seed shown deals new cards
False
>>> settings.seed_input.value = 12
>>> settings.new_session(learner=0).seed  # a seed the learner typed deals that game
12
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from tutor.display.play_style import PLAY_CLASS, action_button
from tutor.display.visibility import set_visible
from tutor.play.session import PlaySession
from tutor.rules.schedule import cards_per_round
from tutor.rules.seats import check_players
from tutor.rules.variants import variant_names
from tutor.teaching.text import DEFAULT_LANGUAGE, text

MAX_SEED = 2**32 - 1
GAME = "game"
ROUND = "round"


def _most_cards(players: int) -> int:
    """The most cards a round deals each player (the standard game's last round)."""
    return max(cards_per_round(players))


class PlaySettings(widgets.VBox):  # type: ignore[misc]
    """The settings of the game to deal, shown as they are for ``session`` (the game on
    the table); ``cards`` is the single round's size, if the screen was given one."""

    def __init__(
        self, session: PlaySession, *, cards: int | None = None, lang: str = DEFAULT_LANGUAGE
    ) -> None:
        super().__init__()
        self.lang = lang
        counts = list(range(3, 7))
        self.players_input = widgets.ToggleButtons(
            options=[(text("play-screen.players-option", lang, count=n), n) for n in counts],
            value=session.players,
            description=text("play-screen.players", lang),
            tooltip=text("play-screen.players-tooltip", lang),
            tooltips=[text("play-screen.players-tooltip", lang)] * len(counts),
            style={"button_width": "3em"},
        )
        names = variant_names()
        chosen = session.variant_names[0] if len(session.variant_names) == 1 else names[0]
        self.variant_input = widgets.Dropdown(
            options=[(text(f"play-variant.{name}", lang), name) for name in names],
            value=chosen if chosen in names else names[0],
            description=text("play-screen.variant", lang),
            tooltip=text("play-screen.variant-tooltip", lang),
        )
        self.seed_input = widgets.BoundedIntText(
            value=session.seed % (MAX_SEED + 1),
            min=0,
            max=MAX_SEED,
            description=text("play-screen.seed", lang),
            tooltip=text("play-screen.seed-tooltip", lang),
            layout=widgets.Layout(width="16em"),
        )
        self.length_input = widgets.ToggleButtons(
            options=[
                (text("play-screen.length-game", lang), GAME),
                (text("play-screen.length-round", lang), ROUND),
            ],
            value=GAME if session.game is not None else ROUND,
            description=text("play-screen.length", lang),
            tooltip=text("play-screen.length-tooltip", lang),
            tooltips=[
                text("play-screen.length-game-tooltip", lang),
                text("play-screen.length-round-tooltip", lang),
            ],
            style={"button_width": "auto"},
        )
        self.cards_input = widgets.BoundedIntText(
            value=min(cards or session.round.cards, _most_cards(session.players)),
            min=1,
            max=_most_cards(session.players),
            description=text("play-screen.cards", lang),
            tooltip=text("play-screen.cards-tooltip", lang),
            layout=widgets.Layout(width="10em"),
        )
        self.start_button = action_button(
            text("play-screen.start", lang), text("play-screen.start-tooltip", lang), primary=True
        )
        self._seed_shown = int(self.seed_input.value)
        self.players_input.observe(self._players_changed, names="value")
        self.length_input.observe(lambda _change: self._show_cards_input(), names="value")
        self._show_cards_input()
        # The settings stay folded away while playing; a toggle button opens them.
        self.toggle = widgets.ToggleButton(
            value=False,
            description=text("play-screen.settings", lang),
            tooltip=text("play-screen.settings-tooltip", lang),
            icon="",
            layout=widgets.Layout(width="auto"),
        )
        self.toggle.observe(lambda _change: self._show_settings(), names="value")
        self.children = [
            self.players_input,
            widgets.HBox([self.variant_input, self.seed_input]),
            widgets.HBox([self.length_input, self.cards_input]),
            widgets.HBox([self.start_button]),
        ]
        self.add_class(f"{PLAY_CLASS}-settings")
        self._show_settings()

    def new_session(self, *, learner: int) -> PlaySession:
        """A new game (or round) with the settings shown, the learner at seat ``learner``
        (or the last seat, if there are fewer players now).

        The seed box shows the seed of the game on the table. A seed the learner typed
        there deals that game (to play one again, or a friend's); left as the screen wrote
        it, the box would deal the very same cards again, so a new seed is drawn instead
        (and shown). "Same deal again" on the result screen is the way to replay a game.
        """
        single = self.length_input.value == ROUND
        seed = int(self.seed_input.value)
        return PlaySession(
            players=check_players(self.players_input.value),
            variant=str(self.variant_input.value),
            seed=seed if seed != self._seed_shown else None,
            cards=int(self.cards_input.value) if single else None,
            learner=min(learner, int(self.players_input.value) - 1),
            lang=self.lang,
        )

    def show_seed(self, seed: int) -> None:
        """Show the seed of the game now on the table."""
        self._seed_shown = seed % (MAX_SEED + 1)
        self.seed_input.value = self._seed_shown

    def fold(self) -> None:
        """Fold the settings away (the toggle shows they can be opened)."""
        self.toggle.value = False

    def _players_changed(self, change: dict[str, Any]) -> None:
        self.cards_input.max = _most_cards(int(change["new"]))

    def _show_settings(self) -> None:
        opened = bool(self.toggle.value)
        key = "settings-open" if opened else "settings"
        self.toggle.description = text(f"play-screen.{key}", self.lang)
        set_visible(self, opened)

    def _show_cards_input(self) -> None:
        set_visible(self.cards_input, self.length_input.value == ROUND)
