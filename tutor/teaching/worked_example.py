"""The worked example of RULES.md as a list of steps, every fact asked of the engine.

Four players A-D, D deals round 3, the red 9 is turned so red is trump. The deal, the bids
and the cards in the order played are the data of RULES.md; everything said about them
(who had to follow and why, who takes each trick and why, tricks taken, scores, the
three-round score sheet) comes from the engine: the round is played with
:class:`tutor.rules.round.Round`, then its event log is replayed one event at a time, each card
judged by :func:`tutor.rules.trick.judge_play` and put into words by :mod:`tutor.teaching.explain`.

The steps are display-neutral data (cards, seats, sentences); the display layer
(:mod:`tutor.display.stepper`) shows them without knowing any rule.

>>> example = worked_example()
>>> [step.kind.value for step in example.steps][:3]
['deal', 'bids', 'play']
>>> [step.sentences[0] for step in example.steps if step.kind is StepKind.TRICK][0]
'C takes the trick with blue 11: nobody played a Wizard or a trump, so the highest blue card wins.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from tutor.rules.cards import Card, Suit, parse_cards
from tutor.rules.round import BidMade, CardPlayed, Phase, Round
from tutor.rules.scoring import POINTS_PER_TRICK_WHEN_MET, ScoreSheet
from tutor.rules.seats import seat_order
from tutor.rules.trick import PlayJudgement, judge_play
from tutor.teaching.explain import (
    card_name,
    describe_play,
    describe_reveal,
    describe_score,
    describe_trick,
    format_points,
)
from tutor.teaching.text import DEFAULT_LANGUAGE, text

# -- the data of RULES.md ("The worked example (4 players, round 3)") --------------------

PLAYERS = ("A", "B", "C", "D")
"""The seats, clockwise."""
DEALER = 3
"""D deals."""
ROUND_NUMBER = 3
TURNED = "R9"
"""The stock's top card: red is trump (the red 9 stays on the stock)."""
HANDS = ("J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10")
"""Each seat's three cards, A to D."""
BIDS = (1, 2, 0, 0)
"""Each seat's bid, A to D."""
TRICKS = ("J B5 B11 B7", "R4 R12 R2 W", "G3 J G10 G8")
"""The cards of each trick in the order played; the engine says who plays each one."""
EARLIER_ROUNDS: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = (
    ((0, 1, 0, 0), (0, 1, 0, 0)),
    ((1, 1, 0, 0), (1, 0, 1, 0)),
)
"""Rounds 1 and 2 of the same game: (bids, tricks taken) by seat, A to D."""
COMMON_MISTAKES = ((1, 3), (3, 2))
"""The two score-sheet cells where the source article warns of the mistakes learners make
most, as (seat, round): B's round 3 (one trick taken, bid 2: no points for the trick) and
D's round 2 (a bid of 0 met scores 20, not 0). The words and numbers come from the sheet."""


class StepKind(StrEnum):
    """What a step shows."""

    DEAL = "deal"
    """The hands, the dealer and the turned card."""
    BIDS = "bids"
    PLAY = "play"
    """One card played: whether the player had to follow, and why the card is allowed."""
    TRICK = "trick"
    """A complete trick: its winner and the rule that decided it."""
    TAKEN = "taken"
    ROUND_SCORES = "round-scores"
    SCORE_SHEET = "score-sheet"
    MISTAKES = "mistakes"
    """The two scoring mistakes learners make most, on this game's sheet."""


LESSON = "08_worked_example"
"""The lesson whose page shows these steps (notebooks/08_worked_example.ipynb)."""

STEP_RULES: Mapping[StepKind, tuple[str, ...]] = MappingProxyType(
    {
        StepKind.DEAL: (
            "round-deals-its-number",
            "top-card-turned",
            "number-turned-suit-is-trump",
            "left-of-dealer-starts",
        ),
        StepKind.BIDS: ("bidding-order", "any-total-allowed"),
        StepKind.PLAY: (
            "leader-plays-any-card",
            "jester-led-first-number-sets-suit",
            "must-follow-suit",
            "trump-led-must-follow",
            "cannot-follow-play-anything",
            "wizard-jester-any-time",
        ),
        StepKind.TRICK: ("highest-led-suit-wins", "first-wizard-wins", "winner-leads-next"),
        StepKind.TAKEN: ("tricks-equal-cards", "round-is-not-trick"),
        StepKind.ROUND_SCORES: ("bid-missed-loses",),
        StepKind.SCORE_SHEET: ("scores-add-up",),
        StepKind.MISTAKES: ("bid-missed-loses", "bid-zero-met-scores-twenty"),
    }
)
"""The rules the worked example's steps teach, by kind of step (ids of
:mod:`tutor.teaching.rule_map`): lesson 08's part of the rule map (docs/rule-map.md). They
are the rules the steps state in this round: trick 2 goes to the first Wizard, tricks 1
and 3 to the highest card of the led suit, and every bid of round 3 is missed."""


@dataclass(frozen=True, slots=True)
class TablePlay:
    """One card on the table: who played it."""

    seat: int
    player: str
    card: Card


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One player's round score: bid, tricks taken, points and the formula in words."""

    player: str
    bid: int
    taken: int
    points: int
    formula: str


@dataclass(frozen=True, slots=True)
class Step:
    """One screen of the worked example.

    ``hands`` are every seat's cards at this point (for a play step: before the card is
    played, the hand the judgement was made on). ``table`` is the trick on the table and
    ``winner`` the index of its winning card once it is complete. ``had_to_follow`` (play
    steps only) says whether the led suit bound the player.
    """

    number: int
    kind: StepKind
    title: str
    sentences: tuple[str, ...]
    hands: tuple[tuple[Card, ...], ...]
    bids: tuple[int, ...] | None
    taken: tuple[int, ...]
    active_seat: int | None = None
    trick_number: int | None = None
    table: tuple[TablePlay, ...] = ()
    winner: int | None = None
    judgement: PlayJudgement | None = None
    had_to_follow: bool | None = None
    legal: tuple[Card, ...] = ()
    """Play steps: every card the player could have played there (the engine's legal plays)."""
    score_lines: tuple[ScoreLine, ...] = ()
    sheet: ScoreSheet | None = None

    @property
    def played(self) -> TablePlay | None:
        """The card this step plays (play steps), else ``None``."""
        return self.table[-1] if self.kind is StepKind.PLAY else None


@dataclass(frozen=True, slots=True)
class WorkedExample:
    """The whole example: the setting, the finished round, the steps and the score sheet."""

    players: tuple[str, ...]
    dealer: int
    round_number: int
    turned: Card
    trump: Suit | None
    round: Round
    steps: tuple[Step, ...]
    sheet: ScoreSheet


def play_worked_round(names: Sequence[str] = PLAYERS) -> Round:
    """The round of RULES.md played through the engine (with its explicit deal).

    Bids and cards go in as the data says; the engine decides whose turn it is, rejects
    any illegal card, takes the tricks and scores the round.

    >>> rnd = play_worked_round()
    >>> [rnd.names[trick.winner] for trick in rnd.tricks], rnd.taken, rnd.scores()
    (['C', 'B', 'D'], (0, 1, 1, 1), (-10, -10, -10, -10))
    """
    rnd = Round(hands=HANDS, turned=TURNED, dealer=DEALER, names=names)
    while rnd.to_act is not None and rnd.bids[rnd.to_act] is None:
        rnd.bid(BIDS[rnd.to_act], seat=rnd.to_act)
    for card in parse_cards(" ".join(TRICKS)):
        rnd.play(card)
    return rnd


def worked_score_sheet(rnd: Round | None = None) -> ScoreSheet:
    """Rounds 1-2 from RULES.md plus the replayed round 3, scored by the engine.

    >>> worked_score_sheet().totals
    (40, 10, 0, 30)
    """
    rnd = rnd if rnd is not None else play_worked_round()
    sheet = ScoreSheet(players=len(PLAYERS), names=rnd.names)
    for cards, (bids, taken) in enumerate(EARLIER_ROUNDS, start=1):
        sheet.record(bids=bids, taken=taken, cards=cards)
    sheet.record(bids=rnd.final_bids, taken=rnd.taken, cards=rnd.cards)
    return sheet


def _join(items: Sequence[str], lang: str) -> str:
    return text("list.separator", lang).join(items)


def worked_example(lang: str = DEFAULT_LANGUAGE) -> WorkedExample:
    """The worked example as steps: deal, bids, each card, each trick, tricks taken, the
    round's scores and the score sheet over three rounds.

    >>> example = worked_example()
    >>> len(example.steps), example.steps[-1].kind.value, example.sheet.totals
    (21, 'mistakes', (40, 10, 0, 30))
    >>> for sentence in example.steps[-1].sentences:
    ...     print(sentence)
    B bid 2 in round 3 and took 1: 1 off, so −10. Tricks taken earn nothing when the bid is missed: not +10 first, then −10.
    D bid 0 in round 2 and took none: the bid is met, so D scores 20, not 0.
    """
    finished = play_worked_round()
    names = finished.names
    replay = Round(hands=HANDS, turned=TURNED, dealer=DEALER, names=names)
    steps: list[Step] = []

    def hands_now() -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(hand) for hand in replay.hands)

    def bids_now() -> tuple[int, ...] | None:
        if any(bid is None for bid in replay.bids):
            return None
        return replay.final_bids

    def add(
        kind: StepKind,
        title: str,
        sentences: Sequence[str],
        *,
        score_lines: tuple[ScoreLine, ...] = (),
        sheet: ScoreSheet | None = None,
    ) -> None:
        steps.append(
            Step(
                number=len(steps) + 1,
                kind=kind,
                title=title,
                sentences=tuple(sentences),
                hands=hands_now(),
                bids=bids_now(),
                taken=replay.taken,
                score_lines=score_lines,
                sheet=sheet,
            )
        )

    deal = text(
        "worked.deal",
        lang,
        count=replay.players,
        players=_join(names, lang),
        dealer=names[replay.dealer],
        cards=replay.cards,
    )
    first = text("worked.first-seat", lang, player=names[replay.first_seat])
    add(
        StepKind.DEAL,
        text("worked.deal-title", lang, round=ROUND_NUMBER),
        [deal, describe_reveal(replay.reveal, lang=lang), first],
    )

    for event in finished.events[1:]:
        if isinstance(event, BidMade):
            replay.bid(event.bid, seat=event.seat)
            if replay.phase is Phase.PLAYING:  # the last bid: show them all
                steps.append(_bids_step(replay, len(steps) + 1, lang))
            continue
        assert isinstance(event, CardPlayed)
        steps.append(_play_step(replay, event, len(steps) + 1, lang))
        tricks_before = len(replay.tricks)
        replay.play(event.card, seat=event.seat)
        if len(replay.tricks) > tricks_before:
            steps.append(_trick_step(replay, len(steps) + 1, lang))

    taken = replay.taken
    bids = replay.final_bids
    add(
        StepKind.TAKEN,
        text("worked.taken-title", lang, round=ROUND_NUMBER),
        [
            text(
                "worked.taken",
                lang,
                taken=_join(
                    [
                        text("worked.taken-item", lang, player=name, taken=count)
                        for name, count in zip(names, taken, strict=True)
                    ],
                    lang,
                ),
                total=sum(taken),
            )
        ],
    )
    lines = tuple(
        ScoreLine(name, bid, count, points, describe_score(bid, count, lang))
        for name, bid, count, points in zip(names, bids, taken, replay.scores(), strict=True)
    )
    add(
        StepKind.ROUND_SCORES,
        text("worked.scores-title", lang, round=ROUND_NUMBER),
        [],  # the table says it all: bid, taken, points and the formula per player
        score_lines=lines,
    )
    sheet = worked_score_sheet(finished)
    leaders = sheet.leaders()
    leader_key = "worked.leader-one" if len(leaders) == 1 else "worked.leader-many"
    add(
        StepKind.SCORE_SHEET,
        text("worked.sheet-title", lang, round=ROUND_NUMBER),
        [
            text("worked.sheet-intro", lang, count=len(EARLIER_ROUNDS)),
            text(
                leader_key,
                lang,
                players=_join([names[seat] for seat in leaders], lang),
                total=format_points(sheet.totals[leaders[0]]),
            ),
        ],
        score_lines=lines,
        sheet=sheet,
    )
    add(
        StepKind.MISTAKES,
        text("worked.mistakes-title", lang),
        [_mistake_sentence(sheet, seat, number, lang) for seat, number in COMMON_MISTAKES],
        sheet=sheet,
    )
    assert replay.snapshot() == finished.snapshot()  # the replay rebuilt the round exactly
    return WorkedExample(
        players=names,
        dealer=replay.dealer,
        round_number=ROUND_NUMBER,
        turned=Card.parse(TURNED),
        trump=replay.trump,
        round=finished,
        steps=tuple(steps),
        sheet=sheet,
    )


def _mistake_sentence(sheet: ScoreSheet, seat: int, round_number: int, lang: str) -> str:
    """What a player's score in one round is, against the mistake learners make there: the
    tricks of a missed bid counted anyway, or a met bid of 0 scored as nothing."""
    row = sheet.rows[round_number - 1]
    bid, taken, points = row.bids[seat], row.taken[seat], row.points[seat]
    values = {
        "player": sheet.names[seat],
        "round": round_number,
        "bid": bid,
        "taken": taken,
        "off": abs(bid - taken),
        "points": format_points(points),
        "tricks_worth": format_points(POINTS_PER_TRICK_WHEN_MET * taken, signed=True),
    }
    if bid != taken and taken > 0:
        return text("worked.mistake-missed-bid", lang, **values)
    if bid == taken == 0:
        return text("worked.mistake-zero-bid", lang, **values)
    raise ValueError(
        f"round {round_number}, seat {seat}: bid {bid}, took {taken} is neither a missed bid "
        "with tricks taken nor a met bid of 0"
    )


def _bids_step(replay: Round, number: int, lang: str) -> Step:
    """The step showing every bid, in bidding order (from the dealer's left)."""
    names = replay.names
    bids = replay.final_bids
    words = [
        text("worked.bid-item", lang, player=names[seat], bid=bids[seat])
        for seat in seat_order(replay.first_seat, replay.players)
    ]
    return Step(
        number=number,
        kind=StepKind.BIDS,
        title=text("worked.bids-title", lang, round=ROUND_NUMBER),
        sentences=(
            text("worked.bids", lang, bids=_join(words, lang)),
            text("worked.bids-total", lang, total=sum(bids), cards=replay.cards),
        ),
        hands=tuple(tuple(cards) for cards in replay.hands),
        bids=bids,
        taken=replay.taken,
    )


def _trick_step(replay: Round, number: int, lang: str) -> Step:
    """The step of a complete trick: the winner and the rule that decided it."""
    names = replay.names
    trick = replay.tricks[-1]
    follow_up = (
        text("worked.last-trick", lang)
        if replay.finished
        else text("worked.leads-next", lang, player=names[trick.winner])
    )
    return Step(
        number=number,
        kind=StepKind.TRICK,
        title=text("worked.trick-title", lang, trick=trick.number, player=names[trick.winner]),
        sentences=(
            describe_trick(trick.explanation, [names[seat] for seat in trick.seats], lang),
            follow_up,
        ),
        hands=tuple(tuple(cards) for cards in replay.hands),
        bids=replay.final_bids,
        taken=replay.taken,
        active_seat=trick.winner,
        trick_number=trick.number,
        table=tuple(TablePlay(seat, names[seat], card) for seat, card in trick.plays),
        winner=trick.explanation.winner,
    )


def _play_step(replay: Round, event: CardPlayed, number: int, lang: str) -> Step:
    """The step of one card, judged on the hand and trick just before it is played."""
    names = replay.names
    hand = tuple(replay.hands[event.seat])
    on_table = tuple(TablePlay(seat, names[seat], card) for seat, card in replay.current_trick)
    judgement = judge_play(hand, [play.card for play in on_table], event.card)
    player = names[event.seat]
    trick_number = len(replay.tricks) + 1
    return Step(
        number=number,
        kind=StepKind.PLAY,
        title=text(
            "worked.play-title",
            lang,
            trick=trick_number,
            position=len(on_table) + 1,
            size=replay.players,
            player=player,
            card=card_name(event.card, lang),
        ),
        sentences=(
            describe_play(judgement, player, lang, had_to_follow=True),
            describe_play(judgement, player, lang),
        ),
        hands=tuple(tuple(cards) for cards in replay.hands),
        bids=replay.final_bids,
        taken=replay.taken,
        active_seat=event.seat,
        trick_number=trick_number,
        table=(*on_table, TablePlay(event.seat, player, event.card)),
        judgement=judgement,
        had_to_follow=bool(judgement.followers),
        legal=tuple(replay.legal_plays(event.seat)),
    )
