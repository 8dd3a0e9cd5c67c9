"""Start, drive and stop a real JupyterHub running the tutor, on 127.0.0.1 only.

Shared by the hub test (tests/hub/test_hub.py) and the class benchmark
(benchmarks/hub_benchmark.py). The hub is the one a teacher starts: ``deploy/hub.sh``
with ``deploy/jupyterhub_config.py`` (class password, local processes); a small extra
config file adds only what a test needs: loopback addresses on free ports, and an API
token for this harness (a JupyterHub service allowed to manage users and servers).
Plain HTTP on loopback (deploy/hub.sh's TUTOR_HUB_HTTP=1) unless ``tls=True``: then the
hub serves HTTPS with the certificate deploy/hub.sh makes, which the harness trusts.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import secrets
import signal
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from process_guard import guard, unguard

REPO = Path(__file__).resolve().parents[2]
HUB_SCRIPT = REPO / "deploy" / "hub.sh"
HUB_CONFIG = REPO / "deploy" / "jupyterhub_config.py"
LOOPBACK = "127.0.0.1"
# The tutor's pages inside a learner's server (deploy/jupyterhub_config.py's default_url).
INDEX_PAGE = "voila/render/index.ipynb"
WORKED_EXAMPLE_PAGE = "voila/render/08_worked_example.ipynb"
EXIT_GRACE = 10  # s: how long a stopped server's kernels may take to end

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class HubError(RuntimeError):
    """The hub did not start, answer or stop as expected (the message quotes its log)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now.

    >>> 1024 <= free_port() <= 65535
    True
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((LOOPBACK, 0))
        port: int = probe.getsockname()[1]
        return port


def is_loopback_url(url: str) -> bool:
    """Whether ``url`` goes to this machine only (or is not a network URL at all).

    >>> is_loopback_url("http://127.0.0.1:8000/hub/login"), is_loopback_url("data:,x")
    (True, True)
    >>> is_loopback_url("https://cdn.example.org/x.js"), is_loopback_url("ws://localhost/")
    (False, True)
    """
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme not in {"http", "https", "ws", "wss"}:
        return True
    host = parts.hostname or ""
    return host == "localhost" or host == "::1" or host.startswith("127.")


def proxy_command() -> str:
    """Path of configurable-http-proxy, installed by deploy/install_proxy.sh if missing."""
    done = subprocess.run(
        ["bash", str(REPO / "deploy" / "install_proxy.sh")],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        raise HubError(f"deploy/install_proxy.sh failed ({done.returncode}):\n{done.stderr}")
    return done.stdout.strip().splitlines()[-1]


def harness_config(
    ports: Mapping[str, int], api_token: str, extra: str = "", scheme: str = "http"
) -> str:
    """The extra hub config: the deploy config, then loopback ports and the harness's token.

    >>> text = harness_config({"public": 1, "hub": 2, "proxy_api": 3}, "t0k")
    >>> "load_subconfig" in text, "http://127.0.0.1:1/" in text, "0.0.0.0" in text
    (True, True, False)
    """
    return f"""\
c = get_config()  # noqa: F821
load_subconfig({str(HUB_CONFIG)!r})  # noqa: F821
c.JupyterHub.bind_url = "{scheme}://{LOOPBACK}:{ports["public"]}/"
c.JupyterHub.hub_bind_url = "http://{LOOPBACK}:{ports["hub"]}"
c.ConfigurableHTTPProxy.api_url = "http://{LOOPBACK}:{ports["proxy_api"]}"
c.Spawner.ip = "{LOOPBACK}"
c.JupyterHub.services.append({{"name": "hub-harness", "api_token": {api_token!r}}})
c.JupyterHub.load_roles.append(
    {{
        "name": "hub-harness",
        "scopes": ["admin:users", "admin:servers", "tokens", "access:servers", "admin:groups"],
        "services": ["hub-harness"],
    }}
)
{extra}"""


@dataclass
class RunningHub:
    """A hub started by :func:`start_hub`, with the harness's admin API."""

    url: str
    process: subprocess.Popen[bytes]
    state_dir: Path
    api_token: str
    log_path: Path
    started_in: float
    proxy_api_port: int = 0
    seen_processes: dict[int, psutil.Process] = field(default_factory=dict)

    @property
    def certificate(self) -> Path:
        """The certificate deploy/hub.sh made for an HTTPS hub."""
        return self.state_dir / "tls" / "hub.crt"

    def ssl_context(self) -> ssl.SSLContext | None:
        """For an HTTPS hub: a context trusting its certificate (and nothing else)."""
        if not self.url.startswith("https:"):
            return None
        return ssl.create_default_context(cafile=str(self.certificate))

    def log_tail(self, lines: int = 60) -> str:
        """The last ``lines`` lines of the hub's log (for failure messages)."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    def api(self, method: str, path: str, body: Any = None, timeout: float = 30) -> Any:
        """Call the hub's REST API (``/hub/api/<path>``) as the harness; the decoded JSON."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.url}/hub/api/{path.lstrip('/')}",
            data=data,
            method=method,
            headers={"Authorization": f"token {self.api_token}"},
        )
        try:
            context = self.ssl_context()
        except (FileNotFoundError, ssl.SSLError) as error:  # not (fully) made yet: starting
            raise urllib.error.URLError(error) from error
        with urllib.request.urlopen(request, timeout=timeout, context=context) as response:
            raw = response.read()
        return json.loads(raw) if raw else None

    def user_token(self, name: str) -> str:
        """A new API token of learner ``name`` (what their browser's login would give)."""
        reply = self.api("POST", f"users/{name}/tokens", {"note": "hub-harness"})
        token: str = reply["token"]
        return token

    def server_ready(self, name: str) -> bool:
        """Whether learner ``name``'s server is up and routed."""
        model = self.api("GET", f"users/{name}")
        server = (model.get("servers") or {}).get("")
        return bool(server and server.get("ready"))

    def remember_processes(self) -> list[psutil.Process]:
        """Every process below the hub now (proxy, servers, kernels), remembered for
        :meth:`stop`'s leftover check; and the hub's configurable-http-proxy found by its
        API port, even once the hub is gone (JupyterHub starts it in a session of its own,
        and leaves it running when the hub is killed)."""
        try:
            tree = psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            tree = []
        tree += [p for p in self._proxies() if p.pid not in {q.pid for q in tree}]
        for proc in tree:
            self.seen_processes.setdefault(proc.pid, proc)
        return tree

    def _proxies(self) -> list[psutil.Process]:
        if not self.proxy_api_port:
            return []
        port = str(self.proxy_api_port)
        found = []
        for proc in psutil.process_iter(["cmdline"]):
            line = proc.info["cmdline"] or []
            if any("configurable-http-proxy" in part for part in line) and any(
                a == "--api-port" and b == port for a, b in itertools.pairwise(line)
            ):
                found.append(proc)
        return found

    def learner_server_processes(self) -> dict[str, list[psutil.Process]]:
        """Each learner's server process followed by its kernels, by learner name."""
        self.remember_processes()
        servers: dict[str, list[psutil.Process]] = {}
        for proc in psutil.Process(self.process.pid).children():  # the proxy and the servers
            try:
                name = proc.environ().get("JUPYTERHUB_USER")
                if name:
                    servers[name] = [proc, *proc.children(recursive=True)]
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
        return servers

    def stop(self, timeout: float = 45) -> list[str]:
        """Stop the hub as a teacher would (SIGTERM: the hub stops every server and the
        proxy); the processes still running afterwards, described (none is the goal).
        Leftovers are then killed, so a failed check does not leave them behind."""
        unguard(self.process.pid)
        self.remember_processes()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=timeout)
        # A server's kernels end a moment after the server itself (they are told to shut
        # down and finish on their own): a process still there after EXIT_GRACE is left.
        _gone, alive = psutil.wait_procs(
            [p for p in self.seen_processes.values() if _running(p)], timeout=EXIT_GRACE
        )
        alive = [p for p in alive if _running(p)]
        if self.process.poll() is None:
            alive.insert(0, psutil.Process(self.process.pid))
        leftovers = [f"{p.pid} {' '.join(_cmdline(p))[:120]}" for p in alive]
        for proc in alive:
            with contextlib.suppress(psutil.NoSuchProcess):
                proc.kill()
        psutil.wait_procs(alive, timeout=10)
        return leftovers


def _running(proc: psutil.Process) -> bool:
    try:
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _cmdline(proc: psutil.Process) -> list[str]:
    try:
        return proc.cmdline()
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return ["?"]


def start_hub(
    state_dir: Path,
    *,
    password: str,
    learners: Iterable[str] = (),
    auth: str = "shared-password",
    admins: Iterable[str] = (),
    admin_password: str = "",
    extra_env: Mapping[str, str] | None = None,
    extra_config: str = "",
    tls: bool = False,
    timeout: float = 300,
) -> RunningHub:
    """Start ``deploy/hub.sh`` in ``state_dir`` on free loopback ports, and wait until
    the hub answers. ``auth``: "shared-password" (``password`` is the class password;
    ``learners`` empty: any name may log in) or "native" (``admins`` log in with
    ``admin_password``; ``learners`` are approved at sign-up). ``extra_config``: more
    lines of hub configuration (``c.<Class>.<trait> = ...``). ``tls``: HTTPS with the
    certificate deploy/hub.sh makes (else plain HTTP, its TUTOR_HUB_HTTP=1)."""
    state_dir.mkdir(parents=True, exist_ok=True)
    ports = {"public": free_port(), "hub": free_port(), "proxy_api": free_port()}
    api_token = secrets.token_hex(32)
    config_path = state_dir / "harness_config.py"
    scheme = "https" if tls else "http"
    config_path.write_text(harness_config(ports, api_token, extra_config, scheme))
    config_path.chmod(0o600)
    env = {
        **os.environ,
        "TUTOR_HUB_STATE": str(state_dir),
        "TUTOR_HUB_CONFIG": str(config_path),
        "TUTOR_HUB_AUTH": auth,
        "TUTOR_HUB_PASSWORD": password,
        "TUTOR_HUB_ADMIN_PASSWORD": admin_password,
        "TUTOR_HUB_ADMINS": ",".join(admins),
        "TUTOR_HUB_LEARNERS": ",".join(learners),
        "TUTOR_CLASS_RESULTS_PORT": str(free_port()),
        # A machine where the tests run as root (CI): accept root servers, knowingly.
        "TUTOR_HUB_ALLOW_ROOT": "1",
        **({} if tls else {"TUTOR_HUB_HTTP": "1"}),
        **(extra_env or {}),
    }
    command = [
        "bash",
        str(HUB_SCRIPT),
        f"--ConfigurableHTTPProxy.command={proxy_command()}",
    ]
    log_path = state_dir / "hub.log"
    started = time.monotonic()
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a Ctrl+C of the test run reaches the hub only via stop()
        )
    hub = RunningHub(
        url=f"{scheme}://{LOOPBACK}:{ports['public']}",
        process=process,
        state_dir=state_dir,
        api_token=api_token,
        log_path=log_path,
        started_in=0.0,
        proxy_api_port=ports["proxy_api"],
    )
    guard(process.pid, hub.stop)  # an interrupted run stops it too, proxy included
    deadline = started + timeout
    while True:
        if process.poll() is not None:
            raise HubError(f"the hub exited with {process.returncode}:\n{hub.log_tail()}")
        try:
            hub.api("GET", "", timeout=5)
            break
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            if time.monotonic() > deadline:
                hub.stop()
                raise HubError(f"the hub did not answer in {timeout}s:\n{hub.log_tail()}") from None
            time.sleep(0.2)
    hub.started_in = time.monotonic() - started
    hub.remember_processes()
    return hub


@contextlib.contextmanager
def running_hub(state_dir: Path, **options: Any) -> Iterator[RunningHub]:
    """A hub started by :func:`start_hub` (``options`` are its), for a test's fixture; on
    leaving, stopped as a teacher stops it, which must leave none of its processes running."""
    hub = start_hub(state_dir, **options)
    try:
        yield hub
    finally:
        leftovers = hub.stop()
    assert leftovers == [], f"still running after the hub stopped: {leftovers}"


def rss_mib(processes: Iterable[psutil.Process]) -> float:
    """Resident memory of ``processes`` together, in MiB (gone processes count 0).

    >>> rss_mib([psutil.Process()]) > 1
    True
    """
    total = 0
    for proc in processes:
        try:
            total += proc.memory_info().rss
        except psutil.NoSuchProcess:
            continue
    return total / 2**20
