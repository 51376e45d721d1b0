"""How the Ray backends hand out and stop tasks (`LudoGame._ray.run_tasks`), against a
stand-in for Ray that records what it is asked: how many tasks are in flight, which are
cancelled at a stop, and what a stop keeps. (test_ray.py runs the same on a real Ray.)"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from LudoGame import _ray
from LudoGame._ray import RayTaskError


class FailedError(Exception):
    """The stand-in's task error (Ray's `RayError`)."""


class StandInRay:
    """Tasks come back in the order they were sent. `back_early` holds the numbers of tasks
    that are already back (but not yet read) when a stop looks; `failing` those whose
    result is an error."""

    exceptions = SimpleNamespace(RayError=FailedError)

    def __init__(
        self,
        cpus: int,
        back_early: frozenset[int] = frozenset(),
        failing: frozenset[int] = frozenset(),
    ) -> None:
        self.cpus = cpus
        self.back_early = back_early
        self.failing = failing
        self.sent: list[int] = []
        self.cancelled: list[int] = []
        self.read: list[int] = []

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": float(self.cpus)}

    def submit(self, i: int) -> int:
        self.sent.append(i)
        return i

    def wait(
        self, refs: list[int], num_returns: int, timeout: float | None = None
    ) -> tuple[list[int], list[int]]:
        if timeout == 0:  # a stop: which are back
            back = [r for r in refs if r in self.back_early]
            return back, [r for r in refs if r not in self.back_early]
        if timeout is not None:  # settling the cancelled ones: all end
            return list(refs), []
        return refs[:num_returns], refs[num_returns:]

    def get(self, ref: int) -> int:
        self.read.append(ref)
        if ref in self.failing:
            raise FailedError(f"task {ref} raised")
        return ref * 10

    def cancel(self, ref: int, force: bool) -> None:
        assert force
        self.cancelled.append(ref)


def run(ray: StandInRay, n: int, progress: Any = None, calls: Any = None) -> list[Any]:
    calls = calls or [lambda i=i: ray.submit(i) for i in range(n)]
    names = [f"task {i}" for i in range(n)]
    return _ray.run_tasks(ray, calls, names, [1] * n, progress, list)


def test_two_tasks_a_cpu_are_in_flight_and_the_next_is_sent_as_one_comes_back() -> None:
    ray = StandInRay(cpus=3)
    in_flight: list[int] = []
    results = run(ray, 20, lambda done: in_flight.append(len(ray.sent) - done + 1))
    assert results == [10 * i for i in range(20)] and ray.sent == list(range(20))
    # six in flight until the last six, which come back one by one with none sent after
    assert in_flight == [6] * 15 + [5, 4, 3, 2, 1]
    assert ray.cancelled == []


def test_a_stop_cancels_only_the_tasks_in_flight_and_keeps_those_back() -> None:
    ray = StandInRay(cpus=2, back_early=frozenset({5}))

    def stop(done: int) -> None:
        if done == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as info:
        run(ray, 30, stop)
    # 0..3 sent, then one more as each of the first three came back: 4..6 in flight
    assert ray.sent == list(range(7))
    assert ray.cancelled == [4, 6], "the task back by the stop is not cancelled"
    partial = info.value.partial  # type: ignore[attr-defined]
    assert partial == [0, 10, 20, 30, None, 50] + [None] * 24


def test_a_failed_task_names_itself_cancels_the_rest_and_keeps_what_finished() -> None:
    ray = StandInRay(cpus=1, back_early=frozenset({3}), failing=frozenset({2}))
    with pytest.raises(
        RayTaskError, match="task 2 failed on a Ray worker: FailedError: task 2 raised"
    ) as info:
        run(ray, 10)
    assert ray.cancelled == [] and ray.sent == [0, 1, 2, 3]
    assert info.value.partial == [0, 10, None, 30] + [None] * 6


def test_a_task_that_cannot_be_sent_is_a_task_error_with_what_finished() -> None:
    ray = StandInRay(cpus=1)

    def call(i: int) -> int:
        if i == 5:
            raise ConnectionError("the cluster is gone")
        return ray.submit(i)

    with pytest.raises(RayTaskError, match="task 5 could not be sent to Ray") as info:
        run(ray, 10, calls=[lambda i=i: call(i) for i in range(10)])
    assert info.value.partial == [0, 10, 20, 30, None, None, None, None, None, None]
    assert ray.cancelled == [4], "the one in flight is cancelled"
