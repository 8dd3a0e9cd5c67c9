"""A round told in words: the story of a round from one seat (what the play screen's log
shows), the bids summed up, a finished trick replayed card by card, and a finished round
in plain text.

Everything comes from the engine's data (a seat's :class:`~tutor.rules.round.SeatView`, or
a finished :class:`~tutor.rules.round.Round`) and the catalogs: what the view hides (a
hidden bid) stays hidden, and nothing here plays a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tutor.errors import OutOfTurnError
from tutor.rules.cards import Card
from tutor.rules.round import Phase, Round, SeatView
from tutor.rules.seats import seat_order
from tutor.rules.variants import Bidding
from tutor.teaching.explain import card_name, describe_reveal, describe_score, describe_trick
from tutor.teaching.text import DEFAULT_LANGUAGE, text


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the round's story: who acted (``None``: nobody, e.g. a trick's result)."""

    seat: int | None
    text: str


def round_log(
    view: SeatView,
    *,
    first_seat: int,
    learner: int | None = None,
    round_number: int | None = None,
    round_count: int = 1,
    lang: str = DEFAULT_LANGUAGE,
) -> list[LogEntry]:
    """The round so far as lines, built from ``view`` only: the deal and trump, the bids
    the view shows (a hidden bid says it is hidden), every card played, each trick's winner
    and why, and at the end each seat's score with its formula.

    ``first_seat`` bids first (:attr:`tutor.rules.round.Round.first_seat`); ``learner``'s lines
    say "you"; ``round_number`` (``None``: a single round) heads the story.

    >>> from tutor.rules.variants import Rules
    >>> rnd = Round(hands=["J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10"], turned="R9",
    ...             dealer=3, rules=Rules(bidding="hidden"))
    >>> _ = rnd.bid(1); _ = rnd.bid(2)
    >>> for entry in round_log(rnd.view(0), first_seat=rnd.first_seat, learner=0)[1:]:
    ...     print(entry.seat, entry.text)
    None The red 9 is turned, so red is trump this round (the whole suit, not just that card).
    None Hidden bids: everyone bids secretly, and all the bids are revealed together before the first card.
    0 You bid 1.
    1 B has bid; the bid is hidden.
    """
    names = view.names
    dealer = names[view.dealer]
    if round_number is None:
        heading = text("play-log.round-single", lang, cards=view.cards, dealer=dealer)
    else:
        heading = text(
            "play-log.round-game",
            lang,
            number=round_number,
            count=round_count,
            cards=view.cards,
            dealer=dealer,
        )
    entries = [LogEntry(None, heading)]
    entries.append(LogEntry(None, describe_reveal(view.reveal, None, lang)))
    if view.chosen_trump is not None:
        entries.append(LogEntry(view.dealer, describe_reveal(view.reveal, view.chosen_trump, lang)))
    if view.rules.bidding is Bidding.HIDDEN:
        entries.append(LogEntry(None, text("play-log.hidden-rule", lang)))
    elif view.rules.bidding is Bidding.SECRET:
        entries.append(LogEntry(None, text("play-log.secret-rule", lang)))

    for seat in seat_order(first_seat, view.players):
        if not view.has_bid[seat]:
            continue
        bid = view.bids[seat]
        if seat == learner:
            line = text("play-log.bid-you", lang, bid=bid)
        elif bid is None:
            line = text("play-log.bid-hidden", lang, player=names[seat])
        else:
            line = text("play-log.bid", lang, player=names[seat], bid=bid)
        entries.append(LogEntry(seat, line))
    summary = bids_summary(view, first_seat=first_seat, lang=lang)
    if summary is not None:
        entries.append(LogEntry(None, summary))

    def plays(pairs: Sequence[tuple[int, Card]]) -> list[LogEntry]:
        lines = []
        for position, (seat, card) in enumerate(pairs):
            key = "leads" if position == 0 else "plays"
            if seat == learner:
                key += "-you"
            words = text(f"play-log.{key}", lang, player=names[seat], card=card_name(card, lang))
            lines.append(LogEntry(seat, words))
        return lines

    for trick in view.tricks:
        entries += plays(trick.plays)
        players = [names[seat] for seat in trick.seats]
        entries.append(LogEntry(None, describe_trick(trick.explanation, players, lang)))
    entries += plays(view.current_trick)
    if view.phase is Phase.FINISHED:
        entries.append(LogEntry(None, text("play-log.round-over", lang)))
        for seat, name in enumerate(names):
            bid = view.bids[seat]
            assert bid is not None  # every bid is shown at scoring
            score = describe_score(bid, view.taken[seat], lang)
            entries.append(LogEntry(None, text("play-log.score", lang, player=name, score=score)))
    return entries


def bids_summary(view: SeatView, *, first_seat: int, lang: str = DEFAULT_LANGUAGE) -> str | None:
    """Every bid in bidding order and their total, once the view shows them all
    (``None`` before: a bid not made yet, or hidden by the variant).

    >>> rnd = Round(hands=["J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10"], turned="R9",
    ...             dealer=3)
    >>> for amount in (1, 2, 0, 0):
    ...     _ = rnd.bid(amount)
    >>> bids_summary(rnd.view(2), first_seat=rnd.first_seat)
    'Bids: A 1, B 2, C 0, D 0. Total of the bids: 3; tricks in the round: 3.'
    """
    shown = [bid for bid in view.bids if bid is not None]
    if len(shown) != view.players:
        return None
    items = text("list.separator", lang).join(
        text("play-log.bid-item", lang, player=view.names[seat], bid=view.bids[seat])
        for seat in seat_order(first_seat, view.players)
    )
    return text("play-log.bids", lang, bids=items, total=sum(shown), cards=view.cards)


def since_last_action(entries: Sequence[LogEntry], seat: int) -> list[LogEntry]:
    """The entries from ``seat``'s last action on (all of them if it has not acted).

    >>> log = [LogEntry(None, "deal"), LogEntry(0, "A bids 1."), LogEntry(1, "B bids 0.")]
    >>> [entry.text for entry in since_last_action(log, 0)]
    ['A bids 1.', 'B bids 0.']
    """
    for index in range(len(entries) - 1, -1, -1):
        if entries[index].seat == seat:
            return list(entries[index:])
    return list(entries)


def trick_step_text(
    view: SeatView, number: int, cards_shown: int, *, lang: str = DEFAULT_LANGUAGE
) -> str:
    """Trick ``number`` (1-based) of ``view`` replayed up to card ``cards_shown``: who
    played that card; with every card shown, the winner and why.

    >>> rnd = Round(hands=["J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10"], turned="R9",
    ...             dealer=3)
    >>> for amount in (1, 2, 0, 0):
    ...     _ = rnd.bid(amount)
    >>> for card in "J B5 B11 B7".split():
    ...     _ = rnd.play(card)
    >>> trick_step_text(rnd.view(0), 1, 2)
    'Card 2 of 4: B plays blue 5.'
    >>> trick_step_text(rnd.view(0), 1, 4)
    'All 4 cards are played. C takes the trick with blue 11: nobody played a Wizard or a trump, so the highest blue card wins.'
    """
    if not 1 <= number <= len(view.tricks):
        raise OutOfTurnError(
            f"no finished trick {number!r}: {len(view.tricks)} tricks are finished"
        )
    trick = view.tricks[number - 1]
    size = len(trick.cards)
    if not 1 <= cards_shown <= size:
        raise OutOfTurnError(f"a trick of {size} cards has no card {cards_shown!r}")
    names = view.names
    if cards_shown == size:
        reason = describe_trick(trick.explanation, [names[seat] for seat in trick.seats], lang)
        return text("play-screen.replay-end", lang, size=size, reason=reason)
    seat, card = trick.plays[cards_shown - 1]
    key = "play-log.leads" if cards_shown == 1 else "play-log.plays"
    play = text(key, lang, player=names[seat], card=card_name(card, lang))
    return text("play-screen.replay-step", lang, position=cards_shown, size=size, play=play)


def finished_round_text(rnd: Round, lang: str = DEFAULT_LANGUAGE) -> str:
    """A finished round in plain text: trump, the bids, each trick with its winner and why,
    and each seat's score with its formula.

    >>> rnd = Round(hands=["J R2 G8", "B5 W G3", "B11 R4 J", "B7 R12 G10"], turned="R9",
    ...             dealer=3)
    >>> for amount in (1, 2, 0, 0):
    ...     _ = rnd.bid(amount)
    >>> for card in "J B5 B11 B7 R4 R12 R2 W G3 J G10 G8".split():
    ...     _ = rnd.play(card)
    >>> print(finished_round_text(rnd).splitlines()[2])
    Trick 1: Jester (A), blue 5 (B), blue 11 (C), blue 7 (D). C takes the trick with blue 11: nobody played a Wizard or a trump, so the highest blue card wins.
    >>> finished_round_text(Round(players=3, cards=1, dealer=0, seed=1))
    Traceback (most recent call last):
    ...
    tutor.errors.OutOfTurnError: the round is not over: a round is told once its last card is played
    """
    if not rnd.finished:
        raise OutOfTurnError("the round is not over: a round is told once its last card is played")
    names = rnd.names
    sep = text("list.separator", lang)
    lines = [describe_reveal(rnd.reveal, rnd.chosen_trump, lang)]
    summary = bids_summary(rnd.view(0), first_seat=rnd.first_seat, lang=lang)
    assert summary is not None  # the round is over: every bid is public
    lines.append(summary)
    for trick in rnd.tricks:
        played = sep.join(
            text("play-sample.play", lang, player=names[seat], card=card_name(card, lang))
            for seat, card in trick.plays
        )
        reason = describe_trick(trick.explanation, [names[seat] for seat in trick.seats], lang)
        lines.append(
            text("play-sample.trick", lang, number=trick.number, plays=played, reason=reason)
        )
    lines.append(text("play-sample.results", lang))
    for seat, name in enumerate(names):
        score = describe_score(rnd.final_bids[seat], rnd.taken[seat], lang)
        lines.append(text("play-log.score", lang, player=name, score=score))
    return "\n".join(lines)
