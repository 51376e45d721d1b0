"""Benchmark the Rust batch simulation against the plain-Python simulator.

Usage::

    python benches/bench_simulate.py [--quick] [--rounds K] [--seed S]

Two workloads, four players (A, B, C, D) with random bots, each game played until one
player is left:

* ``cs162``: the CS162 rules (two tokens, one bonus roll per 6, bounce, stacks);
* ``standard``: standard Ludo (four tokens, every 6 rolls again, exact finish).

For each, ``LudoGame.simulate(rules, "ABCD", "random", games=N, seed=s, threads=t)`` is
timed with one and with two threads, and ``benches/py_sim.py`` on a smaller number of
games, in the same process. Timing rounds are interleaved (the order alternates) and the
best round of each contender counts, so noise on a busy machine hits all of them alike.
Round k uses seed S + k for every contender.

Every round also checks that one and two threads give the identical result (wins, game
lengths, captures and finishing orders). At the end the games of all rounds are pooled
and the two simulators' statistics are compared: mean game length (die rolls), mean
captures per game and each seat's win rate must agree within 4 standard errors of the
difference. The exit status is 1 if anything disagrees.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # the plain-Python baselines live beside this script
    sys.path.insert(0, str(HERE))
PLAYERS = "ABCD"
Z_LIMIT = 4.0


@dataclass(frozen=True)
class Workload:
    """One rule set and how many games each contender plays per round."""

    rules: str
    rust_games: int
    python_games: int


@dataclass(frozen=True)
class Settings:
    """How much work one benchmark run does."""

    mode: str
    rounds: int
    seed: int
    workloads: tuple[Workload, ...]


FULL = Settings(
    mode="full",
    rounds=9,
    seed=2024,
    workloads=(Workload("cs162", 40_000, 1_500), Workload("standard", 12_000, 450)),
)
QUICK = Settings(
    mode="quick",
    rounds=3,
    seed=2024,
    workloads=(Workload("cs162", 6_000, 500), Workload("standard", 2_000, 200)),
)


def import_ludogame() -> ModuleType:
    """Return the compiled ``LudoGame`` package, or exit with status 1."""
    try:
        import LudoGame
    except ImportError as exc:
        print(
            f"error: cannot import the compiled package LudoGame ({exc}).\n"
            "Build and install it first: `pip install .` in the project root.",
            file=sys.stderr,
        )
        sys.exit(1)
    return LudoGame


def same_result(one: Any, two: Any) -> bool:
    """Do two Rust ``SimResult``s hold the same games?"""
    return (
        one.games == two.games
        and one.wins == two.wins
        and one.unfinished == two.unfinished
        and one.lengths == two.lengths
        and one.captures == two.captures
        and one.finishing == two.finishing
    )


@dataclass
class Contender:
    """One way of playing a batch of games, and its best round so far."""

    name: str
    games: int
    play: Callable[[int], Any]  # seed -> result
    best: float = math.inf
    best_cpu: float = math.nan  # CPU seconds (all threads) of the best round

    @property
    def games_per_second(self) -> float:
        """Games per second in the best round."""
        return self.games / self.best

    @property
    def cores_used(self) -> float:
        """CPU time over wall time in the best round (about 2 when two threads ran at once)."""
        return self.best_cpu / self.best

    def timed(self, seed: int) -> Any:
        """Play one round; remember it if it is the fastest."""
        cpu = time.process_time()
        started = time.perf_counter()
        result = self.play(seed)
        elapsed = time.perf_counter() - started
        if elapsed < self.best:
            self.best, self.best_cpu = elapsed, time.process_time() - cpu
        return result


def run_workload(ludo: ModuleType, py_sim: ModuleType, work: Workload, settings: Settings) -> bool:
    """Time, check and report one workload; return True when everything agrees."""
    rules = work.rules

    def rust(threads: int) -> Callable[[int], Any]:
        return lambda seed: ludo.simulate(
            rules, PLAYERS, "random", games=work.rust_games, seed=seed, threads=threads
        )

    contenders = [
        Contender("rust, 1 thread", work.rust_games, rust(1)),
        Contender("rust, 2 threads", work.rust_games, rust(2)),
        Contender(
            "python",
            work.python_games,
            lambda seed: py_sim.simulate(rules, PLAYERS, work.python_games, seed),
        ),
    ]
    rust_pool: Any = None
    python_pool: Any = None
    for k in range(settings.rounds):
        seed = settings.seed + k
        order = contenders if k % 2 == 0 else contenders[::-1]
        results = {c.name: c.timed(seed) for c in order}
        one, two = results["rust, 1 thread"], results["rust, 2 threads"]
        if not same_result(one, two):
            print(f"{rules}: seed {seed}: threads=1 and threads=2 differ: {one!r} vs {two!r}")
            return False
        rust_pool = one if rust_pool is None else rust_pool + one
        python_pool = pool_python(python_pool, results["python"])

    rust1, rust2, python = contenders
    print(
        f"{rules}: {work.rust_games} rust games/round (threads=1 and 2 identical in all "
        f"{settings.rounds} rounds), {work.python_games} python games/round"
    )
    for c in contenders:
        print(
            f"    {c.name:<16} {c.games_per_second:>12,.0f} games/s  "
            f"(best round {c.best:.3f} s, {c.cores_used:.2f} cores busy)"
        )
    print(
        f"    2-thread/1-thread scaling {rust2.games_per_second / rust1.games_per_second:.2f}x; "
        f"rust/python {rust1.games_per_second / python.games_per_second:.1f}x (1 thread), "
        f"{rust2.games_per_second / python.games_per_second:.1f}x (2 threads)"
    )
    comparisons = py_sim.agreement(rust_pool, python_pool)
    ok = all(c.agrees(Z_LIMIT) for c in comparisons)
    print(
        f"    agreement ({rust_pool.games} rust vs {python_pool.games} python games, "
        f"|z| < {Z_LIMIT:g}): {'agree' if ok else 'DISAGREE'}"
    )
    for c in comparisons:
        print(f"      {c}{'' if c.agrees(Z_LIMIT) else '   <-- disagrees'}")
    return ok


def pool_python(pool: Any, result: Any) -> Any:
    """Add a ``PySimResult`` to the pooled one."""
    if pool is None:
        return result
    pool.games += result.games
    for label, wins in result.wins.items():
        pool.wins[label] += wins
    pool.lengths += result.lengths
    pool.captures += result.captures
    pool.finishing += result.finishing
    pool.unfinished += result.unfinished
    return pool


def parse_args(argv: Sequence[str]) -> Settings:
    """Parse the command line into benchmark settings."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds instead of ~a minute")
    parser.add_argument("--rounds", type=int, help="timing rounds per contender")
    parser.add_argument("--seed", type=int, help="seed of the first round")
    args = parser.parse_args(argv)
    base = QUICK if args.quick else FULL
    return Settings(
        mode=base.mode,
        rounds=max(1, args.rounds) if args.rounds is not None else base.rounds,
        seed=args.seed if args.seed is not None else base.seed,
        workloads=base.workloads,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run every workload; return the exit status."""
    settings = parse_args(sys.argv[1:] if argv is None else argv)
    ludo = import_ludogame()
    py_sim = importlib.import_module("py_sim")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs "
        f"(load average {load:.2f}), {settings.mode} run: best of {settings.rounds} "
        f"interleaved rounds, seeds {settings.seed}..{settings.seed + settings.rounds - 1}"
    )
    started = time.perf_counter()
    ok = True
    for work in settings.workloads:
        ok &= run_workload(ludo, py_sim, work, settings)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"total {time.perf_counter() - started:.1f} s (load average now {load:.2f}; the "
        "2-thread figures need a second idle core)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
