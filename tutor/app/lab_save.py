"""What JupyterLab saves: a Jupyter server extension that every save of a notebook passes
through (a contents manager pre-save hook).

- A learner's copy of a course page is saved as :func:`tutor.display.notebook_form.learners_copy`
  shapes it: the page's cell keeps the note saying how to run it, never the page's
  widgets, which only the kernel that drew them can show. Saved as Lab has it after Run
  All, a lesson grows from 1 KB to over 100 KB and, once that kernel is gone, reopens
  with "Error displaying widget: model not found" where the quiz was and nothing saying
  to run it again.
- The course's own notebooks (:func:`tutor.resources.notebooks_dir`: the checkout's
  ``notebooks/`` or the installed package's) are never saved: Lab opened on them (``jupyter
  lab notebooks/``) would rewrite the course with a run's outputs. The save is refused
  with a message saying where the learner's copies are.
- Any other notebook is saved as it is.

``wizard-tutor lab`` enables it (``tutor/app/lab-config/jupyter_server_config.d``, first
on ``JUPYTER_CONFIG_PATH``), and so does installing the tutor (the same file goes to the
environment's ``etc/jupyter``), so a JupyterLab started otherwise in that environment
saves the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

EXTENSION = "tutor.app.lab_save"
"""This module's name, as Jupyter's ``jpserver_extensions`` names it."""

COURSE_NOT_SAVED = (
    "{path} is one of the course's own notebooks, which are never changed. "
    "Open your own copies with the command wizard-tutor lab (they are in ~/wizard-tutor)."
)


class CourseFileError(Exception):
    """A save into the course's own notebooks folder."""


def check_not_the_course(saved: Path) -> None:
    """Raise :class:`CourseFileError` when ``saved`` is in the course's own notebooks
    folder."""
    from tutor.resources import notebooks_dir

    course = notebooks_dir().resolve()
    if saved.resolve().is_relative_to(course):
        raise CourseFileError(COURSE_NOT_SAVED.format(path=saved.name))


def save_course_pages(model: dict[str, Any], path: str, contents_manager: Any, **_: Any) -> None:
    """The pre-save hook: refuse a save into the course, and reshape a notebook that shows
    a course page into :func:`~tutor.display.notebook_form.learners_copy` (``model`` is changed
    in place, as Jupyter's contents managers expect)."""
    from tornado.web import HTTPError

    root = Path(contents_manager.root_dir)
    try:
        check_not_the_course(root / path.strip("/"))
    except CourseFileError as error:
        # Lab shows the message in its "File Save Error" dialog (tornado %-formats it).
        raise HTTPError(403, str(error).replace("%", "%%")) from None
    content = model.get("content")
    if model.get("type") != "notebook" or not isinstance(content, dict):
        return
    from tutor.display.notebook_form import is_course_page, learners_copy

    if is_course_page(content):
        model["content"] = learners_copy(content)


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """How Jupyter Server finds this extension."""
    return [{"module": EXTENSION}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Add the pre-save hook to the server's contents manager (beside any of the
    user's own)."""
    serverapp.contents_manager.register_pre_save_hook(save_course_pages)
