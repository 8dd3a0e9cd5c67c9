"""A teacher's new lesson: which file names a teacher's lesson may take, and the commented
starter file ``wizard-tutor new-lesson FILE`` writes (it passes ``wizard-tutor check`` as
written, so a teacher starts from a lesson that works and changes it step by step).

A teacher's lessons are served beside the built-in ones and the course lists every lesson
in number order, so a teacher's lesson is numbered after the built-in lessons (01 to 10):
from 11 to 99.

>>> check_new_lesson_name(Path("my_lessons/12_trumps.toml"))
12
>>> check_new_lesson_name(Path("my_lessons/04_trumps.toml"))
Traceback (most recent call last):
...
tutor.teaching.lesson.LessonError: my_lessons/04_trumps.toml: 04 is the number of the built-in lesson 04_follow_suit; number your own lessons from 11 to 99 (01 to 10 are the built-in lessons, and the course lists lessons in number order), e.g. 12_trumps.toml
>>> print(starter_lesson(Path("my_lessons/12_trumps.toml")).split("\\n\\n")[0])
# my_lessons/12_trumps.toml: a lesson of your own for the Wizard rules tutor.
"""

from __future__ import annotations

from pathlib import Path

from tutor.resources import builtin_lessons_dir, notebooks_dir, teachers_guide
from tutor.teaching.lesson import LessonError, file_label
from tutor.teaching.lesson_loader import lesson_file_number, lesson_paths

LAST_LESSON_NUMBER = 99
"""Two digits: the highest number a lesson file's name can give."""


def builtin_lesson_numbers() -> dict[int, str]:
    """The built-in lessons' numbers and ids.

    >>> builtin_lesson_numbers()[6]
    '06_trick_winner'
    """
    return {lesson_file_number(path): path.stem for path in lesson_paths(builtin_lessons_dir())}


def first_teacher_number() -> int:
    """The lowest number a teacher's lesson may have: just after the built-in lessons.

    >>> first_teacher_number()
    11
    """
    return max(builtin_lesson_numbers()) + 1


def check_new_lesson_name(path: Path) -> int:
    """The number of a teacher's new lesson at ``path``, or a :class:`LessonError` naming
    the rule its name breaks: NN_words.toml, numbered after the built-in lessons, and not
    the name of one of the course's pages."""
    number = lesson_file_number(path)
    first = first_teacher_number()
    example = f"e.g. {first + 1:02d}_{path.stem[3:] or 'my_lesson'}.toml"
    rule = (
        f"number your own lessons from {first:02d} to {LAST_LESSON_NUMBER} (01 to {first - 1:02d} "
        "are the built-in lessons, and the course lists lessons in number order)"
    )
    builtin = builtin_lesson_numbers()
    if number in builtin:
        raise LessonError(
            f"{file_label(path)}: {number:02d} is the number of the built-in lesson "
            f"{builtin[number]}; {rule}, {example}"
        )
    if number < first:
        raise LessonError(
            f"{file_label(path)}: {number:02d} comes before the built-in lessons; {rule}, {example}"
        )
    if (notebooks_dir() / f"{path.stem}.ipynb").exists():
        raise LessonError(
            f"{file_label(path)}: {path.stem} is the name of a page of the course; choose other "
            "words after the number"
        )
    return number


def _title(path: Path) -> str:
    """``12_follow_the_leader.toml`` -> ``Follow the leader``."""
    return path.stem[3:].replace("_", " ").capitalize()


_STARTER = '''\
# {label}: a lesson of your own for the Wizard rules tutor.

# Lines that start with # are notes for you; the tutor skips them. Change the words
# between the quotes, add sections, examples and questions, and check the file after
# every change:
#
#     wizard-tutor check {path}
#
# The check asks the rules engine about every answer you state (who takes a trick,
# which cards may be played...): a wrong answer is refused, with where and why. Then
# show your lessons, after the built-in ones:
#
#     wizard-tutor app --lessons {folder}     (the web app, also on a projector)
#     wizard-tutor lab --lessons {folder}     (JupyterLab)
#
# The file's name is its number and a few words: 01 to {last_builtin:02d} are the tutor's own
# lessons, so yours are numbered {first:02d} to {last:02d}, and come in that order.
#
# The teacher's guide shows every kind of question, with an example of each:
#     {guide}

# The title, and one sentence about the lesson for the course page.
title.en = "{title}"
summary.en = "One sentence that tells the class what this lesson is about."

# Every text may also be written in Japanese and in Traditional Chinese, beside the
# English one, e.g.   title.ja = "切り札"   and   title.zh-Hant = "王牌"
# A page in Japanese shows the lesson in Japanese when every text of the lesson has its
# ".ja"; otherwise the whole lesson in English. (The questions and the explanations of
# the answers come from the tutor, in all three languages.)

# A section: a heading and a text. Add as many [[section]] blocks as you need; they are
# shown in order. A text may use **bold**, *italics* and lists (lines that start "- ").
[[section]]
id = "the-idea"             # a short name: lower-case words joined by "-"
heading.en = "The idea"
text.en = """
Write here what the class should learn. Between the three quotes a text may run over
several lines.
"""

# An example of the section above: the tutor shows the cards and the answer, and says
# why. Cards: a suit letter (Y yellow, R red, G green, B blue) and a number from 1 to 13,
# like R9 or B11; W is a Wizard and J a Jester.
[[section.example]]
id = "red-trump-wins"       # every example and question has a name of its own
kind = "trick-winner"       # the question: who takes this trick?
plays = "B9 B13 R2 G13"     # the cards in the order played, by players A, B, C and D
trump = "R"                 # the trump suit: Y, R, G, B, or "none"
winner = "C"                # C's red 2 is the only trump, so C takes the trick
note.en = "Blue was led, but red is trump."

# A question of the quiz, asked after the sections. Add as many [[quiz]] blocks as you
# like; every answer is checked like an example's.
[[quiz]]
id = "first-wizard"
kind = "trick-winner"
rules = ["first-wizard-wins"]  # optional: the rules it asks (wizard-tutor rule-map lists them)
plays = "W R13 W J"
trump = "none"
winner = "A"                # the first Wizard played takes the trick
'''


def starter_lesson(path: Path) -> str:
    """The commented starter file for a new lesson at ``path`` (its title made from the
    words of the file's name)."""
    first = first_teacher_number()
    return _STARTER.format(
        label=file_label(path),
        path=path,
        folder=path.parent,
        title=_title(path),
        first=first,
        last_builtin=first - 1,
        last=LAST_LESSON_NUMBER,
        guide=teachers_guide(),
    )
