"""Input checks shared by every layer (one home, so a rule about input reads the same
everywhere)."""

from __future__ import annotations

from typing import TypeGuard


def is_whole_number(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number: an ``int``, but not ``True`` or ``False``
    (``bool`` is a subclass of ``int`` in Python, and a bid of ``True`` is a mistake).

    >>> is_whole_number(3), is_whole_number(True), is_whole_number(3.0)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)
