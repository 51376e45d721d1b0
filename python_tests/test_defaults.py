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
