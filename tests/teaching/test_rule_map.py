"""The rule map (tutor/teaching/rule_map.toml), checked against the course: every rule is
taught by a lesson's text and asked by a question (a quiz item, or practice once its
generators declare their rules), in three languages; a lesson naming a rule that does not
exist is refused; the rules an item names agree with what the engine decides for it; and
docs/rule-map.md is what the course says today."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tutor.cli import main
from tutor.rules.cards import Card
from tutor.rules.schedule import GameLength
from tutor.rules.trick import Lead, WinRule, explain_trick, judge_play, lead_of
from tutor.rules.variants import Bidding
from tutor.teaching.lesson import (
    DeckFact,
    LessonError,
    LessonItem,
    ScheduleTableFact,
    ScoreSheetFact,
    VariantsFact,
)
from tutor.teaching.lesson_loader import list_lessons, load_lesson_file
from tutor.teaching.quiz import (
    BidsMetQuestion,
    GameWinnersQuestion,
    LegalPlaysQuestion,
    NextLeaderQuestion,
    RoundTricksQuestion,
    ScoreQuestion,
    ScoreTotalQuestion,
    TrickWinnerQuestion,
    TrumpChoiceQuestion,
    TrumpQuestion,
)
from tutor.teaching.round_quiz import (
    RULE_CHECKS,
    BidVisibilityQuestion,
    DealerQuestion,
    DeckCountQuestion,
    FirstBidderQuestion,
    LegalBidsQuestion,
    RuleCheckQuestion,
    ScheduleAsk,
    ScheduleQuestion,
)
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
    says which rules it teaches, and every quiz item which rules it asks (all but one:
    open bids during bidding, the basic game's way, which no rule of the map is about)."""
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
    assert questions == ["10_variants: quiz-open-during-bidding"]


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
    (tmp_path / "mylessons").mkdir()
    path = tmp_path / "mylessons" / "12_trumps.toml"
    path.write_text(UNKNOWN_RULE_LESSON, encoding="utf-8")
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
    path = tmp_path / "12_trumps.toml"
    path.write_text(UNKNOWN_RULE_LESSON, encoding="utf-8")
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
    path = tmp_path / "12_wizards.toml"
    path.write_text(
        textwrap.dedent(
            """
            title.en = "T"
            summary.en = "S"
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
            """
        ),
        encoding="utf-8",
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


# -- the rules an item names agree with the engine ----------------------------------------

WIN_RULES = {
    WinRule.FIRST_WIZARD: "first-wizard-wins",
    WinRule.HIGHEST_TRUMP: "highest-trump-wins",
    WinRule.HIGHEST_LED: "highest-led-suit-wins",
    WinRule.FIRST_JESTER: "only-jesters-first-wins",
}


def _trick_rules(question: TrickWinnerQuestion) -> set[str]:
    why = explain_trick(question.plays, question.trump)
    needed = {WIN_RULES[why.rule]}
    if why.rule is WinRule.FIRST_WIZARD and sum(card.is_wizard for card in question.plays) > 1:
        needed.add("later-wizards-never-win")
    if why.rule in (WinRule.HIGHEST_TRUMP, WinRule.HIGHEST_LED) and any(
        card.is_jester for card in question.plays
    ):
        needed.add("jester-never-wins-with-others")
    return needed


def _jesters_rule(plays: tuple[Card, ...]) -> set[str]:
    """Jesters led: the first number card sets the suit (after several, they set nothing)."""
    jesters = next((index for index, card in enumerate(plays) if not card.is_jester), len(plays))
    if not jesters:
        return set()
    return {"jesters-set-nothing" if jesters > 1 else "jester-led-first-number-sets-suit"}


def _legal_plays_rules(question: LegalPlaysQuestion) -> set[str]:
    plays, hand = question.plays, question.hand
    lead, suit = lead_of(plays)
    if lead is Lead.NOTHING_PLAYED:
        return {"leader-plays-any-card"}
    if lead is Lead.WIZARD_FIRST:
        return {"wizard-led-no-suit" if plays[0].is_wizard else "jester-then-wizard-no-suit"}
    needed = _jesters_rule(plays)
    if lead is Lead.SUIT:
        if judge_play(hand, plays, hand[0]).followers:
            needed.add("must-follow-suit")
            if suit is question.trump:
                needed.add("trump-led-must-follow")
            if any(not card.is_number for card in hand):
                needed.add("wizard-jester-any-time")
        else:
            needed.add("cannot-follow-play-anything")
        first_number = next(index for index, card in enumerate(plays) if card.is_number)
        if any(card.is_wizard for card in plays[first_number:]):
            needed.add("number-then-wizard-still-binds")
    return needed


def _length_rules(length: GameLength) -> set[str]:
    return {
        GameLength.FIVE: {"five-round-game"},
        GameLength.TOURNAMENT: {"tournament-schedule"},
    }.get(length, set())


def _trump_rules(question: TrumpQuestion) -> set[str]:
    needed = _length_rules(question.length)
    turned = question.turned
    if turned is None:  # nothing left to turn: of a deal, because it was the last round
        dealt = {"last-round-deals-every-card"} if question.players is not None else set()
        return needed | dealt | {"nothing-turned-no-trump"}
    if turned.is_wizard:
        return needed | {"wizard-turned-dealer-chooses"}
    if turned.is_jester:
        return needed | {"jester-turned-no-trump"}
    return needed | {"number-turned-suit-is-trump"}


def _schedule_rules(length: GameLength, ask: ScheduleAsk) -> set[str]:
    if length is not GameLength.STANDARD:
        return _length_rules(length)
    return {
        ScheduleAsk.ROUNDS: {"rounds-in-a-game"},
        ScheduleAsk.CARDS: {"round-deals-its-number"},
        ScheduleAsk.TRICKS: {"round-deals-its-number", "tricks-equal-cards"},
    }[ask]


def rules_the_engine_needs(item: LessonItem) -> set[str]:
    """The rules the engine uses to decide this item's answer (or the fact it shows)."""
    subject = item.subject
    match subject:
        case TrickWinnerQuestion():
            return _trick_rules(subject)
        case LegalPlaysQuestion():
            return _legal_plays_rules(subject)
        case ScoreQuestion(bid=bid, taken=taken):
            if bid != taken:
                return {"bid-missed-loses"}
            return {"bid-zero-met-scores-twenty" if bid == 0 else "bid-met-scores"}
        case TrumpQuestion():
            return _trump_rules(subject)
        case TrumpChoiceQuestion():
            return {"dealer-may-not-choose-no-trump"}
        case ScheduleQuestion():
            return _schedule_rules(subject.length, subject.ask)
        case DealerQuestion():
            return {"dealer-rotates"}
        case FirstBidderQuestion():
            return {"left-of-dealer-starts"}
        case LegalBidsQuestion():
            last = len(subject.bids) == subject.players - 1
            if subject.plus_minus_one:
                return {"bid-range", "plus-minus-one"}
            return {"bid-range", "any-total-allowed"} if last else {"bid-range"}
        case BidVisibilityQuestion():
            return {Bidding.OPEN: set(), Bidding.HIDDEN: {"hidden-bids"}}.get(
                subject.bidding, {"secret-bids"}
            )
        case NextLeaderQuestion(plays=plays, trump=trump):
            return _trick_rules(TrickWinnerQuestion(plays, trump)) | {"winner-leads-next"}
        case RoundTricksQuestion(round=played, trick=number):
            trick = TrickWinnerQuestion(played.tricks[number - 1], played.trump)
            return _trick_rules(trick) | ({"winner-leads-next"} if number > 1 else set())
        case BidsMetQuestion(round=played):
            leads = {"winner-leads-next"} if len(played.tricks) > 1 else set()
            return {"bid-is-tricks-expected"} | leads
        case ScoreTotalQuestion():
            return {"scores-add-up"}
        case GameWinnersQuestion():
            return {"highest-total-wins"}
        case DeckCountQuestion():
            return {"deck-sixty-cards"}
        case RuleCheckQuestion():
            return {subject.rule_check().rule}
        case DeckFact():
            return {"deck-sixty-cards"}
        case ScheduleTableFact():
            return _schedule_rules(subject.length, ScheduleAsk.ROUNDS)
        case ScoreSheetFact():
            return {"scores-add-up"}
        case VariantsFact():
            hidden = {"hidden-bids", "secret-bids"} & set(subject.variants)
            return (
                {"plus-minus-one-needs-open-bids"}
                if hidden and "plus-minus-one" in subject.variants
                else set()
            )
    raise AssertionError(
        f"{item.where}: a {item.kind} item; say here which rules the engine uses to decide it"
    )


@pytest.mark.parametrize(
    "item", [item for lesson in COURSE for item in lesson.items()], ids=lambda item: item.where
)
def test_an_item_names_the_rules_the_engine_decides_it_by(item: LessonItem) -> None:
    missing = rules_the_engine_needs(item) - set(item.rules)
    assert not missing, (
        f"{item.where}: its answer rests on {sorted(missing)}, not named in its rules"
    )


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
        "| `bid-zero-met-scores-twenty` | A bid of 0 met scores 20. | 07 bid-met; 08 step mistakes | 07 quiz-bid-zero-met |"
        in page
    )


def test_wizard_tutor_rule_map_prints_the_page(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule-map"]) == 0
    assert capsys.readouterr().out == render_rule_map_markdown()
