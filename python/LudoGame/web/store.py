"""The server's memory: games and replays under unguessable ids, the least recently used
evicted past a limit, each with its own lock so that requests for one are serialised."""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from LudoGame.web.errors import conflict, not_found


class Held:
    """What the store holds (a game or a replay): an unguessable id, a lock that serialises
    the requests for it, and a version that goes up by one on every change."""

    def __init__(self) -> None:
        self.id = secrets.token_urlsafe(16)
        self.lock = asyncio.Lock()
        self.version = 0

    def check_version(self, version: int | None) -> None:
        """Refuse a change asked for against an older version (another tab moved first)."""
        if version is not None and version != self.version:
            raise conflict(
                "StaleVersion",
                f"the game has changed (version {self.version}, the request was made "
                f"against version {version}): reload it and try again",
            )


H = TypeVar("H", bound=Held)


class Store:
    """Items by id, at most `limit`; adding one past the limit evicts the least recently
    used. Only touched from the event loop (no lock of its own needed)."""

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"the store limit must be 1 or more, not {limit}")
        self.limit = limit
        self._items: OrderedDict[str, Held] = OrderedDict()
        self.evicted = 0

    def __len__(self) -> int:
        return len(self._items)

    def add(self, held: H) -> H:
        """Hold `held` (as the most recently used), evicting the oldest past the limit."""
        self._items[held.id] = held
        while len(self._items) > self.limit:
            self._items.popitem(last=False)
            self.evicted += 1
        return held

    def get(self, cls: type[H], ident: str, what: str) -> H:
        """The item `ident` if it is a `cls` (now the most recently used), or a 404 naming
        `what` it was meant to be."""
        held = self._items.get(ident)
        if not isinstance(held, cls):
            raise not_found(what, ident)
        self._items.move_to_end(ident)
        return held


T = TypeVar("T")


async def off_loop(fn: Callable[..., T], *args: Any) -> T:
    """`fn(*args)` on a thread of its own, awaited without blocking the event loop (the
    engine releases the interpreter while it thinks). The thread is a daemon: Ctrl-C stops
    the server at once even while a search runs (its result is then dropped)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if future.done():  # the request was cancelled meanwhile
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        try:
            result, error = fn(*args), None
        except BaseException as e:  # handed to the awaiting request
            result, error = None, e
        try:
            loop.call_soon_threadsafe(settle, result, error)
        except RuntimeError:  # the loop is closed: the server has stopped
            pass

    threading.Thread(target=run, name="ludogame-think", daemon=True).start()
    return await future
