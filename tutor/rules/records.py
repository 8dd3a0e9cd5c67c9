"""Frozen records, built quickly: the judgement and the event of every card played.

A round records a judgement and an event for each card played, and a trick with its
explanation for each trick: frozen dataclasses, values that nobody can change after the
fact. A frozen dataclass's generated ``__init__`` stores each field through
``object.__setattr__`` (it must step around the class's own ``__setattr__``, which
refuses): a global lookup, an attribute lookup and a call per field, which made up a
fifth of a random playout's time. :func:`quick_init` gives such a class an ``__init__``
that hands each value straight to its slot's descriptor, which is where
``object.__setattr__`` ends up: the same object with the same fields, about twice as fast
to build. Nothing else about the class changes (it stays frozen; ``==``, ``hash`` and
``repr`` are the dataclass's).

The round builds its records per card through :func:`record_maker`: the same body as a
function of its own, which spares the type call (``cls(...)`` creates the object, then
looks ``__init__`` up and calls it) another third of the time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

Record = TypeVar("Record", bound=type)
Built = TypeVar("Built")
_MAKERS: dict[type, Callable[..., Any]] = {}


def quick_init(cls: Record) -> Record:
    """Give the frozen, slotted dataclass ``cls`` a faster ``__init__`` (see above).

    Only for fields without defaults, set by the constructor (the records of a round):
    anything else keeps its generated ``__init__``, so this refuses it.

    >>> from dataclasses import FrozenInstanceError, dataclass
    >>> @quick_init
    ... @dataclass(frozen=True, slots=True)
    ... class Point:
    ...     x: int
    ...     y: int
    >>> point = Point(1, y=2)
    >>> point, point == Point(1, 2)
    (Point(x=1, y=2), True)
    >>> try:
    ...     point.x = 3
    ... except FrozenInstanceError:
    ...     print("frozen")
    frozen
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"quick_init takes a frozen dataclass with slots, not {cls!r}")
    fields = dataclasses.fields(cls)
    for field in fields:
        if (
            not field.init
            or field.default is not dataclasses.MISSING
            or field.default_factory is not dataclasses.MISSING
        ):
            raise TypeError(f"quick_init: {cls.__name__}.{field.name} has a default")
    names = [field.name for field in fields]
    # Each slot's descriptor, bound once: calling its __set__ fills the slot.
    namespace: dict[str, Any] = {f"_set_{name}": cls.__dict__[name].__set__ for name in names}
    namespace.update(_new=object.__new__, _cls=cls)
    arguments = ", ".join(names)
    body = "".join(f"\n    _set_{name}(self, {name})" for name in names)
    # as dataclasses does, the functions are written out and compiled
    exec(f"def __init__(self, {arguments}):{body}", namespace)
    exec(f"def make({arguments}):\n    self = _new(_cls){body}\n    return self", namespace)
    init, make = namespace["__init__"], namespace["make"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    make.__qualname__ = make.__name__ = f"make_{cls.__name__}"
    cls.__init__ = init  # type: ignore[misc]
    _MAKERS[cls] = make
    return cls


def record_maker(cls: type[Built]) -> Callable[..., Built]:
    """A function building a record of ``cls`` (a class given :func:`quick_init`) from
    its fields in order: ``make(*fields)`` is ``cls(*fields)``, without the type call.

    >>> from dataclasses import dataclass
    >>> @quick_init
    ... @dataclass(frozen=True, slots=True)
    ... class Point:
    ...     x: int
    ...     y: int
    >>> make_point = record_maker(Point)
    >>> make_point(1, 2), make_point(1, 2) == Point(1, 2)
    (Point(x=1, y=2), True)
    """
    try:
        return _MAKERS[cls]
    except KeyError:
        raise TypeError(f"record_maker takes a class given quick_init, not {cls!r}") from None
