"""The deploy/ configuration files, loaded the way JupyterHub and Jupyter Server load them
(traitlets' config loader), without starting anything: the choices the browser test cannot
see (root, allow rules, the modes), the single-user lock-down rule by rule, and that the
one-machine hub, the cluster values and the image agree with each other and with the repo.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from traitlets.config import Config, PyFileConfigLoader

from tutor.hub.page_language import course_page_language

from .hub_harness import HUB_SCRIPT, REPO

DEPLOY = REPO / "deploy"
SHARED = {"TUTOR_HUB_AUTH": "shared-password", "TUTOR_HUB_PASSWORD": "class-pass"}
HUB_ENV = (
    "TUTOR_HUB_AUTH",
    "TUTOR_HUB_PASSWORD",
    "TUTOR_HUB_PASSWORD_FILE",
    "TUTOR_HUB_ADMIN_PASSWORD",
    "TUTOR_HUB_ADMIN_PASSWORD_FILE",
    "TUTOR_CLASS_RESULTS_PORT",
    "TUTOR_CLASS_DB_URL",
    "TUTOR_HUB_LEARNERS",
    "TUTOR_HUB_GROUP",
    "TUTOR_HUB_ADMINS",
    "TUTOR_HUB_ALLOW_ROOT",
    "TUTOR_HUB_PUBLIC_URL",
)


def load_hub_config(monkeypatch: pytest.MonkeyPatch, *, euid: int, **env: str) -> Config:
    """deploy/jupyterhub_config.py as the hub would load it, run by user id ``euid``, in
    the current directory (the hub's state folder; tests chdir to a temporary one)."""
    for name in HUB_ENV:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(os, "geteuid", lambda: euid)
    config: Config = PyFileConfigLoader("jupyterhub_config.py", path=str(DEPLOY)).load_config()
    return config


def load_server_config(monkeypatch: pytest.MonkeyPatch, **env: str) -> Config:
    """deploy/singleuser/jupyter_server_config.py as a learner's server loads it."""
    monkeypatch.delenv("TUTOR_HOME", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    loader = PyFileConfigLoader("jupyter_server_config.py", path=str(DEPLOY / "singleuser"))
    config: Config = loader.load_config()
    return config


# -- the one-machine hub ----------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _in_a_state_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_by_default_each_learner_has_a_password_of_their_own(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    config = load_hub_config(
        monkeypatch, euid=1000, TUTOR_HUB_ADMIN_PASSWORD="first-pass", TUTOR_HUB_LEARNERS="ada,bo"
    )
    assert config.JupyterHub.authenticator_class == "tutor.hub.login.TutorAuthenticator"
    assert config.TutorAuthenticator.open_signup is False  # unlisted names wait for approval
    assert config.TutorAuthenticator.minimum_password_length >= 8
    assert config.Authenticator.admin_users == {"teacher"}
    # Approval is the gate (allow_all); listed names are approved at sign-up.
    assert config.Authenticator.allow_all is True
    assert config.Authenticator.allowed_users == {"ada", "bo"}
    # The teachers' first password: in a file only the hub's user reads, not in the
    # environment nor in the config.
    password_file = Path(config.TutorAuthenticator.teacher_password_file)
    assert password_file.read_text() == "first-pass"
    assert password_file.stat().st_mode & 0o077 == 0
    assert "TUTOR_HUB_ADMIN_PASSWORD" not in os.environ
    assert "first-pass" not in repr(config)
    with pytest.raises(SystemExit, match="TUTOR_HUB_ADMIN_PASSWORD"):
        load_hub_config(monkeypatch, euid=1000, TUTOR_HUB_ADMIN_PASSWORD="short")
    # deploy/hub.sh passes a file instead of the value.
    given = tmp_path / "given"
    given.write_text("from-a-file\n")
    from_file = load_hub_config(
        monkeypatch, euid=1000, TUTOR_HUB_ADMIN_PASSWORD_FILE=str(given), TUTOR_HUB_ADMINS="mrs_k"
    )
    assert Path(from_file.TutorAuthenticator.teacher_password_file) == given
    assert from_file.Authenticator.admin_users == {"mrs_k"}


def test_the_teachers_page_is_a_hub_service_every_server_reports_to(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = load_hub_config(
        monkeypatch,
        euid=1000,
        TUTOR_HUB_ADMIN_PASSWORD="first-pass",
        TUTOR_CLASS_RESULTS_PORT="9299",
    )
    (service,) = [s for s in config.JupyterHub.services if s["name"] == "class-results"]
    assert service["url"] == "http://127.0.0.1:9299"
    assert service["command"][-2:] == ["-m", "tutor.hub.teacher_service"]
    assert service["environment"]["TUTOR_CLASS_DB_URL"].startswith("sqlite:///")
    roles = {role["name"]: role for role in config.JupyterHub.load_roles}
    # A server's token is limited to its owner's scopes: both may reach the service.
    assert "access:services!service=class-results" in roles["user"]["scopes"]
    assert "access:services!service=class-results" in roles["server"]["scopes"]
    assert "users:activity!user" in roles["server"]["scopes"]  # the default stays
    # The service reads who is a teacher (admin, or the teachers group), nothing more.
    assert roles["class-results-service"]["scopes"] == [
        "list:users",
        "read:users",
        "read:users:groups",
    ]
    environment = config.Spawner.environment
    assert environment["TUTOR_CLASS_RESULTS_URL"] == (
        "http://127.0.0.1:9299/services/class-results/api/events"
    )
    assert environment["TUTOR_PROGRESS_STORE"] == "file"
    with_postgres = load_hub_config(
        monkeypatch,
        euid=1000,
        TUTOR_HUB_ADMIN_PASSWORD="first-pass",
        TUTOR_CLASS_DB_URL="postgresql+psycopg://tutor@db/class",
    )
    (service,) = [s for s in with_postgres.JupyterHub.services if s["name"] == "class-results"]
    assert service["environment"]["TUTOR_CLASS_DB_URL"] == "postgresql+psycopg://tutor@db/class"


def test_hub_sh_as_root_stops_before_its_set_up_and_says_the_command_to_run(
    tmp_path: Path,
) -> None:
    """As root, hub.sh stops at once (no environment, proxy or state folder made) and prints
    the whole command that starts it anyway: the variables given, passwords left out, and
    the arguments; the README gives that command beside the hub's other start commands."""
    state = tmp_path / "hub state's"
    given = {
        "TUTOR_HUB_ADMIN_PASSWORD": "teachers-first-password",
        "TUTOR_HUB_LEARNERS": "ada,bo",
        "TUTOR_HUB_STATE": str(state),
    }
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), **given}
    as_root = [] if os.geteuid() == 0 else ["unshare", "--map-root-user"]
    done = subprocess.run(
        [*as_root, "bash", str(HUB_SCRIPT), "--port", "9000"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert not state.exists()  # stopped before its set-up
    assert "teachers-first-password" not in done.stderr
    command = next(line for line in done.stderr.splitlines() if "bash deploy/hub.sh" in line)
    words = shlex.split(command)
    assert words[-4:] == ["bash", "deploy/hub.sh", "--port", "9000"]
    assignments = dict(word.split("=", 1) for word in words[:-4])
    assert assignments == {**given, "TUTOR_HUB_ALLOW_ROOT": "1", "TUTOR_HUB_ADMIN_PASSWORD": "..."}

    for readme, heading in [
        (REPO / "README.md", "The one-machine hub:"),
        (DEPLOY / "README.md", "## The one-machine hub"),
    ]:
        words = readme.read_text()
        start_commands = words[words.index(heading) :].split("```")[1]
        assert "TUTOR_HUB_ALLOW_ROOT=1" in start_commands, readme


def test_the_hubs_public_url_is_its_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """TUTOR_HUB_PUBLIC_URL is JupyterHub's public_url (which the hub passes to the teacher
    service as JUPYTERHUB_PUBLIC_URL: the live room's join address); unset, none."""
    monkeypatch.chdir(tmp_path)
    public = "https://tutor.school.example:8000/"
    told = load_hub_config(monkeypatch, euid=1000, **SHARED, TUTOR_HUB_PUBLIC_URL=public)
    assert told.JupyterHub.public_url == public
    assert "public_url" not in load_hub_config(monkeypatch, euid=1000, **SHARED).JupyterHub


def test_a_root_hub_with_a_class_password_refuses_root_servers_unless_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(SystemExit, match="TUTOR_HUB_ALLOW_ROOT=1"):
        load_hub_config(monkeypatch, euid=0, TUTOR_HUB_ADMIN_PASSWORD="first-pass")
    with pytest.raises(SystemExit, match="TUTOR_HUB_ALLOW_ROOT=1"):
        load_hub_config(monkeypatch, euid=0, **SHARED)
    told = load_hub_config(monkeypatch, euid=0, **SHARED, TUTOR_HUB_ALLOW_ROOT="1")
    # A Jupyter server exits as root without --allow-root (there is no environment
    # variable for it), so the hub passes the flag.
    assert told.Spawner.args == ["--allow-root"]
    ordinary = load_hub_config(monkeypatch, euid=1000, **SHARED)
    assert "--allow-root" not in ordinary.Spawner.get("args", [])


def test_the_class_password_is_required_and_kept_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(SystemExit, match="TUTOR_HUB_PASSWORD"):
        load_hub_config(monkeypatch, euid=1000, TUTOR_HUB_AUTH="shared-password")
    config = load_hub_config(monkeypatch, euid=1000, **SHARED)
    assert (
        config.JupyterHub.authenticator_class == "tutor.hub.login.TutorSharedPasswordAuthenticator"
    )
    assert config.SharedPasswordAuthenticator.user_password == "class-pass"
    assert "TUTOR_HUB_PASSWORD" not in os.environ


def test_every_mode_sets_an_allow_rule_as_jupyterhub_5_requires(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    anyone = load_hub_config(monkeypatch, euid=1000, **SHARED)
    assert anyone.Authenticator.allow_all is True
    listed = load_hub_config(monkeypatch, euid=1000, **SHARED, TUTOR_HUB_LEARNERS="Ada, bo,")
    assert listed.Authenticator.allowed_users == {"ada", "bo"}
    assert "allow_all" not in listed.Authenticator
    pam = load_hub_config(monkeypatch, euid=0, TUTOR_HUB_AUTH="pam")
    assert pam.JupyterHub.authenticator_class == "tutor.hub.login.TutorPAMAuthenticator"
    assert pam.JupyterHub.spawner_class == "localprocess"
    assert pam.LocalAuthenticator.allowed_groups == {"learners"}
    assert "args" not in pam.Spawner  # each server runs as its learner, never as root


def test_an_unknown_login_mode_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit, match="unknown TUTOR_HUB_AUTH 'ldap'; known: 'native'"):
        load_hub_config(monkeypatch, euid=1000, TUTOR_HUB_AUTH="ldap")


def test_every_learner_server_is_the_tutor_from_this_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = load_hub_config(monkeypatch, euid=1000, TUTOR_HUB_ADMIN_PASSWORD="first-pass")
    # The hub's own Python: the one with Voila, ipykernel and the tutor installed.
    python, launcher = config.Spawner.cmd
    assert python == sys.executable
    assert Path(launcher) == DEPLOY / "singleuser" / "start_server.py"
    assert config.Spawner.default_url == "/voila/render/index.ipynb"
    assert config.Spawner.disable_user_config is True
    environment = config.Spawner.environment
    assert (Path(environment["JUPYTER_CONFIG_PATH"]) / "jupyter_server_config.py").is_file()
    # The app's page template, where `wizard-tutor app` puts JUPYTER_PATH.
    template = Path(environment["JUPYTER_PATH"]) / "nbconvert" / "templates" / "tutor"
    assert (template / "index.html.j2").is_file()
    assert (Path(environment["TUTOR_HOME"]) / "notebooks" / "index.ipynb").is_file()


# -- a learner's server -----------------------------------------------------------------------


def test_a_learners_server_serves_the_course_with_the_apps_voila_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = load_server_config(monkeypatch, TUTOR_CULL_IDLE_TIMEOUT="123")
    assert config.ServerApp.root_dir == str(REPO / "notebooks")
    # From tutor/app/settings.py, applied, not copied: the template, no sources, culling.
    assert config.VoilaConfiguration.template == "tutor"
    assert config.VoilaConfiguration.strip_sources is True
    assert config.MappingKernelManager.cull_idle_timeout == 123
    headers = config.ServerApp.tornado_settings["headers"]
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    # Inside a Jupyter server Voila would otherwise point the page at MathJax on a CDN.
    assert config.ServerApp.tornado_settings["mathjax_url"] is None
    # A course page without ?lang= takes the learner's language (tutor/hub/page_language.py):
    # Voila's prelaunch hook, which it refuses beside pre-heated kernels.
    assert config.VoilaConfiguration.prelaunch_hook is course_page_language
    assert config.VoilaConfiguration.preheat_kernel is False


def test_a_learners_server_lets_the_widgets_talk_and_nothing_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = load_server_config(monkeypatch)
    allowed = config.MappingKernelManager.allowed_message_types
    assert "comm_msg" in allowed and "execute_request" not in allowed
    assert config.ServerApp.terminals_enabled is False
    assert config.ServerApp.jpserver_extensions["jupyterlab"] is False
    authorizer: Any = config.ServerApp.authorizer_class()

    def may(action: str, resource: str) -> bool:
        return bool(authorizer.is_authorized(None, None, action, resource))

    assert may("execute", "kernels")  # the widgets' websocket
    # Stopping a kernel: only through Voila's page-close door (tutor.hub.server_extension).
    from tutor.hub.server_extension import PageCloseShutdownHandler

    page_closing = PageCloseShutdownHandler.__new__(PageCloseShutdownHandler)
    assert authorizer.is_authorized(page_closing, None, "write", "kernels")
    assert not authorizer.is_authorized(page_closing, None, "write", "contents")
    assert config.ServerApp.jpserver_extensions["tutor.hub.server_extension"] is True
    assert may("read", "kernels") and may("read", "api")
    for resource in ("contents", "kernels", "sessions", "terminals", "config", "server"):
        assert not may("write", resource), resource
    assert not may("read", "contents")  # no notebook source through /files or /api/contents
    assert not may("read", "nbconvert")
    assert not may("execute", "terminals")


# -- the cluster: values and image agree with the hub and the repo ------------------------------


def test_the_cluster_values_open_the_tutor_with_limits_and_culling() -> None:
    values = yaml.safe_load((DEPLOY / "z2jh-values.yaml").read_text())
    singleuser = values["singleuser"]
    assert singleuser["defaultUrl"] == "/voila/render/index.ipynb"
    assert singleuser["storage"]["type"] == "none"
    assert _mebibytes(singleuser["memory"]["guarantee"]) <= _mebibytes(
        singleuser["memory"]["limit"]
    )
    assert 0 < singleuser["cpu"]["guarantee"] <= singleuser["cpu"]["limit"]
    assert values["cull"]["enabled"] is True and values["cull"]["timeout"] > 0
    assert (
        int(singleuser["extraEnv"]["TUTOR_CULL_IDLE_TIMEOUT"]) > 0
    )  # read by tutor/app/settings.py
    assert "--ServerApp.terminals_enabled=False" in values["hub"]["config"]["KubeSpawner"]["args"]
    assert singleuser["networkPolicy"]["egressAllowRules"]["nonPrivateIPs"] is False
    hub = values["hub"]["config"]
    assert hub["Authenticator"].get("allow_all") or hub["Authenticator"].get("allowed_users")


def test_the_image_copies_what_exists_and_installs_from_the_lock() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    sources = re.findall(r"^COPY (\S+)", dockerfile, flags=re.MULTILINE)
    assert sources, "no COPY found"
    missing = [source for source in sources if not (REPO / source.rstrip("/")).exists()]
    assert missing == []
    assert "pip install -c requirements/lock.txt" in dockerfile
    assert (
        "COPY deploy/singleuser/jupyter_server_config.py /etc/jupyter/jupyter_server_config.py"
        in dockerfile
    )
    assert "JUPYTER_PATH=/srv/tutor/tutor/app/jupyter" in dockerfile
    # The cluster starts the image's command (the launcher), not a default of its own.
    (command,) = re.findall(r"^CMD (.+)$", dockerfile, flags=re.MULTILINE)
    values = yaml.safe_load((DEPLOY / "z2jh-values.yaml").read_text())
    assert values["singleuser"]["cmd"] == json.loads(command)
    ignored = (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
    assert [s for s in sources if f"!{s.rstrip('/')}" not in {i.rstrip("/") for i in ignored}] == []


def _mebibytes(size: str) -> float:
    """'384M' -> 366.2 (Kubernetes M is 10**6 bytes, Mi 2**20)."""
    number, unit = re.fullmatch(r"(\d+)([MG]i?)", size).groups()  # type: ignore[union-attr]
    scale = {"M": 10**6, "Mi": 2**20, "G": 10**9, "Gi": 2**30}[unit]
    return int(number) * scale / 2**20


def test_the_cluster_teachers_page_the_values_and_its_manifest_agree() -> None:
    values = yaml.safe_load((DEPLOY / "z2jh-values.yaml").read_text())
    hub = values["hub"]
    assert hub["config"]["JupyterHub"]["authenticator_class"] == (
        "tutor.hub.login.TutorAuthenticator"
    )
    assert hub["config"]["TutorAuthenticator"]["open_signup"] is False
    service = hub["services"]["class-results"]
    manifest = list(yaml.safe_load_all((DEPLOY / "k8s" / "class-results.yaml").read_text()))
    kinds = {(doc["kind"], doc["metadata"]["name"]): doc for doc in manifest}
    port = kinds[("Service", "class-results")]["spec"]["ports"][0]["port"]
    assert service["url"] == f"http://class-results:{port}"
    container = kinds[("Deployment", "class-results")]["spec"]["template"]["spec"]["containers"][0]
    assert container["command"] == ["python", "-m", "tutor.hub.teacher_service"]
    env = {item["name"]: item for item in container["env"]}
    assert env["JUPYTERHUB_SERVICE_URL"]["value"].endswith(f":{port}")
    assert env["TUTOR_CLASS_DB_URL"]["value"].startswith("postgresql+psycopg://")
    assert "@class-results-db:5432/" in env["TUTOR_CLASS_DB_URL"]["value"]
    assert ("StatefulSet", "class-results-db") in kinds
    # The learners' servers report there, and their network policy lets them.
    extra_env = values["singleuser"]["extraEnv"]
    assert extra_env["TUTOR_CLASS_RESULTS_URL"] == (
        f"{service['url']}/services/class-results/api/events"
    )
    assert extra_env["TUTOR_PROGRESS_STORE"] == "file"
    # A presenter's page finds the live room in that service, through the hub's proxy.
    assert extra_env["TUTOR_HUB_ROOM"] == "/services/class-results/room/"
    (rule,) = values["singleuser"]["networkPolicy"]["egress"]
    assert rule["to"][0]["podSelector"]["matchLabels"] == {"app": "class-results"}
    assert rule["ports"][0]["port"] == port
    roles = hub["loadRoles"]
    assert "access:services!service=class-results" in roles["server"]["scopes"]
    # The hub image has what the login needs, from what the build context lets in.
    dockerfile = (DEPLOY / "Dockerfile.hub").read_text()
    assert "jupyterhub-nativeauthenticator" in dockerfile
    assert 'python -c "import tutor.hub.login"' in dockerfile
    sources = re.findall(r"^COPY ((?:\S+ )+)\S+$", dockerfile, flags=re.MULTILINE)
    copied = [path for group in sources for path in group.split()]
    ignored = (DEPLOY / "Dockerfile.hub.dockerignore").read_text().splitlines()
    allowed = {line[1:].rstrip("/") for line in ignored if line.startswith("!")}
    assert copied and [path for path in copied if path.rstrip("/") not in allowed] == []
    assert [path for path in copied if not (REPO / path.rstrip("/")).exists()] == []
