"""The set-up's two pinned sets (requirements/app.txt for the app, requirements/lock.txt for
everything) and the progress scripts/setup_env.sh shows while it installs one."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)$")


def pins(name: str) -> dict[str, str]:
    text = (ROOT / "requirements" / name).read_text(encoding="utf-8")
    return {
        canonicalize_name(match.group(1)): match.group(2)
        for line in text.splitlines()
        if (match := PIN.match(line.strip()))
    }


def project() -> dict[str, list[str]]:
    table = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {
        "": table["project"]["dependencies"],
        **table["project"]["optional-dependencies"],
        "build": table["build-system"]["requires"],
    }


def names(requirements: list[str]) -> set[str]:
    return {canonicalize_name(Requirement(line).name) for line in requirements}


def test_the_apps_pins_are_the_locks_and_hold_only_what_the_app_needs() -> None:
    app, everything = pins("app.txt"), pins("lock.txt")
    assert app.items() <= everything.items(), {
        name: (version, everything.get(name)) for name, version in app.items()
        if everything.get(name) != version
    }  # fmt: skip
    wanted = project()
    # the app's own dependencies and the editable build's backend (setup_env.sh builds
    # without isolation), each pinned
    assert names(wanted[""]) | names(wanted["build"]) <= set(app)
    # and nothing of the extras that the app's dependencies do not pull in
    assert {"jupyterlab", "pytest", "mypy", "playwright", "jupyterhub", "voici-core"}.isdisjoint(
        app
    )
    assert len(app) < len(everything)


def test_the_full_lock_pins_every_extra() -> None:
    everything = pins("lock.txt")
    for extra, requirements in project().items():
        if extra != "bench":  # OpenSpiel: optional, for one benchmark (README)
            assert names(requirements) <= set(everything), extra


def progress(pip_output: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "pip_progress.py"),
         str(ROOT / "requirements" / "app.txt"), str(ROOT / "requirements")],
        input=pip_output, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return done.stdout.splitlines()


def test_the_install_names_each_package_counted_against_the_lock() -> None:
    total = len(pins("app.txt"))
    lines = progress(
        "Looking in links: /opt/wheels\n"
        "Collecting anyio==4.16.0 (from -r requirements/app.txt (line 7))\n"
        "  Downloading anyio-4.16.0-py3-none-any.whl (134 kB)\n"
        "Processing /opt/files/argon2_cffi-25.1.0-py3-none-any.whl (from -r r.txt (line 15))\n"
        "Requirement already satisfied: six==1.17.0 in /venv/lib/site-packages\n"
        "WARNING: Location 'file:///opt/more/' is ignored: it is neither a file nor a directory\n"
        "ERROR: Could not find a version that satisfies the requirement nope==1\n"
        "Installing collected packages: anyio, argon2_cffi\n"
        "Successfully installed anyio-4.16.0 argon2_cffi-25.1.0\n"
    )
    assert lines == [
        f"[setup_env] [1/{total}] anyio==4.16.0",
        "[setup_env]   downloading anyio-4.16.0-py3-none-any.whl (134 kB)",
        f"[setup_env] [2/{total}] argon2_cffi==25.1.0",
        # what it does not know is passed on as pip wrote it
        "ERROR: Could not find a version that satisfies the requirement nope==1",
        f"[setup_env] 1 of the {total} were installed already",
        "[setup_env] unpacking 2 packages into the venv (pip's longest step)",
        "[setup_env] installed 2 packages",
    ]


def test_a_second_run_says_everything_was_there() -> None:
    lines = progress(
        "Requirement already satisfied: anyio==4.16.0 in /venv\n"
        "Requirement already satisfied: six==1.17.0 in /venv\n"
    )
    assert lines == ["[setup_env] all 2 packages were installed already"]


# Imports that exist only where the module runs: the static site's kernel (Pyodide).
PYODIDE_ONLY = {"js", "piplite", "pyodide_kernel"}
TOOL_EXTRAS = {"test", "bench", "build"}  # a checkout's tools: a shipped module may not need them


def closure(requirements: list[str]) -> set[str]:
    """The installed distributions ``requirements`` bring, with what those require in turn
    (their own extras left out, as pip leaves them out)."""
    from importlib import metadata

    seen: set[str] = set()
    todo = [Requirement(line) for line in requirements]
    while todo:
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        if name in seen:
            continue
        seen.add(name)
        for line in metadata.requires(name) or []:
            needed = Requirement(line)
            if needed.marker is None or needed.marker.evaluate({"extra": ""}):
                todo.append(needed)
    return seen


def shipped_modules() -> list[Path]:
    """The package's modules that go into the wheel (pyproject's exclusions left out)."""
    table = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    excluded = table["tool"]["hatch"]["build"]["targets"]["wheel"]["exclude"]
    return [
        path
        for path in (ROOT / "tutor").rglob("*.py")
        if not any(path.relative_to(ROOT).match(pattern) for pattern in excluded)
    ]


def test_every_shipped_module_imports_only_what_the_wheel_declares() -> None:
    """What ships runs: each import of a module in the wheel is the standard library's, the
    tutor's own, or a distribution the wheel's dependencies (or a user's extra: lab, hub,
    site) bring; NumPy, for one, comes only with the test extra."""
    import ast
    from importlib import metadata

    declared = project()
    allowed = closure(
        [line for extra, lines in declared.items() if extra not in TOOL_EXTRAS for line in lines]
    )
    owners = metadata.packages_distributions()
    wrong = []
    for path in shipped_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                if top in sys.stdlib_module_names or top == "tutor" or top in PYODIDE_ONLY:
                    continue
                if not {canonicalize_name(d) for d in owners.get(top, [top])} & allowed:
                    wrong.append(f"{path.relative_to(ROOT)}: {module}")
    assert wrong == []
    shipped = {p.relative_to(ROOT).as_posix() for p in shipped_modules()}
    assert "tutor/play/fastsim/playout.py" in {
        p.relative_to(ROOT).as_posix() for p in (ROOT / "tutor").rglob("*.py")
    }
    assert not [name for name in shipped if name.startswith("tutor/play/fastsim/")]
