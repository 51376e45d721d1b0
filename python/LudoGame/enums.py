"""The fixed value sets of both games, as ``str`` enums.

Each member *is* its string (``Phase.ROLL == "roll"``), so code that compares with the
plain strings keeps working, while type checkers and editors see the closed set.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """What a Ludo ``Game`` waits for: a roll, a move, or nothing (the game is over)."""

    ROLL = "roll"
    MOVE = "move"
    OVER = "over"


class EventKind(StrEnum):
    """The kind of an entry in a Ludo game's history."""

    ROLL = "roll"
    MOVE = "move"


class Reason(StrEnum):
    """Why a game ended: an Onitama game or refereed match (the first seven), or a Ludo
    game (the last two)."""

    GENERAL_CAPTURED = "general_captured"
    BASE_REACHED = "base_reached"
    PLY_LIMIT = "ply_limit"
    INVALID_MOVE = "invalid_move"
    PROGRAMMING_ERROR = "programming_error"
    TIMEOUT = "timeout"
    INTERRUPTED = "interrupted"
    FIRST_HOME = "first_home"
    ALL_RANKED = "all_ranked"


__all__ = ["EventKind", "Phase", "Reason"]
