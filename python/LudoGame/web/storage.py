"""Where the server keeps its games: one interface, written once for both games, with an
in-memory backend (``memory``), an embedded SQLite file (``sqlite:///PATH``, the default
of ``ludo serve``) and a PostgreSQL database (``postgresql://USER@HOST:PORT/DB``, which several
server processes may share: each change is announced with NOTIFY).

A game is stored as one row: its id, kind and version, whether it is over and whether the
server drives bots in it, and its record: a JSON object holding the engine's own save
(`Game.to_json()` or `Onitama.to_json()`) with the seats, seat keys, pace and who made each
entry. Every change is one transaction, committed before the server answers; a change
asked against a version that is no longer the stored one changes nothing. The same
transaction keeps the record of each of a game's last `KEPT` versions (its history), from
which a client that missed events gets them (`Storage.history`).

SQLite commits with a group commit: one writer thread commits every change waiting at that
moment in one transaction (one sync of the disk for all of them), and answers each only
once that transaction is committed."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import math
import os
import sqlite3
import sys
import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from LudoGame._install import install_hint

#: The schema of the SQLite file (``PRAGMA user_version``) and of the PostgreSQL tables
#: (3: records hold digests of the seat keys, not the keys; 2: a game's last versions are
#: kept in a history table; 1 had none).
SCHEMA_VERSION = 3
#: How many of a game's latest versions the store keeps (for clients that missed events).
KEPT = 16
#: Version -2 in `Storage.changes`: who is connected to a game changed (see `set_present`).
PRESENCE_CHANGED = -2

T = TypeVar("T")


#: How a stored seat key starts: a record keeps the SHA-256 of each key, never the key.
DIGEST_PREFIX = "sha256:"


def key_digest(key: str, *, stored: bool = False) -> str:
    """The digest a record keeps of a seat key: ``sha256:`` and the hex SHA-256 of its
    UTF-8 bytes (any text, a non-ASCII one too: a request's key is just a wrong one then).
    `stored`: `key` is a record's value, a digest already unless the record was written
    before digests were (a key itself: then its digest)."""
    if stored and key.startswith(DIGEST_PREFIX):
        return key
    data = key.encode("utf-8", "surrogatepass")
    return DIGEST_PREFIX + hashlib.sha256(data).hexdigest()


def hash_record_keys(record: str) -> str:
    """A record of schema 2 or older with its seat keys as digests (a record that is not a
    game's JSON object, or holds none, as it was)."""
    try:
        data = json.loads(record)
    except ValueError:
        return record
    if not isinstance(data, dict):
        return record
    keys, host = data.get("keys"), data.get("host_key")
    if isinstance(keys, dict):
        data["keys"] = {p: key_digest(str(k), stored=True) for p, k in keys.items()}
    if isinstance(host, str):
        data["host_key"] = key_digest(host, stored=True)
    return json.dumps(data)


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
    #: Other server processes may change the games too: a game is read from the store on
    #: every access, and `changes` says what the others changed.
    shared: bool = False
    #: Every call returns at once (nothing waits for a disk or a server): the server makes
    #: them on its event loop instead of handing them to a thread.
    quick: bool = False

    @abstractmethod
    def insert(self, row: Row, limit: int | None = None) -> bool:
        """Store a new game, unless the store already holds `limit` games: then False and
        nothing stored. The count and the insert are one step, also between processes
        sharing the store."""

    @abstractmethod
    def update(self, row: Row, previous: int) -> bool:
        """Store `row` over the game's row if its stored version is still `previous`;
        False (and nothing changed) if it is not, or the game is gone."""

    async def update_async(self, row: Row, previous: int, run: Callable[..., Any]) -> bool:
        """`update`, awaited on the event loop; `run(fn, *args)` awaits a blocking call made
        off the loop (the default: `update` made that way)."""
        done: bool = await run(self.update, row, previous)
        return done

    @abstractmethod
    def load(self, ident: str) -> Row | None:
        """The game `ident`, or None."""

    @abstractmethod
    def history(self, ident: str, after: int) -> list[tuple[int, str]]:
        """The stored records of the game `ident`'s versions after `after`, oldest first:
        (version, record). Only the last `KEPT` versions are kept: a caller checks that
        none is missing."""

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
    def expire(self, before: float | None, idle_before: float | None = None) -> list[str]:
        """Remove the games that are over and unchanged since `before`, and those not over
        and unchanged since `idle_before` (Unix times; None: none of them); their ids."""

    def close(self) -> None:  # noqa: B027 (nothing to release unless a backend says so)
        """Release the store (the server is stopping)."""

    async def aclose(self) -> None:  # noqa: B027 (nothing to release unless a backend says so)
        """Release what the store holds on the event loop (the server is stopping)."""

    def changes(self) -> AsyncIterator[tuple[str, int]]:
        """The changes of every process, as they are committed, for a `shared` store: (id,
        version) of each changed game, version -1 for a deleted one, `PRESENCE_CHANGED` when
        who is connected to it changed, and ("", 0) each time the feed (re)starts (anything
        may have changed meanwhile). Raises `StorageError` when the feed is lost."""
        raise NotImplementedError("only a shared store announces its changes")

    async def notes(self) -> AsyncIterator[tuple[str, int, Row | None]]:
        """`changes`, each with the changed game's row when the announcement carried it
        (then it need not be read), else None."""
        async for ident, version in self.changes():
            yield ident, version, None

    # who is connected, for a `shared` store (see PostgresStorage)

    def set_present(self, process: str, ident: str, seats: list[str], ttl: float) -> None:
        """Which seats of the game `ident` have a page open on `process` (a shared store)."""
        raise NotImplementedError("only a shared store shares who is connected")

    def set_presence(self, process: str, seats: dict[str, list[str]], ttl: float) -> None:
        """`set_present` for several games (each game's seats), at once (a shared store)."""
        raise NotImplementedError("only a shared store shares who is connected")

    def refresh_present(self, process: str, ttl: float) -> None:
        """Keep `process`'s presence alive for `ttl` seconds more (a shared store)."""
        raise NotImplementedError("only a shared store shares who is connected")

    def present(self, idents: list[str] | None) -> dict[str, set[str]]:
        """The connected seats of the games `idents` (None: all), on any process (a shared
        store)."""
        raise NotImplementedError("only a shared store shares who is connected")

    def drop_present(self, process: str) -> None:
        """`process` stops: it has no page open any more (a shared store)."""
        raise NotImplementedError("only a shared store shares who is connected")


class MemoryStorage(Storage):
    """Games in this process's memory: gone when it stops."""

    where = "memory (games are lost when the server stops)"
    quick = True

    def __init__(self) -> None:
        self._rows: dict[str, Row] = {}
        self._history: dict[str, deque[tuple[int, str]]] = {}
        self._lock = threading.Lock()

    def _keep(self, row: Row) -> None:
        self._history.setdefault(row.id, deque(maxlen=KEPT)).append((row.version, row.record))

    def insert(self, row: Row, limit: int | None = None) -> bool:
        with self._lock:
            if row.id in self._rows:
                raise StorageError(f"a game {row.id[:12]!r} is already stored")
            if limit is not None and len(self._rows) >= limit:
                return False
            self._rows[row.id] = _stamped(row)
            self._keep(row)
            return True

    def update(self, row: Row, previous: int) -> bool:
        with self._lock:
            old = self._rows.get(row.id)
            if old is None or old.version != previous:
                return False
            self._rows[row.id] = _stamped(row)
            self._keep(row)
            return True

    def load(self, ident: str) -> Row | None:
        with self._lock:
            return self._rows.get(ident)

    def history(self, ident: str, after: int) -> list[tuple[int, str]]:
        with self._lock:
            return [(v, r) for v, r in self._history.get(ident, ()) if v > after]

    def delete(self, ident: str) -> bool:
        with self._lock:
            self._history.pop(ident, None)
            return self._rows.pop(ident, None) is not None

    def count(self) -> int:
        with self._lock:
            return len(self._rows)

    def active(self) -> list[Row]:
        with self._lock:
            return [r for r in self._rows.values() if r.active]

    def expire(self, before: float | None, idle_before: float | None = None) -> list[str]:
        with self._lock:
            limit = {True: before, False: idle_before}
            gone = [i for i, r in self._rows.items() if r.updated < (limit[r.over] or -math.inf)]
            for i in gone:
                del self._rows[i]
                self._history.pop(i, None)
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
CREATE TABLE IF NOT EXISTS history (
    id      TEXT NOT NULL,
    version INTEGER NOT NULL,
    record  TEXT NOT NULL,
    PRIMARY KEY (id, version)
) WITHOUT ROWID;
"""


class _Write:
    """A change waiting for the SQLite writer: `fn(db)` run in its transaction; once that
    transaction is committed (or failed: `error`), `done` is set, or (a change awaited on an
    event loop) `future` is settled on its loop."""

    __slots__ = ("fn", "done", "result", "error", "future")

    def __init__(
        self, fn: Callable[[sqlite3.Connection], Any], future: asyncio.Future[Any] | None = None
    ) -> None:
        self.fn = fn
        self.done = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None
        self.future = future

    def settle(self) -> None:
        """Hand the result (or error) to the awaiting future (on its event loop)."""
        future = self.future
        if future is None or future.done():
            return
        if self.error is not None:
            future.set_exception(self.error)
        else:
            future.set_result(self.result)


class SqliteStorage(Storage):
    """Games in an SQLite file (the standard library's sqlite3): write-ahead log, a full
    sync on every commit. Survives ``kill -9`` at any moment: a change is answered only once
    its transaction is committed.

    Writes go through one writer thread (a group commit): it takes every change waiting,
    runs them in one transaction (each as a savepoint of its own: one that fails is undone
    alone) and commits once, so that one sync of the disk serves all the changes that
    arrived while the previous one ran. Reads use a connection of their own (WAL: they see
    every committed change and never wait for the writer)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where = str(path)
        self._lock = threading.Lock()  # the reading connection
        self._queue: list[_Write] = []
        self._ready = threading.Condition()
        self._closed = False
        #: how many transactions the writer committed, and the changes they held
        self.commits = 0
        self.committed = 0
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            # made readable by its owner only (SQLite gives its -wal and -shm files the
            # same mode): it holds every game, and digests of their seat keys
            with contextlib.suppress(FileExistsError):
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            self._db = self._open()
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StorageError(
                    f"{path} was written by a newer LudoGame (schema {version}, this one "
                    f"reads {SCHEMA_VERSION})"
                )
            self._db.executescript(_SCHEMA)
            if 0 < version < 3:
                _hash_keys_sqlite(self._db)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._reader = self._open()
        except (sqlite3.Error, OSError) as e:
            raise StorageError(f"cannot open the store {path}: {e}") from e
        self._writer = threading.Thread(
            target=self._write_loop, name="ludogame-sqlite", daemon=True
        )
        self._writer.start()

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
        db.execute("PRAGMA synchronous=FULL")
        return db

    # ---- the writer ----------------------------------------------------------------------

    def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """`fn(db)` in the writer's next transaction; its result once that is committed."""
        w = _Write(fn)
        self._enqueue(w)
        w.done.wait()
        if w.error is not None:
            raise w.error
        result: T = w.result
        return result

    def _enqueue(self, w: _Write) -> None:
        with self._ready:
            if self._closed:
                raise StorageError(f"the store {self.path} is closed")
            self._queue.append(w)
            self._ready.notify()

    async def update_async(self, row: Row, previous: int, run: Callable[..., Any]) -> bool:
        """`update` awaited without a thread of its own: the writer settles the awaiting
        future once its transaction is committed (one wake-up of the event loop for every
        change of a transaction)."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._enqueue(_Write(self._updating(row, previous), future))
        return await future

    def _write_loop(self) -> None:
        while True:
            with self._ready:
                while not self._queue and not self._closed:
                    self._ready.wait()
                batch, self._queue = self._queue, []
                if not batch:  # closed, and nothing left to write
                    self._db.close()
                    return
            self._commit(batch)

    def _commit(self, batch: list[_Write]) -> None:
        """Run `batch` in one transaction and commit it; then wake each change's caller."""
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                for w in batch:
                    db.execute("SAVEPOINT change")
                    try:
                        w.result = w.fn(db)
                    except sqlite3.IntegrityError as e:
                        db.execute("ROLLBACK TO change")
                        w.error = StorageError(f"the store refused the change: {e}")
                    db.execute("RELEASE change")
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            self.commits += 1
            self.committed += len(batch)
        except sqlite3.Error as e:
            error = StorageError(f"the store {self.path} cannot be used: {e}")
            for w in batch:
                w.result, w.error = None, error
        except BaseException as e:  # noqa: BLE001 (handed to every waiting caller)
            for w in batch:
                w.result, w.error = None, e
        finally:
            waiting: dict[asyncio.AbstractEventLoop, list[_Write]] = {}
            for w in batch:
                w.done.set()
                if w.future is not None:
                    waiting.setdefault(w.future.get_loop(), []).append(w)
            for loop, ws in waiting.items():
                with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                    loop.call_soon_threadsafe(_settle, ws)

    # ---- reads ---------------------------------------------------------------------------

    def _run(self, sql: str, args: tuple[object, ...] = ()) -> list[Any]:
        try:
            with self._lock:
                return self._reader.execute(sql, args).fetchall()
        except sqlite3.Error as e:
            raise StorageError(f"the store {self.path} cannot be used: {e}") from e

    # ---- the interface -------------------------------------------------------------------

    def insert(self, row: Row, limit: int | None = None) -> bool:
        now = time.time()

        def go(db: sqlite3.Connection) -> bool:
            # in the writer's transaction: one writer at a time, so the count holds
            cur = db.execute(
                "INSERT INTO games (id, kind, version, over, active, created, updated, record) "
                "SELECT ?, ?, ?, ?, ?, ?, ?, ? "
                "WHERE ? IS NULL OR (SELECT count(*) FROM games) < ?",
                (row.id, row.kind, row.version, row.over, row.active, now, now, row.record)
                + (limit, limit),
            )
            if cur.rowcount != 1:
                return False
            _keep_sqlite(db, row)
            return True

        return self._write(go)

    def update(self, row: Row, previous: int) -> bool:
        return self._write(self._updating(row, previous))

    @staticmethod
    def _updating(row: Row, previous: int) -> Callable[[sqlite3.Connection], bool]:
        """The update of `row` over version `previous`, as the writer runs it."""
        now = time.time()

        def go(db: sqlite3.Connection) -> bool:
            cur = db.execute(
                "UPDATE games SET version = ?, over = ?, active = ?, updated = ?, record = ? "
                "WHERE id = ? AND version = ?",
                (row.version, row.over, row.active, now, row.record, row.id, previous),
            )
            if cur.rowcount != 1:
                return False
            _keep_sqlite(db, row)
            return True

        return go

    def load(self, ident: str) -> Row | None:
        found = self._run(
            "SELECT id, kind, version, over, active, record, updated FROM games WHERE id = ?",
            (ident,),
        )
        return _row(found[0]) if found else None

    def history(self, ident: str, after: int) -> list[tuple[int, str]]:
        rows = self._run(
            "SELECT version, record FROM history WHERE id = ? AND version > ? ORDER BY version",
            (ident, after),
        )
        return [(int(v), str(r)) for v, r in rows]

    def delete(self, ident: str) -> bool:
        def go(db: sqlite3.Connection) -> bool:
            db.execute("DELETE FROM history WHERE id = ?", (ident,))
            return db.execute("DELETE FROM games WHERE id = ?", (ident,)).rowcount == 1

        return self._write(go)

    def count(self) -> int:
        n: int = self._run("SELECT count(*) FROM games")[0][0]
        return n

    def active(self) -> list[Row]:
        rows = self._run(
            "SELECT id, kind, version, over, active, record, updated FROM games WHERE active = 1"
        )
        return [_row(r) for r in rows]

    def expire(self, before: float | None, idle_before: float | None = None) -> list[str]:
        def go(db: sqlite3.Connection) -> list[str]:
            rows = db.execute(
                "DELETE FROM games WHERE (over = 1 AND updated < ?) OR (over = 0 AND updated < ?) "
                "RETURNING id",
                (before, idle_before),
            ).fetchall()
            for (ident,) in rows:
                db.execute("DELETE FROM history WHERE id = ?", (ident,))
            return [str(r[0]) for r in rows]

        return self._write(go)

    def close(self) -> None:
        with self._ready:
            self._closed = True
            self._ready.notify()
        self._writer.join(timeout=30)
        with self._lock:
            self._reader.close()


def _settle(ws: list[_Write]) -> None:
    for w in ws:
        w.settle()


def _hash_keys_sqlite(db: sqlite3.Connection) -> None:
    """A file of schema 2 or older: every record's seat keys (games and history) replaced by
    their digests, in one transaction, the old pages overwritten (``secure_delete``) and the
    write-ahead log emptied, so that no key is left in the file."""
    db.execute("PRAGMA secure_delete=ON")
    db.execute("BEGIN IMMEDIATE")
    try:
        for ident, record in db.execute("SELECT id, record FROM games").fetchall():
            db.execute(
                "UPDATE games SET record = ? WHERE id = ?", (hash_record_keys(record), ident)
            )
        for ident, version, record in db.execute(
            "SELECT id, version, record FROM history"
        ).fetchall():
            db.execute(
                "UPDATE history SET record = ? WHERE id = ? AND version = ?",
                (hash_record_keys(record), ident, version),
            )
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA secure_delete=OFF")


def _keep_sqlite(db: sqlite3.Connection, row: Row) -> None:
    """Keep `row`'s record in the history, and only the last `KEPT` versions of its game."""
    db.execute(
        "INSERT OR REPLACE INTO history (id, version, record) VALUES (?, ?, ?)",
        (row.id, row.version, row.record),
    )
    db.execute("DELETE FROM history WHERE id = ? AND version <= ?", (row.id, row.version - KEPT))


def _row(r: tuple[object, ...]) -> Row:
    ident, kind, version, over, active, record, updated = r
    assert isinstance(version, int) and isinstance(updated, float)
    return Row(str(ident), str(kind), version, bool(over), bool(active), str(record), updated)


_PG_SCHEMA = """
CREATE TABLE IF NOT EXISTS ludogame_games (
    id      TEXT PRIMARY KEY,
    kind    TEXT NOT NULL,
    version BIGINT NOT NULL,
    over    BOOLEAN NOT NULL,
    active  BOOLEAN NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    record  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ludogame_games_active ON ludogame_games (active) WHERE active;
CREATE TABLE IF NOT EXISTS ludogame_schema (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ludogame_history (
    id      TEXT NOT NULL,
    version BIGINT NOT NULL,
    record  TEXT NOT NULL,
    PRIMARY KEY (id, version)
);
CREATE TABLE IF NOT EXISTS ludogame_presence (
    game    TEXT NOT NULL,
    seat    TEXT NOT NULL,
    process TEXT NOT NULL,
    expires DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game, seat, process)
);
CREATE INDEX IF NOT EXISTS ludogame_presence_process ON ludogame_presence (process);
"""

#: The channel every change is announced on (payload ``ID:VERSION``, version -1: deleted,
#: -2: who is connected to it changed; an update's is ``ID:VERSION:FLAGS:KIND:RECORD``, the
#: row itself, when its record is short enough for a notification).
CHANNEL = "ludogame_games"
#: The advisory lock taken while the schema is made (two servers may start at once).
_SCHEMA_LOCK = 0x1D0_6A3E
#: The longest a PostgreSQL statement may run (milliseconds) before it is an error.
STATEMENT_TIMEOUT_MS = 5_000
#: The longest record sent in an update's notification (PostgreSQL's limit is 8,000 bytes);
#: a longer one is read from the table by the processes that need it.
NOTE_RECORD = 7_500
#: The advisory lock taken while a new game is counted against the limit and stored.
_LIMIT_LOCK = 0x1D0_6A3F


class PostgresStorage(Storage):
    """Games in a PostgreSQL database (psycopg 3), shared by any number of server processes.

    Every change is one transaction, committed before the server answers; an update is
    ``UPDATE ... WHERE id = ? AND version = ?``, so of two changes from one version the
    database lets exactly one through. Each change also sends ``NOTIFY ludogame_games,
    'ID:VERSION'`` (delivered when it commits), which `changes` listens to, and keeps the
    game's last `KEPT` records in ``ludogame_history``: an update, its history and its
    notification are one statement (one round trip). A lost connection is answered with
    `StorageError` (503) and made again on the next call. The connections are pooled (at
    most `pool` kept idle); the updates go out on asynchronous connections of the event
    loop, at most `pool` at once (a database allows 100 connections by default).

    Who is connected to a game (a seat's page open on its events) is shared through
    ``ludogame_presence``: a row per game, seat and process, kept alive by its process
    (`refresh_present`) and ignored once it expires (its process stopped)."""

    shared = True
    #: The psycopg module, imported when a store is made (it is an optional dependency).
    _pg: Any = None

    def __init__(self, url: str, *, connect_timeout: int = 5, pool: int = 16) -> None:
        try:
            import psycopg
        except ImportError as e:
            raise StoreUrlError(
                f"a PostgreSQL store needs psycopg 3: {install_hint('postgres')}"
            ) from e
        self._pg = psycopg
        self.url = url
        self.where = _hide_password(url)
        self.connect_timeout = connect_timeout
        self._size = pool
        self._idle: list[Any] = []
        #: idle connections of an event loop's own, for `update_async` (only touched from
        #: that loop)
        self._async_idle: list[Any] = []
        self._async_loop: asyncio.AbstractEventLoop | None = None
        self._async_gate: asyncio.Semaphore | None = None
        self._lock = threading.Lock()

        def schema(conn: Any) -> None:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            conn.execute(_PG_SCHEMA)
            found = conn.execute("SELECT max(version) FROM ludogame_schema").fetchone()[0]
            if found is None:
                conn.execute("INSERT INTO ludogame_schema VALUES (%s)", (SCHEMA_VERSION,))
            elif found < SCHEMA_VERSION:  # the tables it lacked are made above
                if found < 3:
                    _hash_keys_pg(conn)
                conn.execute("UPDATE ludogame_schema SET version = %s", (SCHEMA_VERSION,))
            elif found > SCHEMA_VERSION:
                raise StorageError(
                    f"{self.where} was written by a newer LudoGame (schema {found}, this one "
                    f"reads {SCHEMA_VERSION})"
                )

        self._run(schema, "open")

    def _connect(self) -> Any:
        return self._pg.connect(self.url, **self._options())

    def _options(self) -> dict[str, Any]:
        # A statement that waits longer than STATEMENT_TIMEOUT, or a server that stops
        # answering (TCP keepalives), is an error (503) instead of a request that hangs.
        return {
            "autocommit": True,
            "connect_timeout": self.connect_timeout,
            "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS}",
            "keepalives": 1,
            "keepalives_idle": 10,
            "keepalives_interval": 5,
            "keepalives_count": 3,
        }

    def _run(self, fn: Callable[[Any], T], what: str = "use", *, one: bool = False) -> T:
        """`fn(connection)` in one transaction, committed when it returns (`one`: `fn` runs
        one statement, which is a transaction of its own: no BEGIN and COMMIT sent)."""
        with self._lock:
            conn = self._idle.pop() if self._idle else None
        try:
            if conn is None:
                conn = self._connect()
            if one:
                result = fn(conn)
            else:
                with conn.transaction():
                    result = fn(conn)
        except self._pg.Error as e:
            broken = conn is None or conn.broken or conn.closed
            if broken:
                if conn is not None:
                    conn.close()
                with self._lock:  # the server went away: the idle ones are gone too
                    idle, self._idle = self._idle, []
                for c in idle:
                    c.close()
            else:
                self._give(conn)
            if isinstance(e, self._pg.IntegrityError):
                raise StorageError(f"the store refused the change: {_first_line(e)}") from e
            raise StorageError(f"cannot {what} the store {self.where}: {_first_line(e)}") from e
        except BaseException:
            if conn is not None:
                conn.close()
            raise
        self._give(conn)
        return result

    def _give(self, conn: Any) -> None:
        with self._lock:
            if len(self._idle) < self._size:
                self._idle.append(conn)
                return
        conn.close()

    @staticmethod
    def _notify(conn: Any, ident: str, version: int) -> None:
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{ident}:{version}"))

    def insert(self, row: Row, limit: int | None = None) -> bool:
        def go(conn: Any) -> bool:
            now = time.time()
            if limit is not None:
                # processes count and insert one at a time: none passes the limit
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LIMIT_LOCK,))
                if conn.execute("SELECT count(*) FROM ludogame_games").fetchone()[0] >= limit:
                    return False
            conn.execute(
                "INSERT INTO ludogame_games (id, kind, version, over, active, created, "
                "updated, record) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                (row.id, row.kind, row.version, row.over, row.active, now, now, row.record),
            )
            conn.execute(
                "INSERT INTO ludogame_history (id, version, record) VALUES (%s, %s, %s)",
                (row.id, row.version, row.record),
            )
            self._notify(conn, row.id, row.version)
            return True

        return self._run(go)

    def update(self, row: Row, previous: int) -> bool:
        sql, args = self._update_sql(row, previous)
        return self._run(lambda conn: len(conn.execute(sql, args).fetchall()) == 1, one=True)

    async def update_async(self, row: Row, previous: int, run: Callable[..., Any]) -> bool:
        """`update` on a connection of the event loop's own (psycopg's asynchronous one):
        no thread is woken for it. A kept connection found broken (the server restarted)
        is dropped with the others kept, and the update sent once more on a new one."""
        loop = asyncio.get_running_loop()
        if self._async_loop is not loop:  # (connections serve the loop they were made on)
            self._async_loop, self._async_idle = loop, []
            self._async_gate = asyncio.Semaphore(self._size)
        assert self._async_gate is not None
        async with self._async_gate:  # at most `pool` connections of the loop at once
            return await self._update_on_loop(row, previous)

    async def _update_on_loop(self, row: Row, previous: int) -> bool:
        sql, args = self._update_sql(row, previous)
        for attempt in (1, 2):
            kept = bool(self._async_idle)
            conn = self._async_idle.pop() if kept else None
            try:
                if conn is None:
                    conn = await self._pg.AsyncConnection.connect(self.url, **self._options())
                cur = await conn.execute(sql, args)
                done = len(await cur.fetchall()) == 1
            except self._pg.Error as e:
                if conn is not None and (conn.broken or conn.closed):
                    await conn.close()
                    stale, self._async_idle = self._async_idle, []
                    for c in stale:
                        await c.close()
                    if kept and attempt == 1 and not isinstance(e, self._pg.IntegrityError):
                        continue
                elif conn is not None:
                    self._give_async(conn)
                if isinstance(e, self._pg.IntegrityError):
                    raise StorageError(f"the store refused the change: {_first_line(e)}") from e
                raise StorageError(f"cannot use the store {self.where}: {_first_line(e)}") from e
            except BaseException:
                if conn is not None:
                    await conn.close()
                raise
            self._give_async(conn)
            return done
        raise AssertionError("unreachable")

    def _give_async(self, conn: Any) -> None:
        self._async_idle.append(conn)

    def _update_sql(self, row: Row, previous: int) -> tuple[str, dict[str, Any]]:
        # One statement: the update, the history kept (and pruned to KEPT versions) and the
        # notification, all or nothing; a row out only if the update was made.
        sql = (
            "WITH changed AS (UPDATE ludogame_games SET version = %(v)s, over = %(over)s, "
            "active = %(active)s, updated = %(now)s, record = %(record)s "
            "WHERE id = %(id)s AND version = %(previous)s RETURNING id), "
            "kept AS (INSERT INTO ludogame_history (id, version, record) "
            "SELECT id, %(v)s, %(record)s FROM changed), "
            "pruned AS (DELETE FROM ludogame_history WHERE id = %(id)s AND version <= %(old)s "
            "AND EXISTS (SELECT 1 FROM changed)) "
            "SELECT pg_notify(%(channel)s, %(note)s) FROM changed"
        )
        args = {
            "v": row.version,
            "over": row.over,
            "active": row.active,
            "now": time.time(),
            "record": row.record,
            "id": row.id,
            "previous": previous,
            "old": row.version - KEPT,
            "channel": CHANNEL,
            "note": _note(row),
        }
        return sql, args

    def load(self, ident: str) -> Row | None:
        found = self._run(
            lambda conn: conn.execute(
                "SELECT id, kind, version, over, active, record, updated FROM ludogame_games "
                "WHERE id = %s",
                (ident,),
            ).fetchone(),
            one=True,
        )
        return None if found is None else _row(found)

    def history(self, ident: str, after: int) -> list[tuple[int, str]]:
        rows = self._run(
            lambda conn: conn.execute(
                "SELECT version, record FROM ludogame_history WHERE id = %s AND version > %s "
                "ORDER BY version",
                (ident, after),
            ).fetchall(),
            one=True,
        )
        return [(int(v), str(r)) for v, r in rows]

    def delete(self, ident: str) -> bool:
        def go(conn: Any) -> bool:
            cur = conn.execute("DELETE FROM ludogame_games WHERE id = %s", (ident,))
            if cur.rowcount != 1:
                return False
            conn.execute("DELETE FROM ludogame_history WHERE id = %s", (ident,))
            self._notify(conn, ident, -1)
            return True

        return self._run(go)

    # ---- who is connected ----------------------------------------------------------------

    def set_present(self, process: str, ident: str, seats: list[str], ttl: float) -> None:
        """This `process` has pages of the game `ident`'s `seats` open now (none: it has no
        more): its rows for the game are replaced (expiring in `ttl` seconds) and the change
        is announced (version `PRESENCE_CHANGED`)."""
        self.set_presence(process, {ident: seats}, ttl)

    def set_presence(self, process: str, seats: dict[str, list[str]], ttl: float) -> None:
        """`set_present` for several games (each game's seats), in one transaction."""

        def go(conn: Any) -> None:
            expires = time.time() + ttl
            for ident, present in seats.items():
                conn.execute(
                    "DELETE FROM ludogame_presence WHERE game = %s AND process = %s",
                    (ident, process),
                )
                for seat in present:
                    conn.execute(
                        "INSERT INTO ludogame_presence (game, seat, process, expires) "
                        "VALUES (%s, %s, %s, %s)",
                        (ident, seat, process, expires),
                    )
                self._notify(conn, ident, PRESENCE_CHANGED)

        self._run(go)

    def refresh_present(self, process: str, ttl: float) -> None:
        """Keep this `process`'s rows alive for `ttl` more seconds, and drop the expired
        rows of every process (one that stopped without saying so)."""

        def go(conn: Any) -> None:
            now = time.time()
            conn.execute(
                "UPDATE ludogame_presence SET expires = %s WHERE process = %s",
                (now + ttl, process),
            )
            conn.execute("DELETE FROM ludogame_presence WHERE expires < %s", (now - ttl,))

        self._run(go)

    def present(self, idents: list[str] | None) -> dict[str, set[str]]:
        """The seats of each of the games `idents` (None: of every game) that some process
        has a page of open (its row unexpired); games with none are left out."""
        args: tuple[Any, ...]
        if idents is None:
            sql, args = "SELECT game, seat FROM ludogame_presence WHERE expires > %s", ()
        else:
            sql = "SELECT game, seat FROM ludogame_presence WHERE game = ANY(%s) AND expires > %s"
            args = (idents,)
        rows = self._run(lambda conn: conn.execute(sql, (*args, time.time())).fetchall(), one=True)
        out: dict[str, set[str]] = {}
        for game, seat in rows:
            out.setdefault(str(game), set()).add(str(seat))
        return out

    def drop_present(self, process: str) -> None:
        """This process stops: its rows go (the others see its seats leave)."""

        def go(conn: Any) -> None:
            games = conn.execute(
                "DELETE FROM ludogame_presence WHERE process = %s RETURNING game", (process,)
            ).fetchall()
            for game in {g for (g,) in games}:
                self._notify(conn, game, PRESENCE_CHANGED)

        self._run(go)

    def count(self) -> int:
        return int(
            self._run(lambda c: c.execute("SELECT count(*) FROM ludogame_games").fetchone()[0])
        )

    def active(self) -> list[Row]:
        rows = self._run(
            lambda conn: conn.execute(
                "SELECT id, kind, version, over, active, record, updated FROM ludogame_games "
                "WHERE active"
            ).fetchall()
        )
        return [_row(r) for r in rows]

    def expire(self, before: float | None, idle_before: float | None = None) -> list[str]:
        def go(conn: Any) -> list[str]:
            rows = conn.execute(
                "DELETE FROM ludogame_games WHERE (over AND updated < %s) "
                "OR (NOT over AND updated < %s) RETURNING id",
                (before, idle_before),
            ).fetchall()
            for (ident,) in rows:
                conn.execute("DELETE FROM ludogame_history WHERE id = %s", (ident,))
                self._notify(conn, ident, -1)
            return [r[0] for r in rows]

        return self._run(go)

    async def changes(self) -> AsyncIterator[tuple[str, int]]:
        async for ident, version, _ in self.notes():
            yield ident, version

    async def notes(self) -> AsyncIterator[tuple[str, int, Row | None]]:
        try:
            # keepalives: a listener whose server went away notices it (and is made again)
            conn = await self._pg.AsyncConnection.connect(
                self.url,
                autocommit=True,
                connect_timeout=self.connect_timeout,
                keepalives=1,
                keepalives_idle=10,
                keepalives_interval=5,
                keepalives_count=3,
            )
        except self._pg.Error as e:
            raise StorageError(f"cannot listen to {self.where}: {_first_line(e)}") from e
        try:
            await conn.execute(f"LISTEN {CHANNEL}")
            yield "", 0, None
            async for note in conn.notifies():
                found = _parse_note(note.payload)
                if found is not None:
                    yield found
        except self._pg.Error as e:
            raise StorageError(f"lost the store {self.where}: {_first_line(e)}") from e
        finally:
            await conn.close()

    async def aclose(self) -> None:
        idle, self._async_idle = self._async_idle, []
        for c in idle:
            await c.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for c in idle:
            c.close()


def _hash_keys_pg(conn: Any) -> None:
    """Tables of schema 2 or older: every record's seat keys (games and history) replaced by
    their digests (in the transaction that moves the schema on)."""
    for ident, record in conn.execute("SELECT id, record FROM ludogame_games").fetchall():
        conn.execute(
            "UPDATE ludogame_games SET record = %s WHERE id = %s", (hash_record_keys(record), ident)
        )
    for ident, version, record in conn.execute(
        "SELECT id, version, record FROM ludogame_history"
    ).fetchall():
        conn.execute(
            "UPDATE ludogame_history SET record = %s WHERE id = %s AND version = %s",
            (hash_record_keys(record), ident, version),
        )


def _note(row: Row) -> str:
    """The notification of an update: ``ID:VERSION``, with the row itself if it fits."""
    head = f"{row.id}:{row.version}"
    if len(row.record) + len(row.kind) + len(head) > NOTE_RECORD or not row.record.isascii():
        return head
    return f"{head}:{int(row.over)}{int(row.active)}:{row.kind}:{row.record}"


def _parse_note(payload: str) -> tuple[str, int, Row | None] | None:
    """A notification's (id, version, row or None); None for one this server cannot read.
    (An id has no colon: ids are URL-safe base64.)"""
    parts = payload.split(":", 4)
    if len(parts) < 2 or not parts[0] or not parts[1].lstrip("-").isdigit():
        return None
    ident, version = parts[0], int(parts[1])
    if len(parts) == 5 and len(parts[2]) == 2:
        flags, kind, record = parts[2], parts[3], parts[4]
        return ident, version, Row(ident, kind, version, flags[0] == "1", flags[1] == "1", record)
    return ident, version, None


def _first_line(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]


def _hide_password(url: str) -> str:
    """`url` without its password (``postgresql://me:***@host/db``)."""
    scheme, sep, rest = url.partition("://")
    creds, at, host = rest.rpartition("@")
    if not at or ":" not in creds:
        return url
    return f"{scheme}{sep}{creds.split(':', 1)[0]}:***@{host}"


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
    """The store a ``--store`` URL names: ``memory``, ``sqlite:///PATH`` (an SQLite file;
    ``sqlite:///games.db`` is relative to the working directory, ``sqlite:////srv/games.db``
    absolute, as in SQLAlchemy's URLs), or ``postgresql://USER@HOST:PORT/DB`` (a PostgreSQL
    database, libpq's URL: psycopg 3, ``pip install ".[postgres]"``)."""
    if url == "memory":
        return MemoryStorage()
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
        if not path:
            raise StoreUrlError("sqlite:/// needs a file's path, e.g. sqlite:///games.sqlite3")
        return SqliteStorage(Path(path).expanduser())
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStorage(url)
    raise StoreUrlError(
        f"unknown store {url[:40]!r}: use memory, sqlite:///PATH or postgresql://HOST/DB"
    )
