"""A teacher's new lesson: which file names a teacher's lesson may take, and the commented
starter file ``wizard-tutor new-lesson FILE`` writes (it passes ``wizard-tutor check`` as
written, so a teacher starts from a lesson that works and changes it step by step).

A teacher's lessons are served beside the course's and the course lists every lesson in
number order, so a teacher's lesson is numbered after the course's lessons and pages (01
to 11: the play page has no lesson file), and not like another lesson of its folder
(:mod:`tutor.teaching.lesson_numbers`).

>>> check_new_lesson_name(Path("my_lessons/12_trumps.toml"))
12
>>> check_new_lesson_name(Path("my_lessons/11_trumps.toml"))
Traceback (most recent call last):
...
tutor.teaching.lesson.LessonError: my_lessons/11_trumps.toml: 11 is the number of the course's lesson 11_play_a_round. Number your own lessons from 12 to 99: 01 to 11 are the course's lessons, and the course lists lessons in number order. The first free number is 12. For example: my_lessons/12_trumps.toml
>>> print(starter_lesson(Path("my_lessons/12_trumps.toml"), command="wizard-tutor").split("\\n\\n")[0])
# my_lessons/12_trumps.toml: a lesson of your own for the Wizard rules tutor.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from tutor.resources import teachers_guide
from tutor.teaching.lesson import LessonError, file_label
from tutor.teaching.lesson_numbers import (
    LAST_LESSON_NUMBER,
    NumberClash,
    course_numbers,
    first_free_number,
    first_teacher_number,
    free_number_words,
    lesson_file_number,
    numbered_files,
)
from tutor.teaching.text import DEFAULT_LANGUAGE, text


def check_new_lesson_name(path: Path, *, lang: str = DEFAULT_LANGUAGE) -> int:
    """The number of a teacher's new lesson at ``path``, or a :class:`LessonError` (in
    ``lang``) naming the rule its name breaks: NN_words.toml, numbered after the course's
    lessons and unlike the other lessons of its folder; it suggests the first free number."""
    number = lesson_file_number(path)
    course = course_numbers()
    theirs = numbered_files(sorted(path.parent.glob("*.toml")) if path.parent.is_dir() else [])
    first = first_teacher_number(course)
    free = first_free_number(theirs, course)
    if number in theirs and number not in course:
        raise LessonError(NumberClash(path, number, theirs[number], free).message(lang))
    if number >= first and number not in course:
        return number
    words = {
        "file": file_label(path),
        "number": f"{number:02d}",
        "rule": text(
            "lesson-number.rule",
            lang,
            first=f"{first:02d}",
            last=LAST_LESSON_NUMBER,
            last_course=f"{first - 1:02d}",
        ),
        "free": free_number_words(free, lang),
        "example": file_label(path.with_name(f"{free or first:02d}{path.name[2:]}")),
    }
    if number in course:
        lesson = course[number].stem
        raise LessonError(text("lesson-number.course-lesson", lang, lesson=lesson, **words))
    raise LessonError(text("lesson-number.before-course", lang, **words))


def _title(path: Path) -> str:
    """``12_follow_the_leader.toml`` -> ``Follow the leader``."""
    return path.stem[3:].replace("_", " ").capitalize()


_STARTER = '''\
# {label}: a lesson of your own for the Wizard rules tutor.

# Lines that start with # are notes for you; the tutor skips them. Change the words
# between the quotes, add sections, examples and questions, and check the file after
# every change:
#
#     {command} check {path}
#
# The check asks the rules engine about every answer you state (who takes a trick,
# which cards may be played...): a wrong answer is refused, with where and why. Then
# show your lessons, after the course's own:
#
#     {command} app --lessons {folder}     (the web app, also on a projector)
#     {command} lab --lessons {folder}     (JupyterLab)
#
# The file's name is its number and a few words: 01 to {last_course:02d} are the course's own
# lessons, so yours are numbered {first:02d} to {last:02d} (no two alike), and come in that order.
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
rules = ["first-wizard-wins"]  # optional: the rules it asks ({command} rule-map lists them)
plays = "W R13 W J"
trump = "none"
winner = "A"                # the first Wizard played takes the trick
'''


def starter_lesson(path: Path, *, command: str) -> str:
    """The commented starter file for a new lesson at ``path`` (its title made from the
    words of the file's name); its notes give the tutor's commands as ``command``."""
    first = first_teacher_number()
    return _STARTER.format(
        label=file_label(path),
        path=shlex.quote(str(path)),
        folder=shlex.quote(str(path.parent)),
        command=command,
        title=_title(path),
        first=first,
        last_course=first - 1,
        last=LAST_LESSON_NUMBER,
        guide=teachers_guide(),
    )
