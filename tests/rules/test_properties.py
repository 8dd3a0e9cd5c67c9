"""Property tests (hypothesis) of the engine's API contract: hands and tricks drawn from
one shuffled 60-card deck, any trump."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.errors import InvalidCardError, InvalidTrumpError
from tutor.rules.cards import (
    DECK,
    Card,
    Kind,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
    parse_suit,
)
from tutor.rules.round import Round
from tutor.rules.schedule import GameLength, cards_per_round
from tutor.rules.scoring import round_score
from tutor.rules.trick import (
    Lead,
    PlayRule,
    WinRule,
    explain_trick,
    judge_play,
    lead_of,
    led_suit,
    legal_plays,
    trick_winner,
)
from tutor.rules.trump import parse_trump

TRUMPS = st.sampled_from([*Suit, None])
# Drawing a shuffled deck is slowish on a loaded 2-core machine: no deadline, no too_slow.
PROPERTY_SETTINGS = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def hand_and_trick(draw: st.DrawFn, max_hand: int = 20) -> tuple[list[Card], list[Card]]:
    """A hand and the cards played so far in a trick (0-5), from one deck."""
    deck = draw(st.permutations(DECK))
    played = draw(st.integers(0, 5))
    size = draw(st.integers(0, max_hand))
    return list(deck[played : played + size]), list(deck[:played])


@st.composite
def full_trick(draw: st.DrawFn) -> list[Card]:
    """The 1-6 cards of a trick, from one deck."""
    deck = draw(st.permutations(DECK))
    return list(deck[: draw(st.integers(1, 6))])


def is_subsequence(part: list[Card], whole: list[Card]) -> bool:
    remaining = iter(whole)
    return all(any(card == other for other in remaining) for card in part)


# -- legal plays --------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(hand_and_trick())
def test_legal_plays_never_empty_while_the_hand_is_not(case: tuple[list[Card], list[Card]]) -> None:
    hand, trick = case
    legal = legal_plays(hand, trick)
    assert bool(legal) == bool(hand)
    assert is_subsequence(legal, hand)  # cards of the hand, in hand order


@PROPERTY_SETTINGS
@given(hand_and_trick())
def test_legal_plays_obey_follow_suit(case: tuple[list[Card], list[Card]]) -> None:
    hand, trick = case
    legal = legal_plays(hand, trick)
    suit = led_suit(trick)
    holds_suit = suit is not None and any(c.is_number and c.suit is suit for c in hand)
    for card in hand:
        if not card.is_number or not holds_suit or card.suit is suit:
            assert card in legal  # Wizards/Jesters always, and the led suit or anything
        else:
            assert card not in legal
    if holds_suit:
        assert all(card.suit is suit for card in legal if card.is_number)


@PROPERTY_SETTINGS
@given(hand_and_trick())
def test_judge_play_agrees_with_legal_plays(case: tuple[list[Card], list[Card]]) -> None:
    hand, trick = case
    legal = legal_plays(hand, trick)
    for card in set(hand):
        judgement = judge_play(hand, trick, card)
        assert judgement.legal == (card in legal)
        assert judgement.card == card and judgement.led_suit is led_suit(trick)
        if not trick:
            assert judgement.rule is PlayRule.LEADS
    for card in sorted(set(DECK) - set(hand) - set(trick), key=str)[:3]:
        assert judge_play(hand, trick, card).rule is PlayRule.NOT_IN_HAND


@PROPERTY_SETTINGS
@given(hand_and_trick())
def test_the_led_suit_is_the_first_number_card_unless_a_wizard_came_first(
    case: tuple[list[Card], list[Card]],
) -> None:
    _, trick = case
    lead, suit = lead_of(trick)
    first_special = next((c for c in trick if not c.is_jester), None)
    if not trick:
        assert lead is Lead.NOTHING_PLAYED
    elif first_special is None:
        assert lead is Lead.ONLY_JESTERS and suit is None
    elif first_special.is_wizard:
        assert lead is Lead.WIZARD_FIRST and suit is None
    else:
        assert lead is Lead.SUIT and suit is first_special.suit
    # a later Wizard never changes what the earlier cards set
    if trick.count(parse_card("W")) < 4:
        assert lead_of([*trick, parse_card("W")])[1] is suit


# -- who takes the trick ------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(full_trick(), TRUMPS)
def test_trick_winner_is_an_index_of_the_plays(plays: list[Card], trump: Suit | None) -> None:
    why = explain_trick(plays, trump)
    assert 0 <= trick_winner(plays, trump) == why.winner < len(plays)
    assert why.winner in why.contenders


@PROPERTY_SETTINGS
@given(full_trick(), TRUMPS)
def test_a_trick_with_a_wizard_goes_to_the_first_wizard(
    plays: list[Card], trump: Suit | None
) -> None:
    wizards = [i for i, card in enumerate(plays) if card.is_wizard]
    why = explain_trick(plays, trump)
    if wizards:
        assert (why.rule, why.winner) == (WinRule.FIRST_WIZARD, wizards[0])
    else:
        assert why.rule is not WinRule.FIRST_WIZARD


@PROPERTY_SETTINGS
@given(full_trick(), TRUMPS)
def test_without_wizard_highest_trump_then_highest_led_then_first_jester(
    plays: list[Card], trump: Suit | None
) -> None:
    if any(card.is_wizard for card in plays):
        return
    winner = plays[trick_winner(plays, trump)]
    trumps = [c for c in plays if c.is_number and c.suit is trump]
    suit = led_suit(plays)
    if trumps:
        assert winner.suit is trump and winner.rank == max(c.rank or 0 for c in trumps)
    elif suit is not None:
        led = [c for c in plays if c.suit is suit]
        assert winner.suit is suit and winner.rank == max(c.rank or 0 for c in led)
    else:
        assert all(card.is_jester for card in plays)
        assert trick_winner(plays, trump) == 0


@PROPERTY_SETTINGS
@given(full_trick(), TRUMPS)
def test_a_jester_wins_only_a_trick_of_jesters(plays: list[Card], trump: Suit | None) -> None:
    if plays[trick_winner(plays, trump)].is_jester:
        assert all(card.is_jester for card in plays)


@PROPERTY_SETTINGS
@given(full_trick(), TRUMPS)
def test_a_jester_played_last_never_changes_the_winner(
    plays: list[Card], trump: Suit | None
) -> None:
    if len(plays) == 6 or Counter(plays)[parse_card("J")] == 4:
        return
    assert trick_winner([*plays, parse_card("J")], trump) == trick_winner(plays, trump)


@PROPERTY_SETTINGS
@given(full_trick(), TRUMPS)
def test_a_wizard_played_last_wins_only_if_no_wizard_came_before(
    plays: list[Card], trump: Suit | None
) -> None:
    if len(plays) == 6 or Counter(plays)[parse_card("W")] == 4:
        return
    winner = trick_winner([*plays, parse_card("W")], trump)
    if any(card.is_wizard for card in plays):
        assert winner == trick_winner(plays, trump)
    else:
        assert winner == len(plays)


# -- notation, scoring, schedules, deals --------------------------------------------------


@given(st.sampled_from(DECK))
def test_parse_card_of_str_card_is_the_card(card: Card) -> None:
    assert parse_card(str(card)) == card
    assert parse_card(str(card).lower()) == card


@given(st.integers(0, 20), st.integers(0, 20))
def test_round_score_met_or_missed(bid: int, taken: int) -> None:
    points = round_score(bid, taken)
    if bid == taken:
        assert points == 20 + 10 * taken and points >= 20
    else:
        assert points == -10 * abs(bid - taken) < 0


@given(st.sampled_from([3, 4, 5, 6]), st.sampled_from(list(GameLength)))
def test_no_schedule_deals_more_than_the_deck(players: int, length: GameLength) -> None:
    schedule = cards_per_round(players, length)
    assert all(cards * players <= 60 for cards in schedule)
    assert schedule == sorted(schedule)
    if length is not GameLength.FIVE:
        assert schedule[-1] * players == 60


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 6), st.data())
def test_a_random_deal_comes_from_one_deck(players: int, data: st.DataObject) -> None:
    cards = data.draw(st.integers(1, 60 // players))
    rnd = Round(
        players=players,
        cards=cards,
        dealer=data.draw(st.integers(0, players - 1)),
        seed=data.draw(st.integers(0, 2**32)),
    )
    dealt = Counter(card for hand in rnd.hands for card in hand)
    if rnd.turned is not None:
        dealt[rnd.turned] += 1
    assert dealt <= Counter(DECK)
    assert dealt.total() == min(60, players * cards + 1)


# -- any input: a card of the deck, or a clear refusal naming the value --------------------

ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 16),
    st.floats(),
    st.text(max_size=4),
    st.binary(max_size=3),
    st.sampled_from([*Kind, *Suit, DECK[0], DECK[-1]]),
)
NEAR_CARDS = st.tuples(
    st.sampled_from([*Kind, "N", "W", "J"]),
    st.sampled_from([None, *Suit, "R", "red"]),
    st.one_of(st.none(), st.integers(-1, 14), st.just(True), st.just(9.0)),
)


def refusal_names_a_value(error: InvalidCardError, values: tuple[object, ...]) -> bool:
    return any(repr(value) in str(error) for value in values)


@given(st.one_of(st.tuples(ANYTHING, ANYTHING, ANYTHING), NEAR_CARDS))
def test_the_card_constructor_builds_a_card_of_the_deck_or_refuses(
    args: tuple[object, object, object],
) -> None:
    try:
        card = Card(*args)  # type: ignore[arg-type]
    except InvalidCardError as error:
        assert isinstance(error, ValueError) and refusal_names_a_value(error, args)
        return
    kind, suit, rank = args
    assert card in DECK and (card.kind, card.suit, card.rank) == (kind, suit, rank)
    assert type(kind) is Kind and card.is_wizard == (kind is Kind.WIZARD)


CARDISH_TEXT = st.from_regex(r"\s?[YRGBWJyrgbwjX]?[0-9٩]{0,3}\s?", fullmatch=True)


@given(st.one_of(CARDISH_TEXT, st.text(max_size=6), ANYTHING))
def test_parse_card_reads_exactly_the_notation(text: object) -> None:
    try:
        card = parse_card(text)  # type: ignore[arg-type]
    except InvalidCardError as error:
        assert refusal_names_a_value(error, (text,))
        return
    if isinstance(text, Card):
        assert card is text
        return
    assert isinstance(text, str) and card in DECK
    assert str(card) == text.strip().upper()  # no other spelling: no "R09", no "R٩"


@given(st.one_of(st.lists(CARDISH_TEXT, max_size=5).map(" , ".join), st.text(max_size=12)))
def test_parse_cards_reads_each_card_or_refuses_naming_it(text: str) -> None:
    try:
        cards = parse_cards(text)
    except InvalidCardError as error:
        tokens = text.replace(",", " ").split()
        assert refusal_names_a_value(error, tuple(tokens))
        return
    assert parse_cards(format_cards(cards)) == cards
    assert all(card in DECK for card in cards)


@given(st.one_of(st.text(max_size=8), ANYTHING))
def test_parse_suit_and_parse_trump_read_a_suit_or_refuse(value: object) -> None:
    try:
        suit = parse_suit(value)  # type: ignore[arg-type]
    except InvalidCardError as error:
        assert refusal_names_a_value(error, (value,))
    else:
        assert suit in Suit and parse_trump(suit) is suit
    try:
        trump = parse_trump(value)  # type: ignore[arg-type]
    except InvalidTrumpError as error:
        assert refusal_names_a_value(error, (value,))
    else:
        assert trump is None or trump in Suit
