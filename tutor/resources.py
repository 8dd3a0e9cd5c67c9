"""Where the tutor's files are: the lessons, the notebooks and the app's Jupyter files.

An installed wheel carries them inside the package (``tutor/data/lessons``,
``tutor/data/notebooks``: pyproject.toml maps the checkout's top-level folders there); a
checkout or an editable install keeps them at the top of the repository, where people
edit them. Both are found through :mod:`importlib.resources`, so the rest of the tutor
never asks which kind of install it runs from. ``$TUTOR_LESSONS_DIR`` still names another
lessons folder.

>>> lessons_dir().name, notebooks_dir().name
('lessons', 'notebooks')
>>> (jupyter_data_dir() / "nbconvert" / "templates" / "tutor" / "conf.json").is_file()
True
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

LESSONS_DIR_VARIABLE = "TUTOR_LESSONS_DIR"
"""Environment variable naming another lessons folder (instead of the built-in one)."""

PACKAGED_DATA = "data"
"""The folder of the package that holds lessons/ and notebooks/ in a wheel."""


class ResourceError(LookupError):
    """A folder of the tutor that this installation does not have."""


def _package_root() -> Path:
    # A regular package on the file system (Voila and Jupyter need real files, so the
    # tutor is never run from a zip file).
    return Path(str(resources.files("tutor")))


def _course_folder(name: str) -> Path:
    """``name`` ("lessons" or "notebooks"): the wheel's copy if there is one, else the
    checkout's top-level folder."""
    packaged = _package_root() / PACKAGED_DATA / name
    if packaged.is_dir():
        return packaged
    checkout = _package_root().parent / name
    if checkout.is_dir():
        return checkout
    raise ResourceError(
        f"the tutor's {name} folder is missing: not in the package ({packaged}) nor beside "
        f"it ({checkout}); reinstall wizard-tutor"
    )


def lessons_dir() -> Path:
    """The lessons folder: ``$TUTOR_LESSONS_DIR`` if set, else the built-in lessons."""
    override = os.environ.get(LESSONS_DIR_VARIABLE)
    if override:
        return Path(override)
    return builtin_lessons_dir()


def builtin_lessons_dir() -> Path:
    """The lessons that come with the tutor (whatever ``$TUTOR_LESSONS_DIR`` says)."""
    return _course_folder("lessons")


def notebooks_dir() -> Path:
    """The course's notebooks (the app serves them; ``wizard-tutor lab`` copies them)."""
    return _course_folder("notebooks")


def lab_config_dir() -> Path:
    """The Jupyter config folder ``wizard-tutor lab`` puts first on
    ``JUPYTER_CONFIG_PATH``: its ``labconfig/page_config.json`` switches off the Lab
    plugin that asks a learner about Jupyter's news, and ``jupyter_server_config.d``
    enables :mod:`tutor.app.lab_save` (what Lab saves) and :mod:`tutor.app.lab_page` (what
    Lab's page loads)."""
    return _package_root() / "app" / "lab-config"


def jupyter_data_dir() -> Path:
    """The app's Jupyter data folder, put first on ``JUPYTER_PATH``: the page template
    (``nbconvert/templates/tutor``) and the kernel the app's pages run in
    (``kernels/python3``)."""
    return _package_root() / "app" / "jupyter"


TEACHERS_GUIDE = "teachers-guide.md"


def teachers_guide() -> Path:
    """The teacher's guide to writing lessons: ``docs/teachers-guide.md`` in a checkout,
    ``tutor/data/teachers-guide.md`` in a wheel (``wizard-tutor new-lesson`` names it).

    >>> teachers_guide().is_file()
    True
    """
    packaged = _package_root() / PACKAGED_DATA / TEACHERS_GUIDE
    return packaged if packaged.is_file() else _package_root().parent / "docs" / TEACHERS_GUIDE
