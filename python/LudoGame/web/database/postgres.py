"""Games in a PostgreSQL database (``--store postgresql://USER@HOST:PORT/DB``), which
several server processes may share: each change is announced with NOTIFY (what they tell
each other, and who is connected, is in `postgres_feed`)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from LudoGame._install import install_hint
from LudoGame.web.database.base import (
    KEPT,
    SCHEMA_VERSION,
    Row,
    Storage,
    StorageError,
    StoreUrlError,
    hash_record_keys,
    row_of,
)
from LudoGame.web.database.postgres_feed import CHANNEL, PostgresFeed, first_line, note_of

T = TypeVar("T")

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

#: The advisory lock taken while the schema is made (two servers may start at once).
_SCHEMA_LOCK = 0x1D0_6A3E
#: The longest a PostgreSQL statement may run (milliseconds) before it is an error.
STATEMENT_TIMEOUT_MS = 5_000
#: The advisory lock taken while a new game is counted against the limit and stored.
_LIMIT_LOCK = 0x1D0_6A3F


class PostgresStorage(PostgresFeed, Storage):
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
            raise self._failure(e, what) from e
        except BaseException:
            if conn is not None:
                conn.close()
            raise
        self._give(conn)
        return result

    def _failure(self, e: Exception, what: str) -> StorageError:
        """The error a PostgreSQL error `e` is while trying to `what` the store."""
        if isinstance(e, self._pg.IntegrityError):
            return StorageError(f"the store refused the change: {first_line(e)}")
        return StorageError(f"cannot {what} the store {self.where}: {first_line(e)}")

    def _give(self, conn: Any) -> None:
        with self._lock:
            if len(self._idle) < self._size:
                self._idle.append(conn)
                return
        conn.close()

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
                raise self._failure(e, "use") from e
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
            "note": note_of(row),
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
        return None if found is None else row_of(found)

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
        return [row_of(r) for r in rows]

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


def _hide_password(url: str) -> str:
    """`url` without its password (``postgresql://me:***@host/db``)."""
    scheme, sep, rest = url.partition("://")
    creds, at, host = rest.rpartition("@")
    if not at or ":" not in creds:
        return url
    return f"{scheme}{sep}{creds.split(':', 1)[0]}:***@{host}"
