#!/usr/bin/env bash
# Run every check of the project, setting up what it needs first:
#   environment (.venv) -> Chromium, fonts, Node.js -> the static site's runtime
#   -> ruff (lint, format) -> mypy
#   -> pytest on two workers (doctests + tests; the tests run every notebook and compare
#   what it shows with the engine, tests/display/test_notebooks.py, and build and try the
#   wheel, tests/browser/test_wheel.py; tests/scenarios runs the learner's scenarios against
#   the app, the static site and JupyterLab, markers browser and slow; and in the same run
#   --nbval-lax notebooks/, every notebook without an error)
# Stops at the first failing section. Extra arguments go to the pytest run,
# e.g.  bash scripts/test.sh -x -k scoring      or     bash scripts/test.sh -m "not browser"
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck disable=SC2034  # START is used in the EXIT trap
START=$SECONDS
trap 'rc=$?; printf "\n[test.sh] %s after %ss\n" "$([[ $rc == 0 ]] && echo "ALL PASSED" || echo "FAILED (exit $rc)")" "$((SECONDS - START))"' EXIT

section() { printf '\n========== %s ==========\n' "$*"; }

section "environment"
# Every pinned package (requirements/lock.txt): after scripts/app.sh, only what the app
# does not need (JupyterLab, the test, hub and site tools) is installed here.
bash scripts/setup_env.sh --all
# shellcheck disable=SC1091
source .venv/bin/activate

section "system packages: chromium, fonts, node, postgresql"
# Chromium and CJK fonts for the browser tests; Node.js and npm for the hub test's proxy
# (configurable-http-proxy, installed by deploy/install_proxy.sh); PostgreSQL's server
# programs for the hub's stores on PostgreSQL (tests/hub/databases.py starts its own).
CHROMIUM=/usr/bin/chromium
APT_PACKAGES=(chromium fonts-noto-cjk fonts-dejavu-core postgresql)
command -v npm >/dev/null 2>&1 || APT_PACKAGES+=(nodejs npm)
missing_pkgs=()
if command -v dpkg-query >/dev/null 2>&1; then
    for p in "${APT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
            || missing_pkgs+=("$p")
    done
elif [[ ! -x "$CHROMIUM" ]] || ! command -v npm >/dev/null 2>&1; then
    missing_pkgs=("${APT_PACKAGES[@]}")
fi
if [[ ${#missing_pkgs[@]} -gt 0 ]]; then
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
        echo "installing Debian packages: ${missing_pkgs[*]}"
        t=$SECONDS
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q
        apt-get install -y -q --no-install-recommends "${missing_pkgs[@]}"
        echo "apt-get took $((SECONDS - t))s"
    else
        echo "Missing, and not installed automatically (that needs root and apt-get):"
        echo "  ${missing_pkgs[*]}"
        echo "Install them with:"
        echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing_pkgs[*]}"
        echo "Without Chromium the browser tests (marker 'browser') cannot run; without"
        echo "Node.js and npm the hub tests (marker 'hub') cannot; without PostgreSQL the"
        echo "class stores' tests on PostgreSQL (marker 'postgres') cannot."
    fi
fi
if [[ -x "$CHROMIUM" ]]; then
    export TUTOR_CHROMIUM="$CHROMIUM"
    echo "TUTOR_CHROMIUM=$TUTOR_CHROMIUM ($("$CHROMIUM" --version 2>/dev/null || true))"
fi
if command -v npm >/dev/null 2>&1; then
    echo "node $(node --version 2>/dev/null || echo '?'), npm $(npm --version 2>/dev/null || echo '?')"
fi

section "static site: the browser's runtime"
# What `wizard-tutor build-site` copies into the site (Pyodide from npm, the browser's
# wheels from PyPI), fetched once; the build itself is offline (tests/browser/test_static_site.py).
bash scripts/setup_site.sh

# Keep Jupyter kernels quiet and predictable in tests.
export PYDEVD_DISABLE_FILE_VALIDATION=1

section "ruff check, ruff format --check"
ruff check .
ruff format --check .

section "mypy tutor"
mypy tutor

section "pytest: doctests (tutor) + tests + pytest --nbval-lax notebooks/"
# Two pytest-xdist workers (the browser tests mostly wait on a kernel or a page: one
# process leaves a core idle); TUTOR_TEST_WORKERS chooses how many (0: one process, no
# xdist). --dist loadgroup: the tests that share a costly set-up run on one worker, which
# sets it up once (tests/worker_groups.py), and so do the cells of one notebook.
# --nbval-lax notebooks: the check a teacher runs on a notebook of their own, every notebook
# runs without an error (nbval compares no output in lax mode; what the pages show is
# compared with the engine in tests/display/test_notebooks.py).
# --durations: the slowest tests are listed at the end, so a run that grows towards CI's
# time limit shows where the time went.
rc=0
python -m pytest -n "${TUTOR_TEST_WORKERS:-2}" --dist loadgroup \
    --doctest-modules --doctest-glob=README.md --doctest-glob=PYPI.md --nbval-lax \
    --durations=30 --durations-min=5 tutor tests README.md docs/PYPI.md notebooks "$@" || rc=$?
if [[ $rc == 5 ]]; then
    echo "[test.sh] pytest collected no tests: that counts as a failure."
fi
exit "$rc"
