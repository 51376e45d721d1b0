"""The server's bots and AIs (`Bots`): the searches, on threads of their own (at most
`workers` at once, each stoppable), and a driver per game that plays its bots at its pace
and its turn timer."""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from LudoGame.onitama import SearchStop
from LudoGame.web.errors import ApiError
from LudoGame.web.session import Session, Think

if TYPE_CHECKING:
    from LudoGame.web.games import Games

log = logging.getLogger(__name__)

#: How many bot or AI searches run at once (the others wait their turn).
WORKERS = 2

T = TypeVar("T")


def stopping_error() -> ApiError:
    """The answer to a wait cut short by the server stopping (503)."""
    return ApiError(503, "ServerStopping", "the server is stopping: try again once it is back")


def deleted_error(ident: str) -> ApiError:
    """The answer to a wait cut short by its game's deletion (404)."""
    return ApiError(404, "NotFound", f"the game {ident[:12]}... was deleted while it thought")


def end_search(
    entry: tuple[str | None, SearchStop, asyncio.Future[ApiError]], error: ApiError
) -> None:
    """Stop a search (its flag) and end its wait with `error` (unless it ended already)."""
    _, flag, waiting = entry
    flag.request()
    if not waiting.done():
        waiting.set_result(error)


class Bots:
    """The searches being thought (`think`) and the bot driver of each game (`drive`)."""

    def __init__(self, games: Games, workers: int = WORKERS) -> None:
        self.games = games
        #: how many bot or AI searches run at once
        self.workers = workers
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self._pool: asyncio.Semaphore | None = None
        #: set once the server stops; each search being awaited: its game, its stop flag
        #: and a future that ends the wait (with the error to answer)
        self.stopping = False
        self._searches: list[tuple[str | None, SearchStop, asyncio.Future[ApiError]]] = []
        #: search threads running now (each holds its place in the pool until it ends,
        #: awaited or not), and the most that ever ran at once
        self.thinking = 0
        self.most_thinking = 0

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
        if self.stopping:
            raise stopping_error()
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
            if self.stopping:
                end_search(entry, stopping_error())
            await asyncio.wait({search, waiting}, return_when=asyncio.FIRST_COMPLETED)
            if waiting.done():
                raise waiting.result()
            return search.result()
        finally:
            self._searches.remove(entry)
            search.cancel()
            waiting.cancel()

    def stop_searches(self, ident: str | None, error: ApiError) -> None:
        """Stop the searches of game `ident` (None: of every game); their waits answer
        `error`."""
        for entry in self._searches:
            if ident is None or entry[0] == ident:
                end_search(entry, error)

    def drive(self, s: Session) -> None:
        """Make sure the server plays the bots of `s` if it should (a pace, a bot's seat,
        not over)."""
        if not s.driven or s.stale:
            return
        task = self.drivers.get(s.id)
        if task is not None and not task.done():
            return
        self.drivers[s.id] = asyncio.get_running_loop().create_task(self._drive(s.id))

    async def _drive(self, ident: str) -> None:
        """Play the bots of game `ident` at its pace until it is over, deleted, or waits for
        a person (a change wakes it again)."""
        while True:
            s = self.games.cache.sessions.get(ident)
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
                async with self.games.changing(cls, ident, "game", None) as now:
                    seat = now.seat_to_act()
                    kind = None if seat is None else now.seat_kinds()[seat]
                    if kind == now.machine and now.pace is not None:
                        await now.machine_step(self.thinker(ident))
                    elif now.timer_due():
                        await now.timer_step(self.thinker(ident))
            except ApiError as e:
                if e.status == 404 or e.kind == "GameTooLong":
                    return
                if e.status == 409:
                    continue  # another process changed it first
                # the store is unreachable (or the step was refused): try again later
                log.warning(
                    "the bot step of game %s failed (%d %s: %s); trying again in a second",
                    ident[:12],
                    e.status,
                    e.kind,
                    e.message,
                )
                await asyncio.sleep(1.0)
            except Exception:
                # a fault of the server's own: its bots stop until the next change wakes them
                log.exception("the bots of game %s stopped on an error", ident[:12])
                return
            if s.pace == 0:
                await asyncio.sleep(0)  # let others run between the steps of a fast game


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
