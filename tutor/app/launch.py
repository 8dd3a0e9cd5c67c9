"""Starting the tutor: the Voila app (``wizard-tutor app``) and JupyterLab on the course
(``wizard-tutor lab``). :mod:`tutor.cli` parses the command line and calls these.

The app runs in this process (Voila stand-alone, :class:`tutor.app.server.TutorVoila`);
its settings are built here in Python, never read from a config file, so a ``voila.py`` in
the current folder or in ``~/.jupyter`` cannot change what the learners get.
"""

from __future__ import annotations

import atexit
import copy
import importlib.util
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from traitlets.config import Config

from tutor.resources import (
    LESSONS_DIR_VARIABLE,
    jupyter_data_dir,
    lab_config_dir,
    lessons_dir,
    notebooks_dir,
)
from tutor.teaching.progress_stores import (
    PROGRESS_FILE_VARIABLE,
    PROGRESS_STORE_VARIABLE,
    FileStore,
    ProgressStoreError,
    StoreSetting,
    UnknownStoreError,
    store_setting,
)

if TYPE_CHECKING:
    from tutor.web.room_store import ClassroomKeys

TOKEN_VARIABLE = "TUTOR_TOKEN"
"""A classroom token chosen by whoever starts the app (else one is made up)."""

DEFAULT_PORT = 8866


class LaunchError(Exception):
    """A launch that cannot go ahead; the message says why and what to do."""


@dataclass
class AppOptions:
    """What ``wizard-tutor app`` was asked for."""

    port: int = DEFAULT_PORT
    classroom: bool = False
    notebooks: Path | None = None  # default: the course's notebooks
    lessons: Path | None = None  # a teacher's own lessons, served beside the built-in ones
    max_kernels: int | None = None  # default: tutor.app.server.default_max_kernels()
    max_starting: int | None = None  # default: the CPU count
    kernel_start: str = "fork"  # or "plain": see tutor.app.forked_kernels
    hosts: Sequence[str] = field(default_factory=tuple)
    token_fd: int | None = None
    room_db: Path | None = None  # the live room's SQLite file (default: the app's data folder)
    new_token: bool = False  # classroom: new keys instead of those kept with the room's file
    progress: Path | None = None  # a file that keeps the progress (default: each browser)


def read_token(fd: int) -> str:
    """The token written to the file descriptor ``fd`` (then closed)."""
    with os.fdopen(fd, "rb") as source:
        token = source.read().decode().strip()
    if not token:
        raise LaunchError(f"no token could be read from file descriptor {fd}")
    return token


def restart_without_token_in_environment(argv: Sequence[str]) -> None:
    """Start this command again with ``$TUTOR_TOKEN`` passed through a pipe instead.

    A process's environment stays readable in ``/proc/<pid>/environ`` for its whole life,
    whatever it removes from ``os.environ`` later; kernels and anything else running as
    the same user could read the token there. The new process image gets an environment
    without it (same pid; a pipe holds the token)."""
    token = os.environ[TOKEN_VARIABLE]
    environment = {name: value for name, value in os.environ.items() if name != TOKEN_VARIABLE}
    read_end, write_end = os.pipe()
    os.write(write_end, token.encode())
    os.close(write_end)
    os.set_inheritable(read_end, True)
    command = [sys.executable, "-m", "tutor", *argv, "--token-fd", str(read_end)]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, command, environment)


def choose_progress_store(default: StoreSetting, progress: Path | None = None) -> Path | None:
    """Where the pages keep learners' progress, decided and checked here, before anything
    starts: in the file ``progress`` (``--progress FILE``) when given, else as
    ``$TUTOR_PROGRESS_STORE`` says, else ``default``. The kernels learn it as they learn
    every setting of the launch, from the environment they inherit
    (``$TUTOR_PROGRESS_STORE``, ``$TUTOR_PROGRESS_FILE``). Returns the file that keeps the
    progress (``None``: each learner's browser keeps theirs); one that cannot be written
    stops the start with an error naming it."""
    try:
        store_setting()
    except UnknownStoreError as error:
        raise LaunchError(str(error)) from None
    if progress is not None:
        os.environ[PROGRESS_STORE_VARIABLE] = StoreSetting.FILE.value
        os.environ[PROGRESS_FILE_VARIABLE] = str(progress)
    os.environ.setdefault(PROGRESS_STORE_VARIABLE, default.value)
    if store_setting() is not StoreSetting.FILE:
        return None
    store = FileStore()  # $TUTOR_PROGRESS_FILE, else the learner's home
    try:
        store.verify_writable()
    except ProgressStoreError as error:
        given = os.environ.get(PROGRESS_FILE_VARIABLE)
        if progress is not None:
            named = f"--progress {str(progress)!r}"
        elif given:
            named = f"${PROGRESS_FILE_VARIABLE}={given!r}"
        else:
            named = f"the progress file {str(store.path)!r}"
        raise LaunchError(
            f"{named} cannot keep the progress: {error.detail}; give a file that can be "
            "written (--progress FILE)"
        ) from None
    return store.path


def _prepend_path(variable: str, folder: Path) -> None:
    current = os.environ.get(variable)
    os.environ[variable] = str(folder) + (os.pathsep + current if current else "")


def teacher_notebook(lesson_id: str) -> str:
    """The notebook that shows a teacher's lesson, as the course's lesson notebooks do
    (``show_lesson_page``; a lesson not written in the page's language is shown in
    English)."""
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "id": "page",
                "metadata": {},
                "outputs": [],
                "source": f"from tutor.display import show_lesson_page\n\nshow_lesson_page({lesson_id!r})",
            }
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(notebook, indent=1)


def add_teacher_lessons(teacher: Path, notebooks: Path) -> Path:
    """A course of the built-in lessons and the teacher's ``teacher`` folder, side by side.

    Every lesson of the folder is checked by the engine first (all problems are reported
    at once, naming file, item and problem), and its number must be its own: not one of
    the course's lessons and pages (:func:`~tutor.teaching.lesson_numbers.course_numbers`)
    nor another of the folder's lessons. The course is made in a private temporary folder
    (removed when the app stops): the lessons linked (a teacher's edit shows at the page's
    next load), the notebooks copied, plus a notebook per teacher's lesson. Kernels find the lessons
    through ``$TUTOR_LESSONS_DIR``. Returns the notebooks folder to serve."""
    from tutor.teaching.language import current_language
    from tutor.teaching.lesson import LessonError
    from tutor.teaching.lesson_loader import lesson_paths, load_lesson_file
    from tutor.teaching.lesson_numbers import course_numbers, number_clashes

    if not teacher.is_dir():
        raise LaunchError(f"no lessons folder {str(teacher)!r}")
    theirs = sorted(teacher.glob("*.toml"))
    if not theirs:
        raise LaunchError(f"no lesson files (NN_words.toml) in {teacher}")
    problems: list[str] = []
    lessons = []
    for path in theirs:
        try:
            lessons.append(load_lesson_file(path, label=str(path)))
        except LessonError as error:
            problems.extend(error.problems)
        except OSError as error:
            problems.append(f"{path}: cannot be read ({error.strerror})")
    builtin = lesson_paths(lessons_dir())
    numbers = course_numbers(notebooks=notebooks, lessons=lessons_dir())
    lang = current_language(query="")  # checked by the command line: --lang, $TUTOR_LANG
    clashes = number_clashes(theirs, course=numbers, labels={path: str(path) for path in theirs})
    problems.extend(clash.message(lang) for clash in clashes)
    if problems:
        raise LaunchError(
            "the lessons of " + str(teacher) + " cannot be served:\n  " + "\n  ".join(problems)
        )

    course = Path(tempfile.mkdtemp(prefix="wizard-tutor-course-"))
    atexit.register(shutil.rmtree, course, ignore_errors=True)
    (course / "lessons").mkdir()
    for path in [*builtin, *(lesson.path for lesson in lessons)]:
        (course / "lessons" / path.name).symlink_to(path.resolve())
    served = course / "notebooks"
    shutil.copytree(notebooks, served, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    for lesson in lessons:
        (served / f"{lesson.id}.ipynb").write_text(teacher_notebook(lesson.id), encoding="utf-8")
    os.environ[LESSONS_DIR_VARIABLE] = str(course / "lessons")
    print(f"Serving {len(lessons)} lesson(s) of {teacher} beside the built-in ones:")
    for lesson in lessons:
        print(f"    {lesson.number:02d} {lesson.title()}")
    return served


def room_db_path(options: AppOptions) -> Path:
    """The live room's file: ``--room-db``, else ``$TUTOR_ROOM_DB``, else the default."""
    from tutor.web.room_store import default_room_db

    return options.room_db or default_room_db()


def classroom_keys(options: AppOptions) -> ClassroomKeys:
    """The classroom token, the teacher's key and the cookies' secret, kept with the live
    room's file: the same after a restart (the links handed out keep working, the teacher
    and the learners stay signed in), new ones only with ``--new-token``."""
    from tutor.web.room_store import RoomStore, RoomStoreError

    try:
        store = RoomStore.open_file(room_db_path(options))
    except RoomStoreError as error:
        raise LaunchError(str(error)) from None
    try:
        keys = store.classroom_keys(renew=options.new_token)
    finally:
        store.close()
    if options.new_token:
        print("New classroom keys: the addresses handed out before no longer work.")
    else:
        print("The classroom keys are kept with the live room's file (--new-token makes new ones).")
    return keys


def serve_app(options: AppOptions) -> None:
    """Run the app until Ctrl+C (or SIGTERM); kernels are shut down on the way out."""
    served = options.notebooks or notebooks_dir()
    if not served.is_dir():
        raise LaunchError(f"no notebooks folder at {served}")
    # Each learner's browser keeps their progress (one server for the whole class);
    # --progress FILE (or TUTOR_PROGRESS_STORE=file) keeps it in a file instead (one
    # learner's machine).
    progress = choose_progress_store(StoreSetting.BROWSER, options.progress)
    if options.lessons is not None:
        served = add_teacher_lessons(options.lessons, served)

    # Voila finds the page template and the pages' kernel through JUPYTER_PATH (read when
    # the app starts); the kernels inherit the rest.
    _prepend_path("JUPYTER_PATH", jupyter_data_dir())
    if progress is not None:
        print(f"Progress is kept in {progress}.")
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # debugpy's start-up noise

    token = read_token(options.token_fd) if options.token_fd is not None else None
    keys = classroom_keys(options) if options.classroom else None
    if keys is not None and not token:
        token = keys.token

    from tutor.app.kernel_access import TutorKernelManager
    from tutor.app.server import LOCAL_HOSTS, TutorVoila
    from tutor.app.settings import apply_settings
    from tutor.web.addresses import machine_hosts, room_addresses

    config = Config()
    apply_settings(config)
    if options.classroom:
        # Only here is there a live room (docs/live-room.md): the presenter's page asks for
        # it, and everywhere else asks nothing (no request, no 404 in the console).
        config.VoilaConfiguration.resources["tutor"]["room"] = True
    config.VoilaConfiguration.multi_kernel_manager_class = TutorKernelManager
    # Kernels talk to the server over Unix sockets in the app's private connection folder,
    # not TCP ports on 127.0.0.1: a port picked as free can be taken before the kernel
    # binds it (seen when a class arrives at once: the kernel dies, the page waits), and
    # no other local user can reach a kernel's sockets.
    config.KernelManager.transport = "ipc"
    if options.kernel_start == "fork":
        use_forked_kernels(config)
    if token:
        config.Voila.token = token
    if options.max_kernels is not None:
        config.TutorVoila.max_kernels = options.max_kernels
    if options.max_starting is not None:
        config.TutorVoila.max_starting = options.max_starting

    if options.classroom:
        # Every address, so learners' machines can connect; the token keeps others out.
        ip = "0.0.0.0"
        addresses = machine_hosts()
        config.TutorVoila.allowed_hosts = sorted({*LOCAL_HOSTS, *addresses, *options.hosts})
        print(f"Classroom mode: the tutor listens on every network address, port {options.port}.")
        room = room_addresses(addresses)
        config.TutorVoila.room = True
        config.TutorVoila.room_join = f"http://{room[0] if room else '127.0.0.1'}:{options.port}"
        assert keys is not None
        config.TutorVoila.room_db = str(room_db_path(options))
        config.TutorVoila.teacher_key = keys.teacher
        config.TutorVoila.cookie_secret = keys.cookie_secret
        if room:
            print("Give the pupils one of these addresses (the token is part of it):")
            for address in room:
                print(f"    http://{address}:{options.port}/?token={token}")
        else:
            print("This machine has no network address other machines can reach: connect it")
            print("to the classroom's network, then start the tutor again.")
        print(f"On this machine only: http://127.0.0.1:{options.port}/?token={token}")
    else:
        ip = "127.0.0.1"
        config.TutorVoila.allowed_hosts = sorted({*LOCAL_HOSTS, *options.hosts})
        login = f"?token={token}" if token else ""
        print(
            f"The tutor: http://127.0.0.1:{options.port}/{login}   (this machine only; Ctrl+C stops it)"
        )
    sys.stdout.flush()

    argv = [
        str(served),
        "--no-browser",
        f"--Voila.ip={ip}",
        f"--Voila.port={options.port}",
        "--Voila.port_retries=0",  # never silently move to another port
    ]
    TutorVoila.launch_instance(argv=argv, config=config)


def use_forked_kernels(config: Config) -> None:
    """Make the app's kernels forked from a warm process (:mod:`tutor.app.forked_kernels`),
    and start that process now, so it warms up while the app starts. The provisioner is
    the app's default one, not named in the kernel spec: the hub's servers and JupyterLab
    read the same spec and keep starting their kernels the normal way."""
    from importlib.metadata import entry_points

    from tutor.app.forked_kernels import FORK_SERVER, PROVISIONER_NAME

    if not entry_points(group="jupyter_client.kernel_provisioners", name=PROVISIONER_NAME):
        print(
            "Kernels start the normal way: the fork provisioner is not installed "
            "(pip install -e . in this checkout registers it)"
        )
        return
    config.KernelProvisionerFactory.default_provisioner_name = PROVISIONER_NAME
    FORK_SERVER.start()
    if FORK_SERVER.why_not:
        print(f"Kernels start the normal way: {FORK_SERVER.why_not}")


def kernel_language_info() -> dict[str, Any]:
    """The ``language_info`` the notebooks' kernel (ipykernel, run by this Python) reports,
    which JupyterLab writes into a notebook as soon as the kernel starts."""
    from ipykernel.ipkernel import IPythonKernel

    return copy.deepcopy(dict(IPythonKernel.language_info))


def copy_course(folder: Path, course: Path | None = None) -> list[str]:  # course: else built-in
    """Copy the course's notebooks into ``folder``, keeping the learner's own copies: a
    notebook already there is the learner's work and is never overwritten. Returns the
    names copied.

    A copy is written as JupyterLab will have it once its kernel starts (the kernel's
    ``language_info``): Lab marks a notebook changed (● and "Save changes?") when its
    kernel's differs from the file's, before the learner did anything."""
    from tutor.display.course import learners_copy

    folder.mkdir(parents=True, exist_ok=True)
    language_info = kernel_language_info()
    copied = []
    for notebook in sorted((course or notebooks_dir()).glob("*.ipynb")):
        target = folder / notebook.name
        if not target.exists():
            content = learners_copy(json.loads(notebook.read_text(encoding="utf-8")))
            content["metadata"]["language_info"] = language_info
            saved = json.dumps(content, ensure_ascii=False, indent=1, sort_keys=True)
            target.write_text(saved + "\n", encoding="utf-8")
            copied.append(notebook.name)
    return copied


def check_lab_installed() -> None:
    """JupyterLab is an extra (``wizard-tutor[lab]``, 46 MB the app does not use): without
    it, say in one line how to add it, the checkout's way too when this is a checkout."""
    if importlib.util.find_spec("jupyterlab") is not None:
        return
    how = "pip install 'wizard-tutor[lab]'"
    setup = Path(__file__).resolve().parents[2] / "scripts" / "setup_env.sh"
    if setup.is_file():  # a checkout (editable install): its script installs the lab extra
        how += f" (in this checkout: bash {setup})"
    raise LaunchError(f"wizard-tutor lab needs JupyterLab, which is not installed: {how}")


def lab_command(
    folder: Path, *, port: int | None, open_browser: bool, extra: Sequence[str]
) -> list[str]:
    """The command that starts JupyterLab on ``folder``, opening the course index."""
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        f"--ServerApp.root_dir={folder}",
        "--LabApp.default_url=/lab/tree/index.ipynb",
        # Lab fetches nothing from outside: no news feed, no update check (the prompt
        # about news is switched off in lab_config_dir()'s page config).
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        # Jupyter refuses to run as root unless told; in a container that is normal.
        command.append("--allow-root")
    if port is not None:
        command.append(f"--ServerApp.port={port}")
    if not open_browser:
        command.append("--no-browser")
    return command + list(extra)


def open_lab(
    folder: Path,
    *,
    port: int | None,
    open_browser: bool,
    extra: Sequence[str],
    lessons: Path | None = None,
    progress: Path | None = None,
) -> None:
    """Start JupyterLab on the learner's copy of the course (replaces this process), with
    a teacher's ``lessons`` folder added as the app adds it, and the progress kept in
    the file ``progress`` (default:
    :func:`~tutor.teaching.progress_stores.default_progress_path`)."""
    check_lab_installed()  # before anything is copied: without Lab, nothing changes
    # the learner's own machine: a file (in their home unless told)
    kept = choose_progress_store(StoreSetting.FILE, progress)
    course = add_teacher_lessons(lessons, notebooks_dir()) if lessons is not None else None
    copied = copy_course(folder, course)
    if course is not None:
        # Lab's kernels read only the lessons' links beside it ($TUTOR_LESSONS_DIR): they
        # stay while Lab runs (Lab replaces this process, so nothing would remove them).
        shutil.rmtree(course)
    if copied:
        print(f"Copied {len(copied)} notebook(s) of the course to {folder}")
    print(
        f"Your notebooks are in {folder}: running them changes your copies, never the course "
        "(delete a notebook there to get the original back)."
    )
    if kept is not None:  # else (TUTOR_PROGRESS_STORE=browser) the browser keeps it
        print(f"Your progress is kept in {kept} (--progress FILE for another file).")
    command = lab_command(folder, port=port, open_browser=open_browser, extra=extra)
    _prepend_path("JUPYTER_CONFIG_PATH", lab_config_dir())
    sys.stdout.flush()
    os.execv(sys.executable, command)
