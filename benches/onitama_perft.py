"""Time perft on an Onitama setup through the Python API (``Onitama.perft``).

Usage::

    python benches/onitama_perft.py [--setup 21] [--depth 5] [--rounds 3]

perft(d) counts the action sequences of d plies, a winning action counting 1 and ending
its sequence (the convention of tests/data/onitama/perft.json). The count is checked
against that file when it has the number; the best of ``--rounds`` timings is reported,
with the counted actions per second.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from LudoGame import onitama

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "data" / "onitama" / "perft.json"


def known_count(setup_id: str, depth: int) -> int | None:
    """The golden perft count of a setup at a depth, if the data has it."""
    if not GOLDEN.exists():
        return None
    with open(GOLDEN, encoding="utf-8") as f:
        data = json.load(f)
    for s in data["setups"]:
        if s["setup_id"] == setup_id or setup_id in s.get("same_position_as", []):
            for row in s["perft"]:
                if row["depth"] == depth:
                    return int(row["count"])
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", default="21", help="setup id (21)")
    parser.add_argument("--depth", type=int, default=5, help="perft depth (5)")
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds, best kept (3)")
    args = parser.parse_args()
    game = onitama.Onitama.setup(args.setup)
    best = float("inf")
    count = 0
    for _ in range(max(1, args.rounds)):
        t0 = time.perf_counter()
        count = game.perft(args.depth)
        best = min(best, time.perf_counter() - t0)
    expected = known_count(game.setup_id or args.setup, args.depth)
    check = (
        "not in perft.json"
        if expected is None
        else ("matches perft.json" if expected == count else f"MISMATCH: perft.json has {expected}")
    )
    print(f"perft({game.setup_id}, depth {args.depth}) = {count:,} ({check})")
    print(f"best of {args.rounds}: {best:.3f} s, {count / best / 1e6:.1f} M actions/s")
    if expected is not None and expected != count:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
