"""The turn timer of a game's remote seats: a remote seat that has not acted some seconds
after its turn came has that turn played by a bot (or AI level), so that an absent person
does not stop the game."""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any, ClassVar

from LudoGame.web.bodies import MAX_TURN_SECONDS, TurnTimer
from LudoGame.web.errors import ApiError
from LudoGame.web.seats import REMOTE

if TYPE_CHECKING:
    from LudoGame.web.session import Think


class Timed:
    """The turn timer of a `Session` (a mixin: the session says whose turn it is and plays
    its machine steps)."""

    machine: ClassVar[str]
    pace: float | None
    #: the turn timer of the remote seats ({"seconds": N, "bot": NAME}), or None
    timer: dict[str, Any] | None
    #: when (Unix time) the turn timer plays for the remote seat to act, or None
    deadline: float | None
    #: the remote seat whose turn the timer's bot is playing (it plays on at once)
    timed_out: str | None

    def seat_kinds(self) -> dict[str, str]:
        """Each seat's kind (the session says)."""
        raise NotImplementedError

    def seat_to_act(self) -> str | None:
        """The seat whose turn it is (the session says)."""
        raise NotImplementedError

    def check_timer_bot(self, name: str) -> str:
        """`name` if the timer may play with it (the session says)."""
        raise NotImplementedError

    async def machine_step(self, think: Any, bot: str | None = None) -> None:
        """One machine step (the session plays it)."""
        raise NotImplementedError

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
