"""MATLAB AI files wherever the `onitama` command names an AI: `match A.m B.m`,
`tournament ais/*.m` (plain and in the course's format), `play --ai-b AI.m`; and the one
line a missing Octave gets. Skipped without Octave and bubblewrap (a failure in CI)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import matlab_support as ms
from LudoGame.onitama_cli import main

FIRST, WALL, BAD, OOPS = (str(ms.TEST_AIS / f"AI{n}.m") for n in ("First", "Wall", "Bad", "Oops"))


@pytest.fixture(autouse=True)
def _octave() -> None:
    ms.require()


def test_match_between_two_m_files_and_against_a_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.json"
    assert main(["match", WALL, FIRST, "--setup", "21", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("setup case21: A won (general_captured) after 19 plies")
    game = json.loads(save.read_text())["games"][0]
    assert (game["a"], game["b"], game["winner"]) == ("AIWall", "AIFirst", "A")
    assert main(["match", BAD, FIRST, "--move-time", "5"]) == 0
    assert "B won (invalid_move)" in capsys.readouterr().out


@pytest.mark.slow
def test_tournament_of_m_files_in_two_processes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "games.json"
    assert main(["tournament", FIRST, WALL, "1", "--jobs", "2", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert "AIWall" in out and "AIFirst" in out and "L1" in out
    assert len(json.loads(save.read_text())["games"]) == 3 * 3 * 2


@pytest.mark.slow
def test_course_format_qualifies_lists_errors_and_saves_every_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "course.json"
    argv = ["tournament", FIRST, WALL, BAD, OOPS, "--course", "--reference", "1"]
    assert main([*argv, "--jobs", "2", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"AIBad +6 games +[3-6] errors +DISQUALIFIED", out)
    assert re.search(r"AIOops +6 games +[3-6] errors +DISQUALIFIED", out)
    assert "AIFirst  6 games  0 errors  qualified" in out
    assert "Error in function AIOops() at line 4." in out  # its errors listed
    standings = out.split("round robin:")[1].split("errors:")[0]
    assert "AIBad" not in standings and "AIWall" in standings and "AIFirst" in standings
    games = json.loads(save.read_text())["games"]
    assert len(games) == 4 * 6 + 3 * 2  # qualification, then AIFirst vs AIWall


def test_play_against_a_matlab_ai(capsys: pytest.CaptureFixture[str]) -> None:
    import io

    sys_stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        assert main(["play", "--setup", "21", "--ai-a", WALL, "--ai-b", FIRST]) == 0
    finally:
        sys.stdin = sys_stdin
    out = capsys.readouterr().out
    assert "Player A, you capture opponent's general. You win." in out
    sys.stdin = io.StringIO("")
    try:
        assert main(["play", "--setup", "21", "--ai-a", OOPS, "--ai-b", "1"]) == 0
    finally:
        sys.stdin = sys_stdin
    out = capsys.readouterr().out
    assert out.rstrip().endswith("Player B win as player A has programming error.")
    assert "out of ideas with 16 turns left" in out
    sys.stdin = io.StringIO("")
    try:
        assert main(["play", "--setup", "21", "--ai-a", BAD, "--ai-b", FIRST]) == 0
    finally:
        sys.stdin = sys_stdin
    out = capsys.readouterr().out
    assert out.rstrip().endswith("Player B win as player A input invalid.")


def test_a_bad_ai_name_and_a_missing_octave_are_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": str(tmp_path)}  # no octave, no bwrap on this PATH
    cmd = [sys.executable, "-m", "LudoGame.onitama_cli", "match", FIRST, "1", "--no-sandbox"]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (
        2,
        "onitama: install GNU Octave: apt-get install octave\n",
    )
    done = subprocess.run(
        cmd[:-1], capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert "without a sandbox" in done.stderr and "--no-sandbox" in done.stderr
    done = subprocess.run(
        [*cmd[:4], "AI1.txt"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2 and "a MATLAB file (.m)" in done.stderr


ANSI_AI = """function [cardPicked, moveFrom, moveTo, wDir] = AIAnsi(currentPlayer, board, ...
    cardA1, cardA2, cardB1, cardB2, sideCard, turn)
error([char(27) '[2J' char(27) '[H' char(27) '[32mAIAnsi wins the tournament' ...
    char(27) '[0m' char(13) char(7)]);
end
"""
ANSI_SHOWN = "\\x1b[2J\\x1b[H\\x1b[32mAIAnsi wins the tournament\\x1b[0m\\r\\x07"


def test_an_ais_error_message_reaches_the_terminal_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's AI: its error message clears the screen and prints a fake winner. The
    course tournament's error list and the terminal game show it escaped; it loses."""
    import io

    ai = tmp_path / "AIAnsi.m"
    ai.write_text(ANSI_AI)
    argv = ["tournament", str(ai), "0", "--course", "--reference", "0", "--qualify-games", "1"]
    assert main([*argv, "--setups", "21"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\r" not in out and "\x07" not in out
    assert re.search(r"2  AIAnsi +2  +0  +0  +2 ", out)  # it lost both round-robin games
    assert (
        len(re.findall(r"programming_error: Error in function AIAnsi\(\) at line \d\. ", out)) == 3
    )
    assert out.count(ANSI_SHOWN) == 3
    sys_stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        assert main(["play", "--setup", "21", "--ai-a", str(ai), "--ai-b", "0"]) == 0
    finally:
        sys.stdin = sys_stdin
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\r" not in out and "\x07" not in out
    assert ANSI_SHOWN in out
    assert out.rstrip().endswith("Player B win as player A has programming error.")
