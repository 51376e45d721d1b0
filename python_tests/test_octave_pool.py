"""The bounded pool of Octave processes a web server's MATLAB AIs share
(`LudoGame.matlab.OctavePool`): a side's plies reuse its process, another game never does,
the pool never holds more than its size, a ply waits for a busy pool, and a released game,
an idle process or a closed pool leaves no Octave behind (counted in /proc).

Skipped without Octave and bubblewrap; a failure under LUDOGAME_REQUIRE_OCTAVE=1 (CI)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

import matlab_support as ms
from LudoGame import matlab
from LudoGame.onitama import Onitama

HEADER = (
    "function [cardPicked, moveFrom, moveTo, wDir] = {name}(currentPlayer, board, "
    "cardA1, cardA2, cardB1, cardB2, sideCard, turn)\n"
)
#: How long a test waits for something that should happen at once (never reached when
#: it works; no test asserts a speed).
PATIENCE = 30.0


@pytest.fixture(autouse=True)
def _octave() -> None:
    ms.require()


def write_ai(folder: Path, name: str, body: str) -> Path:
    path = folder / f"{name}.m"
    path.write_text(HEADER.format(name=name) + body + "\nend\n", encoding="utf-8")
    return path


@pytest.fixture
def counting(tmp_path: Path) -> matlab.MatlabAI:
    """An AI that answers how often it was called in its process (a persistent variable)
    and how many entries a global of its has (both 1 in a fresh process)."""
    path = write_ai(
        tmp_path,
        "AICount",
        "persistent n;\nglobal seen;\nif isempty(n)\n  n = 0;\nend\nn = n + 1;\n"
        "seen = [seen 1];\ncardPicked = n;\nmoveFrom = sprintf('%d', numel(seen));\n"
        "moveTo = 'a1';\nwDir = 's';",
    )
    return matlab.MatlabAI(path, move_time=10)


@pytest.fixture
def looping(tmp_path: Path) -> matlab.MatlabAI:
    """An AI that never answers (within its 10 s)."""
    return matlab.MatlabAI(write_ai(tmp_path, "AILoop", "while true\nend"), move_time=10)


ARGS = Onitama.setup(21).ai_arguments()


def until(check: Any) -> None:
    """Wait until `check()` holds (a failure after PATIENCE seconds)."""
    deadline = time.monotonic() + PATIENCE
    while not check():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.02)


def test_a_sides_plies_reuse_its_process_and_another_game_starts_afresh(
    counting: matlab.MatlabAI,
) -> None:
    pool = matlab.OctavePool(4)
    try:
        assert ms.octave_processes() == []
        assert pool.ask(("g1", "A"), counting, ARGS) == (1, "1", "a1", "s")
        assert pool.ask(("g1", "A"), counting, ARGS) == (2, "2", "a1", "s")
        # the other side and another game: fresh processes (no persistent nor global kept)
        assert pool.ask(("g1", "B"), counting, ARGS) == (1, "1", "a1", "s")
        assert pool.ask(("g2", "A"), counting, ARGS) == (1, "1", "a1", "s")
        assert pool.ask(("g1", "A"), counting, ARGS) == (3, "3", "a1", "s")
        assert pool.open == 3 and len(ms.octave_processes()) == 3
        pool.release("g1")  # both sides of g1 closed, g2's kept
        assert pool.open == 1 and len(ms.octave_processes()) == 1
        assert pool.ask(("g1", "A"), counting, ARGS) == (1, "1", "a1", "s")
    finally:
        pool.close()
    assert ms.octave_processes() == [] and pool.open == 0
    with pytest.raises(matlab.MatlabStoppedError):
        pool.ask(("g3", "A"), counting, ARGS)


def test_a_full_pool_replaces_its_least_recently_used_idle_process(
    counting: matlab.MatlabAI,
) -> None:
    pool = matlab.OctavePool(2)
    try:
        for game in ("g1", "g2", "g1", "g3", "g4", "g3"):
            pool.ask((game, "A"), counting, ARGS)
            assert len(ms.octave_processes()) <= 2 and pool.open <= 2
        assert pool.most == 2
        # the least recently used idle process made way: g2's for g3, then g1's for g4;
        # g3's lives on, g1 starts afresh
        assert pool.ask(("g3", "A"), counting, ARGS)[0] == 3
        assert pool.ask(("g1", "A"), counting, ARGS)[0] == 1
    finally:
        pool.close()
    assert ms.octave_processes() == []


def test_a_ply_waits_while_every_process_thinks_and_release_stops_a_ply(
    counting: matlab.MatlabAI, looping: matlab.MatlabAI
) -> None:
    pool = matlab.OctavePool(1)
    results: dict[str, Any] = {}

    def ask(game: str, ai: matlab.MatlabAI) -> None:
        try:
            results[game] = pool.ask((game, "A"), ai, ARGS)
        except Exception as e:  # noqa: BLE001 (the test looks at it)
            results[game] = e

    try:
        slow = threading.Thread(target=ask, args=("g1", looping))
        slow.start()
        until(lambda: pool.open == 1 and len(ms.octave_processes()) == 1)
        waiting = threading.Thread(target=ask, args=("g2", counting))
        waiting.start()
        until(lambda: pool.waiting == 1)
        assert len(ms.octave_processes()) == 1  # no second process while it waits
        pool.release("g1")  # the thinking ply is killed: not the AI's failure
        slow.join(PATIENCE)
        waiting.join(PATIENCE)
        assert isinstance(results["g1"], matlab.MatlabStoppedError), results["g1"]
        assert results["g2"] == (1, "1", "a1", "s")
        assert pool.most == 1 and len(ms.octave_processes()) == 1
        # a ply waiting for a process stops waiting when its game is released
        slow = threading.Thread(target=ask, args=("g3", looping))
        slow.start()
        until(lambda: "g3" not in results and pool.waiting == 0 and pool.open == 1)
        until(lambda: len(ms.octave_processes()) == 1)
        waiting = threading.Thread(target=ask, args=("g4", counting))
        waiting.start()
        until(lambda: pool.waiting == 1)
        pool.release("g4")
        waiting.join(PATIENCE)
        assert isinstance(results["g4"], matlab.MatlabStoppedError), results["g4"]
    finally:
        pool.close()
    slow.join(PATIENCE)
    assert isinstance(results["g3"], matlab.MatlabStoppedError), results["g3"]
    assert ms.octave_processes() == []


def test_an_idle_process_is_closed(counting: matlab.MatlabAI) -> None:
    pool = matlab.OctavePool(2, idle=0.2)
    try:
        pool.ask(("g1", "A"), counting, ARGS)
        until(lambda: pool.open == 0)
        assert ms.octave_processes() == []
        assert pool.ask(("g1", "A"), counting, ARGS)[0] == 1  # afresh
    finally:
        pool.close()


def test_a_timeout_and_an_error_close_the_process(tmp_path: Path, looping: matlab.MatlabAI) -> None:
    pool = matlab.OctavePool(2)
    quick = matlab.MatlabAI(looping.path, move_time=0.5)
    failing = matlab.MatlabAI(
        write_ai(tmp_path, "AIErr", "error('no move for %s', currentPlayer);")
    )
    try:
        with pytest.raises(matlab.MatlabTimeoutError, match="within 0.5 s"):
            pool.ask(("g1", "A"), quick, ARGS)
        with pytest.raises(matlab.MatlabError, match="no move for A") as raised:
            pool.ask(("g2", "A"), failing, ARGS)
        assert not isinstance(raised.value, matlab.MatlabTimeoutError)
        assert pool.open == 0 and ms.octave_processes() == []
    finally:
        pool.close()


@pytest.mark.parametrize("size", [0, -1, True, 1.5, "4"])
def test_a_bad_size_is_refused(size: Any) -> None:
    with pytest.raises(ValueError, match="size"):
        matlab.OctavePool(size)


@pytest.mark.parametrize("idle", [0, -1.0, float("nan")])
def test_a_bad_idle_time_is_refused(idle: float) -> None:
    with pytest.raises(ValueError, match="idle"):
        matlab.OctavePool(2, idle)
