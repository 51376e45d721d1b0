"""Benchmark `ludo check` (#25): how fast a student gets a report, and a whole class.

Usage::

    python benches/bench_check.py [--quick] [--files N] [--jobs J] [--games G]

* ``one file``: `LudoGame.check` on the agreeing test file (python_tests/data/check/agree),
  sandboxed: wall time of a full report (G games, 200 by default) and games checked per
  second (each game is played on the student's file in its sandbox and on the engine, and
  every answer compared). The best of three runs counts.
* ``one file that differs``: the same for no_stacking (finding, explaining and shrinking).
* ``a class``: N files (100 by default; copies of the test files, agreeing and differing
  alike) checked by ``ludo check --summary --jobs J`` (2 by default): wall time.

The ratio is against the target of the issue: a student's full report in under 10 s.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

from LudoGame import checker, sandbox
from LudoGame.check_cli import run_all

DATA = Path(__file__).resolve().parent.parent / "python_tests" / "data" / "check"
TARGET_SECONDS = 10.0


def best_of(runs: int, path: Path, games: int) -> tuple[float, checker.Report]:
    best = float("inf")
    report = None
    for _ in range(runs):
        started = time.perf_counter()
        report = checker.check(str(path), games=games, seed=0)
        best = min(best, time.perf_counter() - started)
    assert report is not None
    return best, report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 files, 50 games")
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    if args.quick:
        args.files, args.games = 10, 50
    if not sandbox.available():
        print(f"no sandbox: {sandbox.unavailable_reason()}", file=sys.stderr)
        return 2
    for name in ("agree", "no_stacking"):
        seconds, report = best_of(3, DATA / name / "LudoGame.py", args.games)
        rate = report.checked / seconds
        print(
            f"one file ({name}): {report.checked} games in {seconds:.2f} s, "
            f"{rate:,.0f} games/s, {len(report.differences)} difference(s) explained; "
            f"{TARGET_SECONDS / seconds:.0f}x under the {TARGET_SECONDS:g} s target"
        )
    sources = sorted(DATA.glob("*/LudoGame.py"))
    with tempfile.TemporaryDirectory(prefix="bench-check-") as tmp:
        paths = []
        for k in range(args.files):
            folder = Path(tmp) / f"student{k:03d}"
            folder.mkdir()
            shutil.copy(sources[k % len(sources)], folder / "LudoGame.py")
            paths.append(str(folder / "LudoGame.py"))
        started = time.perf_counter()
        reports = run_all(paths, 0, args.games, 5.0, True, args.jobs)
        seconds = time.perf_counter() - started
    agree = sum(r.agrees for r in reports)
    print(
        f"a class of {args.files} files, {args.games} games each, {args.jobs} jobs: "
        f"{seconds:.1f} s wall ({seconds / args.files:.2f} s per file; {agree} agree)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
