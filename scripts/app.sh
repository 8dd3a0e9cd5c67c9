#!/usr/bin/env bash
# Start the tutor: the Voila app serving the course on this machine.
#
#   bash scripts/app.sh                 # http://127.0.0.1:8866/ (this machine only)
#   bash scripts/app.sh --port 9000     # another port (or env TUTOR_PORT=9000)
#   bash scripts/app.sh --classroom     # listen on every address, token required;
#                                       # prints the URLs (with the token) to hand out
#   bash scripts/app.sh --help          # every option
#
# A thin wrapper: it makes sure .venv has what the app needs (scripts/setup_env.sh --app;
# the first run creates it from requirements/app.txt, naming each package as it goes, later
# runs start at once), then runs the same command a pip user has, `wizard-tutor app`
# (tutor/cli/, tutor/app/). Stop with Ctrl+C.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The app's environment (one line when it is already up to date).
bash scripts/setup_env.sh --app >&2

exec .venv/bin/wizard-tutor app "$@"
