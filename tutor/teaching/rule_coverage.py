"""Where each rule of the course is taught and what asks it (:func:`rule_coverage`), and
docs/rule-map.md written from that (:func:`render_rule_map_markdown`; ``wizard-tutor
rule-map`` prints it).

A rule is *taught* by a lesson section that names it (``rules = [...]`` on the section) and
by the steps of the worked example that show it
(:data:`tutor.teaching.worked_example.STEP_RULES`); it is *asked* by the quiz items that
name it and by the practice generators that declare it (:func:`practice_generator_rules`).
An example names the rules it shows, but only a question asks.

>>> coverage = rule_coverage()
>>> [str(place) for place in coverage.use("winner-leads-next").taught]
['01 round-and-trick', '06 four-checks', '08 step trick']
>>> [str(place) for place in coverage.use("bid-zero-met-scores-twenty").asked][:2]
['07 quiz-bid-zero-met', '07 quiz-who-wins-tie']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby

from tutor.resources import builtin_lessons_dir
from tutor.teaching.lesson import Lesson
from tutor.teaching.lesson_loader import list_lessons
from tutor.teaching.practice_questions import rules_by_generator
from tutor.teaching.rule_map import RuleMap, TaughtRule, rule_map
from tutor.teaching.worked_example import LESSON as WORKED_EXAMPLE_LESSON
from tutor.teaching.worked_example import STEP_RULES

RULE_MAP_DOC = "docs/rule-map.md"
"""Where the map is written, from the top of a checkout."""
REFRESH_COMMAND = f"python -m tutor rule-map > {RULE_MAP_DOC}"
"""The command that writes it again."""


def practice_generator_rules() -> Mapping[str, tuple[str, ...]]:
    """The rules each of practice's question generators asks, by the generator's name
    (the kind of question it makes): the one place the rule map takes practice from.

    >>> practice_generator_rules()["next-leader"]
    ('winner-leads-next', 'first-wizard-wins', ...)
    """
    return rules_by_generator()


@dataclass(frozen=True, slots=True)
class Place:
    """A place of the course: a lesson's number and a section's or item's id, or a kind of
    step of the worked example (``step trick``)."""

    lesson: int
    name: str

    def __str__(self) -> str:
        return f"{self.lesson:02d} {self.name}"


@dataclass(frozen=True, slots=True)
class RuleUse:
    """One rule, where it is taught and what asks it."""

    rule: TaughtRule
    taught: tuple[Place, ...]
    """Lesson sections whose text teaches it, and worked-example steps that show it."""
    asked: tuple[Place, ...]
    """Quiz items that ask it."""
    practised: tuple[str, ...]
    """Practice generators that ask it."""


@dataclass(frozen=True, slots=True)
class RuleCoverage:
    """Every rule of the map, in its order, with where it is taught and what asks it."""

    rules: RuleMap
    uses: tuple[RuleUse, ...]

    def use(self, rule_id: str) -> RuleUse:
        """The rule called ``rule_id``; a :class:`LessonError` names an unknown one."""
        rule = self.rules.rule(rule_id)
        return next(use for use in self.uses if use.rule is rule)

    def untaught(self) -> list[str]:
        """The rules no section and no worked-example step teaches."""
        return [use.rule.id for use in self.uses if not use.taught]

    def unasked(self) -> list[str]:
        """The rules no quiz item and no practice generator asks."""
        return [use.rule.id for use in self.uses if not use.asked and not use.practised]


def _lesson_number(lessons: Sequence[Lesson], lesson_id: str) -> int | None:
    return next((lesson.number for lesson in lessons if lesson.id == lesson_id), None)


def rule_coverage(
    lessons: Sequence[Lesson] | None = None,
    practice: Mapping[str, Sequence[str]] | None = None,
) -> RuleCoverage:
    """Where each rule is taught and what asks it, in ``lessons`` (default: the course's
    own) and ``practice`` (default :func:`practice_generator_rules`; a generator naming a
    rule that does not exist is an error).

    >>> rule_coverage(practice={"trick-winner": ["first-wizard-wins", "wizard-wins-twice"]})
    Traceback (most recent call last):
    ...
    tutor.teaching.lesson.LessonError: practice generator 'trick-winner': unknown rule 'wizard-wins-twice' in 'rules'; see docs/rule-map.md for the rules' ids, or run: wizard-tutor rule-map
    """
    rules = rule_map()
    lessons = list_lessons(builtin_lessons_dir()) if lessons is None else lessons
    practice = practice_generator_rules() if practice is None else practice
    for generator, named in practice.items():
        rules.check_ids(named, f"practice generator {generator!r}")
    taught: dict[str, list[Place]] = {rule_id: [] for rule_id in rules.ids()}
    asked: dict[str, list[Place]] = {rule_id: [] for rule_id in rules.ids()}
    for lesson in lessons:
        for section in lesson.sections:
            for rule_id in section.rules:
                taught[rule_id].append(Place(lesson.number, section.id))
        for item in lesson.quiz:
            for rule_id in item.rules:
                asked[rule_id].append(Place(lesson.number, item.id))
    worked = _lesson_number(lessons, WORKED_EXAMPLE_LESSON)
    if worked is not None:  # the steps count where their lesson is in the course
        for kind, named in STEP_RULES.items():
            for rule_id in named:
                taught[rule_id].append(Place(worked, f"step {kind.value}"))
    return RuleCoverage(
        rules=rules,
        uses=tuple(
            RuleUse(
                rule=rule,
                taught=_in_course_order(taught[rule.id]),
                asked=_in_course_order(asked[rule.id]),
                practised=tuple(
                    sorted(name for name, named in practice.items() if rule.id in named)
                ),
            )
            for rule in rules.rules
        ),
    )


def _in_course_order(places: list[Place]) -> tuple[Place, ...]:
    """By lesson, and in a lesson in the order of its file (the worked example's steps last)."""
    return tuple(sorted(places, key=lambda place: place.lesson))


# -- docs/rule-map.md --------------------------------------------------------------------


def _places(places: Iterable[Place]) -> str:
    """``01 the-cards, round-and-trick; 06 four-checks``: places grouped by lesson."""
    return "; ".join(
        f"{lesson:02d} " + ", ".join(place.name for place in group)
        for lesson, group in groupby(places, key=lambda place: place.lesson)
    )


def _cell(words: str) -> str:
    return words.replace("|", "\\|") if words else "—"


def render_rule_map_markdown(coverage: RuleCoverage | None = None) -> str:
    """docs/rule-map.md: the rules by group, each with its id, its sentence, where it is
    taught, which quiz items and which practice generators ask it.

    >>> page = render_rule_map_markdown()
    >>> print(page.splitlines()[0])
    # The rule map
    >>> print(next(line for line in page.splitlines() if "`dealer-rotates`" in line))
    | `dealer-rotates` | The dealer moves one seat clockwise each round. | 01 seats-and-dealer | 01 dealer-round-six | — |
    """
    coverage = rule_coverage() if coverage is None else coverage
    uses = coverage.uses
    asked = sum(1 for use in uses if use.asked)
    practised = sum(1 for use in uses if use.practised)
    untaught, unasked = coverage.untaught(), coverage.unasked()
    lines = [
        "# The rule map",
        "",
        f"<!-- Written by `{REFRESH_COMMAND}`",
        "from tutor/teaching/rule_map.toml, the lessons' `rules = [...]` and practice's",
        "generators: change those, not this file. -->",
        "",
        "Every rule the course teaches, in the course's words, by group ([RULES.md](RULES.md)",
        "is the full reference). Lessons, practice and review name a rule by its id; a",
        "teacher's own lesson may too ([the teacher's guide](teachers-guide.md)).",
        "",
        "- **Taught**: the lesson sections whose text teaches the rule (`03 bidding-order` is",
        "  lesson 03's section `bidding-order`), and the steps of the worked example (lesson",
        f"  {WORKED_EXAMPLE_LESSON[:2]}) that show it (`step trick`: the step of each trick).",
        "- **Quiz**: the lessons' quiz items that ask it.",
        "- **Practice**: practice's question generators that ask it.",
        "",
        f"{len(uses)} rules in {len(coverage.rules.groups)} groups: "
        f"{len(uses) - len(untaught)} taught, {asked} asked by a quiz item, "
        f"{practised} by practice.",
    ]
    if not practised:
        lines += ["", "Practice's generators declare no rules yet."]
    if untaught:
        lines += ["", "Taught nowhere yet: " + ", ".join(f"`{id_}`" for id_ in untaught) + "."]
    if unasked:
        lines += ["", "Asked by nothing yet: " + ", ".join(f"`{id_}`" for id_ in unasked) + "."]
    for group in coverage.rules.groups:
        lines += [
            "",
            f"## {group.name()}",
            "",
            "| Id | Rule | Taught | Quiz | Practice |",
            "| --- | --- | --- | --- | --- |",
        ]
        for rule in group.rules:
            use = coverage.use(rule.id)
            cells = (
                f"`{rule.id}`",
                _cell(rule.text()),
                _cell(_places(use.taught)),
                _cell(_places(use.asked)),
                _cell(", ".join(f"`{name}`" for name in use.practised)),
            )
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
