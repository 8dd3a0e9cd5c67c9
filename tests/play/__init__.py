"""Tests of the play layer (tutor.play): bots, the fast simulator, the coach, the session."""
