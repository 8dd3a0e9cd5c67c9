"""The command line: ask the engine who takes a trick, or which cards may be played.

    python -m tutor explain "J B5 B11 B7" --trump R
    python -m tutor legal --hand "B7 R12 G10 W" --played "J B5"
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tutor.errors import WizardRuleError
from tutor.rules.cards import parse_cards
from tutor.rules.trick import explain_trick, judge_play, led_suit
from tutor.rules.trump import parse_trump
from tutor.teaching.explain import card_name, describe_play, describe_trick


def _explain(args: argparse.Namespace) -> str:
    cards = parse_cards(args.cards)
    why = explain_trick(cards, parse_trump(args.trump))
    players = [f"Card {i + 1} ({card})" for i, card in enumerate(cards)]
    return (
        f"Winner: card {why.winner + 1}, {why.winning_card} ({card_name(why.winning_card)})\n"
        + describe_trick(why, players)
    )


def _legal(args: argparse.Namespace) -> str:
    hand = parse_cards(args.hand)
    played = parse_cards(args.played)
    judgements = [judge_play(hand, played, card) for card in hand]
    legal = [j.card for j in judgements if j.legal]
    suit = led_suit(played)
    lines = [
        f"Led suit: {suit.colour if suit else 'none'}",
        "Legal: " + (" ".join(map(str, legal)) or "none"),
    ]
    lines += [f"  {j.card}: {describe_play(j)}" for j in judgements]
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tutor", description="Ask the Wizard rules engine."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    explain = commands.add_parser("explain", help="who takes a trick, and why")
    explain.add_argument("cards", help='the cards in play order, e.g. "J B5 B11 B7"')
    explain.add_argument("--trump", default=None, help="trump suit letter Y/R/G/B, or none")
    explain.set_defaults(run=_explain)
    legal = commands.add_parser("legal", help="which cards of a hand may be played next")
    legal.add_argument("--hand", required=True, help='the hand, e.g. "B7 R12 G10 W"')
    legal.add_argument("--played", default="", help='the trick so far, e.g. "J B5"')
    legal.set_defaults(run=_legal)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input).

    >>> main(["explain", "J B5 B11 B7", "--trump", "R"])
    Winner: card 3, B11 (blue 11)
    Card 3 (B11) takes the trick with blue 11: nobody played a Wizard or a trump, so the highest blue card wins.
    0
    """
    args = build_parser().parse_args(argv)
    try:
        print(args.run(args))
    except WizardRuleError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0
