"""`ludo check`: a student's own ``LudoGame.py`` against the engine.

The student's file runs in its own sandboxed process (`LudoGame.sandbox`): a small runner
(`LudoGame._check_runner`, the only file of ours it sees) loads it by path and answers the
assignment's questions over a pipe. The same games are played on it and on the engine through
the assignment's API only; every answer is compared (what ``play_game`` returns, each
player's step counts and ``get_completed``, ``get_space_name`` of every step count, and
``get_player_by_position`` of a position not in the game); after the published cases, D11
(a second ``play_game`` on the same object) and D12 (``move_token``) are checked too.

The games: the course's published cases first (the worked example and the nine instructor
cases), then generated games that reach each rule and decision (D1-D13), then random games,
all from one seed (a fresh one unless given, so that no file can hold the answers of the
games it will be asked). A difference is explained (the first turn where the answers part,
both answers, the board before that turn, the decisions it touches) and shrunk to the
shortest turns list that still shows the same kind of difference.

Nothing the student's process sends is trusted (`LudoGame.check_replies`): a malformed reply
is that call's wrong answer, a flood or a hang ends only that file's check.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import select
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from importlib import resources
from typing import Any

from LudoGame import _check_runner, sandbox
from LudoGame import check_replies as replies
from LudoGame._core import InvalidArgumentError, LudoGame
from LudoGame.untrusted import visible

Turns = list[tuple[str, int]]

#: The decisions, their subject, and whether the assignment text settles them ("text") or
#: leaves part of them open ("open": ours is a documented choice, not the only reading).
DECISIONS: dict[str, tuple[str, str]] = {
    "D1": ("get_space_name: H, R, 1-56, <pos>1-<pos>6, E", "text"),
    "D2": ("get_player_by_position and 'Player not found!'", "text"),
    "D3": ("play_game's answer: p then q of each position, in players order", "text"),
    "D4": ("a token leaves the yard only on a 6, onto R; the 6 is used up", "text"),
    "D5": ("from R a roll r gives step r; bouncing back past E; a finished token stays", "text"),
    "D6": ("R is off the track: never kicked, never stacked, blocks nothing", "open"),
    "D7": ("kicking: only the landing space, start spaces ordinary, stacks go home apart", "open"),
    "D8": ("stacking: two tokens on one space move together, also in the home squares", "open"),
    "D9": ("which token moves: the priority rules, p on a tie", "text"),
    "D10": ("turns in list order, no bonus check; a finished player's turns are ignored", "open"),
    "D11": ("every play_game call starts a fresh game", "open"),
    "D12": ("move_token moves a named token as a turn would", "open"),
    "D13": ("invalid arguments raise a clear error", "open"),
}

RUNNER_NAME = "ludo_check_runner.py"
STUDENT_NAME = "LudoGame.py"
#: Where the sandbox sees the runner and the student's file (read-only).
INSIDE = "/ludo-check"
DEFAULT_TIMEOUT = 5.0
SHRINK_BUDGET = 4000  # games played on each side while shrinking one difference


#: The engine's "answer" where the student's game found no Player (the engine finds one).
EXPECTED_PLAYER = {"t": "Player", "v": "a Player object"}
#: The engine's "answer" where the student's process sent malformed answers as a whole.
EXPECTED_ANSWERS = {"t": "answers", "v": "answers to the questions asked"}


def _expected(ours: dict[str, Any], key: str) -> Any:
    """The engine's answer at `key` (the stand-ins above where the student answered a
    question the engine did not need)."""
    if key == replies.WHOLE:
        return EXPECTED_ANSWERS
    return ours.get(key, EXPECTED_PLAYER if key.endswith(".player") else None)


class CheckUsageError(ValueError):
    """The file cannot be checked: missing, not Python, no LudoGame class, ... (one line)."""


@dataclass
class Difference:
    """One game where the student's answers and the engine's part."""

    source: str
    players: list[str]
    turns: Turns
    turn: int  # index of the first turn after which the answers differ (-1: before any)
    field: str  # the first answer that differs, e.g. "A.p" or "play_game"
    kind: str
    ours: Any
    theirs: Any
    board: str
    decisions: list[str]
    shrunk: Turns
    shrunk_players: list[str]
    open: bool
    seed: int | None  # None: the run's seed is secret

    def explain(self) -> str:
        """The difference in words, several lines (every character of the student's made
        visible, `LudoGame.untrusted.visible`)."""
        return "\n".join(visible(line) for line in self._lines())

    def _lines(self) -> list[str]:
        lines = [f"Difference in {self.source} (players {''.join(self.players)}):"]
        where = "before any turn" if self.turn < 0 else f"after turn {self.turn + 1}"
        reused = self.kind.startswith(("D11", "D12"))
        if self.kind.startswith("D12"):
            where = "after the move_token call"
        elif reused:
            where = "at the end of the game (a fresh game's answers differ)"
        elif self.turn >= 0:
            pos, roll = self.turns[self.turn]
            where += f" ({pos} rolls {roll})"
        lines.append(f"  the answers part {where}: {self.field}")
        lines.append(f"    engine:  {_show(self.ours)}")
        lines.append(f"    student: {_show(self.theirs)}")
        for d in self.decisions:
            lines.append(f"  rule {d}: {DECISIONS[d][0]}")
        if self.open:
            lines.append(
                "  the assignment leaves this open: the student's reading may be one the "
                "course allows (the engine's is a documented choice, not the only one)"
            )
        lines.append(
            "  board of a fresh game at the end:" if reused else "  board before that turn:"
        )
        lines += ["    " + row for row in self.board.splitlines()]
        if "get_space_name" in self.field:
            pos = self.field.split(".")[0]
            lines.append("  to see it:")
            lines.append(f"    game.play_game([{pos!r}], [])")
            lines.append(f"    game.get_player_by_position({pos!r}).{self.field.split('.', 1)[1]}")
            return lines
        if reused:
            lines.append(f"  the game: play_game({self.players!r}, {_turns_text(self.turns)})")
            return lines
        lines.append(f"  shrunk to {len(self.shrunk)} turns that still show it:")
        lines.append(f"    play_game({self.shrunk_players!r}, {_turns_text(self.shrunk)})")
        return lines


@dataclass
class Report:
    """What `check` found for one file. Its `seed` is None when the run's seed is kept
    secret (`check`'s ``secret_seed``)."""

    path: str
    seed: int | None
    games: int = 0
    checked: int = 0
    differing: int = 0  # games checked whose answers differ
    cases_passed: int = 0
    cases: int = 0
    error: str | None = None  # the file could not be checked (load error), one line
    failure: str | None = None  # timeout / crash of the student's process
    differences: list[Difference] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def agrees(self) -> bool:
        """Whether every answer agreed."""
        return self.error is None and self.failure is None and not self.differences

    def to_json(self) -> dict[str, Any]:
        """The report as JSON data."""
        data = asdict(self)
        data["agrees"] = self.agrees
        return data


def _show(answer: Any) -> str:
    """An answer in words, on one line, every character of the student's made visible."""
    if answer is None:
        return "(no answer)"
    if answer in (EXPECTED_PLAYER, EXPECTED_ANSWERS):
        return str(answer["v"])
    if "bad" in answer:
        return f"a malformed answer: {answer['bad']}"
    if "x" in answer:
        return f"raised {visible(answer['x'])}: {visible(answer['m'])}"
    v, t = answer["v"], visible(answer["t"])
    if isinstance(v, list):
        inner = ", ".join(_show(x) for x in v)
        return f"[{inner}]" if t == "list" else f"{t}([{inner}])"
    return repr(v) if t in ("str", "int", "bool", "NoneType") else f"{t} {visible(v)}"


def _turns_text(turns: Turns) -> str:
    return "[" + ", ".join(f"({p!r}, {r})" for p, r in turns) + "]"


# ---------------------------------------------------------------- the student's process


class Student:
    """The student's file loaded in a sandboxed runner process."""

    def __init__(self, path: str, timeout: float, use_sandbox: bool = True) -> None:
        self.path = os.path.abspath(path)
        self.timeout = timeout
        self.use_sandbox = use_sandbox
        self.box: sandbox.Sandboxed | None = None
        self._buffer = bytearray()
        self._empty: str | None = None
        try:
            self.loaded = self._start()
        except BaseException:  # nothing is left behind: the folder, a started process
            self.close()
            raise

    def _start(self) -> dict[str, Any]:
        here = os.path.dirname(os.path.abspath(_check_runner.__file__))
        runner = os.path.join(here, "_check_runner.py")
        prefix = os.path.realpath(sys.base_prefix)
        python = os.path.realpath(sys.executable)
        if not python.startswith(prefix + os.sep):  # a venv of copies: its base's python
            python = os.path.join(prefix, "bin", f"python{sys.version_info[0]}")
        if self.use_sandbox:
            # the Python install, without its site-packages (an installed LudoGame stays
            # hidden: an empty folder is mounted over it)
            self._empty = tempfile.mkdtemp(prefix="ludo-check-empty-")
            os.chmod(self._empty, 0o755)
            read_only = {prefix: prefix}
            for k, folder in enumerate(_site_packages(prefix)):
                empty = os.path.join(self._empty, str(k))
                os.mkdir(empty)
                os.chmod(empty, 0o755)
                read_only[empty] = folder
            read_only[runner] = f"{INSIDE}/{RUNNER_NAME}"
            # a copy readable by the sandbox's user (nobody, when we are root), whatever
            # the mode of the student's file
            copy = os.path.join(self._empty, STUDENT_NAME)
            shutil.copyfile(self.path, copy)
            os.chmod(copy, 0o644)
            read_only[copy] = f"{INSIDE}/{STUDENT_NAME}"
            argv = [python, "-I", "-S", "-B", f"{INSIDE}/{RUNNER_NAME}", f"{INSIDE}/{STUDENT_NAME}"]
        else:
            read_only = {}
            argv = [python, "-I", "-S", "-B", runner, self.path]
        limits = sandbox.Limits(memory_mb=512, cpu_seconds=600, processes=8)
        self.box = sandbox.popen(
            argv,
            read_only=read_only,
            limits=limits,
            sandbox=self.use_sandbox,
            stdin=-1,
            stdout=-1,
            stderr=-3,  # DEVNULL: the student's prints are dropped
        )
        wait = max(self.timeout, 20.0)
        got = self._read(wait, replies.LOAD_LINE_BYTES)
        if isinstance(got, tuple):
            why = {
                "timeout": f"loading it did not end within {wait:g} s",
                "died": f"its process ended while loading it (exit status {got[-1]})",
                "oversized": "its process sent a flood of bytes while loading it",
            }[got[0]]
            return {"load": "error", "message": why}
        return replies.load_reply(got)

    def _read(self, timeout: float, limit: int) -> Any:
        """One reply line from the runner, parsed (`LudoGame.check_replies.parse`: JSON or
        `Malformed`), or a failure: ``("timeout",)``, ``("died", code)``, or
        ``("oversized", limit)`` when no line ends within `limit` bytes (nothing longer is
        read: the runner is flooding)."""
        assert self.box is not None and self.box.process.stdout is not None
        fd = self.box.process.stdout.fileno()
        deadline = time.monotonic() + timeout
        buffer = self._buffer
        scanned = 0
        while (end := buffer.find(b"\n", scanned)) < 0:
            scanned = len(buffer)
            if scanned > limit:
                return ("oversized", limit)
            left = deadline - time.monotonic()
            if left <= 0:
                return ("timeout",)
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                code = self.box.process.wait()
                return ("died", code)
            buffer += chunk
        if end > limit:
            return ("oversized", limit)
        line = bytes(buffer[:end])
        del buffer[: end + 1]
        return replies.parse(line)

    def ask(self, request: dict[str, Any], calls: int = 1, answers: int = 1) -> Any:
        """Send one request and wait for its reply (the time limit grows with `calls`, the
        size limit with `answers`, the number of answers asked for). The reply as
        `_read` gives it; after a failure the runner is ended."""
        assert self.box is not None and self.box.process.stdin is not None
        try:
            self.box.process.stdin.write((json.dumps(request) + "\n").encode())
            self.box.process.stdin.flush()
        except OSError:
            return ("died", self.box.process.poll())
        got = self._read(self.timeout * max(1, calls), replies.reply_limit(answers))
        if isinstance(got, tuple):
            self.close()
        return got

    def close(self) -> None:
        """End the runner and remove its folder."""
        if self.box is not None:
            self.box.close()
        if self._empty is not None:
            shutil.rmtree(self._empty, ignore_errors=True)
            self._empty = None


def _site_packages(prefix: str) -> list[str]:
    """The site-packages folders of the Python install that exist (an installed LudoGame
    may be there), those the sandbox sees: under `prefix` or /usr."""
    import site

    found = []
    for folder in site.getsitepackages():
        real = os.path.realpath(folder)
        if os.path.isdir(real) and (real.startswith(prefix + os.sep) or real.startswith("/usr/")):
            found.append(real)
    return found


def _failure_text(got: tuple[Any, ...], timeout: float) -> str:
    if got[0] == "timeout":
        return f"timeout: the student's code did not answer within {timeout:g} s (endless loop?)"
    if got[0] == "died":
        return f"crash: the student's process ended (exit status {got[1]}) during a call"
    return (
        f"flood: the student's process sent a reply of more than {got[1]:,} bytes "
        "(it was ended unread)"
    )


# ---------------------------------------------------------------- the games


def published_cases() -> list[tuple[str, list[str], Turns]]:
    """The worked example and the nine instructor cases (package data)."""
    text = resources.files("LudoGame").joinpath("cs162_cases.json").read_text()
    return [
        (c["id"], list(c["players"]), [(p, int(r)) for p, r in c["turns"]])
        for c in json.loads(text)
    ]


def random_turns(rng: random.Random) -> tuple[list[str], Turns]:
    """A random game: 2-4 positions in random order; each player rolls, again after a 6."""
    players = rng.sample("ABCD", rng.randint(2, 4))
    turns: Turns = []
    length = rng.randint(20, 320)
    k = 0
    while len(turns) < length:
        pos = players[k % len(players)]
        roll = rng.randint(1, 6)
        turns.append((pos, roll))
        if roll == 6 and len(turns) < length:
            turns.append((pos, rng.randint(1, 6)))
        k += 1
    return players, turns


START = {"A": 1, "B": 15, "C": 29, "D": 43}


def _space(pos: str, steps: int) -> int:
    """The track space of `pos`'s token after `steps` (1-50)."""
    return (START[pos] - 1 + steps - 1) % 56 + 1


def _state(game: LudoGame) -> dict[str, tuple[int, int, bool]]:
    return {p.position: (*p.steps, p.completed) for p in game.players}


def turn_decisions(
    before: dict[str, tuple[int, int, bool]], pos: str, roll: int, after: dict[str, Any]
) -> list[str]:
    """The decisions one turn (`pos` rolls `roll`) touches, from the engine's states: what
    happened (a kick D7, a stack D8, a bounce or a finish D5, a finished player's turn D10)
    first; otherwise what was decided (a yard token D4, a start space by R D6, a choice D9,
    else a plain move D5)."""
    p, q, done = before[pos]
    if done:
        return ["D10"]
    a, b, _ = after[pos]
    events: set[str] = set()
    if (p == q and 1 <= p <= 56) or (a == b and 1 <= a <= 56 and p != q):
        events.add("D8")
    for old, new in ((p, a), (q, b)):
        if new != old and old >= 0 and (old + roll > 57 or new == 57):
            events.add("D5")
    quiet: set[str] = set()
    for other, (op, oq, _) in before.items():
        if other == pos:
            continue
        ap, aq, _ = after[other]
        if (op >= 1 and ap == -1) or (oq >= 1 and aq == -1):
            events.add("D7")
        if 0 in (op, oq):  # landing on the start space of a player with a token on R
            for new in (a, b):
                if 1 <= new <= 50 and _space(pos, new) == START[other]:
                    quiet.add("D6")
    movable = [s for s in (p, q) if s != 57 and (s >= 0 or roll == 6)]
    if len(movable) == 2 and not (p == q and p >= 0):
        quiet.add("D9")  # a choice (also when a kick decided it)
    if not events:
        if -1 in (p, q) and (roll == 6 or (a, b) == (p, q) or "D9" not in quiet):
            quiet.add("D4")
        if not quiet:
            quiet.add("D5")
    return sorted(events | quiet, key=lambda d: int(d[1:]))


def trace(players: Sequence[str], turns: Turns) -> list[list[str]]:
    """The decisions each turn of a game touches, on the engine."""
    game = LudoGame()
    game.play_game(list(players), [])
    out = []
    for pos, roll in turns:
        before = _state(game)
        game.play_turn(pos, roll)
        out.append(turn_decisions(before, pos, roll, _state(game)))
    return out


def scenarios(rng: random.Random, tries: int = 60) -> list[tuple[str, list[str], Turns]]:
    """Generated games that reach each decision: random games cut just after the first turn
    that touches the decision (D4-D10), one per decision and players count."""
    found: dict[str, tuple[str, list[str], Turns]] = {}
    wanted = ["D4", "D5", "D6", "D7", "D8", "D9", "D10"]
    for _ in range(tries):
        players, turns = random_turns(rng)
        for k, tags in enumerate(trace(players, turns)):
            for tag in tags:
                if tag in wanted and tag not in found:
                    found[tag] = (f"a generated game reaching {tag}", players, turns[: k + 1])
        if len(found) == len(wanted):
            break
    return [found[t] for t in wanted if t in found]


# ---------------------------------------------------------------- comparing


def _equal(a: Any, b: Any) -> bool:
    return bool(a == b)


def first_field(ours: dict[str, Any], theirs: Any) -> str | None:
    """The first answer that differs (None: all agree)."""
    if not isinstance(theirs, dict):
        return "answer"
    extra = [key for key in theirs if key not in ours]
    for key, answer in ours.items():
        if key not in theirs and extra:
            return extra[0]  # the student answered another question (e.g. no Player found)
        if not _equal(answer, theirs.get(key)):
            return key
    return extra[0] if extra else None


def kind_of(key: str, theirs: Any) -> str:
    """The kind of a difference, for shrinking: which question, and an exception's type."""
    question = key.split(".", 1)[-1] if "." in key else key
    question = question.split("(")[0]
    answer = theirs.get(key) if isinstance(theirs, dict) else None
    if isinstance(answer, dict) and "x" in answer:
        return f"{question}: raised {answer['x']}"
    if isinstance(answer, dict) and "bad" in answer:
        return f"{question}: malformed"
    return question


class Checker:
    """Plays games on the student's runner and on the engine, and compares them."""

    def __init__(self, student: Student, seed: int | None) -> None:
        self.student = student
        self.seed = seed
        self.failure: str | None = None

    def play(
        self, players: Sequence[str], games: Sequence[Turns], before: Any = None, move: Any = None
    ) -> list[Any] | None:
        """The student's answers to each game (None after a failure: see `failure`); with
        `before` (players, turns) each game is played by an object that played it first."""
        if self.failure is not None:
            return None
        req: dict[str, Any] = {
            "op": "games",
            "players": list(players),
            "games": [list(map(list, g)) for g in games],
        }
        if before is not None:
            req["before"] = [list(before[0]), [list(t) for t in before[1]]]
        if move is not None:
            req["move"] = list(move)
        got = self.student.ask(
            req, calls=max(1, len(games) // 50), answers=len(games) * replies.ANSWERS_PER_GAME
        )
        if isinstance(got, tuple):
            self.failure = _failure_text(got, self.student.timeout)
            return None
        return replies.games_reply(got, players, len(games))

    @staticmethod
    def ours(players: Sequence[str], turns: Turns) -> dict[str, Any]:
        """The engine's answers."""
        return _check_runner.answers(LudoGame, players, turns)

    def differs(self, players: Sequence[str], turns: Turns) -> tuple[str, Any, Any] | None:
        """The first differing answer of one game: (key, ours, theirs), or None."""
        theirs = self.play(players, [turns])
        if theirs is None:
            return None
        ours = self.ours(players, turns)
        key = first_field(ours, theirs[0])
        return None if key is None else (key, ours.get(key), theirs[0].get(key))

    def first_turn(self, players: Sequence[str], turns: Turns) -> int:
        """The index of the first turn after which the answers differ (-1: already at 0)."""
        prefixes = [turns[:k] for k in range(len(turns) + 1)]
        theirs = self.play(players, prefixes)
        if theirs is None:
            return len(turns) - 1
        for k, answer in enumerate(theirs):
            if first_field(self.ours(players, prefixes[k]), answer) is not None:
                return k - 1
        return len(turns) - 1

    def shrink(self, players: Sequence[str], turns: Turns, kind: str) -> Turns:
        """Delta debugging: drop chunks of turns (halving their size down to single turns)
        while the same kind of difference remains; ends when no single turn can go."""
        budget = SHRINK_BUDGET
        size = max(1, len(turns) // 2)
        while turns and budget > 0:
            changed = False
            i = 0
            while i < len(turns) and budget > 0:
                starts = list(range(i, len(turns), size))
                candidates = [turns[:j] + turns[j + size :] for j in starts]
                budget -= len(candidates)
                theirs = self.play(players, candidates)
                if theirs is None:
                    return turns
                hit = None
                for j, cand, answer in zip(starts, candidates, theirs, strict=True):
                    key = first_field(self.ours(players, cand), answer)
                    if key is not None and kind_of(key, answer) == kind:
                        hit = (j, cand)
                        break
                if hit is None:
                    break
                i, turns = hit
                changed = True
            if not changed:
                if size == 1:
                    break
                size //= 2
            else:
                size = max(1, min(size, len(turns) // 2))
        return turns

    def fewer_players(self, players: list[str], turns: Turns, kind: str) -> list[str]:
        """`players` without those that have no turn in `turns`, when the same kind of
        difference remains (in the players' order)."""
        fewer = [p for p in players if any(t[0] == p for t in turns)]
        if not fewer or fewer == players:
            return players
        theirs = self.play(fewer, [turns])
        if theirs is None:
            return players
        key = first_field(self.ours(fewer, turns), theirs[0])
        return fewer if key is not None and kind_of(key, theirs[0]) == kind else players

    def explain(self, source: str, players: list[str], turns: Turns, key: str) -> Difference:
        """Explain and shrink a game whose answers differ at `key`."""
        original = players
        k = self.first_turn(players, turns)
        prefix = turns[: k + 1]
        theirs = self.play(players, [prefix])
        ours = self.ours(players, prefix)
        if theirs is not None:
            key = first_field(ours, theirs[0]) or key
        their_answer = theirs[0].get(key) if theirs else None
        kind = kind_of(key, theirs[0] if theirs else None)
        board = LudoGame()
        board.play_game(players, turns[: max(k, 0)])
        if k >= 0:
            decisions = trace(players, prefix)[k]
        else:
            decisions = ["D3"] if key == "play_game" else []
            decisions += ["D2"] if "get_player" in key or key.endswith(".player") else []
        if key.endswith("completed") and "D10" not in decisions:
            decisions.append("D10")
        if key == "play_game" and theirs is not None:
            decisions = _naming(ours, theirs[0]) or decisions
        shrunk = self.shrink(players, prefix, kind)
        players = self.fewer_players(players, shrunk, kind)
        return Difference(
            source=source,
            players=original,
            turns=turns,
            turn=k,
            field=key,
            kind=kind,
            ours=_expected(ours, key),
            theirs=their_answer,
            board=str(board),
            decisions=decisions,
            shrunk=shrunk,
            shrunk_players=players,
            open=any(DECISIONS[d][1] == "open" for d in decisions),
            seed=self.seed,
        )


def fresh_seed() -> int:
    """A seed nobody can know beforehand (64 bits from the system's secure source): what a
    check plays when no seed is given, so that its games' answers cannot be recorded."""
    return secrets.randbits(64)


def check_seed(seed: object) -> int:
    """`seed` if it is a seed (an int from 0 to 2**64 - 1, not a bool), else the error the
    engine gives for a bad seed."""
    if type(seed) is not int:
        raise TypeError(f"seed must be an int or None, not {type(seed).__name__} ({seed!r})")
    if not 0 <= seed < 2**64:
        raise InvalidArgumentError(f"seed must be an int from 0 to 2**64 - 1, not {seed}")
    return seed


def check(
    path: str,
    *,
    seed: int | None = None,
    secret_seed: bool = False,
    games: int = 200,
    timeout: float = DEFAULT_TIMEOUT,
    sandboxed: bool = True,
    max_differences: int = 3,
) -> Report:
    """Check the student's ``LudoGame.py`` at `path` against the engine.

    Plays the published cases, generated games reaching each decision, then random games
    (`games` in all, at least the published ones), from `seed`: by default a fresh one
    (`fresh_seed`), named in the report, so that no file can hold the answers of the games
    it will be asked (the same seed plays the same games again). With `secret_seed` the
    report does not name it (its `seed` is None): whoever keeps the seed can still repeat the
    run. Raises `CheckUsageError` when the file cannot be checked at all (missing, not
    Python, no LudoGame class, ...) and `LudoGame.sandbox.SandboxUnavailableError` when the
    sandbox is asked for and missing.
    """
    started = time.monotonic()
    seed = fresh_seed() if seed is None else check_seed(seed)
    shown = None if secret_seed else seed
    if os.path.isdir(path):
        inside = os.path.join(path, STUDENT_NAME)
        if not os.path.isfile(inside):
            raise CheckUsageError(visible(f"{path}: a folder with no {STUDENT_NAME}"))
        path = inside
    if not os.path.isfile(path):
        raise CheckUsageError(visible(f"{path}: no such file"))
    if not path.endswith(".py"):
        raise CheckUsageError(visible(f"{path}: not a Python file (a LudoGame.py is expected)"))
    report = Report(path=path, seed=shown)
    student = Student(path, timeout, use_sandbox=sandboxed)
    try:
        if student.loaded.get("load") != "ok":
            why = student.loaded.get("message", "cannot be loaded")
            raise CheckUsageError(visible(f"{path}: {why}"))
        checker = Checker(student, shown)
        _compare_names(checker, report)
        rng = random.Random(seed)
        plan = published_cases()
        report.cases = len(plan)
        plan += scenarios(rng)
        while len(plan) < games:
            players, turns = random_turns(rng)
            plan.append((f"random game {len(plan) + 1}", players, turns))
        _compare_reuse(checker, report, plan[: report.cases])
        _compare_moves(checker, report, plan[: report.cases])
        kinds = {d.kind for d in report.differences}
        for n, (source, players, turns) in enumerate(plan):
            diff = checker.differs(players, turns)
            if checker.failure is not None:
                report.failure = f"{checker.failure} (in {source})"
                break
            report.checked += 1
            if diff is None:
                report.cases_passed += n < report.cases
                continue
            report.differing += 1
            key = diff[0]
            kind = kind_of(key, {key: diff[2]})
            if kind in kinds or len(report.differences) >= max_differences:
                continue  # one explained difference per kind
            kinds.add(kind)
            explained = checker.explain(source, list(players), turns, key)
            if explained.kind not in {d.kind for d in report.differences}:
                report.differences.append(explained)  # (its first turn may show another kind)
            kinds.add(explained.kind)
            if checker.failure is not None:
                report.failure = f"{checker.failure} (while shrinking {source})"
                break
        report.games = len(plan)
    finally:
        student.close()
    report.seconds = time.monotonic() - started
    return report


def _naming(ours: dict[str, Any], theirs: dict[str, Any]) -> list[str]:
    """When only play_game's answer differs (every step count and completion agrees), the
    difference is in the names of the spaces (D1) or their order (D3); else []."""
    if any(_equal(ours.get(k), theirs.get(k)) is False for k in ours if k != "play_game"):
        return []
    a, b = ours.get("play_game", {}).get("v"), theirs.get("play_game", {}).get("v")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        key = lambda x: json.dumps(x, sort_keys=True)  # noqa: E731
        return ["D3"] if sorted(a, key=key) == sorted(b, key=key) else ["D1"]
    return ["D3"]


def _end_difference(
    checker: Checker,
    source: str,
    players: list[str],
    turns: Turns,
    key: str,
    answers: tuple[dict[str, Any], Any],
    kind: str,
    decision: str,
    open_: bool = True,
) -> Difference:
    """A difference found after the whole of `turns` (not shrunk: the published cases and
    the space names are already as short as they come), `answers` being ours and theirs."""
    ours, theirs = answers
    board = LudoGame()
    board.play_game(players, turns)
    return Difference(
        source=source,
        players=players,
        turns=turns,
        turn=len(turns) - 1,
        field=key,
        kind=kind,
        ours=_expected(ours, key),
        theirs=theirs.get(key) if isinstance(theirs, dict) else None,
        board=str(board),
        decisions=[decision],
        shrunk=turns,
        shrunk_players=players,
        open=open_,
        seed=checker.seed,
    )


def _compare_reuse(
    checker: Checker, report: Report, cases: list[tuple[str, list[str], Turns]]
) -> None:
    """D11: each published case played by an object that played the case before it first
    must answer as a fresh one (the engine's answers are those of a fresh game). Only the
    cases a fresh object answers as the engine does count (other differences are reported
    on their own)."""
    for (first, players0, turns0), (source, players, turns) in zip(cases, cases[1:], strict=False):
        ours = _check_runner.answers(LudoGame, players, turns)
        fresh = checker.play(players, [turns])
        theirs = checker.play(players, [turns], before=(players0, turns0))
        if fresh is None or theirs is None:
            report.failure = f"{checker.failure} (in {source} after {first})"
            return
        key = first_field(ours, theirs[0])
        if key is None or first_field(ours, fresh[0]) is not None:
            continue
        report.differences.append(
            _end_difference(
                checker,
                f"{source}, played by the LudoGame object that played {first} first",
                players,
                turns,
                key,
                (ours, theirs[0]),
                f"D11 {kind_of(key, theirs[0])}",
                "D11",
            )
        )
        return


def _compare_moves(
    checker: Checker, report: Report, cases: list[tuple[str, list[str], Turns]]
) -> None:
    """D12: after each published case, ``move_token`` of the first player's p and q by 1
    and by 6; then every answer. Only the cases a fresh object answers right count, and one
    difference is reported."""
    for source, players, turns in cases:
        ours = _check_runner.answers(LudoGame, players, turns)
        fresh = checker.play(players, [turns])
        if fresh is None:
            report.failure = f"{checker.failure} (in {source})"
            return
        if first_field(ours, fresh[0]) is not None:
            continue
        for token in "pq":
            for steps in (1, 6):
                move = (players[0], token, steps)
                theirs = checker.play(players, [turns], move=move)
                if theirs is None:
                    report.failure = f"{checker.failure} (in move_token after {source})"
                    return
                mine = _check_runner.answers(LudoGame, players, turns, move=move)
                key = first_field(mine, theirs[0])
                if key is None:
                    continue
                report.differences.append(
                    _end_difference(
                        checker,
                        f"{source}, then move_token({players[0]}'s player, {token!r}, {steps})",
                        players,
                        turns,
                        key,
                        (mine, theirs[0]),
                        f"D12 {kind_of(key, theirs[0])}",
                        "D12",
                    )
                )
                return


def _compare_names(checker: Checker, report: Report) -> None:
    """get_space_name of every step count, for each position."""
    for pos in "ABCD":
        got = checker.student.ask(
            {"op": "names", "position": pos}, answers=replies.ANSWERS_PER_NAMES
        )
        if isinstance(got, tuple):
            checker.failure = _failure_text(got, checker.student.timeout)
            report.failure = f"{checker.failure} (in get_space_name)"
            return
        theirs = replies.names_reply(got, pos)
        ours = _check_runner.space_names(LudoGame, pos)
        key = first_field(ours, theirs)
        if key is None:
            continue
        kind = kind_of(key, theirs)
        if kind not in {d.kind for d in report.differences}:
            report.differences.append(
                _end_difference(
                    checker,
                    f"get_space_name of position {pos}",
                    [pos],
                    [],
                    key,
                    (ours, theirs),
                    kind,
                    "D1",
                    open_=False,
                )
            )


# ---------------------------------------------------------------- reports


def seed_text(seed: int | None) -> str:
    """How a report names its seed: ``seed N``, or that it is kept secret."""
    return "secret seed" if seed is None else f"seed {seed}"


def render(report: Report, colour: bool = False) -> str:
    """The report as terminal text: every character of the student's (and of the file's
    name) made visible (`LudoGame.untrusted.visible`); with `colour`, the verdict is
    coloured (the only escape sequences in the text)."""

    def paint(text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if colour else text

    head = f"{visible(report.path)}: "
    if report.error:
        return head + paint(visible(report.error), "31")
    lines = []
    seed = seed_text(report.seed)
    if report.agrees:
        lines.append(
            head
            + paint("agrees", "32")
            + f" with the engine on {report.checked} games ({report.cases_passed}/{report.cases}"
            f" published cases; {seed}, {report.seconds:.1f} s)"
        )
        return "\n".join(lines)
    n = len(report.differences)
    summary = f"{n} kind{'s' if n != 1 else ''} of difference" if n else "no difference"
    lines.append(
        head
        + paint("differs", "31")
        + f": {summary} in {report.checked} games checked ({report.cases_passed}/{report.cases}"
        f" published cases pass; {seed}, {report.seconds:.1f} s)"
    )
    if report.failure:
        lines.append("  " + paint(visible(report.failure), "31"))
    for d in report.differences:
        lines.append("")
        lines.append(d.explain())
    return "\n".join(lines)


__all__ = [
    "DECISIONS",
    "CheckUsageError",
    "Difference",
    "Report",
    "check",
    "check_seed",
    "fresh_seed",
    "published_cases",
    "render",
    "scenarios",
    "seed_text",
    "turn_decisions",
]
