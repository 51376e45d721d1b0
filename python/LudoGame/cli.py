"""The ``ludo`` command line (also ``python -m LudoGame``)."""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Sequence

from LudoGame._core import LudoError, LudoGame, Player

WORKED_EXAMPLE = [
    ("A", 6), ("A", 4), ("A", 5), ("A", 4), ("B", 6), ("B", 4), ("B", 1), ("B", 2),
    ("A", 6), ("A", 4), ("A", 6), ("A", 3), ("A", 5), ("A", 1), ("A", 5), ("A", 4),
]  # fmt: skip

_TURN = re.compile(r"^([A-Za-z])(-?\d+)$")


def _state(game: LudoGame) -> str:
    return "  ".join(f"{p.position}: {p.spaces[0]:>3} {p.spaces[1]:>3}" for p in game.players)


def worked_example() -> None:
    """Print the assignment's worked example, exactly as the assignment shows it."""
    game = LudoGame()
    current_tokens_space = game.play_game(["A", "B"], WORKED_EXAMPLE)
    player_a = game.get_player_by_position("A")
    player_b = game.get_player_by_position("B")
    assert isinstance(player_a, Player) and isinstance(player_b, Player)
    print(player_a.get_completed())
    print(player_a.get_token_p_step_count())
    print(current_tokens_space)
    print(player_b.get_space_name(55))


def random_game(players: str, seed: int, verbose: bool = True) -> list[str]:
    """Play a seeded game: players roll in turn, a 6 gives one bonus roll, and play goes on
    until one player is left. Returns the finishing order."""
    rng = random.Random(seed)
    game = LudoGame()
    game.play_game(list(players), [])
    seats = game.players
    finished: list[str] = []
    turn = 0
    while len(finished) < len(seats) - 1:
        for p in seats:
            if p.completed:
                continue
            rolls = 2 if (first := rng.randint(1, 6)) == 6 else 1
            roll = first
            for i in range(rolls):
                if i:
                    roll = rng.randint(1, 6)
                moved = game.play_turn(p.position, roll)
                turn += 1
                if verbose:
                    what = f"moves {moved}" if moved else "cannot move"
                    print(f"{turn:4d}. {p.position} rolls {roll}, {what:<11} | {_state(game)}")
                if p.completed:
                    finished.append(p.position)
                    if verbose:
                        print(f"      {p.position} has finished (place {len(finished)})")
                    break
            if len(finished) == len(seats) - 1:
                break
    finished += [p.position for p in seats if not p.completed]
    return finished


def _parse_turns(words: Sequence[str]) -> list[tuple[str, int]]:
    turns = []
    for word in words:
        m = _TURN.match(word)
        if not m:
            raise SystemExit(f"ludo: {word!r} is not a turn such as A6 (position, then roll)")
        turns.append((m.group(1), int(m.group(2))))
    return turns


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ludo`` command."""
    parser = argparse.ArgumentParser(
        prog="ludo", description="LudoGame: a fast, exact Ludo engine (CS162 rules)."
    )
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="the assignment's worked example and a random game")
    demo.add_argument("--seed", type=int, default=162, help="seed of the random game")
    demo.add_argument("--players", default="ABCD", help="positions that play, e.g. AC")
    play = sub.add_parser("play", help="play a turns list, e.g. ludo play AB A6 A4 B6")
    play.add_argument("players", help="positions that play, e.g. AB")
    play.add_argument("turns", nargs="*", help="turns such as A6 (position, roll)")
    name = sub.add_parser("space-name", help="the space a token stands on after N steps")
    name.add_argument("position")
    name.add_argument("steps", type=int)
    args = parser.parse_args(argv)

    try:
        if args.command in (None, "demo"):
            seed = getattr(args, "seed", 162)
            players = getattr(args, "players", "ABCD")
            print("The assignment's worked example:")
            worked_example()
            print(f"\nA random game of {', '.join(players)} (seed {seed}):")
            order = random_game(players, seed)
            print("Finishing order:", " ".join(order))
        elif args.command == "play":
            game = LudoGame()
            print(game.play_game(list(args.players), _parse_turns(args.turns)))
            for p in game.players:
                print(f"{p!r} steps={p.steps}")
        elif args.command == "space-name":
            print(Player(args.position).get_space_name(args.steps))
    except LudoError as e:
        print(f"ludo: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `ludo demo | head`
        sys.stderr.close()
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
