"""What the processes sharing a PostgreSQL store tell each other: the feed of changes
(LISTEN on `CHANNEL`) and who is connected to each game (``ludogame_presence``)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from LudoGame.web.database.base import PRESENCE_CHANGED, Row, StorageError

T = TypeVar("T")

#: The channel every change is announced on (payload ``ID:VERSION``, version -1: deleted,
#: -2: who is connected to it changed; an update's is ``ID:VERSION:FLAGS:KIND:RECORD``, the
#: row itself, when its record is short enough for a notification).
CHANNEL = "ludogame_games"
#: The longest record sent in an update's notification (PostgreSQL's limit is 8,000 bytes);
#: a longer one is read from the table by the processes that need it.
NOTE_RECORD = 7_500


class PostgresFeed:
    """The part of `PostgresStorage` that shares what happens between processes: its feed
    of changes and its presence rows (a row per game, seat and process, kept alive by its
    process (`refresh_present`) and ignored once it expires: its process stopped)."""

    _pg: Any
    url: str
    where: str
    connect_timeout: int

    def _run(self, fn: Callable[[Any], T], what: str = "use", *, one: bool = False) -> T:
        raise NotImplementedError

    @staticmethod
    def _notify(conn: Any, ident: str, version: int) -> None:
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{ident}:{version}"))

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
            raise StorageError(f"cannot listen to {self.where}: {first_line(e)}") from e
        try:
            await conn.execute(f"LISTEN {CHANNEL}")
            yield "", 0, None
            async for payload in _payloads(conn):
                found = parse_note(payload)
                if found is not None:
                    yield found
        except self._pg.Error as e:
            raise StorageError(f"lost the store {self.where}: {first_line(e)}") from e
        finally:
            await conn.close()

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


async def _payloads(conn: Any) -> AsyncIterator[str]:
    """The payloads of the notifications that `conn` (an asynchronous psycopg connection
    that only listens) receives, as they come: read from its socket whenever the event loop
    finds it readable, the socket watched all along (psycopg's `notifies` watches it anew
    for every wait, and goes through its generators for each notification). A lost
    connection raises psycopg's `OperationalError`."""
    loop = asyncio.get_running_loop()
    pgconn = conn.pgconn
    got: list[str] = [n.payload for n in (conn._notifies_backlog or ())]  # (read already)
    failed: list[BaseException] = []
    woken: list[asyncio.Future[None]] = []

    def readable() -> None:
        try:
            pgconn.consume_input()
            while (note := pgconn.notifies()) is not None:
                got.append(note.extra.decode("utf-8", "replace"))
        except Exception as e:  # the connection is lost
            failed.append(e)
        if woken and not woken[0].done():
            woken[0].set_result(None)

    fd = pgconn.socket
    readable()  # (what libpq read with the LISTEN's answer)
    loop.add_reader(fd, readable)
    try:
        while True:
            while not got and not failed:
                woken[:] = [loop.create_future()]
                await woken[0]
            notes, got[:] = list(got), []
            for payload in notes:
                yield payload
            if failed:
                raise failed[0]
    finally:
        loop.remove_reader(fd)


def note_of(row: Row) -> str:
    """The notification of an update: ``ID:VERSION``, with the row itself if it fits."""
    head = f"{row.id}:{row.version}"
    if len(row.record) + len(row.kind) + len(head) > NOTE_RECORD or not row.record.isascii():
        return head
    return f"{head}:{int(row.over)}{int(row.active)}:{row.kind}:{row.record}"


def parse_note(payload: str) -> tuple[str, int, Row | None] | None:
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


def first_line(e: BaseException) -> str:
    """The first line of an error's text (its type's name if it has none)."""
    return (str(e).strip().splitlines() or [type(e).__name__])[0]
