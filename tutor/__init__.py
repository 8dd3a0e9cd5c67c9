"""Wizard rules tutor: an exact rules engine for the card game Wizard, and a course on it.

The package is in layers, each importing only those below it:

- :mod:`tutor.rules`: the rules engine (cards, trump, trick, seats, scoring, schedule,
  variants, round, game), knowing no screen and no words; its errors are
  :mod:`tutor.errors`;
- :mod:`tutor.teaching`: the engine's reasons in words, lessons, quizzes, practice;
- :mod:`tutor.play`: bots, the fast simulator, the bidding coach, a game against bots;
- :mod:`tutor.display`: SVG cards, HTML and ipywidgets (the only layer that imports them);
- on top, the command line (:mod:`tutor.cli`).

This module is the public API of the README: the rules engine, and the engine's reasons
in words (:func:`describe_trick` and friends, from :mod:`tutor.teaching.explain`).

>>> from tutor import trick_winner, legal_plays
>>> trick_winner("J B5 B11 B7", trump="R")
2
>>> legal_plays("B7 R12 G10 W", "J B5")
[Card.parse('B7'), Card.parse('W')]
"""

from __future__ import annotations

import importlib
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

from tutor.errors import (
    IllegalActionError,
    IllegalBidError,
    IllegalPlayError,
    IllegalTrumpChoiceError,
    InvalidCardError,
    InvalidDealError,
    InvalidPlayersError,
    InvalidRulesError,
    InvalidScoreError,
    InvalidTrumpError,
    OutOfTurnError,
    UnknownVariantError,
    WizardRuleError,
)
from tutor.rules.cards import (
    DECK,
    Card,
    Kind,
    Suit,
    format_cards,
    full_deck,
    parse_card,
    parse_cards,
)
from tutor.rules.game import Game
from tutor.rules.round import BidMade, CardPlayed, Dealt, Phase, Round, SeatView, Trick, TrumpChosen
from tutor.rules.schedule import GameLength, cards_per_round
from tutor.rules.scoring import ScoreRow, ScoreSheet, round_score
from tutor.rules.trick import (
    Lead,
    PlayJudgement,
    PlayRule,
    TrickExplanation,
    WinRule,
    explain_trick,
    judge_play,
    lead_of,
    led_suit,
    legal_plays,
    trick_winner,
)
from tutor.rules.trump import RevealRule, TrumpReveal, parse_trump, reveal_trump
from tutor.rules.variants import PRESETS, Bidding, Rules, variant_names

if TYPE_CHECKING:
    from tutor.teaching.explain import (
        card_name,
        describe_play,
        describe_reveal,
        describe_score,
        describe_trick,
    )

# The engine's reasons in words belong to the teaching layer. They are imported on first
# use (PEP 562), so that importing the engine (`import tutor.rules.round`, which runs this
# file first) loads no teaching module: the rules layer stays below all the others.
_TEACHING_NAMES = dict.fromkeys(
    ("card_name", "describe_play", "describe_reveal", "describe_score", "describe_trick"),
    "tutor.teaching.explain",
)

try:
    __version__ = version("wizard-tutor")  # one source of truth: pyproject.toml
except PackageNotFoundError:  # the package used from a checkout without installing it
    __version__ = "0+unknown"

__all__ = [
    "DECK",
    "PRESETS",
    "BidMade",
    "Bidding",
    "Card",
    "CardPlayed",
    "Dealt",
    "Game",
    "GameLength",
    "IllegalActionError",
    "IllegalBidError",
    "IllegalPlayError",
    "IllegalTrumpChoiceError",
    "InvalidCardError",
    "InvalidDealError",
    "InvalidPlayersError",
    "InvalidRulesError",
    "InvalidScoreError",
    "InvalidTrumpError",
    "Kind",
    "Lead",
    "OutOfTurnError",
    "Phase",
    "PlayJudgement",
    "PlayRule",
    "RevealRule",
    "Round",
    "Rules",
    "ScoreRow",
    "ScoreSheet",
    "SeatView",
    "Suit",
    "Trick",
    "TrickExplanation",
    "TrumpChosen",
    "TrumpReveal",
    "UnknownVariantError",
    "WinRule",
    "WizardRuleError",
    "card_name",
    "cards_per_round",
    "describe_play",
    "describe_reveal",
    "describe_score",
    "describe_trick",
    "explain_trick",
    "format_cards",
    "full_deck",
    "judge_play",
    "lead_of",
    "led_suit",
    "legal_plays",
    "parse_card",
    "parse_cards",
    "parse_trump",
    "reveal_trump",
    "round_score",
    "trick_winner",
    "variant_names",
]


def __getattr__(name: str) -> object:
    if name not in _TEACHING_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_TEACHING_NAMES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_TEACHING_NAMES})
