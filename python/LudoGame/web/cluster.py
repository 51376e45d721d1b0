"""The processes sharing a database (`Cluster`): this process learns the others' changes
(and sends them to its event streams) and takes up the bots of games whose process
stopped."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import TYPE_CHECKING

from LudoGame.web.database import PRESENCE_CHANGED, Row
from LudoGame.web.errors import ApiError

if TYPE_CHECKING:
    from LudoGame.web.games import Games

log = logging.getLogger(__name__)

#: How often a process on a shared store looks for bot games nobody plays (their process
#: stopped), in seconds; one unchanged for longer than this past its pace is taken up.
TAKE_UP = 5.0


class Cluster:
    """What other processes sharing the store do, as this process sees it."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self.storage = games.storage

    async def follow(self) -> None:
        """Send the changes other processes make to this process's event streams (a shared
        store), for ever: after a lost feed, again once the store is back."""
        while True:
            try:
                async for ident, version, row in self.storage.notes():
                    if not ident:  # (re)connected: catch up on every game being watched
                        for watched in list(self.games.hub.feeds):
                            await self._noticed(watched, None)
                        await self.games.presence.look(list(self.games.hub.feeds))
                    elif version == PRESENCE_CHANGED:
                        self.games.presence.to_look.add(ident)
                        if (
                            self.games.presence.looking is None
                            or self.games.presence.looking.done()
                        ):
                            self.games.presence.looking = self.games.spawn(
                                self.games.presence._look_changed()
                            )
                    else:
                        await self._noticed(ident, version, row)
            except Exception:  # the store is lost (or a change could not be read): again
                log.warning("lost the store's feed of changes; listening again", exc_info=True)
            await asyncio.sleep(0.5)

    async def take_up(self, every: float = TAKE_UP) -> None:
        """On a shared store, for ever: play the bots of the games whose bots are due and
        have not stepped for `every` seconds past their pace (the process that played them
        stopped). If two processes take one up, the database lets one step of each version
        through and the other process leaves the game to the first."""
        while True:
            await asyncio.sleep(every)
            try:
                rows = await self.games.cache.call(self.storage.active)
                now = time.time()
                for row in rows:
                    task = self.games.bots.drivers.get(row.id)
                    if row.kind not in self.games.kinds or (task is not None and not task.done()):
                        continue
                    record = json.loads(row.record)
                    paced = row.updated + (record.get("pace") or 0.0)
                    soonest = min(paced, record.get("deadline") or now)
                    if now < soonest + every:
                        continue
                    s = self.games.cache.sessions.get(row.id)
                    if s is not None and s.lock.locked():
                        continue
                    if s is None:
                        s = self.games.cache.sessions[row.id] = self.games.cache.make(row)
                    elif s.version < row.version:
                        s = self.games.cache.replace(s, row, remote=True)
                    if s is None or s.version != row.version:
                        continue
                    due = s.due_at(row.updated)
                    if due is not None and now >= due + every:
                        s.remote = False
                        self.games.bots.drive(s)
            except ApiError as e:
                log.warning("could not look for bot games to take up: %s", e.message)

    async def _noticed(self, ident: str, version: int | None, row: Row | None = None) -> None:
        """Another process changed (`version`, -1: deleted; None: perhaps) the game `ident`
        (`row`: as its notification carried it): load it (unless `row`) if this process
        holds or watches it, and send the change."""
        if version is not None and version < 0:
            self.games.gone(ident)
            return
        s = self.games.cache.sessions.get(ident)
        if s is None and ident not in self.games.hub.feeds:
            return
        if s is not None and version is not None and s.version >= version:
            return  # this process's own change, or an older one
        noted = row
        try:
            while True:
                # the row the notification carried (a committed version), else the stored one
                row = (
                    noted
                    if noted is not None
                    else await self.games.cache.call(self.storage.load, ident)
                )
                s = self.games.cache.sessions.get(ident)
                if s is not None and s.lock.locked():
                    async with s.lock:  # a change is being made here: load again after it
                        pass
                    noted = None
                    continue
                if row is None:
                    self.games.gone(ident)
                elif row.kind not in self.games.kinds:
                    pass
                elif s is None:
                    if ident in self.games.hub.feeds:
                        new = self.games.cache.sessions[ident] = self.games.cache.make(row)
                        new.remote = True
                        self.games.hub.send(new)
                elif row.version > s.version:
                    self.games.cache.replace(s, row, remote=True)
                return
        except ApiError as e:
            log.warning(
                "could not read game %s changed by another process: %s", ident[:12], e.message
            )
