"""Benchmark the Ray backend against the threaded run, on a local two-CPU Ray.

Usage::

    python benches/bench_ray.py [--quick] [--rounds K] [--cpus N]

Ray is started in this process with ``--cpus`` CPUs (default 2) and warmed up (its
workers started) before anything is timed. Then, in interleaved rounds (the order
alternates; the best round of each contender counts):

* ``simulate``: two-player ``cs162`` games between random bots (the engine's fastest
  workload, so Ray's costs weigh most), ``threads=N`` locally against ``backend="ray"``;
* ``tournament``: four bots, every pairing, both seatings, the same way;
* the cost of a task: ``simulate`` with one game per task, whose time is nearly all Ray's.

Every round checks that the Ray result is the local result (every per-game value). The
report gives games/s, the ratio Ray/threads, the cost per task, and what that cost means
for a 10-million-game run with the default task sizing. The exit status is 1 if a result
differs.
"""

from __future__ import annotations

import argparse
import logging
import os
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

import ray

from bench_simulate import same_result
from LudoGame import _ray, simulate, tournament

BOTS = ["random", "cs162", "aggressive", "safe"]


def best_of(rounds: int, contenders: dict[str, Callable[[], Any]]) -> dict[str, float]:
    """The best time of each contender over `rounds` interleaved rounds."""
    best = {name: float("inf") for name in contenders}
    names = list(contenders)
    for k in range(rounds):
        for name in names if k % 2 == 0 else reversed(names):
            start = time.perf_counter()
            contenders[name]()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def main() -> int:
    """Run the benchmark and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: small counts")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--cpus", type=int, default=2)
    args = parser.parse_args()
    rounds = args.rounds or (2 if args.quick else 5)
    games = 200_000 if args.quick else 4_000_000
    per_pair = 20_000 if args.quick else 100_000
    tiny_tasks = 100 if args.quick else 400
    cpus = args.cpus

    start = time.perf_counter()
    ray.init(num_cpus=cpus, include_dashboard=False, logging_level=logging.ERROR)
    startup = time.perf_counter() - start
    start = time.perf_counter()
    simulate(games=10 * cpus, chunk=1, backend="ray")  # starts the workers
    warmup = time.perf_counter() - start
    print(f"Python {platform.python_version()}, Ray {ray.__version__}, {os.cpu_count()} cores")
    print(f"Ray start {startup:.1f} s, worker warm-up {warmup:.1f} s (not counted below)")
    ok = True

    def check(a: Any, b: Any) -> None:
        nonlocal ok
        if not same_result(a, b):
            ok = False
            print("MISMATCH: the Ray result differs from the local one", file=sys.stderr)

    # simulate
    results: dict[str, Any] = {}

    def sim_local() -> None:
        results["l"] = simulate(games=games, threads=cpus)

    def sim_ray() -> None:
        results["r"] = simulate(games=games, backend="ray")

    t = best_of(rounds, {"threads": sim_local, "ray": sim_ray})
    check(results["l"], results["r"])
    tasks = len(_ray.split(0, games, _ray.task_size(games, cpus)))
    print(f"\nsimulate: cs162, 2 players, random bots, {games:,} games ({tasks} Ray tasks)")
    for name in t:
        print(f"  {name:<8} {t[name]:7.3f} s  {games / t[name]:>12,.0f} games/s")
    print(f"  ray / threads: {t['threads'] / t['ray']:.3f} of the threaded speed")

    # tournament
    total = per_pair * len(BOTS) * (len(BOTS) - 1) // 2
    tours: dict[str, Any] = {}

    def tour_local() -> None:
        tours["l"] = tournament(BOTS, games=per_pair, threads=cpus)

    def tour_ray() -> None:
        tours["r"] = tournament(BOTS, games=per_pair, backend="ray")

    t = best_of(rounds, {"threads": tour_local, "ray": tour_ray})
    if tours["l"].pairs != tours["r"].pairs:
        ok = False
        print("MISMATCH: the Ray tournament differs from the local one", file=sys.stderr)
    print(f"\ntournament: cs162, {len(BOTS)} bots, {per_pair:,} games a pairing ({total:,} games)")
    for name in t:
        print(f"  {name:<8} {t[name]:7.3f} s  {total / t[name]:>12,.0f} games/s")
    print(f"  ray / threads: {t['threads'] / t['ray']:.3f} of the threaded speed")

    # the cost of a task
    t = best_of(rounds, {"tasks": lambda: simulate(games=tiny_tasks, chunk=1, backend="ray")})
    per_task = t["tasks"] / tiny_tasks
    print(f"\ntask cost: {tiny_tasks} one-game tasks in {t['tasks']:.3f} s")
    print(f"  {per_task * 1e3:.2f} ms a task ({cpus} workers; wall time per task)")
    big = 10_000_000
    big_tasks = len(_ray.split(0, big, min(_ray.MAX_TASK_GAMES, _ray.task_size(big, cpus))))
    one_thread = best_of(1, {"one": lambda: simulate(games=games // 4)})["one"]
    rate = (games // 4) / one_thread  # games/s on one thread
    share = big_tasks * per_task / (big / (rate * cpus))
    print(
        f"  a {big:,}-game run: {big_tasks} tasks, {big_tasks * per_task:.2f} s of task cost "
        f"against ~{big / (rate * cpus):.0f} s of games on {cpus} CPUs ({share:.2%})"
    )
    ray.shutdown()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
