# $PYTHONSTARTUP of the static site's kernel (tutor/site/build_pages.py names this file in
# the page config): set the browser's Python up before the notebook runs, then leave nothing
# in the notebook's namespace. Imported as a module (the test suite's doctest run), where
# there is no IPython shell, it does nothing.
try:
    _shell = get_ipython()  # type: ignore[name-defined]
except NameError:
    _shell = None
if _shell is not None:
    import tutor.site.kernel

    tutor.site.kernel.start(_shell)
    del tutor
del _shell
