"""Type stubs of the compiled core of LudoGame (built from src/python/ by maturin)."""

from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, SupportsIndex, final

__version__: str
__all__ = [
    "ForeignPlayerError",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "InvalidBotError",
    "InvalidNotationError",
    "InvalidPlayersError",
    "InvalidPositionError",
    "InvalidRollError",
    "InvalidRulesError",
    "InvalidStepsError",
    "InvalidTokenError",
    "InvalidTurnError",
    "LudoError",
    "LudoGame",
    "Move",
    "NoGameError",
    "Player",
    "SimResult",
    "Simulation",
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

class InvalidRulesError(LudoError):
    """An unknown rule set or option, or options that do not fit together."""

class IllegalMoveError(LudoError):
    """A roll or move the game's phase or rules do not allow now."""

class GameOverError(LudoError):
    """A roll or move after the game is over."""

class InvalidBotError(LudoError):
    """An unknown bot name, a bad bot parameter, or a Python bot that failed."""

class InvalidNotationError(LudoError):
    """Text that is not a valid position, rule set or game record notation."""

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

    def _repr_svg_(self) -> str:
        """The board of the current game as an SVG image."""

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

@final
class Move:
    """A move: one token (or stack) of a player, moved by the pending roll."""

    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    @property
    def player(self) -> str:
        """The moving player's position, e.g. 'A'."""

    @property
    def token(self) -> str:
        """The token's name, e.g. 'p' (CS162), '1' (standard), 'A' or 'a' (GT)."""

    @property
    def roll(self) -> int:
        """The roll the move uses."""

    @property
    def name(self) -> str:
        """The move's name, as Game.play accepts it: e.g. 'Ap', 'C3', 'a'."""

@final
class Game:
    """A game of Ludo played move by move, over the "cs162", "standard" or "gt" rules."""

    def __new__(
        cls,
        rules: str = "cs162",
        players: str | Iterable[str] | int | None = None,
        seed: int | None = None,
        **options: bool | int | str,
    ) -> Game: ...
    @property
    def rules(self) -> str:
        """The rule set's preset name: 'cs162', 'standard' or 'gt'."""

    @property
    def options(self) -> dict[str, bool | int | str]:
        """Every rule option and its value."""

    @property
    def players(self) -> list[str]:
        """The positions that play, in turn order."""

    @property
    def seed(self) -> int | None:
        """The die's seed (None for a game read from a position notation)."""

    def to_notation(self) -> str:
        """The position as one line of text."""

    @staticmethod
    def from_notation(text: str) -> Game:
        """A game starting at a position written by to_notation (with no history)."""

    @property
    def moves(self) -> str:
        """Every roll and move so far as text, e.g. '6 Ap 4 Ap =3'."""

    def to_json(self) -> str:
        """The whole game (start, seed, every roll and move) as a JSON string."""

    @staticmethod
    def from_json(text: str) -> Game:
        """A game read from to_json's output: the moves are replayed and checked."""

    def __reduce__(self) -> tuple[Any, tuple[str]]: ...
    @property
    def phase(self) -> Literal["roll", "move", "over"]:
        """What the game waits for: 'roll', 'move' or 'over'."""

    @property
    def current_player(self) -> str:
        """The position whose turn it is."""

    @property
    def pending_roll(self) -> int | None:
        """The roll waiting to be played, if any."""

    def roll(self, value: int | None = None) -> int:
        """Roll the die (seeded, or `value` 1-6); returns the value."""

    @property
    def legal_moves(self) -> list[Move]:
        """The legal moves now (empty unless the phase is 'move')."""

    @property
    def tokens_to_move(self) -> list[str]:
        """The names of the tokens that may move now."""

    def play(self, mv: Move | str) -> None:
        """Play a move: a Move from legal_moves, or its name."""

    def is_over(self) -> bool:
        """Is the game over?"""

    @property
    def winner(self) -> str | None:
        """The first player to bring every token home, or None."""

    @property
    def ranking(self) -> list[str]:
        """The finishing order so far."""

    @property
    def status(self) -> str:
        """The status line, in the GT game's words."""

    @property
    def steps(self) -> dict[str, list[int]]:
        """Step counts of every player's tokens; negative in the yard."""

    @property
    def history(self) -> list[dict[str, Any]]:
        """Every roll and move so far, oldest first, with their effects."""

    def best_move(self, bot: str = "expectimax", seed: int = 0) -> Move:
        """The move a built-in bot would play now."""

    def autoplay(self, bots: Any, seed: int = 0, max_rolls: int = 100000) -> str | None:
        """Play on with bots until the game is over; returns the winner."""

    def undo(self) -> None:
        """Take back the last roll or move."""

    def copy(self) -> Game:
        """An independent copy of the game, with its history."""

    def _repr_svg_(self) -> str:
        """The board as an SVG image (shown by Jupyter notebooks)."""

    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: object, /) -> Game: ...
    def __eq__(self, other: object, /) -> bool: ...

_Bot = str | Callable[[Game], Move | str]

@final
class Simulation:
    """A batch of whole games between bots, played in Rust."""

    def __new__(
        cls,
        rules: str = "cs162",
        players: str | Iterable[str] | int | None = None,
        bots: _Bot | Sequence[_Bot] | Mapping[str, _Bot] | None = None,
        seed: int = 0,
        **options: bool | int | str,
    ) -> Simulation: ...
    @property
    def players(self) -> list[str]:
        """The positions that play, in turn order."""

    @property
    def bots(self) -> list[str]:
        """The bots' names, one per player."""

    @property
    def rules(self) -> str:
        """The rules, as notation."""

    @property
    def seed(self) -> int:
        """The run's seed."""

    def run(self, start: int = 0, count: int = 1000, threads: int = 1) -> SimResult:
        """Play games start..start+count on `threads` threads."""

@final
class SimResult:
    """The results of a simulation."""

    @property
    def games(self) -> int:
        """Number of games."""

    @property
    def players(self) -> list[str]:
        """The positions that played, in turn order."""

    @property
    def bots(self) -> list[str]:
        """The bots' names, one per player."""

    @property
    def rules(self) -> str:
        """The rules the games were played by, as notation."""

    @property
    def wins(self) -> dict[str, int]:
        """Games won by each player."""

    @property
    def unfinished(self) -> int:
        """Games cut off without a result."""

    @property
    def lengths(self) -> array[int]:
        """Die rolls per game."""

    @property
    def captures(self) -> array[int]:
        """Captures per game."""

    @property
    def finishing(self) -> array[int]:
        """Finishing orders, len(players) seat numbers per game."""

    @property
    def mean_length(self) -> float:
        """Mean game length in die rolls."""

    @property
    def length_histogram(self) -> dict[int, int]:
        """How many games took each number of rolls."""

    @property
    def mean_captures(self) -> float:
        """Mean captures per game."""

    def __add__(self, other: SimResult, /) -> SimResult: ...
    def __radd__(self, other: SimResult, /) -> SimResult: ...
