"""Show how far an install of a pinned requirements file has come, from pip's own output.

scripts/setup_env.sh pipes ``pip install -r LOCK`` through this: a first install runs for
a minute or more, and pip's quiet mode says nothing while it does. Each package is named
as pip takes it, counted against the lock ("[12/96] voila==0.5.13"); during pip's last step
(unpacking every wheel into the venv, where pip prints nothing until the end) the count of
packages already in ``SITE_PACKAGES`` is printed every few seconds. Any line this does not
recognise (warnings, errors) is passed through as pip wrote it.

Usage: pip install ... 2>&1 | python scripts/pip_progress.py LOCK SITE_PACKAGES
Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import re
import sys
import threading
import time
from pathlib import Path

PREFIX = "[setup_env]"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)")
COLLECTING = re.compile(r"^Collecting ([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)")
SATISFIED = re.compile(r"^Requirement already satisfied: ([A-Za-z0-9][A-Za-z0-9._-]*)")
DOWNLOADING = re.compile(r"^\s*Downloading (\S+) \(([^)]+)\)")
# a wheel from a folder pip's configuration lists (find-links): name-version-tags.whl
PROCESSING = re.compile(r"^Processing \S*/([A-Za-z0-9._]+)-([^-/]+)-[^/]*\.whl\b")
INSTALLING = "Installing collected packages: "
ROUTINE = (
    "Using cached",
    "Downloading",
    "Obtaining",
    "Checking if build backend",
    "Preparing ",
    "Building ",
    "Created wheel",
    "Stored in directory",
    "Successfully built",
    "Attempting uninstall",
    "Found existing installation",
    "Uninstalling",
    "Successfully uninstalled",
    "Looking in indexes",
    "Looking in links",
    "Installing build dependencies",
    "Getting requirements",
)
# Some machines' pip configuration lists local index folders they do not have.
IGNORED = re.compile(r"^WARNING: Location 'file://.*' is ignored: it is neither a file nor")


def say(line: str) -> None:
    print(f"{PREFIX} {line}", flush=True)


def installed_count(site_packages: Path) -> int:
    return sum(1 for _ in site_packages.glob("*.dist-info"))


class Unpacking:
    """Prints, every few seconds while pip unpacks, how many of its packages are in."""

    def __init__(self, site_packages: Path, count: int) -> None:
        self.site_packages, self.count = site_packages, count
        self.before = installed_count(site_packages)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._report, daemon=True)
        self.thread.start()

    def _report(self) -> None:
        start = time.monotonic()
        while not self.done.wait(5):
            # an upgrade replaces a dist-info, so the count can only be a lower bound
            now = min(max(installed_count(self.site_packages) - self.before, 0), self.count)
            say(f"  unpacking: {now}/{self.count} ({time.monotonic() - start:.0f} s)")

    def stop(self) -> None:
        self.done.set()
        self.thread.join()


def main(lock: Path, site_packages: Path) -> None:
    total = sum(1 for line in lock.read_text(encoding="utf-8").splitlines() if PIN.match(line))
    seen = satisfied = 0
    unpacking: Unpacking | None = None
    for raw in sys.stdin:
        line = raw.rstrip("\n")
        stripped = line.strip()
        if not stripped or IGNORED.match(stripped):
            continue
        if match := COLLECTING.match(stripped) or PROCESSING.match(stripped):
            seen += 1
            say(f"[{seen}/{total}] {match.group(1)}=={match.group(2)}")
        elif SATISFIED.match(stripped):
            seen += 1
            satisfied += 1
        elif match := DOWNLOADING.match(line):
            say(f"  downloading {match.group(1)} ({match.group(2)})")
        elif stripped.startswith(INSTALLING):
            names = [name for name in stripped[len(INSTALLING) :].split(", ") if name]
            if satisfied:
                say(f"{satisfied} of the {total} were installed already")
            say(f"unpacking {len(names)} packages into the venv (pip's longest step)")
            unpacking = Unpacking(site_packages, len(names))
        elif stripped.startswith("Successfully installed"):
            if unpacking is not None:
                unpacking.stop()
                unpacking = None
            say(f"installed {len(stripped.split()) - 2} packages")
        elif not stripped.startswith(ROUTINE):
            print(line, flush=True)
    if unpacking is not None:  # pip stopped before the end: its own lines said why
        unpacking.stop()
    if seen and seen == satisfied:
        say(f"all {seen} packages were installed already")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: pip install ... 2>&1 | python pip_progress.py LOCK SITE_PACKAGES")
    main(Path(sys.argv[1]), Path(sys.argv[2]))
