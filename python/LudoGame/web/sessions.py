"""The games held in memory (`SessionCache`): each loaded from the database when asked
for, kept while it is used, dropped once idle (it stays in the database). On a shared
database every access reads the stored version, so that another process's change is seen."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from LudoGame.web.database import Row, StorageError
from LudoGame.web.errors import ApiError, not_found
from LudoGame.web.keys import ID_PATTERN
from LudoGame.web.session import Session

if TYPE_CHECKING:
    from LudoGame.web.games import Games

#: How long (seconds) a game nobody asked for, watches or plays stays loaded in memory; it
#: is read from the store again when next asked for.
IDLE = 300.0
#: How many threads wait for the store at once (reads, and changes waiting for a commit).
STORE_THREADS = 32

S = TypeVar("S", bound=Session)


def unavailable(e: Exception) -> ApiError:
    """The answer while the store cannot be used: 503, nothing changed."""
    return ApiError(503, "StoreUnavailable", f"the game store cannot be used now: {e}")


class SessionCache:
    """The sessions made from the database's rows, by game id, and the threads that wait
    for the database (`call`: 503 while it cannot be used)."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self.storage = games.storage
        self.sessions: dict[str, Session] = {}
        #: when each loaded game was last asked for (time.monotonic())
        self.used: dict[str, float] = {}
        self.executor = ThreadPoolExecutor(STORE_THREADS, thread_name_prefix="ludogame-store")

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)`, a call of the store, awaited (on a thread unless the store is
        `quick`); 503 while the store cannot be used."""
        try:
            if self.storage.quick:
                return fn(*args)
            return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)
        except StorageError as e:
            raise unavailable(e) from e

    async def off_loop(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` awaited on one of the store's threads."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    async def update(self, row: Row, before: int) -> bool:
        """`Storage.update` awaited (503 while the store cannot be used)."""
        try:
            if self.storage.quick:
                return self.storage.update(row, before)
            return await self.storage.update_async(row, before, self.off_loop)
        except StorageError as e:
            raise unavailable(e) from e

    def row(self, s: Session) -> Row:
        """The database row of `s` now."""
        return Row(s.id, s.kind, s.version, s.is_over(), s.driven, s.record())

    def make(self, row: Row) -> Session:
        """The session a database row holds."""
        cls = self.games.kinds[row.kind]
        return self.watched(
            cls.from_record(row.id, row.version, json.loads(row.record), self.games.config)
        )

    def watched(self, s: Session) -> Session:
        """`s`, able to say which of its seats have a page open on its events (here, or on
        any process sharing the store)."""
        ident = s.id
        s.presence = lambda: self.games.presence.connected(ident)
        self.used[ident] = time.monotonic()
        return s

    async def count(self) -> int:
        """How many games are stored."""
        n: int = await self.call(self.storage.count)
        return n

    async def get(self, cls: type[S], ident: str, what: str, known: int | None = None) -> S:
        """The game `ident` if it is a `cls` (loaded from the store if need be: on every
        call when other processes share the store, unless the game held here is at the
        version `known` a change is asked against: the update then checks it), or a 404."""
        if not ID_PATTERN.fullmatch(ident):  # no id of this server: the store is not asked
            raise not_found(what, ident)
        s = self.sessions.get(ident)
        if s is not None:
            self.used[ident] = time.monotonic()
        if s is None or (self.storage.shared and (known is None or s.version != known or s.stale)):
            row = await self.call(self.storage.load, ident)
            s = self.sessions.get(ident)  # loaded meanwhile by another request
            if row is None or row.kind not in self.games.kinds:
                if s is not None and not s.lock.locked():
                    self.games.gone(ident)  # deleted by another process
                raise not_found(what, ident)
            if s is None:
                s = self.sessions[ident] = self.make(row)
            elif row.version > s.version and not s.lock.locked():
                s = self.replace(s, row, remote=True)  # changed by another process
        if not isinstance(s, cls):
            raise not_found(what, ident)
        return s

    async def read(self, cls: type[S], ident: str, what: str) -> S:
        """The game as committed (waiting out a change that is being committed)."""
        s = await self.get(cls, ident, what)
        while not s.settled.is_set():
            await s.settled.wait()
            s = await self.get(cls, ident, what)
        return s

    def replace(self, s: Session, row: Row | None, *, remote: bool = False) -> Session | None:
        """Drop the session `s` for the game as `row` holds it (None: the game is gone); the
        new session. `remote`: `row` is another process's change, sent to this process's
        event streams (its bots are left to the process that made it)."""
        s.stale = True
        s.settled.set()
        s.wake.set()
        if row is None:
            s.deleted = True
            self.sessions.pop(s.id, None)
            if remote:
                self.games.gone(s.id)
            return None
        new = self.sessions[s.id] = self.make(row)
        if remote:
            new.remote = True
            self.games.hub.send(new)
        return new

    async def forget_idle(self, idle: float = IDLE) -> int:
        """Drop from memory the games nobody asked for, watched or played for `idle`
        seconds (they stay in the store, and are read from it when next asked for); how
        many."""
        cutoff = time.monotonic() - idle
        dropped = 0
        for ident, s in list(self.sessions.items()):
            task = self.games.bots.drivers.get(ident)
            if (
                self.used.get(ident, 0.0) > cutoff
                or ident in self.games.hub.feeds
                or s.lock.locked()
                or not s.settled.is_set()
                or (task is not None and not task.done())
            ):
                continue
            del self.sessions[ident]
            self.used.pop(ident, None)
            self.games.bots.drivers.pop(ident, None)
            dropped += 1
        return dropped

    async def tidy(self, idle: float = IDLE) -> None:
        """For ever: drop idle games from memory (`forget_idle`) every `idle` / 4 seconds."""
        while True:
            await asyncio.sleep(idle / 4)
            await self.forget_idle(idle)
