"""The class's databases for the hub's stores' tests: SQLite (a file) and PostgreSQL (what a
school's cluster runs, deploy/k8s: ``TUTOR_CLASS_DB_URL=postgresql+psycopg://...``).

The stores write each dialect's own SQL (``INSERT ... ON CONFLICT``), so a test that ran
on SQLite alone would say nothing of PostgreSQL. :class:`PostgresServer` starts a
throwaway PostgreSQL of its own for the test session: a new cluster in a temporary folder
(``initdb``, trust login, no TCP: a unix socket in that folder), stopped and removed at
the end; each test gets a new database in it. The server's programs come with Debian's
``postgresql`` package (scripts/test.sh installs it); without them the tests say so.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

from sqlalchemy import create_engine, text

INSTALL = "apt-get install postgresql (scripts/test.sh does it when run as root)"


def server_program(name: str) -> str:
    """The path of PostgreSQL's ``name`` (initdb, pg_ctl): on the PATH, or where Debian
    puts it (/usr/lib/postgresql/<version>/bin), the newest version first."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda path: int(Path(path).parts[-3]) if Path(path).parts[-3].isdigit() else 0,
    )
    if not candidates:
        raise RuntimeError(f"PostgreSQL's {name} was not found: {INSTALL}")
    return candidates[-1]


class PostgresServer:
    """A PostgreSQL server of the test session's own, reached by its unix socket."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="tutor-postgres-"))
        self.data = self.folder / "data"
        self.port = 5432  # a unix socket only: the port is the socket's name, not a TCP port
        # PostgreSQL refuses to run as root: as root, the server runs as Debian's postgres
        self.run_as: list[str] = []
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError as missing:
                raise RuntimeError(
                    f"no 'postgres' user to run PostgreSQL as: {INSTALL}"
                ) from missing
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
            self.run_as = ["runuser", "-u", "postgres", "--"]
        self._run(
            server_program("initdb"),
            "--pgdata", str(self.data), "--username", "postgres", "--auth", "trust",
            "--encoding", "UTF8", "--locale", "C", "--no-sync",
        )  # fmt: skip
        options = f"-c listen_addresses='' -c unix_socket_directories='{self.folder}' -c fsync=off"
        self._run(
            server_program("pg_ctl"),
            "--pgdata", str(self.data), "--log", str(self.folder / "server.log"),
            "--options", options, "--wait", "start",
        )  # fmt: skip
        self.admin = create_engine(self.url("postgres"), isolation_level="AUTOCOMMIT")

    def _run(self, *command: str) -> None:
        done = subprocess.run([*self.run_as, *command], capture_output=True, text=True)
        if done.returncode != 0:
            log = self.folder / "server.log"
            raise RuntimeError(
                f"{Path(command[0]).name} failed ({done.returncode}): {done.stderr.strip()}"
                + (f"\n{log.read_text()}" if log.exists() else "")
            )

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@/{database}?host={self.folder}&port={self.port}"

    def new_database(self) -> str:
        """The URL of a new, empty database (one per test: nothing leaks between tests)."""
        name = f"class_{uuid.uuid4().hex[:12]}"
        with self.admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        return self.url(name)

    def stop(self) -> None:
        self.admin.dispose()
        try:
            self._run(
                server_program("pg_ctl"), "--pgdata", str(self.data), "--mode", "immediate",
                "--wait", "stop",
            )  # fmt: skip
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
