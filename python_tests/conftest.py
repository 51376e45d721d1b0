"""Shared fixtures for the LudoGame test suite."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parent / "data"

# A shell starts a background job (`cmd &`) with SIGINT ignored, and an ignored signal stays
# ignored in every child: the tests that press Ctrl-C on a child would then wait in vain.
# A handled signal is reset to its default in a child, so handling it here gives each child
# Python's own Ctrl-C, as in a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

WORKED_EXAMPLE_TURNS = [
    ("A", 6), ("A", 4), ("A", 5), ("A", 4), ("B", 6), ("B", 4), ("B", 1), ("B", 2),
    ("A", 6), ("A", 4), ("A", 6), ("A", 3), ("A", 5), ("A", 1), ("A", 5), ("A", 4),
]  # fmt: skip


def load_known_cases() -> list[dict[str, Any]]:
    """The course's worked example, instructor cases and grader tests (copied from shared/)."""
    with open(DATA / "known_cases.json", encoding="utf-8") as f:
        cases: list[dict[str, Any]] = json.load(f)
    return cases


@pytest.fixture
def worked_example_turns() -> list[tuple[str, int]]:
    """The assignment's worked example turns list."""
    return list(WORKED_EXAMPLE_TURNS)


def assert_same_results(a: Any, b: Any) -> None:
    """Two `SimResult`s are equal in every field and every per-game value."""
    assert (a.games, a.players, a.bots, a.rules_notation) == (
        b.games,
        b.players,
        b.bots,
        b.rules_notation,
    )
    assert a.wins == b.wins and a.unfinished == b.unfinished
    assert a.lengths == b.lengths and a.captures == b.captures and a.finishing == b.finishing
    assert (a.total_rolls, a.total_captures) == (b.total_rolls, b.total_captures)


@pytest.fixture(scope="session", autouse=True)
def _data_dir(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The user's data directory (where `ludo serve` keeps its games by default) is a
    temporary one for every test and the servers the tests start, never the real one."""
    import os

    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data-home"))


@pytest.fixture
def ray_cluster() -> Iterator[Any]:
    """The `ray` module with a local two-CPU Ray running: the one already running (a module
    may start its own), or one started for this test and stopped after it."""
    ray = pytest.importorskip("ray")
    running = ray.is_initialized()
    if not running:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    if not running:
        ray.shutdown()


@pytest.fixture(scope="session")
def postgres() -> Any:
    """A real PostgreSQL server for the session (python_tests/pg_support.py): skipped
    without one, a failure under LUDOGAME_REQUIRE_POSTGRES=1."""
    from pg_support import running_postgres, unavailable

    try:
        import psycopg  # noqa: F401
    except ImportError:
        unavailable('psycopg is not installed: pip install ".[postgres]"')
    with running_postgres() as pg:
        yield pg


# ---- no silent skips in CI -------------------------------------------------------------
# With LUDOGAME_NO_SKIPS=1 (.ci/check sets it) a skipped test fails the run: a missing
# dependency must not pass as green. Only the opt-in tests may skip, those whose reason
# names the variable that turns them on ("set LUDOGAME_...").

_SKIPPED: list[str] = []


def _skip_reason(report: pytest.CollectReport | pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


def _note_skip(report: pytest.CollectReport | pytest.TestReport) -> None:
    if report.skipped and not hasattr(report, "wasxfail"):
        reason = _skip_reason(report)
        if "set LUDOGAME_" not in reason:
            _SKIPPED.append(f"{report.nodeid}: {reason}")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _note_skip(report)


def pytest_collectreport(report: pytest.CollectReport) -> None:
    _note_skip(report)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _SKIPPED and os.environ.get("LUDOGAME_NO_SKIPS") == "1" and exitstatus == 0:
        session.exitstatus = 1


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _SKIPPED and os.environ.get("LUDOGAME_NO_SKIPS") == "1":
        terminalreporter.section("skipped, which LUDOGAME_NO_SKIPS=1 does not allow")
        for line in _SKIPPED:
            terminalreporter.line(line)
