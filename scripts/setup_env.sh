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

if [[ ! -x "$VENV/bin/python" ]]; then
    say "creating .venv with $("$PYTHON" --version 2>&1) ($(command -v "$PYTHON"))"
    "$PYTHON" -m venv "$VENV"
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
    pip_install --no-deps -e .
    touch "$STAMP"
    say "done in $((SECONDS - start))s"
else
    say ".venv is up to date with $LOCK (delete $STAMP or set TUTOR_FORCE_INSTALL=1 to reinstall)"
fi
