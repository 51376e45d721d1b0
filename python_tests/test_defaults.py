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
    assert (onitama.MATCH_SETUP, onitama.DEFAULT_PLIES) == ("21", 20)
    assert default_of(onitama.play_match, "setup") == onitama.MATCH_SETUP
    # no limit of its own: the setup's (the engine's DEFAULT_PLIES for a setup id)
    assert default_of(onitama.play_match, "max_plies") is None
    record = _core.onitama_play_match(onitama.builtin_ai(0), onitama.builtin_ai(0))
    assert record.setup == "case21"
    assert onitama.play_match(onitama.builtin_ai(0), onitama.builtin_ai(0)).plies <= 20


def test_the_roll_cap_is_the_engines() -> None:
    assert _core.MAX_ROLLS == 100_000
    game = LudoGame.Game("cs162", seed=1)
    # A cap of MAX_ROLLS plays a whole game (none lasts that long).
    game.autoplay("random", max_rolls=_core.MAX_ROLLS)
    assert game.is_over()


def test_the_coursework_texts_are_the_engines() -> None:
    """The terminal game speaks with the engine's words (the transcript tests check the
    words themselves against the recorded sessions)."""
    from LudoGame import onitama_cli

    texts = _core.ONITAMA_TEXTS
    assert onitama_cli.CARD_PROMPT == texts["card_prompt"]
    assert texts["your_turn"].format(player="A") == "Player A, it is your turn."
    game = onitama.Onitama.setup(21)
    listing = game.move_listing()
    pawn_moves = {(a.card, a.move_from, a.move_to) for a in game.legal_moves if not a.is_pass}
    assert len(listing) == len(pawn_moves) and listing[0].startswith("Card 1, ")
    assert game.win_message() is None


def test_a_bots_search_size_is_read_by_the_engine() -> None:
    """The web server's cap on MCTS playouts asks the engine how many a name means."""
    assert _core.bot_playouts("mcts") == 1000  # the engine's default
    assert _core.bot_playouts("MCTS:200") == 200  # names in any case, as the engine reads them
    assert _core.bot_playouts("expectimax:2") is None
    with pytest.raises(LudoGame.LudoError, match="unknown bot"):
        _core.bot_playouts("nobody")


def test_the_simulations_and_bots_defaults_are_the_engines() -> None:
    from LudoGame import sim

    assert (_core.SIM_COUNT, _core.SIM_THREADS, _core.SIM_BOT) == (1000, 1, "random")
    assert _core.SIM_SEED == 0
    for func in (sim.simulate, sim.tournament):
        assert default_of(func, "games") == _core.SIM_COUNT
        assert default_of(func, "threads") == _core.SIM_THREADS
        assert default_of(func, "seed") == _core.SIM_SEED
    assert LudoGame.Simulation().seed == _core.SIM_SEED
    assert default_of(LudoGame.Simulation, "seed") == _core.SIM_SEED
    assert default_of(sim.simulate, "bots") == _core.SIM_BOT
    assert default_of(LudoGame.Game.best_move, "bot") == _core.BEST_MOVE_BOT == "expectimax"
    assert LudoGame.Simulation().bots == [_core.SIM_BOT] * 2


def test_the_vector_environments_defaults_are_the_engines() -> None:
    pytest.importorskip("gymnasium")
    from LudoGame.envs import LudoEnv, LudoVectorEnv

    assert (_core.ENV_OPPONENT, _core.ENV_THREADS, _core.ENV_AUTORESET) == (
        "random",
        1,
        "next_step",
    )
    assert default_of(LudoEnv.__init__, "opponents") == _core.ENV_OPPONENT
    assert default_of(LudoVectorEnv.__init__, "threads") == _core.ENV_THREADS
    core = _core.LudoVectorCore(1)
    assert (core.autoreset, core.threads) == (_core.ENV_AUTORESET, _core.ENV_THREADS)
    mode = default_of(LudoVectorEnv.__init__, "autoreset_mode")
    assert _core.LudoVectorCore(1, autoreset=mode).autoreset == _core.ENV_AUTORESET


def test_the_onitama_ais_defaults_are_the_engines() -> None:
    settings = _core.ONITAMA_AI_SETTINGS
    assert settings == {
        "level": 2,
        "time": 1.0,
        "seed": 0,
        "nodes": None,
        "depth": None,
        "threads": 1,
    }
    game = onitama.Onitama.setup(21)
    for func in (onitama.BuiltinAI, game.best_move, game.best_action, game.analyse):
        for name, value in settings.items():
            assert default_of(func, name) == value, (func, name)
    for name, value in settings.items():
        assert default_of(onitama.builtin_ai, name) == value
    ai = onitama.BuiltinAI()
    assert (ai.level, ai.time, ai.seed, ai.nodes, ai.depth, ai.threads) == tuple(settings.values())
    assert repr(ai) == "BuiltinAI(level=2, time=1, seed=0)"
