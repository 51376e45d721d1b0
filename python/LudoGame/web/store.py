"""The server's memory: games and replays under unguessable ids, the least recently used
evicted past a limit, each with its own lock so that requests for one are serialised."""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, ClassVar, Literal, Protocol, TypeVar

from fastapi import Response
from pydantic import BaseModel, ConfigDict, Field

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


class Change(BaseModel):
    """The body of a change (a roll, move, ply, bot or AI step, undo): optionally the
    version it was made against (see `Held.check_version`)."""

    model_config = ConfigDict(extra="forbid")

    version: int | None = None


class NewGame(BaseModel):
    """What both games' new-game bodies may carry instead of a new game: a position's
    notation, or a saved game's JSON (the key ``json``)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    position: str | None = None
    saved: str | None = Field(default=None, alias="json")


class SavedGame(Protocol):
    """What a session needs of an engine's game: take back, save and write the position."""

    def undo(self) -> object: ...
    def to_json(self) -> str: ...
    def to_notation(self) -> str: ...


class Session(Held):
    """A game held by the server: the engine's game and who made each entry of its history
    ("human", the `machine` of the subclass, or "loaded" for a saved game's entries), so
    that undo goes back to a person's last decision."""

    #: The game's name in the API and in file names.
    kind: ClassVar[str]
    #: Who plays for the machine: "bot" (Ludo) or "ai" (Onitama).
    machine: ClassVar[str]

    def __init__(self, game: SavedGame, entries: int) -> None:
        super().__init__()
        self.game = game
        self.actors: list[str] = ["loaded"] * entries

    def can_undo(self) -> bool:
        """Is there an entry of a person (or of the loaded game) to take back?"""
        return any(a != self.machine for a in self.actors)

    def changed(self, actor: str) -> None:
        """Record one new entry made by `actor` and bump the version."""
        self.actors.append(actor)
        self.version += 1

    def take_back(self) -> None:
        """Undo the last entry of a person and every machine entry after it (409 if there
        is none)."""
        if not self.can_undo():
            raise conflict("NothingToUndo", "there is nothing of a person's to take back")
        while self.actors:
            actor = self.actors.pop()
            self.game.undo()
            if actor != self.machine:
                break
        self.version += 1

    def download(self, format: Literal["json", "notation"]) -> Response:
        """The game as a file: its JSON (the whole game) or the position's notation."""
        if format == "json":
            text, media, ext = self.game.to_json(), "application/json", "json"
        else:
            text, media, ext = self.game.to_notation() + "\n", "text/plain", "txt"
        name = f"{self.kind}-{self.id[:8]}.{ext}"
        return Response(
            text,
            media_type=media,
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )


def sent(fields: str | None, name: str) -> bool:
    """Is the large state field `name` (``history``, ``svg``) to be sent, by a request's
    ``?fields=`` (a comma-separated list; without it, every field is sent)?"""
    return fields is None or name in {f.strip() for f in fields.split(",")}


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
