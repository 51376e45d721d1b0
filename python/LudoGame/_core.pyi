"""Type stubs of the compiled core of LudoGame (built from src/python/ by maturin).

One file for the one compiled module, both games' classes (hence its length); the per-game
Python modules re-export from it."""

from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, SupportsIndex, TypeAlias, TypedDict, final, type_check_only

import numpy as np
import numpy.typing as npt
from numpy.typing import NDArray
from typing_extensions import Self, deprecated

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
#: Games a simulation plays when none are said (`Simulation.run`, `simulate`, `tournament`).
SIM_COUNT: int
#: Threads a simulation plays on when none are said.
SIM_THREADS: int
#: Every player's bot of a simulation when none is said.
SIM_BOT: str
#: A simulation's seed when none is named (`Simulation`, `simulate`, `tournament`, `ludo
#: simulate`): fixed, so that the same run repeats; `Simulation(seed=None)` draws a fresh one.
SIM_SEED: int
#: The bot `Game.best_move` asks when none is named.
BEST_MOVE_BOT: str
#: The bot of a learner's opponents when none is said.
ENV_OPPONENT: str
#: Threads a vector environment steps on when none are said.
ENV_THREADS: int
#: When a vector environment's ended episode restarts when none is said ('next_step').
ENV_AUTORESET: str

@type_check_only
class _AISettings(TypedDict):
    level: int
    time: float | None
    seed: int
    nodes: int | None
    depth: int | None
    threads: int

#: A built-in Onitama AI's settings when none are said (`BuiltinAI`, `Onitama.best_move`,
#: `Onitama.analyse`, `builtin_ai`).
ONITAMA_AI_SETTINGS: _AISettings
#: The Onitama setup a refereed match starts from when none is said.
ONITAMA_MATCH_SETUP: str
#: The coursework's Part 1 program's words by name ("card_prompt", "your_turn", ...) and its
#: referee's last line when an AI fails ("ai_invalid", "ai_error"), the variable parts as
#: {player}, {n}, {answer}, {winner} and {loser}.
ONITAMA_TEXTS: dict[str, str]
#: The coursework's ply limit of a game.
ONITAMA_DEFAULT_PLIES: int
#: The card sets a random standard Onitama deal draws from: ('base', 'sensei', 'all').
ONITAMA_CARD_SETS: tuple[str, ...]
#: The CS162 decisions D1-D13 of docs/rules.md: (id, what it decides, whether it is open).
CS162_DECISIONS: tuple[tuple[str, str, bool], ...]
#: D9's priority rules in order: ("D9.1", what rule 1 says), ... ("D9.4", ...).
CS162_PRIORITY_RULES: tuple[tuple[str, str], ...]
#: Every reading of an open decision the engine plays: (decision, option, value, what it
#: does, the published cases that rule it out or ""); the first value of each option is the
#: engine's own (`LudoGame(option=value)` plays another).
CS162_READINGS: tuple[tuple[str, str, str, str, str], ...]
#: The command that installs the learning environments' extra (NumPy, Gymnasium,
#: PettingZoo); `LudoGame._install.install_hint("rl")` gives it.
RL_INSTALL: str

def install_hint(extra: str) -> str:
    """The command that installs the optional part `extra` of LudoGame ('web', 'postgres',
    'ray', 'rl', 'test'), in the one spelling every message uses.
    """

__all__ = ["Action", "BuiltinAI", "Card", "MatchRecord", "ForeignPlayerError", "Interrupted"]
__all__ += ["InvalidArgumentError", "Game", "GameOverError", "IllegalActionError"]
__all__ += ["IllegalMoveError", "InvalidAIError", "InvalidActionError", "InvalidBoardError"]
__all__ += ["InvalidBotError", "InvalidCardError", "InvalidNotationError", "InvalidPlayersError"]
__all__ += ["InvalidPositionError", "InvalidRollError", "InvalidRulesError", "InvalidSquareError"]
__all__ += ["InvalidStepsError", "InvalidTokenError", "InvalidTurnError", "LudoError", "LudoGame"]
__all__ += ["Move", "NoGameError", "Onitama", "OnitamaError", "OnitamaGameOverError"]
__all__ += ["OnitamaNotationError", "Player", "SearchStop", "SimResult", "Simulation"]
__all__ += ["UnknownSetupError", "bot_playouts", "onitama_play_match", "onitama_standard_cards"]
__all__ += ["__version__", "ENV_MAX_ROLLS", "ENV_PLAYERS", "ENV_TABLE_PLAYERS", "MAX_ROLLS"]
__all__ += ["ONITAMA_CARD_SETS", "ONITAMA_DEFAULT_PLIES", "ONITAMA_MATCH_SETUP", "ONITAMA_TEXTS"]
__all__ += ["BEST_MOVE_BOT", "ENV_AUTORESET", "ENV_OPPONENT", "ENV_THREADS", "ONITAMA_AI_SETTINGS"]
__all__ += ["SIM_BOT", "SIM_COUNT", "SIM_SEED", "SIM_THREADS"]
__all__ += ["CS162_DECISIONS", "CS162_PRIORITY_RULES", "CS162_READINGS"]
__all__ += ["EndgameTable", "PonderHit", "RL_INSTALL", "install_hint"]

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
    """A number argument outside its range (a game count, a seed, a thread count, ...); the message names the argument and the range."""

#: What Ctrl-C in a long call raises: `KeyboardInterrupt` itself (an uncaught one exits 130),
#: with a `partial` attribute holding what the call had finished (e.g. the SimResult of the
#: games played), or None; read it with `getattr(e, "partial", None)`.
Interrupted = KeyboardInterrupt

class InvalidNotationError(LudoError):
    """Text that is not a valid position, rule set or game record notation."""

_Turn = tuple[str, SupportsIndex] | Sequence[str | SupportsIndex]

@type_check_only
class _RuleSet:
    """What plays by a Ludo rule set (`Game`, `Simulation`, `SimResult`) says which."""

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

@type_check_only
class _Bots(_RuleSet):
    @property
    def bots(self) -> list[str]:
        """The bots' names, one per player."""

@type_check_only
class _Copies:
    """A game that copies itself with its history (`copy`, `copy.copy`, `copy.deepcopy`)."""

    def copy(self) -> Self:
        """An independent copy, with its history."""

    def __copy__(self) -> Self: ...
    def __deepcopy__(self, memo: object, /) -> Self: ...
    def __eq__(self, other: object, /) -> bool: ...
    def _repr_svg_(self) -> str:
        """The board as an SVG image (shown by Jupyter notebooks)."""

@final
class LudoGame:
    """A game of CS162 Ludo: two to four players at positions 'A'-'D', two tokens each.

    `play_game(players, turns)` plays a whole list of rolls with the assignment's priority
    rule and returns every token's space; `get_player_by_position` gives live `Player`
    views of that game; `move_token` moves one named token.

    `LudoGame()` reads every decision of docs/rules.md as the engine does. Keyword
    arguments choose another reading of the decisions the assignment leaves open (their
    names and values: `LudoGame.CS162_READINGS`), e.g. `LudoGame(kick="one")`.
    """

    def __new__(cls, **readings: str) -> LudoGame: ...
    def play_game(self, players: Iterable[str], turns: Iterable[_Turn]) -> list[str]:
        """Play a new game: `players` is a list of positions (e.g. `['A', 'C']`), `turns` a list
        of `(position, roll)` tuples applied in order with the priority rule. Returns the
        space of each player's `p` then `q` token, players in the order given (D3).

        Raises a `LudoError` (or `TypeError`) for bad input, leaving the previous game as it
        was (D13).
        """

    def trace_game(self, players: Iterable[str], turns: Iterable[_Turn]) -> list[list[str]]:
        """Play a new game as `play_game` does (not part of the assignment), and return the
        decisions of docs/rules.md each turn touched, e.g. `('D4', 'D9.1')`: D4 a token in
        the yard, D5 a bounce, a finish, a move from 'R' or a finished token (or any plain
        move), D6 'R' beside a kick or a stack, D7 a kick or an opponent passed over, D8 a
        stack, D9.1-D9.4 the priority rule that chose between two tokens, D10 a finished
        player's turn.
        """

    @property
    def readings(self) -> dict[str, str]:
        """The reading of every open decision this game plays by: each option of
        `CS162_READINGS` and its value.
        """

    def get_player_by_position(self, position: object) -> Player | str:
        """The `Player` at `position` ('A'-'D') in the current game, the same object every
        time; the string "Player not found!" for any other value (D2).
        """

    def move_token(self, player: Player | str, token_name: str, steps: SupportsIndex) -> None:
        """Move `player`'s token `token_name` ('p' or 'q') `steps` forward (D12): from the yard
        only a 6 moves it (to 'R'); a stacked pair moves together; a move past 'E' bounces
        back; opponents on the landing space are kicked home. `player` is a `Player` of this
        game (or its position); `steps` is 1-57. Returns None.
        """

    def play_turn(self, position: str, roll: SupportsIndex) -> str | None:
        """Apply one more roll to the current game with the priority rule, as one turn of
        `play_game` would (not part of the assignment). Returns the names of the tokens that
        moved ('p', 'q', or 'pq' for a stacked pair), or None when nothing moved.
        """

    @property
    def players(self) -> list[Player]:
        """The players of the current game, in the order of the players list."""

    def get_spaces(self) -> list[str]:
        """The space of every token, as `play_game` returned it, for the current game."""

    def _repr_svg_(self) -> str:
        """The board of the current game as an SVG image (shown by Jupyter notebooks)."""

@final
class Player:
    """One player of a game: its position, start and end spaces, and its tokens `p` and `q`.
    A Player is a live view: it always shows the game it belongs to as it is now.
    """

    def __new__(cls, position: str) -> Player: ...
    def get_completed(self) -> bool:
        """True when both tokens have reached the finishing square 'E', else False."""

    def get_token_p_step_count(self) -> int:
        """Total steps of token p: -1 in the home yard, 0 ready to go, up to 57 finished."""

    def get_token_q_step_count(self) -> int:
        """Total steps of token q: -1 in the home yard, 0 ready to go, up to 57 finished."""

    def get_space_name(self, steps: SupportsIndex) -> str:
        """The name of the space this player's token stands on after `steps` total steps:
        'H' (-1), 'R' (0), the track space '1'-'56', a home square such as 'A1'-'A6', or
        'E' (57) (D1). Raises ValueError for steps outside -1..57.
        """

    @property
    def position(self) -> str:
        """The position, 'A'-'D'."""

    @property
    def start_space(self) -> int:
        """The track space where this player's tokens enter the board (A 1, B 15, C 29, D 43)."""

    @property
    def end_space(self) -> int:
        """The last track space before this player's home squares (A 50, B 8, C 22, D 36)."""

    @property
    def completed(self) -> bool:
        """Same as `get_completed()`."""

    @property
    def steps(self) -> tuple[int, int]:
        """Step counts of `(p, q)`."""

    @property
    def spaces(self) -> tuple[str, str]:
        """Space names of `(p, q)`."""

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
        """The move's name, as `Game.play` accepts it: e.g. 'Ap', 'C3', 'a'."""

@final
class Game(_RuleSet, _Copies):
    """A game of Ludo played move by move, over the "cs162", "standard" or "gt" rules.

    `Game(rules="cs162", players="AB", seed=None, **options)`: players are positions
    ('A'-'D', as a string such as "AC" or a list) or a number of players; the seed makes
    the die reproducible (a random one is chosen and kept in `seed` when omitted); options
    change the preset's rules (tokens, overshoot, own_tokens, forced_entry, six_bonus,
    six_limit, capture_bonus, finish_bonus, safe_squares, end).
    """

    def __new__(
        cls,
        rules: str = "cs162",
        players: str | Iterable[str] | int | None = None,
        seed: int | None = None,
        **options: bool | int | str,
    ) -> Game: ...
    @property
    def seed(self) -> int | None:
        """The die's seed (None for a game read from a position notation that writes the die's
        state, without a seed).
        """

    def to_notation(self, hide_die: bool = False) -> str:
        """The position as one line of text (rules, tokens, turn, ranking, die state), e.g.
        'cs162 A28.28/B21.-1 A:r:0:0 - - 000000000000002a'. With `hide_die` the die's state
        is written '-': a position to show players who must not know the coming rolls.
        """

    @staticmethod
    def from_notation(text: str, seed: int | None = None) -> Game:
        """A game starting at a position written by `to_notation` (with no history). With
        `seed`, the die is seeded with it instead of taking the state written (and `seed`
        keeps it); a position whose die is hidden ('-') gets a random seed when none is
        given, as `Game()` does.
        """

    @property
    def moves(self) -> str:
        """Every roll and move so far as text, e.g. '6 Ap 4 Ap =3' ('=' marks a value given
        to `roll` instead of rolled).
        """

    def to_json(self, hide_die: bool = False) -> str:
        """The whole game (start position, seed, every roll and move) as a JSON string. With
        `hide_die`, without the die: the seed null, the die's state '-' in both positions and
        every roll a given value ('=6'), for players who must not know the coming rolls.
        """

    @staticmethod
    def from_json(text: str, seed: int | None = None) -> Game:
        """A game read from `to_json`'s output: the moves are replayed and checked. `format`,
        `start` and `moves` are required strings; `position`, when present, must be the
        string of the position the moves reach; `seed`, when not null, must be the seed that
        gives the start position's die state. With `seed`, the game plays on with a die
        seeded with it (the saved rolls, checked against the saved die, become given
        values); a save whose die is hidden gets a random seed when none is given.
        """

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
        """Roll the die: the seeded die, or `value` (1-6) for replays and tests. Returns the
        value. When no token can move the turn passes at once (see `status`).
        """

    @property
    def legal_moves(self) -> list[Move]:
        """The legal moves now (empty unless the phase is 'move'); a stack is one move."""

    @property
    def tokens_to_move(self) -> list[str]:
        """The names of the tokens that may move now (every token of a stack)."""

    def play(self, mv: Move | str) -> None:
        """Play a move: a `Move` from `legal_moves`, or its name ('p', 'Ap', 'a', ...)."""

    def is_over(self) -> bool:
        """Is the game over?"""

    @property
    def winner(self) -> str | None:
        """The first player to bring every token home; None before anyone has (where the GT
        original shows 'No one').
        """

    def outcome(self) -> Outcome | None:
        """How the game ended (an `Outcome`: termination, winner, ranking), or None while it
        goes on.
        """

    @property
    def ranking(self) -> list[str]:
        """The finishing order so far."""

    @property
    def status(self) -> str:
        """The status line: "Player A to roll the die.", "Player A to move.", "Player A cannot
        move. Player B to roll the die.", "Player A has won!".
        """

    @property
    def steps(self) -> dict[str, list[int]]:
        """Step counts of every player's tokens: {'A': [p, q], ...}; negative in the yard."""

    @property
    def squares(self) -> dict[str, list[str]]:
        """Every player's tokens' squares, named in the rule set's own numbering:
        {'A': ['41', '42'], ...}. GT: play squares '1'-'40', start slots '41'-'48', goal
        squares '49'-'56'. CS162 and standard: 'H' the yard, 'R' CS162's ready space, the
        track '1'-'56' (CS162) or '1'-'52' (standard, counted from A's start), 'A1'... the
        home column, 'E' the end.
        """

    @property
    def history(self) -> list[RollEvent | MoveEvent]:
        """Every roll and move so far, oldest first: `RollEvent`s and `MoveEvent`s (dicts with
        typed attributes) with their effects."""

    def history_since(self, start: int) -> list[RollEvent | MoveEvent]:
        """The entries of `history` from index `start` on (`history[start:]` without making
        the ones before it; empty past the end): what a client that has the first `start`
        lacks. A negative `start` is an `InvalidArgumentError`."""

    def best_move(
        self, bot: str = "expectimax", seed: int | None = None, stop: SearchStop | None = None
    ) -> Move:
        """The move a built-in bot would play now: `bot` is a name such as "cs162", "safe",
        "expectimax:3" or "mcts:2000"; `seed` makes random bots reproducible. `stop`, a
        `SearchStop`, ends a search early from another thread (within about 20 ms of its
        `request()`): the answer is then the best move found so far.
        """

    def autoplay(
        self, bots: Any, seed: int | None = None, max_rolls: int | None = None
    ) -> str | None:
        """Play on with bots until the game is over (or `max_rolls` more rolls): `bots` maps
        each position to a bot name or a Python callable `bot(game) -> Move | str`
        (a dict, or a list in turn order). Rolls use the seeded die. Returns the winner.

        All or nothing: when it raises (a bot fails, Ctrl-C), the game is left as it was.
        After Ctrl-C the `KeyboardInterrupt`'s `partial` is a copy of the game as far as it
        got. The game object is not locked while bots think: a bot may read it (it still
        shows the position before autoplay), and if anything else changes it meanwhile,
        autoplay raises instead of overwriting that change.
        """

    def undo(self) -> RollEvent | MoveEvent:
        """Take back the last roll or move; returns it (the history entry it removes)."""

_Bot = str | Callable[[Game], Move | str]

@final
class Simulation(_Bots):
    """A batch of whole games between bots, played in Rust.

    `Simulation(rules="cs162", players=None, bots="random", seed=0, **options)`: players as
    for `Game` (by default A and C, all four for "gt"), one bot for everyone or one per player;
    the seed by default `SIM_SEED` (0), so that the same run repeats, and `seed=None` a fresh
    one, as `Game`'s (kept in `seed`).
    `run(start, count, threads=1)` plays games `start..start+count` and returns a
    `SimResult`. Game i always gets the same dice and bot randomness, so results do not
    depend on the thread count or on how the run is split into chunks.
    """

    def __new__(
        cls,
        rules: str = "cs162",
        players: str | Iterable[str] | int | None = None,
        bots: _Bot | Sequence[_Bot] | Mapping[str, _Bot] | None = None,
        seed: int | None = 0,
        **options: bool | int | str,
    ) -> Simulation: ...
    @property
    def seed(self) -> int:
        """The run's seed (the one drawn for `seed=None`)."""

    def run(
        self, start: int | None = None, count: int | None = None, threads: int | None = None
    ) -> SimResult:
        """Play games `start..start+count` on `threads` threads, with the interpreter released
        (Python bots run on one thread, holding it). Ctrl-C stops the run within a moment
        and raises `KeyboardInterrupt` (`Interrupted`) whose `partial` is the `SimResult`
        of the games from `start` that finished.
        """

@final
class SimResult(_Bots):
    """The results of a simulation: wins per player, game lengths, finishing orders and
    captures, the per-game data in compact arrays (`array.array`).
    """

    @property
    def games(self) -> int:
        """Number of games."""

    @property
    def wins(self) -> dict[str, int]:
        """Games won by each player: {'A': 250, ...}."""

    @property
    def unfinished(self) -> int:
        """Games cut off after `MAX_ROLLS` rolls without a result."""

    @property
    def lengths(self) -> array[int]:
        """Die rolls per game (array of unsigned ints)."""

    @property
    def captures(self) -> array[int]:
        """Captures per game (array of unsigned shorts)."""

    @property
    def finishing(self) -> array[int]:
        """The finishing order of every game: `len(players)` seat numbers (0 = 'A' ... 3 = 'D')
        per game, best first (255: unranked in a cut-off game), as one flat byte array.
        """

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
        """How many games took each number of rolls: {rolls: games}."""

    @property
    def mean_captures(self) -> float:
        """Mean captures per game."""

    def __add__(self, other: SimResult, /) -> SimResult: ...
    def __radd__(self, other: SimResult, /) -> SimResult: ...

# ---- Onitama with a movable wall (LudoGame.onitama re-exports these) ----

class OnitamaError(LudoError):
    """Base class of every error of the Onitama game (LudoGame.onitama): bad input or a move the rules refuse."""

class InvalidSquareError(OnitamaError):
    """A square name that is not a1..e5."""

class InvalidCardError(OnitamaError):
    """A card that is not a standard card's name or a 5x5 pattern with exactly one 'o', or a bad set of five cards."""

class InvalidBoardError(OnitamaError):
    """A board, side to move or ply count that does not make a valid Onitama position."""

class InvalidActionError(OnitamaError):
    """Text that is not an action such as '1 e2 d3 u', '2 c3 a3 -' or '1 XX XX s'."""

class IllegalActionError(OnitamaError):
    """An action the rules do not allow in the position (the message says why), or nothing to undo."""

class OnitamaGameOverError(OnitamaError, GameOverError):
    """A move asked for after the Onitama game is over (won, or no plies left); an OnitamaError and a GameOverError."""

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
    """A movement card: a 5x5 pattern with one 'o' (the pawn) and 'x' marks (where it may
    jump), in its holder's view (B applies it rotated 180 degrees).

    `Card(spec)`: a standard card's name ('Tiger', any case), a pattern with rows separated
    by '/', or 5 row strings. Two cards are equal when they have the same moves, whatever
    the position of the 'o' or the filler characters.
    """

    def __new__(cls, spec: _CardSpec) -> Card: ...
    @property
    def name(self) -> str | None:
        """The standard card's name ('Tiger', 'Sea Snake', ...) if it has the same moves as one
        of the 16 base cards or the 16 Sensei's Path cards, else None.
        """

    @property
    def rows(self) -> list[str]:
        """The 5 rows as given (drawn this way)."""

    @property
    def pattern(self) -> str:
        """The canonical pattern, rows separated by '/' (the 'o' as central as possible)."""

    @property
    def offsets(self) -> list[tuple[int, int]]:
        """The holder-view moves as (drow, dcol): drow -1 is one row up (toward row a)."""

    def moves(self, player: str) -> list[tuple[int, int]]:
        """The moves of `player` ('A' or 'B') on the board, as (drow, dcol): B's are negated."""

    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, tuple[list[str]]]: ...

@final
class Action:
    """One ply: a card slot (1 or 2), a pawn move and a wall step. Written '1 e2 d3 u'; a
    winning move has no wall step ('2 c3 a3 -'); a pass, only when no pawn can move, is
    '1 XX XX s'. In standard Onitama (no wall) an action is '1 e2 d3' (a winning move
    too), or '1 XX XX' when no pawn can move. `Action(text)` reads either form.
    """

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
        """The wall step: 'u', 'r', 'd', 'l' or 's'; None for a winning move (the game ends)
        and for every action of standard Onitama (no wall).
        """

    @property
    def is_pass(self) -> bool:
        """Is this a pass (no pawn could move)?"""

    @property
    def is_win(self) -> bool:
        """Does this move win (and end the game)?"""

    @property
    def standard(self) -> bool:
        """Is this an action of standard Onitama (written without a wall step)?"""

    @property
    def answer(self) -> _Answer:
        """The answer an AI returns for it: (card, move_from, move_to, wall_dir), with wall 's'
        for a winning move (the referee never reads it).
        """

    def __reduce__(self) -> tuple[Any, tuple[str]]: ...

_Level: TypeAlias = int | Literal["random", "baseline", "search"]

@final
class Onitama(_Copies):
    """A game of Onitama with a movable wall, played action by action.

    `Onitama(board=None, cards=None, to_move='A', max_plies=20)`: the board as 5 strings
    (row a, B's home row, first; 'A' 'a' 'B' 'b' 'W', space or '.' for empty) or one string
    with the rows separated by '/'; the cards as a dict with keys A1, A2, B1, B2, side (or
    a list in that order) of standard card names or 5-row patterns in the holder's view;
    the side to move; and the number of plies left (both players' plies count). Board and
    cards default to setup 22's (the README's start board). `Onitama.setup(21)` starts a
    coursework setup.
    """

    def __new__(
        cls,
        board: str | Sequence[str] | None = None,
        cards: Mapping[str, _CardSpec] | Sequence[_CardSpec] | None = None,
        to_move: str | None = "A",
        max_plies: int | None = 20,
    ) -> Onitama: ...
    @staticmethod
    def setup(id: int | str, max_plies: int | None = None) -> Onitama:
        """A coursework setup by id: 11, 12, 13, 21, 22, 23, 1-5 (the Part 1 cases), or a
        name such as 'case21', 'aitest1_A', 'basic43_B', 'readme_start'. `max_plies`
        replaces the setup's own ply limit (20 where it gives none).
        """

    @staticmethod
    def setup_ids() -> list[str]:
        """The ids of every setup, as `setup` accepts them ('1', ..., '23', 'aitest1_A', ...)."""

    @property
    def setup_id(self) -> str | None:
        """The setup this game started from ('case21', ...), or None."""

    @property
    def board(self) -> list[str]:
        """The board: 5 strings, row a first ('A' 'a' 'B' 'b' 'W', space for empty)."""

    @property
    def cards(self) -> dict[str, Card]:
        """The five cards {'A1', 'A2', 'B1', 'B2', 'side'} in their holders' view."""

    @property
    def turn(self) -> str:
        """The player to move: 'A' or 'B'."""

    @property
    def plies_left(self) -> int:
        """Plies left, counting the coming one (the AI contract's `turn` argument); 0 once
        nobody may move any more.
        """

    @property
    def history(self) -> list[Action]:
        """The actions played so far, oldest first (as Ludo's `Game.history`)."""

    @property
    def legal_moves(self) -> list[Action]:
        """Every legal action now (empty once the game is over), in generator order (as Ludo's
        `Game.legal_moves`).
        """

    @property
    @deprecated("use Onitama.history")
    def actions(self) -> list[Action]:
        """Deprecated: the old name of `history`."""

    @property
    @deprecated("use Onitama.legal_moves")
    def legal_actions(self) -> list[Action]:
        """Deprecated: the old name of `legal_moves`."""

    def play(self, action: Action | str | tuple[int, str, str, str]) -> Action:
        """Play an action: an `Action`, its text ('1 e2 d3 u'), or an AI answer tuple
        (card, move_from, move_to, wall_dir) judged as the referee does. Returns the action
        played. Refused (nothing changes) when illegal or when the game is over.
        """

    def judge(self, card: int, move_from: str, move_to: str, wall_dir: str) -> Action:
        """Judge an AI answer exactly as the tournament referee does: the legal action it
        stands for, or IllegalActionError whose message is the referee's reason ('You have
        no pawn at e3.', ...). Nothing is played.
        """

    def judge_typed(
        self, card: str, move_from: str | None = None, move_to: str | None = None
    ) -> Action | None:
        """Judge a ply as a player types it at the Part 1 program's prompts, part by part: the
        card text ('1' or '2'), then with `move_from`, then with `move_to`. Raises
        IllegalActionError with the program's message for the first wrong part; returns None
        while the move is not complete, then its action with the wall staying (a winning
        move has none). A pass needs only the card. Nothing is played.
        """

    def undo(self) -> Action:
        """Take back the last action; returns it."""

    def is_over(self) -> bool:
        """Is the game over (won, or no plies left)?"""

    @property
    def winner(self) -> Literal["A", "B"] | None:
        """The winner, 'A' or 'B', or None (still playing, or a tie)."""

    @property
    def result_reason(self) -> Reason | None:
        """How the game ended: `Reason.BASE_REACHED`, `Reason.GENERAL_CAPTURED`,
        `Reason.PLY_LIMIT` (a tie), or None while it goes on.
        """

    def move_listing(self) -> list[str]:
        """The coursework program's "0" listing of the moves now: `Card 1, e2->d3`, by card,
        then start and target square in MATLAB's column-major order.
        """
    def capture_message(self, action: Action | str) -> str | None:
        """The coursework program's words for `action` (not yet played) when its pawn move
        captures a soldier, else None.
        """
    def outcome(self) -> Outcome | None:
        """How the game ended (an `Outcome`: termination, winner, ranking), or None while it
        goes on.
        """
    def win_message(self) -> str | None:
        """The coursework program's words for the winner of a won game, else None."""
    @property
    def status(self) -> str:
        """A sentence on where the game stands, e.g. 'Player A to move, 20 plies left.'."""

    def ai_arguments(self) -> _AIArgs:
        """The arguments an AI is called with now: (current_player, board, cardA1, cardA2,
        cardB1, cardB2, side_card, turn).
        """

    def best_move(
        self,
        level: _Level = 2,
        time: float | None = 1.0,
        seed: int = 0,
        nodes: int | None = None,
        depth: int | None = None,
        threads: int = 1,
    ) -> Action:
        """The action a built-in AI plays now (see `BuiltinAI`): level 0 random, 1 the
        coursework baseline, 2 the search (with `time` seconds, or deterministic with a
        `nodes` budget on one thread; `threads` searches on that many). As Ludo's
        `Game.best_move`.
        """

    @deprecated("use Onitama.best_move")
    def best_action(
        self,
        level: _Level = 2,
        time: float | None = 1.0,
        seed: int = 0,
        nodes: int | None = None,
        depth: int | None = None,
        threads: int = 1,
    ) -> Action:
        """Deprecated: the old name of `best_move`."""

    def analyse(
        self,
        level: _Level = 2,
        time: float | None = 1.0,
        seed: int = 0,
        nodes: int | None = None,
        depth: int | None = None,
        stop: SearchStop | None = None,
        threads: int = 1,
    ) -> dict[str, Any]:
        """What a built-in AI finds now, as a dict: action, score (for the side to move; above
        29000 a forced win, below -29000 a forced loss), depth, nodes, exact, pv (the
        expected line). `stop`, a `SearchStop`, ends the search early from another thread
        (within about 20 ms of its `request()`): the answer is then the best action found so
        far. `time=None` with no `nodes` nor `depth` searches until stopped (or the ply
        horizon). `threads` searches on that many threads sharing one table (the nodes are
        every thread's).
        """

    def perft(self, depth: int) -> int:
        """The number of action sequences of `depth` plies (a winning action counts 1 and
        ends its sequence), as in the golden data's perft.json. The game is not borrowed
        meanwhile (the count runs on a copy of the position).
        """

    def to_notation(self) -> str:
        """The position as one line of text, e.g.
        'bbBbb/...../W..../...../aaAaa A n=20 A1:Monkey A2:Crane B1:Boar B2:Ox side:Tiger'.
        A card drawn otherwise than its name's (or canonical pattern's) rows is written as
        drawn (a space as '_', '_' '%' '/' quotes, backslash and non-ASCII as %XX), so that
        `from_notation` gives back the same cards, drawn the same way.
        """

    @staticmethod
    def from_notation(text: str) -> Onitama:
        """A game starting at a position written by `to_notation` (no history), its cards
        drawn as written.
        """

    def to_json(self) -> str:
        """The whole game (start, setup, card drawings, every action) as a JSON string."""

    @staticmethod
    def from_json(text: str) -> Onitama:
        """A game read from `to_json`'s output: the actions are replayed and checked, and a
        `setup` id whose position is not the JSON's `start` (its ply limit aside) is refused.
        """

    def __reduce__(self) -> tuple[Any, tuple[str]]: ...
    def draw(self, player: str | None = None) -> str:
        """The board and the five cards drawn as the coursework programs do, the side card as
        `player` sees it (default: the player to move).
        """

    # Onitama learning environment (LudoGame.envs.onitama_v0 is built on these)
    ACTION_COUNT: int
    OBSERVATION_SHAPE: tuple[int, int, int]
    @staticmethod
    def dealt(seed: int, max_plies: int | None = None) -> Onitama:
        """The default start board (setup 22's) with five different standard cards dealt at
        random from `seed` (the same seed deals the same cards), A to move.
        """

    @staticmethod
    def standard(
        cards: Mapping[str, _CardSpec] | Sequence[_CardSpec] | None = None,
        first: str | None = None,
        seed: int | None = None,
        max_plies: int | None = None,
        card_set: str | None = None,
    ) -> Onitama:
        """A game of standard Onitama (no wall; see docs/rules.md): either `cards`, the five
        cards A1, A2, B1, B2, side (a list, or a dict with those keys; names of base or
        Sensei's Path cards, or patterns, all different) with `first` ('A' or 'B', default
        'A') to move, or `seed` for five cards dealt at random from `card_set` ('base', the
        16 base cards, the default; 'sensei', the 16 Sensei's Path cards; or 'all' 32), the
        side card's stamp colour deciding who moves first (blue A, red B). A starts on row
        e, B on row a. `max_plies` (default 1000) ends the game in a tie.
        """

    def at_start(self) -> Onitama:
        """This game taken back to its start: a new `Onitama` at the start position, with no
        history, from the same setup (its cards drawn the same way).
        """

    @property
    def first_turn(self) -> Literal["A", "B"]:
        """The player who moved first (to move at the start): 'A' or 'B'."""

    @property
    def rules(self) -> str:
        """The rules: 'wall' (the coursework's variant) or 'standard' (no wall)."""

    def action_index(self, action: Action | str) -> int:
        """The number of `action` for the player to move (0 to 7509): a pawn move is
        ((slot * 25 + from) * 25 + to) * 6 + wall, a pass 7500 + slot * 5 + wall, with slot
        0 or 1, squares row * 5 + col and the wall step 0-4 (u r d l s) in the mover's view
        (turned 180 degrees for B), and wall 5 for a winning move. Legal or not.
        """

    def action_of(self, index: SupportsIndex) -> Action:
        """The action numbered `index` for the player to move (the inverse of
        `action_index`); it may be illegal. InvalidActionError for a bad number.
        """

    def legal_action_indices(self) -> list[int]:
        """The numbers of the legal actions, ascending (empty once the game is over)."""

    def action_mask(self) -> npt.NDArray[np.int8]:
        """The legal-action mask: a NumPy int8 array of 7510 entries, 1 at the number of every
        legal action (all 0 once the game is over).
        """

    def observation(self, player: str | None = None) -> npt.NDArray[np.float32]:
        """The position as `player` sees it (default: the player to move): a NumPy float32
        array of shape (11, 5, 5), the board turned 180 degrees for B. Planes: own general,
        own soldiers, opponent's general, opponent's soldiers, the wall; own cards 1 and 2,
        opponent's cards 1 and 2, the side card (1 on each target, -1 on the pawn's
        square, as its holder moves on this board); 1 / plies left.
        """

    def play_index(self, index: SupportsIndex) -> Action:
        """Play the legal action numbered `index` (see `action_index`); returns it. A number
        that is not an int from 0 to 7509 is an InvalidActionError, one not legal now an
        IllegalActionError (both name the legal numbers); nothing changes then.
        """

    def rgb_array(self) -> npt.NDArray[np.uint8]:
        """The position as a small RGB picture: a NumPy uint8 array of shape (216, 320, 3),
        the board as `draw()` shows it (A red, B blue, the wall dark grey) and the cards.
        """

@final
class SearchStop:
    """A flag that stops a search from another thread: pass it as `Onitama.analyse(...,
    stop=flag)` or `Game.best_move(..., stop=flag)` and call `flag.request()` (the `onitama
    engine`'s `stop` command does). A flag stays set once requested; use a new one for each
    search.
    """

    def __new__(cls) -> SearchStop: ...
    def request(self) -> None:
        """Ask the searches given this flag to stop (they answer their best action so far)."""

    @property
    def requested(self) -> bool:
        """Has a stop been requested?"""

@final
class PonderHit:
    """The *ponderhit* of a pondering search: pass it as `BuiltinAI.analyse(game,
    ponder=flag)`, and call `flag.request()` when the expected reply was played (the
    `onitama engine`'s `ponderhit` command does): the search's time limit starts running
    then. A flag stays raised once requested; use a new one for each search.
    """

    def __new__(cls) -> PonderHit: ...
    def request(self) -> None:
        """Start the clocks of the searches pondering with this flag."""

    @property
    def requested(self) -> bool:
        """Has it been requested?"""

@final
class EndgameTable:
    """An endgame table of standard Onitama: every position of five cards with at most
    `pieces` pieces on the board (masters included), won, lost or drawn for the side to
    move, with the plies to the winning ply under best play (the winner fastest, the loser
    slowest). Build one with `EndgameTable.build(game, pieces)`; give it to a search with
    `BuiltinAI.set_endgame(table)`.
    """

    @staticmethod
    def build(
        game: Onitama,
        pieces: int,
        max_bytes: int,
        stop: SearchStop | None = None,
        threads: int = 1,
    ) -> EndgameTable | None:
        """The table of the five cards of `game` (a standard `Onitama`; its position does not
        matter), covering positions of at most `pieces` pieces (2 to 10), if its build takes
        at most `max_bytes` of memory (`EndgameTable.build_bytes(pieces)`; more is an
        `InvalidAIError`), on `threads` threads (the table is the same on any number). The
        build runs with the interpreter released; `stop`, a `SearchStop`, ends it from
        another thread (the answer is then None), as does Ctrl-C (`KeyboardInterrupt`).
        """

    @staticmethod
    def build_bytes(pieces: int) -> int:
        """The most memory, in bytes, the build of a table of `pieces` pieces takes (the table
        itself is `EndgameTable.table_bytes(pieces)`).
        """

    @staticmethod
    def table_bytes(pieces: int) -> int:
        """The size in bytes of a table of `pieces` pieces (one byte a position)."""

    @property
    def cards(self) -> list[Card]:
        """The five cards."""

    @property
    def pieces(self) -> int:
        """The most pieces of a position it covers, masters included."""

    @property
    def bytes(self) -> int:
        """Its size in bytes."""

    @property
    def build_seconds(self) -> float:
        """The seconds its build took."""

    def fits(self, game: Onitama) -> bool:
        """Is `game` (an `Onitama`) a standard game of this table's five cards (in any places)?
        Its position may have more pieces than the table covers.
        """

    def probe(self, game: Onitama) -> tuple[Literal["win", "loss", "draw"], int] | None:
        """The table's value of `game`'s position for the side to move: ('win', d), ('loss',
        d) or ('draw', 0), d the plies to the winning ply under best play (the ply limit not
        counted); None when the table does not cover it (another rule set or other cards,
        more pieces, or a game that is over).
        """

    def counts(self) -> list[dict[str, int]]:
        """Its positions by class (the students of the side to move and of the opponent), as
        dicts: mover_students, opponent_students, positions, wins, losses, draws,
        longest_win, longest_loss (plies). Each position is the side to move's view, so
        it stands for a position of either colour to move.
        """

@final
class BuiltinAI:
    """A built-in AI, callable with the coursework's AI contract:
    `ai(current_player, board, cardA1, cardA2, cardB1, cardB2, side_card, turn)` returns
    `(card, move_from, move_to, wall_dir)` ('XX', 'XX' for a pass).

    `BuiltinAI(level=2, time=1.0, seed=0, nodes=None, depth=None, threads=1)`: level 0 plays
    a random legal action, level 1 the coursework baseline (win at once if possible, else
    avoid allowing a win at once, else random), level 2 an alpha-beta search for `time`
    seconds per move, or, when `nodes` is given, for that many nodes (deterministic on one
    thread; `time` is then not used). `depth` caps the search depth. `threads` searches on
    that many threads sharing one table (Lazy SMP; not deterministic with more than one).
    The seed fixes every random choice.
    """

    def __new__(
        cls,
        level: _Level = 2,
        time: float | None = 1.0,
        seed: int = 0,
        nodes: int | None = None,
        depth: int | None = None,
        threads: int = 1,
    ) -> BuiltinAI: ...
    @property
    def level(self) -> int:
        """0 (random), 1 (baseline) or 2 (search)."""

    @property
    def seed(self) -> int:
        """The seed."""

    @property
    def time(self) -> float | None:
        """Seconds per move of the search (None: no time limit, or not a search)."""

    @property
    def nodes(self) -> int | None:
        """The node budget per move (None: none)."""

    @property
    def depth(self) -> int | None:
        """The depth cap (None: none)."""

    @property
    def threads(self) -> int:
        """The threads a search runs on."""

    @property
    def endgame(self) -> EndgameTable | None:
        """The endgame table the search scores its positions from (None: none)."""

    def set_endgame(self, table: EndgameTable | None) -> None:
        """Score the positions `table` (an `EndgameTable`, or None for none) covers from it:
        exactly, the wins won in the fewest plies and the losses lost in the most. Applies
        from the next search on (it waits for a running one).
        """

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
        """The action this AI plays in `game` (an `Onitama`)."""

    def analyse(
        self, game: Onitama, stop: SearchStop | None = None, ponder: PonderHit | None = None
    ) -> dict[str, Any]:
        """What this AI finds in `game` (an `Onitama`), as a dict like `Onitama.analyse`'s:
        action, score, depth, nodes, exact, pv. `stop`, a `SearchStop`, ends the search
        early from another thread. `ponder`, a `PonderHit`, makes it a pondering search: its
        time limit does not run until `ponder.request()` (the expected reply was played),
        then runs in full from that moment, the search going on with what it found (a node
        budget and a depth cap count from its start). Levels 0 and 1 answer with score 0 and
        depth 0. The AI's time-limited searches share its transposition table, so that a
        game's searches build on the earlier ones (searches under a node budget start afresh
        and stay deterministic on one thread).
        """

@final
class MatchRecord:
    """The full record of a refereed game: the start, every accepted action, the result and
    why the game ended.
    """

    @property
    def setup(self) -> str | None:
        """The setup played ('case21', ...), or None for a game that did not start from one
        or was given with actions already played.
        """

    @property
    def start(self) -> str:
        """The start position's notation."""

    @property
    def end(self) -> str:
        """The final position's notation."""

    @property
    def actions(self) -> list[Action]:
        """Every accepted action, in order."""

    @property
    def winner(self) -> Literal["A", "B"] | None:
        """The winner, 'A' or 'B', or None for a tie."""

    @property
    def result(self) -> str:
        """'A won', 'B won' or 'tie' ('interrupted' for the partial record of an interrupted
        match).
        """

    @property
    def reason(self) -> Reason:
        """Why the game ended, a `Reason`: 'general_captured', 'base_reached', 'ply_limit' (a
        tie), 'invalid_move' (the loser's AI gave an invalid answer, or one of a wrong type),
        'programming_error' (it raised an exception) or 'timeout' (it took longer than the
        time budget); 'interrupted' in the partial record that an interrupted match's
        `KeyboardInterrupt` carries (the game was not finished).
        """

    @property
    def detail(self) -> str:
        """What went wrong, for the last three reasons: the referee's message, the exception,
        or the time taken ('' otherwise).
        """

    @property
    def failed(self) -> Literal["A", "B"] | None:
        """The player whose AI failed ('A' or 'B'), or None."""

    @property
    def invalid_answer(self) -> _Answer | None:
        """The rejected answer of an 'invalid_move' game, as given (None otherwise)."""

    @property
    def plies(self) -> int:
        """Plies started: the accepted ones, plus a final failing one."""

    @property
    def points(self) -> dict[str, int]:
        """Points by player: 2 a win, 1 a tie, 0 a loss (0 each for an interrupted match)."""

    def game(self) -> Onitama:
        """The game replayed: an `Onitama` at the final position, with every action in its
        history.
        """
    def to_json(self, a: str | None = None, b: str | None = None) -> str:
        """The game as saved text: the game's JSON (`Onitama.to_json`, which `Onitama.from_json`
        reads back) with the match's result added: who played A and B (`a`, `b`), `result`,
        `winner`, `reason`, `detail`, `failed`, `plies` and the rejected `answer`.
        """
    @staticmethod
    def from_json(text: str) -> MatchRecord:
        """A record read back from `to_json`'s text (the actions replayed and checked from the
        start, a rejected answer judged again). The names of the sides are not kept.
        """

def bot_playouts(name: str) -> int | None:
    """The playouts per decision of the bot named `name` as the engine reads it (`mcts` is
    1000, `mcts:200` 200), None for a bot that does not play out; `InvalidBotError` for a
    name the engine does not know.
    """

def onitama_play_match(
    ai_a: Callable[..., Any],
    ai_b: Callable[..., Any],
    setup: int | str | Onitama | None = None,
    max_plies: int | None = None,
    time_budget: float | None = None,
) -> MatchRecord:
    """Referee one game between two AIs (see `LudoGame.onitama.play_match`)."""

def onitama_standard_cards(card_set: str | None = None) -> list[Card]:
    """The standard cards of `card_set` as `Card` objects: 'base' (the default), the 16 base
    cards in the order of standard_cards.json; 'sensei', the 16 Sensei's Path cards; 'all',
    both (base first).
    """

# Ludo learning environments

__all__ += ["EnvActionError", "LudoEnvCore", "LudoVectorCore"]

class EnvActionError(LudoError):
    """An action a learning environment refuses: not an int, out of range, or not in the action mask (the message names the action and the legal ones). Nothing changes."""

_Opponent: TypeAlias = Callable[[int, NDArray[np.float32], NDArray[np.int8]], SupportsIndex]
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

@type_check_only
class _EnvShape:
    """What both environment cores say about their games."""

    @property
    def skipped_games(self) -> int:
        """Games played out and not handed out as episodes (they ended before the learner's
        first decision), since the environment was made.
        """

    @property
    def tokens(self) -> int:
        """Tokens per player (the number of actions)."""

    @property
    def observation_len(self) -> int:
        """The length of an observation."""

@final
class LudoEnvCore(_EnvShape):
    """The environment core: one game whose agents' decisions are the steps.

    `LudoEnvCore(rules="cs162", players=None, seed=None, opponents=None,
    skip_forced=False, max_rolls=None, **options)`: `opponents` gives each player (in turn
    order) a bot name, or None where an agent plays (all agents when omitted).
    """

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
        opponent: _Opponent | None = None,
    ) -> None:
        """Start a new episode (seeded, or going on with the episode generator) and play to the
        first decision; games that end before it are skipped. With `opponent`, a callable
        `opponent(player, observation, mask) -> action`, the agent players other than the learner are played
        by it, and the episode starts at the learner's first decision.
        """

    def step(
        self,
        action: SupportsIndex,
        opponent: _Opponent | None = None,
    ) -> None:
        """Move token `action` of the player to move, then play on to the next decision or
        the end (with `opponent`, as in `reset`, to the learner's next decision). A refused
        action raises `EnvActionError` and changes nothing.
        """

    def check(self, action: SupportsIndex) -> None:
        """Check `action` for the player to move, changing nothing: `EnvActionError` if it is
        not legal now, `GameOverError` when no decision waits.
        """

    def snapshot(self) -> str:
        """The environment's state as one line of text (see `load_snapshot`)."""

    def load_snapshot(self, text: str) -> None:
        """Put the environment in the state `snapshot()` wrote (for an environment made with
        the same arguments); a text that does not fit raises `ValueError` and changes
        nothing.
        """

    @property
    def skipped_rewards(self) -> list[float]:
        """Every player's rewards in the skipped games, added up."""

    @property
    def status(self) -> Literal["decision", "terminated", "truncated", "idle"]:
        """Where the episode stands: 'decision', 'terminated', 'truncated' or 'idle' (no
        episode: before the first reset, or after an interrupted call).
        """

    @property
    def to_move(self) -> int | None:
        """The player who must choose, or None once the episode is over."""

    @property
    def players(self) -> list[str]:
        """The positions that play, in turn order ('A'...)."""

    @property
    def rolls(self) -> int:
        """Die rolls made in this episode."""

    def observe(self, player: int) -> NDArray[np.float32]:
        """`player`'s observation (float32)."""

    def action_mask(self, player: int) -> NDArray[np.int8]:
        """`player`'s action mask (int8, one per token; all 0 unless `player` must choose)."""

    @property
    def rewards(self) -> list[float]:
        """Every player's reward (0 until the game is over and on truncation)."""

    def render_text(self) -> str:
        """The board as text."""

    def render_svg(self) -> str:
        """The board as an SVG picture."""

    @property
    def rules_notation(self) -> str:
        """The rule set as notation (e.g. 'standard[six_limit=3]')."""

@final
class LudoVectorCore(_EnvShape):
    """Many single-learner environments stepped together in Rust, with same-step autoreset.

    `LudoVectorCore(num_envs, rules="cs162", players=None, seat=None, opponents=None,
    seed=None, skip_forced=False, max_rolls=None, threads=None, **options)`: the learner
    plays player `seat` (0 when None); `opponents` gives every other player, in turn order, a bot name
    ("random" for all when omitted). Environment `i` is seeded with `seed + i`.
    """

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
        """Reset every environment (environment `i` with `seeds[i]`, or each going on with its
        own episode generator). Returns (obs, rewards, terminated, truncated, masks,
        final_obs, ended) like `step` (final_obs and ended are None).
        """

    def step(
        self, actions: NDArray[np.int64], opponents: _BatchPolicy | None = None
    ) -> _VectorArrays:
        """Step every environment with its action (a 1-D int64 array, one per environment).
        Returns (obs, rewards, terminated, truncated, masks, final_obs, ended): unless None
        (when no episode ended), ended flags the environments whose episode ended (and which
        were reset), and final_obs holds their last observation (zeros in the other rows).
        """

    def snapshots(self) -> list[str]:
        """Every environment's state as a line of text (see `LudoEnvCore.snapshot`)."""

    def load_snapshots(self, snapshots: Sequence[str]) -> None:
        """Put every environment in the state `snapshots()` wrote (for a vector environment
        made with the same arguments); texts that do not fit raise `ValueError` and change
        nothing.
        """

    @property
    def has_opponents(self) -> bool:
        """Does some player need the opponents' policy (`opponents=` of `step` and `reset`)?"""

    @property
    def autoreset(self) -> Literal["next_step", "same_step"]:
        """'next_step' or 'same_step': when an environment whose episode ended starts the next."""

    @property
    def skipped_reward(self) -> float:
        """The learner's rewards in the skipped games, added up."""

    @property
    def num_envs(self) -> int:
        """The number of environments."""

    @property
    def threads(self) -> int:
        """The threads a step uses."""

# Pictures as pixels (the environments' "rgb_array" frames)

__all__ += ["InvalidSvgError", "svg_to_rgb"]

class InvalidSvgError(LudoError):
    """Text that is not an SVG picture that can be drawn (bad XML, no <svg> root, no size)."""

def svg_to_rgb(svg: str, scale: float = 1.0) -> npt.NDArray[np.uint8]:
    """The SVG picture `svg` (a str) drawn at `scale` times its size, as a NumPy uint8 array of
    shape (height, width, 3): RGB, what the picture leaves transparent white. Raises
    InvalidSvgError (a ValueError) for text that is not a drawable SVG, InvalidArgumentError
    for a scale that is not above 0 or a picture too large (over 8192 pixels on a side),
    TypeError for arguments of the wrong type.
    """

# A large text as the hashes of its pieces (the web's board edits)

__all__ += ["TextPieces"]

@final
class TextPieces:
    """A text remembered by the hashes and lengths of its pieces (cut at `separator`), not by
    the text itself.
    """

    def __new__(cls, text: str, separator: str) -> TextPieces:
        """The pieces of `text` cut at each `separator` (not empty: else
        InvalidArgumentError)."""

    def same(self, other: TextPieces) -> bool:
        """Do both texts have the same pieces (and separators)?"""

    def edits_from(self, old: TextPieces, text: str, overhead: int) -> list[list[Any]] | None:
        """The edits (``[start, end, text]`` lists, ascending, in `old`'s text's offsets) that
        make `text` (the text these pieces are of) of `old`'s text; None when a text is not
        ASCII or the edits, each counted `overhead` characters beside its text, are not
        shorter than `text`. Raises InvalidArgumentError for pieces cut at another separator.
        """

    def __len__(self) -> int:
        """How many pieces the text has."""
