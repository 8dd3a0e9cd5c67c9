"""The tutor as a pip user gets it: the wheel is built, installed into a fresh virtualenv
outside the checkout, and used from another folder: the package imports, every lesson
loads, the command answers ``--version`` and checks lesson files, and the app it starts
serves the course index and the worked example to Chromium.

The wheel is installed as a pip user installs it, with its dependencies (at the versions
of requirements/lock.txt, so the run repeats; pip's cache makes the next run quicker): a
dependency the wheel forgot to declare fails here. It needs the package index, as
scripts/setup_env.sh does. The test checks that ``tutor`` came from the fresh virtualenv,
not from the checkout.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tutor.display.course import course_entries
from tutor.teaching.text import text
from tutor.teaching.worked_example import worked_example

from .app_process import ROOT, AppServer
from .fixtures import wait_until

pytestmark = [pytest.mark.slow, pytest.mark.browser]

VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
LESSONS = sorted(path.name for path in (ROOT / "lessons").glob("*.toml"))
NOTEBOOKS = sorted(path.name for path in (ROOT / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built from the checkout as `pip wheel .` builds it."""
    out = tmp_path_factory.mktemp("dist")
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
    subprocess.run(
        [*pip_wheel, "--no-build-isolation", "--wheel-dir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (built,) = out.glob("wizard_tutor-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A fresh virtualenv with the wheel installed, and a folder outside the checkout."""
    home = tmp_path_factory.mktemp("pip-user")
    venv = home / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    install = [str(python), "-m", "pip", "install", "--quiet", "--progress-bar", "off"]
    done = subprocess.run(
        [*install, str(wheel), "--constraint", str(ROOT / "requirements" / "lock.txt")],
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert done.returncode == 0, f"pip install of the wheel failed:\n{done.stderr[-3000:]}"
    elsewhere = home / "somewhere-else"
    elsewhere.mkdir()
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in ("PYTHONPATH", "VIRTUAL_ENV", "JUPYTER_PATH", "TUTOR_LESSONS_DIR")
    }
    environment["PATH"] = f"{venv / 'bin'}{os.pathsep}{environment.get('PATH', '')}"
    yield {"venv": venv, "python": python, "cwd": elsewhere, "env": environment}
    # Removing the venv's 17,000 files waits on the disk (15-50 s on a loaded machine,
    # for under 1 CPU-s): done beside the tests that follow rather than before them.
    subprocess.run(["sh", "-c", 'rm -rf -- "$1" >/dev/null 2>&1 &', "sh", str(home)], check=True)


def run(installed: dict[str, Any], *command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(command),
        cwd=installed["cwd"],
        env=installed["env"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_wheel_carries_what_the_tutor_needs_at_run_time(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"tutor/data/lessons/{name}" for name in LESSONS} <= names
    assert {f"tutor/data/notebooks/{name}" for name in NOTEBOOKS} <= names
    assert "tutor/data/teachers-guide.md" in names  # new-lesson points a pip user to it
    template = "tutor/app/jupyter/nbconvert/templates/tutor/"
    for name in ("conf.json", "index.html.j2", "page.html", "tree.html", "static/tutor-keys.js"):
        assert template + name in names, name
    assert "tutor/app/jupyter/kernels/python3/kernel.json" in names
    assert "tutor/teaching/locale/ja/app.toml" in names and "tutor/py.typed" in names
    dist_info = f"wizard_tutor-{VERSION}.dist-info"
    assert f"{dist_info}/licenses/LICENSE" in names
    # any Jupyter server of the environment saves the course's notebooks through the tutor
    shared = f"wizard_tutor-{VERSION}.data/data/etc/jupyter/jupyter_server_config.d/"
    assert shared + "wizard-tutor.json" in names
    assert (
        "wizard-tutor = tutor.cli:main"
        in zipfile.ZipFile(wheel).read(f"{dist_info}/entry_points.txt").decode()
    )
    # Every file of the package (modules, catalogs, the widgets' JavaScript, the template),
    # but the fast simulator: it needs NumPy, which the wheel does not declare.
    package = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tutor").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }
    fastsim = {name for name in package if name.startswith("tutor/play/fastsim/")}
    assert "tutor/play/fastsim/playout.py" in fastsim and not fastsim & names
    assert package - fastsim <= names, sorted(package - names)
    assert not [name for name in names if "__pycache__" in name or "checkpoints" in name]
    metadata = zipfile.ZipFile(wheel).read(f"{dist_info}/METADATA").decode()
    assert "pip install wizard-tutor" in metadata and "bash scripts/" not in metadata


def test_the_installed_package_finds_its_lessons_and_notebooks_in_itself(
    installed: dict[str, Any],
) -> None:
    done = run(
        installed,
        str(installed["python"]),
        "-c",
        "import tutor, tutor.resources as r\n"
        "from tutor.teaching.lesson_loader import list_lessons\n"
        "print(tutor.__file__)\n"
        "print(tutor.__version__)\n"
        "print(r.notebooks_dir())\n"
        "print(len(list_lessons()))\n",
    )
    assert done.returncode == 0, done.stderr
    package, version, notebooks, lessons = done.stdout.split("\n")[:4]
    venv = str(installed["venv"])
    assert package.startswith(venv) and notebooks.startswith(venv)
    assert notebooks.endswith("tutor/data/notebooks")
    assert version == VERSION
    assert int(lessons) == len(LESSONS)


def test_the_command_answers_version_and_checks_lesson_files(
    installed: dict[str, Any],
) -> None:
    done = run(installed, "wizard-tutor", "--version")
    assert (done.returncode, done.stdout.strip()) == (0, f"wizard-tutor {VERSION}")
    assert run(installed, "python", "-m", "tutor", "--version").stdout == done.stdout

    good = installed["cwd"] / "12_my_trick.toml"
    source = (ROOT / "lessons" / "06_trick_winner.toml").read_text(encoding="utf-8")
    good.write_text(source, encoding="utf-8")
    done = run(installed, "wizard-tutor", "check", str(good))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"ok: {good}: lesson 12")

    # The same lesson, with the first stated winner changed to a player who did not win.
    bad = installed["cwd"] / "13_wrong_answer.toml"
    first = re.search(r'^winner = "(\w)"', source, flags=re.MULTILINE)
    assert first is not None
    wrong = "A" if first.group(1) != "A" else "B"
    bad.write_text(source.replace(first.group(0), f'winner = "{wrong}"', 1), encoding="utf-8")
    done = run(installed, "wizard-tutor", "check", str(good), str(bad))
    assert done.returncode == 1
    assert done.stdout.startswith(f"ok: {good}")
    assert "13_wrong_answer.toml" in done.stderr and f"states winner '{wrong}'" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_installed_command_starts_a_lesson_and_names_the_guide_it_carries(
    installed: dict[str, Any],
) -> None:
    done = run(installed, "wizard-tutor", "new-lesson", "mylessons/12_trumps.toml")
    assert done.returncode == 0, done.stderr
    guide = Path(done.stdout.splitlines()[-1].split(": ", 1)[1].strip())
    assert guide.is_relative_to(installed["venv"]) and guide.name == "teachers-guide.md"
    assert "# Writing your own lessons: a teacher's guide" in guide.read_text(encoding="utf-8")
    done = run(installed, "wizard-tutor", "check", "mylessons/12_trumps.toml")
    assert (done.returncode, done.stderr) == (0, "")


def test_a_plain_install_has_no_jupyterlab_and_lab_says_how_to_add_it(
    installed: dict[str, Any],
) -> None:
    """JupyterLab is the ``lab`` extra: ``pip install wizard-tutor`` leaves it out, and
    ``wizard-tutor lab`` says in one line how to add it (a pip user has no checkout)."""
    done = run(
        installed, "python", "-c", "import importlib.util as u; print(u.find_spec('jupyterlab'))"
    )
    assert (done.returncode, done.stdout.strip()) == (0, "None"), done.stderr
    done = run(installed, "wizard-tutor", "lab", "--no-browser", "--dir", "course")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "pip install 'wizard-tutor[lab]'" in done.stderr and "checkout" not in done.stderr
    assert not (installed["cwd"] / "course").exists()


def test_the_installed_app_serves_the_course_to_a_browser(
    installed: dict[str, Any], browser: Any
) -> None:
    server = AppServer(
        command=[str(installed["venv"] / "bin" / "wizard-tutor"), "app"],
        cwd=installed["cwd"],
        env=installed["env"],
        inherit_env=False,
    )
    with server:
        context = browser.new_context()
        page = context.new_page()
        page.goto(server.url("/"), timeout=120_000)
        page.wait_for_url("**/voila/render/index.ipynb", timeout=120_000)
        links = page.locator(".tutor-course-entry a.tutor-open")
        links.first.wait_for(timeout=120_000)
        # every notebook but the index and the review page (the course page links to that
        # only when rules are due)
        assert links.count() == len(course_entries(ROOT / "notebooks"))
        page.goto(server.render_url("08_worked_example.ipynb"), timeout=120_000)
        page.locator("button.tutor-step-next").click(timeout=120_000)
        second = text("stepper.position", number=2, total=len(worked_example().steps))
        page.get_by_text(second).wait_for(timeout=30_000)
        # The pages' kernels ran in the fresh virtualenv's Python. Looked for while the
        # page is open: a closed page's kernel ends, and a search after the close found
        # none on a loaded machine (issue 33); the index's kernel may be ending meanwhile.
        commands = wait_until(
            lambda: _kernel_commands(server), 60_000, "the open page's kernel process"
        )
        context.close()
        for command in commands:
            assert command[0].startswith(str(installed["venv"])), command


def _kernel_commands(server: AppServer) -> list[list[str]]:
    """The command line of each kernel process of ``server`` still running."""
    commands = []
    for pid in server.kernel_pids():
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:  # ended since it was listed
            continue
        commands.append([part.decode() for part in command])
    return commands
