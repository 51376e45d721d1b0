"""The Rust batch simulation against the plain-Python simulator ``benches/py_sim.py``.

The Python simulator is written from DESIGN.md (sections 3 and 4), not from the Rust code.
Two checks:

* lockstep: the engine's ``Game`` and the Python simulator play the same games with the
  same dice and the same choices; after every roll and move the legal moves, the token
  positions, whose turn it is and the final ranking must be identical;
* statistics: ``LudoGame.simulate`` (its own seeded dice) and the Python simulator
  (``random.Random``) must agree on the mean game length in die rolls, the mean number of
  captures per game and each seat's win rate, within 4 standard errors of the difference.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import LudoGame
from bench_support import load_bench

TOKEN_NAMES = {"cs162": "pq", "standard": "1234"}


py_sim = load_bench("py_sim")


class Lockstep:
    """Die and bot for the Python simulator that play every roll and move on an engine
    ``Game`` as well, checking before each step that the two games are in the same state."""

    def __init__(self, rules: str, players: str, seed: int) -> None:
        seats = sorted("ABCD".index(p) for p in players)
        self.py_game = py_sim.Game(py_sim.RULES[rules], seats)
        self.game = LudoGame.Game(rules, players, seed=0)
        self.names = TOKEN_NAMES[rules]
        self.rng = random.Random(seed)

    def where(self) -> str:
        return f"after {self.game.moves!r}"

    def roll(self, player: Any) -> int:
        steps = {p.label: list(p.steps) for p in self.py_game.players}
        assert self.game.steps == steps, self.where()
        assert (self.game.phase, self.game.current_player) == ("roll", player.label), self.where()
        value = self.rng.randint(1, 6)
        self.game.roll(value)
        return value

    def choose(self, player: Any, moves: list[list[int]], roll: int) -> list[int]:
        expected = sorted(player.label + self.names[piece[0]] for piece in moves)
        assert sorted(m.name for m in self.game.legal_moves) == expected, self.where()
        piece: list[int] = self.rng.choice(moves)
        self.game.play(player.label + self.names[piece[0]])
        return piece


@pytest.mark.parametrize("rules", ["cs162", "standard"])
@pytest.mark.parametrize("players", ["ABCD", "AC", "ABC", "BD"])
def test_engine_and_python_simulator_play_identical_games_with_the_same_dice(
    rules: str, players: str
) -> None:
    seen: Counter[str] = Counter()
    for seed in range(60):
        both = Lockstep(rules, players, seed)
        record = py_sim.play_game(both.py_game, both, both)
        assert record.finished
        game = both.game
        assert game.is_over(), both.where()
        assert game.ranking == ["ABCD"[s] for s in record.ranking], both.where()
        assert game.winner == "ABCD"[record.ranking[0]]
        assert game.steps == {p.label: p.steps for p in both.py_game.players}
        rolls = [e for e in game.history if e["kind"] == "roll"]
        assert len(rolls) == record.rolls
        for e in game.history:
            if e["kind"] == "move":
                seen["capture"] += bool(e["captured"])
                seen["capture of a stack"] += len(e["captured"]) > 1
                seen["capture on entering"] += e["from"] < 0 and bool(e["captured"])
                seen["stack moves"] += len(e["tokens"]) > 1
                seen["bounce"] += e["bounced"]
            else:
                seen["6 without a move"] += e["value"] == 6 and e["result"] == "cannot move"
    # The games went through the rules' corner cases.
    # (In CS162 a 6 always moves something: a yard token, or any other with a bounce.)
    features = ["capture", "bounce", "stack moves"] if rules == "cs162" else ["6 without a move"]
    if players == "ABCD":
        features.append("capture of a stack" if rules == "cs162" else "capture on entering")
    assert all(seen[f] > 0 for f in features), seen


# Games per side (rust, python): enough for a difference of ~3% in mean length or 0.05-0.07
# in a win rate to show, few enough to run in a few seconds.
SAMPLES = {"cs162": (20_000, 1_500), "standard": (10_000, 600)}


@pytest.mark.parametrize("rules", ["cs162", "standard"])
def test_rust_simulation_statistics_agree_with_the_python_simulator(rules: str) -> None:
    rust_games, python_games = SAMPLES[rules]
    rust = LudoGame.simulate(rules, "ABCD", "random", games=rust_games, seed=162, threads=2)
    python = py_sim.simulate(rules, "ABCD", python_games, seed=162)
    assert rust.unfinished == python.unfinished == 0
    comparisons = py_sim.agreement(rust, python)
    assert [c.name for c in comparisons] == [
        "mean length",
        "mean captures",
        "win rate A",
        "win rate B",
        "win rate C",
        "win rate D",
    ]
    table = "\n".join(str(c) for c in comparisons)
    assert all(c.agrees(4.0) for c in comparisons), f"{rules}:\n{table}"
    # The per-game data are consistent with the summaries on both sides.
    assert rust.mean_length == pytest.approx(sum(rust.lengths) / rust_games)
    assert rust.mean_captures == pytest.approx(sum(rust.captures) / rust_games)
    assert sum(python.wins.values()) == python_games


def test_python_simulator_is_reproducible() -> None:
    one = py_sim.simulate("standard", "AC", 20, seed=5)
    two = py_sim.simulate("standard", "AC", 20, seed=5)
    assert (one.lengths, one.captures, one.finishing) == (two.lengths, two.captures, two.finishing)
    assert sorted(one.finishing[:2]) == [0, 2]
