"""The teaching layer: the engine's reasons in words, lessons, quizzes and practice.

The catalogs of words in every language (:mod:`~tutor.teaching.text`, ``locale/``) and the
learner's language (:mod:`~tutor.teaching.language`); the engine's reasons as sentences
(:mod:`~tutor.teaching.explain`) and a round told as a story
(:mod:`~tutor.teaching.narrate`); questions graded by the engine
(:mod:`~tutor.teaching.quiz`, :mod:`~tutor.teaching.round_quiz`); lessons
(:mod:`~tutor.teaching.lesson`, read and checked by :mod:`~tutor.teaching.lesson_loader`);
practice (:mod:`~tutor.teaching.practice`) with the learner's progress
(:mod:`~tutor.teaching.progress`; its events, summary and stores:
:mod:`~tutor.teaching.progress_events`, :mod:`~tutor.teaching.progress_summary`,
:mod:`~tutor.teaching.progress_stores`); and the worked example of RULES.md, step by step
(:mod:`~tutor.teaching.worked_example`).

It imports the rules layer only: showing any of this is the display layer's job.
"""
