"""tests/worker_groups.py: on two pytest-xdist workers (``--dist loadgroup``, as
scripts/test.sh runs the suite), the tests that share a costly set-up run on one worker,
which sets it up once: here two modules of a server folder (tests/hub's kind), each its
own group, whose tests record the worker that ran them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent

MODULE = """
import json, os, pathlib, pytest

@pytest.mark.parametrize("n", range(12))
def test_records_its_worker(n, request):
    out = pathlib.Path(os.environ["WORKER_LOG"])
    with out.open("a") as log:
        log.write(json.dumps([request.node.nodeid, os.environ["PYTEST_XDIST_WORKER"]]) + "\\n")
"""


def test_the_tests_of_one_module_of_servers_run_on_one_worker(tmp_path: Path) -> None:
    folder = tmp_path / "hub"  # a folder whose modules start servers of their own
    folder.mkdir()
    for name in ("test_one_hub.py", "test_another_hub.py"):
        (folder / name).write_text(MODULE)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    log = tmp_path / "workers.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-p", "worker_groups",
         "-p", "no:cacheprovider", "-q", str(folder)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(TESTS), "WORKER_LOG": str(log)},
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    ran = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(ran) == 24, ran
    for module in ("test_one_hub.py", "test_another_hub.py"):
        ids = [nodeid for nodeid, _worker in ran if f"/{module}::" in nodeid]
        assert len(ids) == 12 and all(nodeid.endswith(f"@hub/{module}") for nodeid in ids), ids
        workers = {worker for nodeid, worker in ran if nodeid in ids}
        assert len(workers) == 1, f"{module}'s tests ran on {sorted(workers)}"
