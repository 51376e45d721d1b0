"""benches/onitama_sprt.py: its Elo and SPRT maths on hand-computed inputs, and a tiny match
of the engine against itself (node limits, so the result is fixed) for its output format."""

from __future__ import annotations

import math
import re
import shlex
import subprocess
import sys
import time

import pytest

from bench_support import BENCHES, load_bench

sprt = load_bench("onitama_sprt")


def test_elo_of_a_score() -> None:
    assert sprt.elo_of_score(0.5) == 0.0
    # 3 to 1: 400 log10(3)
    assert sprt.elo_of_score(0.75) == pytest.approx(190.8485, abs=1e-4)
    assert sprt.elo_of_score(0.25) == pytest.approx(-190.8485, abs=1e-4)
    assert sprt.elo_of_score(1.0) == math.inf
    assert sprt.elo_of_score(0.0) == -math.inf
    # 10 Elo: 1 / (1 + 10^(-1/40))
    assert sprt.expected_score(10) == pytest.approx(0.5143872, abs=1e-7)


def test_bounds_of_alpha_beta_five_percent() -> None:
    # log(0.05 / 0.95) and log(0.95 / 0.05)
    low, high = sprt.sprt_bounds(0.05, 0.05)
    assert low == pytest.approx(-2.944439, abs=1e-6)
    assert high == pytest.approx(2.944439, abs=1e-6)


def test_llr_by_hand() -> None:
    # 3 wins and 1 loss: m = 0.75; the variance with pseudo-samples 0 and 1 of weight 1/2:
    # mean 3.5 / 5 = 0.7, v = (3.5 * 0.3² + 1.5 * 0.7²) / 5 = 0.21;
    # s0 = 0.5, s1 = 0.5143872: LLR = 4 * 0.0143872 * (1.5 - 1.0143872) / (2 * 0.21)
    assert sprt.regularized_variance({1.0: 3, 0.0: 1}) == pytest.approx(0.21, abs=1e-12)
    assert sprt.llr({1.0: 3, 0.0: 1}, 0, 10) == pytest.approx(0.0665390, abs=1e-6)
    assert sprt.llr({}, 0, 10) == 0.0
    # ten draws: v = (2 * 0.5 * 0.5²) / 11 = 0.0227273; LLR = 10 * 0.0143872 *
    # (1.0 - 1.0143872) / (2 * 0.0227273)
    assert sprt.llr({0.5: 10}, 0, 10) == pytest.approx(-0.0455380, abs=1e-6)


def test_pentanomial_mean_variance_and_interval_by_hand() -> None:
    # pairs 1/2, 1/2, 3/4, 1: m = 0.6875,
    # v = (2 * 0.1875² + 0.0625² + 0.3125²) / 4 = 0.04296875
    counts = {0.5: 2, 0.75: 1, 1.0: 1}
    mean, var, n = sprt.mean_and_variance(counts)
    assert (mean, n) == (0.6875, 4)
    assert var == pytest.approx(0.04296875, abs=1e-12)
    low, elo, high = sprt.elo_interval(counts)
    # 400 log10(0.6875 / 0.3125); the interval m ± 1.959964 * sqrt(v / 4) = ± 0.2031395
    assert elo == pytest.approx(136.9690, abs=1e-3)
    assert low == pytest.approx(sprt.elo_of_score(0.6875 - 0.2031395), abs=1e-3)
    assert high == pytest.approx(sprt.elo_of_score(0.6875 + 0.2031395), abs=1e-3)
    assert low == pytest.approx(-10.87, abs=0.01)
    assert high == pytest.approx(364.34, abs=0.01)


def test_wall_openings_are_seeded_notations() -> None:
    assert sprt.wall_opening(3) == sprt.wall_opening(3)
    assert sprt.wall_opening(3) != sprt.wall_opening(4)
    assert sprt.opening("deal", 5, 2) == "deal 7"
    assert sprt.opening("both", 5, 1).endswith(sprt.wall_opening(6).split(" ", 1)[1])


def test_a_tiny_match_prints_its_result() -> None:
    engine = shlex.join([sys.executable, "-m", "LudoGame.onitama_cli", "engine"])
    args = [sys.executable, str(BENCHES / "onitama_sprt.py"), "--engine-a", engine]
    args += ["--engine-b", engine, "--nodes", "300", "--max-games", "4", "--openings", "both"]
    run = subprocess.run(args, capture_output=True, text=True, timeout=300, check=True)
    lines = run.stdout.splitlines()
    assert re.fullmatch(
        r"games 4 W (\d+) D (\d+) L (\d+) score \d\.\d{3} elo \S+ \[\S+, \S+\] \(95%\) "
        r"pentanomial \[\d+ \d+ \d+ \d+ \d+\] LLR [+-]\d+\.\d\d \[-2\.94, \+2\.94\] "
        r"\(elo0 0 elo1 10\)",
        lines[-2],
    ), lines[-2]
    assert lines[-1].startswith("verdict: ")
    assert "limit: go nodes 300, openings both" in run.stdout
    # the same deterministic engine on both sides: the two games of a pair are one game
    # with the colours swapped, so every pair scores 1/2; a second run prints the same games
    assert "pentanomial [0 0 2 0 0]" in lines[-2]
    again = subprocess.run(args, capture_output=True, text=True, timeout=300, check=True)
    strip = [re.sub(r"\(\d+ s\)$", "", x) for x in run.stdout.splitlines()]
    assert strip == [re.sub(r"\(\d+ s\)$", "", x) for x in again.stdout.splitlines()]


def test_a_clock_carries_a_debt_and_keeps_a_surplus_of_two_moves() -> None:
    clock = sprt.Clock(0.5)
    clock.credit()
    assert clock.go() == "go time 0.500"
    clock.spend(1.75)  # e.g. an endgame table built before the move's search
    assert clock.go() == f"go time {sprt.MIN_THINK:.3f}"
    for _ in range(2):
        clock.credit()
        assert clock.go() == f"go time {sprt.MIN_THINK:.3f}"
    clock.credit()
    assert clock.go() == "go time 0.250"  # -1.25 + 3 moves' time
    for _ in range(5):
        clock.credit()  # moves answered at once
    assert clock.go() == f"go time {sprt.MAX_BANK * 0.5:.3f}"


class FakeEngine:
    """An engine answering at once, whose position `slow_at` (0: the opening's check)
    takes `ready` seconds."""

    def __init__(self, name: str, ready: float, slow_at: int = 2, moves: int = 6) -> None:
        self.name, self.ready, self.slow_at, self.moves = name, ready, slow_at, moves
        self.positions, self.gos = 0, []

    def set_position(self, words: str) -> str | None:
        if self.positions == self.slow_at:
            time.sleep(self.ready)
        self.positions += 1
        return None

    def ask(self, line: str) -> str:
        if line == "notation":
            return "bbBbb/...../...../...../aaAaa A n=10"
        self.gos.append(line)
        return "result tie plies" if len(self.gos) > self.moves else "bestmove a1 a2 Tiger"


def test_the_time_to_be_ready_is_on_the_engines_own_clock() -> None:
    engines = {"A": FakeEngine("A", ready=0.35), "B": FakeEngine("B", ready=0.0)}
    clocks = {k: sprt.Clock(0.1) for k in "AB"}
    game = sprt.play_game(engines, "deal 1", True, "go time 0.1", 200, clocks)  # type: ignore[arg-type]
    assert game.reason == "plies" and game.score == 0.5
    a = [float(g.split()[-1]) for g in engines["A"].gos]
    b = [float(g.split()[-1]) for g in engines["B"].gos]
    # A's 0.35 s to be ready for its second move (0.15 s past its clock's 0.2) is paid
    # back over its next moves; B is never charged; both keep up to two moves' time
    # (within 0.02 s: the script's own time between two readings of the clock is charged)
    assert a[0] == pytest.approx(0.1, abs=0.02) and b[0] == pytest.approx(0.1, abs=0.02)
    assert a[1] == sprt.MIN_THINK
    assert a[-1] == pytest.approx(0.2, abs=0.02) and b[-1] == pytest.approx(0.2, abs=0.02)


def test_a_result_answer_gets_no_credit_and_clock_needs_time() -> None:
    engines = {"A": FakeEngine("A", 0.0, moves=0), "B": FakeEngine("B", 0.0)}
    clocks = {k: sprt.Clock(0.1) for k in "AB"}
    game = sprt.play_game(engines, "deal 1", True, "go time 0.1", 200, clocks)  # type: ignore[arg-type]
    assert game.plies == 0 and engines["A"].gos == ["go time 0.100"]
    assert clocks["A"].left == pytest.approx(0.0, abs=0.02)  # not the move's 0.1
    with pytest.raises(SystemExit) as exit_:
        sprt.main(["--nodes", "100", "--clock"])
    assert exit_.value.code == 2
