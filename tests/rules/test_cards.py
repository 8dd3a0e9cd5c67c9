"""RULES.md "Cards": the 60-card deck, the notation, Wizards and Jesters without suit."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections import Counter

import pytest

from tutor.errors import InvalidCardError
from tutor.rules.cards import (
    DECK,
    Card,
    Kind,
    Suit,
    check_cards_from_one_deck,
    format_cards,
    full_deck,
    parse_card,
    parse_cards,
    parse_suit,
)
from tutor.rules.trick import trick_winner


def test_deck_has_60_cards_four_suits_of_13_four_wizards_four_jesters() -> None:
    counts = Counter(DECK)
    assert len(DECK) == 60
    assert counts[Card.wizard()] == 4
    assert counts[Card.jester()] == 4
    for suit in Suit:
        ranks = sorted(card.rank or 0 for card in DECK if card.suit is suit)
        assert ranks == list(range(1, 14))
    assert full_deck() == DECK


def test_each_number_card_exists_once() -> None:
    numbers = [card for card in DECK if card.is_number]
    assert len(numbers) == 52 == len(set(numbers))


def test_suits_are_yellow_red_green_blue_by_letter() -> None:
    assert [suit.value for suit in Suit] == ["Y", "R", "G", "B"]
    assert [suit.colour for suit in Suit] == ["yellow", "red", "green", "blue"]
    assert parse_suit("b") is Suit.BLUE
    assert parse_suit("red") is Suit.RED


def test_wizards_and_jesters_have_no_suit_and_no_rank() -> None:
    for card in (parse_card("W"), parse_card("J")):
        assert card.suit is None and card.rank is None and not card.is_number
    assert parse_card("W").kind is Kind.WIZARD and parse_card("W").is_wizard
    assert parse_card("J").kind is Kind.JESTER and parse_card("J").is_jester


def test_a_hand_can_hold_several_wizards_each_a_separate_card() -> None:
    hand = parse_cards("W W W W")
    assert len(hand) == 4
    check_cards_from_one_deck(hand)  # four Wizards exist: no error


def test_notation_is_suit_letter_and_rank_w_and_j() -> None:
    assert str(parse_card("R9")) == "R9"
    assert str(parse_card("B11")) == "B11"
    assert parse_card("R9") == Card.number(Suit.RED, 9)
    assert (parse_card("R9").suit, parse_card("R9").rank) == (Suit.RED, 9)


def test_every_card_round_trips_through_its_notation_and_repr() -> None:
    for card in DECK:
        assert parse_card(str(card)) == card
        assert eval(repr(card), {"Card": Card}) == card


def test_notation_is_read_case_insensitively_and_trimmed() -> None:
    assert parse_card(" b11 ") == parse_card("B11")
    assert parse_card("w") == Card.wizard()
    assert parse_card("j") == Card.jester()


def test_parse_cards_reads_spaces_commas_and_iterables() -> None:
    assert parse_cards("J,B5 , b11") == [Card.jester(), parse_card("B5"), parse_card("B11")]
    assert parse_cards(["R9", Card.wizard()]) == [parse_card("R9"), Card.wizard()]
    assert parse_cards("") == []
    assert format_cards(parse_cards("j b5  w")) == "J B5 W"


def test_cards_are_values_equal_wizards_hash_alike() -> None:
    assert Card.wizard() == parse_card("W")
    assert len({Card.wizard(), parse_card("W")}) == 1
    assert parse_card("R9") != parse_card("B9")


def test_hand_display_order_wizards_suits_high_to_low_then_jesters() -> None:
    hand = parse_cards("J R2 B11 W R12 Y1")
    assert format_cards(sorted(hand, key=lambda card: card.sort_key)) == "W Y1 R12 R2 B11 J"


# -- the constructor takes exactly a card ---------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("X",), "invalid card kind 'X'"),
        ((None,), "invalid card kind None"),
        (("W",), "use parse_card"),  # the text "W" equals Kind.WIZARD as a str: still refused
        ((Kind.NUMBER, "R", 9), "needs a suit"),
        ((Kind.NUMBER, Suit.RED, True), "invalid rank True"),
        ((Kind.NUMBER, Suit.RED, 9.0), "invalid rank 9.0"),
        ((Kind.NUMBER, None, 9), "needs a suit"),
        ((Kind.WIZARD, Suit.RED), "has no suit and no rank"),
        ((Kind.JESTER, None, 0), "has no suit and no rank"),
    ],
)
def test_the_card_constructor_refuses_what_is_not_a_card(
    args: tuple[object, ...], fragment: str
) -> None:
    with pytest.raises(InvalidCardError) as caught:
        Card(*args)  # type: ignore[arg-type]
    assert fragment in str(caught.value)


def test_a_wizard_is_only_ever_a_real_wizard() -> None:
    # Card("W") used to build a card equal to a Wizard whose is_wizard was False, so the
    # red 5 took the trick from it. Now the only way to a Wizard is a real Wizard.
    assert trick_winner([parse_card("W"), "R5"], "B") == 0
    assert trick_winner([Card(Kind.WIZARD), "R5"], "B") == 0
    assert Card.wizard().is_wizard and not Card.wizard().is_number


def test_each_card_is_one_value_through_copy_and_pickle() -> None:
    for card in set(DECK):
        assert Card(card.kind, card.suit, card.rank) is card
        assert parse_card(str(card)) is card
        assert copy.copy(card) is card and copy.deepcopy(card) is card
        assert pickle.loads(pickle.dumps(card)) is card
        assert dataclasses.replace(card) is card
    assert dataclasses.replace(parse_card("R9"), rank=10) is parse_card("R10")


def test_cards_cannot_be_changed() -> None:
    card = parse_card("R9")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = 10  # type: ignore[misc]
    assert str(parse_card("R9")) == "R9"
