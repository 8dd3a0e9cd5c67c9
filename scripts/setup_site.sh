#!/usr/bin/env bash
# Fetch what `wizard-tutor build-site` copies into the static site, once, from the package
# registries (the build itself is then offline), into the environment's
# share/wizard-tutor-site/ (tutor/site/build_inputs.py: runtime_dir):
#   node_modules/pyodide  the Pyodide runtime (npm, tutor/site/pyodide/package-lock.json)
#   wheels/               the browser's pure-Python wheels (PyPI, every hash checked:
#                         tutor/site/browser-requirements.txt)
# Skipped when both are newer than their pin files. Needs node/npm and the project's .venv
# (scripts/setup_env.sh); the site tools themselves are in the lock (extra "site"). The
# work is tutor/site/fetch.py's (also `wizard-tutor build-site --fetch`, for pip users).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
VENV="$PWD/.venv"
DEST="${TUTOR_SITE_RUNTIME:-$VENV/share/wizard-tutor-site}"
PINS=(tutor/site/browser-requirements.txt tutor/site/pyodide/package.json tutor/site/pyodide/package-lock.json)
STAMP="$DEST/.fetched-stamp"

say() { printf '[setup_site] %s\n' "$*"; }

fresh=1
[[ -f "$STAMP" ]] || fresh=0
for pin in "${PINS[@]}"; do
    [[ $fresh == 1 && "$pin" -nt "$STAMP" ]] && fresh=0
done
if [[ $fresh == 1 ]]; then
    say "the site's runtime in $DEST is up to date"
    exit 0
fi
start=$SECONDS
rm -f "$STAMP"
say "npm ci (pyodide) and pip download (the browser's wheels, hashes checked) into $DEST"
TUTOR_SITE_RUNTIME="$DEST" "$VENV/bin/python" -m tutor.site.fetch 2>&1 \
    | { grep -v "^WARNING: Location 'file://.*' is ignored" || true; }
touch "$STAMP"
say "done in $((SECONDS - start))s"
