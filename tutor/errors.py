"""The errors the rules engine raises.

Every rejected input or action raises a subclass of :class:`WizardRuleError`, itself a
:class:`ValueError`, whose message quotes the offending value and names the rule it
breaks. A rejected action never changes any state.
"""

# Why here and not in tutor/rules/: `tutor.errors.InvalidCardError` is the name a Python
# user reads in a traceback and the README's examples print, so it is public API. This module is a
# leaf (it imports nothing) that every layer uses: the engine raises these errors, and the
# layers above raise and catch them too. Defining them here keeps each class's `__module__`
# its true home, where a re-export from tutor/rules/errors.py would need `__module__`
# rewritten (as NumPy's set_module does) for tracebacks, pickling and `inspect` to agree.

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the annotation only: the engine's judgement of a refused card
    from tutor.rules.trick import PlayJudgement


class WizardRuleError(ValueError):
    """Base class of every error the engine raises for bad input or an illegal action."""


class InvalidCardError(WizardRuleError):
    """Card notation that names no card of the 60-card deck, or an impossible set of cards."""


class InvalidTrumpError(WizardRuleError):
    """A trump that is neither a suit, a suit letter, nor ``None`` for no trump."""


class InvalidPlayersError(WizardRuleError):
    """A player count outside 3-6, or a seat number that does not exist."""


class InvalidDealError(WizardRuleError):
    """An explicit deal that cannot come from one 60-card deck."""


class InvalidScoreError(WizardRuleError):
    """A bid or trick count that cannot be scored (negative, or not a whole number)."""


class InvalidRulesError(WizardRuleError):
    """A variant setting that does not exist, or a combination that cannot be played."""


class UnknownVariantError(InvalidRulesError):
    """A variant preset or game length looked up by a name that does not exist."""


class IllegalActionError(WizardRuleError):
    """An action the round does not allow now (base of the action errors)."""


class OutOfTurnError(IllegalActionError):
    """An action by a seat whose turn it is not, or in the wrong phase of the round."""


class IllegalBidError(IllegalActionError):
    """A bid out of range, or forbidden by the plus/minus-one variant."""


class IllegalTrumpChoiceError(IllegalActionError):
    """A trump choice when none is due, or a choice that is not one of the four suits."""


class IllegalPlayError(IllegalActionError):
    """A card not in the hand, or a card that breaks the follow-suit rule.

    ``judgement`` is the engine's judgement of the refused card (the rule that refuses it),
    so a caller tells why without judging the card again; ``None`` when the card itself
    could not be read.
    """

    def __init__(self, message: str, judgement: PlayJudgement | None = None) -> None:
        super().__init__(message)
        self.judgement = judgement
