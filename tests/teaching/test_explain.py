"""The English sentences of tutor/teaching/explain.py and tutor/teaching/quiz.py: every
reason the engine can give has a sentence, and each sentence says what RULES.md says."""

from __future__ import annotations

import pytest

from tutor.errors import InvalidDealError
from tutor.rules.cards import DECK, Card, Suit
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
    MINUS,
    card_name,
    describe_play,
    describe_plays,
    describe_reveal,
    describe_score,
    describe_trick,
    format_points,
    suit_name,
)
from tutor.teaching.lesson import ScoreSheetFact
from tutor.teaching.quiz import (
    DEALER_CHOOSES,
    LegalPlaysQuestion,
    ScoreQuestion,
    Topic,
    TrickWinnerQuestion,
    TrumpChoiceQuestion,
    TrumpQuestion,
)
from tutor.teaching.text import LANGUAGES, catalog, text

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
            "C takes the trick with blue 11: nobody played a Wizard or a trump, "
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
            "No suit to follow: a Wizard came before any number card, so you may play anything.",
        ),
        (
            "B7 R2",
            "J J",
            "R2",
            PlayRule.NO_SUIT_YET,
            "Only Jesters so far, so D may play anything; red 2 sets red as the suit to follow.",
            "Only Jesters so far, so you may play anything; red 2 sets red as the suit to follow.",
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
        "Bid 3, took 1: 2 off, so −10 × 2 = −20. Tricks taken earn nothing when the bid is missed."
    )
    for bid, taken in [(1, 1), (5, 5), (1, 3), (0, 4), (6, 2)]:
        # the sentence ends its formula with the engine's score, in the one number format
        assert f"= {format_points(round_score(bid, taken))}." in describe_score(bid, taken)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_score_is_written_with_one_minus_sign_in_every_language(lang: str) -> None:
    """The typographic minus (U+2212) everywhere a learner reads a score, never a hyphen."""
    for bid, taken in [(3, 1), (0, 2), (1, 0)]:
        sentence = describe_score(bid, taken, lang)
        assert "-" not in sentence and sentence.count(MINUS) == 2  # the penalty and the points
    sheet = ScoreSheetFact(names=("A", "B", "C"), bids=((1, 0, 0),), taken=((0, 0, 1),)).as_text(
        lang
    )
    assert "-" not in sheet and f"{MINUS}10" in sheet


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
        "Right! C takes the trick with blue 11: "
        "nobody played a Wizard or a trump, so the highest blue card wins."
    )
    wrong = question.check(3)
    assert not wrong.correct and wrong.verdict == "Not quite."
    # One sentence names the winner and the rule; nothing says it a second time.
    assert wrong.answer == describe_trick(explain_trick("J B5 B11 B7", "R"), "ABCD")
    assert wrong.explanation == ""


def test_a_round_without_trump_is_said_so_once_and_not_as_a_trump() -> None:
    question = TrickWinnerQuestion.of("R7 R2 B13", trump=None, players="ABC")
    assert question.prompt() == "No trump. Who takes this trick?"
    assert (
        question.situation_text()
        == "No trump. Cards in the order played: A red 7, B red 2, C blue 13."
    )
    assert question.check(0).answer == (
        "A takes the trick with red 7: nobody played a Wizard and this round has no trump, "
        "so the highest red card wins."
    )
    for lang, no_trump in (("ja", "切り札なし。"), ("zh-Hant", "沒有王牌。")):
        assert question.prompt(lang).startswith(no_trump)
        assert question.prompt(lang).count(no_trump[:2]) == 1  # not "Trump: no trump."


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
    # a right answer is explained too, card by card (the room's phones show it at the reveal)
    assert question.check("B7 W").as_text() == (
        "Right! You may play: blue 7, Wizard. You follow blue with blue 7. "
        "You may not play red 12 or green 10: blue was led and you hold blue (blue 7). "
        "Follow blue, or play a Wizard or a Jester. "
        "You may play the Wizard: a Wizard may be played at any time, even when you could follow."
    )
    missed = question.check(["B7"])
    assert not missed.correct
    assert missed.as_text() == (
        "Not quite. You may play: blue 7, Wizard. "
        "You may play the Wizard: a Wizard may be played at any time, even when you could "
        "follow."
    )
    lead = LegalPlaysQuestion.of(hand="B7 R12", plays="", trump=None)
    assert lead.prompt() == "No trump. You lead this trick. Which of your cards may you play?"
    assert lead.topic is Topic.LEGAL_PLAYS


def test_score_question_is_graded_by_round_score() -> None:
    zero = ScoreQuestion(bid=0, taken=0)
    assert zero.topic is Topic.BID_ZERO and zero.correct_answer() == 20
    assert zero.prompt() == (
        "Bid: 0. Tricks taken: 0. How many points does the player score this round?"
    )
    assert zero.check(0).as_text() == "Not quite. Bid 0, took 0: bid met, so 20 points."
    assert ScoreQuestion(bid=1, taken=3).check(-20).correct


@pytest.mark.parametrize(
    ("turned", "answer"),
    [("R9", Suit.RED), ("J", None), ("W", DEALER_CHOOSES), (None, None)],
)
def test_trump_question_is_graded_by_reveal_trump(turned: str | None, answer: object) -> None:
    question = TrumpQuestion.of(turned)
    assert question.correct_answer() == answer
    feedback = question.check(answer)
    # The reveal names the turned card and what it makes trump: said once, as the answer.
    assert feedback.correct and feedback.answer == describe_reveal(reveal_trump(turned))
    assert feedback.explanation == "" and question.situation_text() == ""
    assert answer in question.choices()


def test_the_last_round_trump_question_makes_the_learner_count_the_deal() -> None:
    question = TrumpQuestion.of(None, players=4, round=15)
    assert question.correct_answer() is None
    assert "nothing" not in question.prompt()  # the learner works it out
    assert question.check(None).answer.startswith("4 players × 15 cards = 60 cards")
    assert question.scene().turned is None
    with pytest.raises(
        InvalidDealError, match="round 14 of the standard game with 4 players deals 56 of the 60"
    ):
        TrumpQuestion.of(None, players=4, round=14)
    with pytest.raises(InvalidDealError, match="deals every card: nothing is left to turn"):
        TrumpQuestion.of("R9", players=4, round=15)
    # The last round of a five-round game leaves cards: one is turned, and it makes trump.
    five = TrumpQuestion.of("R2", players=6, round=5, length="five")
    assert five.correct_answer() is Suit.RED
    assert five.check(Suit.RED).answer.startswith("6 players × 5 cards = 30 of the 60 cards")
    with pytest.raises(InvalidDealError, match="there is no round 16"):
        TrumpQuestion.of(None, players=4, round=16)
    with pytest.raises(InvalidDealError, match="give both"):
        TrumpQuestion.of(None, players=4)


def test_the_dealer_may_choose_any_suit_but_not_no_trump() -> None:
    question = TrumpChoiceQuestion()
    assert question.correct_answer() == frozenset(Suit)
    assert question.check(list(Suit)).correct
    assert not question.check([*Suit, None]).correct
    assert question.choice_mark(None) == "may not be chosen"
    assert question.scene().turned == Card.parse("W")


def test_trump_question_after_a_wizard_is_not_a_suit() -> None:
    assert not TrumpQuestion.of("W").check("R").correct
    assert TrumpQuestion.of(None).prompt() == (
        "Every card was dealt, nothing is left to turn. Which suit is trump?"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_cards_with_one_reason_share_one_sentence(lang: str) -> None:
    hand = "B7 R12 G10 W W"
    judgements = [judge_play(hand, "B5", card) for card in hand.split()]
    sentences = describe_plays(judgements, lang=lang)
    # follows, must not follow (red 12 and green 10 together), the Wizard (twice in the hand)
    assert len(sentences) == 3
    assert card_name("R12", lang) in sentences[1] and card_name("G10", lang) in sentences[1]
    assert sentences[1].count(card_name("B7", lang)) == 1  # the card to follow with, once
    assert text("list.or", lang) in sentences[1]
    assert len(set(sentences)) == len(sentences)


def test_two_cards_refused_for_one_reason_are_both_refused_in_japanese() -> None:
    """「赤の12か緑の10は出せません」 reads as "one or the other"; it is neither: 「も…も」."""
    hand = "B7 R12 G10"
    judgements = [judge_play(hand, "B5", card) for card in hand.split()]
    refused = describe_plays(judgements, lang="ja")[1]
    assert refused.startswith("赤の12も緑の10も出せません。"), refused
    named = describe_plays(judgements, player="C", lang="ja")[1]
    assert named.startswith("Cは赤の12も緑の10も出せません。"), named
    assert describe_plays(judgements)[1].startswith("You may not play red 12 or green 10:")
