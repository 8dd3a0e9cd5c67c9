"""Tests of the rules layer (tutor.rules): the engine against RULES.md."""
