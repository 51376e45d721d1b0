"""Checks the adapter's conventions against maxbennedich/onitama's move generator (not part of
the tests).

Usage::

    python benches/onitama_external/check_mapping.py --classpath CLASSES:DRIVER \\
        [--games 200] [--card-set base] [--seed 1]

Plays random games from seeded deals with our ``LudoGame.onitama``; at every position it asks
their move generator (``MaxbDriver``'s ``moves``, their ``Searcher.getAllMoves``) for the side
to move's moves, maps each to our action text as ``maxb_engine.py`` does, and checks that the
two sets are equal (passes aside: their generator has none). Any difference is printed and
the exit code is 1.
"""

from __future__ import annotations

import argparse
import random
import sys

from maxb_engine import Driver, our_action, their_position

from LudoGame.onitama import Onitama


def their_moves(driver: Driver, game: Onitama) -> set[str]:
    player, board, cards = their_position(game)
    words = driver.ask(f"moves {player} {board} {' '.join(cards)}").split()
    if not words or words[0] != "moves":
        raise RuntimeError(f"MaxbDriver answered {' '.join(words)!r}")
    moves = set()
    for word in words[1:]:
        card, *xy = word.split(":")
        moves.add(our_action(game, card, *(int(v) for v in xy)))
    return moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--classpath", required=True)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--card-set", default="base")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    driver = Driver(args.classpath, warmup_ms=0)
    rng = random.Random(args.seed)
    positions = differences = 0
    first_movers = {"A": 0, "B": 0}
    try:
        for k in range(args.games):
            game = Onitama.standard(seed=args.seed + k, card_set=args.card_set)
            first_movers[game.turn] += 1
            while not game.is_over():
                ours = {str(a) for a in game.legal_moves if not a.is_pass}
                theirs = their_moves(driver, game)
                positions += 1
                if ours != theirs:
                    differences += 1
                    print(f"DIFFERENT at {game.to_notation()}", file=sys.stderr)
                    print(f"  only ours:   {sorted(ours - theirs)}", file=sys.stderr)
                    print(f"  only theirs: {sorted(theirs - ours)}", file=sys.stderr)
                game.play(str(rng.choice(game.legal_moves)))
    finally:
        driver.close()
    print(
        f"games {args.games} (card set {args.card_set}, seeds {args.seed}..."
        f"{args.seed + args.games - 1}; first movers {first_movers}) positions {positions} "
        f"differences {differences}"
    )
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
