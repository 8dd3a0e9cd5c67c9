#!/usr/bin/env bash
# Start the tutor for a class on this machine: JupyterHub with one Voila server per learner.
#
#   TUTOR_HUB_PASSWORD='class-password' bash deploy/hub.sh          # http://<this machine>:8000/
#   TUTOR_HUB_PASSWORD=... bash deploy/hub.sh --port 9000
#   sudo TUTOR_HUB_AUTH=pam bash deploy/hub.sh                       # learners' Unix accounts
#
# Extra arguments go to jupyterhub (e.g. --port N, --ip 127.0.0.1, --log-level=DEBUG).
# The settings (and the environment variables that choose them) are in
# deploy/jupyterhub_config.py; the learners' servers in deploy/singleuser/. The hub keeps
# its database and cookie secret in TUTOR_HUB_STATE (default
# ${XDG_STATE_HOME:-~/.local/state}/wizard-tutor/hub). TUTOR_HUB_CONFIG names another
# config file to use instead (one that loads this one with load_subconfig and adds to it,
# as the hub test does). Stop with Ctrl+C: that stops every learner's server too.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$PWD"
CONFIG="${TUTOR_HUB_CONFIG:-$ROOT/deploy/jupyterhub_config.py}"
STATE="${TUTOR_HUB_STATE:-${XDG_STATE_HOME:-$HOME/.local/state}/wizard-tutor/hub}"

# The Python environment (with JupyterHub) and the proxy (Node.js, from npm).
bash scripts/setup_env.sh >&2
if ! "$ROOT/.venv/bin/python" -c 'import jupyterhub' 2>/dev/null; then
    echo "hub.sh: JupyterHub is not in .venv; it comes with requirements/lock.txt." >&2
    exit 1
fi
PROXY="$(bash deploy/install_proxy.sh)"

mkdir -p "$STATE"
chmod 700 "$STATE"   # the database holds the learners' tokens
cd "$STATE"
exec "$ROOT/.venv/bin/python" -m jupyterhub \
    -f "$CONFIG" \
    "--ConfigurableHTTPProxy.command=$PROXY" \
    "$@"
