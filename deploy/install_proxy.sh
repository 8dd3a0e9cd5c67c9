#!/usr/bin/env bash
# Install JupyterHub's proxy (configurable-http-proxy, a Node.js program from npm) at the
# versions pinned in deploy/proxy/package-lock.json, outside the repo, and print the path
# of its executable on stdout (messages go to stderr).
#
# Idempotent: `npm ci` runs only when the installed lock differs from the repo's, so a warm
# re-run takes a few milliseconds. Used by deploy/hub.sh and by the hub test
# (tests/hub/hub_harness.py); needs node >= 18 and npm.
#
# Usage: bash deploy/install_proxy.sh
# Env:   TUTOR_PROXY_DIR  where to install (default ${XDG_CACHE_HOME:-~/.cache}/wizard-tutor/hub-proxy)
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/proxy" && pwd)"
DEST="${TUTOR_PROXY_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/wizard-tutor/hub-proxy}"
BIN="$DEST/node_modules/.bin/configurable-http-proxy"

say() { printf '[install_proxy] %s\n' "$*" >&2; }

for tool in node npm; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        say "ERROR: '$tool' is missing; install Node.js >= 18 with npm (Debian: apt-get install nodejs npm)."
        exit 1
    fi
done

if [[ -x "$BIN" ]] && cmp -s "$SRC/package-lock.json" "$DEST/package-lock.json"; then
    echo "$BIN"
    exit 0
fi

say "installing configurable-http-proxy into $DEST"
start=$SECONDS
mkdir -p "$DEST"
cp "$SRC/package.json" "$SRC/package-lock.json" "$DEST/"
# --ignore-scripts: the proxy needs no install scripts, so none from its dependencies run.
npm ci --prefix "$DEST" --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >&2
say "done in $((SECONDS - start))s ($("$BIN" --version))"
echo "$BIN"
