"""The rules the course teaches, as one list (:func:`rule_map`): each rule has an id, a group
and a sentence in the course's words (``tutor/teaching/rule_map.toml``).

Everything that teaches or asks a rule names it by its id: a lesson's section or item
(``rules = ["winner-leads-next"]`` in its file, checked when the lesson is read), practice's
questions and the learner's review. docs/rule-map.md shows, for each rule, where it is
taught and what asks it.

>>> rules = rule_map()
>>> rules.rule("winner-leads-next").text()
'The player who takes a trick leads the next one.'
>>> [group.id for group in rules.groups][:3]
['cards', 'rounds', 'trump']
>>> rules.check_ids(["winner-leads-next", "wizard-wins-twice"], "lessons/99_x.toml, quiz item 'a'")
Traceback (most recent call last):
...
tutor.teaching.lesson.LessonError: lessons/99_x.toml, quiz item 'a': unknown rule 'wizard-wins-twice' in 'rules'; see docs/rule-map.md for the rules' ids, or run: wizard-tutor rule-map
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources

from tutor.teaching.lesson import LessonError, Text
from tutor.teaching.lesson_reader import TableReader, describe_value

RULE_MAP_FILE = "rule_map.toml"
"""The list's file, beside this module."""

WHERE_THE_IDS_ARE = "see docs/rule-map.md for the rules' ids, or run: wizard-tutor rule-map"
"""What a message about an unknown rule id adds: where a teacher finds the ids (the command
serves an installed tutor, which has no docs folder)."""

_RULE_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


@dataclass(frozen=True, slots=True, eq=False)
class TaughtRule:
    """One rule of the course: ``id`` (stable: a learner's review state is kept under it),
    the ``group`` it is shown in, and its sentence in every language written so far."""

    id: str
    group: str
    text: Text

    def __repr__(self) -> str:
        return f"<TaughtRule {self.id!r}>"


@dataclass(frozen=True, slots=True, eq=False)
class RuleGroup:
    """Rules shown together on the learner's map, e.g. "Who takes the trick"."""

    id: str
    name: Text
    rules: tuple[TaughtRule, ...]


@dataclass(frozen=True, slots=True, eq=False)
class RuleMap:
    """Every rule of the course, in the order the list gives, and their groups."""

    rules: tuple[TaughtRule, ...]
    groups: tuple[RuleGroup, ...]

    def ids(self) -> tuple[str, ...]:
        return tuple(rule.id for rule in self.rules)

    def rule(self, rule_id: str) -> TaughtRule:
        """The rule called ``rule_id``, or a :class:`LessonError` naming it."""
        for candidate in self.rules:
            if candidate.id == rule_id:
                return candidate
        raise LessonError(f"unknown rule {rule_id!r}; {WHERE_THE_IDS_ARE}")

    def check_ids(self, rule_ids: Iterable[str], place: str) -> None:
        """Raise a :class:`LessonError` at ``place`` for the first id that is no rule."""
        known = set(self.ids())
        for rule_id in rule_ids:
            if rule_id not in known:
                raise LessonError(
                    f"{place}: unknown rule {rule_id!r} in 'rules'; {WHERE_THE_IDS_ARE}"
                )


def read_rule_ids(r: TableReader) -> tuple[str, ...]:
    """The ``rules`` key of a lesson's section or item: rule ids the map knows (none if the
    key is absent)."""
    if not r.has("rules"):
        return ()
    value = r.data["rules"]
    if not isinstance(value, list) or not all(isinstance(one, str) for one in value):
        raise r.fail(
            "'rules' must be a list of rule ids like [\"winner-leads-next\"], got "
            + describe_value(value)
        )
    if len(set(value)) != len(value):
        raise r.fail(f"'rules' names a rule twice: {value!r}")
    rule_map().check_ids(value, r.place)
    return tuple(value)


def parse_rule_map(source: str, place: str) -> RuleMap:
    """The rule map a TOML text gives (``place`` names it in messages), checked: ids unique
    and well formed, every rule in a known group, every group with a rule, English texts."""
    try:
        data = tomllib.loads(source)
    except ValueError as error:
        raise LessonError(f"{place}: not valid TOML: {error}") from None
    top = TableReader(data, place)
    top.check_keys(("group", "rule"), "rule map")
    groups: dict[str, Text] = {}
    for number, table in enumerate(top.tables("group"), start=1):
        r = TableReader(table, f"{place}, group #{number}")
        r.check_keys(("id", "name"), "group")
        group_id = r.string("id")
        if not _RULE_ID.fullmatch(group_id) or group_id in groups:
            raise r.fail(f"group id {group_id!r} must be unique, lower-case words joined by '-'")
        r.place = f"{place}, group {group_id!r}"
        groups[group_id] = r.text("name")
    rules: list[TaughtRule] = []
    for number, table in enumerate(top.tables("rule"), start=1):
        r = TableReader(table, f"{place}, rule #{number}")
        r.check_keys(("id", "group", "text"), "rule")
        rule_id = r.string("id")
        if not _RULE_ID.fullmatch(rule_id) or any(rule.id == rule_id for rule in rules):
            raise r.fail(f"rule id {rule_id!r} must be unique, lower-case words joined by '-'")
        r.place = f"{place}, rule {rule_id!r}"
        group = r.string("group")
        if group not in groups:
            raise r.fail(f"unknown group {group!r}; groups: " + ", ".join(groups))
        rules.append(TaughtRule(rule_id, group, r.text("text")))
    empty = [group for group in groups if not any(rule.group == group for rule in rules)]
    if empty:
        raise LessonError(f"{place}: group {empty[0]!r} has no rule")
    return RuleMap(
        rules=tuple(rules),
        groups=tuple(
            RuleGroup(group, name, tuple(rule for rule in rules if rule.group == group))
            for group, name in groups.items()
        ),
    )


@functools.cache
def rule_map() -> RuleMap:
    """The course's rules (read once)."""
    source = resources.files("tutor.teaching").joinpath(RULE_MAP_FILE).read_text("utf-8")
    return parse_rule_map(source, f"tutor/teaching/{RULE_MAP_FILE}")
