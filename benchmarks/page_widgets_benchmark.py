"""Widget models a page makes at its first render, per page of the course, today's tutor
beside a reference revision's, in one run.

Each notebook runs as the app's kernel runs it (Voila's variables, ``?lang=en``, the
notebooks folder as the working directory, as ``tests/display/test_notebooks.py`` does);
what a page costs its kernel, the server and the browser grows with the widget models it
opens and sends, counted here from the widget state the run leaves (every model still
open when the page has been drawn; a learner who scrolls on builds more).

The reference is another revision of the tutor (default: ``main``), taken with
``git archive`` into a temporary folder and put first on the kernel's ``PYTHONPATH``, so
both run in the same virtualenv, on the same machine, one after the other.

Then lesson 06 (the classroom benchmark's page) as a learner uses it, phase by phase
(``page_messages.py``): the widget models opened and the updates sent at the first render,
to reach the quiz's first question and to answer it, both revisions side by side.

Run: ``.venv/bin/python benchmarks/page_widgets_benchmark.py [--reference REV] [--lang ja]
[--phases-only]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from display.notebook_run import run_notebook
from process_guard import sigterm_as_exit


def count_models(checkout: Path, notebook: Path, lang: str, progress: Path) -> tuple[int, float]:
    """The widget models ``notebook`` leaves open when run with the tutor of ``checkout``,
    and the seconds its run took."""
    page = nbformat.read(notebook, as_version=4)
    env = {
        "PYTHONPATH": str(checkout),
        "SERVER_SOFTWARE": "voila/0.5.13",
        "QUERY_STRING": f"lang={lang}",
        "TUTOR_PROGRESS_FILE": str(progress),
    }
    started = time.perf_counter()
    state = run_notebook(page, env=env, folder=notebook.parent)
    seconds = time.perf_counter() - started
    errors = [
        output
        for cell in page.cells
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]
    if errors:
        raise SystemExit(f"{notebook.name} failed in {checkout}: {errors[0]['ename']}")
    return len(state), seconds


def phases(checkout: Path, lesson: str) -> dict[str, dict[str, int]]:
    """What ``lesson``'s kernel sends, phase by phase, with the tutor of ``checkout``
    (``page_messages.py`` in a process of its own)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "page_messages.py"), lesson],
        cwd=checkout / "notebooks",
        env={**os.environ, "PYTHONPATH": str(checkout)},
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, dict[str, int]] = json.loads(done.stdout)
    return result


def print_phases(reference: Path, lesson: str = "06_trick_winner") -> None:
    """The phases of ``lesson`` for the reference and now, side by side."""
    old, new = phases(reference, lesson), phases(ROOT, lesson)
    print(f"{lesson}, as a learner uses it: models opened, updates sent (+ echoes), KiB")
    print(f"{'phase':<18} | {'reference':^22} | {'now':^22} | models now/ref")
    totals = {"reference": [0, 0, 0.0], "now": [0, 0, 0.0]}
    for name in [*old, "all"]:
        cells = []
        for which, measured in (("reference", old), ("now", new)):
            if name == "all":
                models, updates, kib = totals[which]
            else:
                phase = measured[name]
                models, updates = phase["models"], phase["updates"] + phase["echoes"]
                kib = phase["bytes"] / 1024
                for index, value in enumerate((models, updates, kib)):
                    totals[which][index] += value
            cells.append(f"{models:5.0f} {updates:5.0f} {kib:7.1f} KiB")
        ratio = new.get(name, {}).get("models", totals["now"][0]) / max(
            1, old.get(name, {}).get("models", totals["reference"][0])
        )
        print(f"{name:<18} | {cells[0]:>22} | {cells[1]:>22} | {ratio:5.2f}")


def archive(revision: str, into: Path) -> Path:
    """The tutor, its lessons and notebooks at ``revision``, unpacked in ``into``."""
    tar = into / "reference.tar"
    with tar.open("wb") as out:
        subprocess.run(
            ["git", "archive", revision, "tutor", "lessons", "notebooks"],
            cwd=ROOT,
            check=True,
            stdout=out,
        )
    with tarfile.open(tar) as opened:
        opened.extractall(into, filter="data")
    return into


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", default="main", help="the revision to compare with")
    parser.add_argument("--lang", default="en", help="the pages' language")
    parser.add_argument(
        "--phases-only", action="store_true", help="only lesson 06's phases, not every page"
    )
    args = parser.parse_args()
    revision = subprocess.run(
        ["git", "rev-parse", "--short", args.reference],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as folder:
        reference = archive(revision, Path(folder))
        print(f"reference {revision}")
        print()
        print_phases(reference)
        if args.phases_only:
            return 0
        print()
        print(f"widget models open after a page's first render ({args.lang})")
        print(f"{'page':<24} {'reference':>9} {'now':>6} {'now/ref':>8}   run s (ref, now)")
        worst = 0.0
        for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
            old, old_s = count_models(
                reference, reference / "notebooks" / notebook.name, args.lang,
                Path(folder) / "progress-ref.jsonl",
            )  # fmt: skip
            new, new_s = count_models(
                ROOT, notebook, args.lang, Path(folder) / "progress-now.jsonl"
            )
            ratio = new / old if old else 1.0
            if "show_lesson_page" in notebook.read_text(encoding="utf-8"):
                worst = max(worst, ratio)
            print(
                f"{notebook.stem:<24} {old:>9} {new:>6} {ratio:>8.2f}   {old_s:5.1f} {new_s:5.1f}"
            )
    print()
    print(f"largest ratio of a lesson page: {worst:.2f} (goal: at most 0.25 on a lesson page)")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sigterm_as_exit()
    sys.exit(main())
