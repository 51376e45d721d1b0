"""Where the server keeps its games: one interface, written once for both games, with an
in-memory backend (``memory``) and an embedded SQLite file (``sqlite:///PATH``, the default
of ``ludo serve``).

A game is stored as one row: its id, kind and version, whether it is over and whether the
server drives bots in it, and its record: a JSON object holding the engine's own save
(`Game.to_json()` or `Onitama.to_json()`) with the seats, seat keys, pace and who made each
entry. Every change is one transaction, committed before the server answers; a change
asked against a version that is no longer the stored one changes nothing."""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path

#: The schema of the SQLite file (``PRAGMA user_version``).
SCHEMA_VERSION = 1


class StorageError(Exception):
    """The store cannot be read or written (a full disk, a locked or broken file)."""


class StoreUrlError(ValueError):
    """A ``--store`` value this server cannot use."""


@dataclass
class Row:
    """One stored game."""

    id: str
    kind: str
    version: int
    over: bool
    #: the server drives bots in it (it has a pace and is not over)
    active: bool
    #: the game's record, a JSON object's text
    record: str
    updated: float = 0.0


class Storage(ABC):
    """The games of a server, by id. Every method is one transaction; methods may be called
    from any thread."""

    #: What the store is, in words, for the start-up line.
    where: str

    @abstractmethod
    def insert(self, row: Row) -> None:
        """Store a new game."""

    @abstractmethod
    def update(self, row: Row, previous: int) -> bool:
        """Store `row` over the game's row if its stored version is still `previous`;
        False (and nothing changed) if it is not, or the game is gone."""

    @abstractmethod
    def load(self, ident: str) -> Row | None:
        """The game `ident`, or None."""

    @abstractmethod
    def delete(self, ident: str) -> bool:
        """Remove a game; False if there was none."""

    @abstractmethod
    def count(self) -> int:
        """How many games are stored."""

    @abstractmethod
    def active(self) -> list[Row]:
        """The games whose bots the server drives (to take up again after a restart)."""

    @abstractmethod
    def expire(self, before: float) -> list[str]:
        """Remove the games that are over and unchanged since `before` (a Unix time); their
        ids."""

    def close(self) -> None:  # noqa: B027 (nothing to release unless a backend says so)
        """Release the store (the server is stopping)."""


class MemoryStorage(Storage):
    """Games in this process's memory: gone when it stops."""

    where = "memory (games are lost when the server stops)"

    def __init__(self) -> None:
        self._rows: dict[str, Row] = {}
        self._lock = threading.Lock()

    def insert(self, row: Row) -> None:
        with self._lock:
            if row.id in self._rows:
                raise StorageError(f"a game {row.id[:12]!r} is already stored")
            self._rows[row.id] = _stamped(row)

    def update(self, row: Row, previous: int) -> bool:
        with self._lock:
            old = self._rows.get(row.id)
            if old is None or old.version != previous:
                return False
            self._rows[row.id] = _stamped(row)
            return True

    def load(self, ident: str) -> Row | None:
        with self._lock:
            return self._rows.get(ident)

    def delete(self, ident: str) -> bool:
        with self._lock:
            return self._rows.pop(ident, None) is not None

    def count(self) -> int:
        with self._lock:
            return len(self._rows)

    def active(self) -> list[Row]:
        with self._lock:
            return [r for r in self._rows.values() if r.active]

    def expire(self, before: float) -> list[str]:
        with self._lock:
            gone = [i for i, r in self._rows.items() if r.over and r.updated < before]
            for i in gone:
                del self._rows[i]
            return gone


def _stamped(row: Row) -> Row:
    return Row(row.id, row.kind, row.version, row.over, row.active, row.record, time.time())


_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id      TEXT PRIMARY KEY,
    kind    TEXT NOT NULL,
    version INTEGER NOT NULL,
    over    INTEGER NOT NULL,
    active  INTEGER NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    record  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_active ON games (active) WHERE active = 1;
"""


class SqliteStorage(Storage):
    """Games in an SQLite file (the standard library's sqlite3): write-ahead log, a full
    sync on every commit, one transaction per change. Survives ``kill -9`` at any moment:
    a change is answered only once its transaction is committed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where = str(path)
        self._lock = threading.Lock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                path, isolation_level=None, check_same_thread=False, timeout=10
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StorageError(
                    f"{path} was written by a newer LudoGame (schema {version}, this one "
                    f"reads {SCHEMA_VERSION})"
                )
            self._db.executescript(_SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except (sqlite3.Error, OSError) as e:
            raise StorageError(f"cannot open the store {path}: {e}") from e

    def _run(self, sql: str, args: tuple[object, ...] = ()) -> sqlite3.Cursor:
        try:
            with self._lock:
                return self._db.execute(sql, args)
        except sqlite3.IntegrityError as e:
            raise StorageError(f"the store refused the change: {e}") from e
        except sqlite3.Error as e:
            raise StorageError(f"the store {self.path} cannot be used: {e}") from e

    def insert(self, row: Row) -> None:
        now = time.time()
        self._run(
            "INSERT INTO games (id, kind, version, over, active, created, updated, record) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (row.id, row.kind, row.version, row.over, row.active, now, now, row.record),
        )

    def update(self, row: Row, previous: int) -> bool:
        cur = self._run(
            "UPDATE games SET version = ?, over = ?, active = ?, updated = ?, record = ? "
            "WHERE id = ? AND version = ?",
            (row.version, row.over, row.active, time.time(), row.record, row.id, previous),
        )
        return cur.rowcount == 1

    def load(self, ident: str) -> Row | None:
        found = self._run(
            "SELECT id, kind, version, over, active, record, updated FROM games WHERE id = ?",
            (ident,),
        ).fetchone()
        return None if found is None else _row(found)

    def delete(self, ident: str) -> bool:
        return self._run("DELETE FROM games WHERE id = ?", (ident,)).rowcount == 1

    def count(self) -> int:
        n: int = self._run("SELECT count(*) FROM games").fetchone()[0]
        return n

    def active(self) -> list[Row]:
        rows = self._run(
            "SELECT id, kind, version, over, active, record, updated FROM games WHERE active = 1"
        ).fetchall()
        return [_row(r) for r in rows]

    def expire(self, before: float) -> list[str]:
        rows = self._run(
            "DELETE FROM games WHERE over = 1 AND updated < ? RETURNING id", (before,)
        ).fetchall()
        return [r[0] for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _row(r: tuple[object, ...]) -> Row:
    ident, kind, version, over, active, record, updated = r
    assert isinstance(version, int) and isinstance(updated, float)
    return Row(str(ident), str(kind), version, bool(over), bool(active), str(record), updated)


def data_dir() -> Path:
    """The user's data directory for LudoGame: ``$XDG_DATA_HOME/LudoGame`` (by default
    ``~/.local/share/LudoGame``), ``~/Library/Application Support/LudoGame`` on macOS,
    ``%LOCALAPPDATA%\\LudoGame`` on Windows."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "LudoGame"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "LudoGame"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "LudoGame"


def default_url() -> str:
    """The store of ``ludo serve`` when none is given: an SQLite file in the data directory."""
    return f"sqlite:///{data_dir() / 'games.sqlite3'}"


def open_storage(url: str) -> Storage:
    """The store a ``--store`` URL names: ``memory``, or ``sqlite:///PATH`` (an SQLite file;
    ``sqlite:///games.db`` is relative to the working directory, ``sqlite:////srv/games.db``
    absolute, as in SQLAlchemy's URLs)."""
    if url == "memory":
        return MemoryStorage()
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
        if not path:
            raise StoreUrlError("sqlite:/// needs a file's path, e.g. sqlite:///games.sqlite3")
        return SqliteStorage(Path(path).expanduser())
    if url.startswith(("postgresql://", "postgres://")):
        raise StoreUrlError("a PostgreSQL store is not supported yet: use sqlite:///PATH or memory")
    raise StoreUrlError(
        f"unknown store {url[:40]!r}: use memory or sqlite:///PATH (an SQLite file)"
    )
