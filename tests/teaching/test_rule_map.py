"""The rule map (tutor/teaching/rule_map.toml), checked against the course: every rule is
taught by a lesson's text and asked by a question (a quiz item, or practice once its
generators declare their rules), in three languages; a lesson naming a rule that does not
exist is refused; every item names the rules its kind's class works out for it (the one
home of that knowledge: ``item.subject.rules``, from the item's data and the engine); and
docs/rule-map.md is what the course says today."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from lesson_files import lesson_file

from tutor.cli import main
from tutor.teaching.kinds import ITEM_KINDS
from tutor.teaching.lesson import LessonError, LessonItem
from tutor.teaching.lesson_loader import list_lessons, load_lesson_file
from tutor.teaching.question import Question
from tutor.teaching.quiz import ScoreQuestion
from tutor.teaching.round_quiz import RULE_CHECKS
from tutor.teaching.rule_coverage import (
    REFRESH_COMMAND,
    RULE_MAP_DOC,
    Place,
    render_rule_map_markdown,
    rule_coverage,
)
from tutor.teaching.rule_map import rule_map
from tutor.teaching.text import LANGUAGES
from tutor.teaching.worked_example import STEP_RULES, StepKind, worked_example

ROOT = Path(__file__).resolve().parents[2]
COURSE = list_lessons(ROOT / "lessons")


# -- every rule taught, every rule asked --------------------------------------------------


def test_every_rule_has_teaching_text_in_a_lesson_section() -> None:
    named = {rule for lesson in COURSE for section in lesson.sections for rule in section.rules}
    untaught = [rule for rule in rule_map().ids() if rule not in named]
    assert not untaught, f"no lesson section teaches (names in its rules = [...]): {untaught}"


def test_every_rule_is_asked_by_a_quiz_item_or_practice() -> None:
    unasked = rule_coverage().unasked()
    assert not unasked, (
        f"nothing asks these rules: {unasked}; name them in a quiz item's rules = [...] "
        "(or in practice's generators)"
    )


def test_every_section_of_a_rules_lesson_teaches_a_rule_and_every_question_asks_one() -> None:
    """Lesson 09 (practice) teaches how practice works, not a rule; every other section
    says which rules it teaches, and every quiz item which rules it asks."""
    sections = [
        f"{lesson.id}: {section.id}"
        for lesson in COURSE
        if lesson.id != "09_practice"
        for section in lesson.sections
        if not section.rules
    ]
    assert sections == []
    questions = [
        f"{lesson.id}: {item.id}" for lesson in COURSE for item in lesson.quiz if not item.rules
    ]
    assert questions == []


def test_every_rule_and_group_is_written_in_every_language() -> None:
    rules = rule_map()
    missing = [
        f"{rule.id}: {lang}" for rule in rules.rules for lang in rule.text.missing_languages()
    ] + [
        f"group {group.id}: {lang}"
        for group in rules.groups
        for lang in group.name.missing_languages()
    ]
    assert missing == []
    for rule in rules.rules:  # a translation, not the English copied
        assert len({rule.text(lang) for lang in LANGUAGES}) == len(LANGUAGES), rule.id


# -- unknown rules are refused -------------------------------------------------------------


WHERE_THE_IDS_ARE = "see docs/rule-map.md for the rules' ids, or run: wizard-tutor rule-map"
UNKNOWN_RULE_LESSON = """
title.en = "T"
summary.en = "S"

[[section]]
id = "trumps"
rules = ["highest-trump-wins", "trump-always-wins"]
heading.en = "H"
text.en = "T"

[[quiz]]
id = "who-takes-it"
kind = "trick-winner"
rules = ["wizard-wins-twice"]
plays = "Y7 Y13 R1 Y12"
trump = "R"
winner = "C"
"""


def test_a_lesson_naming_a_rule_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    path = lesson_file(tmp_path / "mylessons" / "12_trumps.toml", UNKNOWN_RULE_LESSON, titled=False)
    with pytest.raises(LessonError) as caught:
        load_lesson_file(path)
    assert caught.value.problems == (
        "mylessons/12_trumps.toml, section 'trumps': unknown rule 'trump-always-wins' in "
        f"'rules'; {WHERE_THE_IDS_ARE}",
        "mylessons/12_trumps.toml, quiz item 'who-takes-it': unknown rule "
        f"'wizard-wins-twice' in 'rules'; {WHERE_THE_IDS_ARE}",
    )


def test_wizard_tutor_check_names_the_unknown_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = lesson_file(tmp_path / "12_trumps.toml", UNKNOWN_RULE_LESSON, titled=False)
    assert main(["check", str(path)]) == 1
    errors = capsys.readouterr().err.splitlines()
    assert (
        f"error: {path}, quiz item 'who-takes-it': unknown rule 'wizard-wins-twice' in 'rules'; {WHERE_THE_IDS_ARE}"
        in errors
    )


def test_every_rule_check_asks_a_rule_of_the_map() -> None:
    for check in RULE_CHECKS.values():
        rule_map().check_ids((check.rule,), f"rule check {check.name!r}")


def test_a_practice_generator_naming_a_rule_that_does_not_exist_is_refused() -> None:
    with pytest.raises(LessonError, match="practice generator 'who-leads': unknown rule 'x'"):
        rule_coverage(practice={"who-leads": ["winner-leads-next", "x"]})


# -- what counts as teaching and asking -----------------------------------------------------


def test_sections_teach_quiz_items_and_practice_ask_and_examples_only_show(
    tmp_path: Path,
) -> None:
    path = lesson_file(
        tmp_path / "12_wizards.toml",
        """
        [[section]]
        id = "wizards"
        rules = ["first-wizard-wins"]
        heading.en = "H"
        text.en = "T"
        [[section.example]]
        id = "shown"
        kind = "trick-winner"
        rules = ["later-wizards-never-win"]
        plays = "G6 W Y12 W"
        trump = "Y"
        winner = "B"
        [[quiz]]
        id = "asked"
        kind = "trick-winner"
        rules = ["first-wizard-wins", "later-wizards-never-win"]
        plays = "W G6 W Y12"
        trump = "Y"
        winner = "A"
        """,
    )
    coverage = rule_coverage([load_lesson_file(path)], practice={"leads": ["winner-leads-next"]})
    first, later = coverage.use("first-wizard-wins"), coverage.use("later-wizards-never-win")
    assert first.taught == (Place(12, "wizards"),) and later.taught == ()
    assert first.asked == later.asked == (Place(12, "asked"),)
    assert coverage.use("winner-leads-next").practised == ("leads",)
    assert "winner-leads-next" not in coverage.unasked()
    assert "winner-leads-next" in coverage.untaught()  # no section of this course names it
    row = next(
        line
        for line in render_rule_map_markdown(coverage).splitlines()
        if line.startswith("| `winner-leads-next` |")
    )
    assert row.endswith("| — | — | `leads` |")


def test_the_worked_example_steps_name_rules_for_every_kind_of_step() -> None:
    shown = {step.kind for step in worked_example().steps}
    assert shown == set(StepKind) == set(STEP_RULES)
    for kind, named in STEP_RULES.items():
        assert named, kind
        rule_map().check_ids(named, f"worked example, step {kind.value}")
    taught = rule_coverage().use("winner-leads-next").taught
    assert Place(8, "step trick") in taught  # "C leads the next trick."


# -- the rules an item names include what its kind works out ------------------------------


def rule_problems(item: LessonItem) -> list[str]:
    """What is wrong with the rules ``item`` names: its subject's class works out none (a
    kind that says nothing), or names rules it does not."""
    derived = item.subject.rules
    if not derived:
        return [
            f"{item.where}: its {type(item.subject).__name__} works out no rules; give the "
            "class a rules property (the rules its answer or fact rests on)"
        ]
    missing = [rule for rule in derived if rule not in item.rules]
    if missing:
        return [f"{item.where}: its answer rests on {missing}, not named in its rules"]
    return []


@pytest.mark.parametrize(
    "item", [item for lesson in COURSE for item in lesson.items()], ids=lambda item: item.where
)
def test_an_item_names_the_rules_its_kind_works_out(item: LessonItem) -> None:
    """The kind's class is the one home of which rules an item asks or shows
    (``item.subject.rules``, from its data and the engine); the lesson names them all."""
    assert rule_problems(item) == []


def test_every_kind_of_item_is_in_the_course() -> None:
    """So that every kind's class has its rules checked above."""
    assert {item.kind for lesson in COURSE for item in lesson.items()} == set(ITEM_KINDS)


class _SaysNothing(ScoreQuestion):
    """A kind whose class works out no rules, as :class:`Question`'s default does."""

    @property
    def rules(self) -> tuple[str, ...]:
        return ()


def test_a_kind_that_works_out_no_rules_is_refused() -> None:
    assert Question.rules.fget is not None and Question.rules.fget(_SaysNothing(1, 1)) == ()
    scoring = next(lesson for lesson in COURSE if lesson.id == "07_scoring")
    item = next(item for item in scoring.quiz if isinstance(item.subject, ScoreQuestion))
    silent = replace(item, subject=_SaysNothing(item.subject.bid, item.subject.taken))
    assert rule_problems(item) == []
    assert rule_problems(silent) == [
        f"{item.where}: its _SaysNothing works out no rules; give the class a rules property "
        "(the rules its answer or fact rests on)"
    ]
    unnamed = replace(item, rules=())
    assert rule_problems(unnamed) == [
        f"{item.where}: its answer rests on {list(item.subject.rules)}, not named in its rules"
    ]


# -- docs/rule-map.md ------------------------------------------------------------------------


def test_the_rule_map_page_is_up_to_date() -> None:
    written = (ROOT / RULE_MAP_DOC).read_text(encoding="utf-8")
    assert written == render_rule_map_markdown(), (
        f"{RULE_MAP_DOC} is out of date: refresh it with  {REFRESH_COMMAND}"
    )


def test_the_rule_map_page_shows_every_rule_where_it_is_taught_and_asked() -> None:
    page = render_rule_map_markdown()
    for group in rule_map().groups:
        assert f"\n## {group.name()}\n" in page
    for use in rule_coverage().uses:
        row = next(line for line in page.splitlines() if line.startswith(f"| `{use.rule.id}` |"))
        cells = [cell.strip() for cell in row.strip("|").split(" | ")]
        assert cells[1] == use.rule.text()
        for place in use.taught:
            assert place.name in cells[2]
        for place in use.asked:
            assert place.name in cells[3]
    assert (
        "| `bid-zero-met-scores-twenty` | A bid of 0 met scores 20. | 07 bid-met; 08 step "
        "mistakes | 07 quiz-bid-zero-met, quiz-who-wins-tie; 08 totals-after-round-four, "
        "winners-after-round-four | `game-winners`, `score`, `score-total` |\n"
    ) in page


def test_wizard_tutor_rule_map_prints_the_page(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule-map"]) == 0
    assert capsys.readouterr().out == render_rule_map_markdown()
