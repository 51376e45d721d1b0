"""Ray backends of `simulate`, `tournament` and `onitama.round_robin` (Ray is optional).

Work is cut into tasks that each replay the same thing a local run would do (a range of
game indices of one `Simulation`, or a list of matches), so the merged result is the
local result, bit for bit. Ray is imported only when a Ray backend is asked for.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from LudoGame._install import install_hint

#: Tasks per CPU of the cluster: enough to keep every CPU busy to the end of the run (and
#: to show progress), few enough that the per-task cost (about a millisecond) stays small.
TASKS_PER_CPU = 8

#: Seconds between two counts of the cluster's CPUs during a run (its tasks in flight)
WINDOW_RECOUNT = 5.0

#: The most games one simulation task plays (about 10 bytes of results a game).
MAX_TASK_GAMES = 1_000_000

INSTALL_HINT = f'backend="ray" needs Ray: {install_hint("ray")} (or pip install ray)'


class RayTaskError(RuntimeError):
    """A Ray task failed: the message names the games (or matches) it held, and the task's
    own exception is the `__cause__`. `partial` holds what finished before it, as the
    `partial` of Ctrl-C's `KeyboardInterrupt` (`LudoGame.Interrupted`) does."""

    partial: Any = None


def require_ray() -> Any:
    """The `ray` module, or an `ImportError` saying how to install it."""
    try:
        import ray
    except ImportError as e:
        raise ImportError(INSTALL_HINT) from e
    return ray


@contextmanager
def connected(address: str | None) -> Iterator[Any]:
    """Ray, ready: a Ray the caller already started is used as it is; otherwise Ray is
    started on this machine (no dashboard, errors only, the workers' output not
    forwarded), or joined at `address`. A Ray started here stays up for the next calls
    and stops when the interpreter exits."""
    ray = require_ray()
    if not ray.is_initialized():
        ray.init(
            address=address or None,
            include_dashboard=False,
            logging_level=logging.ERROR,
            log_to_driver=False,
        )
    yield ray


def cpus(ray: Any) -> int:
    """The CPUs of the cluster (at least 1)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def task_size(total: int, cpus: int, per_task_cpus: int = 1) -> int:
    """Items per task: about `TASKS_PER_CPU` tasks for each task slot of the cluster."""
    slots = max(1, cpus // max(1, per_task_cpus))
    return max(1, -(-total // (slots * TASKS_PER_CPU)))


def run_tasks(
    ray: Any,
    calls: Sequence[Callable[[], Any]],
    names: Sequence[str],
    sizes: Sequence[int],
    progress: Callable[[int], None] | None,
    partial: Callable[[list[Any]], Any],
) -> list[Any]:
    """The results of the tasks that `calls` submit (each returns the task's ref), in their
    order, calling `progress(items done)` as each task comes back. A task that fails (or
    cannot be sent) cancels those in flight and raises `RayTaskError` naming it (`names`);
    Ctrl-C cancels every task in flight at once. Either way the exception's `partial` is
    `partial(results)`, with None for the tasks not finished (a task that was back by the
    stop counts as finished).

    At most two tasks a cluster CPU (counted again every few seconds, for a cluster that
    grows) are in flight, the next sent as one comes back: a stop then has only those to
    cancel. (Ray's owner can abort on a cancel that meets a task's result on its way back,
    "Tried to complete task that was not pending": the fewer tasks cancelled, the rarer
    that moment.)"""
    results: list[Any] = [None] * len(calls)
    index: dict[Any, int] = {}
    pending: list[Any] = []
    sent = 0
    done = 0
    window = 0
    counted = -WINDOW_RECOUNT

    def send_more() -> None:
        nonlocal sent, window, counted
        if time.monotonic() - counted >= WINDOW_RECOUNT:
            window, counted = max(2, 2 * cpus(ray)), time.monotonic()
        while sent < len(calls) and len(pending) < window:
            try:
                ref = calls[sent]()
            except Exception as e:
                err = RayTaskError(f"{names[sent]} could not be sent to Ray: {_describe(e)}")
                raise err from e
            index[ref] = sent  # (a Ctrl-C just before this line leaves that one task running)
            pending.append(ref)
            sent += 1

    try:
        send_more()
        while pending:
            ready, pending[:] = ray.wait(pending, num_returns=1)
            i = index.pop(ready[0])
            try:
                results[i] = ray.get(ready[0])
            except ray.exceptions.RayError as e:
                cause = getattr(e, "cause", None) or e
                raise RayTaskError(
                    f"{names[i]} failed on a Ray worker: {_describe(cause)}"
                ) from cause
            done += sizes[i]
            if progress is not None:
                progress(done)
            send_more()
    except BaseException as e:
        for ref, result in _cancel(ray, pending):
            results[index[ref]] = result
        if isinstance(e, KeyboardInterrupt):
            stop = KeyboardInterrupt(*e.args)
            stop.partial = partial(results)  # type: ignore[attr-defined]
            raise stop from None
        if isinstance(e, RayTaskError):
            e.partial = partial(results)
        raise
    return results


def _cancel(ray: Any, refs: list[Any]) -> list[tuple[Any, Any]]:
    """Cancel the tasks of `refs` that have not come back (a forced cancel kills a running
    one), read them as they end, and return those that were back, with their results."""
    if not refs:
        return []
    back, running = ray.wait(refs, num_returns=len(refs), timeout=0)
    finished = []
    for ref in back:
        try:
            finished.append((ref, ray.get(ref)))
        except Exception:  # a second failure: not reported again (the caller has the first)
            pass
    for ref in running:
        ray.cancel(ref, force=True)
    _settle(ray, running)
    return finished


def _settle(ray: Any, refs: list[Any]) -> None:
    """Read the cancelled tasks as they end (within a second: a forced cancel kills them),
    so that Ray does not log their errors as unhandled (the caller reports the first)."""
    if not refs:
        return
    ended, _ = ray.wait(refs, num_returns=len(refs), timeout=1.0)
    for ref in ended:
        try:
            ray.get(ref)
        except Exception:  # a second failure, or a cancelled task: not reported again
            pass


def _describe(e: BaseException) -> str:
    """An exception as 'Type: message'."""
    text = str(e).strip()
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def task_options(num_cpus: int) -> dict[str, Any]:
    """Task options: the CPUs a task takes; no retries of a task whose code raised (the
    error is reported), retries of a task whose worker died (the result is the same)."""
    return {"num_cpus": num_cpus, "retry_exceptions": False}


def check_backend(backend: str, address: str | None) -> None:
    """`backend` is "local" or "ray"; an address is for Ray only."""
    from LudoGame._core import InvalidArgumentError

    if backend not in ("local", "ray"):
        raise InvalidArgumentError(f'backend must be "local" or "ray", not {backend!r}')
    if address is not None and backend != "ray":
        raise InvalidArgumentError('an address is for backend="ray" only')


def play_games(
    config: tuple[Any, ...], start: int, count: int, threads: int
) -> Any:  # pragma: no cover - runs on a Ray worker
    """A task: games `start..start+count` of `Simulation(*config[:4], **config[4])`."""
    from LudoGame._core import Simulation

    rules, players, bots, seed, opts = config
    return Simulation(rules, players, bots, seed, **opts).run(start, count, threads)


_REMOTE: dict[str, Any] = {}


def remote(ray: Any, fn: Callable[..., Any]) -> Any:
    """`fn` as a Ray remote function (made once per process)."""
    if fn.__name__ not in _REMOTE:
        _REMOTE[fn.__name__] = ray.remote(fn)
    return _REMOTE[fn.__name__]


def simulate_ranges(
    ray: Any,
    config: tuple[Any, ...],
    ranges: Sequence[tuple[int, int]],
    threads: int,
    progress: Callable[[int], None] | None,
    label: str = "games",
) -> list[Any]:
    """The `SimResult`s of the game ranges `(start, count)` of one simulation, in order.
    On a failure or Ctrl-C, `partial` is the sum of the finished ranges before the first
    unfinished one (a `SimResult` has no game numbers, so it must stay contiguous)."""
    task = remote(ray, play_games).options(**task_options(threads))
    ref = ray.put(config)
    calls = [functools.partial(task.remote, ref, start, count, threads) for start, count in ranges]
    names = [f"{label} {s}..{s + n - 1}" for s, n in ranges]
    return run_tasks(ray, calls, names, [n for _, n in ranges], progress, prefix_sum)


def prefix_sum(results: Sequence[Any]) -> Any:
    """The sum of the `SimResult`s before the first missing one (None if the first is),
    joined in one pass."""
    prefix = []
    for r in results:
        if r is None:
            break
        prefix.append(r)
    return type(prefix[0])._join(prefix) if prefix else None


def split(start: int, count: int, size: int) -> list[tuple[int, int]]:
    """`start..start+count` as ranges `(start, count)` of `size` (the last may be shorter)."""
    return [(s, min(size, start + count - s)) for s in range(start, start + count, size)]
