#!/usr/bin/env bash
# Create/refresh the project virtualenv in <repo>/.venv.
#
# Idempotent: the venv is created only if missing (or broken), and the pinned
# dependencies (requirements/lock.txt) plus the project itself (editable) are
# (re)installed only when lock.txt or pyproject.toml is newer than the stamp
# file .venv/.installed-stamp. A warm re-run takes well under a second.
#
# Usage: bash scripts/setup_env.sh          (from any directory)
# Env:   PYTHON=python3.12 to pick the interpreter for a new venv (default python3)
#        TUTOR_FORCE_INSTALL=1 to reinstall even if the stamp is fresh
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$PWD"
VENV="$ROOT/.venv"
LOCK="requirements/lock.txt"
STAMP="$VENV/.installed-stamp"
PYTHON="${PYTHON:-python3}"

say() { printf '[setup_env] %s\n' "$*"; }

# pip, minus the harmless per-package warnings about local index folders that
# some machines' pip configuration lists but do not have (pipefail keeps pip's
# exit status).
pip_install() {
    "$VENV/bin/python" -m pip install --quiet --progress-bar off "$@" 2>&1 \
        | { grep -v "^WARNING: Location 'file://.*' is ignored: it is neither a file nor a directory" || true; }
}

if [[ ! -f "$LOCK" ]]; then
    say "ERROR: $LOCK is missing (see README, 'Refreshing the lock')." >&2
    exit 1
fi

# A venv whose interpreter no longer runs (e.g. the base Python moved) is rebuilt.
if [[ -d "$VENV" ]] && ! "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1; then
    say "existing .venv is broken; removing it"
    rm -rf "$VENV"
fi

# A venv without pip (made where `python3 -m venv` lacks ensurepip, e.g. Debian without
# python3-venv) can never install anything: remove it and make it again below.
if [[ -x "$VENV/bin/python" ]] && ! "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
    say ".venv has no pip (made without python3-venv?); removing it"
    rm -rf "$VENV"
fi

# `python3 -m venv` needs ensurepip, which Debian and Ubuntu ship separately.
ensure_venv_support() {
    "$PYTHON" -c 'import ensurepip' >/dev/null 2>&1 && return 0
    local version package
    version="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
    package="python${version}-venv"
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
        say "installing $package (Python's venv module needs it)"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q && apt-get install -y -q --no-install-recommends "$package"
        "$PYTHON" -c 'import ensurepip' >/dev/null 2>&1 && return 0
    fi
    say "ERROR: $PYTHON cannot make a virtualenv with pip (no ensurepip module)." >&2
    say "Install it, then run this again:  sudo apt-get install $package" >&2
    say "(or choose another interpreter:    PYTHON=python3.12 bash scripts/setup_env.sh)" >&2
    exit 1
}

if [[ ! -x "$VENV/bin/python" ]]; then
    if ! command -v "$PYTHON" >/dev/null 2>&1; then
        say "ERROR: no $PYTHON on PATH: install Python 3.11 or newer (or set PYTHON=...)" >&2
        exit 1
    fi
    ensure_venv_support
    say "creating .venv with $("$PYTHON" --version 2>&1) ($(command -v "$PYTHON"))"
    if ! "$PYTHON" -m venv "$VENV"; then
        rm -rf "$VENV"   # half made: the next run must not take it for a venv
        say "ERROR: '$PYTHON -m venv' failed (see above)" >&2
        exit 1
    fi
fi

"$VENV/bin/python" - <<'EOF'
import sys
if sys.version_info < (3, 11):
    sys.exit(f"[setup_env] ERROR: Python >= 3.11 required, .venv has {sys.version.split()[0]}; "
             "remove .venv and re-run with PYTHON=python3.11")
EOF

needs_install=0
if [[ "${TUTOR_FORCE_INSTALL:-0}" == 1 || ! -f "$STAMP" ]]; then
    needs_install=1
elif [[ "$LOCK" -nt "$STAMP" || pyproject.toml -nt "$STAMP" ]]; then
    needs_install=1
fi

if [[ "$needs_install" == 1 ]]; then
    start=$SECONDS
    rm -f "$STAMP"
    say "installing pinned dependencies from $LOCK"
    pip_install -r "$LOCK"
    say "installing wizard-tutor (editable, --no-deps)"
    # hatchling comes with the lock, so the build needs no download (--no-build-isolation)
    pip_install --no-deps --no-build-isolation -e .
    touch "$STAMP"
    say "done in $((SECONDS - start))s"
else
    say ".venv is up to date with $LOCK (delete $STAMP or set TUTOR_FORCE_INSTALL=1 to reinstall)"
fi
