#!/usr/bin/env bash
# Start the tutor for a class on this machine: JupyterHub with one Voila server per learner.
#
#   TUTOR_HUB_ADMIN_PASSWORD='teachers-first-password' bash deploy/hub.sh  # https://<machine>:8000/
#   TUTOR_HUB_ADMIN_PASSWORD=... TUTOR_HUB_LEARNERS=ada,bo bash deploy/hub.sh --port 9000
#   TUTOR_HUB_AUTH=shared-password TUTOR_HUB_PASSWORD='class-password' bash deploy/hub.sh
#   sudo TUTOR_HUB_AUTH=pam bash deploy/hub.sh                       # learners' Unix accounts
#   TUTOR_HUB_ALLOW_ROOT=1 TUTOR_HUB_ADMIN_PASSWORD=... bash deploy/hub.sh  # as root: see below
#
# HTTPS by default: passwords and login cookies must not cross the classroom network in
# clear text. With TUTOR_HUB_SSL_CERT and TUTOR_HUB_SSL_KEY (PEM files, e.g. from the
# school) the hub uses that certificate; otherwise it makes its own for this machine's
# names and addresses on the first start (tutor/hub/certificate.py, kept in the state
# folder's tls/), and prints its SHA-256 fingerprint and what pupils' browsers will say.
# TUTOR_HUB_HTTP=1 serves plain HTTP instead (e.g. on 127.0.0.1 only, or behind a proxy
# that does TLS).
#
# As root (a container, say), native and shared-password run every learner's server as
# root: hub.sh stops before its set-up unless TUTOR_HUB_ALLOW_ROOT=1, and says the command.
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

# Root, before any set-up: with every server run as the hub's user (native, the class
# password), a root hub gives every learner a root server, so it starts only when told
# (jupyterhub_config.py refuses too, for a hub started without this script). Say the whole
# command to run again: the variables given (passwords as ...) and the arguments.
shell_word() {  # $1 as the shell reads it back: bare if it can be, else in single quotes
    if [[ "$1" =~ ^[A-Za-z0-9_./:,@+=-]+$ ]]; then
        printf '%s' "$1"
    else
        printf "'%s'" "${1//\'/\'\\\'\'}"
    fi
}
if [[ $EUID -eq 0 && "${TUTOR_HUB_AUTH:-native}" != pam && "${TUTOR_HUB_ALLOW_ROOT:-}" != 1 ]]; then
    again="TUTOR_HUB_ALLOW_ROOT=1"
    while IFS='=' read -r name value; do
        case "$name" in
            *PASSWORD) again+=" $name=..." ;;
            *) again+=" $name=$(shell_word "$value")" ;;
        esac
    done < <(env | grep -E '^TUTOR_[A-Z_]+=' | sort)
    again+=" bash deploy/hub.sh"
    for argument in "$@"; do
        again+=" $(shell_word "$argument")"
    done
    {
        echo "hub.sh: run as root with TUTOR_HUB_AUTH=${TUTOR_HUB_AUTH:-native}, every learner's"
        echo "server would run as root. Run the hub as an ordinary user, or use TUTOR_HUB_AUTH=pam"
        echo "(learners' Unix accounts), or accept it (e.g. in a throw-away container) with:"
        echo "    $again"
        [[ "$again" != *=...* ]] || echo "(each ... the password you gave)"
    } >&2
    exit 1
fi

# The Python environment (with JupyterHub) and the proxy (Node.js, from npm).
bash scripts/setup_env.sh >&2
if ! "$ROOT/.venv/bin/python" -c 'import jupyterhub' 2>/dev/null; then
    echo "hub.sh: JupyterHub is not in .venv; it comes with requirements/lock.txt." >&2
    exit 1
fi
PROXY="$(bash deploy/install_proxy.sh)"

mkdir -p "$STATE"
chmod 700 "$STATE"   # the database holds the learners' tokens

# The certificate's paths, absolute (the hub runs in the state folder).
TLS_ARGS=()
if [[ "${TUTOR_HUB_HTTP:-}" == 1 ]]; then
    echo "hub.sh: TUTOR_HUB_HTTP=1: plain HTTP, passwords cross the network in clear text" >&2
elif [[ -n "${TUTOR_HUB_SSL_CERT:-}${TUTOR_HUB_SSL_KEY:-}" ]]; then
    for name in TUTOR_HUB_SSL_CERT TUTOR_HUB_SSL_KEY; do
        if [[ ! -r "${!name:-}" ]]; then
            echo "hub.sh: $name is '${!name:-}', not a readable file; give both the" \
                "certificate and its key (PEM), or neither (the hub makes its own)" >&2
            exit 1
        fi
    done
    TLS_ARGS=("--JupyterHub.ssl_cert=$(realpath "$TUTOR_HUB_SSL_CERT")"
        "--JupyterHub.ssl_key=$(realpath "$TUTOR_HUB_SSL_KEY")")
else
    mapfile -t MADE < <("$ROOT/.venv/bin/python" -m tutor.hub.certificate "$STATE/tls")
    if [[ ${#MADE[@]} -ne 2 ]]; then
        echo "hub.sh: could not make the hub's certificate in $STATE/tls" >&2
        exit 1
    fi
    TLS_ARGS=("--JupyterHub.ssl_cert=${MADE[0]}" "--JupyterHub.ssl_key=${MADE[1]}")
fi

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
    "${TLS_ARGS[@]}" \
    "$@"
