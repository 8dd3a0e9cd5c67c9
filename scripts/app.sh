#!/usr/bin/env bash
# Start the tutor: the Voila app serving the course (notebooks/) on this machine.
#
#   bash scripts/app.sh                 # http://127.0.0.1:8866/ (this machine only)
#   bash scripts/app.sh --port 9000     # another port (or env TUTOR_PORT=9000)
#   bash scripts/app.sh --classroom     # listen on every address, token required;
#                                       # prints the URLs (with the token) to hand out
#
# First run: creates .venv from requirements/lock.txt (scripts/setup_env.sh); later runs
# start at once. The Voila settings and why are in app/voila.py; the page template in
# app/jupyter/nbconvert/templates/tutor/. Stop with Ctrl+C.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$PWD"

PORT="${TUTOR_PORT:-8866}"
CLASSROOM=0
NOTEBOOKS="$ROOT/notebooks"

usage() {
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
    echo "Options: --port N, --classroom, --notebooks DIR (serve another folder), --help"
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --port) PORT="${2:?--port needs a number}"; shift 2 ;;
        --port=*) PORT="${1#--port=}"; shift ;;
        --classroom) CLASSROOM=1; shift ;;
        --notebooks) NOTEBOOKS="${2:?--notebooks needs a folder}"; shift 2 ;;
        --notebooks=*) NOTEBOOKS="${1#--notebooks=}"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "app.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
done

if ! [[ "$PORT" =~ ^[0-9]+$ ]] || (( PORT < 1 || PORT > 65535 )); then
    echo "app.sh: invalid port '$PORT': give a number from 1 to 65535" >&2
    exit 2
fi
if [[ ! -d "$NOTEBOOKS" ]]; then
    echo "app.sh: no notebooks folder '$NOTEBOOKS'" >&2
    exit 2
fi
NOTEBOOKS="$(cd "$NOTEBOOKS" && pwd)"

# The environment (quietly when it is already up to date).
bash scripts/setup_env.sh >&2

# The tutor's Voila template (see app/voila.py for why it sits under nbconvert/).
export JUPYTER_PATH="$ROOT/app/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
export PYDEVD_DISABLE_FILE_VALIDATION=1

args=(
    "$NOTEBOOKS"
    --no-browser
    "--Voila.config_file_paths=$ROOT/app"
    "--Voila.port=$PORT"
    --Voila.port_retries=0
)

if [[ "$CLASSROOM" == 1 ]]; then
    # Every address, so pupils' machines can connect; the token keeps others out.
    TUTOR_TOKEN="$(.venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(24))')"
    export TUTOR_TOKEN   # read (and removed from the environment) by app/voila.py
    args+=(--Voila.ip=0.0.0.0 --token)
    echo "Classroom mode: the tutor listens on every network address, port $PORT."
    echo "Give the pupils one of these addresses (the token is part of it):"
    addresses="$(hostname -I 2>/dev/null || true)"
    for address in ${addresses:-127.0.0.1}; do
        [[ "$address" == *:* ]] && continue   # IPv6: skip, the IPv4 address is enough
        echo "    http://$address:$PORT/?token=$TUTOR_TOKEN"
    done
    echo "On this machine: http://127.0.0.1:$PORT/?token=$TUTOR_TOKEN"
else
    args+=(--Voila.ip=127.0.0.1)
    echo "The tutor: http://127.0.0.1:$PORT/   (this machine only; Ctrl+C stops it)"
fi

exec .venv/bin/voila "${args[@]}"
