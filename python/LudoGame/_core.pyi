"""Type stubs of the compiled core of LudoGame (built from src/python/ by maturin)."""

from collections.abc import Iterable, Sequence
from typing import SupportsIndex, final

__version__: str
__all__ = [
    "ForeignPlayerError",
    "InvalidPlayersError",
    "InvalidPositionError",
    "InvalidRollError",
    "InvalidStepsError",
    "InvalidTokenError",
    "InvalidTurnError",
    "LudoError",
    "LudoGame",
    "NoGameError",
    "Player",
    "__version__",
]

class LudoError(ValueError):
    """Base class of every error LudoGame raises for bad input (a ValueError)."""

class InvalidPlayersError(LudoError):
    """The players list is empty, too long, or names a position twice."""

class InvalidPositionError(LudoError):
    """A position that is not 'A'-'D', or that does not play in this game."""

class InvalidRollError(LudoError):
    """A die roll outside 1-6."""

class InvalidTurnError(LudoError):
    """A turn that is not a (position, roll) pair."""

class InvalidTokenError(LudoError):
    """A token name other than 'p' or 'q'."""

class InvalidStepsError(LudoError):
    """A step count out of range: a move of 1-57 steps, a token's count of -1..57."""

class ForeignPlayerError(LudoError):
    """A Player object that does not belong to this game."""

class NoGameError(LudoError):
    """An operation that needs a game before play_game was called."""

_Turn = tuple[str, SupportsIndex] | Sequence[str | SupportsIndex]

@final
class LudoGame:
    """A game of CS162 Ludo: two to four players at positions 'A'-'D', two tokens each."""

    def __new__(cls) -> LudoGame: ...
    def play_game(self, players: Iterable[str], turns: Iterable[_Turn]) -> list[str]:
        """Play a new game and return each player's p then q space, in players order."""

    def get_player_by_position(self, position: object) -> Player | str:
        """The Player at `position` in the current game, or "Player not found!"."""

    def move_token(self, player: Player | str, token_name: str, steps: SupportsIndex) -> None:
        """Move one named token of `player` `steps` (1-57) forward."""

    def play_turn(self, position: str, roll: SupportsIndex) -> str | None:
        """Apply one roll to the current game; the moved token names, or None."""

    @property
    def players(self) -> list[Player]:
        """The players of the current game, in the order of the players list."""

    def get_spaces(self) -> list[str]:
        """The space of every token in the current game, as play_game returned it."""

@final
class Player:
    """One player of a game: a live view of its position and tokens."""

    def __new__(cls, position: str) -> Player: ...
    def get_completed(self) -> bool:
        """True when both tokens have reached 'E'."""

    def get_token_p_step_count(self) -> int:
        """Total steps of token p (-1 yard, 0 ready, up to 57 finished)."""

    def get_token_q_step_count(self) -> int:
        """Total steps of token q (-1 yard, 0 ready, up to 57 finished)."""

    def get_space_name(self, steps: SupportsIndex) -> str:
        """The name of the space after `steps` total steps ('H', 'R', '1'-'56', 'A1', 'E')."""

    @property
    def position(self) -> str:
        """The position, 'A'-'D'."""

    @property
    def start_space(self) -> int:
        """The track space where this player's tokens enter the board."""

    @property
    def end_space(self) -> int:
        """The last track space before this player's home squares."""

    @property
    def completed(self) -> bool:
        """Same as get_completed()."""

    @property
    def steps(self) -> tuple[int, int]:
        """Step counts of (p, q)."""

    @property
    def spaces(self) -> tuple[str, str]:
        """Space names of (p, q)."""
