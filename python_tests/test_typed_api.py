"""The typed Python API shared by both games: str enums, history event classes, `undo()`
returning what it took back, `turn`, `rules`/`options`/`rules_notation` with one meaning on
every object, and one `Standing` for both games' tournaments."""

from __future__ import annotations

import json
import pickle

import pytest

from LudoGame import (
    EventKind,
    Game,
    InvalidRulesError,
    MoveEvent,
    Phase,
    Reason,
    RollEvent,
    Simulation,
    onitama,
    tournament,
)
from LudoGame.standings import Standing, Table


def test_phase_is_a_str_enum_equal_to_the_old_strings() -> None:
    g = Game("gt", seed=1)
    assert g.phase is Phase.ROLL and g.phase == "roll"
    g.roll(6)
    assert g.phase is Phase.MOVE and f"{g.phase}" == "move"
    assert pickle.loads(pickle.dumps(g.phase)) is Phase.MOVE


def test_history_entries_are_typed_events_and_still_dicts() -> None:
    g = Game("gt", seed=1)
    g.roll(6)
    g.play("A")
    roll, move = g.history
    assert isinstance(roll, RollEvent) and isinstance(move, MoveEvent)
    assert roll.kind is EventKind.ROLL and roll["kind"] == "roll"
    assert (roll.player, roll.value, roll.die, roll.result) == ("A", 6, False, "move")
    assert (move.move, move.roll, move.from_step, move.to_step) == ("A", 6, -1, 0)
    assert move.tokens == ["A"] and move.captured == [] and move.extra_roll
    # Still the dict it always was: equality, JSON and pickling keep working.
    assert move == dict(move) and json.loads(json.dumps(g.history)) == g.history
    assert pickle.loads(pickle.dumps(g.history)) == g.history


def test_undo_returns_the_entry_it_takes_back() -> None:
    g = Game("cs162", seed=3)
    for _ in range(12):
        if g.phase == Phase.ROLL:
            g.roll()
        else:
            g.play(g.legal_moves[0])
    history = g.history
    while history:
        assert g.undo() == history.pop()
        assert g.history == history


def test_turn_is_the_name_both_games_use() -> None:
    g = Game("standard", seed=2)
    assert g.turn == g.current_player == "A"
    o = onitama.Onitama.setup(21)
    assert o.turn == "A"


def test_rules_means_the_preset_everywhere_and_the_notation_round_trips() -> None:
    g = Game("standard", six_limit=3)
    assert (g.rules, g.rules_notation) == ("standard", "standard[six_limit=3]")
    again = Game(g.rules_notation)
    assert again.options == g.options and again.rules == "standard"
    sim = Simulation(g.rules_notation, "AC", "random", 1)
    assert (sim.rules, sim.rules_notation) == ("standard", "standard[six_limit=3]")
    assert sim.options == g.options
    result = sim.run(0, 3)
    assert (result.rules, result.rules_notation) == ("standard", "standard[six_limit=3]")
    assert result.options == g.options
    with pytest.raises(InvalidRulesError, match="bogus"):
        Game("standard[bogus=1]")


def test_onitama_reasons_are_the_shared_reason_enum() -> None:
    game = onitama.Onitama.setup(21)
    record = onitama.play_match(onitama.builtin_ai(0, seed=1), onitama.builtin_ai(0, seed=2))
    assert isinstance(record.reason, Reason)
    game = record.game()
    assert game.result_reason is None or isinstance(game.result_reason, Reason)


def test_one_standing_serves_both_tournaments() -> None:
    ludo = tournament(["random", "cs162"], games=20, seed=1)
    assert all(isinstance(s, Standing) for s in ludo.standings)
    assert sum(s.wins for s in ludo.standings) == 20
    assert all(s.bot == s.name and s.ties == 0 for s in ludo.standings)
    table = onitama.round_robin(
        {"r1": onitama.builtin_ai(0, seed=1), "r2": onitama.builtin_ai(0, seed=2)},
        setups=[21],
    )
    assert all(isinstance(s, Standing) for s in table.table)
    assert sum(s.games for s in table.table) == 4
    assert sum(s.points for s in table.table) == 4  # 2 a game, whoever wins or ties


def test_table_adds_pairings_and_ranks() -> None:
    t = Table(["x", "y"])
    t.add("x", "y", games=4, wins_a=2, ties=1, failures_b=1)
    assert (t["x"].wins, t["x"].ties, t["x"].losses) == (2, 1, 1)
    assert (t["y"].wins, t["y"].losses, t["y"].failures) == (1, 2, 1)
    assert t["x"].points == 5 and t["x"].score == 62.5 and t["x"].win_rate == 0.625
    assert [s.name for s in t.ranked()] == ["x", "y"]
    with pytest.raises(ValueError):
        t.add("x", "y", games=1, wins_a=1, ties=1)


def test_onitama_levels_have_names_as_ludo_bots_do() -> None:
    by_name = onitama.builtin_ai("baseline", seed=4)
    assert by_name.level == 1
    assert onitama.BuiltinAI("search", time=None, nodes=100).level == 2
    game = onitama.Onitama.setup(21)
    assert by_name.choose(game) == onitama.builtin_ai(1, seed=4).choose(game)
    with pytest.raises(onitama.InvalidAIError, match="'clever'.*by number or name"):
        onitama.builtin_ai("clever")
