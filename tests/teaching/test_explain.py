"""The English sentences of tutor/teaching/explain.py and tutor/teaching/quiz.py: every
reason the engine can give has a sentence, and each sentence says what RULES.md says."""

from __future__ import annotations

import pytest

from tutor.rules.cards import DECK, Suit
from tutor.rules.scoring import round_score
from tutor.rules.trick import (
    PlayRule,
    WinRule,
    explain_trick,
    judge_play,
    legal_plays,
    trick_winner,
)
from tutor.rules.trump import RevealRule, reveal_trump
from tutor.teaching.explain import (
    card_name,
    describe_play,
    describe_reveal,
    describe_score,
    describe_trick,
    suit_name,
)
from tutor.teaching.quiz import (
    DEALER_CHOOSES,
    LegalPlaysQuestion,
    ScoreQuestion,
    Topic,
    TrickWinnerQuestion,
    TrumpQuestion,
)
from tutor.teaching.text import catalog

# -- words for cards ------------------------------------------------------------------------


def test_suits_and_cards_in_words() -> None:
    assert [suit_name(suit) for suit in Suit] == ["yellow", "red", "green", "blue"]
    assert suit_name(None) == "no trump"
    assert card_name("B11") == "blue 11"
    assert card_name("Y1") == "yellow 1"
    assert (card_name("W"), card_name("J")) == ("Wizard", "Jester")
    for card in DECK:  # every card's words name its rank or kind
        words = card_name(card)
        assert str(card.rank) in words if card.is_number else words in ("Wizard", "Jester")


# -- every reason has a sentence ------------------------------------------------------------


def test_catalog_has_a_sentence_for_every_reason() -> None:
    messages = catalog("en")
    assert {rule.value for rule in WinRule} <= set(messages["trick"])
    assert {rule.value for rule in PlayRule} <= set(messages["play"])
    assert {rule.value for rule in PlayRule} <= set(messages["play-you"])
    assert {rule.value for rule in RevealRule} <= set(messages["reveal"])


# -- who takes the trick ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("plays", "trump", "names", "sentence"),
    [
        (
            "J B5 B11 B7",
            "R",
            "ABCD",
            "C takes the trick with blue 11: no Wizard and no trump was played, "
            "so the highest blue card wins.",
        ),
        (
            "R4 R12 R2 W",
            "R",
            "CDAB",
            "B takes the trick with the Wizard: the first Wizard played always wins.",
        ),
        (
            "W R13 W J",
            "R",
            "ABCD",
            "A takes the trick with the first Wizard; later Wizards never beat it.",
        ),
        (
            "B13 R2 R9 B12",
            "R",
            "ABCD",
            "C takes the trick with red 9: no Wizard was played, and it is the highest "
            "trump (red).",
        ),
        (
            "R4 R12 R2",
            "R",
            "ABC",
            "B takes the trick with red 12: no Wizard was played, and it is the highest "
            "card of red, the trump suit that was also led.",
        ),
        (
            "J J J",
            None,
            "ABC",
            "A takes the trick with the first Jester: only Jesters were played, "
            "so the first one wins.",
        ),
    ],
)
def test_describe_trick_says_which_rule_decided(
    plays: str, trump: str | None, names: str, sentence: str
) -> None:
    why = explain_trick(plays, trump)
    assert describe_trick(why, list(names)) == sentence
    assert sentence.startswith(names[why.winner])


def test_describe_trick_names_the_winning_card_by_default() -> None:
    sentence = describe_trick(explain_trick("G5 G11", None))
    assert sentence.startswith("Green 11 takes the trick with green 11")


# -- who may play what --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "plays", "card", "rule", "for_d", "for_you"),
    [
        (
            "B7 R12",
            "",
            "B7",
            PlayRule.LEADS,
            "D leads: the first card of a trick may be anything.",
            "You lead: the first card of a trick may be anything.",
        ),
        (
            "B7 W",
            "B5",
            "W",
            PlayRule.WIZARD_ANY_TIME,
            "D may play the Wizard: a Wizard may be played at any time, "
            "even by a player who could follow.",
            "You may play the Wizard: a Wizard may be played at any time, "
            "even when you could follow.",
        ),
        (
            "B7 J",
            "B5",
            "J",
            PlayRule.JESTER_ANY_TIME,
            "D may play the Jester: a Jester may be played at any time, "
            "even by a player who could follow.",
            "You may play the Jester: a Jester may be played at any time, "
            "even when you could follow.",
        ),
        (
            "B7 R2",
            "J W",
            "R2",
            PlayRule.NO_SUIT_AFTER_WIZARD,
            "No suit to follow: a Wizard came before any number card, so D may play anything.",
            "No suit to follow: a Wizard came before any number card, "
            "so you may play anything.",
        ),
        (
            "B7 R2",
            "J J",
            "R2",
            PlayRule.NO_SUIT_YET,
            "Only Jesters so far, so D may play anything; red 2 sets red as the suit to follow.",
            "Only Jesters so far, so you may play anything; red 2 sets red as the suit "
            "to follow.",
        ),
        (
            "B7 R2",
            "B5",
            "B7",
            PlayRule.FOLLOWS_SUIT,
            "D follows blue with blue 7.",
            "You follow blue with blue 7.",
        ),
        (
            "R2 G3",
            "B5",
            "R2",
            PlayRule.CANNOT_FOLLOW,
            "D holds no blue card, so may play anything: red 2 is fine.",
            "You hold no blue card, so you may play anything: red 2 is fine.",
        ),
        (
            "B7 B2 R12",
            "J B5",
            "R12",
            PlayRule.MUST_FOLLOW,
            "D may not play red 12: blue was led and D holds blue (blue 7, blue 2). "
            "Follow blue, or play a Wizard or a Jester.",
            "You may not play red 12: blue was led and you hold blue (blue 7, blue 2). "
            "Follow blue, or play a Wizard or a Jester.",
        ),
        (
            "B7",
            "B5",
            "G1",
            PlayRule.NOT_IN_HAND,
            "D does not hold green 1.",
            "You do not hold green 1.",
        ),
    ],
)
def test_describe_play_for_a_player_and_for_you(
    hand: str, plays: str, card: str, rule: PlayRule, for_d: str, for_you: str
) -> None:
    judgement = judge_play(hand, plays, card)
    assert judgement.rule is rule
    assert describe_play(judgement, "D") == for_d
    assert describe_play(judgement) == for_you


# -- scores and the trump reveal ------------------------------------------------------------


def test_describe_score_shows_the_formula() -> None:
    assert describe_score(0, 0) == "Bid 0, took 0: bid met, so 20 points."
    assert describe_score(2, 2) == "Bid 2, took 2: bid met, so 20 + 10 × 2 = 40."
    assert describe_score(3, 1) == (
        "Bid 3, took 1: 2 off, so -10 × 2 = -20. Tricks taken earn nothing when the bid "
        "is missed."
    )
    for bid, taken in [(1, 1), (5, 5), (1, 3), (0, 4), (6, 2)]:
        # the sentence ends its formula with the engine's score
        assert f"= {round_score(bid, taken)}." in describe_score(bid, taken)


def test_describe_reveal_for_each_line_of_the_table() -> None:
    assert describe_reveal(reveal_trump("R9")) == (
        "The red 9 is turned, so red is trump this round (the whole suit, not just that card)."
    )
    assert describe_reveal(reveal_trump("J")) == (
        "A Jester is turned, so there is no trump this round."
    )
    assert describe_reveal(reveal_trump("W")) == (
        "A Wizard is turned, so the dealer looks at their hand and chooses the trump suit "
        "(not 'no trump')."
    )
    assert describe_reveal(reveal_trump("W"), Suit.GREEN) == (
        "A Wizard is turned; the dealer chose green as trump."
    )
    assert describe_reveal(reveal_trump(None)) == (
        "Every card was dealt and nothing is left to turn, so there is no trump this round."
    )


# -- quiz questions, graded by the engine ---------------------------------------------------


def test_trick_winner_question_is_graded_by_trick_winner() -> None:
    question = TrickWinnerQuestion.of("J B5 B11 B7", trump="R", players="ABCD")
    assert question.correct_answer() == trick_winner("J B5 B11 B7", "R")
    assert question.prompt() == "Trump: red. Who takes this trick?"
    right = question.check(2)
    assert right.correct and right.as_text() == (
        "Right! The winner is blue 11, played by C. C takes the trick with blue 11: "
        "no Wizard and no trump was played, so the highest blue card wins."
    )
    wrong = question.check(3)
    assert not wrong.correct and wrong.verdict == "Not quite."
    assert wrong.answer == "The winner is blue 11, played by C."


@pytest.mark.parametrize(
    ("plays", "trump", "topic"),
    [
        ("J B5 B11 B7", "R", Topic.JESTER_LEAD),
        ("B6 W B10", None, Topic.WIZARD_AFTER_NUMBER),
        ("B6 R2 B10", "R", Topic.TRUMP_VS_LED),
        ("B6 G2 B10", "R", Topic.TRICK_WINNER),
    ],
)
def test_trick_winner_question_topics(plays: str, trump: str | None, topic: Topic) -> None:
    assert TrickWinnerQuestion.of(plays, trump=trump).topic is topic


def test_legal_plays_question_is_graded_by_legal_plays() -> None:
    question = LegalPlaysQuestion.of(hand="B7 R12 G10 W", plays="J B5", trump="R")
    assert question.correct_answer() == frozenset(legal_plays("B7 R12 G10 W", "J B5"))
    assert question.prompt() == (
        "Trump: red. The trick so far: Jester, blue 5. Which of your cards may you play?"
    )
    assert question.check("B7 W").as_text() == "Right! You may play: blue 7, Wizard."
    missed = question.check(["B7"])
    assert not missed.correct
    assert missed.as_text() == (
        "Not quite. You may play: blue 7, Wizard. You left out Wizard, which may be played. "
        "You may play the Wizard: a Wizard may be played at any time, even when you could "
        "follow."
    )
    lead = LegalPlaysQuestion.of(hand="B7 R12", plays="", trump=None)
    assert lead.prompt() == (
        "Trump: no trump. You lead this trick. Which of your cards may you play?"
    )
    assert lead.topic is Topic.LEGAL_PLAYS


def test_score_question_is_graded_by_round_score() -> None:
    zero = ScoreQuestion(bid=0, taken=0)
    assert zero.topic is Topic.BID_ZERO and zero.correct_answer() == 20
    assert zero.prompt() == (
        "Bid: 0. Tricks taken: 0. How many points does the player score this round?"
    )
    assert zero.check(0).as_text() == (
        "Not quite. The score is 20. Bid 0, took 0: bid met, so 20 points."
    )
    assert ScoreQuestion(bid=1, taken=3).check(-20).correct


@pytest.mark.parametrize(
    ("turned", "answer", "words"),
    [
        ("R9", Suit.RED, "Trump: red."),
        ("J", None, "Trump: no trump."),
        ("W", DEALER_CHOOSES, "The dealer chooses the trump suit."),
        (None, None, "Trump: no trump."),
    ],
)
def test_trump_question_is_graded_by_reveal_trump(
    turned: str | None, answer: object, words: str
) -> None:
    question = TrumpQuestion.of(turned)
    assert question.correct_answer() == answer
    feedback = question.check(answer)
    assert feedback.correct and feedback.answer == words
    assert feedback.explanation == describe_reveal(reveal_trump(turned))
    assert answer in question.choices()


def test_trump_question_after_a_wizard_is_not_a_suit() -> None:
    assert not TrumpQuestion.of("W").check("R").correct
    assert TrumpQuestion.of(None).prompt() == (
        "Every card was dealt, nothing is left to turn. Which suit is trump?"
    )
