"""Wizard rules tutor: an exact rules engine for the card game Wizard, and a course on it.

The rules layer (cards, trump, trick, scoring, round, game, variants) knows no screen;
the teaching layer (:mod:`tutor.explain`, lessons, quizzes) and the display layer
(:mod:`tutor.display`, widgets) build on it.

>>> from tutor import trick_winner, legal_plays
>>> trick_winner("J B5 B11 B7", trump="R")
2
>>> legal_plays("B7 R12 G10 W", "J B5")
[Card.parse('B7'), Card.parse('W')]
"""

from tutor.cards import DECK, Card, Kind, Suit, format_cards, full_deck, parse_card, parse_cards
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
from tutor.explain import card_name, describe_play, describe_reveal, describe_score, describe_trick
from tutor.game import Game
from tutor.round import BidMade, CardPlayed, Dealt, Phase, Round, SeatView, Trick, TrumpChosen
from tutor.rules import PRESETS, Bidding, Rules, variant_names
from tutor.schedule import GameLength, cards_per_round
from tutor.scoring import ScoreRow, ScoreSheet, round_score
from tutor.trick import (
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
from tutor.trump import RevealRule, TrumpReveal, parse_trump, reveal_trump

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
