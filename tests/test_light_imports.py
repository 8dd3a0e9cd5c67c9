"""What a page of the course imports is what every page a class opens pays for, and what
the browser build (Pyodide) must be able to load: neither NumPy nor Matplotlib.

As in tests/test_layers.py, each check runs in a fresh interpreter and reads its
``sys.modules``: every module of the display and play layers imported alone, then the code
of real notebooks run to the end (a lesson that draws the score chart, the play screen
with a bidding coach's advice). Only the fast simulator (tutor.play.fastsim), a tool for
benchmarks and tests, may use NumPy.
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import tutor.display
import tutor.play

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("numpy", "matplotlib")
TOOLS = {"tutor.play.fastsim"}  # benchmarks' and tests' own: needs NumPy by design


def heavy_in(loaded: list[str]) -> list[str]:
    return [name for name in loaded if name.split(".")[0] in HEAVY]


def run_and_list_modules(code: str, tmp_path: Path) -> list[str]:
    """Every module in ``sys.modules`` after a fresh interpreter runs ``code``."""
    program = code + "\nimport json, sys\nprint('\\n' + json.dumps(sorted(sys.modules)))\n"
    run = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    names: list[str] = json.loads(run.stdout.strip().splitlines()[-1])
    return names


PAGE_MODULES = [
    name
    for package in (tutor.display, tutor.play)
    for name in (
        package.__name__,
        *(m.name for m in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")),
    )
    if name not in TOOLS
]


@pytest.mark.parametrize("module", PAGE_MODULES)
def test_no_page_module_imports_numpy_or_matplotlib(module: str, tmp_path: Path) -> None:
    assert heavy_in(run_and_list_modules(f"import {module}", tmp_path)) == []


def test_the_page_modules_are_found() -> None:
    assert {"tutor.display.chart", "tutor.display.play", "tutor.play.coach"} <= set(PAGE_MODULES)


def notebook_code(name: str) -> str:
    cells = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "code")


def test_a_lesson_that_draws_the_score_chart_loads_neither(tmp_path: Path) -> None:
    code = notebook_code("07_scoring.ipynb")
    assert "show_lesson" in code  # the lesson whose score sheet comes with the chart
    loaded = run_and_list_modules(
        code + "\nfrom tutor.display.lesson_view import example_picture\n"
        "from tutor.teaching.lesson_loader import load_lesson\n"
        "sheet = load_lesson('07').item('worked-game-sheet')\n"
        "assert 'score-chart' in example_picture(sheet, 'en')\n",
        tmp_path,
    )
    assert "tutor.display.chart" in loaded and "tutor.display.lesson_view" in loaded
    assert heavy_in(loaded) == []


def test_the_play_screen_and_its_coach_load_neither(tmp_path: Path) -> None:
    code = notebook_code("11_play_a_round.ipynb")
    loaded = run_and_list_modules(
        code + "\nfrom tutor.play.session import PlaySession\n"
        "session = PlaySession(players=4, cards=5, seed=3)\n"
        "assert session.advise(simulations=50).simulations == 50\n",
        tmp_path,
    )
    assert "tutor.display.play" in loaded and "tutor.play.coach" in loaded
    assert heavy_in(loaded) == []


def test_the_live_rooms_store_is_loaded_only_by_a_classroom(tmp_path: Path) -> None:
    """SQLAlchemy (the live room's store, tutor/web/room_store.py) is the app's only in
    classroom mode, where the server makes the room: starting the app without a room, and
    every page's kernel, never load it."""
    loaded = run_and_list_modules(
        "import tutor.cli, tutor.app.launch, tutor.app.server, tutor.display.course", tmp_path
    )
    assert "tutor.app.server" in loaded
    assert [name for name in loaded if name.split(".")[0] == "sqlalchemy"] == []
    assert "tutor.web.room_store" not in loaded
