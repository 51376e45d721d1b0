"""MATLAB AIs in the tests: our test AIs (python_tests/data/matlab/), Octave and the
sandbox (skipped without them, a failure under LUDOGAME_REQUIRE_OCTAVE=1 as .ci/check
sets), and both referees' transcripts of a game, for the parity tests.

The coursework referee (``AIvsAI.m`` and its helpers) is never in the project: the opt-in
tests read it from the folder that LUDOGAME_COURSEWORK_MATLAB names."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from LudoGame import matlab, onitama, sandbox

#: Set (to 1) in CI: a missing Octave or sandbox fails the MATLAB tests instead of
#: skipping them.
REQUIRE_ENV = "LUDOGAME_REQUIRE_OCTAVE"

#: The folder of the coursework's MATLAB files (AIvsAI.m, setup.m, ...), for the opt-in
#: parity tests.
COURSEWORK_ENV = "LUDOGAME_COURSEWORK_MATLAB"

TEST_AIS = Path(__file__).resolve().parent / "data" / "matlab"

#: The coursework referee's files a game needs.
REFEREE_FILES = ("AIvsAI.m", "setup.m", "dispBoard.m", "possbleMove.m")

#: The games whose coursework transcripts are recorded (coursework_transcripts.json).
PARITY_GAMES = [
    (a, b, s)
    for a, b in (
        ("First", "Wall"),
        ("Wall", "First"),
        ("Oops", "Wall"),
        ("Wall", "Bad"),
        ("Bad", "First"),
        ("Bad", "Wall"),
        ("First", "Bad"),
    )
    for s in (21, 22, 23)
]

_ANSWER = re.compile(r"^Card .*, .*->.*, W .$")
_RESULT = re.compile(r"^(Player [AB] win.*|The game is tied)$")


def missing(need_sandbox: bool = True) -> str | None:
    """Why the MATLAB tests cannot run here (None when they can)."""
    try:
        matlab.octave_path()
    except matlab.OctaveNotFoundError as e:
        return str(e)
    if need_sandbox and not sandbox.available():
        return f"the sandbox does not work here: {sandbox.unavailable_reason()}"
    return None


def require(need_sandbox: bool = True) -> None:
    """Skip the test without Octave (and the sandbox), or fail under REQUIRE_ENV=1."""
    _skip_or_fail(missing(need_sandbox))


def require_sandbox() -> None:
    """Skip the test without a working sandbox (Octave not needed), or fail under
    REQUIRE_ENV=1."""
    if not sandbox.available():
        _skip_or_fail(sandbox.unavailable_reason())


def _skip_or_fail(why: str | None) -> None:
    if why is None:
        return
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{why} ({REQUIRE_ENV}=1)")
    pytest.skip(why)


def octave_processes() -> list[int]:
    """The Octave processes running under this test process (its descendants named
    ``octave*``, read from /proc): what a pool or session left behind."""
    parents: dict[int, int] = {}
    names: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                stat = f.read()
        except OSError:  # ended meanwhile
            continue
        head, _, rest = stat.rpartition(")")
        fields = rest.split()
        if fields and fields[0] == "Z":  # a zombie has ended (only not yet reaped)
            continue
        pid = int(entry)
        parents[pid] = int(fields[1])
        names[pid] = head.partition("(")[2]
    me = os.getpid()

    def mine(pid: int) -> bool:
        seen = 0
        while pid > 1 and seen < 64:
            pid = parents.get(pid, 0)
            if pid == me:
                return True
            seen += 1
        return False

    return sorted(p for p, n in names.items() if n.startswith("octave") and mine(p))


def coursework_folder() -> Path:
    """The coursework's folder (LUDOGAME_COURSEWORK_MATLAB), or skip."""
    folder = os.environ.get(COURSEWORK_ENV)
    if not folder:
        pytest.skip(f"set {COURSEWORK_ENV} to the coursework's MATLAB folder (AIvsAI.m)")
    path = Path(folder)
    for name in REFEREE_FILES:
        if not (path / name).is_file():
            pytest.fail(f"{COURSEWORK_ENV}={folder}: no {name} there")
    return path


def transcript_lines(text: str) -> list[str]:
    """What a game's transcript says about the AIs: each answer ('Card 1, e1->d1, W s'),
    each error of an AI (its 'Error in function' line and message) and the result line."""
    lines = text.splitlines()
    out = []
    for k, line in enumerate(lines):
        line = line.rstrip()
        # the referee's prompts share a line with the first output (no newline after input)
        line = re.sub(r"^.*(Input the test case number: )", "", line)
        if _ANSWER.match(line) or _RESULT.match(line) or line.startswith("Error in function"):
            out.append(line)
        elif line == "Error Message:" and k + 1 < len(lines):
            out.append(lines[k + 1].rstrip())
    return out


def coursework_transcript(
    referee: Path, ais: Sequence[Path], sid_a: str, sid_b: str, setup: int | str
) -> list[str]:
    """The transcript lines of ``AIvsAI.m`` (from the folder `referee`) playing
    AI<sid_a> against AI<sid_b> on `setup` under Octave, in a temporary folder with the
    referee's files and the `ais` copied there (our compat folder on the path)."""
    with tempfile.TemporaryDirectory(prefix="ludogame-aivsai-") as tmp:
        for name in REFEREE_FILES:
            shutil.copyfile(referee / name, Path(tmp) / name)
        for ai in ais:
            shutil.copyfile(ai, Path(tmp) / Path(ai).name)
        compat = str(matlab.COMPAT_DIR).replace("'", "''")
        done = subprocess.run(
            [matlab.octave_path(), "--no-gui", "--quiet", "--no-line-editing", "--norc",
             "--eval", f"addpath('{compat}', '-end'); AIvsAI"],
            input=f"{sid_a}\n{sid_b}\n{setup}\n",
            capture_output=True, text=True, cwd=tmp, timeout=300, check=False,
        )  # fmt: skip
    return transcript_lines(done.stdout)


class _Recording:
    """An AI's session that logs each raw answer (or error) in the coursework's words."""

    def __init__(self, session: Any, log: list[str]) -> None:
        self.session = session
        self.log = log

    def wait_ready(self) -> None:
        self.session.wait_ready()

    def close(self) -> None:
        self.session.close()

    def __call__(self, *args: Any) -> Any:
        try:
            card, move_from, move_to, wall = answer = self.session(*args)
        except matlab.MatlabError as e:
            message = str(e)
            if message.startswith("Error in function"):
                head, _, rest = message.partition("\n\nError Message:\n")
                self.log += [head, rest]
            else:
                self.log.append(message)
            raise
        self.log.append(f"Card {card}, {move_from:>2}->{move_to:>2}, W {wall}")
        return answer


class Recorder:
    """A MATLAB AI whose game sessions log into `log`."""

    def __init__(self, ai: matlab.MatlabAI, log: list[str]) -> None:
        self.ai = ai
        self.log = log

    def session(self) -> _Recording:
        return _Recording(self.ai.session(), self.log)

    def __call__(self, *args: Any) -> Any:  # pragma: no cover - play_match uses sessions
        raise AssertionError("called outside a session")


def result_line(record: onitama.MatchRecord) -> str:
    """The coursework referee's last line for a game our referee played."""
    if record.winner is None:
        return "The game is tied"
    loser = "B" if record.winner == "A" else "A"
    if record.reason == "invalid_move":
        return f"Player {record.winner} win as player {loser} input invalid."
    if record.reason in ("programming_error", "timeout"):
        return f"Player {record.winner} win as player {loser} has programming error."
    return f"Player {record.winner} win."


def our_transcript(
    a: Path, b: Path, setup: int | str, sandboxed: bool = True
) -> tuple[list[str], onitama.MatchRecord]:
    """The transcript lines of our referee's game between the MATLAB AIs `a` and `b`
    (as `transcript_lines` reads the coursework's), and its record."""
    log: list[str] = []
    players = [Recorder(matlab.matlab_ai(p, move_time=60, sandbox=sandboxed), log) for p in (a, b)]
    record = onitama.play_match(players[0], players[1], setup, max_plies=None)
    return [*log, result_line(record)], record
