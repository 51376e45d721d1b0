"""Batch simulation and bot tournaments (thin Python glue over the Rust `Simulation`)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Literal

from LudoGame import _ray
from LudoGame._core import (
    SIM_BOT,
    SIM_COUNT,
    SIM_SEED,
    SIM_THREADS,
    InvalidArgumentError,
    SimResult,
    Simulation,
)
from LudoGame.standings import Standing, Table, wilson_interval

Progress = Callable[[int, int], None]


RayTaskError = _ray.RayTaskError


def simulate(
    rules: str = "cs162",
    players: str | Sequence[str] | int | None = None,
    bots: Any = SIM_BOT,
    games: int = SIM_COUNT,
    seed: int = SIM_SEED,
    threads: int = SIM_THREADS,
    *,
    chunk: int | None = None,
    progress: Progress | None = None,
    backend: Literal["local", "ray"] = "local",
    address: str | None = None,
    **options: bool | int | str,
) -> SimResult:
    """Play `games` whole games in Rust and return their results.

    `bots` is one bot for everyone, a list (one per player, in turn order) or a dict keyed by
    position; a bot is a name ("random", "cs162", "aggressive", "safe", "expectimax:2",
    "mcts:1000") or a Python callable `bot(game) -> Move | str` (slower: it runs on one
    thread). The same seed gives the same result for any thread count. With `progress`,
    the run is made in chunks and `progress(done, games)` is called after each.

    `backend="ray"` spreads the games over a Ray cluster (`pip install ".[ray]"`):
    tasks of `chunk` games (default: about 8 tasks per CPU), each on `threads` threads;
    the result is the local one, bit for bit. Ray is started on this machine unless it is
    already running or `address` names a cluster. A failed task raises `RayTaskError`
    naming its games.
    """
    _check_count("games", games)
    _check_seed(seed)
    _ray.check_backend(backend, address)
    sim = Simulation(rules, players, bots, seed, **options)
    if backend == "ray":
        sim.run(0, 0, threads)  # checks the thread count before Ray starts
        if chunk is not None:
            _check_count("chunk", chunk)
        if games == 0:
            return sim.run(0, 0, threads)
        with _ray.connected(address) as ray:
            size = chunk or min(_ray.MAX_TASK_GAMES, _ray.task_size(games, _ray.cpus(ray), threads))
            config = (rules, players, bots, seed, options)
            report = None if progress is None else (lambda n: progress(n, games))
            ranges = _ray.split(0, games, size)
            results = _ray.simulate_ranges(ray, config, ranges, threads, report)
        return _ray.prefix_sum(results)
    if progress is None and chunk is None:
        return sim.run(0, games, threads)
    step = chunk or max(100, min(20_000, games // 50 or 1))
    result = sim.run(0, 0, threads)
    done = 0
    while done < games:
        n = min(step, games - done)
        try:
            result = result + sim.run(done, n, threads)
        except KeyboardInterrupt as e:
            partial = getattr(e, "partial", None)
            if isinstance(partial, SimResult):
                e.partial = result + partial  # type: ignore[attr-defined]
            raise
        done += n
        if progress is not None:
            progress(done, games)
    return result


def _check_seed(seed: int) -> None:
    """A run's seed is named (the result does not keep it): None is refused."""
    if seed is None:
        raise TypeError(
            "seed must be an int (SIM_SEED by default): a result does not keep its seed; "
            "Simulation(seed=None) draws a fresh one and keeps it in .seed"
        )


def _check_count(what: str, value: int) -> None:
    """A count argument: an int, 0 or more."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{what} must be an int, not {type(value).__name__} ({value!r})")
    if value < 0:
        raise InvalidArgumentError(f"{what} must be an int from 0 up, not {value}")


@dataclass
class TournamentResult:
    """Every pairing of the bots, both seatings: standings and the head-to-head results."""

    rules: str
    games_per_pair: int
    standings: list[Standing]
    #: (bot a, bot b) -> (games, wins of a)
    pairs: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)

    def table(self) -> str:
        """The standings as a text table, best first."""
        rows = sorted(self.standings, key=lambda s: s.win_rate, reverse=True)
        width = max(len("bot"), *(len(s.bot) for s in rows))
        out = [f"{'bot':<{width}}  {'games':>8}  {'wins':>8}  {'win rate':>8}  95% interval"]
        for s in rows:
            lo, hi = s.interval
            out.append(
                f"{s.bot:<{width}}  {s.games:>8}  {s.wins:>8}  {s.win_rate:>8.3f}  "
                f"[{lo:.3f}, {hi:.3f}]"
            )
        return "\n".join(out)

    def matrix(self) -> str:
        """Head-to-head win rates: the row bot's rate against the column bot."""
        names = [s.bot for s in self.standings]
        width = max(len(n) for n in names)
        out = [" " * width + "".join(f"  {n:>{max(width, 6)}}" for n in names)]
        for a in names:
            cells = []
            for b in names:
                if a == b:
                    cells.append("-")
                elif (a, b) in self.pairs:
                    n, w = self.pairs[(a, b)]
                    cells.append(f"{w / n:.3f}" if n else "?")
                elif (b, a) in self.pairs:
                    n, w = self.pairs[(b, a)]
                    cells.append(f"{(n - w) / n:.3f}" if n else "?")
                else:
                    cells.append("?")  # not played (an interrupted tournament)
            out.append(f"{a:<{width}}" + "".join(f"  {c:>{max(width, 6)}}" for c in cells))
        return "\n".join(out)

    def __str__(self) -> str:
        return self.table() + "\n\n" + self.matrix()


def tournament(
    bots: Sequence[str],
    rules: str = "cs162",
    games: int = SIM_COUNT,
    seed: int = SIM_SEED,
    threads: int = SIM_THREADS,
    *,
    progress: Progress | None = None,
    backend: Literal["local", "ray"] = "local",
    address: str | None = None,
    **options: bool | int | str,
) -> TournamentResult:
    """Every pairing of `bots` plays `games` two-player games (seats A and C), half with each
    bot first. Returns the standings with 95% confidence intervals and the head-to-head table.
    Ctrl-C raises `KeyboardInterrupt` (`Interrupted`) whose `partial` is the table of the games
    played so far.

    `backend="ray"` plays the games as Ray tasks (game ranges of each pairing and seating,
    about 8 tasks per CPU, each on `threads` threads; see `simulate`): the same result, bit
    for bit. Its `KeyboardInterrupt` (and a `RayTaskError`) has the table of the pairings finished.
    """
    names = list(bots)
    if len(names) < 2 or len(set(names)) != len(names):
        raise InvalidArgumentError(
            f"a tournament needs two or more different bots, not {', '.join(names) or 'none'}"
        )
    _check_count("games", games)
    _check_seed(seed)
    _ray.check_backend(backend, address)
    # Checks the seed, the thread count, the rules and every bot before any game is played.
    for name in names:
        Simulation(rules, "AC", name, seed, **options).run(0, 0, threads)
    standings = Table(names)
    result = TournamentResult(rules, games, standings.lines())
    pairings = list(combinations(range(len(names)), 2))
    total = len(pairings) * games
    if backend == "ray":
        with _ray.connected(address) as ray:
            _tournament_ray(ray, names, pairings, rules, games, seed, threads, options,
                            progress, result, standings)  # fmt: skip
        return result
    done = 0
    for k, (i, j) in enumerate(pairings):
        a, b = names[i], names[j]
        played = wins_a = 0
        try:
            for first, second, n, pair_seed in _seatings(games, seed, k, a, b):
                sim = Simulation(rules, "AC", [first, second], pair_seed, **options)
                try:
                    r = sim.run(0, n, threads)
                except KeyboardInterrupt as e:
                    part = getattr(e, "partial", None)
                    if isinstance(part, SimResult):
                        r = part
                        played += r.games
                        wins_a += r.wins["A"] if first == a else r.wins["C"]
                    raise
                played += r.games
                wins_a += r.wins["A"] if first == a else r.wins["C"]
                done += n
                if progress is not None:
                    progress(done, total)
        except KeyboardInterrupt as e:
            _add_pairing(result, standings, a, b, played, wins_a)
            interrupted = KeyboardInterrupt(*e.args)
            interrupted.partial = result  # type: ignore[attr-defined]
            raise interrupted from None
        _add_pairing(result, standings, a, b, played, wins_a)
    return result


def _seatings(games: int, seed: int, k: int, a: str, b: str) -> list[tuple[str, str, int, int]]:
    """The two seatings of pairing `k` (`a` against `b`): (first, second, games, seed)."""
    return [
        (first, second, games // 2 if seating == 0 else games - games // 2,
         (seed + 1000 * k + seating) % 2**64)
        for seating, (first, second) in enumerate(((a, b), (b, a)))
    ]  # fmt: skip


def _tournament_ray(
    ray: Any,
    names: list[str],
    pairings: list[tuple[int, int]],
    rules: str,
    games: int,
    seed: int,
    threads: int,
    options: dict[str, bool | int | str],
    progress: Progress | None,
    result: TournamentResult,
    standings: Table,
) -> None:
    """The games of `tournament` as Ray tasks, added to `result` pairing by pairing."""
    task = _ray.remote(ray, _ray.play_games).options(**_ray.task_options(threads))
    total = len(pairings) * games
    size = min(_ray.MAX_TASK_GAMES, _ray.task_size(total, _ray.cpus(ray), threads))
    calls: list[Any] = []
    names_of: list[str] = []
    sizes: list[int] = []
    #: (pairing, seating, first) of each task
    owner: list[tuple[int, int, str]] = []
    for k, (i, j) in enumerate(pairings):
        a, b = names[i], names[j]
        for seating, (first, second, n, pair_seed) in enumerate(_seatings(games, seed, k, a, b)):
            config = ray.put((rules, "AC", [first, second], pair_seed, options))
            for start, count in _ray.split(0, n, size):
                calls.append(functools.partial(task.remote, config, start, count, threads))
                names_of.append(f"games {start}..{start + count - 1} of {first} vs {second}")
                sizes.append(count)
                owner.append((k, seating, first))

    def add(results: list[Any]) -> TournamentResult:
        """Add every pairing whose tasks all finished, in pairing order."""
        for k, (i, j) in enumerate(pairings):
            mine = [r for r, (kk, _, _) in zip(results, owner, strict=True) if kk == k]
            if any(r is None for r in mine):
                continue
            wins_a = 0
            for r, (kk, _, first) in zip(results, owner, strict=True):
                if kk == k:
                    wins_a += r.wins["A"] if first == names[i] else r.wins["C"]
            _add_pairing(result, standings, names[i], names[j], games, wins_a)
        return result

    done = None if progress is None else (lambda n: progress(n, total))
    results = _ray.run_tasks(ray, calls, names_of, sizes, done, add)
    add(results)


def _add_pairing(
    result: TournamentResult,
    standings: Table,
    a: str,
    b: str,
    games: int,
    wins_a: int,
) -> None:
    """Record `games` games of `a` against `b` (`wins_a` won by `a`)."""
    if games == 0:
        return
    result.pairs[(a, b)] = (games, wins_a)
    standings.add(a, b, games, wins_a)


__all__ = [
    "Progress",
    "RayTaskError",
    "Standing",
    "TournamentResult",
    "simulate",
    "tournament",
    "wilson_interval",
]
