"""Quiz questions graded by the engine: the names lessons, practice and the widgets use.

What every question is (the :class:`Question` protocol, :class:`Feedback`, :class:`Scene`,
:class:`Topic`, reading a number answer) is in :mod:`tutor.teaching.question`; each kind of
question (its class, its grading and how a lesson states it) has its own module in
:mod:`tutor.teaching.kinds`. This module gathers the questions about playing the cards (who
takes the trick, legal plays, score, trump); :mod:`tutor.teaching.round_quiz` gathers those
about setting up a round (schedule, dealer, bidding order, legal bids, bid visibility).
It also gathers the questions about a round played through (who leads the next trick, who
takes a trick of a short round, whose bid is met) and a game's score sheet (a total, the
winners).

>>> q = TrickWinnerQuestion.of("J B5 B11 B7", trump="R", players="ABCD")
>>> q.correct_answer(), q.answer_kind
(2, <AnswerKind.ONE_CHOICE: 'one-choice'>)
"""

from tutor.teaching.kinds.bids_met import NOBODY, BidsMetQuestion
from tutor.teaching.kinds.game_winners import GameWinnersQuestion
from tutor.teaching.kinds.legal_plays import LegalPlaysQuestion
from tutor.teaching.kinds.next_leader import NextLeaderQuestion
from tutor.teaching.kinds.round_tricks import RoundTricksQuestion, ShortRound
from tutor.teaching.kinds.score import ScoreQuestion
from tutor.teaching.kinds.score_total import ScoreTotalQuestion
from tutor.teaching.kinds.trick_winner import TrickWinnerQuestion
from tutor.teaching.kinds.trump import DEALER_CHOOSES, TrumpAnswer, TrumpQuestion
from tutor.teaching.kinds.trump_choice import TrumpChoiceQuestion
from tutor.teaching.question import (
    MAX_NUMBER_DIGITS,
    AnswerKind,
    Feedback,
    Question,
    Scene,
    Topic,
    feedback_for,
    length_name,
    read_number,
    revealed,
    trump_sentence,
)

__all__ = [
    "DEALER_CHOOSES",
    "MAX_NUMBER_DIGITS",
    "NOBODY",
    "AnswerKind",
    "BidsMetQuestion",
    "Feedback",
    "GameWinnersQuestion",
    "LegalPlaysQuestion",
    "NextLeaderQuestion",
    "Question",
    "RoundTricksQuestion",
    "Scene",
    "ScoreQuestion",
    "ScoreTotalQuestion",
    "ShortRound",
    "Topic",
    "TrickWinnerQuestion",
    "TrumpAnswer",
    "TrumpChoiceQuestion",
    "TrumpQuestion",
    "feedback_for",
    "length_name",
    "read_number",
    "revealed",
    "trump_sentence",
]
