"""What the server holds: games (`Session`, kept in a `Storage` by `web.games.Games`) and
replays (`Replays`, in memory), under unguessable ids, each with its own lock so that the
requests for one are serialised."""

from __future__ import annotations

import asyncio
import json
import math
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Protocol, TypeVar

from fastapi import Query, Response
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints
from pydantic_core import PydanticCustomError

from LudoGame.seeds import fresh_seed
from LudoGame.web.errors import ApiError, conflict, not_found, short
from LudoGame.web.keys import key_digest

#: The kinds of seat a person plays: on the screen that started the game, or on a device of
#: their own (invited by a link, acting with the seat's key).
HUMAN: Literal["human"] = "human"
REMOTE: Literal["remote"] = "remote"
PEOPLE = (HUMAN, REMOTE)
#: Who made a history entry that the turn timer's bot played for an absent remote seat.
TIMER = "timer"


def new_id() -> str:
    """An unguessable id (or key): 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


#: What an id (of a game or a replay) can be: `new_id`'s URL-safe characters. Anything
#: else names nothing here, and is answered 404 without asking the store.
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,100}")


def same_key(given: str | None, digest: str) -> bool:
    """Is `given` (a request's key: any text, non-ASCII included) the key whose stored
    digest is `digest`? Compared in constant time; a missing key is no key."""
    return given is not None and secrets.compare_digest(key_digest(given), digest)


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
    from builtins import str as RulesText  # noqa: N812
else:
    #: An integer of a request's body: a JSON number without a fraction (3 or 3.0; not "3"
    #: or true: request bodies are read strictly, as the schema says).
    Int = Annotated[int, BeforeValidator(_integral)]
    #: A name a request gives (a rule set, bot, setup, AI level, move, square, seat): at
    #: most 100 characters, so that no refusal quotes more.
    Name = Annotated[str, StringConstraints(max_length=100)]
    #: Rules: a preset's name, or the rules notation with options (``standard[six_limit=3]``).
    RulesText = Annotated[str, StringConstraints(max_length=500)]


#: A seed: a number from 0 to 2**64 - 1, or the same as decimal text (JavaScript's numbers
#: round integers above 2**53). Past 2**64 - 1 it is refused with a 400, not by the schema
#: (JSON Schema validators compare such numbers as doubles, 2**64 - 1 as 2**64).
def _seed(value: Any) -> Any:
    """One clear refusal for a seed of neither form (instead of one per form)."""
    value = _integral(value)
    number = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    text = isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20
    if not (number or text):
        raise PydanticCustomError(
            "seed", "a seed is a whole number from 0 to 2**64 - 1, or the same as decimal text"
        )
    return value


# each form refuses what is neither in the same words, which the 422 answer says once
Seed = (
    Annotated[int, Field(ge=0), BeforeValidator(_seed)]
    | Annotated[str, StringConstraints(pattern=r"^[0-9]{1,20}$"), BeforeValidator(_seed)]
)


def seed_of(seed: int | str | None) -> int | None:
    """A request's seed as a number (400 past 2**64 - 1)."""
    if seed is None:
        return None
    value = int(seed)
    if value >= 2**64:
        raise ApiError(400, "InvalidArgument", f"the seed {short(str(seed))} is over 2**64 - 1")
    return value


def chosen_seed(seed: int | str | None, online: bool) -> int:
    """The seed of a new game (or rematch): the request's, else a fresh one. A game with a
    person on another device (`online`) takes no seed from its request (400 `SeedRefused`):
    whoever chose it would know every roll (or deal); its seed is the server's, kept
    secret until the game is over."""
    if seed is not None and online:
        raise ApiError(
            400,
            "SeedRefused",
            "a game with a person on another device gets its seed from the server, which "
            "keeps it secret until the game is over (the state's commitment lets everyone "
            "check it then): leave the seed out",
        )
    value = seed_of(seed)
    return fresh_seed() if value is None else value  # (LudoGame.seeds: one meaning of none)


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


#: The longest turn timer, in seconds (a day).
MAX_TURN_SECONDS = 86_400


class TurnTimer(BaseModel):
    """A turn timer for the remote seats: a remote seat that has not acted `seconds` after
    its turn came has that turn played by the bot (or AI level) `bot`."""

    model_config = ConfigDict(extra="forbid")

    seconds: float
    bot: str


class NewGame(BaseModel):
    """What both games' new-game bodies may carry instead of a new game: a position's
    notation, or a saved game's JSON (the key ``json``); the pace of the server's bots; and
    a turn timer for the remote seats."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, strict=True)

    position: str | None = None
    saved: str | None = Field(default=None, alias="json")
    pace: float | None = Field(default=None, ge=0, le=60)
    turn_timer: TurnTimer | None = None


class RematchBody(BaseModel):
    """The body of ``POST .../rematch``: the new game's seed (by default a new one)."""

    model_config = ConfigDict(extra="forbid")

    seed: int | None = None


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
        #: the digest (`key_digest`) of each remote seat's key: a key itself is never
        #: kept, only shown once, in the answer to the new game
        self.keys: dict[str, str] = {}
        #: the keys this session made, until the answer to the new game shows them (then
        #: forgotten): each remote seat's (`issue_keys`), and the host's
        self.issued: dict[str, str] = {}
        self.issued_host = new_id()
        #: the digest of the key of whoever started the game (`issued_host`): it acts for
        #: the game's "human" seats once the game has a remote seat, and may delete it
        self.host_key = key_digest(self.issued_host)
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
        #: the turn timer of the remote seats ({"seconds": N, "bot": NAME}), or None
        self.timer: dict[str, Any] | None = None
        #: when (Unix time) the turn timer plays for the remote seat to act, or None
        self.deadline: float | None = None
        #: the remote seat whose turn the timer's bot is playing (it plays on at once)
        self.timed_out: str | None = None
        #: the id of this game's rematch, and of the game this one is the rematch of
        self.rematch: str | None = None
        self.rematch_of: str | None = None
        #: which seats have a page open on the game's events now (set by `Games`)
        self.presence: Callable[[], dict[str, bool]] | None = None

    # ---- what a subclass says ------------------------------------------------------------

    def seat_kinds(self) -> dict[str, str]:
        """Each seat's kind: "human", "remote" or the `machine`."""
        raise NotImplementedError

    def seat_to_act(self) -> str | None:
        """The seat whose turn it is, or None once the game is over."""
        raise NotImplementedError

    def state(self, fields: frozenset[str], since: int = 0) -> dict[str, Any]:
        """The game's state as the API answers it, with the large `fields` asked for; the
        large list fields (a history) hold only their items from index `since` on (the
        event streams, which have the earlier ones already)."""
        raise NotImplementedError

    def extra_record(self) -> dict[str, Any]:
        """The subclass's part of the record (its seats and the like)."""
        raise NotImplementedError

    @classmethod
    def from_record(cls, ident: str, version: int, record: dict[str, Any]) -> Session:
        """The session a record saved (`record`)."""
        raise NotImplementedError

    async def machine_step(self, think: Think, bot: str | None = None) -> None:
        """The machine whose turn it is takes one step (409 if it is a person's turn); with
        `bot`, that bot plays one step for the remote seat to act (its turn timer ran out)."""
        raise NotImplementedError

    def check_timer_bot(self, name: str) -> str:
        """`name` if it names a bot (Ludo) or an AI level (Onitama) the turn timer may use;
        otherwise a 400."""
        raise NotImplementedError

    def rematch_game(self, seed: int | None) -> Session:
        """A new game like this one from its start (same rules, players and seats; a new
        seed unless `seed` is given: refused, 400, in an online game), not yet stored."""
        raise NotImplementedError

    def undo_refusal(self) -> ApiError | None:
        """Why an undo that has something to take back is refused now, or None."""
        return None

    def save_text(self, format: Literal["json", "notation"]) -> str:
        """The game's save as a file holds it: its JSON (the whole game) or the position's
        notation."""
        if format == "json":
            return str(self.game.to_json())
        return str(self.game.to_notation())

    # ---- seats and keys ------------------------------------------------------------------

    @property
    def online(self) -> bool:
        """Does a seat play on another device? Then every action needs a key."""
        return bool(self.keys)

    def issue_keys(self, seats: list[str]) -> None:
        """Make a new key for each of `seats` (remote seats): the game keeps their digests,
        and `issued` the keys themselves until the answer to the new game shows them."""
        self.issued = {p: new_id() for p in seats}
        self.keys = {p: key_digest(k) for p, k in self.issued.items()}

    @property
    def hides_seed(self) -> bool:
        """Is the game's seed kept from its players (an online game not yet over)?"""
        return self.online and not self.is_over()

    def key_for(self, seat: str | None) -> str | None:
        """The digest of the key that acts for `seat` (None: no key needed). A remote seat
        needs its own key; once a game is online, its other seats (people here, bots) and
        the game itself (seat None) need the host's key."""
        if seat is not None and seat in self.keys:
            return self.keys[seat]
        return self.host_key if self.online else None

    def check_key(self, seat: str | None, given: str | None) -> None:
        """Refuse (403 `NotYourSeat`) a request for `seat` without its key."""
        needed = self.key_for(seat)
        if needed is None or same_key(given, needed):
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

    def seats_of(self, key: str | None) -> list[str]:
        """The seats `key` plays: a remote seat's own, or the host's people on its screen
        (none for a missing or unknown key)."""
        if key is None or not self.online:
            return []
        digest = key_digest(key)
        for seat, needed in self.keys.items():
            if secrets.compare_digest(digest, needed):
                return [seat]
        if secrets.compare_digest(digest, self.host_key):
            return [p for p, k in self.seat_kinds().items() if k == HUMAN]
        return []

    def links(self, base: str) -> dict[str, str]:
        """The invite address of each remote seat whose key this session made (`issued`:
        only the answer to a new game has them), the key in the fragment, which browsers
        do not send to servers."""
        return {
            seat: f"{base}{self.kind}?game={self.id}&seat={seat}#key={key}"
            for seat, key in self.issued.items()
        }

    # ---- history -------------------------------------------------------------------------

    def is_over(self) -> bool:
        """Is the game over?"""
        return bool(self.game.is_over())

    def can_undo(self) -> bool:
        """Is there an entry of a person (or of the loaded game) to take back, and may it be
        taken back now?"""
        return self._undoable() and self.undo_refusal() is None

    def by_machine(self, actor: str) -> bool:
        """Was an entry made by `actor` the machine's (a bot or AI, or the turn timer's bot
        for an absent person)? Undo takes such entries back with the person's decision
        before them."""
        return actor in (self.machine, TIMER)

    def _undoable(self) -> bool:
        return not all(self.by_machine(a) for a in self.actors)

    def _check_undo(self) -> None:
        """Refuse (409) an undo with nothing to take back, or one refused now."""
        if not self._undoable():
            raise conflict("NothingToUndo", "there is nothing of a person's to take back")
        refusal = self.undo_refusal()
        if refusal is not None:
            raise refusal

    def changed(self, actor: str) -> None:
        """Record one new entry made by `actor` and bump the version."""
        self.actors.append(actor)
        self.bump()

    def bump(self) -> None:
        """The version goes up: a change is applied (and not yet committed); the turn timer
        starts for the seat to act now."""
        self.version += 1
        self.settled.clear()
        self.stamp_timer()

    def undo_seat(self) -> str | None:
        """The seat whose decision an undo would take back (to act again after it)."""
        self._check_undo()
        game = self.game.copy()
        actors = list(self.actors)
        while actors:
            actor = actors.pop()
            game.undo()
            if not self.by_machine(actor):
                break
        return self._seat_of(game)

    def _seat_of(self, game: Any) -> str | None:
        raise NotImplementedError

    def take_back(self) -> None:
        """Undo the last entry of a person and every machine entry after it (409 if there
        is none, or the undo is refused: `undo_refusal`)."""
        self._check_undo()
        while self.actors:
            actor = self.actors.pop()
            self.game.undo()
            if not self.by_machine(actor):
                break
        self.bump()

    # ---- saving --------------------------------------------------------------------------

    @property
    def driven(self) -> bool:
        """Does the server drive this game's bots now (a pace and a bot seat, or a turn
        timer; not over)?"""
        if self.is_over():
            return False
        if self.timer is not None:
            return True
        return self.pace is not None and self.machine in self.seat_kinds().values()

    def record(self) -> str:
        """The game as stored: the engine's own JSON save and what the server adds."""
        return json.dumps(
            {
                "save": self.game.to_json(),
                "actors": self.actors,
                "keys": self.keys,
                "host_key": self.host_key,
                "pace": self.pace,
                "timer": self.timer,
                "deadline": self.deadline,
                "timed_out": self.timed_out,
                "rematch": self.rematch,
                "rematch_of": self.rematch_of,
                **self.extra_record(),
            }
        )

    def restore_common(self, record: dict[str, Any]) -> None:
        """Take the parts every kind of game records from `record` (the keys of a record
        written before keys were stored as digests are taken as their digests)."""
        self.actors = list(record["actors"])
        self.keys = {p: key_digest(k, stored=True) for p, k in record["keys"].items()}
        self.host_key = key_digest(str(record["host_key"]), stored=True)
        self.issued, self.issued_host = {}, ""
        self.pace = record["pace"]
        self.timer = record.get("timer")
        self.deadline = record.get("deadline")
        self.timed_out = record.get("timed_out")
        self.rematch = record.get("rematch")
        self.rematch_of = record.get("rematch_of")

    def common_state(self) -> dict[str, Any]:
        """The parts of the state every kind of game has beside its own: its rematch (and
        the game it is the rematch of), its turn timer with the time left for the seat to
        act, which people's seats have a page open now (an online game), the seat an undo
        would give the turn back to (whose key it needs), and the history entries the turn
        timer's bot played."""
        timer = None
        if self.timer is not None:
            left = None
            if self.deadline is not None and not self.is_over():
                left = round(max(0.0, self.deadline - time.time()), 1)
            timer = {**self.timer, "deadline": self.deadline, "left": left}
        connected: dict[str, bool] = {}
        if self.online:
            here = self.presence() if self.presence is not None else {}
            connected = {p: here.get(p, False) for p, k in self.seat_kinds().items() if k in PEOPLE}
        return {
            "rematch": self.rematch,
            "rematch_of": self.rematch_of,
            "turn_timer": timer,
            "connected": connected,
            "undo_seat": self.undo_seat() if self.can_undo() else None,
            "timer_entries": [k for k, a in enumerate(self.actors) if a == TIMER],
        }

    # ---- the turn timer ------------------------------------------------------------------

    def set_timer(self, timer: TurnTimer | None) -> None:
        """Take a new game's turn timer (400 for a bad one)."""
        if timer is None:
            return
        if not (math.isfinite(timer.seconds) and 1 <= timer.seconds <= MAX_TURN_SECONDS):
            raise ApiError(
                400,
                "InvalidTurnTimer",
                f"turn_timer.seconds must be from 1 to {MAX_TURN_SECONDS:,} (a day), "
                f"not {timer.seconds:g}",
            )
        if REMOTE not in self.seat_kinds().values():
            raise ApiError(
                400,
                "InvalidTurnTimer",
                "a turn timer plays for absent people on other devices: give the game at "
                "least one remote seat",
            )
        self.timer = {"seconds": timer.seconds, "bot": self.check_timer_bot(timer.bot)}

    def stamp_timer(self) -> None:
        """After a change: start the turn timer of the remote seat to act (at once if the
        timer's bot is playing that seat's turn), or stop it."""
        seat = self.seat_to_act()
        if self.timer is None or seat is None or self.seat_kinds().get(seat) != REMOTE:
            self.deadline = self.timed_out = None
            return
        if self.timed_out != seat:
            self.timed_out = None
            self.deadline = time.time() + float(self.timer["seconds"])
        else:
            self.deadline = time.time()

    def timer_due(self) -> bool:
        """Has the turn timer of the remote seat to act run out?"""
        seat = self.seat_to_act()
        return (
            self.timer is not None
            and self.deadline is not None
            and seat is not None
            and self.seat_kinds().get(seat) == REMOTE
            and time.time() >= self.deadline
        )

    async def timer_step(self, think: Think) -> None:
        """The turn timer's bot plays one step for the remote seat to act (its history entry
        is the `TIMER`'s)."""
        assert self.timer is not None
        self.timed_out = self.seat_to_act()
        await self.machine_step(think, str(self.timer["bot"]))

    def due_at(self, since: float) -> float | None:
        """When the server should next play in this game by itself (a bot at its pace after
        the last change at `since`, or the turn timer), as a Unix time; None: not before a
        person acts."""
        seat = self.seat_to_act()
        if seat is None:
            return None
        kind = self.seat_kinds().get(seat)
        if kind == self.machine and self.pace is not None:
            return since + self.pace
        if kind == REMOTE and self.timer is not None and self.deadline is not None:
            return self.deadline
        return None

    def check_player(self, key: str | None, doing: str) -> None:
        """Refuse (403) `doing` (e.g. "ask for a rematch") asked in an online game without
        the key of one of its seats or of the host."""
        if not self.online:
            return
        if any(same_key(key, needed) for needed in (self.host_key, *self.keys.values())):
            return
        raise ApiError(
            403,
            "NotYourSeat",
            f"only a player of this game (or whoever started it) may {doing}: "
            "send your seat's key in the X-Seat-Key header"
            + ("" if key is None else " (the key given is not one)"),
        )

    def may_rematch(self, key: str | None) -> None:
        """Refuse (403) a rematch asked without the key of a seat or of the host."""
        self.check_player(key, "ask for a rematch")

    def download(self, format: Literal["json", "notation"]) -> Response:
        """The game as a file: its JSON (the whole game) or the position's notation (as
        `save_text` gives them)."""
        if format == "json":
            text, media, ext = self.save_text(format), "application/json", "json"
        else:
            text, media, ext = self.save_text(format) + "\n", "text/plain", "txt"
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


async def off_loop(fn: Callable[..., T], *args: Any, ended: Callable[[], None] | None = None) -> T:
    """`fn(*args)` on a thread of its own (named ``ludogame-think``), awaited without
    blocking the event loop (the engine releases the interpreter while it thinks); `ended`
    is called on the event loop once the thread ends, whether or not its result is still
    awaited. The thread is a daemon: Ctrl-C stops the server at once even while a search
    runs (its result is then dropped)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if ended is not None:
            ended()
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
