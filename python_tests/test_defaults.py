"""Every default has one home, in the engine: the front ends' signatures use the engine's
constants (exported by `LudoGame._core`) instead of their own copies."""

from __future__ import annotations

import inspect

import pytest

import LudoGame
from LudoGame import _core, onitama


def default_of(func: object, name: str) -> object:
    return inspect.signature(func).parameters[name].default  # type: ignore[arg-type]


def test_the_environments_defaults_are_the_engines() -> None:
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from LudoGame.envs import LudoEnv, LudoVectorEnv, ludo_v0

    assert (_core.ENV_PLAYERS, _core.ENV_TABLE_PLAYERS, _core.ENV_MAX_ROLLS) == (2, 4, 10_000)
    for cls in (LudoEnv, LudoVectorEnv):
        assert default_of(cls.__init__, "players") == _core.ENV_PLAYERS
        assert default_of(cls.__init__, "max_rolls") == _core.ENV_MAX_ROLLS
    assert default_of(ludo_v0.raw_env.__init__, "players") == _core.ENV_TABLE_PLAYERS
    assert LudoEnv().core.players == ["A", "C"]


def test_a_games_default_players_follow_its_rules() -> None:
    assert LudoGame.Game("cs162").players == ["A", "C"]
    assert LudoGame.Game("standard").players == ["A", "C"]
    assert LudoGame.Game("gt").players == ["A", "B", "C", "D"]


def test_the_onitama_defaults_are_the_engines() -> None:
    assert (onitama.DEFAULT_SETUP, onitama.DEFAULT_PLIES) == ("21", 20)
    assert default_of(onitama.play_match, "setup") == onitama.DEFAULT_SETUP
    assert default_of(onitama.play_match, "max_plies") == onitama.DEFAULT_PLIES
    record = _core.onitama_play_match(onitama.builtin_ai(0), onitama.builtin_ai(0))
    assert record.setup == "case21"


def test_the_roll_cap_is_the_engines() -> None:
    assert _core.MAX_ROLLS == 100_000
    game = LudoGame.Game("cs162", seed=1)
    # A cap of MAX_ROLLS plays a whole game (none lasts that long).
    game.autoplay("random", max_rolls=_core.MAX_ROLLS)
    assert game.is_over()
