"""Who has a page open on each game (`Presence`): the seats whose key an event stream
holds, here or (a shared database) on any process, and the `presence` event that tells
every stream of a game when a seat comes or goes."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from LudoGame.web.errors import ApiError
from LudoGame.web.events import presence_text
from LudoGame.web.keys import new_id

if TYPE_CHECKING:
    from LudoGame.web.games import Games

log = logging.getLogger(__name__)

#: How long (seconds) a process's presence rows in a shared store live unless renewed
#: (renewed every third of it): the seats of a process that stopped without saying so
#: show as gone after at most this long.
PRESENCE_TTL = 30.0


class Presence:
    """The seats connected to each game: counted here (`counts`) and, on a shared store,
    read from it for every process (`everywhere`)."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self.storage = games.storage
        #: how many event streams each seat of a game has open here (by the key given)
        self.counts: dict[str, dict[str, int]] = {}
        #: a shared store: this process's name in it, how long its rows live, and the seats
        #: of each watched game connected on any process
        self.process = new_id()
        self.ttl = PRESENCE_TTL
        self.everywhere: dict[str, set[str]] = {}
        #: games whose seats connected here changed, to tell the store, and games whose
        #: seats connected anywhere changed, to read from it (each done for many at once
        #: by one task at a time)
        self._to_announce: set[str] = set()
        self.to_look: set[str] = set()
        self._announcing: asyncio.Task[None] | None = None
        self.looking: asyncio.Task[None] | None = None

    def connected(self, ident: str) -> dict[str, bool]:
        """The seats of game `ident` with a page open on its events: here, or (a shared
        store) on another process."""
        here = {p: n > 0 for p, n in self.counts.get(ident, {}).items()}
        for p in self.everywhere.get(ident, ()):
            here[p] = True
        return here

    def arrive(self, ident: str, seats: list[str], step: int) -> None:
        """A stream holding the key of `seats` opened (`step` 1) or closed (-1): when a seat
        comes or goes, every stream of the game gets a `presence` event (and, on a shared
        store, the other processes learn it)."""
        if not seats:
            return
        counts = self.counts.setdefault(ident, {})
        before = self.connected(ident)
        here = {p for p, n in counts.items() if n > 0}
        for p in seats:
            counts[p] = max(0, counts.get(p, 0) + step)
        if not any(counts.values()):
            self.counts.pop(ident, None)
        if (
            self.storage.shared
            and not self.games.closed
            and here != {p for p, n in counts.items() if n > 0}
        ):
            self._to_announce.add(ident)
            if self._announcing is None or self._announcing.done():
                self._announcing = self.games.spawn(self._announce())
        self.tell(ident, before)

    def tell(self, ident: str, before: dict[str, bool]) -> None:
        """Send game `ident`'s streams a `presence` event if who is connected changed since
        `before`."""
        if {p for p, v in before.items() if v} == {
            p for p, v in self.connected(ident).items() if v
        }:
            return
        s = self.games.cache.sessions.get(ident)
        feed = self.games.hub.feeds.get(ident)
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
                i: sorted(p for p, n in self.counts.get(i, {}).items() if n > 0) for i in idents
            }
            try:
                await self.games.cache.call(
                    self.storage.set_presence, self.process, seats, self.ttl
                )
            except ApiError as e:
                log.warning("could not tell the store who is connected: %s", e.message)

    async def _look_changed(self) -> None:
        """Read who is connected to the games in `_to_look` (another process said it
        changed): every game noted meanwhile in one query."""
        while self.to_look:
            idents, self.to_look = sorted(self.to_look), set()
            await self.look(idents)

    async def look(self, idents: list[str] | None) -> None:
        """Read from the shared store who is connected to the games `idents` (None: to every
        game), and tell their streams what changed."""
        try:
            found: dict[str, set[str]] = await self.games.cache.call(self.storage.present, idents)
            for ident in set(found) | set(self.everywhere if idents is None else idents):
                before = self.connected(ident)
                seats = found.get(ident)
                if seats:
                    self.everywhere[ident] = seats
                else:
                    self.everywhere.pop(ident, None)
                self.tell(ident, before)
        except ApiError as e:
            log.warning("could not read who is connected from the store: %s", e.message)

    async def keep(self) -> None:
        """On a shared store, for ever: renew this process's presence rows, and read every
        process's (the seats of a process that stopped expire)."""
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self.games.cache.call(self.storage.refresh_present, self.process, self.ttl)
            except ApiError as e:
                log.warning("could not renew this process's presence in the store: %s", e.message)
            await self.look(None)
