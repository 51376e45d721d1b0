"""The commands, as a person types them: every `ludo`/`onitama` command the README shows (with
small counts), bad input answered with one line and exit code 2 (never a traceback), and
Ctrl-C stopping long runs at once with what they finished.

Everything runs in a subprocess, so a crash, an abort or a hang is caught as such.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
COMMANDS = ("ludo", "onitama")


def readme_commands() -> list[str]:
    """Every `ludo ...` or `onitama ...` line of the README's bash blocks, comments cut."""
    text = README.read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"^```bash\n(.*?)^```", text, re.S | re.M):
        for line in block.splitlines():
            command = line.split("  #")[0].strip()
            if command.split(" ", 1)[0] in COMMANDS:
                out.append(command)
    return out


def small(command: str) -> list[str]:
    """The command with small counts and short thinking times, as an argv."""
    argv = shlex.split(command)
    for i, word in enumerate(argv[:-1]):
        if word == "--games":
            argv[i + 1] = str(min(int(argv[i + 1]), 200))
        if word == "--time":
            argv[i + 1] = str(min(float(argv[i + 1]), 0.05))
    if argv[:2] == ["onitama", "match"] and "--time" not in argv:
        argv += ["--time", "0.05"]
    return argv


def installed(name: str) -> str:
    """The installed console script `name`: the one pip put beside this interpreter, else
    the one on PATH."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    assert found, f"the {name} command is not installed"
    return found


def run(
    argv: list[str], stdin: str | None = "", timeout: float = 120, cwd: Path | None = None
) -> subprocess.CompletedProcess:
    if argv and argv[0] in COMMANDS:
        argv = [installed(argv[0]), *argv[1:]]
    return subprocess.run(
        argv,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
    )


def test_the_readme_shows_commands_of_both_games() -> None:
    commands = readme_commands()
    assert any(c.startswith("ludo simulate") for c in commands)
    assert any(c.startswith("onitama match") for c in commands)


@pytest.fixture(scope="module")
def readme_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the README's commands run, in order: files one writes, a later one reads."""
    return tmp_path_factory.mktemp("readme")


def serve_as_written(argv: list[str], cwd: Path) -> None:
    """`ludo serve ...` as written but on a free port (and no real browser opened): it
    prints its address, the page there answers, and Ctrl-C stops it with exit code 0."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    if "--port" in argv:
        argv[argv.index("--port") + 1] = str(port)
    else:
        argv += ["--port", str(port)]
    env = dict(os.environ, BROWSER="true")  # --open runs `true URL`
    p = subprocess.Popen(
        [installed("ludo"), *argv[1:]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env=env,
    )
    try:
        assert p.stdout is not None
        line = p.stdout.readline()
        assert line.startswith(f"LudoGame is serving at http://127.0.0.1:{port}/"), line
        url = line.split()[-1]
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(url, timeout=5) as page:
                    assert page.status == 200 and b"<html" in page.read().lower()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        if "--replay" in argv:
            rid = url.split("id=")[1]
            with urllib.request.urlopen(url.split("replay?")[0] + f"api/replays/{rid}") as r:
                assert r.status == 200 and json.loads(r.read())["games"]
    finally:
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=30)
    assert p.returncode == 0, err
    assert "Traceback" not in err, err


@pytest.mark.slow
@pytest.mark.parametrize("command", readme_commands())
def test_every_readme_command_runs_as_written(command: str, readme_dir: Path) -> None:
    argv = small(command)
    saved = argv[argv.index("--replay") + 1] if "--replay" in argv else None
    if saved is not None and not (readme_dir / saved).exists():
        # run alone (`-k`): first the README's command that saves the file it reads
        writer = next(c for c in readme_commands() if f"--save {saved}" in c)
        assert run(small(writer), cwd=readme_dir).returncode == 0
    if argv[:2] == ["ludo", "serve"]:
        serve_as_written(argv, readme_dir)
        return
    interactive = argv[:2] == ["onitama", "play"]
    # The interactive game gets its input closed at once: it must end cleanly.
    r = run(argv, stdin="", cwd=readme_dir)
    assert "Traceback" not in r.stderr, r.stderr
    if interactive:
        assert r.returncode in (0, 2), r.stderr
        assert r.stdout, "it prints the board and its first prompt"
    else:
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip()


BAD = [
    "ludo simulate --threads 0",
    "ludo simulate --threads 100000",
    "ludo simulate --seed -1",
    f"ludo simulate --seed {2**64}",
    "ludo simulate --games -5",
    "ludo simulate --games many",
    "ludo simulate --bots nobody",
    "ludo simulate --bots random,random,random --players AC",
    "ludo simulate --rules chess",
    "ludo simulate --option six_limit=1 --rules standard",
    "ludo tournament --games -1",
    "ludo tournament --bots random",
    "ludo tournament --bots random,random",
    "ludo tournament --threads 0 --games 10",
    "ludo tournament --seed -1 --games 10",
    "ludo demo --players AE",
    "ludo play AB A7",
    "ludo play AB Z6",
    "ludo space-name B 99",
    "ludo space-name Q 3",
    "ludo play AB A",
    "ludo simulate --option six_limit",
    "onitama",
]


@pytest.mark.parametrize("command", COMMANDS)
def test_both_commands_say_their_version(command: str) -> None:
    from LudoGame import __version__

    r = run([command, "--version"])
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"{command} {__version__}"


@pytest.mark.parametrize("command", BAD)
def test_bad_input_is_one_line_and_exit_2(command: str) -> None:
    r = run(shlex.split(command))
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    assert r.stderr.strip(), "it says what is wrong"
    assert r.stdout == "", "nothing is printed before the error"


def test_rule_options_are_read_by_the_engine() -> None:
    """`--option KEY=VALUE` words join the rules notation, which the engine parses (one
    parser): the same run as the notation written out, and the engine's own errors."""
    by_option = run(
        shlex.split("ludo simulate --rules standard --option six_limit=2 --games 40 --seed 3")
    )
    by_notation = run(
        shlex.split("ludo simulate --rules standard[six_limit=2] --games 40 --seed 3")
    )
    assert by_option.returncode == 0, by_option.stderr
    assert by_option.stdout.splitlines()[1:] == by_notation.stdout.splitlines()[1:]
    bad = run(shlex.split("ludo simulate --option six_limit=TRUE --games 5"))
    assert bad.returncode == 2 and "six_limit" in bad.stderr


def test_simulate_one_bot_plays_every_seat() -> None:
    r = run(shlex.split("ludo simulate --players ABCD --bots cs162 --games 50"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("cs162") == 4


def test_simulate_default_players_are_the_apis() -> None:
    """`ludo simulate` and `simulate()` seat the same players when none are named."""
    import LudoGame

    r = run(shlex.split("ludo simulate --games 30 --seed 4"))
    api = LudoGame.simulate("cs162", games=30, seed=4)
    seated = [line.split()[0] for line in r.stdout.splitlines()[1:] if "wins" in line]
    assert seated == api.players


@pytest.mark.parametrize("command", ["ludo simulate --games 50", "ludo demo"])
def test_a_full_disk_is_one_line_and_exit_2(command: str) -> None:
    with open("/dev/full", "w") as full:
        argv = shlex.split(command)
        r = subprocess.run(
            [installed(argv[0]), *argv[1:]],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and "No space" in r.stderr


def interrupt(argv: list[str], wait_for: str, settle: float = 0.4) -> tuple[int, str, str, float]:
    """Start `argv`, wait until its output shows `wait_for` (or its stderr does), let it run
    on a moment, send SIGINT; returns exit code, stdout, stderr and seconds to exit."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout is not None
        line = p.stdout.readline()
        assert wait_for in line, line
        time.sleep(settle)
        sent = time.perf_counter()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
        return p.returncode, line + out, err, time.perf_counter() - sent
    finally:
        if p.poll() is None:  # a failed test leaves no endless simulation behind
            p.kill()
            p.communicate()


PY = [sys.executable, "-c"]


def test_ctrl_c_stops_a_long_ludo_simulate_and_prints_what_finished() -> None:
    # The marker comes from a wrapper that starts the command's main().
    code = (
        "import sys; from LudoGame.cli import main; print('go', flush=True); "
        "sys.exit(main(['simulate', '--games', '1000000000', '--threads', '2']))"
    )
    rc, out, err, seconds = interrupt(PY + [code], "go")
    assert rc == 130, err
    assert seconds < 2.0
    assert "Traceback" not in err
    finished = int(re.search(r"Interrupted: ([\d,]+) games finished", out)[1].replace(",", ""))
    assert finished > 0
    assert re.search(rf"^{finished:,} games in", out, re.M)


def test_ctrl_c_stops_a_tournament_and_prints_the_table_so_far() -> None:
    code = (
        "import sys; from LudoGame.cli import main; print('go', flush=True); "
        "sys.exit(main(['tournament', '--bots', 'random,mcts:300,cs162', '--games', '100000']))"
    )
    rc, out, err, seconds = interrupt(PY + [code], "go", settle=1.5)
    assert rc == 130, err
    assert seconds < 2.0
    assert "Traceback" not in err
    assert "Interrupted" in out and "win rate" in out


LONG_CALLS = {
    "simulate": "LudoGame.simulate('standard', 4, 'random', games=10**9, threads=2)",
    "Simulation.run": "LudoGame.Simulation('cs162', 'ABCD').run(0, 10**9, 1)",
    "simulate with search bots": "LudoGame.simulate('cs162', 2, 'mcts:5000', games=10**6)",
    "tournament": "LudoGame.tournament(['random', 'mcts:2000'], games=10**6)",
    "best_move mcts": "g = LudoGame.Game('standard', seed=1); g.roll(6); "
    "g.best_move('mcts:10000000')",
    "autoplay": "g = LudoGame.Game('standard', players=4, seed=1); g.autoplay(['mcts:100000'] * 4)",
}


@pytest.mark.parametrize("call", sorted(LONG_CALLS))
def test_ctrl_c_stops_every_long_ludo_call(call: str) -> None:
    code = f"import LudoGame\nprint('go', flush=True)\n{LONG_CALLS[call]}\nprint('finished')"
    rc, out, err, seconds = interrupt(PY + [code], "go")
    assert "finished" not in out
    assert "KeyboardInterrupt" in err, err
    assert seconds < 2.0, f"{call}: {seconds:.2f} s"
    # #22: uncaught, it exits as any Ctrl-C in Python does (the shell's 128 + SIGINT)
    assert rc in (130, -signal.SIGINT), (call, rc)


def test_the_ctrl_c_of_a_long_call_is_keyboardinterrupt_itself_with_its_partial() -> None:
    """#22: `LudoGame.Interrupted` is `KeyboardInterrupt` (CPython exits 130 only for that
    exact type), and `partial` is still there to read."""
    import LudoGame

    assert LudoGame.Interrupted is KeyboardInterrupt
    code = (
        "import LudoGame\nprint('go', flush=True)\n"
        "try:\n    LudoGame.simulate('cs162', 2, 'random', games=10**9)\n"
        "except KeyboardInterrupt as e:\n"
        "    print('caught', type(e).__name__, type(e.partial).__name__, e.partial.games > 0)\n"
    )
    rc, out, err, _ = interrupt(PY + [code], "go")
    assert rc == 0, err
    assert "caught KeyboardInterrupt SimResult True" in out


def test_interrupted_simulation_keeps_the_games_that_finished() -> None:
    code = (
        "import LudoGame\nprint('go', flush=True)\n"
        "sim = LudoGame.Simulation('cs162', 'ABCD', 'random', seed=5)\n"
        "try:\n    sim.run(0, 10**9, 2)\n"
        "except LudoGame.Interrupted as e:\n"
        "    r = e.partial\n"
        "    again = sim.run(0, r.games, 1)\n"
        "    print('kept', r.games, r.wins == again.wins, list(r.lengths) == list(again.lengths))\n"
    )
    rc, out, err, _ = interrupt(PY + [code], "go")
    assert rc == 0, err
    kept = re.search(r"kept (\d+) True True", out)
    assert kept and int(kept[1]) > 0, out


def test_interrupted_autoplay_leaves_the_game_as_it_was() -> None:
    code = (
        "import LudoGame\nprint('go', flush=True)\n"
        "g = LudoGame.Game('standard', players=4, seed=1)\nbefore = g.to_json()\n"
        "try:\n    g.autoplay(['mcts:100000'] * 4)\n"
        "except LudoGame.Interrupted as e:\n"
        "    print('same', g.to_json() == before, isinstance(e.partial, LudoGame.Game))\n"
    )
    rc, out, err, _ = interrupt(PY + [code], "go")
    assert rc == 0, err
    assert "same True True" in out


def test_errors_quote_a_short_prefix_of_long_inputs(tmp_path: Path) -> None:
    # A file of many lines, or a huge argument, is never echoed whole (issue 21's "also
    # found": `ludo serve --replay /etc/passwd` printed the file).
    big = tmp_path / "big.txt"
    big.write_text("root:x:0:0:root\n" + "y" * 2_400_000, encoding="utf-8")
    r = run(["ludo", "serve", "--replay", str(big), "--port", "0", "--store", "memory"])
    assert r.returncode == 2, r.stderr
    assert len(r.stderr) < 700 and "yyyy" not in r.stderr, r.stderr[:800]
    assert "root:x:0:0:root..." in r.stderr
    r = run(["ludo", "simulate", "--rules", "z" * 100_000, "--games", "1"])
    assert r.returncode == 2 and len(r.stderr) < 400, r.stderr[:500]
    from LudoGame import Game, InvalidRulesError
    from LudoGame.onitama import Onitama

    with pytest.raises(InvalidRulesError) as e:
        Game(rules="standard[" + "k" * 100_000 + "=1]")
    assert len(str(e.value)) < 400
    with pytest.raises(ValueError) as e2:
        Onitama.from_notation("q" * 100_000)
    assert len(str(e2.value)) < 400
