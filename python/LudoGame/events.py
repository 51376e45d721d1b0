"""The entries of a Ludo game's history: one class per kind of event.

Each event is also the ``dict`` the history has always held (the same keys and values, so
``event["roll"]``, ``==`` against a dict and ``json.dumps`` keep working), with typed
read-only attributes on top.
"""

from __future__ import annotations

from typing import Any

from LudoGame.enums import EventKind


class Event(dict[str, Any]):
    """An entry of ``Game.history`` (and what ``Game.undo()`` returns)."""

    __slots__ = ()

    @property
    def kind(self) -> EventKind:
        """``EventKind.ROLL`` or ``EventKind.MOVE``."""
        return EventKind(self["kind"])

    @property
    def player(self) -> str:
        """The position that rolled or moved."""
        return str(self["player"])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict.__repr__(self)})"


class RollEvent(Event):
    """A roll: its value, whether the seeded die made it, and what it allowed."""

    __slots__ = ()

    @property
    def value(self) -> int:
        """The number rolled, 1 to 6."""
        return int(self["value"])

    @property
    def die(self) -> bool:
        """True when the seeded die rolled it, False when the value was given."""
        return bool(self["die"])

    @property
    def result(self) -> str:
        """'move' (a move must follow), 'cannot move' or 'forfeit' (too many sixes)."""
        return str(self["result"])


class MoveEvent(Event):
    """A move: which tokens went from where to where, and what it caused."""

    __slots__ = ()

    @property
    def move(self) -> str:
        """The move's name, e.g. 'A1' or 'Bq'."""
        return str(self["move"])

    @property
    def roll(self) -> int:
        """The roll it used."""
        return int(self["roll"])

    @property
    def from_step(self) -> int:
        """The step the tokens left (the ``"from"`` key)."""
        return int(self["from"])

    @property
    def to_step(self) -> int:
        """The step the tokens reached (the ``"to"`` key)."""
        return int(self["to"])

    @property
    def from_square(self) -> str | None:
        """The square the tokens left, by the board's names (``Game.squares``): e.g. 'H',
        '12' or 'A1' in CS162; None when they ended on it (the ``"from_square"`` key is
        then absent)."""
        square = self.get("from_square")
        return None if square is None else str(square)

    @property
    def to_square(self) -> str | None:
        """The square the tokens reached, by the board's names; None when they ended where
        they were (the ``"to_square"`` key is then absent)."""
        square = self.get("to_square")
        return None if square is None else str(square)

    @property
    def tokens(self) -> list[str]:
        """The tokens moved (a stack moves together)."""
        return list(self["tokens"])

    @property
    def captured(self) -> list[str]:
        """The opponents' tokens sent home."""
        return list(self["captured"])

    @property
    def extra_roll(self) -> bool:
        """The mover rolls again."""
        return bool(self["extra_roll"])

    @property
    def finished(self) -> bool:
        """The mover finished with this move."""
        return bool(self["finished"])


__all__ = ["Event", "MoveEvent", "RollEvent"]
