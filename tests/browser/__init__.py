"""Tests of the Voila app: started as the README starts it, driven with Chromium."""
