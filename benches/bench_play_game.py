"""Benchmark the Rust ``LudoGame.play_game`` against the plain-Python reference.

Usage::

    python benches/bench_play_game.py [--quick] [--games N] [--seed S]

Two workloads are run:

* the assignment's worked example, ``play_game`` called many times;
* a few hundred seeded, realistic full games (``workloads.full_games``).

For each workload the script first checks that both implementations give
identical answers on every input (the ``play_game`` result and every
player's p/q step counts and completed flag), then times both in the same
process with ``time.perf_counter``.  Timing rounds of the two
implementations are interleaved, and the best round of each is kept, so
that noise on a busy machine affects both alike.  The printed ratio is
reference time / Rust time.
"""

from __future__ import annotations

import argparse
import importlib
import math
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # the plain-Python baselines live beside this script
    sys.path.insert(0, str(HERE))

Turn = tuple[str, int]
GameInput = tuple[list[str], list[Turn]]
Snapshot = tuple[list[str], list[tuple[str, int, int, bool]]]


@dataclass(frozen=True)
class Settings:
    """How much work one benchmark run does."""

    mode: str
    rounds: int
    target_round_seconds: float
    games: int
    seed: int


FULL = Settings(mode="full", rounds=7, target_round_seconds=1.0, games=300, seed=162)
QUICK = Settings(mode="quick", rounds=3, target_round_seconds=0.12, games=300, seed=162)


def import_rust_game() -> type:
    """Return the compiled ``LudoGame.LudoGame`` class, or exit with status 1."""
    try:
        from LudoGame import LudoGame as RustLudoGame
    except ImportError as exc:
        print(
            "error: cannot import the compiled package: "
            f"`from LudoGame import LudoGame` failed ({exc}).\n"
            "Build and install it first, e.g. `maturin develop --release` "
            "(or `pip install .`) in the project root.",
            file=sys.stderr,
        )
        sys.exit(1)
    return RustLudoGame


def snapshot(game_class: type, players: list[str], turns: list[Turn]) -> Snapshot:
    """Play one game; return its spaces and each player's (pos, p, q, completed)."""
    game = game_class()
    spaces = game.play_game(players, turns)
    details = []
    for position in players:
        player = game.get_player_by_position(position)
        details.append(
            (
                position,
                player.get_token_p_step_count(),
                player.get_token_q_step_count(),
                player.get_completed(),
            )
        )
    return list(spaces), details


def verify(name: str, rust_class: type, reference_class: type, inputs: Sequence[GameInput]) -> None:
    """Raise AssertionError unless both implementations agree on every input."""
    for index, (players, turns) in enumerate(inputs):
        rust = snapshot(rust_class, players, turns)
        reference = snapshot(reference_class, players, turns)
        types_ok = all(type(space) is str for space in rust[0]) and all(
            type(completed) is bool for *_, completed in rust[1]
        )
        if rust != reference or not types_ok:
            raise AssertionError(
                f"{name}: input #{index} differs\n"
                f"  players = {players!r}\n  turns = {turns!r}\n"
                f"  rust      = {rust!r}\n  reference = {reference!r}"
            )


def run_pass(game_class: type, inputs: Sequence[GameInput], repeat: int) -> float:
    """Play every input ``repeat`` times, each on a new game; return seconds."""
    start = time.perf_counter()
    for _ in range(repeat):
        for players, turns in inputs:
            game_class().play_game(players, turns)
    return time.perf_counter() - start


def calibrate(game_class: type, inputs: Sequence[GameInput], target: float) -> int:
    """Return how many passes over ``inputs`` take about ``target`` seconds."""
    repeat = 1
    while True:
        elapsed = run_pass(game_class, inputs, repeat)
        if elapsed >= target / 4 or repeat >= 1 << 24:
            return max(1, math.ceil(repeat * target / max(elapsed, 1e-9)))
        repeat *= 4


@dataclass(frozen=True)
class Timing:
    """Best per-call time of one implementation on one workload."""

    seconds_per_call: float
    calls: int

    @property
    def calls_per_second(self) -> float:
        """Return the number of ``play_game`` calls per second."""
        return 1.0 / self.seconds_per_call


def time_interleaved(
    contenders: dict[str, type], inputs: Sequence[GameInput], settings: Settings
) -> dict[str, Timing]:
    """Time every contender in interleaved rounds; keep each one's best round."""
    repeats = {
        name: calibrate(cls, inputs, settings.target_round_seconds)
        for name, cls in contenders.items()
    }
    best = {name: math.inf for name in contenders}
    names = list(contenders)
    for round_index in range(settings.rounds):
        # Alternate which implementation goes first, so drifts hit both alike.
        order = names if round_index % 2 == 0 else names[::-1]
        for name in order:
            elapsed = run_pass(contenders[name], inputs, repeats[name])
            per_call = elapsed / (repeats[name] * len(inputs))
            best[name] = min(best[name], per_call)
    return {name: Timing(best[name], repeats[name] * len(inputs)) for name in contenders}


def format_time(seconds: float) -> str:
    """Format a duration with a unit that suits it."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} us"
    if seconds < 1.0:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def report(label: str, timings: dict[str, Timing], turns_per_call: float) -> None:
    """Print one workload's timings and the reference/Rust ratio."""
    rust, python = timings["rust"], timings["python"]
    ratio = python.seconds_per_call / rust.seconds_per_call
    print(
        f"{label}: rust {format_time(rust.seconds_per_call)}/call, "
        f"python {format_time(python.seconds_per_call)}/call, ratio {ratio:.1f}x"
    )
    print(
        f"    calls/s: rust {rust.calls_per_second:,.0f}, "
        f"python {python.calls_per_second:,.0f}; per turn: "
        f"rust {format_time(rust.seconds_per_call / turns_per_call)}, "
        f"python {format_time(python.seconds_per_call / turns_per_call)} "
        f"({turns_per_call:.1f} turns/call)"
    )


def run_workload(
    label: str,
    inputs: Sequence[GameInput],
    contenders: dict[str, type],
    settings: Settings,
) -> float:
    """Verify, time and report one workload; return the ratio python/rust."""
    verify(label, contenders["rust"], contenders["python"], inputs)
    print(f"{label}: {len(inputs)} input(s) verified identical")
    timings = time_interleaved(contenders, inputs, settings)
    turns_per_call = sum(len(turns) for _, turns in inputs) / len(inputs)
    report(label, timings, turns_per_call)
    return timings["python"].seconds_per_call / timings["rust"].seconds_per_call


def parse_args(argv: Sequence[str]) -> Settings:
    """Parse the command line into benchmark settings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="fewer, shorter rounds (a few seconds)"
    )
    parser.add_argument("--games", type=int, help="number of full games (300)")
    parser.add_argument("--seed", type=int, help="seed of the full games (162)")
    parser.add_argument("--rounds", type=int, help="timing rounds per implementation")
    args = parser.parse_args(argv)
    base = QUICK if args.quick else FULL
    return Settings(
        mode=base.mode,
        rounds=args.rounds if args.rounds is not None else base.rounds,
        target_round_seconds=base.target_round_seconds,
        games=args.games if args.games is not None else base.games,
        seed=args.seed if args.seed is not None else base.seed,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run both workloads and print their results; return the exit status."""
    settings = parse_args(sys.argv[1:] if argv is None else argv)
    rust_class = import_rust_game()
    reference: Any = importlib.import_module("cs162_reference")
    workloads: Any = importlib.import_module("workloads")
    contenders: dict[str, type] = {"rust": rust_class, "python": reference.LudoGame}

    print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{settings.mode} run: "
        f"best of {settings.rounds} interleaved rounds, "
        f"~{settings.target_round_seconds:g} s per round"
    )
    started = time.perf_counter()
    run_workload("worked example", [workloads.worked_example()], contenders, settings)
    games = workloads.full_games(settings.seed, settings.games)
    label = f"full games ({len(games)} games, seed {settings.seed})"
    run_workload(label, games, contenders, settings)
    print(f"total {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
