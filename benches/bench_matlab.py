"""Benchmark the Octave bridge of MATLAB AIs (LudoGame.matlab) and a course's round robin.

Usage::

    python benches/bench_matlab.py [--quick] [--moves N] [--jobs N]

* The bridge's overhead per move: a trivial ``.m`` AI (it returns a constant answer, so
  its own time is a few microseconds) asked ``--moves`` times (1,000) through one
  sandboxed Octave process; the mean and the 99th percentile per call, against the
  target of 1 ms, and against a new Octave process per call (what a bridge without a
  persistent process pays).
* A process's start: Octave with the worker, sandboxed and not (paid once a game and side).
* A round robin of 8 coursework-style AIs (python_tests/data/matlab's four, and a copy of
  each under another name) over setups 21-23, both sides: wall time in one process and in
  ``--jobs`` (2) processes, and the results checked identical.

Needs GNU Octave and bubblewrap. The exit status is 1 if the parallel results differ.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from LudoGame import matlab, onitama, sandbox

HERE = Path(__file__).resolve().parent
TEST_AIS = HERE.parent / "python_tests" / "data" / "matlab"

TRIVIAL = """function [cardPicked, moveFrom, moveTo, wDir] = AITrivial(currentPlayer, board, ...
    cardA1, cardA2, cardB1, cardB2, sideCard, turn)
cardPicked = 1; moveFrom = 'e1'; moveTo = 'd1'; wDir = 's';
end
"""


def overhead(folder: Path, moves: int) -> tuple[float, float]:
    """Mean and 99th percentile seconds per call of the trivial AI, one process."""
    path = folder / "AITrivial.m"
    path.write_text(TRIVIAL, encoding="utf-8")
    args = onitama.Onitama.setup(21).ai_arguments()
    times = []
    with matlab.matlab_ai(path).session() as session:
        session.wait_ready()
        for _ in range(20):  # warm up: Octave parses the AI on the first call
            session(*args)
        for _ in range(moves):
            t0 = time.perf_counter()
            session(*args)
            times.append(time.perf_counter() - t0)
    times.sort()
    return statistics.fmean(times), times[int(0.99 * (len(times) - 1))]


def process_per_call(folder: Path, calls: int) -> float:
    """Seconds per call when every call starts Octave anew (octave --eval)."""
    octave = matlab.octave_path()
    expr = "[c, f, t, w] = AITrivial('A', repmat(' ', 5), 0, 0, 0, 0, 0, 20);"
    t0 = time.perf_counter()
    for _ in range(calls):
        subprocess.run(
            [octave, "--no-gui", "--quiet", "--norc", "--eval", expr],
            cwd=folder, check=True, capture_output=True,
        )  # fmt: skip
    return (time.perf_counter() - t0) / calls


def startup(sandboxed: bool, count: int) -> float:
    """Seconds from starting a game's Octave process to its worker being ready."""
    ai = matlab.matlab_ai(TEST_AIS / "AIFirst.m", sandbox=sandboxed)
    best = float("inf")
    for _ in range(count):
        t0 = time.perf_counter()
        with ai.session() as s:
            s.wait_ready()
            best = min(best, time.perf_counter() - t0)
    return best


def eight_ais(folder: Path, count: int) -> dict[str, matlab.MatlabAI]:
    """`count` coursework-style AIs: the test AIs, and copies under other names."""
    ais = {}
    for k in range(count):
        base = ("First", "Wall", "Oops", "Bad")[k % 4]
        name = f"AI{base}" if k < 4 else f"AI{base}{k // 4 + 1}"
        text = (TEST_AIS / f"AI{base}.m").read_text(encoding="utf-8")
        path = folder / f"{name}.m"
        path.write_text(text.replace(f"= AI{base}(", f"= {name}(", 1), encoding="utf-8")
        ais[name] = matlab.matlab_ai(path)
    return ais


def main() -> int:
    """Run the benchmark and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: small counts")
    parser.add_argument("--moves", type=int, default=None, help="calls timed (1,000)")
    parser.add_argument("--jobs", type=int, default=2, help="processes of the round robin (2)")
    args = parser.parse_args()
    moves = args.moves or (100 if args.quick else 1000)
    count = 4 if args.quick else 8
    setups = [21] if args.quick else [21, 22, 23]
    print(f"Octave bridge benchmark ({platform.machine()}, {os.cpu_count()} CPUs)")
    print(f"sandbox: {sandbox.describe()}")
    print(f"octave: {matlab.octave_path()}")
    with tempfile.TemporaryDirectory(prefix="bench-matlab-") as tmp:
        folder = Path(tmp)
        mean, p99 = overhead(folder, moves)
        fresh = process_per_call(folder, 3 if args.quick else 10)
        print(
            f"bridge overhead per move (trivial AI, {moves:,} moves): mean {mean * 1e3:.3f} ms, "
            f"p99 {p99 * 1e3:.3f} ms (target <= 1 ms: {'met' if mean <= 1e-3 else 'MISSED'})"
        )
        print(
            f"a new Octave process per call: {fresh * 1e3:.1f} ms a call "
            f"({fresh / mean:,.0f}x the persistent process)"
        )
        n = 2 if args.quick else 5
        boxed, bare = startup(True, n), startup(False, n)
        print(
            f"a game's process start (once a game and side): sandboxed {boxed * 1e3:.0f} ms, "
            f"unsandboxed {bare * 1e3:.0f} ms"
        )
        ais = eight_ais(folder, count)
        games = count * (count - 1) * len(setups)
        timed = {}
        results = {}
        for jobs in (1, args.jobs):
            t0 = time.perf_counter()
            standings = onitama.round_robin(ais, setups, time_budget=10.0, jobs=jobs)
            timed[jobs] = time.perf_counter() - t0
            results[jobs] = [(g.a, g.b, g.setup, g.record.actions) for g in standings.games]
        same = results[1] == results[args.jobs]
        print(
            f"round robin of {count} MATLAB AIs over setups {setups}, both sides ({games} "
            f"games): {timed[1]:.1f} s in 1 process ({timed[1] / games * 1e3:.0f} ms a game), "
            f"{timed[args.jobs]:.1f} s in {args.jobs} processes "
            f"({timed[1] / timed[args.jobs]:.2f}x); results identical: {same}"
        )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
