"""A throw-away PostgreSQL cluster for the team-cache tests: initdb into a temp dir, pg_ctl start on
127.0.0.1 with a free port (password auth, so wrong credentials can be tested), stopped at exit.

Runs the server binaries as the `postgres` user when the tests run as root (initdb refuses root).
Binaries are found under /usr/lib/postgresql/*/bin or on PATH; `.ci/run` installs Debian's
`postgresql` package when they are missing. Without them the tests fail under CI=true and skip
elsewhere (a laptop without PostgreSQL can still run the rest of the suite)."""
from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

PASSWORD = "s3cret-pw"


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Cluster:
    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.as_postgres = os.geteuid() == 0
        self.root = Path(tempfile.mkdtemp(prefix="citecheck-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.url = f"postgresql://postgres:{PASSWORD}@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {done.stdout[-2000:]}{done.stderr[-2000:]}")

    def start(self) -> None:
        pwfile = self.root / "pw"
        pwfile.write_text(PASSWORD + "\n")
        if self.as_postgres:
            shutil.chown(self.root, "postgres")
            shutil.chown(pwfile, "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=scram-sha-256", f"--pwfile={pwfile}",
                  "-E", "UTF8", "--no-sync")
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.root} "
                   "-c fsync=off -c max_connections=100 -c shared_buffers=16MB")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-o", options, "-w", "-t", "60", "start")

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A running throw-away cluster for the whole session (see the module docstring)."""
    bindir = _bindir()
    if bindir is None:
        message = "PostgreSQL server binaries not found (Debian: apt-get install postgresql)"
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(message)
        pytest.skip(message)
    cluster = Cluster(bindir)
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> Iterator[str]:
    """The cluster's URL with citecheck's schema migrated and emptied, so each test starts clean."""
    import psycopg

    from citecheck.fetch.pgschema import migrate

    with psycopg.connect(pg_cluster.url, autocommit=True) as conn:
        migrate(conn)
        conn.execute("TRUNCATE citecheck_pages, citecheck_extras, citecheck_leases, citecheck_host_slots, citecheck_hosts")
    yield pg_cluster.url
