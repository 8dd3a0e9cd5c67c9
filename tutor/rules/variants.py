"""The variants as one frozen value, and the named presets.

A :class:`Rules` value says how bids are made (open, hidden, secret), whether the
plus/minus-one restriction applies, and how long a game is. The basic game is
``Rules()``.

Plus/minus one cannot be played with hidden or secret bids: the last bidder would have
to know the others' bids to avoid the forbidden total. The combination is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum

from tutor.errors import InvalidRulesError, UnknownVariantError
from tutor.rules.schedule import GameLength, parse_length


class Bidding(StrEnum):
    """How bids are made and when the others see them."""

    OPEN = "open"
    """Bids are said aloud in turn: everyone sees each bid as it is made."""
    HIDDEN = "hidden"
    """Everyone bids secretly; all bids are revealed together before the first card."""
    SECRET = "secret"
    """Everyone bids secretly; bids stay hidden during play and are shown at scoring."""


def _parse_bidding(value: Bidding | str) -> Bidding:
    if isinstance(value, Bidding):
        return value
    if isinstance(value, str):
        for known in Bidding:
            if value.strip().lower() == known.value:
                return known
    raise InvalidRulesError(
        f"unknown bidding mode: {value!r}; known: "
        + ", ".join(repr(known.value) for known in Bidding)
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """The variant settings of a game. Strings are accepted for the enum fields.

    >>> Rules()
    Rules(bidding=<Bidding.OPEN: 'open'>, plus_minus_one=False, length=<GameLength.STANDARD: 'standard'>)
    >>> Rules(bidding="secret").bidding
    <Bidding.SECRET: 'secret'>
    >>> Rules(bidding="hidden", plus_minus_one=True)
    Traceback (most recent call last):
    ...
    tutor.errors.InvalidRulesError: plus/minus one cannot be combined with hidden bids: the last bidder must see the other bids to know which bid is forbidden
    """

    bidding: Bidding = Bidding.OPEN
    plus_minus_one: bool = False
    length: GameLength = GameLength.STANDARD

    def __post_init__(self) -> None:
        object.__setattr__(self, "bidding", _parse_bidding(self.bidding))
        object.__setattr__(self, "length", parse_length(self.length))
        if not isinstance(self.plus_minus_one, bool):
            raise InvalidRulesError(
                f"plus_minus_one must be True or False, not {self.plus_minus_one!r}"
            )
        if self.plus_minus_one and self.bidding is not Bidding.OPEN:
            raise InvalidRulesError(
                f"plus/minus one cannot be combined with {self.bidding.value} bids: "
                "the last bidder must see the other bids to know which bid is forbidden"
            )

    @classmethod
    def preset(cls, *names: str) -> Rules:
        """The rules of one named preset, or several combined.

        >>> Rules.preset("plus-minus-one", "tournament")
        Rules(bidding=<Bidding.OPEN: 'open'>, plus_minus_one=True, length=<GameLength.TOURNAMENT: 'tournament'>)
        >>> Rules.preset("hidden-bids", "secret-bids")
        Traceback (most recent call last):
        ...
        tutor.errors.InvalidRulesError: variants 'hidden-bids' and 'secret-bids' both set bidding: choose one
        >>> Rules.preset("speed")
        Traceback (most recent call last):
        ...
        tutor.errors.UnknownVariantError: unknown variant: 'speed'; known: 'standard', 'plus-minus-one', 'hidden-bids', 'secret-bids', 'five-rounds', 'tournament'
        """
        settings: dict[str, object] = {}
        set_by: dict[str, str] = {}
        for name in names:
            # a non-string name (even an unhashable one) is simply unknown
            key = (
                name.strip().lower().replace("_", "-").replace(" ", "-")
                if isinstance(name, str)
                else None
            )
            if key not in PRESETS:
                raise UnknownVariantError(
                    f"unknown variant: {name!r}; known: " + ", ".join(map(repr, PRESETS))
                )
            for field in fields(cls):
                value = getattr(PRESETS[key], field.name)
                if value == getattr(_DEFAULT, field.name):
                    continue
                if field.name in settings and settings[field.name] != value:
                    raise InvalidRulesError(
                        f"variants {set_by[field.name]!r} and {name!r} both set "
                        f"{field.name}: choose one"
                    )
                settings[field.name] = value
                set_by[field.name] = name
        return replace(_DEFAULT, **settings)  # type: ignore[arg-type]


_DEFAULT = Rules()

PRESETS: dict[str, Rules] = {
    "standard": _DEFAULT,
    "plus-minus-one": Rules(plus_minus_one=True),
    "hidden-bids": Rules(bidding=Bidding.HIDDEN),
    "secret-bids": Rules(bidding=Bidding.SECRET),
    "five-rounds": Rules(length=GameLength.FIVE),
    "tournament": Rules(length=GameLength.TOURNAMENT),
}
"""The named variants (Board Game Arena's options; the publisher's rules list the first)."""


def variant_names() -> list[str]:
    """The names :meth:`Rules.preset` accepts.

    >>> variant_names()[:2]
    ['standard', 'plus-minus-one']
    """
    return list(PRESETS)
