"""The Voila app: its settings (:mod:`tutor.app.settings`), its server
(:mod:`tutor.app.server`), the kernel its pages run in (:mod:`tutor.app.kernel`) and the
page template (``jupyter/nbconvert/templates/tutor``). Start it with ``wizard-tutor``.

Nothing is imported here: a page's kernel imports :mod:`tutor.app.kernel` alone, and
must not pay for Voila.
"""
