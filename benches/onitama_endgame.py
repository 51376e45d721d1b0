"""Endgame tables of standard Onitama (issue #38): the build's time and memory, and what a
table changes in the search (not part of the tests).

Usage::

    python benches/onitama_endgame.py [--pieces 5] [--deal 0] [--positions 20] [--depth 10]
        [--threads 1]

Builds (on ``--threads`` threads) the table of the five cards of
``Onitama.standard(seed=--deal)`` for positions of at most ``--pieces`` pieces (masters
included), and prints its build time, its size and the process's peak memory
(``ru_maxrss``). Then position k (k = 0, 1, ...) is that deal after
seeded random plies (seeded by k) until at most ``--pieces`` + 2 pieces are left (a deal
whose game ends first is skipped); each is searched to ``--depth`` plies with no time
limit, without the table and with it: the nodes (the same on every run and machine), the
time (the machine's) and the score. The positions are those the engine's ``--endgame``
builds its table for (``ENDGAME_MARGIN`` pieces above the table's), where the search
reaches the table's positions after a capture or two.
"""

from __future__ import annotations

import argparse
import random
import resource
import time

from LudoGame import onitama
from LudoGame.onitama_engine import ENDGAME_MARGIN, pieces_on_board


def position(deal: int, k: int, pieces: int) -> onitama.Onitama | None:
    """The deal after random plies seeded by k, once at most `pieces` pieces are left."""
    game = onitama.Onitama.standard(seed=deal)
    rng = random.Random(k)
    while not game.is_over():
        if pieces_on_board(game) <= pieces:
            return game
        game.play(rng.choice(game.legal_moves))
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", type=int, default=5, help="the table's pieces (5)")
    parser.add_argument("--deal", type=int, default=0, help="the deal whose cards (0)")
    parser.add_argument("--positions", type=int, default=20, help="how many positions (20)")
    parser.add_argument("--depth", type=int, default=10, help="the searches' depth (10)")
    parser.add_argument("--threads", type=int, default=1, help="the build's threads (1)")
    args = parser.parse_args()
    deal = onitama.Onitama.standard(seed=args.deal)
    cards = ", ".join(str(c) for c in deal.cards.values())
    print(
        f"cards {cards}: a table of {args.pieces} pieces is "
        f"{onitama.EndgameTable.table_bytes(args.pieces):,} bytes, its build at most "
        f"{onitama.EndgameTable.build_bytes(args.pieces):,}"
    )
    t0 = time.perf_counter()
    table = onitama.EndgameTable.build(deal, args.pieces, 1 << 40, threads=args.threads)
    took = time.perf_counter() - t0
    assert table is not None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(
        f"built on {args.threads} thread(s) in {took:.1f} s; "
        f"peak memory of the process {peak:,} bytes"
    )
    plain_ai = onitama.BuiltinAI(level=2, time=None, depth=args.depth)
    table_ai = onitama.BuiltinAI(level=2, time=None, depth=args.depth)
    table_ai.set_endgame(table)
    totals = {"plain": [0, 0.0], "table": [0, 0.0]}
    k = 0
    done = 0
    while done < args.positions:
        game = position(args.deal, k, args.pieces + ENDGAME_MARGIN)
        k += 1
        if game is None:
            continue
        done += 1
        line = [f"{k - 1:3d} {pieces_on_board(game)} pieces"]
        for name, ai in (("plain", plain_ai), ("table", table_ai)):
            t = time.perf_counter()
            info = ai.analyse(game)
            dt = time.perf_counter() - t
            totals[name][0] += int(info["nodes"])
            totals[name][1] += dt
            line.append(f"{name} {int(info['nodes']):>9d} nodes {dt:6.2f} s score {info['score']}")
        print("  ".join(line))
    for name, (nodes, secs) in totals.items():
        print(f"{name}: {nodes} nodes in {secs:.2f} s")


if __name__ == "__main__":
    main()
