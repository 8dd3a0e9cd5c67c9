"""Fetch what the static site's build copies in, once, from the package registries: the
Pyodide runtime (npm ``pyodide``, ``pyodide/package-lock.json``) and the browser's
pure-Python wheels (PyPI, ``browser-requirements.txt``, every hash checked by pip), into
:func:`tutor.site.build_inputs.runtime_dir`. ``scripts/setup_site.sh`` and
``wizard-tutor build-site --fetch`` run it; the build itself is then offline.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tutor.site.build_inputs import (
    BROWSER_REQUIREMENTS,
    PYODIDE_PACKAGE,
    PYODIDE_PYTHON,
    SiteBuildError,
)


def fetch_runtime(destination: Path) -> None:
    """``npm ci`` of the pinned Pyodide (no install scripts run) and ``pip download`` of the
    browser's wheels (``--require-hashes``) into ``destination``."""
    npm = shutil.which("npm")
    if npm is None:
        raise SiteBuildError(
            "npm is missing: the Pyodide runtime comes from npm. Install Node.js and npm "
            "(Debian: sudo apt-get install nodejs npm), then fetch again."
        )
    destination.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(PYODIDE_PACKAGE.with_name(name), destination / name)
    commands = [
        ([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--silent"], destination),
        (
            [sys.executable, "-m", "pip", "download", "--quiet", "--progress-bar", "off",
             "--no-deps", "--only-binary=:all:", "--require-hashes",
             "--python-version", PYODIDE_PYTHON, "--platform", "any",
             "--implementation", "py", "--abi", "none",
             "-d", str(destination / "wheels"), "-r", str(BROWSER_REQUIREMENTS)],
            None,
        ),
    ]  # fmt: skip
    for command, folder in commands:
        if subprocess.run(command, cwd=folder, check=False).returncode != 0:
            raise SiteBuildError(f"fetching the site's runtime failed: {' '.join(command[:3])}")


if __name__ == "__main__":
    from tutor.site.build_inputs import runtime_dir

    try:
        fetch_runtime(runtime_dir())
    except SiteBuildError as error:
        sys.exit(f"error: {error}")
