"""The `onitama` command: the 14 recorded Part 1 sessions (python_tests/data/
onitama_transcripts/, copied from shared/onitama/transcripts/) replayed by feeding their
input through stdin and comparing stdout character for character; re-prompts the sessions
do not show; games against built-in AIs; the `match` and `setups` commands."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from LudoGame import onitama_cli as cli

TRANSCRIPTS = Path(__file__).resolve().parent / "data" / "onitama_transcripts"
SESSIONS = sorted(p.name.removesuffix(".input.txt") for p in TRANSCRIPTS.glob("*.input.txt"))


class Pipe(io.StringIO):
    """Standard input that is not a terminal."""

    def isatty(self) -> bool:
        return False


def run(argv: list[str], stdin: str) -> tuple[int, str]:
    """Run the command in this process; returns the exit code and stdout."""
    args = cli.build_parser().parse_args(argv)
    out = io.StringIO()
    code = cli.cmd_play(args, Pipe(stdin), out)
    return code, out.getvalue()


def expected(session: str) -> str:
    """The recorded screen of a session."""
    return (TRANSCRIPTS / f"{session}.output.txt").read_text(encoding="utf-8")


def test_all_sessions_are_there() -> None:
    assert len(SESSIONS) == 14


@pytest.mark.parametrize("session", SESSIONS)
def test_recorded_session(session: str) -> None:
    code, out = run(["play"], (TRANSCRIPTS / f"{session}.input.txt").read_text())
    want = expected(session)
    if session == "sample6a":
        # The source cut this session off after a listing, before the next prompt.
        want += cli.CARD_PROMPT
    assert out == want
    complete = want.endswith("\n")
    assert code == (0 if complete else 2)


def test_the_console_script() -> None:
    exe = shutil.which("onitama")
    cmd = [exe] if exe else [sys.executable, "-m", "LudoGame.onitama_cli"]
    stdin = (TRANSCRIPTS / "report13.input.txt").read_text()
    done = subprocess.run(
        [*cmd, "play"], input=stdin, capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0 and done.stdout == expected("report13")
    cut = subprocess.run(
        [*cmd, "play"], input="13\n1\n", capture_output=True, text=True, check=False, timeout=60
    )
    assert cut.returncode == 2 and "input ended" in cut.stderr


def test_reprompts_not_in_the_sessions() -> None:
    stdin = "\n".join(["99", "x", "13", "3", "x", "1", "z9", "1", "b5", "a5", "q", "d"]) + "\n"
    code, out = run(["play"], stdin)
    assert code == 2
    lines = out.splitlines()
    assert "There is no test case 99." in lines and "There is no test case x." in lines
    assert "Invalid input, card 3 does not exist: the card number is 1 or 2." in lines
    assert "Invalid input, the start position is invalid." in lines
    assert "Invalid input, the wall direction 'q' is not one of u, l, d, r, s." in lines
    # Then A must pass: a bad card there is asked again.
    code, out = run(["play", "--setup", "13"], "1\nb5\na5\nd\n5\n1\ns\n")
    assert out.count(cli.PASS_PROMPT) == 3  # A twice, then B (also no move)
    assert "Invalid input, card 5 does not exist: the card number is 1 or 2." in out


def test_echo_can_be_turned_off() -> None:
    _, out = run(["play", "--setup", "13", "--echo", "no"], "1\nb5\na5\nd\n")
    assert cli.CARD_PROMPT + cli.FROM_PROMPT in out


def test_human_against_the_ai() -> None:
    # A is played by the keyboard (always the first legal move by its listing), B by level 2.
    args = ["play", "--setup", "21", "--ai-b", "2", "--time", "0.05"]
    stdin = "1\ne2\nd2\ns\n" * 1
    code, out = run(args, stdin)
    assert code == 2  # the input ends after A's first ply
    b_turn = out.split("Player B, it is your turn.\n", 1)[1]
    assert b_turn.startswith(cli.CARD_PROMPT)
    answer = b_turn.split("\n", 1)[0].removeprefix(cli.CARD_PROMPT)
    assert answer in ("1", "2")
    assert cli.WALL_PROMPT in b_turn


@pytest.mark.parametrize("levels", [("1", "2"), ("2", "0")])
def test_ai_against_ai_plays_to_the_end(levels: tuple[str, str]) -> None:
    code, out = run(
        ["play", "--setup", "22", "--ai-a", levels[0], "--ai-b", levels[1], "--time", "0.02"], ""
    )
    assert code == 0
    last = out.rstrip("\n").splitlines()[-1]
    assert last.endswith("You win.") or last == "This is the last turn. The game is tied."


def test_match_and_setups_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["match", "2", "1", "--time", "0.02", "--setup", "23"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("setup case23: ")
    assert cli.main(["setups"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 25
    assert cli.main(["match", "7", "1"]) == 2
    assert "level" in capsys.readouterr().err
