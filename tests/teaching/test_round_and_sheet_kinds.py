"""The kinds that ask about a round played through and a game's score sheet: who leads
the next trick, who takes a trick of a short round, whose bid is met, a player's total
and who wins. Each answer is the engine's (the trick winner, Round, ScoreSheet), and a
lesson that states another is refused with the engine's answer and the rule."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest
from lesson_files import lesson_file
from lesson_files import refusal as refusal_of

from tutor.errors import IllegalPlayError, InvalidDealError, WizardRuleError
from tutor.rules.round import Phase, Round
from tutor.rules.scoring import ScoreSheet
from tutor.teaching.lesson import ScoreSheetFact
from tutor.teaching.quiz import (
    NOBODY,
    BidsMetQuestion,
    GameWinnersQuestion,
    NextLeaderQuestion,
    RoundTricksQuestion,
    ScoreTotalQuestion,
    ShortRound,
)

WORKED = ShortRound.of(
    names="ABCD",
    dealer=3,
    turned="R9",
    bids=(1, 2, 0, 0),
    tricks=("J B5 B11 B7", "R4 R12 R2 W", "G3 J G10 G8"),
)
"""RULES.md's worked example: C, B and D take the tricks; every bid is missed."""


def played_at_random(seed: int) -> Round:
    rng = random.Random(seed)
    players = rng.randint(3, 6)
    rnd = Round(players=players, cards=rng.randint(1, 4), dealer=rng.randrange(players), rng=rng)
    if rnd.phase is Phase.TRUMP_CHOICE:
        rnd.choose_trump(rng.choice("YRGB"))
    while rnd.phase is Phase.BIDDING:
        rnd.bid(rng.choice(rnd.legal_bids()))
    while not rnd.finished:
        rnd.play(rng.choice(rnd.legal_plays()))
    return rnd


# -- who leads the next trick --------------------------------------------------------------


def test_the_winner_of_the_worked_examples_tricks_leads_the_next() -> None:
    # trick 1 (A leads): C's blue 11 wins, so C leads trick 2; trick 2 (C leads): B's Wizard.
    first = NextLeaderQuestion.of("J B5 B11 B7", trump="R", players="ABCD", led=0)
    second = NextLeaderQuestion.of("R4 R12 R2 W", trump="R", players="ABCD", led=2)
    assert first.correct_answer() == 2 and second.correct_answer() == 1
    assert second.played_by() == ("C", "D", "A", "B")
    assert second.check(1).correct and not second.check(2).correct
    assert "B leads the next trick" in second.check(2).explanation


def test_the_next_leader_is_the_engines_winner_whoever_led() -> None:
    rng = random.Random(31)
    for _ in range(300):
        rnd = played_at_random(rng.randrange(10**6))
        for trick in rnd.tricks:
            question = NextLeaderQuestion.of(
                trick.cards, trump=rnd.trump, players=rnd.names, led=trick.leader
            )
            assert question.correct_answer() == trick.winner


def test_a_next_leader_trick_needs_one_card_per_player_and_a_real_leader() -> None:
    with pytest.raises(WizardRuleError, match=r"2 cards \('R4 R12'\) for 4 players"):
        NextLeaderQuestion.of("R4 R12", trump="R", players="ABCD")
    with pytest.raises(WizardRuleError, match="invalid leader seat 4"):
        NextLeaderQuestion.of("R4 R12 R2", trump="R", players="ABC", led=4)


# -- a short round played through -----------------------------------------------------------


def test_a_short_round_is_the_engines_round_replayed() -> None:
    for seed in range(200):
        rnd = played_at_random(seed)
        short = ShortRound.from_round(rnd)
        again = short.played()
        assert again.taken == rnd.taken and again.scores() == rnd.scores()
        assert short.winners() == tuple(trick.winner for trick in rnd.tricks)
        # the hands found from the leads are the hands dealt
        dealt = rnd.events[0].hands  # type: ignore[attr-defined]
        assert [sorted(map(str, hand)) for hand in short.hands()] == [
            sorted(map(str, hand)) for hand in dealt
        ]


def test_a_round_with_a_card_its_player_could_not_play_is_refused() -> None:
    # C plays red 2 on blue 5 and later leads blue 9: C held blue and did not follow.
    with pytest.raises(IllegalPlayError, match="blue was led and the hand holds blue"):
        ShortRound.of(
            names="ABC", dealer=2, turned="R9", bids=(0, 0, 0), tricks=("B5 B7 R2", "B9 G1 G2")
        )
    with pytest.raises(InvalidDealError, match="trick 1 has 3 cards, but each of the 4"):
        ShortRound.of(names="ABCD", dealer=3, turned="R9", bids=(0, 0, 0, 0), tricks=("B5 B7 R2",))
    with pytest.raises(WizardRuleError, match="R4"):  # the turned card is in a hand
        ShortRound.of(names="ABC", dealer=0, turned="R4", bids=(0, 0, 0), tricks=("R4 R5 R6",))


def test_who_takes_each_trick_of_the_worked_example() -> None:
    assert [RoundTricksQuestion(WORKED, trick=n).correct_answer() for n in (1, 2, 3)] == [2, 1, 3]
    second = RoundTricksQuestion(WORKED, trick=2)
    assert second.check(1).correct and not second.check(3).correct
    assert second.check(1).explanation == "B leads trick 3."
    assert "Trick 2: C red 4, D red 12, A red 2, B Wizard." in second.prompt()
    assert "Trick 3" not in second.prompt()  # the tricks after the one asked are not shown
    with pytest.raises(InvalidDealError, match="no trick 4"):
        RoundTricksQuestion(WORKED, trick=4)


def test_whose_bid_is_met_nobody_is_a_choice_of_its_own() -> None:
    missed = BidsMetQuestion(WORKED)
    assert missed.correct_answer() == {NOBODY}
    assert missed.check([NOBODY]).correct
    assert not missed.check([NOBODY, 2]).correct and not missed.check([2]).correct
    met = BidsMetQuestion(
        ShortRound.of(
            names="ABCD",
            dealer=3,
            turned="R9",
            bids=(1, 2, 1, 0),
            tricks=("J B5 B11 B7", "R4 R12 R2 W", "G3 J G10 G8"),
        )
    )
    assert met.correct_answer() == {2} and met.check((2,)).correct
    assert met.choice_mark(2) == "bid met" and met.choice_mark(0) == "bid missed"


# -- a score sheet ---------------------------------------------------------------------------

SHEET = ScoreSheetFact(
    names=("A", "B", "C", "D"),
    bids=((0, 1, 0, 0), (1, 1, 0, 0), (1, 2, 0, 0)),
    taken=((0, 1, 0, 0), (1, 0, 1, 0), (0, 1, 1, 1)),
)
"""RULES.md's score sheet, rounds 1 to 3: totals 40, 10, 0, 30."""


def test_a_players_total_is_the_score_sheets() -> None:
    sheet = ScoreSheet(players=4)
    for cards, (bids, taken) in enumerate(zip(SHEET.bids, SHEET.taken, strict=True), start=1):
        sheet.record(bids=bids, taken=taken, cards=cards)
    for seat in range(4):
        question = ScoreTotalQuestion(SHEET, player=seat)
        assert question.correct_answer() == sheet.totals[seat] == (40, 10, 0, 30)[seat]
    assert ScoreTotalQuestion(SHEET, player=2).check(0).answer == (
        "C: round 1 +20, round 2 −10, round 3 −10: a total of 0."
    )


def test_the_highest_total_wins_and_ties_share_the_win() -> None:
    assert GameWinnersQuestion(SHEET).correct_answer() == {0}
    tied = ScoreSheetFact(
        names=("A", "B", "C"), bids=((0, 1, 0), (1, 1, 1)), taken=((0, 1, 0), (1, 0, 1))
    )
    question = GameWinnersQuestion(tied)
    assert question.correct_answer() == {0, 2}
    assert question.check((0, 2)).correct and not question.check((0,)).correct
    assert "share the win" in question.check((0,)).answer


# -- a lesson stating another answer is refused ----------------------------------------------

ROUND = """
players = "A B C D"
dealer = "D"
turned = "R9"
bids = [1, 2, 0, 0]
tricks = ["J B5 B11 B7", "R4 R12 R2 W", "G3 J G10 G8"]
"""

SHEET_KEYS = """
players = "A B C D"
bids = [[0, 1, 0, 0], [1, 1, 0, 0], [1, 2, 0, 0]]
taken = [[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 1]]
"""


def refusal(folder: Path, kind: str, keys: str) -> str:
    body = f'[[quiz]]\nid = "q"\nkind = "{kind}"\n{textwrap.dedent(keys)}'
    refused = refusal_of(lesson_file(folder / "lessons" / "08_x.toml", body))
    return refused.removeprefix("lessons/08_x.toml, quiz item 'q': ")


@pytest.mark.parametrize(
    ("kind", "keys", "message"),
    [
        (
            "next-leader",
            'plays = "R4 R12 R2 W"\ntrump = "R"\nplayers = "A B C D"\nled = "C"\nnext = "C"',
            "states next leader 'C' but the engine says 'B' "
            "(the player who takes the trick leads the next one)",
        ),
        (
            "round-tricks",
            ROUND + "trick = 2\nwinner = 'C'",
            "states winner of trick 2 'C' but the engine says 'B' "
            "(led by C, the winner of the trick before)",
        ),
        (
            "bids-met",
            ROUND + "met = 'B'",
            "states met 'B' but the engine says '' (tricks taken [0, 1, 1, 1], bids "
            "[1, 2, 0, 0]: a bid is met when they are equal)",
        ),
        (
            "score-total",
            SHEET_KEYS + "player = 'B'\ntotal = 20",
            "states total 20 but the engine says 10 (the points of rounds 1 to 3 added up)",
        ),
        (
            "game-winners",
            SHEET_KEYS + "winners = 'A D'",
            "states winners 'A D' but the engine says 'A' "
            "(totals [40, 10, 0, 30]: the highest total wins; ties share the win)",
        ),
        (
            "round-tricks",
            ROUND.replace('"R4 R12 R2 W", "G3 J G10 G8"', '"R4 G10 R2 W", "G3 J R12 G8"')
            + "trick = 1\nwinner = 'C'",
            "illegal play 'G10' by seat 3 (D): red was led and the hand holds red (R12); "
            "follow suit, or play a Wizard or a Jester",
        ),
    ],
)
def test_a_stated_answer_the_engine_disagrees_with_is_refused(
    tmp_path: Path, kind: str, keys: str, message: str
) -> None:
    assert refusal(tmp_path, kind, keys) == message


# -- the deck and the rules themselves, asked ------------------------------------------------


def test_the_deck_count_is_the_engines_deck_not_sixty_four() -> None:
    from tutor.rules.cards import DECK
    from tutor.teaching.round_quiz import DeckCount, DeckCountQuestion

    cards = DeckCountQuestion(DeckCount.CARDS)
    assert cards.correct_answer() == len(DECK) == 60
    assert not cards.check(64).correct
    assert DeckCountQuestion(DeckCount.JESTERS).correct_answer() == sum(c.is_jester for c in DECK)
    assert DeckCountQuestion(DeckCount.RANKS).correct_answer() == 13


@pytest.mark.parametrize(
    ("check", "players", "answer"),
    [
        ("several-wizards-in-a-hand", None, True),
        ("number-beats-wizard", None, False),
        ("jester-beats-number", None, False),
        ("players-allowed", 2, False),
        ("players-allowed", 3, True),
        ("players-allowed", 6, True),
        ("players-allowed", 7, False),
        ("one-trick-per-collection", 4, False),
        ("turned-card-in-a-hand", 3, False),
        ("turned-card-playable", 4, False),
        ("play-before-every-bid", 5, False),
        ("jesters-only-trick", 4, True),
        ("jesters-only-trick", 5, False),
        ("plus-minus-one-hidden-bids", None, False),
        ("plus-minus-one-secret-bids", None, False),
        ("variants-change-during-game", 4, False),
    ],
)
def test_each_rule_check_is_answered_by_its_experiment(
    check: str, players: int | None, answer: bool
) -> None:
    from tutor.teaching.round_quiz import RuleCheckQuestion

    question = RuleCheckQuestion.of(check, players=players)
    assert question.correct_answer() is answer
    assert question.check(answer).correct and not question.check(not answer).correct


def test_a_rule_check_names_a_known_check_with_the_parameters_it_takes() -> None:
    from tutor.teaching.round_quiz import RuleCheckQuestion

    with pytest.raises(WizardRuleError, match="unknown rule check 'seven'; known: several-"):
        RuleCheckQuestion.of("seven")
    with pytest.raises(WizardRuleError, match="needs a number of players"):
        RuleCheckQuestion.of("jesters-only-trick")
    with pytest.raises(WizardRuleError, match="takes no number of players"):
        RuleCheckQuestion.of("plus-minus-one-hidden-bids", players=4)
    with pytest.raises(WizardRuleError, match="invalid number of players 7"):
        RuleCheckQuestion.of("jesters-only-trick", players=7)


def test_the_turned_card_check_counts_cards_not_names() -> None:
    """A Jester turned while a player holds another Jester is not the turned card in a
    hand: the deck has 4 Jesters. (Looking the turned card up in the hands said it was.)"""
    from collections import Counter

    from tutor.rules.cards import parse_cards
    from tutor.teaching.kinds.rule_check import _beside

    assert _beside(Counter(parse_cards("J J J R5")), parse_cards("J")[0])
    assert not _beside(Counter(parse_cards("J J J J R5")), parse_cards("J")[0])
    assert not _beside(Counter(parse_cards("R5 G2")), parse_cards("R5")[0])


@pytest.mark.parametrize(
    ("kind", "keys", "message"),
    [
        (
            "deck-count",
            "count = 'cards'\nanswer = 64",
            "states 64 cards but the engine's deck has 60",
        ),
        (
            "rule-check",
            "check = 'jesters-only-trick'\nplayers = 5\nanswer = true",
            "states answer = true but the engine's check 'jesters-only-trick' says false",
        ),
        (
            "rule-check",
            "check = 'seven'\nanswer = false",
            "unknown rule check 'seven'; known: several-wizards-in-a-hand, number-beats-wizard, "
            "jester-beats-number, players-allowed, one-trick-per-collection, "
            "turned-card-in-a-hand, turned-card-playable, play-before-every-bid, "
            "jesters-only-trick, plus-minus-one-hidden-bids, plus-minus-one-secret-bids, "
            "variants-change-during-game",
        ),
    ],
)
def test_a_wrong_deck_count_or_rule_answer_is_refused(
    tmp_path: Path, kind: str, keys: str, message: str
) -> None:
    assert refusal(tmp_path, kind, keys) == message
