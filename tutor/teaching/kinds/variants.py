"""Whether variants may be played together, a fact (``kind = "variants"``; the fact is
:class:`tutor.teaching.lesson.VariantsFact`)."""

from __future__ import annotations

from tutor.teaching.lesson import Fact, VariantsFact
from tutor.teaching.lesson_reader import ItemKind, TableReader, describe_value


def read_item(r: TableReader) -> Fact:
    """A variants item of a lesson file, what it states checked against the engine."""
    names = r._get("variants", list)
    if not names or not all(isinstance(name, str) for name in names):
        raise r.fail(f"'variants' must list variant names, got {describe_value(names)}")
    fact: VariantsFact = r.engine(lambda: VariantsFact(tuple(names)))
    stated, engine = r.boolean("allowed"), fact.allowed()
    if stated != engine:
        raise r.fail(
            f"states allowed = {str(stated).lower()} but the engine says {str(engine).lower()}"
        )
    return fact


KIND = ItemKind("variants", ("variants", "allowed"), read_item, asks=False)
