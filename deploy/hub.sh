#!/usr/bin/env bash
# Start the tutor for a class on this machine: JupyterHub with one Voila server per learner.
#
#   TUTOR_HUB_ADMIN_PASSWORD='teachers-first-password' bash deploy/hub.sh  # http://<machine>:8000/
#   TUTOR_HUB_ADMIN_PASSWORD=... TUTOR_HUB_LEARNERS=ada,bo bash deploy/hub.sh --port 9000
#   TUTOR_HUB_AUTH=shared-password TUTOR_HUB_PASSWORD='class-password' bash deploy/hub.sh
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

# Passwords go to the hub in files, not in its environment: a process's starting
# environment stays readable in /proc/<pid>/environ (by root, and by every process of the
# hub's user). jupyterhub_config.py reads TUTOR_HUB_*_PASSWORD_FILE.
mkdir -p -m 700 secrets
for name in TUTOR_HUB_PASSWORD TUTOR_HUB_ADMIN_PASSWORD; do
    if [[ -n "${!name:-}" ]]; then
        (umask 077 && printf '%s' "${!name}" > "secrets/$name")
        export "${name}_FILE=$STATE/secrets/$name"
    fi
    unset "$name"
done
exec "$ROOT/.venv/bin/python" -m jupyterhub \
    -f "$CONFIG" \
    "--ConfigurableHTTPProxy.command=$PROXY" \
    "$@"
