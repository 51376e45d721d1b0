"""Benchmark the states a change of an online Ludo game builds (``ludo serve``'s sessions).

Usage::

    python benches/bench_states.py [--quick] [--moves N]

A change made by a person builds the game's state twice at one version when the game has
event streams: for the action's answer (no large field) and for its streams (the board's
SVG and the history's new entries). While a change is made (`Session.sharing`, set by
`Games.changing`) the small fields and what undo may do are worked out once; outside one,
every state works them out. This prints the time of the two states of a change both ways,
on one online two-player game after N (40) random steps, and their ratio (the plain way,
run in the same process, is the baseline). ``--quick``: fewer repeats.
"""

from __future__ import annotations

import argparse
import functools
import random
import timeit
from collections.abc import Iterator

from LudoGame._core import Game
from LudoGame.web.ludo import LudoSession


def random_steps(s: LudoSession, steps: int, seed: int) -> Iterator[None]:
    """Play up to `steps` seeded random steps of `s`, each a person's change (a roll, or a
    legal move), until the game is over; yields after each."""
    g, rng = s.game, random.Random(seed)
    for _ in range(steps):
        if g.is_over():
            return
        if g.phase.value == "roll":
            g.roll()
        else:
            g.play(rng.choice(g.legal_moves).name)
        s.changed("human")
        yield


def session(moves: int) -> LudoSession:
    """An online two-player game (B on another device) after `moves` random steps."""
    s = LudoSession(Game("cs162", "AB", 4), {"A": "human", "B": "remote"})
    s.issue_keys(["B"])
    s.presence = dict
    for _ in random_steps(s, moves, 2):
        pass
    return s


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--moves", type=int, default=40, help="steps played before timing")
    args = parser.parse_args()
    s = session(args.moves)
    answer: frozenset[str] = frozenset()
    streams = frozenset(s.large)
    since = max(0, len(s.actors) - 1)

    def change(sharing: bool) -> None:
        s.sharing = sharing
        s.forget_state()
        s.state(answer)
        s.state(streams, since)

    s.sharing = True
    s.forget_state()
    shared_states = (s.state(answer), s.state(streams, since))
    s.sharing = False
    s.forget_state()
    plain_states = (s.state(answer), s.state(streams, since))
    if shared_states != plain_states:
        print("error: the states differ with and without sharing")
        return 1
    number, repeat = (200, 3) if args.quick else (2000, 7)
    times: dict[bool, float] = {}
    for sharing in (False, True, False, True):
        run = functools.partial(change, sharing)
        t = min(timeit.repeat(run, number=number, repeat=repeat)) / number
        times[sharing] = min(t, times.get(sharing, t))
    print(
        f"the two states of a change (online Ludo, {len(s.actors)} entries): "
        f"each worked out {times[False] * 1e6:.1f} us, small fields once "
        f"{times[True] * 1e6:.1f} us (ratio {times[True] / times[False]:.2f})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
