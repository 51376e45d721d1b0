"""A game held by the server (`Session`): the engine's game, its seats, its history's
authors, its record (what the database keeps) and the parts of its state both games share.
A kind of game (`ludo.LudoSession`, `onitama.OnitamaSession`) says the rest."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol

from LudoGame.web.config import WebConfig
from LudoGame.web.errors import ApiError, conflict
from LudoGame.web.keys import key_digest, new_id
from LudoGame.web.seats import HUMAN, PEOPLE, REMOTE, TIMER, Seats
from LudoGame.web.timer import Timed
from LudoGame.web_limits import MAX_LOADED_MOVES

__all__ = ["HUMAN", "PEOPLE", "REMOTE", "TIMER", "Held", "SaveFile", "Session", "Think"]


class Signal:
    """A flag that coroutines can wait for, as `asyncio.Event` (`is_set`, `set`, `clear`,
    `wait`), that holds no list of waiters until one waits: a server holds thousands of
    games, each with two, and an `asyncio.Event` costs about 700 bytes before anyone waits."""

    __slots__ = ("_value", "_waiters")

    def __init__(self) -> None:
        self._value = False
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        """Is the flag set?"""
        return self._value

    def set(self) -> None:
        """Set the flag: every coroutine waiting for it wakes."""
        if self._value:
            return
        self._value = True
        waiters, self._waiters = self._waiters, None
        for fut in waiters or ():
            if not fut.done():
                fut.set_result(None)

    def clear(self) -> None:
        """Unset the flag: `wait` waits again."""
        self._value = False

    async def wait(self) -> bool:
        """Wait until the flag is set (at once if it is); True."""
        if self._value:
            return True
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(fut)
        try:
            await fut
            return True
        finally:
            if self._waiters is not None and fut in self._waiters:
                self._waiters.remove(fut)


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


class SavedGame(Protocol):
    """What a session needs of an engine's game: take back, copy, save and write the
    position."""

    def undo(self) -> object: ...
    def to_json(self) -> str: ...
    def to_notation(self) -> str: ...
    def is_over(self) -> bool: ...


#: How a machine step thinks: `think(fn, *args)` runs `fn` off the event loop.
Think = Callable[..., Awaitable[Any]]


@dataclass(frozen=True)
class SaveFile:
    """A game as a file: its text, media type and file name (the route sends it)."""

    text: str
    media_type: str
    filename: str


class Session(Held, Seats, Timed):
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
        self.settled = Signal()
        self.settled.set()
        #: set on every committed change (wakes the game's bot driver)
        self.wake = Signal()
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
        #: (`version_key`, can_undo, undo seat): what undo may do, worked out once a state
        #: (or a change: `sharing`), as a state shows it twice and finding it copies and
        #: undoes the game
        self._undo_memo: tuple[tuple[int, int, bool], bool, str | None] | None = None
        #: set while a change is made (`Games.changing`): the state's small fields are then
        #: kept for their version (`_state_memo`), as the change's answer and its event
        #: show the same; dropped at its end, so that a held game keeps no copy of them
        self.sharing = False
        self._state_memo: tuple[tuple[int, int, bool], dict[str, Any]] | None = None

    # ---- what a subclass says ------------------------------------------------------------

    def seat_kinds(self) -> dict[str, str]:
        """Each seat's kind: "human", "remote" or the `machine`."""
        raise NotImplementedError

    def seat_to_act(self) -> str | None:
        """The seat whose turn it is, or None once the game is over."""
        raise NotImplementedError

    def version_state(self) -> dict[str, Any]:
        """The small fields of the state that only a change changes (`state` makes them
        once a version during a change: its answer and its event both show them); what
        they show is set before the version goes up."""
        raise NotImplementedError

    def large_state(self, fields: frozenset[str], since: int) -> dict[str, Any]:
        """The large fields of the state of `fields` (`state`)."""
        raise NotImplementedError

    def extra_record(self) -> dict[str, Any]:
        """The subclass's part of the record (its seats and the like)."""
        raise NotImplementedError

    @classmethod
    def from_record(
        cls, ident: str, version: int, record: dict[str, Any], config: WebConfig
    ) -> Session:
        """The session a record saved (`record`), in an app configured by `config`."""
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

    def state(self, fields: frozenset[str], since: int = 0) -> dict[str, Any]:
        """The game's state as the API answers it, with the large `fields` asked for; the
        large list fields (a history) hold only their items from index `since` on (the
        event streams, which have the earlier ones already)."""
        key, memo = self.version_key(), self._state_memo
        if memo is not None and memo[0] == key:
            small = memo[1]
        else:
            small = self.version_state()
            self._state_memo = (key, small) if self.sharing else None
        out = {**small, **self.common_state(), **self.large_state(fields, since)}
        if not self.sharing:
            self._undo_memo = None
        return out

    def forget_state(self) -> None:
        """Drop what was kept of the state during a change (`sharing`)."""
        self._state_memo = self._undo_memo = None

    def version_key(self) -> tuple[int, int, bool]:
        """What says that the game is as it was (for what is worked out once a version):
        its version, its history's length and whether it is online (its keys are issued
        before it is stored, at version 0)."""
        return self.version, len(self.actors), bool(self.keys)

    # ---- history -------------------------------------------------------------------------

    def is_over(self) -> bool:
        """Is the game over?"""
        return bool(self.game.is_over())

    def can_undo(self) -> bool:
        """Is there an entry of a person (or of the loaded game) to take back, and may it be
        taken back now?"""
        return self._undo_view()[0]

    def _undo_view(self) -> tuple[bool, str | None]:
        """`can_undo`, and the seat an undo would give the turn back to (None if it may
        not), worked out once a state, or once a version while a change is made
        (`_undo_memo`)."""
        key, memo = self.version_key(), self._undo_memo
        if memo is None or memo[0] != key:
            may = self._undoable() and self.undo_refusal() is None
            memo = self._undo_memo = (key, may, self._undo_seat() if may else None)
        return memo[1], memo[2]

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
        return self._undo_seat()

    def _undo_seat(self) -> str | None:
        """`undo_seat` of a session that may undo (checked)."""
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

    def moves_left(self) -> int:
        """How many more moves the game may hold (`MAX_LOADED_MOVES` in all: a longer game
        could not be loaded again, and its row would grow without end); below 0 after a
        change went past it (which is then undone)."""
        return MAX_LOADED_MOVES - len(self.game.history)

    @property
    def full(self) -> bool:
        """Has the game reached `MAX_LOADED_MOVES` (no change may add to it)?"""
        return self.moves_left() <= 0

    @property
    def driven(self) -> bool:
        """Does the server drive this game's bots now (a pace and a bot seat, or a turn
        timer; not over, not full)?"""
        if self.is_over() or self.full:
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
            "undo_seat": self._undo_view()[1],
            "timer_entries": [k for k, a in enumerate(self.actors) if a == TIMER],
        }

    def download(self, format: Literal["json", "notation"]) -> SaveFile:
        """The game as a file: its JSON (the whole game) or the position's notation (as
        `save_text` gives them)."""
        if format == "json":
            return SaveFile(
                self.save_text(format), "application/json", f"{self.kind}-{self.id[:8]}.json"
            )
        return SaveFile(
            self.save_text(format) + "\n", "text/plain", f"{self.kind}-{self.id[:8]}.txt"
        )
