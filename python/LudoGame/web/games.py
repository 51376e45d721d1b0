"""The games of a server: where a change to a game goes. `Games` ties the parts together
and makes every change (`changing`): the game is taken from the session cache
(`sessions.SessionCache`), locked, changed by a route, committed to the database
(`database`), and only then answered and sent to its event streams (`hub.EventHub`), which
also wakes its bots (`bots.Bots`). Who has a page open on a game is `presence.Presence`'s;
what other processes sharing the database change is `cluster.Cluster`'s."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from LudoGame.web.bots import WORKERS, Bots, deleted_error, stopping_error
from LudoGame.web.cluster import TAKE_UP, Cluster
from LudoGame.web.config import WebConfig
from LudoGame.web.database import Row, Storage
from LudoGame.web.errors import ApiError, conflict, not_found
from LudoGame.web.events import END, GONE
from LudoGame.web.hub import HEARTBEAT, EventHub
from LudoGame.web.presence import Presence
from LudoGame.web.session import Session
from LudoGame.web.sessions import SessionCache
from LudoGame.web_limits import EXPIRE_EVERY, FINISHED_DAYS, IDLE_DAYS, MAX_LOADED_MOVES

__all__ = ["HEARTBEAT", "TAKE_UP", "WORKERS", "Games"]

log = logging.getLogger(__name__)

S = TypeVar("S", bound=Session)


class Games:
    """The games of a server: a `Storage` (the truth), the sessions made from it (`cache`),
    the events of each game (`hub`), who is connected to it (`presence`), the bots the
    server drives (`bots`) and, on a shared store, the other processes' changes
    (`cluster`).

    Every change goes through `changing`: it takes the game's lock, checks the version and
    the seat's key, lets the route change the game, commits the new record (one
    transaction, only if the stored version is still the one changed from), and only then
    answers and sends the event. A change that cannot be committed is undone."""

    def __init__(
        self,
        storage: Storage,
        kinds: dict[str, type[Session]],
        limit: int,
        *,
        heartbeat: float = HEARTBEAT,
        workers: int = WORKERS,
        finished_days: float | None = FINISHED_DAYS,
        idle_days: float | None = IDLE_DAYS,
        config: WebConfig | None = None,
    ) -> None:
        if limit < 1:
            raise ValueError(f"the game limit must be 1 or more, not {limit}")
        self.storage = storage
        self.kinds = kinds
        self.limit = limit
        #: the app's configuration, which the sessions made here are given
        self.config = WebConfig() if config is None else config
        #: how many days finished, and unfinished unchanged, games are kept (None: for ever)
        self.finished_days = finished_days
        self.idle_days = idle_days
        self.cache = SessionCache(self)
        self.hub = EventHub(self, heartbeat)
        self.presence = Presence(self)
        self.bots = Bots(self, workers)
        self.cluster = Cluster(self)
        #: the background tasks started for the games (ended when the server stops)
        self.tasks: set[asyncio.Task[Any]] = set()
        #: set once `close` ran: the store's threads are gone
        self.closed = False
        self._adding = asyncio.Lock()
        #: called with a game's id when it is deleted (or is being deleted here), and with
        #: None when the server stops: each frees what games hold outside the store (the
        #: Octave processes of MATLAB AIs), stopping a search in progress
        self.release_hooks: list[Callable[[str | None], None]] = []
        #: the actions of people that `shortway.ShortWay` answers, by (kind, last part of
        #: the path)
        self.actions: dict[tuple[str, str], Any] = {}

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        """Run `coro` as a background task (cancelled when the server stops)."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def release(self, ident: str | None) -> None:
        """Free what the game `ident` (None: every game) holds outside the store."""
        for hook in self.release_hooks:
            hook(ident)

    def publish(self, s: Session) -> None:
        """Send the committed state of `s` to its event streams and wake its bots."""
        s.wake.set()
        self.bots.drive(s)
        self.hub.send(s)

    def stop(self) -> None:
        """The server starts stopping: searches stop and their waits answer 503 (nothing
        changed), and event streams end (a browser reconnects to the server once it is
        back), so that no request is left for the server to cancel."""
        self.bots.stopping = True
        self.release(None)
        self.bots.stop_searches(None, stopping_error())
        for feed in self.hub.feeds.values():
            feed.push(END)

    async def add(self, s: Session) -> None:
        """Store a new game (409 `TooManyGames` at the limit, once the expired games are
        deleted: no live game is ever dropped)."""
        async with self._adding:
            s.stamp_timer()
            stored = await self.cache.call(self.storage.insert, self.cache.row(s), self.limit)
            if not stored and await self.expire():
                stored = await self.cache.call(self.storage.insert, self.cache.row(s), self.limit)
            if not stored:
                raise conflict(
                    "TooManyGames",
                    f"this server holds {self.limit:,} games, its limit: delete finished "
                    "ones (DELETE /api/KIND/games/ID), or start it with a larger --max-games",
                )
        self.cache.sessions[s.id] = self.cache.watched(s)
        self.bots.drive(s)

    @contextlib.asynccontextmanager
    async def changing(
        self, cls: type[S], ident: str, what: str, version: int | None
    ) -> AsyncIterator[S]:
        """The game `ident`, locked and at `version` (if given), for a route to change; the
        change is committed (or undone, and the error answered) when the block ends."""
        while True:
            s = await self.cache.get(cls, ident, what, version)
            await s.lock.acquire()
            if not s.stale:
                break
            s.lock.release()
            if s.deleted:
                raise not_found(what, ident)
        try:
            s.check_version(version)
            before, record = s.version, s.record()

            def back() -> None:
                """The game back as last committed."""
                self.cache.replace(s, Row(s.id, s.kind, before, False, False, record))

            s.sharing = True  # the change's answer and its event show one state
            try:
                yield s
            except BaseException:
                if s.version != before:  # changed, then failed: back to the last commit
                    back()
                raise
            if s.version == before:
                return
            if s.moves_left() < 0:
                back()
                raise conflict(
                    "GameTooLong",
                    f"the game holds {MAX_LOADED_MOVES:,} moves, the most a game may: "
                    "download it, or start a new one",
                )
            try:
                stored = await self.cache.update(self.cache.row(s), before)
            except BaseException:
                back()
                raise
            if not stored:  # another server changed (or deleted) it first
                now = await self.cache.call(self.storage.load, s.id)
                self.cache.replace(s, now, remote=True)
                if now is None:
                    raise not_found(what, ident)
                raise conflict(
                    "StaleVersion", "the game was changed elsewhere: reload it and try again"
                )
            s.remote = False  # changed here: this process plays its bots
            s.settled.set()
            self.publish(s)
        finally:
            s.sharing = False
            s.forget_state()
            s.lock.release()

    def gone(self, ident: str) -> None:
        """The game `ident` was deleted (here or by another process): its searches and bots
        stop, its event streams end."""
        self.bots.stop_searches(ident, deleted_error(ident))
        s = self.cache.sessions.pop(ident, None)
        if s is not None:
            s.deleted = s.stale = True
            s.settled.set()
            s.wake.set()
        task = self.bots.drivers.pop(ident, None)
        if task is not None:
            task.cancel()
        feed = self.hub.feeds.pop(ident, None)
        if feed is not None:
            feed.push(GONE)
        self.cache.used.pop(ident, None)
        self.release(ident)

    async def delete(self, cls: type[Session], ident: str, what: str, key: str | None) -> None:
        """Delete a game: its searches and bots stop, its event streams end, its row is
        removed. (A search of the game is stopped first, with the key checked: the change
        it was thought for is not made, and the game's lock is free at once.)"""
        held = await self.cache.get(cls, ident, what)
        held.check_key(None, key)
        self.bots.stop_searches(held.id, deleted_error(held.id))
        self.release(held.id)
        async with self.changing(cls, ident, what, None) as s:
            s.check_key(None, key)
            if not await self.cache.call(self.storage.delete, s.id):
                raise not_found(what, ident)
            self.gone(s.id)

    async def rematch(
        self, cls: type[S], ident: str, what: str, key: str | None, seed: int | None
    ) -> tuple[Session, bool]:
        """The rematch of a finished game: a new game with the same seats, keys (so the
        invite links and seat keys of the old game act in it), pace and turn timer, and a
        new seed unless `seed` is given. The old game records its id (a change, so its
        event streams announce it). Asked again, the same rematch (False: not new)."""
        made: Session | None = None
        try:
            async with self.changing(cls, ident, what, None) as s:
                s.may_rematch(key)
                if s.rematch is not None:
                    with contextlib.suppress(ApiError):
                        return await self.cache.read(cls, s.rematch, what), False
                if not s.is_over():
                    raise conflict(
                        "GameNotOver", "a rematch is for a finished game: play this one out first"
                    )
                made = s.rematch_game(seed)
                made.keys = dict(s.keys)
                made.host_key = s.host_key
                made.pace = s.pace
                made.timer = None if s.timer is None else dict(s.timer)
                made.rematch_of = s.id
                await self.add(made)
                s.rematch = made.id
                s.bump()
            return made, True
        except BaseException:
            if made is not None and made.id in self.cache.sessions:  # the old game was not changed
                try:
                    await self.cache.call(self.storage.delete, made.id)
                except ApiError as e:
                    log.warning(
                        "could not delete the unfinished rematch %s: %s", made.id[:12], e.message
                    )
                self.gone(made.id)
            raise

    async def expire(self) -> int:
        """Delete the games over and unchanged for `finished_days` days, and those not over
        and unchanged for `idle_days`; how many."""
        now = time.time()
        finished, idle = self.finished_days, self.idle_days
        gone = await self.cache.call(
            self.storage.expire,
            None if finished is None else now - finished * 86400,
            None if idle is None else now - idle * 86400,
        )
        for ident in gone:
            self.gone(ident)
        return len(gone)

    async def sweep(self, every: float = EXPIRE_EVERY) -> None:
        """For ever: delete the expired games (`expire`) now and every `every` seconds."""
        while True:
            try:
                await self.expire()
            except ApiError as e:  # the store is unreachable: again next time
                log.warning("could not delete the expired games: %s", e.message)
            await asyncio.sleep(every)

    async def resume(self) -> int:
        """After a start: load every game whose bots the server drives and drive them
        again; how many."""
        rows = await self.cache.call(self.storage.active)
        for row in rows:
            if row.kind in self.kinds and row.id not in self.cache.sessions:
                self.cache.sessions[row.id] = self.cache.make(row)
            if row.id in self.cache.sessions:
                self.bots.drive(self.cache.sessions[row.id])
        return len(rows)

    async def close(self) -> None:
        """Stop every bot driver and event stream (the server is stopping); on a shared
        store, this process's seats leave."""
        self.closed = True
        self.release(None)
        self.bots.stop_searches(None, stopping_error())
        for task in [*self.bots.drivers.values(), *self.tasks]:
            task.cancel()
        self.bots.drivers.clear()
        for feed in self.hub.feeds.values():
            feed.push(END)
        if self.storage.shared:
            try:
                await self.cache.call(self.storage.drop_present, self.presence.process)
            except ApiError as e:
                log.warning("could not tell the store this process's seats left: %s", e.message)
        try:
            await self.storage.aclose()
        except Exception:
            log.exception("could not close the store %s", self.storage.where)
        self.cache.executor.shutdown(wait=False)

    async def read(self, cls: type[S], ident: str, what: str) -> S:
        """The game `ident` as committed (`SessionCache.read`)."""
        return await self.cache.read(cls, ident, what)
