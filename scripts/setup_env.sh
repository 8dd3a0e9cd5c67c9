#!/usr/bin/env bash
# Create/refresh the project virtualenv in <repo>/.venv.
#
# Two sets of pinned packages, each compiled by pip-compile (README, "Refreshing the lock"):
#   requirements/app.txt   what the app needs (scripts/app.sh runs this with --app)
#   requirements/lock.txt  everything: the app, JupyterLab (`wizard-tutor lab`), the test,
#                          hub and site tools (the default; scripts/test.sh, deploy/hub.sh)
# app.txt's pins are lock.txt's, so the full set-up after the app's installs only the rest.
#
# Idempotent: the venv is created only if missing (or broken), and the pinned
# dependencies plus the project itself (editable) are (re)installed only when a lock or
# pyproject.toml is newer than the stamp file (.venv/.installed-stamp for everything,
# .venv/.installed-app-stamp for the app's; the first also stands for the second).
# A warm re-run takes well under a second. A first install names each package as pip
# takes it, counted against the lock.
#
# Usage: bash scripts/setup_env.sh [--app | --all]   (from any directory; --all is the default)
# Env:   PYTHON=python3.12 to pick the interpreter for a new venv (default python3)
#        TUTOR_FORCE_INSTALL=1 to reinstall even if the stamp is fresh
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$PWD"
VENV="$ROOT/.venv"
APP_LOCK="requirements/app.txt"
FULL_LOCK="requirements/lock.txt"
FULL_STAMP="$VENV/.installed-stamp"
APP_STAMP="$VENV/.installed-app-stamp"
PYTHON="${PYTHON:-python3}"

case "${1:-}" in
    --app) LOCK="$APP_LOCK" STAMP="$APP_STAMP" WHAT="the app's packages" ;;
    "" | --all) LOCK="$FULL_LOCK" STAMP="$FULL_STAMP" WHAT="every package (app, lab, test, hub, site)" ;;
    *)
        echo "[setup_env] unknown option '$1': use --app (the app's packages) or --all (every package)" >&2
        exit 2
        ;;
esac

say() { printf '[setup_env] %s\n' "$*"; }

# pip, minus the harmless per-package warnings about local index folders that
# some machines' pip configuration lists but do not have (pipefail keeps pip's
# exit status).
pip_install() {
    "$VENV/bin/python" -m pip install --quiet --progress-bar off "$@" 2>&1 \
        | { grep -v "^WARNING: Location 'file://.*' is ignored: it is neither a file nor a directory" || true; }
}

# pip on a lock, showing each package and how far (scripts/pip_progress.py).
pip_install_lock() {
    local site
    site="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    PYTHONUNBUFFERED=1 "$VENV/bin/python" -m pip install --progress-bar off -r "$1" 2>&1 \
        | "$VENV/bin/python" scripts/pip_progress.py "$1" "$site"
}

# A stamp is fresh when it is newer than both locks and pyproject.toml.
fresh() {
    [[ -f "$1" && ! "$APP_LOCK" -nt "$1" && ! "$FULL_LOCK" -nt "$1" && ! pyproject.toml -nt "$1" ]]
}

for lock in "$APP_LOCK" "$FULL_LOCK"; do
    if [[ ! -f "$lock" ]]; then
        say "ERROR: $lock is missing (see README, 'Refreshing the lock')." >&2
        exit 1
    fi
done

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

needs_install=1
if [[ "${TUTOR_FORCE_INSTALL:-0}" != 1 ]]; then
    if fresh "$STAMP"; then
        needs_install=0
    elif fresh "$FULL_STAMP"; then  # everything is installed, the app's packages among it
        needs_install=0 LOCK="$FULL_LOCK" STAMP="$FULL_STAMP"
    fi
fi

if [[ "$needs_install" == 1 ]]; then
    start=$SECONDS
    rm -f "$STAMP"
    count="$(grep -c '^[A-Za-z0-9].*==' "$LOCK")"
    say "installing $WHAT: $count pinned in $LOCK"
    pip_install_lock "$LOCK"
    say "installing wizard-tutor (editable, --no-deps)"
    # hatchling comes with the lock, so the build needs no download (--no-build-isolation)
    pip_install --no-deps --no-build-isolation -e .
    touch "$STAMP"
    say "done in $((SECONDS - start))s"
else
    say ".venv is up to date with $LOCK (delete $STAMP or set TUTOR_FORCE_INSTALL=1 to reinstall)"
fi
