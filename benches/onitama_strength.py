"""Strength check: the search AI against the coursework baseline (not part of the tests).

Usage::

    python benches/onitama_strength.py [--n 4] [--deals 0] [--time 1.0] [--seed 1] [--jobs 1]

The strong AI (level 2, ``--time`` seconds a move) plays level 1 (the baseline: win at
once if possible, else avoid allowing a win at once, else random) on the tournament
setups 21, 22 and 23 and on ``--n`` seeded random setups (a tournament start board with
five random cards of the standard 16), each once with either colour, 20 plies a game.
With ``--deals N`` it also plays the standard Onitama deals ``Onitama.standard(seed=k)``, k = 1
to N, each once with either colour, to the end (at most 200 plies, then a tie). Scoring is
the tournament's (2 a win, 1 a tie, 0 a loss); the script prints every game
and the strong AI's share of the points (the target is at least 90%).

Games run in ``--jobs`` threads (the search releases the interpreter); keep it at most the
number of idle cores, since the AIs are timed by the wall clock.
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from LudoGame import onitama

BOARDS = ("bbBbb/...../....W/...../aaAaa", "bbBbb/...../W..../...../aaAaa")


@dataclass
class Result:
    """One game from the strong AI's side."""

    label: str
    colour: str
    points: int
    reason: str
    plies: int


def random_setup(rng: random.Random) -> onitama.Onitama:
    """A tournament start board with five distinct random standard cards, A to move."""
    cards = rng.sample(onitama.STANDARD_CARDS, 5)
    return onitama.Onitama(rng.choice(BOARDS), cards, "A", 20)


def play(label: str, start: onitama.Onitama, colour: str, args: argparse.Namespace) -> Result:
    """One game, the strong AI playing `colour`."""
    strong = onitama.builtin_ai(2, time=args.time, seed=args.seed)
    weak = onitama.builtin_ai(1, seed=args.seed)
    a, b = (strong, weak) if colour == "A" else (weak, strong)
    plies = 200 if start.rules == "standard" else 20
    record = onitama.play_match(a, b, start, max_plies=plies)
    return Result(label, colour, record.points[colour], record.reason, record.plies)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=4, help="random setups (4)")
    parser.add_argument("--deals", type=int, default=0, help="standard deals (0)")
    parser.add_argument("--time", type=float, default=1.0, help="seconds a move (1.0)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the setups and AIs (1)")
    parser.add_argument("--jobs", type=int, default=1, help="games at once (1)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    starts = [(f"setup {s}", onitama.Onitama.setup(s)) for s in onitama.TOURNAMENT_SETUPS]
    for i in range(args.n):
        game = random_setup(rng)
        names = "/".join(c.name or "?" for c in game.cards.values())
        starts.append((f"random {i + 1} ({names})", game))
    for k in range(1, args.deals + 1):
        starts.append((f"standard deal {k}", onitama.Onitama.standard(seed=k)))
    tasks = [(label, g, colour) for label, g in starts for colour in "AB"]
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda t: play(t[0], t[1], t[2], args), tasks))
    elapsed = time.perf_counter() - t0
    width = max(len(r.label) for r in results)
    for r in results:
        outcome = {2: "win", 1: "tie", 0: "LOSS"}[r.points]
        print(
            f"{r.label:<{width}}  strong as {r.colour}: {outcome:<4} {r.reason:<17} {r.plies} plies"
        )
    points = sum(r.points for r in results)
    total = 2 * len(results)
    wins = sum(r.points == 2 for r in results)
    ties = sum(r.points == 1 for r in results)
    print(
        f"\nlevel 2 ({args.time} s a move) vs level 1: {points}/{total} points = "
        f"{100 * points / total:.1f}% ({wins} wins, {ties} ties, "
        f"{len(results) - wins - ties} losses in {len(results)} games; {elapsed:.0f} s)"
    )


if __name__ == "__main__":
    main()
