"""Tests of the teaching layer (tutor.teaching): words, lessons, quizzes, practice."""
