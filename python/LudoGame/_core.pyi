"""Type stubs of the compiled core of LudoGame (built from src/python/ by maturin).

One file for the one compiled module, both games' classes (hence its length); the per-game
Python modules re-export from it."""

from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, SupportsIndex, TypeAlias, final

import numpy as np
import numpy.typing as npt
from numpy.typing import NDArray

from LudoGame.enums import Phase, Reason
from LudoGame.events import MoveEvent, RollEvent
from LudoGame.outcome import Outcome

__version__: str
#: Rolls after which a game is cut off (a simulation counts it unfinished; autoplay stops).
MAX_ROLLS: int
#: Players of a single-agent environment when none is said (the learner and one opponent).
ENV_PLAYERS: int
#: Players of the multi-agent (PettingZoo) environment when none is said.
ENV_TABLE_PLAYERS: int
#: An environment episode's roll limit when none is said.
ENV_MAX_ROLLS: int
#: The Onitama setup a refereed match starts from when none is said.
ONITAMA_MATCH_SETUP: str
#: The coursework's Part 1 program's words by name ("card_prompt", "your_turn", ...) and its
#: referee's last line when an AI fails ("ai_invalid", "ai_error"), the variable parts as
#: {player}, {n}, {answer}, {winner} and {loser}.
ONITAMA_TEXTS: dict[str, str]
#: The coursework's ply limit of a game.
ONITAMA_DEFAULT_PLIES: int
__all__ = [
    "Action",
    "BuiltinAI",
    "Card",
    "MatchRecord",
    "ForeignPlayerError",
    "Interrupted",
    "InvalidArgumentError",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "IllegalMoveError",
    "InvalidAIError",
    "InvalidActionError",
    "InvalidBoardError",
    "InvalidBotError",
    "InvalidCardError",
    "InvalidNotationError",
    "InvalidPlayersError",
    "InvalidPositionError",
    "InvalidRollError",
    "InvalidRulesError",
    "InvalidSquareError",
    "InvalidStepsError",
    "InvalidTokenError",
    "InvalidTurnError",
    "LudoError",
    "LudoGame",
    "Move",
    "NoGameError",
    "Onitama",
    "OnitamaError",
    "OnitamaGameOverError",
    "OnitamaNotationError",
    "Player",
    "SearchStop",
    "SimResult",
    "Simulation",
    "UnknownSetupError",
    "bot_playouts",
    "onitama_play_match",
    "onitama_standard_cards",
    "__version__",
    "ENV_MAX_ROLLS",
    "ENV_PLAYERS",
    "ENV_TABLE_PLAYERS",
    "MAX_ROLLS",
    "ONITAMA_DEFAULT_PLIES",
    "ONITAMA_MATCH_SETUP",
    "ONITAMA_TEXTS",
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

class InvalidArgumentError(LudoError):
    """A number argument outside its range (a count, a seed, ...): the message says which."""

class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a long call; `partial` holds what it had finished, or None."""

    partial: Any

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
    def rules_notation(self) -> str:
        """The rule set as notation: the preset name, then the options that differ from it in
        brackets (e.g. 'standard[six_limit=3]'); `Game` and `Simulation` take it as `rules`."""

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
    def phase(self) -> Phase:
        """What the game waits for: a `Phase` ('roll', 'move' or 'over'; a `str` enum)."""

    @property
    def current_player(self) -> str:
        """The position whose turn it is."""

    @property
    def turn(self) -> str:
        """The position whose turn it is (the same as `current_player`; `turn` is the name both
        games use)."""

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
        """The first player to bring every token home; None before anyone has."""

    def outcome(self) -> Outcome | None:
        """How the game ended (termination, winner, ranking), or None while it goes on."""

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
    def squares(self) -> dict[str, list[str]]:
        """Every player's tokens' squares, in the rule set's own numbering."""

    @property
    def history(self) -> list[RollEvent | MoveEvent]:
        """Every roll and move so far, oldest first: `RollEvent`s and `MoveEvent`s (dicts with
        typed attributes) with their effects."""

    def best_move(self, bot: str = "expectimax", seed: int | None = None) -> Move:
        """The move a built-in bot would play now (Ctrl-C stops a search)."""

    def autoplay(
        self, bots: Any, seed: int | None = None, max_rolls: int | None = None
    ) -> str | None:
        """Play on with bots to the end; returns the winner. If it raises, nothing changed."""

    def undo(self) -> RollEvent | MoveEvent:
        """Take back the last roll or move; returns it (the history entry it removes)."""

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
        seed: int | None = None,
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
        """The rule set's preset name: 'cs162', 'standard' or 'gt' (as `Game.rules`)."""

    @property
    def options(self) -> dict[str, bool | int | str]:
        """Every rule option and its value (as `Game.options`)."""

    @property
    def rules_notation(self) -> str:
        """The rule set as notation (e.g. 'standard[six_limit=3]'), as `Game.rules_notation`."""

    @property
    def seed(self) -> int:
        """The run's seed."""

    def run(
        self, start: int | None = None, count: int | None = None, threads: int | None = None
    ) -> SimResult:
        """Play games start..start+count (default 0, 1000) on `threads` threads (default 1)."""

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
        """The preset name of the rules the games were played by (as `Game.rules`)."""

    @property
    def options(self) -> dict[str, bool | int | str]:
        """Every rule option the games were played with (as `Game.options`)."""

    @property
    def rules_notation(self) -> str:
        """The rules the games were played by, as notation (as `Game.rules_notation`)."""

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
    def total_rolls(self) -> int:
        """Die rolls in all games together."""

    @property
    def total_captures(self) -> int:
        """Captures in all games together."""

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

# ---- Onitama with a movable wall (LudoGame.onitama re-exports these) ----

class OnitamaError(LudoError):
    """Base class of every error of the Onitama game (LudoGame.onitama)."""

class InvalidSquareError(OnitamaError):
    """A square name that is not a1..e5."""

class InvalidCardError(OnitamaError):
    """A card that is not a standard card's name or a 5x5 pattern with one 'o'."""

class InvalidBoardError(OnitamaError):
    """A board, side to move or ply count that does not make a valid position."""

class InvalidActionError(OnitamaError):
    """Text that is not an action such as '1 e2 d3 u', '2 c3 a3 -' or '1 XX XX s'."""

class IllegalActionError(OnitamaError):
    """An action the rules do not allow in the position, or nothing to undo."""

class OnitamaGameOverError(OnitamaError, GameOverError):
    """A move asked for after the Onitama game is over."""

class OnitamaNotationError(OnitamaError):
    """Text that is not a valid Onitama position notation or game JSON."""

class UnknownSetupError(OnitamaError):
    """A setup id that is not one of the coursework setups."""

class InvalidAIError(OnitamaError):
    """A bad AI level, time or node budget, or a time budget out of range."""

_CardSpec: TypeAlias = Card | str | Sequence[str]
_Answer: TypeAlias = tuple[int, str, str, str]
_AIArgs: TypeAlias = tuple[
    str, list[str], list[str], list[str], list[str], list[str], list[str], int
]

@final
class Card:
    """A movement card: a 5x5 pattern with one 'o' and 'x' marks, in its holder's view."""

    def __new__(cls, spec: _CardSpec) -> Card: ...
    @property
    def name(self) -> str | None:
        """The standard card's name if it has the same moves as one, else None."""

    @property
    def rows(self) -> list[str]:
        """The 5 rows as given (drawn this way)."""

    @property
    def pattern(self) -> str:
        """The canonical pattern, rows separated by '/'."""

    @property
    def offsets(self) -> list[tuple[int, int]]:
        """The holder-view moves as (drow, dcol)."""

    def moves(self, player: str) -> list[tuple[int, int]]:
        """The moves of `player` on the board, as (drow, dcol): B's are negated."""

    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, tuple[list[str]]]: ...

@final
class Action:
    """One ply: a card slot, a pawn move and a wall step, written '1 e2 d3 u'."""

    def __new__(cls, text: str | Action, standard: bool = False) -> Action: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    @property
    def card(self) -> int:
        """The card slot played: 1 or 2."""

    @property
    def move_from(self) -> str:
        """The start square, e.g. 'e2' ('XX' for a pass)."""

    @property
    def move_to(self) -> str:
        """The target square, e.g. 'd3' ('XX' for a pass)."""

    @property
    def wall(self) -> str | None:
        """The wall step 'u', 'r', 'd', 'l' or 's'; None for a winning move."""

    @property
    def is_pass(self) -> bool:
        """Is this a pass?"""

    @property
    def is_win(self) -> bool:
        """Does this move win?"""

    @property
    def standard(self) -> bool:
        """Is this an action of standard Onitama (no wall step, '1 e2 d3')?"""

    @property
    def answer(self) -> _Answer:
        """The AI answer for it: (card, move_from, move_to, wall_dir)."""

    def __reduce__(self) -> tuple[Any, tuple[str]]: ...

@final
class Onitama:
    """A game of Onitama with a movable wall, played action by action."""

    def __new__(
        cls,
        board: str | Sequence[str] | None = None,
        cards: Mapping[str, _CardSpec] | Sequence[_CardSpec] | None = None,
        to_move: str | None = "A",
        max_plies: int | None = 20,
    ) -> Onitama: ...
    @staticmethod
    def setup(id: int | str, max_plies: int | None = None) -> Onitama:
        """A coursework setup by id: 11, 21, 'case21', 'aitest1_A', ..."""

    @staticmethod
    def setup_ids() -> list[str]:
        """The ids of every setup."""

    @property
    def setup_id(self) -> str | None:
        """The setup this game started from, or None."""

    @property
    def board(self) -> list[str]:
        """The board: 5 strings, row a first."""

    @property
    def cards(self) -> dict[str, Card]:
        """The five cards A1, A2, B1, B2, side."""

    @property
    def turn(self) -> str:
        """The player to move: 'A' or 'B'."""

    @property
    def plies_left(self) -> int:
        """Plies left, counting the coming one."""

    @property
    def actions(self) -> list[Action]:
        """The actions played so far."""

    @property
    def legal_actions(self) -> list[Action]:
        """Every legal action now."""

    def play(self, action: Action | str | tuple[int, str, str, str]) -> Action:
        """Play an action (an Action, its text, or an AI answer tuple)."""

    def judge(self, card: int, move_from: str, move_to: str, wall_dir: str) -> Action:
        """Judge an AI answer as the referee does: the action, or IllegalActionError."""

    def judge_typed(
        self, card: str, move_from: str | None = None, move_to: str | None = None
    ) -> Action | None:
        """Judge a ply as typed, part by part: None while incomplete, then its action."""

    def undo(self) -> Action:
        """Take back the last action; returns it."""

    def is_over(self) -> bool:
        """Is the game over?"""

    @property
    def winner(self) -> Literal["A", "B"] | None:
        """The winner, or None."""

    @property
    def result_reason(self) -> Reason | None:
        """How the game ended, or None while it goes on."""

    def move_listing(self) -> list[str]:
        """The coursework program's "0" listing of the moves now (`Card 1, e2->d3`)."""
    def capture_message(self, action: Action | str) -> str | None:
        """The coursework's words for `action` if its pawn move captures a soldier."""
    def outcome(self) -> Outcome | None:
        """How the game ended (termination, winner, ranking), or None while it goes on."""
    def win_message(self) -> str | None:
        """The coursework's words for the winner of a won game."""
    @property
    def status(self) -> str:
        """A sentence on where the game stands."""

    def ai_arguments(self) -> _AIArgs:
        """The arguments an AI is called with now."""

    def best_action(
        self,
        level: int | Literal["random", "baseline", "search"] = 2,
        time: float | None = 1.0,
        seed: int = 0,
        nodes: int | None = None,
        depth: int | None = None,
    ) -> Action:
        """The action a built-in AI plays now."""

    def analyse(
        self,
        level: int | Literal["random", "baseline", "search"] = 2,
        time: float | None = 1.0,
        seed: int = 0,
        nodes: int | None = None,
        depth: int | None = None,
        stop: SearchStop | None = None,
    ) -> dict[str, Any]:
        """What a built-in AI finds now: action, score, depth, nodes, exact, pv."""

    def perft(self, depth: int) -> int:
        """The number of action sequences of `depth` plies."""

    def to_notation(self) -> str:
        """The position as one line of text, each card as drawn."""

    @staticmethod
    def from_notation(text: str) -> Onitama:
        """A game starting at a position written by to_notation, its cards drawn as written."""

    def to_json(self) -> str:
        """The whole game as a JSON string."""

    @staticmethod
    def from_json(text: str) -> Onitama:
        """A game read from to_json's output (a setup id must match its start)."""

    def __reduce__(self) -> tuple[Any, tuple[str]]: ...
    def copy(self) -> Onitama:
        """An independent copy, with its history."""

    def __copy__(self) -> Onitama: ...
    def __deepcopy__(self, memo: Any, /) -> Onitama: ...
    def __eq__(self, other: object, /) -> bool: ...
    def draw(self, player: str | None = None) -> str:
        """The board and the five cards drawn as the coursework programs do."""

    def _repr_svg_(self) -> str:
        """The position as an SVG image."""

    # Onitama learning environment (LudoGame.envs.onitama_v0 is built on these)
    ACTION_COUNT: int
    OBSERVATION_SHAPE: tuple[int, int, int]
    @staticmethod
    def dealt(seed: int, max_plies: int | None = None) -> Onitama:
        """The default start board with five standard cards dealt at random from `seed`."""

    @staticmethod
    def standard(
        cards: Mapping[str, _CardSpec] | Sequence[_CardSpec] | None = None,
        first: str | None = None,
        seed: int | None = None,
        max_plies: int | None = None,
    ) -> Onitama:
        """A game of standard Onitama (no wall): `cards` and `first`, or a random deal by `seed`."""

    @property
    def rules(self) -> str:
        """'wall' or 'standard'."""

    def action_index(self, action: Action | str) -> int:
        """The number (0 to 7509) of `action` for the player to move."""

    def action_of(self, index: SupportsIndex) -> Action:
        """The action numbered `index` for the player to move (legal or not)."""

    def legal_action_indices(self) -> list[int]:
        """The numbers of the legal actions, ascending."""

    def action_mask(self) -> npt.NDArray[np.int8]:
        """The legal-action mask: int8, 7510 entries, 1 at every legal action's number."""

    def observation(self, player: str | None = None) -> npt.NDArray[np.float32]:
        """The position as `player` (default: the player to move) sees it: (11, 5, 5)."""

    def play_index(self, index: SupportsIndex) -> Action:
        """Play the legal action numbered `index`; returns it."""

    def rgb_array(self) -> npt.NDArray[np.uint8]:
        """The position as an RGB picture: uint8, shape (216, 320, 3)."""

@final
class SearchStop:
    """A flag that stops a search (Onitama.analyse's stop) from another thread."""

    def __new__(cls) -> SearchStop: ...
    def request(self) -> None:
        """Ask the searches given this flag to stop."""

    @property
    def requested(self) -> bool:
        """Has a stop been requested?"""

@final
class BuiltinAI:
    """A built-in AI, callable with the coursework's AI contract."""

    def __new__(
        cls,
        level: int | Literal["random", "baseline", "search"] = 2,
        time: float | None = 1.0,
        seed: int = 0,
        nodes: int | None = None,
        depth: int | None = None,
    ) -> BuiltinAI: ...
    @property
    def level(self) -> int:
        """0 (random), 1 (baseline) or 2 (search)."""

    @property
    def seed(self) -> int:
        """The seed."""

    @property
    def time(self) -> float | None:
        """Seconds per move of the search."""

    @property
    def nodes(self) -> int | None:
        """The node budget per move."""

    @property
    def depth(self) -> int | None:
        """The depth cap."""

    def __call__(
        self,
        current_player: str,
        board: Sequence[str] | str,
        card_a1: _CardSpec,
        card_a2: _CardSpec,
        card_b1: _CardSpec,
        card_b2: _CardSpec,
        side_card: _CardSpec,
        turn: int,
    ) -> _Answer:
        """The AI's answer (card, move_from, move_to, wall_dir)."""

    def choose(self, game: Onitama) -> Action:
        """The action this AI plays in `game`."""

@final
class MatchRecord:
    """The full record of a refereed game."""

    @property
    def setup(self) -> str | None:
        """The setup played, or None."""

    @property
    def start(self) -> str:
        """The start position's notation."""

    @property
    def end(self) -> str:
        """The final position's notation."""

    @property
    def actions(self) -> list[Action]:
        """Every accepted action."""

    @property
    def winner(self) -> Literal["A", "B"] | None:
        """The winner, or None for a tie."""

    @property
    def result(self) -> str:
        """'A won', 'B won' or 'tie' ('interrupted' in an interrupted match's partial record)."""

    @property
    def reason(self) -> Reason:
        """Why the game ended."""

    @property
    def detail(self) -> str:
        """What went wrong, or ''."""

    @property
    def failed(self) -> Literal["A", "B"] | None:
        """The player whose AI failed, or None."""

    @property
    def invalid_answer(self) -> _Answer | None:
        """The rejected answer of an 'invalid_move' game, as given."""

    @property
    def plies(self) -> int:
        """Plies started."""

    @property
    def points(self) -> dict[str, int]:
        """Points by player: 2 a win, 1 a tie, 0 a loss (0 each if interrupted)."""

    def game(self) -> Onitama:
        """The game replayed to its end."""
    def to_json(self, a: str | None = None, b: str | None = None) -> str:
        """The game as saved text: its JSON with the match's result added."""
    @staticmethod
    def from_json(text: str) -> MatchRecord:
        """A record read back from `to_json`'s text."""

def bot_playouts(name: str) -> int | None:
    """The playouts per decision of the bot `name` (MCTS), or None."""

def onitama_play_match(
    ai_a: Callable[..., Any],
    ai_b: Callable[..., Any],
    setup: int | str | Onitama | None = None,
    max_plies: int | None = None,
    time_budget: float | None = None,
) -> MatchRecord:
    """Referee one game between two AIs."""

def onitama_standard_cards() -> list[Card]:
    """The 16 standard cards."""

# Ludo learning environments

__all__ += ["EnvActionError", "LudoEnvCore", "LudoVectorCore"]

class EnvActionError(LudoError):
    """An action a learning environment refuses: not an int, out of range, or not in the
    action mask (the message names the action and the legal ones). Nothing changes."""

_BatchPolicy: TypeAlias = Callable[[NDArray[np.float32], NDArray[np.int8]], object]

_VectorArrays: TypeAlias = tuple[
    NDArray[np.float32],
    NDArray[np.float32],
    NDArray[np.bool_],
    NDArray[np.bool_],
    NDArray[np.int8],
    NDArray[np.float32] | None,
    NDArray[np.bool_] | None,
    NDArray[np.float32] | None,
    NDArray[np.int64] | None,
]

@final
class LudoEnvCore:
    """The environment core: one game whose agents' decisions are the steps."""

    def __new__(
        cls,
        rules: str | None = None,
        players: int | str | Sequence[str] | None = None,
        seed: int | None = None,
        opponents: Sequence[str | None] | None = None,
        skip_forced: bool = False,
        max_rolls: int | None = None,
        learner: int | None = None,
        **options: bool | int | str,
    ) -> LudoEnvCore: ...
    def reset(
        self,
        seed: int | None = None,
        opponent: Callable[[int, NDArray[np.float32], NDArray[np.int8]], SupportsIndex]
        | None = None,
    ) -> None:
        """Start a new episode and play to the first decision (games that end before it
        are skipped); `opponent(player, obs, mask)` plays the other agent players."""

    def step(
        self,
        action: SupportsIndex,
        opponent: Callable[[int, NDArray[np.float32], NDArray[np.int8]], SupportsIndex]
        | None = None,
    ) -> None:
        """Move token `action` of the player to move, then play on."""

    def check(self, action: SupportsIndex) -> None:
        """Check `action` for the player to move, changing nothing."""

    def snapshot(self) -> str:
        """The environment's state as one line of text."""

    def load_snapshot(self, text: str) -> None:
        """Put the environment in the state `snapshot()` wrote."""

    @property
    def skipped_games(self) -> int:
        """Games played out and not handed out as episodes."""

    @property
    def skipped_rewards(self) -> list[float]:
        """Every player's rewards in the skipped games, added up."""

    @property
    def status(self) -> Literal["decision", "terminated", "truncated", "idle"]:
        """Where the episode stands."""

    @property
    def to_move(self) -> int | None:
        """The player who must choose, or None."""

    @property
    def players(self) -> list[str]:
        """The positions that play, in turn order."""

    @property
    def tokens(self) -> int:
        """Tokens per player (the number of actions)."""

    @property
    def observation_len(self) -> int:
        """The length of an observation."""

    @property
    def rolls(self) -> int:
        """Die rolls made in this episode."""

    def observe(self, player: int) -> NDArray[np.float32]:
        """`player`'s observation."""

    def action_mask(self, player: int) -> NDArray[np.int8]:
        """`player`'s action mask."""

    @property
    def rewards(self) -> list[float]:
        """Every player's reward."""

    def render_text(self) -> str:
        """The board as text."""

    def render_svg(self) -> str:
        """The board as an SVG picture."""

    @property
    def rules_notation(self) -> str:
        """The rule set as notation."""

@final
class LudoVectorCore:
    """Many single-learner environments stepped together in Rust, with same-step autoreset."""

    def __new__(
        cls,
        num_envs: int,
        rules: str | None = None,
        players: int | str | Sequence[str] | None = None,
        seat: int | Literal["all"] | None = None,
        opponents: str | Sequence[str | None] | None = None,
        seed: int | None = None,
        skip_forced: bool = False,
        max_rolls: int | None = None,
        threads: int | None = None,
        autoreset: object = None,
        **options: bool | int | str,
    ) -> LudoVectorCore: ...
    def reset(
        self, seeds: Sequence[int] | None = None, opponents: _BatchPolicy | None = None
    ) -> _VectorArrays:
        """Reset every environment: (obs, rewards, terminated, truncated, masks, None, None)."""

    def step(
        self, actions: NDArray[np.int64], opponents: _BatchPolicy | None = None
    ) -> _VectorArrays:
        """Step every environment: (obs, rewards, terminated, truncated, masks, final_obs,
        ended), the last two None unless an episode ended."""

    def snapshots(self) -> list[str]:
        """Every environment's state as a line of text."""

    def load_snapshots(self, snapshots: Sequence[str]) -> None:
        """Put every environment in the state `snapshots()` wrote."""

    @property
    def has_opponents(self) -> bool:
        """Does some player need the opponents' policy?"""

    @property
    def autoreset(self) -> Literal["next_step", "same_step"]:
        """When an environment whose episode ended starts the next."""

    @property
    def skipped_games(self) -> int:
        """Games played out and not handed out as episodes."""

    @property
    def skipped_reward(self) -> float:
        """The learner's rewards in the skipped games, added up."""

    @property
    def num_envs(self) -> int:
        """The number of environments."""

    @property
    def observation_len(self) -> int:
        """The length of an observation."""

    @property
    def tokens(self) -> int:
        """Tokens per player."""

    @property
    def threads(self) -> int:
        """The threads a step uses."""

# Pictures as pixels (the environments' "rgb_array" frames)

__all__ += ["InvalidSvgError", "svg_to_rgb"]

class InvalidSvgError(LudoError):
    """Text that is not an SVG picture that can be drawn (bad XML, no <svg> root, no size)."""

def svg_to_rgb(svg: str, scale: float = 1.0) -> npt.NDArray[np.uint8]:
    """The SVG picture drawn at `scale` times its size: uint8 of shape (height, width, 3)."""
