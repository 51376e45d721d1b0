"""The live events of the games (`EventHub`): the Server-Sent Events streams of each
watched game, and what each is sent when a change is committed (the change from the
version before, made by `events.Shape`), read from the database's history when a stream
missed versions."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from LudoGame.web.bodies import fields_of
from LudoGame.web.errors import ApiError
from LudoGame.web.events import HEARTBEAT_LINE, Event, EventStream, Shape, Stream
from LudoGame.web.session import Session

if TYPE_CHECKING:
    from LudoGame.web.games import Games

log = logging.getLogger(__name__)

#: The longest an events stream stays silent: a comment line is sent after this many seconds.
HEARTBEAT = 15.0


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


class EventHub:
    """The event streams of every watched game (`feeds`, by game id; a game nobody watches
    has none) and the heartbeat that keeps them open."""

    def __init__(self, games: Games, heartbeat: float = HEARTBEAT) -> None:
        self.games = games
        self.storage = games.storage
        #: the longest an events stream stays silent, in seconds
        self.heartbeat = heartbeat
        #: the event streams of each watched game (dropped once unwatched)
        self.feeds: dict[str, Feed] = {}
        self._beating: asyncio.Task[None] | None = None

    def send(self, s: Session) -> None:
        """Send the committed state of `s` to its event streams (if it has any): the change
        from the version before, made of a state whose large lists hold only the items the
        streams lack (and the last one they have); whole after an undo."""
        feed = self.feeds.get(s.id)
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
        self.deliver(type(s), s.id, s.version, s.state(fields))

    def deliver(
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
        feed = self.feeds.get(ident)
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
            self.games.spawn(self._fill(cls, ident, shape.version))
            return
        if shape is not None and version == shape.version + 1:
            event = shape.diff(state, cls.large)
        else:  # the streams missed versions: the state whole
            feed.shape = Shape.of(state, cls.large)
            event = Event(version, "state", state)
        feed.push(event)

    async def _fill(self, cls: type[Session], ident: str, after: int) -> None:
        """Send game `ident`'s streams the versions after `after` they missed, read from the
        store's history, then the states held meanwhile. What the store no longer has (or
        cannot give now) is skipped: the streams go on from the state they are given."""
        missed: list[tuple[int, dict[str, Any]]] = []
        feed = self.feeds.get(ident)
        try:
            rows = await self.games.cache.call(self.storage.history, ident, after)
            held = (feed.held if feed is not None else None) or []
            upto = min((v for v, _ in held), default=after)
            fields = feed.fields() if feed is not None else frozenset()
            missed = [
                (v, self._state_of(cls, ident, v, r, fields)) for v, r in rows if after < v < upto
            ]
        except Exception:  # a broken store or record: the streams go on without them
            log.exception("could not read the missed versions of game %s", ident[:12])
            missed = []
        finally:
            held = []
            if feed is not None:
                held, feed.held = feed.held or [], None
        for version, state in sorted(missed + held, key=lambda e: e[0]):
            self.deliver(cls, ident, version, state, gaps=False)

    def _state_of(
        self, cls: type[Session], ident: str, version: int, record: str, fields: frozenset[str]
    ) -> dict[str, Any]:
        """The state of a stored version of a game (its record from the store's history)."""
        s = self.games.cache.watched(
            cls.from_record(ident, version, json.loads(record), self.games.config)
        )
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
        s = await self.games.cache.read(cls, ident, what)
        chosen = fields_of(fields, s.large)
        seats = s.seats_of(key)
        try:
            seen = int(last) if last is not None and last.strip() else None
        except ValueError:
            seen = None
        stream = Stream(chosen, seats)
        self.games.presence.arrive(s.id, seats, +1)  # (before the first state, which shows it)
        now = s.state(chosen)
        feed = self.feeds.get(s.id)
        if feed is None:
            feed = self.feeds[s.id] = Feed()
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
            self.games.tasks.add(self._beating)
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
            try:
                rows = await self.games.cache.call(self.storage.history, s.id, seen - 1)
            except ApiError as e:  # the store cannot say now: the state whole
                log.warning("could not read the history of game %s: %s", s.id[:12], e.message)
                rows = []
            rows = [(v, r) for v, r in rows if v < version]
            if rows and [v for v, _ in rows] == list(range(seen, version)):
                states = [self._state_of(cls, s.id, v, r, fields) for v, r in rows]
                shape = Shape.of(states[0], cls.large)
                out = [shape.diff(st, cls.large) for st in [*states[1:], now]]
                return b"".join(e.text(fields, cls.large) for e in out)
        return Event(version, "state", now).text(fields, cls.large)

    def _leave(self, ident: str, stream: Stream) -> None:
        """A stream ends: it goes, and its seats (if no other stream holds them)."""
        feed = self.feeds.get(ident)
        if feed is not None:
            feed.streams.discard(stream)
            if not feed.streams:
                del self.feeds[ident]
        self.games.presence.arrive(ident, stream.seats, -1)

    async def _beat(self) -> None:
        """For ever: a comment line to every stream silent for `heartbeat` seconds (checked
        every third of it)."""
        while True:
            await asyncio.sleep(self.heartbeat / 3)
            now = time.monotonic()
            for feed in self.feeds.values():
                for st in feed.streams:
                    if now - st.written >= self.heartbeat and not st.pending:
                        st.push(HEARTBEAT_LINE)
                        st.written = now
