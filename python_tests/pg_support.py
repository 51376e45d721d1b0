"""A real PostgreSQL server for the tests: `initdb` and `pg_ctl` (as the ``postgres`` user
when the tests run as root, since initdb refuses root) in a temporary folder, on a free port
of 127.0.0.1, stopped at the end of the session.

Without PostgreSQL the tests that need it are skipped, unless ``LUDOGAME_REQUIRE_POSTGRES=1``
(as in ``.ci/check``): then they fail."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass
class Postgres:
    """A running PostgreSQL server: `url(db)` is the address of a database on it."""

    host: str
    port: int
    user: str
    bin: Path
    data: Path
    as_user: list[str]

    def url(self, db: str = "postgres") -> str:
        return f"postgresql://{self.user}@{self.host}:{self.port}/{db}"

    def new_database(self, name: str) -> str:
        """A new empty database `name`; its URL."""
        self.psql("postgres", f'DROP DATABASE IF EXISTS "{name}"')
        self.psql("postgres", f'CREATE DATABASE "{name}"')
        return self.url(name)

    def psql(self, db: str, sql: str) -> str:
        psql = shutil.which("psql") or str(self.bin / "psql")
        out = subprocess.run(
            [psql, "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-c", sql, self.url(db)],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return out.stdout

    def pg_ctl(self, *args: str) -> None:
        subprocess.run(
            [*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), *args],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )

    def stop(self) -> None:
        self.pg_ctl("stop", "-m", "immediate", "-w")

    def start(self) -> None:
        self.pg_ctl("start", "-w", "-l", str(self.data.parent / "log"))


def find_bin() -> Path | None:
    """The folder of PostgreSQL's server programs (initdb, pg_ctl), the newest if several."""
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_major)
    return Path(found[-1]).parent if found else None


def _major(path: str) -> int:
    with contextlib.suppress(ValueError):
        return int(Path(path).parts[-3])
    return 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def unavailable(why: str) -> None:
    """Skip, or fail under LUDOGAME_REQUIRE_POSTGRES=1."""
    if os.environ.get("LUDOGAME_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"PostgreSQL is required (LUDOGAME_REQUIRE_POSTGRES=1): {why}")
    pytest.skip(f"no PostgreSQL: {why}")


def start_postgres(tmp: Path) -> Postgres:
    """initdb and start a server in `tmp` (raises on failure)."""
    bindir = find_bin()
    if bindir is None:
        raise RuntimeError("initdb is not installed (apt-get install postgresql)")
    as_user: list[str] = []
    user = "ludogame"
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(tmp, "postgres", "postgres")
    data = tmp / "data"
    subprocess.run(
        [
            *as_user,
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            user,
            "-A",
            "trust",
            "-E",
            "UTF8",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    port = free_port()
    with open(data / "postgresql.conf", "a", encoding="utf-8") as conf:
        conf.write(
            f"\nlisten_addresses = '127.0.0.1'\nport = {port}\n"
            f"unix_socket_directories = '{tmp}'\nfsync = off\n"
        )
    pg = Postgres("127.0.0.1", port, user, bindir, data, as_user)
    pg.start()
    return pg


@contextlib.contextmanager
def running_postgres() -> Iterator[Postgres]:
    """A fresh PostgreSQL server for the block (skips or fails if there can be none)."""
    tmp = Path(tempfile.mkdtemp(prefix="ludogame-pg-"))
    os.chmod(tmp, 0o755)
    try:
        try:
            pg = start_postgres(tmp)
        except (OSError, RuntimeError, subprocess.SubprocessError, LookupError) as e:
            detail = getattr(e, "stderr", None) or str(e)
            unavailable(f"cannot start a server: {str(detail).strip()[:400]}")
        try:
            yield pg
        finally:
            with contextlib.suppress(subprocess.SubprocessError, OSError):
                pg.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
