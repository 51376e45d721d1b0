"""Search speed on standard Onitama (issue #24): nodes a second and the depth reached in
``--time`` seconds on 20 standard positions (not part of the tests).

Usage::

    python benches/onitama_standard_search.py [--positions 20] [--time 1.0] [--plies 6]
    python benches/onitama_standard_search.py --depth 11 [--threads 2]

Position k is the random deal ``Onitama.standard(seed=k)`` after ``--plies`` random legal
plies (seeded by k, so the positions are the same on every run; a deal that ends early
keeps its last unfinished position). Each is searched once by the built-in search
(level 2) for ``--time`` seconds; the script prints each position's depth, nodes and
nodes a second, then the median and the totals.

With ``--depth N`` each position is instead searched to depth N with no time limit: the
nodes it took are the same on every run and machine (a search change that prunes or orders
better needs fewer), the time is the machine's.

``--endgame PIECES`` gives each search the endgame table of its position's cards (built
first, its time not counted): with 2 pieces, which no search from these positions reaches,
the nodes are the same as without, and the time shows what the test of each node costs.

``--threads N`` searches on N threads (Lazy SMP, ``BuiltinAI(threads=N)``): the nodes are
then every thread's and vary from run to run; with ``--depth`` the total time is the time to
that depth, whose ratio to the time on one thread is the speed-up.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from LudoGame import onitama


def position(k: int, plies: int) -> onitama.Onitama:
    """Position k: deal k after `plies` seeded random plies."""
    game = onitama.Onitama.standard(seed=k)
    rng = random.Random(k)
    for _ in range(plies):
        legal = game.legal_moves
        after = game.copy()
        after.play(rng.choice(legal))
        if after.is_over():
            break
        game = after
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20, help="how many positions (20)")
    parser.add_argument("--time", type=float, default=1.0, help="seconds a search (1.0)")
    parser.add_argument("--plies", type=int, default=6, help="random plies from the deal (6)")
    parser.add_argument("--depth", type=int, help="search to this depth, with no time limit")
    parser.add_argument("--threads", type=int, default=1, help="search threads (1)")
    parser.add_argument("--endgame", type=int, metavar="PIECES", help="with endgame tables")
    args = parser.parse_args()
    depths: list[int] = []
    rates: list[float] = []
    total_nodes = 0
    total_time = 0.0
    for k in range(args.positions):
        game = position(k, args.plies)
        if args.depth is None:
            ai = onitama.BuiltinAI(level=2, time=args.time, threads=args.threads)
        else:
            ai = onitama.BuiltinAI(level=2, time=None, depth=args.depth, threads=args.threads)
        if args.endgame is not None:
            ai.set_endgame(onitama.EndgameTable.build(game, args.endgame, 1 << 40))
        t0 = time.perf_counter()
        info = ai.analyse(game)
        elapsed = time.perf_counter() - t0
        nodes = int(info["nodes"])
        depth = int(info["depth"])
        rate = nodes / max(elapsed, 1e-9)
        depths.append(depth)
        rates.append(rate)
        total_nodes += nodes
        total_time += elapsed
        print(
            f"{k:2d} {game.to_notation()}\n   depth {depth:2d}  nodes {nodes:>10d}  "
            f"{rate / 1e6:5.2f} M nodes/s  best {info['action']}  score {info['score']}"
        )
    print(
        f"median depth {statistics.median(depths)}, min {min(depths)}, max {max(depths)}; "
        f"median {statistics.median(rates) / 1e6:.2f} M nodes/s; "
        f"total {total_nodes} nodes in {total_time:.2f} s"
    )


if __name__ == "__main__":
    main()
