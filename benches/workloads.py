"""Seeded generators of CS162 ``play_game`` inputs for benchmarks and tests.

Every generator takes its randomness from an explicit ``random.Random`` (or a
seed), so the same seed always gives the same inputs.

* ``worked_example()`` -- the assignment's worked example.
* ``random_full_game(rng, players)`` -- the turns of a realistic full game:
  players roll in order, a 6 gives one bonus roll, completed players are
  skipped, and the game runs until only one player is left.
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

Turn = tuple[str, int]
GameInput = tuple[list[str], list[Turn]]

POSITIONS = ("A", "B", "C", "D")
MAX_TURNS = 20_000
BONUS_ROLL = 6


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

    Players roll in the order given.  A 6 earns exactly one bonus roll (a
    bonus 6 earns none); the bonus roll is a second tuple of the same player.
    Completed players are skipped, and the game ends when at most one player
    is not completed, or after ``max_turns`` tuples.  The game state is
    tracked with the reference implementation, one roll at a time.
    """
    game = _reference.LudoGame()
    game.start(players)
    seats = [game.get_player_by_position(position) for position in players]
    turns: list[Turn] = []
    while len(turns) < max_turns:
        still_playing = [seat for seat in seats if not seat.get_completed()]
        if len(still_playing) <= 1:
            break
        for seat in still_playing:
            if seat.get_completed() or len(turns) >= max_turns:
                continue
            position = seat.get_position()
            roll = rng.randint(1, 6)
            turns.append((position, roll))
            game.apply_turn(position, roll)
            if roll == BONUS_ROLL and not seat.get_completed():
                if len(turns) >= max_turns:
                    break
                bonus = rng.randint(1, 6)
                turns.append((position, bonus))
                game.apply_turn(position, bonus)
            if sum(not s.get_completed() for s in seats) <= 1:
                break
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
