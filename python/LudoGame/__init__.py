"""LudoGame: a fast, exact Ludo engine written in Rust.

The package is a drop-in for the CS162 portfolio project's ``LudoGame.py``::

    from LudoGame import LudoGame

    game = LudoGame()
    spaces = game.play_game(["A", "B"], [("A", 6), ("A", 4), ("B", 6)])
    player_a = game.get_player_by_position("A")
    print(player_a.get_token_p_step_count())

Every rule and interpretation it follows is listed in the README (decisions D1-D13).

Behind it is one engine that also plays standard Ludo and the GT game move by move::

    from LudoGame import Game

    game = Game(rules="gt", seed=1)
    game.roll()
    if game.legal_moves:
        game.play(game.legal_moves[0])
    print(game.status)
"""

from LudoGame._core import (
    EnvActionError,
    ForeignPlayerError,
    Game,
    GameOverError,
    IllegalMoveError,
    Interrupted,
    InvalidArgumentError,
    InvalidBotError,
    InvalidNotationError,
    InvalidPlayersError,
    InvalidPositionError,
    InvalidRollError,
    InvalidRulesError,
    InvalidStepsError,
    InvalidTokenError,
    InvalidTurnError,
    LudoError,
    LudoGame,
    Move,
    NoGameError,
    Player,
    SimResult,
    Simulation,
    __version__,
)
from LudoGame.checker import check
from LudoGame.enums import EventKind, Phase, Reason
from LudoGame.events import Event, MoveEvent, RollEvent
from LudoGame.outcome import Outcome
from LudoGame.sim import TournamentResult, simulate, tournament


def svg(game: Game | LudoGame) -> str:
    """The board of `game` (a `Game` or a CS162 `LudoGame`) as an SVG image (a string), as
    notebooks show it."""
    if not isinstance(game, (Game, LudoGame)):
        raise TypeError(f"svg() takes a Game or a LudoGame, not {type(game).__name__}")
    return game._repr_svg_()


__all__ = [
    "EnvActionError",
    "ForeignPlayerError",
    "Event",
    "EventKind",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "Interrupted",
    "InvalidArgumentError",
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
    "Outcome",
    "MoveEvent",
    "NoGameError",
    "Phase",
    "Player",
    "Reason",
    "RollEvent",
    "SimResult",
    "Simulation",
    "TournamentResult",
    "__version__",
    "check",
    "simulate",
    "svg",
    "tournament",
]
