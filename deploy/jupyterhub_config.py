"""JupyterHub configuration: the tutor for a class, served from one machine.

Start it with ``bash deploy/hub.sh`` (which sets up .venv and the proxy, then runs
``jupyterhub -f deploy/jupyterhub_config.py`` in the hub's state folder). Every learner
logs in, gets a server of their own (a local process) and lands on the tutor's course
index, rendered by Voila inside that server. deploy/README.md explains the choices.

Environment:
- TUTOR_HUB_AUTH: how learners log in.
  ``native`` (default): each learner has a password of their own (JupyterHub's
  NativeAuthenticator, with the tutor's failed-login limits: tutor/hub/login.py). A
  learner signs up at /hub/signup; names in TUTOR_HUB_LEARNERS are approved at once (the
  first sign-up sets the password), any other name waits for a teacher's approval at
  /hub/authorize. A teacher resets a forgotten password at /hub/change-password/<name>.
  All learners' servers run as the Unix user that runs the hub.
  ``shared-password``: one class password for everyone; a name is not an identity (any
  learner can log in under another's name). For a quick try-out only.
  ``pam``: learners are Unix accounts of this machine (members of TUTOR_HUB_GROUP) and
  log in with their own password; each server runs as its learner's account. The hub must
  then run as root.
- TUTOR_HUB_ADMINS: comma-separated names of the teachers (hub admins; they see the class
  results page and approve and reset learners). native: default ``teacher``.
- TUTOR_HUB_ADMIN_PASSWORD (or _FILE): native: each teacher account's first password
  (created at the first start; 8 characters or more); shared-password: the admins'
  password (32 characters or more).
- TUTOR_HUB_PASSWORD (or _FILE): the class password (shared-password; 8 characters or more).
  deploy/hub.sh moves both passwords into files in the state folder and passes
  TUTOR_HUB_*_PASSWORD_FILE instead, so that no password is in the hub's environment
  block (/proc/<pid>/environ).
- TUTOR_HUB_LEARNERS: comma-separated learner names. native: approved at sign-up;
  shared-password: the only names allowed; pam: the only accounts allowed.
- TUTOR_HUB_GROUP: the Unix group of the learners (pam; default ``learners``).
- TUTOR_HUB_PUBLIC_URL: the hub's address as the class opens it (e.g.
  https://tutor.school.example:8000/), JupyterHub.public_url: the live room's join address
  and QR code. Without it, the address the teacher's browser used (as a proxy in front
  forwards it); the projector warns when that is this machine's own (localhost).
- TUTOR_HUB_ALLOW_ROOT=1: let native/shared-password servers run as root (see "root" below).
- TUTOR_SERVER_IDLE_TIMEOUT: see deploy/singleuser/jupyter_server_config.py.
- TUTOR_CLASS_RESULTS_PORT: the class-results service's port on 127.0.0.1 (default 10101);
  TUTOR_CLASS_DB_URL: its database (default: SQLite in the state folder), see
  tutor/hub/teacher_service.py.
"""

import os
import sys
from pathlib import Path

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (provided by traitlets)

REPO = Path(__file__).resolve().parent.parent
SINGLEUSER_DIR = REPO / "deploy" / "singleuser"


def secret_from_env(variable: str) -> str | None:
    """The secret in file ``$<variable>_FILE`` (what deploy/hub.sh passes), else in
    ``$<variable>`` (popped: nothing the hub starts later inherits it)."""
    path = os.environ.pop(f"{variable}_FILE", "")
    value = os.environ.pop(variable, None)
    if path:
        return Path(path).read_text().strip() or None
    return value or None


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
    # the app's page template and kernel (as `wizard-tutor app` sets it, see
    # tutor/resources.py); read before any config file
    "JUPYTER_PATH": str(REPO / "tutor" / "app" / "jupyter"),
    # the tutor's files: notebooks/ (the course)
    "TUTOR_HOME": str(REPO),
    "TUTOR_LANG": os.environ.get("TUTOR_LANG", "en"),
    "TUTOR_SERVER_IDLE_TIMEOUT": os.environ.get("TUTOR_SERVER_IDLE_TIMEOUT", "3600"),
    "PYDEVD_DISABLE_FILE_VALIDATION": "1",
    # answers go to a file per learner, which the server forwards to the class results
    "TUTOR_PROGRESS_STORE": "file",
}
# A learner's ~/.jupyter cannot change the settings above.
c.Spawner.disable_user_config = True
# A whole class logging in at once on a small machine: give servers time to start.
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
# The hub's public address (the live room's join address, tutor/hub/room_service.py).
if os.environ.get("TUTOR_HUB_PUBLIC_URL", "").strip():
    c.JupyterHub.public_url = os.environ["TUTOR_HUB_PUBLIC_URL"].strip()
# A learner who logs out frees their server's memory at once.
c.JupyterHub.shutdown_on_logout = True
# Stopping the hub stops every learner's server (JupyterHub's default, stated).
c.JupyterHub.cleanup_servers = True
# Names that are also safe as Unix user names and folder names.
c.Authenticator.username_pattern = r"^[a-z][a-z0-9_-]{0,31}$"

admins = names_from_env("TUTOR_HUB_ADMINS")
learners = names_from_env("TUTOR_HUB_LEARNERS")
auth = os.environ.get("TUTOR_HUB_AUTH", "native")


def run_as_hub_user() -> None:
    """Every server runs as the hub's own user, its home under the hub's state folder (the
    working directory of deploy/hub.sh): no Unix accounts to create."""
    c.JupyterHub.spawner_class = "simple"
    c.SimpleLocalProcessSpawner.home_dir_template = str(Path.cwd() / "learners" / "{username}")
    # root: a Jupyter server refuses to run as root unless given --allow-root (there is
    # no JUPYTERHUB_ALLOW_ROOT variable). Every server would then run as root, so only an
    # explicit TUTOR_HUB_ALLOW_ROOT=1 (e.g. a throw-away container) permits it; otherwise
    # run the hub as an ordinary user, or use TUTOR_HUB_AUTH=pam.
    if os.geteuid() == 0:
        if os.environ.get("TUTOR_HUB_ALLOW_ROOT") != "1":
            sys.exit(
                f"jupyterhub_config: with TUTOR_HUB_AUTH={auth} every learner's server "
                "runs as the hub's user, here root. Run the hub as an ordinary user, or use "
                "TUTOR_HUB_AUTH=pam, or accept it: start the hub again with "
                "TUTOR_HUB_ALLOW_ROOT=1 in its environment "
                "(TUTOR_HUB_ALLOW_ROOT=1 bash deploy/hub.sh ...)."
            )
        c.Spawner.args = ["--allow-root"]


if auth == "native":
    # Each learner's own password: JupyterHub's NativeAuthenticator plus failed-login
    # limits (tutor/hub/login.py). Sign-up is open, but a name not listed in
    # TUTOR_HUB_LEARNERS cannot log in until a teacher approves it.
    c.JupyterHub.authenticator_class = "tutor.hub.login.TutorAuthenticator"
    c.TutorAuthenticator.enable_signup = True
    c.TutorAuthenticator.open_signup = False
    c.TutorAuthenticator.ask_email_on_signup = False
    c.TutorAuthenticator.allow_2fa = False
    c.TutorAuthenticator.minimum_password_length = 8
    c.TutorAuthenticator.check_common_password = True
    # The teachers' accounts exist from the start (created with this first password), so
    # nobody can sign up under a teacher's name. The authenticator reads it from a file:
    # the hub's environment block and its config (printed at debug level) keep no copy.
    password_file = Path(os.environ.pop("TUTOR_HUB_ADMIN_PASSWORD_FILE", "") or "secrets/admin")
    teacher_password = os.environ.pop("TUTOR_HUB_ADMIN_PASSWORD", "")
    if teacher_password:  # given in the environment (jupyterhub run without deploy/hub.sh)
        password_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        password_file.touch(mode=0o600)
        password_file.write_text(teacher_password)
    if not password_file.is_file() or len(password_file.read_text().strip()) < 8:
        sys.exit(
            "jupyterhub_config: set TUTOR_HUB_ADMIN_PASSWORD, the teachers' first password "
            "(8+ characters; each teacher can change it at /hub/change-password)."
        )
    c.TutorAuthenticator.teacher_password_file = str(password_file.resolve())
    admins = admins or {"teacher"}
    run_as_hub_user()
elif auth == "shared-password":
    # JupyterHub's SharedPasswordAuthenticator on the tutor's login page (in the learner's
    # language); its settings are the SharedPasswordAuthenticator's.
    c.JupyterHub.authenticator_class = "tutor.hub.login.TutorSharedPasswordAuthenticator"
    c.SharedPasswordAuthenticator.user_password = secret_from_env("TUTOR_HUB_PASSWORD")
    c.SharedPasswordAuthenticator.admin_password = secret_from_env("TUTOR_HUB_ADMIN_PASSWORD")
    if not c.SharedPasswordAuthenticator.user_password:
        sys.exit("jupyterhub_config: set TUTOR_HUB_PASSWORD, the class password (8+ characters).")
    run_as_hub_user()
elif auth == "pam":
    # Unix accounts: each server runs as its learner (the hub runs as root to switch user).
    # JupyterHub's PAMAuthenticator on the tutor's login page (in the learner's language).
    c.JupyterHub.authenticator_class = "tutor.hub.login.TutorPAMAuthenticator"
    c.JupyterHub.spawner_class = "localprocess"
    c.LocalAuthenticator.allowed_groups = {os.environ.get("TUTOR_HUB_GROUP", "learners")}
else:
    sys.exit(
        f"jupyterhub_config: unknown TUTOR_HUB_AUTH {auth!r}; "
        "known: 'native', 'shared-password', 'pam'"
    )

# JupyterHub 5 lets nobody in without an allow rule: the listed learners, or (no list)
# everyone who passes the login (the class password, or the Unix group for pam). With
# native, passing the login already needs an approved account: everyone who has one.
c.Authenticator.admin_users = admins
if auth == "native":
    c.Authenticator.allow_all = True
    c.Authenticator.allowed_users = learners  # NativeAuthenticator approves them at sign-up
elif learners:
    c.Authenticator.allowed_users = learners
elif auth == "shared-password":
    c.Authenticator.allow_all = True

# -- the teacher's page: the class-results service -----------------------------------------
# The hub starts it (tutor/hub/teacher_service.py), logs its visitors in, and gives it a
# token to read who is a teacher. Every user may reach it (a learner's server reports
# with its own token, whose scopes JupyterHub limits to its owner's), and it shows the
# results to teachers only: hub admins and the "teachers" group.
CLASS_RESULTS = "class-results"
class_results_url = f"http://127.0.0.1:{int(os.environ.get('TUTOR_CLASS_RESULTS_PORT', '10101'))}"
c.JupyterHub.services = [
    {
        "name": CLASS_RESULTS,
        "display": True,
        "url": class_results_url,
        "command": [sys.executable, "-m", "tutor.hub.teacher_service"],
        "oauth_no_confirm": True,
        "environment": {
            "TUTOR_CLASS_DB_URL": os.environ.get("TUTOR_CLASS_DB_URL")
            or f"sqlite:///{Path.cwd() / 'class-results.sqlite'}",
            "TUTOR_LANG": os.environ.get("TUTOR_LANG", "en"),
            "TUTOR_HOME": str(REPO),
        },
    }
]
c.JupyterHub.load_roles = [
    {"name": "user", "scopes": ["self", f"access:services!service={CLASS_RESULTS}"]},
    {
        "name": "server",
        "scopes": [
            "users:activity!user",
            "access:servers!server",
            f"access:services!service={CLASS_RESULTS}",
        ],
    },
    {
        "name": f"{CLASS_RESULTS}-service",
        "scopes": ["list:users", "read:users", "read:users:groups"],
        "services": [CLASS_RESULTS],
    },
]
# Where a presenter's page finds the live room (the teacher service's; docs/live-room.md).
c.Spawner.environment["TUTOR_HUB_ROOM"] = f"/services/{CLASS_RESULTS}/room/"
# Where a learner's server sends the answers (tutor/hub/server_extension.py).
c.Spawner.environment["TUTOR_CLASS_RESULTS_URL"] = (
    f"{class_results_url}/services/{CLASS_RESULTS}/api/events"
)
