"""Games in an SQLite file (``--store sqlite:///PATH``, the default of ``ludo serve``).

SQLite commits with a group commit: one writer thread commits every change waiting at that
moment in one transaction (one sync of the disk for all of them), and answers each only
once that transaction is committed."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from LudoGame.web.database.base import (
    KEPT,
    SCHEMA_VERSION,
    Row,
    Storage,
    StorageError,
    hash_record_keys,
    row_of,
)

T = TypeVar("T")


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
        return row_of(found[0]) if found else None

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
        return [row_of(r) for r in rows]

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
