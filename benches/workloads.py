"""Seeded generators of CS162 ``play_game`` inputs for benchmarks and tests.

Every generator takes its randomness from an explicit ``random.Random`` (or a
seed), so the same seed always gives the same inputs.

* ``worked_example()`` -- the assignment's worked example.
* ``random_full_game(rng, players)`` -- the turns of a realistic full game,
  played by the engine: players roll in seat order, a 6 gives one bonus roll,
  completed players are skipped, and the game runs until one player is left.
* ``random_turn_list(rng, players, n)`` -- ``n`` arbitrary (position, roll)
  pairs, not necessarily a realistic game.
* ``full_games(seed, count)`` -- ``count`` realistic full games of 2-4
  players chosen from A-D in random order.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

from LudoGame import Game, Phase

Turn = tuple[str, int]
GameInput = tuple[list[str], list[Turn]]

POSITIONS = ("A", "B", "C", "D")
MAX_TURNS = 20_000


def _load_reference() -> ModuleType:
    """Return the ``cs162_reference`` module that sits beside this file."""
    loaded = sys.modules.get("cs162_reference")
    if loaded is not None:
        return loaded
    path = Path(__file__).resolve().parent / "cs162_reference.py"
    spec = importlib.util.spec_from_file_location("cs162_reference", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load the reference implementation from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["cs162_reference"] = module
    spec.loader.exec_module(module)
    return module


_reference = _load_reference()


def worked_example() -> GameInput:
    """Return (players, turns) of the assignment's worked example."""
    return list(_reference.WORKED_EXAMPLE_PLAYERS), list(_reference.WORKED_EXAMPLE_TURNS)


def random_full_game(
    rng: random.Random, players: list[str], max_turns: int = MAX_TURNS
) -> list[Turn]:
    """Generate the turns list of a realistic full game of ``players``.

    The engine plays it: a CS162 ``Game`` with a die seeded from ``rng``, every player
    moving by the assignment's priority rule, so players roll in seat order, a 6 earns
    exactly one bonus roll (a second tuple of the same player), finished players are
    skipped, and the game ends when one player is left (or after ``max_turns`` tuples).
    The turns are the game's rolls, in order.
    """
    game = Game("cs162", players="".join(sorted(players)), seed=rng.getrandbits(64))
    turns: list[Turn] = []
    while not game.is_over() and len(turns) < max_turns:
        player = game.current_player
        turns.append((player, game.roll()))
        if game.phase == Phase.MOVE:
            game.play(game.best_move("cs162"))
    return turns


def random_turn_list(rng: random.Random, players: list[str], n: int) -> list[Turn]:
    """Return ``n`` random (position, roll) pairs for the positions in ``players``."""
    return [(rng.choice(players), rng.randint(1, 6)) for _ in range(n)]


def random_players(rng: random.Random) -> list[str]:
    """Return 2-4 distinct positions from A-D in random order."""
    count = rng.randint(2, len(POSITIONS))
    return rng.sample(POSITIONS, count)


def full_games(seed: int, count: int) -> list[GameInput]:
    """Return ``count`` seeded realistic full games as (players, turns) pairs."""
    rng = random.Random(seed)
    games: list[GameInput] = []
    for _ in range(count):
        players = random_players(rng)
        games.append((players, random_full_game(rng, players)))
    return games


if __name__ == "__main__":
    sample = full_games(seed=162, count=300)
    lengths = sorted(len(turns) for _, turns in sample)
    print(
        f"{len(sample)} games, {sum(lengths)} turns, "
        f"min {lengths[0]}, median {lengths[len(lengths) // 2]}, max {lengths[-1]}"
    )
