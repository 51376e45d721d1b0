"""One layer for both games: the games a server holds (kept in a `Storage`, each change
committed before it is answered), their live events (Server-Sent Events), the bots the
server drives at each game's pace, and the routes every kind of game shares."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal, TypeVar
from urllib.parse import parse_qsl

from fastapi import APIRouter, Depends, Header, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel
from starlette.types import ASGIApp, Receive, Scope, Send

from LudoGame.onitama import SearchStop
from LudoGame.web.database import PRESENCE_CHANGED, Row, Storage, StorageError
from LudoGame.web.errors import ApiError, conflict, error_response, not_found
from LudoGame.web.events import (
    END,
    GONE,
    HEARTBEAT_LINE,
    Event,
    EventStream,
    Shape,
    Stream,
    presence_text,
)
from LudoGame.web.guard import charge_creation
from LudoGame.web.models import EVENTS_CONTENT, SAVE_CONTENT, errors
from LudoGame.web.store import (
    ID_PATTERN,
    REMOTE,
    Change,
    NewGame,
    RematchBody,
    Session,
    Think,
    fields_of,
    fields_query,
    new_id,
    off_loop,
)
from LudoGame.web_limits import EXPIRE_EVERY, FINISHED_DAYS, IDLE_DAYS

#: How long (seconds) a game nobody asked for, watches or plays stays loaded in memory; it
#: is read from the store again when next asked for.
IDLE = 300.0
#: How long (seconds) a process's presence rows in a shared store live unless renewed
#: (renewed every third of it): the seats of a process that stopped without saying so
#: show as gone after at most this long.
PRESENCE_TTL = 30.0
#: How many threads wait for the store at once (reads, and changes waiting for a commit).
STORE_THREADS = 32
#: The longest an events stream stays silent: a comment line is sent after this many seconds.
HEARTBEAT = 15.0
#: How many bot or AI searches run at once (the others wait their turn).
WORKERS = 2
#: How often a process on a shared store looks for bot games nobody plays (their process
#: stopped), in seconds; one unchanged for longer than this past its pace is taken up.
TAKE_UP = 5.0

S = TypeVar("S", bound=Session)


class Feed:
    """The event streams of one watched game: the streams, and the `Shape` of the last state
    they were sent (from which the next version's change is made); while the versions they
    missed (another process's changes learnt late) are read from the store, the states that
    came meanwhile (`held`)."""

    __slots__ = ("streams", "shape", "held")

    def __init__(self) -> None:
        self.streams: set[Stream] = set()
        self.shape: Shape | None = None
        self.held: list[tuple[int, dict[str, Any]]] | None = None

    def fields(self) -> frozenset[str]:
        """The large fields any of its streams asked for."""
        return frozenset().union(*(st.fields for st in self.streams))

    def push(self, item: bytes | Event) -> None:
        """Hand `item` to every stream."""
        for st in self.streams:
            st.push(item)


def unavailable(e: Exception) -> ApiError:
    """The answer while the store cannot be used: 503, nothing changed."""
    return ApiError(503, "StoreUnavailable", f"the game store cannot be used now: {e}")


class Games:
    """The games of a server: a `Storage` (the truth), the sessions made from it (a cache
    holding every game loaded), the events of each game, and the bots the server drives.

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
    ) -> None:
        if limit < 1:
            raise ValueError(f"the game limit must be 1 or more, not {limit}")
        self.storage = storage
        self.kinds = kinds
        self.limit = limit
        self.heartbeat = heartbeat
        self.workers = workers
        #: how many days finished, and unfinished unchanged, games are kept (None: for ever)
        self.finished_days = finished_days
        self.idle_days = idle_days
        self._sessions: dict[str, Session] = {}
        #: when each loaded game was last asked for (time.monotonic())
        self._used: dict[str, float] = {}
        #: the event streams of each watched game (dropped once unwatched)
        self._feeds: dict[str, Feed] = {}
        self._beating: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        #: how many event streams each seat of a game has open here (by the key given)
        self._present: dict[str, dict[str, int]] = {}
        #: a shared store: this process's name in it, the seats of each watched game
        #: connected on any process, and a lock that keeps this process's writes in order
        self.process = new_id()
        self.presence_ttl = PRESENCE_TTL
        self._everywhere: dict[str, set[str]] = {}
        #: games whose seats connected here changed, to tell the store, and games whose
        #: seats connected anywhere changed, to read from it (each done for many at once
        #: by one task at a time)
        self._to_announce: set[str] = set()
        self._to_look: set[str] = set()
        self._announcing: asyncio.Task[None] | None = None
        self._looking: asyncio.Task[None] | None = None
        self._executor = ThreadPoolExecutor(STORE_THREADS, thread_name_prefix="ludogame-store")
        #: set once `close` ran: the store's threads are gone
        self._closed = False
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self._pool: asyncio.Semaphore | None = None
        #: set once the server stops; each search being awaited: its game, its stop flag
        #: and a future that ends the wait (with the error to answer)
        self._stopping = False
        self._searches: list[tuple[str | None, SearchStop, asyncio.Future[ApiError]]] = []
        #: search threads running now (each holds its place in the pool until it ends,
        #: awaited or not), and the most that ever ran at once
        self.thinking = 0
        self.most_thinking = 0
        self._adding = asyncio.Lock()
        #: called with a game's id when it is deleted (or is being deleted here), and with
        #: None when the server stops: each frees what games hold outside the store (the
        #: Octave processes of MATLAB AIs), stopping a search in progress
        self.release_hooks: list[Callable[[str | None], None]] = []
        #: the actions of people that `ShortWay` answers, by (kind, last part of the path)
        self.actions: dict[tuple[str, str], Action] = {}

    def release(self, ident: str | None) -> None:
        """Free what the game `ident` (None: every game) holds outside the store."""
        for hook in self.release_hooks:
            hook(ident)

    # ---- the store -----------------------------------------------------------------------

    async def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            if self.storage.quick:
                return fn(*args)
            return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)
        except StorageError as e:
            raise unavailable(e) from e

    async def _off_loop(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)

    async def _update(self, row: Row, before: int) -> bool:
        """`Storage.update` awaited (503 while the store cannot be used)."""
        try:
            if self.storage.quick:
                return self.storage.update(row, before)
            return await self.storage.update_async(row, before, self._off_loop)
        except StorageError as e:
            raise unavailable(e) from e

    def _row(self, s: Session) -> Row:
        return Row(s.id, s.kind, s.version, s.is_over(), s.driven, s.record())

    def _make(self, row: Row) -> Session:
        cls = self.kinds[row.kind]
        return self._watched(cls.from_record(row.id, row.version, json.loads(row.record)))

    def _watched(self, s: Session) -> Session:
        """`s`, able to say which of its seats have a page open on its events (here, or on
        any process sharing the store)."""
        ident = s.id
        s.presence = lambda: self._connected(ident)
        self._used[ident] = time.monotonic()
        return s

    def _connected(self, ident: str) -> dict[str, bool]:
        """The seats of game `ident` with a page open on its events: here, or (a shared
        store) on another process."""
        here = {p: n > 0 for p, n in self._present.get(ident, {}).items()}
        for p in self._everywhere.get(ident, ()):
            here[p] = True
        return here

    async def count(self) -> int:
        """How many games are stored."""
        n: int = await self._call(self.storage.count)
        return n

    async def add(self, s: Session) -> None:
        """Store a new game (409 `TooManyGames` at the limit, once the expired games are
        deleted: no live game is ever dropped)."""
        async with self._adding:
            s.stamp_timer()
            stored = await self._call(self.storage.insert, self._row(s), self.limit)
            if not stored and await self.expire():
                stored = await self._call(self.storage.insert, self._row(s), self.limit)
            if not stored:
                raise conflict(
                    "TooManyGames",
                    f"this server holds {self.limit:,} games, its limit: delete finished "
                    "ones (DELETE /api/KIND/games/ID), or start it with a larger --max-games",
                )
        self._sessions[s.id] = self._watched(s)
        self.drive(s)

    async def get(self, cls: type[S], ident: str, what: str, known: int | None = None) -> S:
        """The game `ident` if it is a `cls` (loaded from the store if need be: on every
        call when other processes share the store, unless the game held here is at the
        version `known` a change is asked against: the update then checks it), or a 404."""
        if not ID_PATTERN.fullmatch(ident):  # no id of this server: the store is not asked
            raise not_found(what, ident)
        s = self._sessions.get(ident)
        if s is not None:
            self._used[ident] = time.monotonic()
        if s is None or (self.storage.shared and (known is None or s.version != known or s.stale)):
            row = await self._call(self.storage.load, ident)
            s = self._sessions.get(ident)  # loaded meanwhile by another request
            if row is None or row.kind not in self.kinds:
                if s is not None and not s.lock.locked():
                    self._gone(ident)  # deleted by another process
                raise not_found(what, ident)
            if s is None:
                s = self._sessions[ident] = self._make(row)
            elif row.version > s.version and not s.lock.locked():
                s = self._replace(s, row, remote=True)  # changed by another process
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

    @contextlib.asynccontextmanager
    async def changing(
        self, cls: type[S], ident: str, what: str, version: int | None
    ) -> AsyncIterator[S]:
        """The game `ident`, locked and at `version` (if given), for a route to change; the
        change is committed (or undone, and the error answered) when the block ends."""
        while True:
            s = await self.get(cls, ident, what, version)
            await s.lock.acquire()
            if not s.stale:
                break
            s.lock.release()
            if s.deleted:
                raise not_found(what, ident)
        try:
            s.check_version(version)
            before, record = s.version, s.record()
            try:
                yield s
            except BaseException:
                if s.version != before:  # changed, then failed: back to the last commit
                    self._replace(s, Row(s.id, s.kind, before, False, False, record))
                raise
            if s.version == before:
                return
            try:
                stored = await self._update(self._row(s), before)
            except BaseException:
                self._replace(s, Row(s.id, s.kind, before, False, False, record))
                raise
            if not stored:  # another server changed (or deleted) it first
                now = await self._call(self.storage.load, s.id)
                self._replace(s, now, remote=True)
                if now is None:
                    raise not_found(what, ident)
                raise conflict(
                    "StaleVersion", "the game was changed elsewhere: reload it and try again"
                )
            s.remote = False  # changed here: this process plays its bots
            s.settled.set()
            self.publish(s)
        finally:
            s.lock.release()

    def _replace(self, s: Session, row: Row | None, *, remote: bool = False) -> Session | None:
        """Drop the session `s` for the game as `row` holds it (None: the game is gone); the
        new session. `remote`: `row` is another process's change, sent to this process's
        event streams (its bots are left to the process that made it)."""
        s.stale = True
        s.settled.set()
        s.wake.set()
        if row is None:
            s.deleted = True
            self._sessions.pop(s.id, None)
            if remote:
                self._gone(s.id)
            return None
        new = self._sessions[s.id] = self._make(row)
        if remote:
            new.remote = True
            self._send(new)
        return new

    def _gone(self, ident: str) -> None:
        """The game `ident` was deleted (here or by another process): its searches and bots
        stop, its event streams end."""
        self._stop_searches(ident, _deleted_error(ident))
        s = self._sessions.pop(ident, None)
        if s is not None:
            s.deleted = s.stale = True
            s.settled.set()
            s.wake.set()
        task = self._drivers.pop(ident, None)
        if task is not None:
            task.cancel()
        feed = self._feeds.pop(ident, None)
        if feed is not None:
            feed.push(GONE)
        self._used.pop(ident, None)
        self.release(ident)

    async def follow(self) -> None:
        """Send the changes other processes make to this process's event streams (a shared
        store), for ever: after a lost feed, again once the store is back."""
        while True:
            try:
                async for ident, version, row in self.storage.notes():
                    if not ident:  # (re)connected: catch up on every game being watched
                        for watched in list(self._feeds):
                            await self._noticed(watched, None)
                        await self._look_present(list(self._feeds))
                    elif version == PRESENCE_CHANGED:
                        self._to_look.add(ident)
                        if self._looking is None or self._looking.done():
                            self._looking = self._spawn(self._look_changed())
                    else:
                        await self._noticed(ident, version, row)
            except Exception:  # the store is lost (or a change could not be read): again
                pass
            await asyncio.sleep(0.5)

    async def take_up(self, every: float = TAKE_UP) -> None:
        """On a shared store, for ever: play the bots of the games whose bots are due and
        have not stepped for `every` seconds past their pace (the process that played them
        stopped). If two processes take one up, the database lets one step of each version
        through and the other process leaves the game to the first."""
        while True:
            await asyncio.sleep(every)
            with contextlib.suppress(ApiError):
                rows = await self._call(self.storage.active)
                now = time.time()
                for row in rows:
                    task = self._drivers.get(row.id)
                    if row.kind not in self.kinds or (task is not None and not task.done()):
                        continue
                    record = json.loads(row.record)
                    paced = row.updated + (record.get("pace") or 0.0)
                    soonest = min(paced, record.get("deadline") or now)
                    if now < soonest + every:
                        continue
                    s = self._sessions.get(row.id)
                    if s is not None and s.lock.locked():
                        continue
                    if s is None:
                        s = self._sessions[row.id] = self._make(row)
                    elif s.version < row.version:
                        s = self._replace(s, row, remote=True)
                    if s is None or s.version != row.version:
                        continue
                    due = s.due_at(row.updated)
                    if due is not None and now >= due + every:
                        s.remote = False
                        self.drive(s)

    async def _noticed(self, ident: str, version: int | None, row: Row | None = None) -> None:
        """Another process changed (`version`, -1: deleted; None: perhaps) the game `ident`
        (`row`: as its notification carried it): load it (unless `row`) if this process
        holds or watches it, and send the change."""
        if version is not None and version < 0:
            self._gone(ident)
            return
        s = self._sessions.get(ident)
        if s is None and ident not in self._feeds:
            return
        if s is not None and version is not None and s.version >= version:
            return  # this process's own change, or an older one
        noted = row
        with contextlib.suppress(ApiError):
            while True:
                # the row the notification carried (a committed version), else the stored one
                row = noted if noted is not None else await self._call(self.storage.load, ident)
                s = self._sessions.get(ident)
                if s is not None and s.lock.locked():
                    async with s.lock:  # a change is being made here: load again after it
                        pass
                    noted = None
                    continue
                if row is None:
                    self._gone(ident)
                elif row.kind not in self.kinds:
                    pass
                elif s is None:
                    if ident in self._feeds:
                        new = self._sessions[ident] = self._make(row)
                        new.remote = True
                        self._send(new)
                elif row.version > s.version:
                    self._replace(s, row, remote=True)
                return

    async def delete(self, cls: type[Session], ident: str, what: str, key: str | None) -> None:
        """Delete a game: its searches and bots stop, its event streams end, its row is
        removed. (A search of the game is stopped first, with the key checked: the change
        it was thought for is not made, and the game's lock is free at once.)"""
        held = await self.get(cls, ident, what)
        held.check_key(None, key)
        self._stop_searches(held.id, _deleted_error(held.id))
        self.release(held.id)
        async with self.changing(cls, ident, what, None) as s:
            s.check_key(None, key)
            if not await self._call(self.storage.delete, s.id):
                raise not_found(what, ident)
            self._gone(s.id)

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
                        return await self.read(cls, s.rematch, what), False
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
            if made is not None and made.id in self._sessions:  # the old game was not changed
                with contextlib.suppress(ApiError):
                    await self._call(self.storage.delete, made.id)
                self._gone(made.id)
            raise

    async def expire(self) -> int:
        """Delete the games over and unchanged for `finished_days` days, and those not over
        and unchanged for `idle_days`; how many."""
        now = time.time()
        finished, idle = self.finished_days, self.idle_days
        gone = await self._call(
            self.storage.expire,
            None if finished is None else now - finished * 86400,
            None if idle is None else now - idle * 86400,
        )
        for ident in gone:
            self._gone(ident)
        return len(gone)

    async def sweep(self, every: float = EXPIRE_EVERY) -> None:
        """For ever: delete the expired games (`expire`) now and every `every` seconds."""
        while True:
            with contextlib.suppress(ApiError):
                await self.expire()
            await asyncio.sleep(every)

    async def resume(self) -> int:
        """After a start: load every game whose bots the server drives and drive them
        again; how many."""
        rows = await self._call(self.storage.active)
        for row in rows:
            if row.kind in self.kinds and row.id not in self._sessions:
                self._sessions[row.id] = self._make(row)
            if row.id in self._sessions:
                self.drive(self._sessions[row.id])
        return len(rows)

    async def close(self) -> None:
        """Stop every bot driver and event stream (the server is stopping); on a shared
        store, this process's seats leave."""
        self._closed = True
        self.release(None)
        self._stop_searches(None, _stopping_error())
        for task in [*self._drivers.values(), *self._tasks]:
            task.cancel()
        self._drivers.clear()
        for feed in self._feeds.values():
            feed.push(END)
        if self.storage.shared:
            with contextlib.suppress(ApiError):
                await self._call(self.storage.drop_present, self.process)
        with contextlib.suppress(Exception):
            await self.storage.aclose()
        self._executor.shutdown(wait=False)

    # ---- events --------------------------------------------------------------------------

    def publish(self, s: Session) -> None:
        """Send the committed state of `s` to its event streams and wake its bots."""
        s.wake.set()
        self.drive(s)
        self._send(s)

    def _send(self, s: Session) -> None:
        """Send the committed state of `s` to its event streams (if it has any): the change
        from the version before, made of a state whose large lists hold only the items the
        streams lack (and the last one they have); whole after an undo."""
        feed = self._feeds.get(s.id)
        if feed is None:
            return
        fields, shape = feed.fields(), feed.shape
        if feed.held is None and shape is not None and s.version == shape.version + 1:
            since = shape.since(fields)
            try:
                event = shape.diff(s.state(fields, since), s.large, since)
            except ValueError:  # a list shrank (an undo): the state whole
                state = s.state(fields)
                feed.shape = Shape.of(state, s.large)
                event = Event(s.version, "state", state)
            feed.push(event)
            return
        self._deliver(type(s), s.id, s.version, s.state(fields))

    def _deliver(
        self,
        cls: type[Session],
        ident: str,
        version: int,
        state: dict[str, Any],
        gaps: bool = True,
    ) -> None:
        """Send game `ident`'s streams the state of `version`, in order: as a change from the
        last one sent, or whole when they missed versions the store no longer has. An older
        one than the last sent is dropped; one past a gap (versions another process made
        that this one learnt of late) waits while the missed versions are read from the
        store's history (`_fill`), which then sends them and it in order (unless not
        `gaps`)."""
        feed = self._feeds.get(ident)
        if feed is None:  # nobody watches any more: nothing kept
            return
        if feed.held is not None:
            feed.held.append((version, state))
            return
        shape = feed.shape
        if shape is not None and version <= shape.version:
            return
        if gaps and shape is not None and version > shape.version + 1:
            feed.held = [(version, state)]
            self._spawn(self._fill(cls, ident, shape.version))
            return
        if shape is not None and version == shape.version + 1:
            event = shape.diff(state, cls.large)
        else:  # the streams missed versions: the state whole
            feed.shape = Shape.of(state, cls.large)
            event = Event(version, "state", state)
        feed.push(event)

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _fill(self, cls: type[Session], ident: str, after: int) -> None:
        """Send game `ident`'s streams the versions after `after` they missed, read from the
        store's history, then the states held meanwhile. What the store no longer has (or
        cannot give now) is skipped: the streams go on from the state they are given."""
        missed: list[tuple[int, dict[str, Any]]] = []
        feed = self._feeds.get(ident)
        try:
            rows = await self._call(self.storage.history, ident, after)
            held = (feed.held if feed is not None else None) or []
            upto = min((v for v, _ in held), default=after)
            fields = feed.fields() if feed is not None else frozenset()
            missed = [
                (v, self._state_of(cls, ident, v, r, fields)) for v, r in rows if after < v < upto
            ]
        except Exception:  # noqa: BLE001 (a broken store or record: skip, as before)
            missed = []
        finally:
            held = []
            if feed is not None:
                held, feed.held = feed.held or [], None
        for version, state in sorted(missed + held, key=lambda e: e[0]):
            self._deliver(cls, ident, version, state, gaps=False)

    def _state_of(
        self, cls: type[Session], ident: str, version: int, record: str, fields: frozenset[str]
    ) -> dict[str, Any]:
        """The state of a stored version of a game (its record from the store's history)."""
        s = self._watched(cls.from_record(ident, version, json.loads(record)))
        return s.state(fields)

    async def events(
        self,
        cls: type[Session],
        ident: str,
        what: str,
        fields: str | None,
        last: str | None,
        key: str | None = None,
    ) -> EventStream:
        """The game's events as a Server-Sent Events stream: the state now (or, for a client
        resuming with `last`, its Last-Event-ID, the changes it missed, from the store's
        history if it still has all of them), then the changes as they are committed;
        `key`, a seat's key (or the host's), marks its seats as connected while the stream
        is open."""
        s = await self.read(cls, ident, what)
        chosen = fields_of(fields, s.large)
        seats = s.seats_of(key)
        try:
            seen = int(last) if last is not None and last.strip() else None
        except ValueError:
            seen = None
        stream = Stream(chosen, seats)
        self._arrive(s.id, seats, +1)  # (before the first state, which shows it)
        now = s.state(chosen)
        feed = self._feeds.get(s.id)
        if feed is None:
            feed = self._feeds[s.id] = Feed()
        if feed.shape is None and feed.held is None:
            feed.shape = Shape.of(now, cls.large)
        elif feed.shape is not None:
            feed.shape.learn(now, cls.large)
        # from now on the stream is handed every change after this version
        feed.streams.add(stream)
        stream.sent = s.version
        ident = s.id
        try:
            first = await self._first(cls, s, seen, chosen, now)
        except BaseException:
            self._leave(ident, stream)
            raise
        if self._beating is None or self._beating.done():
            self._beating = asyncio.get_running_loop().create_task(self._beat())
            self._tasks.add(self._beating)
        head = f"retry: 1000\n: events of game {ident}\n\n".encode()
        return EventStream(stream, head + first, cls.large, lambda: self._leave(ident, stream))

    async def _first(
        self,
        cls: type[Session],
        s: Session,
        seen: int | None,
        fields: frozenset[str],
        now: dict[str, Any],
    ) -> bytes:
        """What a new stream of `s` is sent first: the state now (`now`) whole, nothing if
        the client has it (`seen`, its Last-Event-ID), or the changes after `seen` if the
        store still has every version from it on."""
        version = int(now["version"])
        if seen is not None and seen == version:
            return b""
        if seen is not None and 0 <= seen < version:
            with contextlib.suppress(ApiError):
                rows = await self._call(self.storage.history, s.id, seen - 1)
                rows = [(v, r) for v, r in rows if v < version]
                if [v for v, _ in rows] == list(range(seen, version)):
                    states = [self._state_of(cls, s.id, v, r, fields) for v, r in rows]
                    shape = Shape.of(states[0], cls.large)
                    out = [shape.diff(st, cls.large) for st in [*states[1:], now]]
                    return b"".join(e.text(fields, cls.large) for e in out)
        return Event(version, "state", now).text(fields, cls.large)

    def _leave(self, ident: str, stream: Stream) -> None:
        """A stream ends: it goes, and its seats (if no other stream holds them)."""
        feed = self._feeds.get(ident)
        if feed is not None:
            feed.streams.discard(stream)
            if not feed.streams:
                del self._feeds[ident]
        self._arrive(ident, stream.seats, -1)

    async def _beat(self) -> None:
        """For ever: a comment line to every stream silent for `heartbeat` seconds (checked
        every third of it)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.heartbeat / 3)
            now = loop.time()
            for feed in self._feeds.values():
                for st in feed.streams:
                    if now - st.written >= self.heartbeat and not st.pending:
                        st.push(HEARTBEAT_LINE)
                        st.written = now

    def _arrive(self, ident: str, seats: list[str], step: int) -> None:
        """A stream holding the key of `seats` opened (`step` 1) or closed (-1): when a seat
        comes or goes, every stream of the game gets a `presence` event (and, on a shared
        store, the other processes learn it)."""
        if not seats:
            return
        counts = self._present.setdefault(ident, {})
        before = self._connected(ident)
        here = {p for p, n in counts.items() if n > 0}
        for p in seats:
            counts[p] = max(0, counts.get(p, 0) + step)
        if not any(counts.values()):
            self._present.pop(ident, None)
        if (
            self.storage.shared
            and not self._closed
            and here != {p for p, n in counts.items() if n > 0}
        ):
            self._to_announce.add(ident)
            if self._announcing is None or self._announcing.done():
                self._announcing = self._spawn(self._announce())
        self._presence_event(ident, before)

    def _presence_event(self, ident: str, before: dict[str, bool]) -> None:
        """Send game `ident`'s streams a `presence` event if who is connected changed since
        `before`."""
        if {p for p, v in before.items() if v} == {
            p for p, v in self._connected(ident).items() if v
        }:
            return
        s = self._sessions.get(ident)
        feed = self._feeds.get(ident)
        if s is None or feed is None:
            return
        connected = s.common_state()["connected"]
        if feed.shape is not None:  # the streams' state shows it now
            feed.shape.small["connected"] = connected
        feed.push(presence_text(connected))

    async def _announce(self) -> None:
        """Tell the shared store which seats of the games in `_to_announce` have a page open
        here now: every game whose seats came or went meanwhile in one transaction."""
        while self._to_announce:
            idents, self._to_announce = self._to_announce, set()
            seats = {
                i: sorted(p for p, n in self._present.get(i, {}).items() if n > 0) for i in idents
            }
            with contextlib.suppress(ApiError):
                await self._call(self.storage.set_presence, self.process, seats, self.presence_ttl)

    async def _look_changed(self) -> None:
        """Read who is connected to the games in `_to_look` (another process said it
        changed): every game noted meanwhile in one query."""
        while self._to_look:
            idents, self._to_look = sorted(self._to_look), set()
            await self._look_present(idents)

    async def _look_present(self, idents: list[str] | None) -> None:
        """Read from the shared store who is connected to the games `idents` (None: to every
        game), and tell their streams what changed."""
        with contextlib.suppress(ApiError):
            found: dict[str, set[str]] = await self._call(self.storage.present, idents)
            for ident in set(found) | set(self._everywhere if idents is None else idents):
                before = self._connected(ident)
                seats = found.get(ident)
                if seats:
                    self._everywhere[ident] = seats
                else:
                    self._everywhere.pop(ident, None)
                self._presence_event(ident, before)

    async def keep_present(self) -> None:
        """On a shared store, for ever: renew this process's presence rows, and read every
        process's (the seats of a process that stopped expire)."""
        while True:
            await asyncio.sleep(self.presence_ttl / 3)
            with contextlib.suppress(ApiError):
                await self._call(self.storage.refresh_present, self.process, self.presence_ttl)
            await self._look_present(None)

    async def forget_idle(self, idle: float = IDLE) -> int:
        """Drop from memory the games nobody asked for, watched or played for `idle`
        seconds (they stay in the store, and are read from it when next asked for); how
        many."""
        cutoff = time.monotonic() - idle
        dropped = 0
        for ident, s in list(self._sessions.items()):
            task = self._drivers.get(ident)
            if (
                self._used.get(ident, 0.0) > cutoff
                or ident in self._feeds
                or s.lock.locked()
                or not s.settled.is_set()
                or (task is not None and not task.done())
            ):
                continue
            del self._sessions[ident]
            self._used.pop(ident, None)
            self._drivers.pop(ident, None)
            dropped += 1
        return dropped

    async def tidy(self, idle: float = IDLE) -> None:
        """For ever: drop idle games from memory (`forget_idle`) every `idle` / 4 seconds."""
        while True:
            await asyncio.sleep(idle / 4)
            await self.forget_idle(idle)

    # ---- the server's bots ---------------------------------------------------------------

    def thinker(self, ident: str) -> Think:
        """`think` for the searches of game `ident` (stopped when it is deleted)."""
        return functools.partial(self.think, game=ident)

    async def think(
        self, fn: Callable[..., Any], *args: Any, game: str | None = None, stop: bool = False
    ) -> Any:
        """`fn(*args)` on a thread of its own (``ludogame-think``), at most `workers` at
        once: a search holds its place in the pool until its thread ends, so that no more
        threads than `workers` ever think. With `stop`, `fn` gets a `SearchStop` (keyword
        ``stop``) that is requested when the game `game` is deleted or the server stops:
        the search then ends within moments. The wait is then answered at once: 404 (the
        game is deleted) or 503 (the server is stopping), and the result dropped."""
        if self._pool is None:
            self._pool = asyncio.Semaphore(self.workers)
        pool = self._pool
        if self._stopping:
            raise _stopping_error()
        await pool.acquire()
        loop = asyncio.get_running_loop()
        flag = SearchStop()
        waiting: asyncio.Future[ApiError] = loop.create_future()
        entry = (game, flag, waiting)
        self._searches.append(entry)
        self.thinking += 1
        self.most_thinking = max(self.most_thinking, self.thinking)

        def ended() -> None:  # the thread is done: its place in the pool is free
            self.thinking -= 1
            pool.release()

        call = functools.partial(fn, *args, stop=flag) if stop else functools.partial(fn, *args)
        search = asyncio.ensure_future(off_loop(call, ended=ended))
        try:
            if self._stopping:
                _end_search(entry, _stopping_error())
            await asyncio.wait({search, waiting}, return_when=asyncio.FIRST_COMPLETED)
            if waiting.done():
                raise waiting.result()
            return search.result()
        finally:
            self._searches.remove(entry)
            search.cancel()
            waiting.cancel()

    def _stop_searches(self, ident: str | None, error: ApiError) -> None:
        """Stop the searches of game `ident` (None: of every game); their waits answer
        `error`."""
        for entry in self._searches:
            if ident is None or entry[0] == ident:
                _end_search(entry, error)

    def stop(self) -> None:
        """The server starts stopping: searches stop and their waits answer 503 (nothing
        changed), and event streams end (a browser reconnects to the server once it is
        back), so that no request is left for the server to cancel."""
        self._stopping = True
        self.release(None)
        self._stop_searches(None, _stopping_error())
        for feed in self._feeds.values():
            feed.push(END)

    def drive(self, s: Session) -> None:
        """Make sure the server plays the bots of `s` if it should (a pace, a bot's seat,
        not over)."""
        if not s.driven or s.stale:
            return
        task = self._drivers.get(s.id)
        if task is not None and not task.done():
            return
        self._drivers[s.id] = asyncio.get_running_loop().create_task(self._drive(s.id))

    async def _drive(self, ident: str) -> None:
        """Play the bots of game `ident` at its pace until it is over, deleted, or waits for
        a person (a change wakes it again)."""
        while True:
            s = self._sessions.get(ident)
            if s is None or s.deleted or s.remote or not s.driven:
                return  # (remote: its bots are played by the process that changed it)
            s.wake.clear()
            due = s.due_at(time.time())
            if due is None:  # a person's turn (without a turn timer)
                await s.wake.wait()
                continue
            if s.seat_kinds().get(s.seat_to_act() or "") == s.machine:
                await asyncio.sleep(s.pace or 0)
            else:  # a remote seat's turn: its timer runs out, unless a change comes first
                try:
                    await asyncio.wait_for(s.wake.wait(), max(0.0, due - time.time()))
                    continue
                except TimeoutError:
                    pass
            cls = type(s)
            try:
                async with self.changing(cls, ident, "game", None) as now:
                    seat = now.seat_to_act()
                    kind = None if seat is None else now.seat_kinds()[seat]
                    if kind == now.machine and now.pace is not None:
                        await now.machine_step(self.thinker(ident))
                    elif now.timer_due():
                        await now.timer_step(self.thinker(ident))
            except ApiError as e:
                if e.status == 404:
                    return
                if e.status == 409:
                    continue  # another process changed it first
                await asyncio.sleep(1.0)  # the store is unreachable: try again later
            if s.pace == 0:
                await asyncio.sleep(0)  # let others run between the steps of a fast game


#: A person's action a `ShortWay` may answer: its body's model, and its route's function
#: (called with ``game_id``, ``body``, ``fields`` and ``x_seat_key``).
Action = tuple[type[BaseModel], Callable[..., Awaitable[Response]]]


class ShortWay:
    """ASGI middleware (inside the Host, Origin and body-size checks), the short way in for
    what a game's players send all the time: a plain event stream request (``GET
    /api/KIND/games/ID/events``) is answered by `Games.events`, and a plain action (``POST
    /api/KIND/games/ID/ACTION`` of `Games.actions`: a JSON body its model accepts) by its
    route's own function, without FastAPI's routing and request machinery (which an open
    stream would hold for hours). A request is plain when ``?fields=``, ``?seat_key=``,
    ``Last-Event-ID`` and ``X-Seat-Key`` come at most once and nothing else is asked.
    Anything else, and a stream `Games.events` refuses or a body its model refuses, goes
    on to the app: its route (the one the API documents) answers it, saying why; an
    action refused is answered here, in the one error shape."""

    PATH = re.compile(r"/api/([a-z]+)/games/([^/]+)/([a-z]+)")

    def __init__(self, app: ASGIApp, games: Games) -> None:
        self.app = app
        self.games = games

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = self.PATH.fullmatch(scope["path"]) if scope["type"] == "http" else None
        if found is not None:
            kind, ident, what = found.groups()
            method = scope["method"]
            if method == "GET" and what == "events":
                if await self._events(kind, ident, scope, receive, send):
                    return
            elif method == "POST" and (kind, what) in self.games.actions:
                action = self.games.actions[kind, what]
                rest = await self._act(action, ident, scope, receive, send)
                if rest is None:
                    return
                receive = rest
        await self.app(scope, receive, send)

    async def _events(
        self, kind: str, ident: str, scope: Scope, receive: Receive, send: Send
    ) -> bool:
        cls = self.games.kinds.get(kind)
        query = _plain(scope, {"fields", "seat_key"}, {b"last-event-id"})
        if cls is None or query is None:
            return False
        last = query.get("last-event-id")
        try:
            stream = await self.games.events(
                cls, ident, f"{kind} game", query.get("fields"), last, query.get("seat_key")
            )
        except ApiError:
            return False  # the route answers it (a 4xx or 503), saying why
        await stream(scope, receive, send)
        return True

    async def _act(
        self, action: Action, ident: str, scope: Scope, receive: Receive, send: Send
    ) -> Receive | None:
        """Answer the action if it is plain (None); else the `receive` the app reads its
        body from."""
        query = _plain(scope, {"fields"}, {b"x-seat-key", b"content-type"})
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return receive  # (the client went: the app sees it)
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        raw = b"".join(chunks)
        sent = False

        async def replay() -> Any:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": raw, "more_body": False}
            return await receive()

        if query is None or query.get("content-type") != "application/json" or not raw:
            return replay
        model, route = action
        try:
            body = model.model_validate(json.loads(raw))
        except (ValueError, RecursionError):  # not JSON, or not the body: the route says why
            return replay
        try:
            response = await route(
                game_id=ident,
                body=body,
                fields=query.get("fields"),
                x_seat_key=query.get("x-seat-key"),
            )
        except ApiError as e:
            response = error_response(e.status, e.kind, e.message)
            response.headers.update(e.headers)
        await response(scope, replay, send)
        return None


def _plain(scope: Scope, params: set[str], headers: set[bytes]) -> dict[str, str] | None:
    """The query parameters (of `params`) and headers (of `headers`, by their lower-case
    names) of a request that has each at most once and no other query parameter; None for
    any other request."""
    try:
        query = parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True)
    except ValueError:
        return None
    out = dict(query)
    if len(out) != len(query) or not set(out) <= params:
        return None
    for name, value in scope["headers"]:
        if name in headers:
            key = name.decode("latin-1")
            if key in out:
                return None
            out[key] = value.decode("latin-1")
    return out


def _stopping_error() -> ApiError:
    return ApiError(503, "ServerStopping", "the server is stopping: try again once it is back")


def _deleted_error(ident: str) -> ApiError:
    return ApiError(404, "NotFound", f"the game {ident[:12]}... was deleted while it thought")


def _end_search(
    entry: tuple[str | None, SearchStop, asyncio.Future[ApiError]], error: ApiError
) -> None:
    """Stop a search (its flag) and end its wait with `error` (unless it ended already)."""
    _, flag, waiting = entry
    flag.request()
    if not waiting.done():
        waiting.set_result(error)


def answer(s: Session, fields: str | None, status: int = 200) -> JSONResponse:
    """The game's state as an answer, with the large fields `?fields=` asks for."""
    return JSONResponse(s.state(fields_of(fields, s.large)), status_code=status)


def created(
    request: Request, s: Session, fields: str | None, base: str | None = None
) -> JSONResponse:
    """The answer to a new game: its state, the key of each remote seat and its invite
    link, and the host's key (the only time a key is shown)."""
    out = s.state(fields_of(fields, s.large))
    out["seat_keys"] = dict(s.issued)
    out["links"] = s.links(base or str(request.base_url))
    out["host_key"] = s.issued_host
    s.issued, s.issued_host = {}, ""  # shown once: from now on only their digests are held
    return JSONResponse(out, status_code=201)


async def start(
    request: Request, games: Games, session: Session, body: NewGame, fields: str | None
) -> JSONResponse:
    """Open a new game of either kind: a key for each remote seat, the pace and turn timer
    the request asked for, the game stored, and the answer `created` gives."""
    session.issue_keys([p for p, k in session.seat_kinds().items() if k == REMOTE])
    session.pace = body.pace
    session.set_timer(body.turn_timer)
    await games.add(session)
    return created(request, session, fields, request.app.state.public_url)


SeatKey = Header(default=None, alias="X-Seat-Key", description="the key of the seat acted for")


def shared_routes(
    api: APIRouter,
    games: Games,
    cls: type[Session],
    what: str,
    machine_path: str,
    state: type[BaseModel],
) -> None:
    """The routes every kind of game has: its state (answered as the model `state`),
    events, a machine step, undo, save and delete."""
    acting = errors(403, 404, 409)
    Fields = fields_query(cls.large)  # noqa: N806 (a parameter's default, as FastAPI's Query)

    @api.get(
        "/games/{game_id}", name=f"{cls.kind}_state", response_model=state, responses=errors(404)
    )
    async def get(game_id: str, fields: str | None = Fields) -> JSONResponse:
        """The game's state (read-only: anyone with its id may watch; keys are never
        shown)."""
        return answer(await games.read(cls, game_id, what), fields)

    @api.get(
        "/games/{game_id}/events",
        name=f"{cls.kind}_events",
        response_class=StreamingResponse,
        responses={200: {"content": EVENTS_CONTENT}, **errors(404)},
    )
    async def events(
        game_id: str,
        fields: str | None = Fields,
        last_event_id: str | None = Header(default=None, alias="Last-Event-ID"),
        seat_key: str | None = None,
    ) -> Response:
        """The game's changes as Server-Sent Events: the state now first (a `state` event:
        `id:` the version, `data:` the state with the `?fields=` asked for), then a `change`
        event per version, carrying what changed (fields set whole, lists appended to, texts
        edited), and a comment after 15-20 s of silence; `Last-Event-ID` resumes with the
        missed changes. `?seat_key=` (a seat's key, or the host's) shows its seats as
        connected while the stream is open: a `presence` event tells every stream when a
        seat comes or goes."""
        return await games.events(cls, game_id, what, fields, last_event_id, seat_key)

    @api.post(
        f"/games/{{game_id}}/{machine_path}",
        name=f"{cls.kind}_{machine_path}",
        response_model=state,
        responses=acting,
    )
    async def machine(
        game_id: str,
        body: Change | None = None,
        fields: str | None = Fields,
        x_seat_key: str | None = SeatKey,
    ) -> Any:
        """The bot or AI whose turn it is takes one step, thought out on a worker thread on
        a copy of the game, so the server goes on answering (an online game: with the
        host's key)."""
        chosen = fields_of(fields, cls.large)
        async with games.changing(cls, game_id, what, body.version if body else None) as s:
            seat = s.seat_to_act()
            s.check_key(None if seat is None else seat, x_seat_key)
            await s.machine_step(games.thinker(s.id))
            return JSONResponse(s.state(chosen))

    @api.post(
        "/games/{game_id}/undo", name=f"{cls.kind}_undo", response_model=state, responses=acting
    )
    async def undo(
        game_id: str,
        body: Change | None = None,
        fields: str | None = Fields,
        x_seat_key: str | None = SeatKey,
    ) -> Any:
        """Take back the last decision of a person, with every machine step after it (an
        online game: only that person may)."""
        chosen = fields_of(fields, cls.large)
        async with games.changing(cls, game_id, what, body.version if body else None) as s:
            # a stranger learns nothing of the game's history: refused before anything is said
            s.check_player(x_seat_key, "take a move back")
            s.check_key(s.undo_seat(), x_seat_key)
            s.take_back()
            return JSONResponse(s.state(chosen))

    @api.post(
        "/games/{game_id}/rematch",
        name=f"{cls.kind}_rematch",
        status_code=201,
        response_model=state,
        responses={
            200: {"model": state, "description": "the rematch asked for before"},
            **acting,
            **errors(429),
        },
        dependencies=[Depends(charge_creation)],
    )
    async def rematch(
        game_id: str,
        body: RematchBody | None = None,
        fields: str | None = Fields,
        x_seat_key: str | None = SeatKey,
    ) -> JSONResponse:
        """A rematch of the finished game: a new game with the same seats (the same keys
        and invite links act in it), a new seed unless `seed` is given; the old game's
        state names it (`rematch`). Only a player (a seat's key) or whoever started the game
        may ask; asked again, the same rematch (200)."""
        fields_of(fields, cls.large)
        seed = body.seed if body is not None else None
        new, fresh = await games.rematch(cls, game_id, what, x_seat_key, seed)
        return answer(new, fields, 201 if fresh else 200)

    @api.get(
        "/games/{game_id}/save",
        name=f"{cls.kind}_save",
        response_class=Response,
        responses={200: {"content": SAVE_CONTENT}, **errors(404)},
    )
    async def save(game_id: str, format: Literal["json", "notation"] = "json") -> Response:
        """The game as a file: its JSON (the whole game) or the position's notation."""
        return (await games.read(cls, game_id, what)).download(format)

    @api.delete(
        "/games/{game_id}",
        status_code=204,
        name=f"{cls.kind}_delete",
        response_class=Response,
        responses=errors(403, 404),
    )
    async def delete(game_id: str, x_seat_key: str | None = SeatKey) -> Response:
        """Delete the game (an online game: with the host's key): its bots stop and its
        event streams end."""
        await games.delete(cls, game_id, what, x_seat_key)
        return Response(status_code=204)
