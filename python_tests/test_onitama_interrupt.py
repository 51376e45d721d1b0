"""Ctrl-C during long Onitama calls: each call runs in a child process, which is sent
SIGINT once it is surely inside the call; it must stop well under a second later with a
KeyboardInterrupt (Interrupted carrying the partial result where there is one), and the
`onitama match` command must print the plies played and exit with code 130.

Before the fix the Rust search ignored SIGINT until its time ran out (`onitama match 2 2
--time 15` took ~20 s to stop) and perft until it finished."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")

#: The child prints this just before the long call.
MARKER = "STARTED"
#: Generous for a loaded 2-core machine, but far below the old multi-second hangs.
LIMIT = 2.5

PRELUDE = """
import sys, time
from LudoGame import Interrupted, onitama as o
g = o.Onitama.setup(21)
"""


def interrupt(cmd: list[str], delay: float = 0.3) -> tuple[int, str, str, float]:
    """Start `cmd`, wait for its marker line, send SIGINT after `delay` seconds; returns
    the exit code, stdout after the marker, stderr, and the seconds from SIGINT to exit."""
    child = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1
    )
    try:
        assert child.stdout is not None
        first = child.stdout.readline()
        assert MARKER in first, (first, child.stderr.read() if child.stderr else "")
        time.sleep(delay)
        assert child.poll() is None, "the call ended before it was interrupted"
        t0 = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
        return child.returncode, out, err, time.monotonic() - t0
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()


def interrupt_python(body: str) -> tuple[str, float]:
    """Run `body` (after the prelude, the marker printed just before it) in a child; it
    must end by KeyboardInterrupt, and report what it caught on stdout."""
    code = (
        PRELUDE
        + f"print({MARKER!r}, flush=True)\n"
        + "try:\n"
        + textwrap.indent(textwrap.dedent(body), "    ")
        + "\nexcept KeyboardInterrupt as e:\n"
        + "    print('CAUGHT', type(e).__name__, repr(getattr(e, 'partial', None)))\n"
        + "    print('PARTIAL', getattr(e, 'partial', None))\n"
        + "    sys.exit(42)\n"
        + "print('FINISHED')\n"
    )
    rc, out, err, took = interrupt([sys.executable, "-c", code])
    assert rc == 42, (rc, out, err)
    assert "Traceback" not in err, err
    assert took < LIMIT, f"took {took:.2f} s to stop"
    return out, took


@pytest.mark.parametrize(
    "call",
    [
        "g.best_move(level=2, time=86400)",
        "g.best_move(level=2, time=None)",
        "g.analyse(time=600)",
        "g.perft(40)",
        "o.builtin_ai(2, time=600)(*g.ai_arguments())",
        "o.builtin_ai(2, time=None).choose(g)",
    ],
)
def test_long_calls_stop_at_once(call: str) -> None:
    out, _ = interrupt_python(call)
    assert "CAUGHT KeyboardInterrupt" in out


INTERRUPTED_MATCH = (
    "CAUGHT KeyboardInterrupt MatchRecord(setup='case21', winner=None, reason='interrupted'"
)


def test_a_match_of_builtin_ais_stops_with_its_record() -> None:
    out, _ = interrupt_python("o.play_match(o.builtin_ai(2, time=15), o.builtin_ai(2, time=15))")
    assert INTERRUPTED_MATCH in out


def test_a_match_of_python_ais_stops_with_its_record() -> None:
    body = """
    base = o.builtin_ai(1)
    def slow(*args):
        time.sleep(0.05)
        return base(*args)
    o.play_match(slow, slow, max_plies=10_000)
    """
    out, _ = interrupt_python(body)
    assert INTERRUPTED_MATCH in out
    plies = int(out.split("plies=")[1].split(")")[0])
    assert plies >= 1  # ~6 plies were played in the 0.3 s before Ctrl-C


def test_a_keyboard_interrupt_inside_a_python_ai_is_not_its_loss() -> None:
    # The AI itself raises KeyboardInterrupt (as Ctrl-C inside it would): the match stops
    # and raises it; the AI does not lose by 'programming_error'.
    from LudoGame import Interrupted, onitama

    calls = []

    def ai(*args: object) -> object:
        calls.append(args)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return onitama.builtin_ai(1)(*args)

    with pytest.raises(Interrupted) as caught:
        onitama.play_match(ai, ai)
    record = caught.value.partial
    assert record.reason == "interrupted" and record.result == "interrupted"
    assert record.winner is None and record.failed is None
    assert len(record.actions) == 1 and record.plies == 1
    assert record.points == {"A": 0, "B": 0}
    assert record.game().history == record.actions


def test_a_match_of_mixed_ais_stops() -> None:
    body = """
    o.play_match(lambda *a: o.builtin_ai(1)(*a), o.builtin_ai(2, time=30), max_plies=50)
    """
    out, _ = interrupt_python(body)
    assert "CAUGHT KeyboardInterrupt MatchRecord(" in out


def test_a_round_robin_stops_with_the_games_finished() -> None:
    body = """
    o.round_robin({"fast": o.builtin_ai(0), "slow": o.builtin_ai(2, time=30)})
    """
    out, _ = interrupt_python(body)
    assert "CAUGHT KeyboardInterrupt Standings(table=" in out
    assert "PARTIAL rank  name" in out


def onitama_cmd() -> list[str]:
    exe = shutil.which("onitama")
    return [exe] if exe else [sys.executable, "-m", "LudoGame.onitama_cli"]


def test_the_match_command_prints_the_plies_played() -> None:
    # The command prints nothing before the match: wait for it through a wrapper.
    code = (
        f"import sys; print({MARKER!r}, flush=True)\n"
        "from LudoGame.onitama_cli import main\n"
        "sys.exit(main(['match', '2', '2', '--time', '15']))\n"
    )
    rc, out, err, took = interrupt([sys.executable, "-c", code], delay=1.0)
    assert rc == 130, (rc, out, err)
    assert took < LIMIT
    assert "Traceback" not in err
    assert err.strip() == "onitama: interrupted"
    assert out.startswith("setup case21: interrupted after 0 plies\n")
    assert "Player A" in out  # the board is drawn


def test_the_match_command_exits_130_on_sigint() -> None:
    child = subprocess.Popen(
        [*onitama_cmd(), "match", "2", "2", "--time", "15"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.5)  # the interpreter starts, the first search begins
    t0 = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert time.monotonic() - t0 < LIMIT
    assert child.returncode == 130, (out, err)
    assert "Traceback" not in err
    assert "interrupted" in out and "interrupted" in err


def test_the_play_command_exits_130_while_an_ai_thinks() -> None:
    code = (
        f"import sys; print({MARKER!r}, flush=True)\n"
        "from LudoGame.onitama_cli import main\n"
        "sys.exit(main(['play', '--setup', '21', '--ai-a', '2', '--ai-b', '2', '--time', '60']))\n"
    )
    rc, out, err, took = interrupt([sys.executable, "-c", code], delay=1.0)
    assert rc == 130, (rc, out, err)
    assert took < LIMIT
    assert "Traceback" not in err and err.strip() == "onitama: interrupted"
    assert "Player A, it is your turn." in out
