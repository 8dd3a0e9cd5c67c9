"""Each kind of lesson item has one home: its module in tutor/teaching/kinds (its reader
and keys, its question class and grading), its view in tutor/display/kinds (its picture),
and its words in the catalogs of all three languages.

The registries are listed, and every kind in them is exercised on the course's own items
of that kind: read from the lesson files by the kind's reader, graded by the engine (a
right and a wrong answer), drawn by its view, and put into words in every language (a
missing catalog line raises :class:`~tutor.teaching.text.MissingTextError`).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections import defaultdict
from pathlib import Path

import pytest

import tutor.display.kinds
import tutor.teaching.kinds
from tests.scenarios.learner import wrong_answer
from tutor.display.kinds import ITEM_VIEWS
from tutor.display.lesson_view import example_html, example_picture
from tutor.teaching.kinds import ITEM_KINDS
from tutor.teaching.lesson import LessonItem
from tutor.teaching.lesson_loader import item_kinds, list_lessons
from tutor.teaching.question import Question
from tutor.teaching.text import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def course_items() -> dict[str, list[LessonItem]]:
    """The course's examples and quiz items, by kind."""
    items: dict[str, list[LessonItem]] = defaultdict(list)
    for lesson in list_lessons():
        for item in lesson.items():
            items[item.kind].append(item)
    return items


ITEMS = course_items()


def modules_of(package: object) -> list[str]:
    return [m.name for m in pkgutil.iter_modules(package.__path__, f"{package.__name__}.")]  # type: ignore[attr-defined]


def test_the_loader_reads_through_the_one_registry() -> None:
    assert item_kinds() == list(ITEM_KINDS)
    assert item_kinds(quiz=True) == [name for name, kind in ITEM_KINDS.items() if kind.asks]
    assert all(name == kind.name for name, kind in ITEM_KINDS.items())


def test_every_kind_module_is_registered_and_every_kind_reads_in_its_own_module() -> None:
    defined = {
        module.KIND.name: module.__name__
        for module in map(importlib.import_module, modules_of(tutor.teaching.kinds))
        if hasattr(module, "KIND")
    }
    assert set(defined) == set(ITEM_KINDS)
    for name, kind in ITEM_KINDS.items():
        assert kind.read.__module__ == defined[name], name  # its reader lives in its home
        assert kind.keys, name


def test_every_kind_has_a_view_and_every_view_a_kind() -> None:
    assert set(ITEM_VIEWS) == set(ITEM_KINDS)
    views = {
        module.VIEW
        for module in map(importlib.import_module, modules_of(tutor.display.kinds))
        if hasattr(module, "VIEW")
    }
    assert views <= set(ITEM_VIEWS.values())  # a kind's display module is registered


def test_the_developers_guide_lists_every_kind() -> None:
    guide = (ROOT / "lessons" / "README.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `([a-z-]+)` \|", guide, flags=re.MULTILINE)
    assert listed == list(ITEM_KINDS)


def words_of(item: LessonItem, lang: str) -> list[str]:
    """Everything the kind says of ``item`` in ``lang``: prompt, hint, choices, grading."""
    subject = item.subject
    words = [item.as_text(lang)]
    if isinstance(subject, Question):
        right, wrong = subject.correct_answer(), wrong_answer(subject)
        words += [
            subject.prompt(lang),
            subject.hint(lang),
            subject.answer_text(lang),
            subject.answer_label(lang),
            subject.check(right, lang).as_text(),
            subject.check(wrong, lang).as_text(),
            *(subject.choice_label(choice, lang) for choice in subject.choices()),
            *(subject.choice_mark(choice, lang) for choice in subject.choices()),
        ]
    return words


@pytest.mark.parametrize("name", list(ITEM_KINDS))
def test_a_kind_reads_grades_draws_and_speaks_every_language(name: str) -> None:
    kind, view = ITEM_KINDS[name], ITEM_VIEWS[name]
    items = ITEMS[name]
    assert items, f"no item of kind {name!r} in the course: nothing shows its reader works"
    for item in items:
        subject = item.subject
        # reader: the lesson files' items of this kind are what its reader made
        assert kind.asks == isinstance(subject, Question), item.where
        assert {type(other.subject) for other in items} == {type(subject)}
        # grader: the engine's answer is right, another one is not
        if isinstance(subject, Question):
            assert subject.check(subject.correct_answer()).correct, item.where
            assert not subject.check(wrong_answer(subject)).correct, item.where
        # scene: its view draws it (unmarked before the answer on a presenter's slide)
        for lang in LANGUAGES:
            picture = example_picture(item, lang)
            assert picture == view.picture(subject, lang, True)
            assert picture.count("<svg") == example_picture(item, lang, answered=False).count(
                "<svg"
            )
            assert 'class="lesson-example-block' in example_html(item, lang)
        # catalog: every language has its own words for all the kind says
        english = words_of(item, "en")
        assert all(words.strip() for words in english[:2]), item.where
        for lang in TRANSLATED:
            translated = words_of(item, lang)
            assert translated[0] != english[0], (lang, item.where)
            if isinstance(subject, Question):
                assert translated[1] != english[1], (lang, item.where)  # its prompt


def test_a_kind_without_a_view_is_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lookup is by the kind's name: an item of an unregistered kind is refused by
    name, not drawn by a fallback."""
    item = ITEMS["score"][0]
    monkeypatch.setattr(tutor.display.lesson_view, "ITEM_VIEWS", {})
    with pytest.raises(KeyError, match="score"):
        example_picture(item)
