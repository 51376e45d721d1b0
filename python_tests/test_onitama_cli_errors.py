"""The `onitama` command on bad input and unwritable output: a one-line message on stderr,
exit code 2, never a traceback; a closed pipe ends it quietly. Also the README's commands,
as written. Each case runs the installed console script in a subprocess."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

TIMEOUT = 120


def onitama_cmd() -> list[str]:
    exe = shutil.which("onitama")
    return [exe] if exe else [sys.executable, "-m", "LudoGame.onitama_cli"]


def run_shell(args: str) -> subprocess.CompletedProcess[str]:
    """Run `onitama ARGS` through the shell (for redirections)."""
    cmd = " ".join(f"'{c}'" for c in onitama_cmd())
    return subprocess.run(
        ["bash", "-c", f"{cmd} {args}"],
        capture_output=True,
        text=True,
        check=False,
        timeout=TIMEOUT,
    )


def assert_refused(done: subprocess.CompletedProcess[str], words: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("onitama"), lines
    assert words in lines[0], lines


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ("play < /dev/null", "input ended"),
        ("match 2 1 --deal 5", "--deal is the seed of a --standard deal"),
        ("play --deal 3 < /dev/null", "--deal is the seed of a --standard deal"),
        ("tournament 0 1 --standard --deals ''", "--deals needs at least one seed"),
        ("tournament 0 1 --standard --deals 0,0", "names the deal 0 twice"),
        ("play <&-", "stdin is closed"),
        ("play --setup 21 < /dev/null", "input ended"),
        ("play --setup 21 --ai-b 2 --time 0.05 < /dev/null", "input ended"),
        ("play --setup 99 < /dev/null", "unknown setup"),
        ("play --setup 21 --ai-a 7 < /dev/null", "level"),
        ("play --setup 21 --ai-a 2 --time -1 < /dev/null", "time"),
        ("play --setup 21 --max-plies -5 < /dev/null", "max_plies"),
        ("play --max-plies 99999999999999999999 < /dev/null", "max_plies"),
        ("play --echo maybe < /dev/null", "--echo"),
        ("setups > /dev/full", "No space left"),
        ("match 0 0 > /dev/full", "No space left"),
        ("match 0 0 --save /nonexistent/x.json", "'/nonexistent/x.json'"),
        ("match 0 0 --save /tmp", "it is a folder"),
        ("tournament 0 1 --save /nonexistent/x.json", "does not exist"),
        ("match 0 1 --setup 99", "unknown setup"),
        ("match 0 1 --setup -1", "unknown setup"),
        ("match 3 1", "level"),
        ("match -- -1 1", "level"),
        ("match 1 1 --time -1", "time"),
        ("match 2 1 --time 0", "time"),
        ("match 2 1 --time nan", "time"),
        ("match 2 1 --time inf", "time"),
        ("match 2 1 --time 1e400", "time"),
        ("match 2 1 --time 86401", "time"),
        ("match 2 1 --time abc", "--time"),
        ("match 0 0 --seed -1", "seed"),
        ("match 0 0 --seed 18446744073709551616", "seed"),
        ("match 0 0 --max-plies -1", "max_plies"),
        ("match 0 0 --max-plies 65536", "max_plies"),
        ("match x", "AI_A"),
        ("match 1 2 3", "unrecognized"),
        ("frobnicate", "invalid choice"),
        ("", "required"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: str, words: str) -> None:
    assert_refused(run_shell(args), words)


def test_a_closed_pipe_is_quiet() -> None:
    done = run_shell("setups | head -1; exit ${PIPESTATUS[0]}")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert len(done.stdout.splitlines()) == 1
    done = run_shell("match 0 0 | head -c 10; exit ${PIPESTATUS[0]}")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


@pytest.mark.parametrize(
    "args",
    [
        "setups",
        "match --setup 22",
        "match 2 1 --setup 21 --time 0.2",
        "play --setup 21 --ai-b 2 < /dev/null",
    ],
)
def test_the_readme_commands_run_as_written(args: str) -> None:
    done = run_shell(args)
    assert "Traceback" not in done.stderr
    if args.startswith("play"):
        # Nobody types A's moves here: the game waits for A's first card, then the input ends.
        assert done.returncode == 2 and "input ended" in done.stderr
        assert "Player A, it is your turn." in done.stdout
    else:
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""


def test_match_levels_default_to_2_and_1() -> None:
    done = run_shell("match --setup 22 --time 0.05")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("setup case22: ")
    helptext = run_shell("match --help").stdout
    assert "AI_A" in helptext and "(0-2; 2)" in helptext and "(0-2; 1)" in helptext


def test_play_against_the_ai_with_typed_moves() -> None:
    # The README's `onitama play --setup 21 --ai-b 2`, with A's moves typed on stdin.
    done = subprocess.run(
        [*onitama_cmd(), "play", "--setup", "21", "--ai-b", "2", "--time", "0.05"],
        input="1\ne2\nd2\ns\n",
        capture_output=True,
        text=True,
        check=False,
        timeout=TIMEOUT,
        env={**os.environ},
    )
    assert "Traceback" not in done.stderr
    assert done.returncode == 2 and "input ended" in done.stderr
    assert "Player B, it is your turn." in done.stdout


def test_an_unwritable_save_file_is_refused_before_anything_is_played() -> None:
    done = run_shell("match 2 2 --save /nonexistent/x.json")
    assert_refused(done, "does not exist")
    assert done.stdout == "", "no game was played"
