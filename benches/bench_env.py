"""Benchmark the vector learning environment against the PettingZoo environment driven
from Python.

Usage::

    python benches/bench_env.py [--quick] [--rounds K] [--envs N]

Workload: N (1,024) two-player games against the ``random`` bot, the learner's random
legal actions drawn in NumPy from the action masks (one vectorised draw per step):

* ``vector cs162`` / ``vector standard``: ``LudoVectorEnv(N, threads=1)``, whole batches
  stepped in Rust (agent steps per second: environments x batch steps);
* ``vector cs162, 2 threads``: the same with ``threads=2``;
* ``vector cs162, same-step``: ``autoreset_mode=SAME_STEP`` (the default is next-step);
* ``vector cs162, NumPy opponent``: the opponent is a batched Python policy (NumPy's
  random legal action, the self-play set-up), called once per round for the whole batch;
* ``aec cs162``: the same games through ``ludo_v0.raw_env`` (PettingZoo's AEC API) driven
  by PettingZoo's usual loop from Python, one agent step at a time; the AEC API has no
  built-in bots, so the random opponent acts through Python too, and only the learner's
  steps count (as in the vector environment).

Timing rounds are interleaved and each contender's best round counts, so noise on a busy
machine hits all alike. Every run also checks that one and two threads give identical
observations and rewards; the exit status is 1 if they differ.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

try:
    from LudoGame.envs import LudoVectorEnv, ludo_v0
except ImportError as exc:  # pragma: no cover - depends on the installation
    print(f"error: {exc}. Install with: pip install '.[rl]'", file=sys.stderr)
    sys.exit(1)


def random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row of `masks`."""
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def numpy_opponent(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A batched opponents' policy: a random legal action per row, drawn in NumPy."""
    return random_actions(_OPPONENT_RNG, masks)


_OPPONENT_RNG = np.random.default_rng(3)


def vector_run(
    rules: str, envs: int, steps: int, threads: int, **kwargs: Any
) -> Callable[[], tuple[int, float]]:
    """A timed batch of `steps` vector steps: returns (agent steps, seconds)."""
    kwargs.setdefault("opponents", "random")
    env = LudoVectorEnv(envs, rules=rules, seed=1, threads=threads, **kwargs)

    def run() -> tuple[int, float]:
        rng = np.random.default_rng(0)
        _, info = env.reset(seed=1)
        masks = info["action_mask"]
        t0 = time.perf_counter()
        for _ in range(steps):
            _, _, _, _, info = env.step(random_actions(rng, masks))
            masks = info["action_mask"]
        return envs * steps, time.perf_counter() - t0

    return run


def aec_run(rules: str, steps: int) -> Callable[[], tuple[int, float]]:
    """A timed run of `steps` learner steps through the PettingZoo AEC environment, driven
    by PettingZoo's usual loop (``agent_iter``, ``last``, ``step``); the opponent
    (``player_1``) plays random legal moves from Python too, uncounted, as the vector
    environment's opponent plays them in Rust."""
    env = ludo_v0.raw_env(rules=rules, players=2)

    def run() -> tuple[int, float]:
        rng = np.random.default_rng(0)
        env.reset(seed=1)
        done = 0
        t0 = time.perf_counter()
        while done < steps:
            for agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                env.step(int(random_actions(rng, obs["action_mask"][None, :])[0]))
                done += agent == "player_0"
            env.reset()
        return done, time.perf_counter() - t0

    return run


def threads_agree(envs: int, steps: int) -> bool:
    """Do one and two threads give the same observations, rewards and flags?"""
    outs = []
    for threads in (1, 2):
        env = LudoVectorEnv(envs, rules="cs162", seed=5, threads=threads)
        rng = np.random.default_rng(3)
        obs, info = env.reset()
        trace = [obs]
        for _ in range(steps):
            obs, rew, term, trunc, info = env.step(random_actions(rng, info["action_mask"]))
            trace += [obs, rew, term, trunc]
        outs.append(trace)
    return all(np.array_equal(a, b) for a, b in zip(*outs, strict=True))


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--rounds", type=int, default=None, help="timing rounds (best counts)")
    parser.add_argument("--envs", type=int, default=1024, help="environments in the batch")
    args = parser.parse_args()
    rounds = args.rounds or (2 if args.quick else 5)
    steps = 30 if args.quick else 300
    aec_steps = 3_000 if args.quick else 30_000
    contenders: dict[str, Callable[[], tuple[int, float]]] = {
        "vector cs162": vector_run("cs162", args.envs, steps, 1),
        "vector standard": vector_run("standard", args.envs, steps, 1),
        "vector cs162, 2 threads": vector_run("cs162", args.envs, steps, 2),
        "vector cs162, same-step": vector_run(
            "cs162", args.envs, steps, 1, autoreset_mode="same_step"
        ),
        "vector cs162, NumPy opponent": vector_run(
            "cs162", args.envs, steps, 1, opponents=numpy_opponent
        ),
        "aec cs162": aec_run("cs162", aec_steps),
    }
    best: dict[str, float] = {}
    names = list(contenders)
    for k in range(rounds):
        order = names if k % 2 == 0 else names[::-1]
        for name in order:
            n, secs = contenders[name]()
            best[name] = max(best.get(name, 0.0), n / secs)
    agree = threads_agree(64, 200)
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"{args.envs} two-player games against 'random', best of {rounds} rounds")
    for name in names:
        print(f"  {name:<30} {best[name]:>14,.0f} agent steps/s")
    ratio = best["vector cs162"] / best["aec cs162"]
    print(f"  vector (1 thread) / AEC from Python, cs162: {ratio:,.0f}x")
    print(f"  one and two threads identical: {'yes' if agree else 'NO'}")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
