"""The rules engine on the command line: ``wizard-tutor explain`` (who takes a trick,
and why) and ``wizard-tutor legal`` (which cards of a hand may be played next)."""

from __future__ import annotations

import argparse

from tutor.rules.cards import parse_cards
from tutor.rules.trick import explain_trick, judge_play, led_suit
from tutor.rules.trump import parse_trump
from tutor.teaching.explain import card_name, describe_play, describe_trick


def explain_command(args: argparse.Namespace) -> int:
    cards = parse_cards(args.cards)
    why = explain_trick(cards, parse_trump(args.trump))
    players = [f"Card {i + 1} ({card})" for i, card in enumerate(cards)]
    print(f"Winner: card {why.winner + 1}, {why.winning_card} ({card_name(why.winning_card)})")
    print(describe_trick(why, players))
    return 0


def legal_command(args: argparse.Namespace) -> int:
    hand = parse_cards(args.hand)
    played = parse_cards(args.played)
    judgements = [judge_play(hand, played, card) for card in hand]
    legal = [j.card for j in judgements if j.legal]
    suit = led_suit(played)
    print(f"Led suit: {suit.colour if suit else 'none'}")
    print("Legal: " + (" ".join(map(str, legal)) or "none"))
    for j in judgements:
        print(f"  {j.card}: {describe_play(j)}")
    return 0
