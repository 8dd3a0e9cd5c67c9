# $PYTHONSTARTUP of the static site's kernel (tutor/site/build.py names this file in the
# page config): set the browser's Python up before the notebook runs, then leave nothing
# in the notebook's namespace.
import tutor.site.kernel

tutor.site.kernel.start(get_ipython())  # type: ignore[name-defined]  # noqa: F821
del tutor
