"""Start a learner's server (what ``jupyterhub-singleuser`` starts), about 2.4 CPU-seconds
sooner.

Jupyter Server imports jsonschema, which imports ``rfc3987_syntax`` if it is installed
(jsonschema's "format-nongpl" extra brings it), and that module compiles some thirty Lark
grammars as it is imported: measured 2.4 of the 5.4 CPU-seconds a server takes to start
(python -X importtime; jsonschema 4.26, rfc3987-syntax 1.1). It serves only the "iri" and
"iri-reference" formats, which no Jupyter schema uses. Marked as missing here, jsonschema
leaves those two format checks out and the server starts without the cost: on a small
machine where a whole class logs in at once, that is close to half of the wait.

It also keeps the server's hub token out of its environment block: the hub hands it over
in JUPYTERHUB_API_TOKEN, and a process's starting environment stays readable in
/proc/<pid>/environ by every process of the same user, the server's kernels included.
So this script starts itself again (exec, before the slow imports) without the token in
the environment, passing it through a pipe instead; the second start puts it back in
os.environ, which only this process sees, for JupyterHub's extension to read, and the
tutor's extension (tutor/hub/server_extension.py) takes it out again before any kernel
starts.

Used as the server's command by deploy/jupyterhub_config.py, deploy/Dockerfile and
deploy/z2jh-values.yaml; takes the same arguments as ``jupyterhub-singleuser``.
"""

import os
import sys

TOKEN_VARIABLES = ("JUPYTERHUB_API_TOKEN", "JPY_API_TOKEN")
TOKEN_PIPE_VARIABLE = "TUTOR_HUB_TOKEN_FD"


def restart_without_token_in_environment() -> None:
    """exec this script again, the token passed through a pipe, not the environment."""
    token = os.environ["JUPYTERHUB_API_TOKEN"]
    read_end, write_end = os.pipe()
    os.write(write_end, token.encode())  # a token is far smaller than a pipe's buffer
    os.close(write_end)
    os.set_inheritable(read_end, True)
    env = {k: v for k, v in os.environ.items() if k not in TOKEN_VARIABLES}
    env[TOKEN_PIPE_VARIABLE] = str(read_end)
    os.execve(sys.executable, [sys.executable, os.path.abspath(__file__), *sys.argv[1:]], env)


def take_token_from_pipe() -> None:
    """The second start: the token from the pipe, into this process's os.environ only."""
    fd = int(os.environ.pop(TOKEN_PIPE_VARIABLE))
    with os.fdopen(fd, "rb") as pipe:
        os.environ["JUPYTERHUB_API_TOKEN"] = pipe.read().decode()


if __name__ == "__main__":
    if TOKEN_PIPE_VARIABLE in os.environ:
        take_token_from_pipe()
    elif "JUPYTERHUB_API_TOKEN" in os.environ:
        restart_without_token_in_environment()

# An entry of None makes "import rfc3987_syntax" raise ImportError, which jsonschema expects.
sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]

from jupyterhub.singleuser import main  # noqa: E402  (after the entry above, on purpose)

if __name__ == "__main__":
    sys.exit(main())
