"""JupyterHub configuration: the tutor for a class, served from one machine.

Start it with ``bash deploy/hub.sh`` (which sets up .venv and the proxy, then runs
``jupyterhub -f deploy/jupyterhub_config.py`` in the hub's state folder). Every learner
logs in, gets a server of their own (a local process) and lands on the tutor's course
index, rendered by Voila inside that server. deploy/README.md explains the choices.

Environment:
- TUTOR_HUB_AUTH: how learners log in.
  ``shared-password`` (default): the teacher sets one class password; learners type a
  name and that password. All learners' servers run as the Unix user that runs the hub
  (no separation between learners at the operating-system level).
  ``pam``: learners are Unix accounts of this machine (members of TUTOR_HUB_GROUP) and
  log in with their own password; each server runs as its learner's account. The hub must
  then run as root.
- TUTOR_HUB_PASSWORD: the class password (shared-password; 8 characters or more).
- TUTOR_HUB_LEARNERS: comma-separated learner names allowed to log in. Unset: anyone
  with the class password may pick a name (shared-password), or every member of
  TUTOR_HUB_GROUP (pam).
- TUTOR_HUB_GROUP: the Unix group of the learners (pam; default ``learners``).
- TUTOR_HUB_ADMINS: comma-separated names of teachers with the hub's admin page
  (shared-password: they log in with TUTOR_HUB_ADMIN_PASSWORD, 32 characters or more).
- TUTOR_HUB_ALLOW_ROOT=1: let shared-password servers run as root (see "root" below).
- TUTOR_SERVER_IDLE_TIMEOUT: see deploy/singleuser/jupyter_server_config.py.
"""

import os
import sys
from pathlib import Path

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (provided by traitlets)

REPO = Path(__file__).resolve().parent.parent
SINGLEUSER_DIR = REPO / "deploy" / "singleuser"


def names_from_env(variable: str) -> set[str]:
    """The comma-separated names in environment variable ``variable``, lower-cased."""
    return {
        name.strip().lower() for name in os.environ.get(variable, "").split(",") if name.strip()
    }


# -- every learner's server: the tutor, and nothing else ------------------------------------
# The server runs in this very Python environment, which has Voila, ipykernel (Voila starts
# its kernels with the "python3" kernel of this environment) and the tutor package.
# (deploy/singleuser/start_server.py is jupyterhub-singleuser minus a slow import.)
c.Spawner.cmd = [sys.executable, str(SINGLEUSER_DIR / "start_server.py")]
c.Spawner.default_url = "/voila/render/index.ipynb"
c.Spawner.environment = {
    # the tutor's server settings and lock-down (read-only, no terminals, widgets only)
    "JUPYTER_CONFIG_PATH": str(SINGLEUSER_DIR),
    # the tutor's page template (as scripts/app.sh sets it); read before any config file
    "JUPYTER_PATH": str(REPO / "app" / "jupyter"),
    # the tutor's files: notebooks/ (the course), app/ (Voila settings, page template)
    "TUTOR_HOME": str(REPO),
    "TUTOR_LANG": os.environ.get("TUTOR_LANG", "en"),
    "TUTOR_SERVER_IDLE_TIMEOUT": os.environ.get("TUTOR_SERVER_IDLE_TIMEOUT", "3600"),
    "PYDEVD_DISABLE_FILE_VALIDATION": "1",
}
# A learner's ~/.jupyter cannot change the settings above.
c.Spawner.disable_user_config = True
# A whole class logging in at once on a small machine: give servers time to start.
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
# A learner who logs out frees their server's memory at once.
c.JupyterHub.shutdown_on_logout = True
# Stopping the hub stops every learner's server (JupyterHub's default, stated).
c.JupyterHub.cleanup_servers = True
# Names that are also safe as Unix user names and folder names.
c.Authenticator.username_pattern = r"^[a-z][a-z0-9_-]{0,31}$"

admins = names_from_env("TUTOR_HUB_ADMINS")
learners = names_from_env("TUTOR_HUB_LEARNERS")
auth = os.environ.get("TUTOR_HUB_AUTH", "shared-password")

if auth == "shared-password":
    c.JupyterHub.authenticator_class = "shared-password"
    # Popped: nothing the hub starts later needs to see it.
    c.SharedPasswordAuthenticator.user_password = os.environ.pop("TUTOR_HUB_PASSWORD", None)
    c.SharedPasswordAuthenticator.admin_password = os.environ.pop("TUTOR_HUB_ADMIN_PASSWORD", None)
    if not c.SharedPasswordAuthenticator.user_password:
        sys.exit("jupyterhub_config: set TUTOR_HUB_PASSWORD, the class password (8+ characters).")
    # No Unix accounts needed: every server runs as the hub's own user, with its home
    # folder under the hub's state folder (the working directory of deploy/hub.sh).
    c.JupyterHub.spawner_class = "simple"
    c.SimpleLocalProcessSpawner.home_dir_template = str(Path.cwd() / "learners" / "{username}")
    # root: a Jupyter server refuses to run as root unless given --allow-root (there is
    # no JUPYTERHUB_ALLOW_ROOT variable). Every server would then run as root, so only an
    # explicit TUTOR_HUB_ALLOW_ROOT=1 (e.g. a throw-away container) permits it; otherwise
    # run the hub as an ordinary user, or use TUTOR_HUB_AUTH=pam.
    if os.geteuid() == 0:
        if os.environ.get("TUTOR_HUB_ALLOW_ROOT") != "1":
            sys.exit(
                "jupyterhub_config: with TUTOR_HUB_AUTH=shared-password every learner's server "
                "runs as the hub's user, here root. Run the hub as an ordinary user, or use "
                "TUTOR_HUB_AUTH=pam, or set TUTOR_HUB_ALLOW_ROOT=1 to accept it."
            )
        c.Spawner.args = ["--allow-root"]
elif auth == "pam":
    # Unix accounts: each server runs as its learner (the hub runs as root to switch user).
    c.JupyterHub.authenticator_class = "pam"
    c.JupyterHub.spawner_class = "localprocess"
    c.LocalAuthenticator.allowed_groups = {os.environ.get("TUTOR_HUB_GROUP", "learners")}
else:
    sys.exit(f"jupyterhub_config: unknown TUTOR_HUB_AUTH {auth!r}; known: 'shared-password', 'pam'")

# JupyterHub 5 lets nobody in without an allow rule: the listed learners, or (no list)
# everyone who passes the login (the class password, or the Unix group for pam).
c.Authenticator.admin_users = admins
if learners:
    c.Authenticator.allowed_users = learners
elif auth == "shared-password":
    c.Authenticator.allow_all = True
