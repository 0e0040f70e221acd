"""A real PostgreSQL 15 server for the floor tests (Debian's postgresql-15), started by the test
itself in a temporary directory: initdb, then pg_ctl on a free TCP port of 127.0.0.1 with its
socket in that directory, stopped (fast or immediate) and removed at the end. initdb and the
server refuse to run as root, so as root (CI) they run as the unprivileged `postgres` user
(created by Debian's postgresql-common), or `nobody`, through runuser. fsync stays on: an
immediate stop is a real crash for the server's recovery. Python's standard library only; SQL
goes through psql.
"""
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from typing import Optional

BIN = "/usr/lib/postgresql/15/bin"


class PgError(RuntimeError):
    """psql failed: its error text (`ERROR:  ...`) is the message."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    def __init__(self, superuser: str = "floor_dba"):
        if not os.path.exists(f"{BIN}/initdb"):
            raise RuntimeError(f"{BIN}/initdb not found: packaging/install-deps installs postgresql-15")
        self.dir = tempfile.mkdtemp(prefix="pitlink-pg-")
        self.data = os.path.join(self.dir, "data")
        self.superuser = superuser
        self.port = _free_port()
        self.runas: Optional[str] = None
        if os.geteuid() == 0:
            self.runas = "postgres" if _user_exists("postgres") else "nobody"
            os.chmod(self.dir, 0o700)
            shutil.chown(self.dir, self.runas, None)
        self._run([f"{BIN}/initdb", "-D", self.data, "-U", superuser, "-A", "trust", "-E", "UTF8", "--no-locale"])
        self.start()

    def _run(self, argv, **kwargs) -> subprocess.CompletedProcess:
        if self.runas is not None:
            argv = ["runuser", "-u", self.runas, "--"] + argv
        result = subprocess.run(argv, capture_output=True, text=True, **kwargs)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)}: {result.stdout}{result.stderr}")
        return result

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c shared_buffers=32MB"
        self._run([f"{BIN}/pg_ctl", "-D", self.data, "-l", os.path.join(self.dir, "log"), "-w", "-o", options,
                   "start"])

    def stop(self, mode: str = "fast") -> None:
        self._run([f"{BIN}/pg_ctl", "-D", self.data, "-m", mode, "-w", "stop"])

    def close(self) -> None:
        try:
            self.stop("immediate")
        except RuntimeError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)

    def psql(self, sql: str, user: Optional[str] = None, database: str = "postgres",
             variables: Optional[dict] = None) -> str:
        """Runs `sql` (one or more statements, or psql meta-commands) in one psql session over TCP;
        returns its unaligned, tuples-only output; PgError with the server's error otherwise."""
        argv = ["psql", "-X", "-At", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(self.port),
                "-U", user or self.superuser, "-d", database]
        for name, value in (variables or {}).items():
            argv += ["-v", f"{name}={value}"]
        result = subprocess.run(argv, input=sql, capture_output=True, text=True)
        if result.returncode != 0:
            raise PgError(result.stderr.strip())
        return result.stdout.strip()

    def psql_file(self, path: str, user: Optional[str] = None, database: str = "postgres") -> str:
        """Applies an SQL file in one transaction, as a DBA would (`psql --single-transaction -f`)."""
        argv = ["psql", "-X", "-At", "-q", "-v", "ON_ERROR_STOP=1", "--single-transaction", "-h", "127.0.0.1",
                "-p", str(self.port), "-U", user or self.superuser, "-d", database, "-f", path]
        result = subprocess.run(argv, capture_output=True, text=True)
        if result.returncode != 0:
            raise PgError(result.stderr.strip())
        return result.stdout.strip()


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False
