"""What the server holds: games (`Session`, kept in a `Storage` by `web.games.Games`) and
replays (`Replays`, in memory), under unguessable ids, each with its own lock so that the
requests for one are serialised."""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Protocol, TypeVar

from fastapi import Query, Response
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints

from LudoGame.web.errors import ApiError, conflict, not_found, short

#: The kinds of seat a person plays: on the screen that started the game, or on a device of
#: their own (invited by a link, acting with the seat's key).
HUMAN: Literal["human"] = "human"
REMOTE: Literal["remote"] = "remote"
PEOPLE = (HUMAN, REMOTE)


def new_id() -> str:
    """An unguessable id (or key): 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def _integral(value: Any) -> Any:
    """A float with no fraction as the int it is (JSON Schema's integers include 3.0)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


if TYPE_CHECKING:
    # for the type checker (and stubtest, which would take these aliases for classes of
    # their own), the plain types
    from builtins import int as Int  # noqa: N812
    from builtins import str as Name  # noqa: N812
else:
    #: An integer of a request's body: a JSON number without a fraction (3 or 3.0; not "3"
    #: or true: request bodies are read strictly, as the schema says).
    Int = Annotated[int, BeforeValidator(_integral)]
    #: A name a request gives (a rule set, bot, setup, AI level, move, square, seat): at
    #: most 100 characters, so that no refusal quotes more.
    Name = Annotated[str, StringConstraints(max_length=100)]

#: A seed: a number from 0 to 2**64 - 1, or the same as decimal text (JavaScript's numbers
#: round integers above 2**53). Past 2**64 - 1 it is refused with a 400, not by the schema
#: (JSON Schema validators compare such numbers as doubles, 2**64 - 1 as 2**64).
Seed = (
    Annotated[int, Field(ge=0), BeforeValidator(_integral)]
    | Annotated[str, StringConstraints(pattern=r"^[0-9]{1,20}$")]
)


def seed_of(seed: int | str | None) -> int | None:
    """A request's seed as a number (400 past 2**64 - 1)."""
    if seed is None:
        return None
    value = int(seed)
    if value >= 2**64:
        raise ApiError(400, "InvalidArgument", f"the seed {short(str(seed))} is over 2**64 - 1")
    return value


class Held:
    """What the server holds (a game or a replay): an unguessable id, a lock that serialises
    the requests for it, and a version that goes up by one on every change."""

    def __init__(self, ident: str | None = None, version: int = 0) -> None:
        self.id = ident or new_id()
        self.lock = asyncio.Lock()
        self.version = version

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

    model_config = ConfigDict(extra="forbid", strict=True)

    version: Int | None = None


class NewGame(BaseModel):
    """What both games' new-game bodies may carry instead of a new game: a position's
    notation, or a saved game's JSON (the key ``json``); and the pace of the server's bots."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, strict=True)

    position: str | None = None
    saved: str | None = Field(default=None, alias="json")
    pace: float | None = Field(default=None, ge=0, le=60)


class SavedGame(Protocol):
    """What a session needs of an engine's game: take back, copy, save and write the
    position."""

    def undo(self) -> object: ...
    def to_json(self) -> str: ...
    def to_notation(self) -> str: ...
    def is_over(self) -> bool: ...


#: How a machine step thinks: `think(fn, *args)` runs `fn` off the event loop.
Think = Callable[..., Awaitable[Any]]


class Session(Held):
    """A game held by the server: the engine's game, who sits at each seat (a person here,
    a person on another device, or the machine), the seat keys, the pace of the server's
    bots, and who made each entry of its history ("human", the `machine` of the subclass,
    or "loaded" for a saved game's entries), so that undo goes back to a person's last
    decision.

    A session is saved as a record (`record`, a JSON object holding the engine's own save)
    and made again from it (`from_record`)."""

    #: The game's name in the API and in file names.
    kind: ClassVar[str]
    #: Who plays for the machine: "bot" (Ludo) or "ai" (Onitama).
    machine: ClassVar[str]
    #: The large state fields that ``?fields=`` chooses among.
    large: ClassVar[tuple[str, ...]]

    def __init__(self, game: Any, entries: int, ident: str | None = None, version: int = 0):
        super().__init__(ident, version)
        self.game = game
        self.actors: list[str] = ["loaded"] * entries
        #: the key of each remote seat
        self.keys: dict[str, str] = {}
        #: the key of whoever started the game: acts for its "human" seats once the game
        #: has a remote seat, and may delete it
        self.host_key = new_id()
        #: seconds between the server's bot steps, or None: bots step only when asked
        self.pace: float | None = None
        #: set while no change is half done (applied but not yet committed)
        self.settled = asyncio.Event()
        self.settled.set()
        #: set on every committed change (wakes the game's bot driver)
        self.wake = asyncio.Event()
        #: replaced by a newer copy (after a failed commit) or deleted
        self.stale = False
        self.deleted = False
        #: made from another process's change to a shared store (whose bots that process
        #: plays)
        self.remote = False

    # ---- what a subclass says ------------------------------------------------------------

    def seat_kinds(self) -> dict[str, str]:
        """Each seat's kind: "human", "remote" or the `machine`."""
        raise NotImplementedError

    def seat_to_act(self) -> str | None:
        """The seat whose turn it is, or None once the game is over."""
        raise NotImplementedError

    def state(self, fields: frozenset[str]) -> dict[str, Any]:
        """The game's state as the API answers it, with the large `fields` asked for."""
        raise NotImplementedError

    def extra_record(self) -> dict[str, Any]:
        """The subclass's part of the record (its seats and the like)."""
        raise NotImplementedError

    @classmethod
    def from_record(cls, ident: str, version: int, record: dict[str, Any]) -> Session:
        """The session a record saved (`record`)."""
        raise NotImplementedError

    async def machine_step(self, think: Think) -> None:
        """The machine whose turn it is takes one step (409 if it is a person's turn)."""
        raise NotImplementedError

    # ---- seats and keys ------------------------------------------------------------------

    @property
    def online(self) -> bool:
        """Does a seat play on another device? Then every action needs a key."""
        return bool(self.keys)

    def key_for(self, seat: str | None) -> str | None:
        """The key that acts for `seat` (None: no key needed). A remote seat needs its own
        key; once a game is online, its other seats (people here, bots) and the game itself
        (seat None) need the host's key."""
        if seat is not None and seat in self.keys:
            return self.keys[seat]
        return self.host_key if self.online else None

    def check_key(self, seat: str | None, given: str | None) -> None:
        """Refuse (403 `NotYourSeat`) a request for `seat` without its key."""
        needed = self.key_for(seat)
        if needed is None or (given is not None and secrets.compare_digest(given, needed)):
            return
        whose = f"seat {seat}" if seat is not None else "this game"
        if seat in self.keys:
            why = "it is played on another device"
        else:
            why = "it belongs to whoever started the game"
        raise ApiError(
            403,
            "NotYourSeat",
            f"you cannot act for {whose}: {why}, and acting for it needs its key in the "
            "X-Seat-Key header" + ("" if given is None else " (the key given is not it)"),
        )

    def links(self, base: str) -> dict[str, str]:
        """The invite address of each remote seat (the key in the fragment, which browsers
        do not send to servers)."""
        return {
            seat: f"{base}{self.kind}?game={self.id}&seat={seat}#key={key}"
            for seat, key in self.keys.items()
        }

    # ---- history -------------------------------------------------------------------------

    def is_over(self) -> bool:
        """Is the game over?"""
        return bool(self.game.is_over())

    def can_undo(self) -> bool:
        """Is there an entry of a person (or of the loaded game) to take back?"""
        return any(a != self.machine for a in self.actors)

    def changed(self, actor: str) -> None:
        """Record one new entry made by `actor` and bump the version."""
        self.actors.append(actor)
        self.bump()

    def bump(self) -> None:
        """The version goes up: a change is applied (and not yet committed)."""
        self.version += 1
        self.settled.clear()

    def undo_seat(self) -> str | None:
        """The seat whose decision an undo would take back (to act again after it)."""
        if not self.can_undo():
            raise conflict("NothingToUndo", "there is nothing of a person's to take back")
        game = self.game.copy()
        actors = list(self.actors)
        while actors:
            actor = actors.pop()
            game.undo()
            if actor != self.machine:
                break
        return self._seat_of(game)

    def _seat_of(self, game: Any) -> str | None:
        raise NotImplementedError

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
        self.bump()

    # ---- saving --------------------------------------------------------------------------

    @property
    def driven(self) -> bool:
        """Does the server drive this game's bots now (a pace, a bot seat, not over)?"""
        return (
            self.pace is not None
            and not self.is_over()
            and self.machine in self.seat_kinds().values()
        )

    def record(self) -> str:
        """The game as stored: the engine's own JSON save and what the server adds."""
        return json.dumps(
            {
                "save": self.game.to_json(),
                "actors": self.actors,
                "keys": self.keys,
                "host_key": self.host_key,
                "pace": self.pace,
                **self.extra_record(),
            }
        )

    def restore_common(self, record: dict[str, Any]) -> None:
        """Take the parts every kind of game records from `record`."""
        self.actors = list(record["actors"])
        self.keys = dict(record["keys"])
        self.host_key = str(record["host_key"])
        self.pace = record["pace"]

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


def fields_of(fields: str | None, large: tuple[str, ...]) -> frozenset[str]:
    """The large state fields a request's ``?fields=`` asks for (a comma-separated list out
    of `large`, empty for none; without it, all of them); 400 naming the names that are
    not among them."""
    if fields is None:
        return frozenset(large)
    names = set(fields.split(",")) if fields else set()
    unknown = sorted(names - set(large))
    if unknown:
        named = ", ".join(short(n) for n in unknown[:5]) + (", ..." if unknown[5:] else "")
        raise ApiError(
            400,
            "BadRequest",
            f"?fields= names {named}, not a large field of this game: choose among "
            f"{', '.join(large)}, comma-separated (or leave it empty for none)",
        )
    return frozenset(names)


def fields_query(large: tuple[str, ...]) -> Any:
    """The ``?fields=`` parameter of a route answering a game's state: its schema names
    the choices; `fields_of` refuses anything else with a 400."""
    one = "(" + "|".join(large) + ")"
    return Query(
        default=None,
        description="the large fields to include, comma-separated (empty: none; without "
        f"it: all of {', '.join(large)})",
        json_schema_extra={"pattern": f"^({one}(,{one})*)?$"},
    )


H = TypeVar("H", bound=Held)


class Replays:
    """Loaded replays by id, at most `limit`; loading one past the limit drops the least
    recently used (a replay is a file's text: load it again). Only touched from the event
    loop (no lock of its own needed)."""

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"the replay limit must be 1 or more, not {limit}")
        self.limit = limit
        self._items: OrderedDict[str, Held] = OrderedDict()
        self.evicted = 0

    def __len__(self) -> int:
        return len(self._items)

    def add(self, held: H) -> H:
        """Hold `held` (as the most recently used), dropping the oldest past the limit."""
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
