"""What every database of the server shares: the interface (`Storage`), one stored game
(`Row`), the errors, and the numbers the backends agree on (the schema's version, how many
versions of a game are kept).

A game is stored as one row: its id, kind and version, whether it is over and whether the
server drives bots in it, and its record: a JSON object holding the engine's own save
(`Game.to_json()` or `Onitama.to_json()`) with the seats, seat keys, pace and who made each
entry. Every change is one transaction, committed before the server answers; a change
asked against a version that is no longer the stored one changes nothing. The same
transaction keeps the record of each of a game's last `KEPT` versions (its history), from
which a client that missed events gets them (`Storage.history`)."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from LudoGame.web.keys import key_digest

#: The schema of the SQLite file (``PRAGMA user_version``) and of the PostgreSQL tables
#: (3: records hold digests of the seat keys, not the keys; 2: a game's last versions are
#: kept in a history table; 1 had none).
SCHEMA_VERSION = 3
#: How many of a game's latest versions the store keeps (for clients that missed events).
KEPT = 16
#: Version -2 in `Storage.changes`: who is connected to a game changed (see `set_present`).
PRESENCE_CHANGED = -2


def hash_record_keys(record: str) -> str:
    """A record of schema 2 or older with its seat keys as digests (a record that is not a
    game's JSON object, or holds none, as it was)."""
    try:
        data = json.loads(record)
    except ValueError:
        return record
    if not isinstance(data, dict):
        return record
    keys, host = data.get("keys"), data.get("host_key")
    if isinstance(keys, dict):
        data["keys"] = {p: key_digest(str(k), stored=True) for p, k in keys.items()}
    if isinstance(host, str):
        data["host_key"] = key_digest(host, stored=True)
    return json.dumps(data)


class StorageError(Exception):
    """The store cannot be read or written (a full disk, a locked or broken file)."""


class StoreUrlError(ValueError):
    """A ``--store`` value this server cannot use."""


@dataclass
class Row:
    """One stored game."""

    id: str
    kind: str
    version: int
    over: bool
    #: the server drives bots in it (it has a pace and is not over)
    active: bool
    #: the game's record, a JSON object's text
    record: str
    updated: float = 0.0


class Storage(ABC):
    """The games of a server, by id. Every method is one transaction; methods may be called
    from any thread."""

    #: What the store is, in words, for the start-up line.
    where: str
    #: Other server processes may change the games too: a game is read from the store on
    #: every access, and `changes` says what the others changed.
    shared: bool = False
    #: Every call returns at once (nothing waits for a disk or a server): the server makes
    #: them on its event loop instead of handing them to a thread.
    quick: bool = False

    @abstractmethod
    def insert(self, row: Row, limit: int | None = None) -> bool:
        """Store a new game, unless the store already holds `limit` games: then False and
        nothing stored. The count and the insert are one step, also between processes
        sharing the store."""

    @abstractmethod
    def update(self, row: Row, previous: int) -> bool:
        """Store `row` over the game's row if its stored version is still `previous`;
        False (and nothing changed) if it is not, or the game is gone."""

    async def update_async(self, row: Row, previous: int, run: Callable[..., Any]) -> bool:
        """`update`, awaited on the event loop; `run(fn, *args)` awaits a blocking call made
        off the loop (the default: `update` made that way)."""
        done: bool = await run(self.update, row, previous)
        return done

    @abstractmethod
    def load(self, ident: str) -> Row | None:
        """The game `ident`, or None."""

    @abstractmethod
    def history(self, ident: str, after: int) -> list[tuple[int, str]]:
        """The stored records of the game `ident`'s versions after `after`, oldest first:
        (version, record). Only the last `KEPT` versions are kept: a caller checks that
        none is missing."""

    @abstractmethod
    def delete(self, ident: str) -> bool:
        """Remove a game; False if there was none."""

    @abstractmethod
    def count(self) -> int:
        """How many games are stored."""

    @abstractmethod
    def active(self) -> list[Row]:
        """The games whose bots the server drives (to take up again after a restart)."""

    @abstractmethod
    def expire(self, before: float | None, idle_before: float | None = None) -> list[str]:
        """Remove the games that are over and unchanged since `before`, and those not over
        and unchanged since `idle_before` (Unix times; None: none of them); their ids."""

    def close(self) -> None:  # noqa: B027 (nothing to release unless a backend says so)
        """Release the store (the server is stopping)."""

    async def aclose(self) -> None:  # noqa: B027 (nothing to release unless a backend says so)
        """Release what the store holds on the event loop (the server is stopping)."""

    def changes(self) -> AsyncIterator[tuple[str, int]]:
        """The changes of every process, as they are committed, for a `shared` store: (id,
        version) of each changed game, version -1 for a deleted one, `PRESENCE_CHANGED` when
        who is connected to it changed, and ("", 0) each time the feed (re)starts (anything
        may have changed meanwhile). Raises `StorageError` when the feed is lost."""
        raise NotImplementedError("only a shared store announces its changes")

    async def notes(self) -> AsyncIterator[tuple[str, int, Row | None]]:
        """`changes`, each with the changed game's row when the announcement carried it
        (then it need not be read), else None."""
        async for ident, version in self.changes():
            yield ident, version, None

    # who is connected, for a `shared` store (see PostgresStorage)

    def set_present(self, process: str, ident: str, seats: list[str], ttl: float) -> None:
        """Which seats of the game `ident` have a page open on `process` (a shared store)."""
        raise NotImplementedError("only a shared store shares who is connected")

    def set_presence(self, process: str, seats: dict[str, list[str]], ttl: float) -> None:
        """`set_present` for several games (each game's seats), at once (a shared store)."""
        raise NotImplementedError("only a shared store shares who is connected")

    def refresh_present(self, process: str, ttl: float) -> None:
        """Keep `process`'s presence alive for `ttl` seconds more (a shared store)."""
        raise NotImplementedError("only a shared store shares who is connected")

    def present(self, idents: list[str] | None) -> dict[str, set[str]]:
        """The connected seats of the games `idents` (None: all), on any process (a shared
        store)."""
        raise NotImplementedError("only a shared store shares who is connected")

    def drop_present(self, process: str) -> None:
        """`process` stops: it has no page open any more (a shared store)."""
        raise NotImplementedError("only a shared store shares who is connected")


def row_of(r: tuple[object, ...]) -> Row:
    """The `Row` of a database's row (id, kind, version, over, active, record, updated)."""
    ident, kind, version, over, active, record, updated = r
    assert isinstance(version, int) and isinstance(updated, float)
    return Row(str(ident), str(kind), version, bool(over), bool(active), str(record), updated)
