"""What a page of the course costs its kernel to import: lesson 06 (no chart), lesson 07
(the score sheet and its chart) and the play screen, each run as its notebook's code in a
fresh interpreter.

Each run first imports what a kernel has loaded before any page code runs
(``ipykernel.kernelapp``), then the page's code. Per page: the modules the page added, its
import time (the sum of ``python -X importtime``'s own times for those modules: what the
page's imports cost, without its other work), the wall time of the page's code, and the
peak memory (RSS) of the process; the median of ``--runs`` runs, the pages taking turns so
a change of load hits them alike. The yardstick, in the same run: the kernel's own
imports, which every page pays anyway.
``--tree DIR`` (repeatable) measures other checkouts of the project (e.g. ``git archive``
of an older commit unpacked in DIR) in the same run, taking turns with each other, so
before/after figures come from the same machine and load.

Run: ``.venv/bin/python benchmarks/lesson_imports_benchmark.py [--runs 7] [--tree DIR ...]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from process_guard import sigterm_as_exit

PAGES = {
    "lesson 06 (trick winner)": "06_trick_winner.ipynb",
    "lesson 07 (scores + chart)": "07_scoring.ipynb",
    "play screen": "11_play_a_round.ipynb",
}
HEAVY = ("numpy", "matplotlib")
KERNEL = (
    "import sys, time\nimport ipykernel.kernelapp\nKERNEL_MODULES = set(sys.modules)\n"
    "sys.stderr.write('--page--\\n')\nSTART = time.perf_counter()\n"
)
REPORT = (
    "\nimport json, resource, sys, tutor\nWALL = time.perf_counter() - START\n"
    "print(json.dumps([tutor.__file__, sorted(set(sys.modules) - KERNEL_MODULES), WALL,"
    " sorted(KERNEL_MODULES), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss]))\n"
)


def notebook_code(tree: Path, name: str) -> str:
    cells = json.loads((tree / "notebooks" / name).read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "code")


def run(code: str, tree: Path) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", KERNEL + code + REPORT],
        capture_output=True,
        text=True,
        cwd=tree,
        env=env,
        check=True,
    )
    kernel_log, page_log = done.stderr.split("--page--", 1)
    origin, modules, wall, kernel_modules, peak_kib = json.loads(
        done.stdout.strip().splitlines()[-1]
    )
    return {
        "kernel imports": _own_seconds(kernel_log),
        "kernel modules": len(kernel_modules),
        "imports": _own_seconds(page_log),
        "modules": len(modules),
        "wall": wall,
        "heavy": sorted({m.split(".")[0] for m in modules if m.split(".")[0] in HEAVY}),
        "peak": peak_kib / 1024,
        "origin": origin,
    }


def _own_seconds(log: str) -> float:
    return sum(int(m.group(1)) for m in re.finditer(r"import time:\s+(\d+) \|", log)) / 1e6


def _floats(runs: list[dict[str, object]], key: str) -> list[float]:
    return [float(run[key]) for run in runs]  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--tree",
        type=Path,
        action="append",
        help="a checkout to measure (repeatable; default: this one)",
    )
    args = parser.parse_args()
    trees = [tree.resolve() for tree in (args.tree or [ROOT])]
    print(
        f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
        f"({os.cpu_count()} cores)"
    )
    codes = {
        (tree, page): notebook_code(tree, name) for tree in trees for page, name in PAGES.items()
    }
    results: dict[tuple[Path, str], list[dict[str, object]]] = {key: [] for key in codes}
    for _ in range(args.runs):
        for key, code in codes.items():
            results[key].append(run(code, key[0]))
    every = [r for runs in results.values() for r in runs]
    kernel = statistics.median(_floats(every, "kernel imports"))
    print(
        f"the kernel's own imports (yardstick): {every[0]['kernel modules']} modules, "
        f"{kernel:.2f} s (median of {len(every)} runs)"
    )
    for tree in trees:
        origins = {str(r["origin"]) for (t, _), runs in results.items() if t == tree for r in runs}
        print(f"\n{tree} (tutor imported from {', '.join(sorted(origins))})")
        print(
            f"{'page':28} {'+modules':>8} {'+imports s':>10} {'/ kernel':>8} "
            f"{'page wall s':>11} {'peak MiB':>8}  NumPy/Matplotlib"
        )
        for page in PAGES:
            runs = results[tree, page]
            imports = statistics.median(_floats(runs, "imports"))
            heavy = ", ".join(runs[0]["heavy"]) or "-"  # type: ignore[arg-type]
            print(
                f"{page:28} {runs[0]['modules']:>8} {imports:10.2f} {imports / kernel:8.2f} "
                f"{statistics.median(_floats(runs, 'wall')):11.2f} "
                f"{statistics.median(_floats(runs, 'peak')):8.0f}  {heavy}"
            )
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    sigterm_as_exit()
    main()
