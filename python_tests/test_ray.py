"""The Ray backends on a local two-CPU Ray: the same results as the local runs, bit for bit,
progress as tasks come back, the `--ray` flags, a failed task named by its games, Ctrl-C,
and the clear error without Ray."""

from __future__ import annotations

import logging
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import assert_same_results

ray = pytest.importorskip("ray")

from LudoGame import Game, SimResult, cli, onitama, onitama_cli, simulate, tournament  # noqa: E402
from LudoGame._core import Interrupted, InvalidArgumentError  # noqa: E402
from LudoGame.sim import RayTaskError  # noqa: E402

# slow: run by CI, left out of a quick `pytest -m "not slow"`
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    """A two-CPU Ray for the module, started here (so the code under test must reuse it)."""
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR)
    yield
    ray.shutdown()


@pytest.mark.parametrize(
    ("rules", "players", "bots", "options", "chunk", "threads"),
    [
        ("cs162", "AC", "random", {}, None, 1),
        ("standard", "ABCD", ["cs162", "safe", "aggressive", "random"], {"six_limit": 2}, 97, 1),
        ("gt", None, "cs162", {}, None, 2),
    ],
)
def test_simulate_is_the_local_run(
    rules: str, players: str | None, bots: Any, options: dict, chunk: int | None, threads: int
) -> None:
    games = 1_234
    seen: list[tuple[int, int]] = []
    local = simulate(rules, players, bots, games, seed=11, **options)
    remote = simulate(
        rules, players, bots, games, seed=11, threads=threads, chunk=chunk, backend="ray",
        progress=lambda done, total: seen.append((done, total)), **options,
    )  # fmt: skip
    assert_same_results(local, remote)
    # Progress as each task comes back: rising to the total.
    assert len(seen) > 1 and seen[-1] == (games, games)
    assert all(a[0] < b[0] for a, b in zip(seen, seen[1:], strict=False))
    if chunk:
        assert len(seen) == -(-games // chunk)
    assert ray.is_initialized()  # the caller's Ray is left running


def test_simulate_with_a_python_bot_and_no_games() -> None:
    def first_legal(game: Game) -> Any:
        return game.legal_moves[0]

    assert_same_results(
        simulate("cs162", "AC", [first_legal, "random"], 60, seed=3),
        simulate("cs162", "AC", [first_legal, "random"], 60, seed=3, backend="ray"),
    )
    assert_same_results(simulate(games=0), simulate(games=0, backend="ray"))


def test_tournament_is_the_local_run() -> None:
    bots = ["random", "cs162", "safe"]
    seen: list[int] = []
    local = tournament(bots, "standard", 1_001, seed=5)
    remote = tournament(
        bots, "standard", 1_001, seed=5, backend="ray", progress=lambda d, t: seen.append(d)
    )
    assert remote.pairs == local.pairs
    assert remote.standings == local.standings
    assert str(remote) == str(local)
    assert seen[-1] == 3 * 1_001


def test_round_robin_is_the_local_run() -> None:
    inner = onitama.builtin_ai(1, seed=9)

    def wrapped(*args: Any) -> Any:  # a Python AI (a closure, shipped by value)
        return inner(*args)

    ais = {
        "random": onitama.builtin_ai(0, seed=1),
        "baseline": onitama.builtin_ai(1, seed=2),
        "search": onitama.builtin_ai(2, nodes=300, seed=3),
        "wrapped": wrapped,
    }
    seen: list[int] = []
    local = onitama.round_robin(ais, (21, 22, 23))
    remote = onitama.round_robin(
        ais, (21, 22, 23), backend="ray", progress=lambda d, t: seen.append(d)
    )
    assert str(remote) == str(local)
    assert remote.table == local.table
    assert [(g.a, g.b, g.setup) for g in remote.games] == [(g.a, g.b, g.setup) for g in local.games]
    for x, y in zip(remote.games, local.games, strict=True):
        assert (x.record.actions, x.record.reason, x.record.detail, x.record.end) == (
            y.record.actions,
            y.record.reason,
            y.record.detail,
            y.record.end,
        )
    assert seen[-1] == len(local.games) == 6 * 3 * 2


def test_a_failed_task_is_reported_with_its_games() -> None:
    def broken(game: Game) -> Any:
        raise RuntimeError("this bot is broken")

    with pytest.raises(RayTaskError) as info:
        simulate("cs162", "AC", [broken, "random"], 30, chunk=10, backend="ray")
    message = str(info.value)
    assert re.match(r"games (0\.\.9|10\.\.19|20\.\.29) failed on a Ray worker: ", message)
    assert "this bot is broken" in message
    assert info.value.__cause__ is not None
    assert info.value.partial is None or info.value.partial.games % 10 == 0


def test_ctrl_c_cancels_the_tasks_and_keeps_what_finished() -> None:
    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(Interrupted) as info:
        simulate("standard", "ABCD", "random", 20_000, chunk=500, backend="ray", progress=stop)
    partial = info.value.partial
    if partial is not None:  # the first range came back first: the games before the stop
        assert 0 < partial.games < 20_000
        assert_same_results(partial, simulate("standard", "ABCD", "random", partial.games))


def test_tasks_are_sent_two_a_cpu_at_a_time_and_a_stop_cancels_only_those() -> None:
    from LudoGame import _ray

    @ray.remote
    def echo(i: int) -> int:
        return i

    sent: list[int] = []

    def call(i: int) -> Any:
        sent.append(i)
        return echo.remote(i)

    calls = [lambda i=i: call(i) for i in range(40)]
    names = [f"task {i}" for i in range(40)]
    in_flight: list[int] = []
    results = _ray.run_tasks(
        ray, calls, names, [1] * 40, lambda d: in_flight.append(len(sent) - d + 1), list
    )
    assert results == list(range(40)) and sent == list(range(40))
    window = 2 * _ray.cpus(ray)  # 4 on the two-CPU Ray
    # as many in flight until the last ones, which come back one by one
    assert in_flight == [window] * (40 - window + 1) + list(range(window - 1, 0, -1))

    sent.clear()

    def stop(done: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as info:
        _ray.run_tasks(ray, calls, names, [1] * 40, stop, list)
    assert len(sent) == window, "the stop came at the first task back: no more were sent"
    partial = info.value.partial  # type: ignore[attr-defined]
    # the first one back, and any others that came back before the cancel reached them
    kept = [i for i, r in enumerate(partial) if r is not None]
    assert 1 <= len(kept) <= window and all(partial[i] == i and i < window for i in kept)


def test_bad_backend_arguments() -> None:
    with pytest.raises(InvalidArgumentError, match="backend"):
        simulate(games=10, backend="spark")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="chunk"):
        simulate(games=10, chunk=-1, backend="ray")
    with pytest.raises(InvalidArgumentError, match="address"):
        simulate(games=10, address="ray://head:10001")
    with pytest.raises(InvalidArgumentError, match="backend"):
        onitama.round_robin({"a": onitama.builtin_ai(0), "b": onitama.builtin_ai(1)}, backend="x")  # type: ignore[arg-type]


def test_without_ray_the_error_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails
    with pytest.raises(ImportError, match=r'pip install "\.\[ray\]" in the LudoGame source'):
        simulate(games=10, backend="ray")
    with pytest.raises(ImportError, match=r'pip install "\.\[ray\]" in the LudoGame source'):
        onitama.round_robin({"a": onitama.builtin_ai(0), "b": onitama.builtin_ai(1)}, backend="ray")
    assert len(simulate(games=10).lengths) == 10  # the local backend does not need Ray
    assert cli.main(["simulate", "--games", "10", "--ray"]) == 2
    assert 'pip install ".[ray]" in the LudoGame source folder' in capsys.readouterr().err
    assert onitama_cli.main(["tournament", "0", "1", "--setups", "21", "--ray"]) == 2
    assert 'pip install ".[ray]" in the LudoGame source folder' in capsys.readouterr().err


def _without_timing(text: str) -> str:
    return re.sub(r"games in .* s \(.*/s\)", "games", text)


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--rules", "standard", "--games", "3000", "--seed", "4"],
        ["tournament", "--bots", "random,cs162,safe", "--games", "400", "--seed", "2"],
    ],
)
def test_ludo_commands_with_ray(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 0
    local = capsys.readouterr().out
    assert cli.main([*argv, "--ray"]) == 0
    assert _without_timing(capsys.readouterr().out) == _without_timing(local)


def test_onitama_tournament_with_ray(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "0", "1", "2", "2", "--nodes", "200", "--setups", "21,22"]
    assert onitama_cli.main(argv) == 0
    local = capsys.readouterr().out
    assert "L2#2" in local and local.count("\n") == 5
    assert onitama_cli.main([*argv, "--ray"]) == 0
    assert capsys.readouterr().out == local


def test_the_command_starts_a_quiet_local_ray() -> None:
    """Run as a user does: no Ray running yet, so the command starts one, without noise."""
    argv = ["-m", "LudoGame", "simulate", "--games", "2000", "--seed", "1"]
    run = subprocess.run(
        [sys.executable, *argv, "--ray"], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    local = subprocess.run([sys.executable, *argv], capture_output=True, text=True, timeout=60)
    assert _without_timing(run.stdout) == _without_timing(local.stdout)


class FakeRay:
    """Stands in for the `ray` module: records how it is started."""

    def __init__(self, running: bool) -> None:
        self.running = running
        self.inits: list[dict[str, Any]] = []
        self.shutdowns = 0

    def is_initialized(self) -> bool:
        return self.running

    def init(self, **kwargs: Any) -> None:
        self.inits.append(kwargs)
        self.running = True

    def shutdown(self) -> None:
        self.shutdowns += 1


@pytest.mark.parametrize("address", [None, "ray://head:10001"])
def test_ray_is_started_quietly_or_joined_at_the_address(
    monkeypatch: pytest.MonkeyPatch, address: str | None
) -> None:
    from LudoGame import _ray

    fake = FakeRay(running=False)
    monkeypatch.setitem(sys.modules, "ray", fake)
    with _ray.connected(address) as got:
        assert got is fake
    assert fake.inits == [
        {
            "address": address,
            "include_dashboard": False,
            "logging_level": logging.ERROR,
            "log_to_driver": False,
        }
    ]
    with _ray.connected(address):  # started once, then reused
        pass
    assert len(fake.inits) == 1 and fake.shutdowns == 0


def test_a_running_ray_is_used_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    from LudoGame import _ray

    fake = FakeRay(running=True)
    monkeypatch.setitem(sys.modules, "ray", fake)
    with _ray.connected("ray://elsewhere:10001"):
        pass
    assert fake.inits == [] and fake.shutdowns == 0


def test_the_ray_flag_passes_the_address(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []

    def fake_simulate(*args: Any, **kwargs: Any) -> SimResult:
        seen.append((kwargs["backend"], kwargs["address"]))
        return simulate(games=0)

    def fake_round_robin(*args: Any, **kwargs: Any) -> onitama.Standings:
        seen.append((kwargs["backend"], kwargs["address"]))
        return onitama.Standings([])

    monkeypatch.setattr(cli, "simulate", fake_simulate)
    monkeypatch.setattr(onitama_cli, "round_robin", fake_round_robin)
    assert cli.main(["simulate", "--games", "5", "--ray", "ray://head:10001"]) == 0
    assert cli.main(["simulate", "--games", "5", "--ray"]) == 0
    assert onitama_cli.main(["tournament", "0", "1", "--ray", "auto"]) == 0
    assert seen == [("ray", "ray://head:10001"), ("ray", None), ("ray", "auto")]
