"""Tests under tests/hub/ start a real JupyterHub (deploy/hub.sh) with
configurable-http-proxy from npm (deploy/install_proxy.sh installs it on first use).
Their marker, ``hub``, is registered in pyproject.toml.

``login_hub``: ONE hub for the whole test session, shared by the login tests
(test_hub_login.py) and the fuzzing of the hub's forms (test_hub_forms.py): as deploy/hub.sh
starts it by default (each learner's own password, HTTPS with the certificate it makes),
with a teacher and five listed learners ("fuzz" is the fuzzing's own). Nobody's server is started (a login is not
followed to the server), so it stays light.

``class_db``: the URL of an empty class database, once SQLite and once PostgreSQL (a server
of the session's own, tests/hub/databases.py), for the tests of the hub's stores."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .databases import PostgresServer
from .hub_forms import TEACHER, TEACHER_PASSWORD
from .hub_harness import RunningHub, running_hub


@pytest.fixture(scope="session")
def login_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHub]:
    with running_hub(
        tmp_path_factory.mktemp("login-hub"),
        auth="native",
        password="",
        admins=[TEACHER],
        admin_password=TEACHER_PASSWORD,
        learners=["ada", "bo", "cy", "di", "fuzz"],
        tls=True,
    ) as hub:
        yield hub


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    server = PostgresServer()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def class_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'class-results.sqlite'}"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.new_database()
