"""Tests of the display layer (tutor.display): SVG, HTML and the widgets."""
