"""The ``onitama engine`` line protocol: other programs and GUIs play the built-in search.

One command a line on stdin, one answer a line on stdout (flushed after each); see
docs/onitama-engine.md for the protocol. Bad input gets one ``error <message>`` line and
changes nothing; the engine goes on until ``quit`` or the end of its input.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TextIO

from LudoGame.onitama import Action, Onitama

#: Seconds a search takes when neither the ``go`` line nor the command line names a limit.
DEFAULT_TIME = 1.0

#: A forced win whose winning ply is the k-th from now scores MATE - k (the engine's).
MATE = 30_000
#: Scores beyond this are forced wins or losses.
MATE_BOUND = MATE - 1_000

#: The words of the ``go`` line and the command line's limits.
LIMIT_WORDS = ("time", "depth", "nodes")


class ProtocolError(Exception):
    """A line the engine cannot act on: answered ``error <message>``."""


@dataclass(frozen=True)
class Limits:
    """What stops a search: seconds, plies, nodes (None: not limited by it)."""

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None

    def given(self) -> bool:
        return any(v is not None for v in (self.time, self.depth, self.nodes))

    def or_default(self) -> Limits:
        """These limits, or the default time when none is set."""
        return self if self.given() else Limits(time=DEFAULT_TIME)


def score_text(score: int) -> str:
    """The score for the side to move: ``cp N`` (the evaluation, 0 balanced or a tie), or
    ``mate N`` (a forced win in N of its own moves) / ``mate -N`` (a forced loss, the
    opponent winning on its N-th move), as in UCI."""
    if score > MATE_BOUND:
        return f"mate {(MATE - score + 1) // 2}"
    if score < -MATE_BOUND:
        return f"mate -{(MATE + score) // 2}"
    return f"cp {score}"


def parse_limits(words: list[str]) -> Limits:
    """``time S`` / ``depth N`` / ``nodes N`` pairs, in any order."""
    if len(words) % 2:
        raise ProtocolError(f"a limit needs a value: {' '.join(words)!r}")
    values: dict[str, float | int] = {}
    for key, value in zip(words[::2], words[1::2], strict=True):
        if key not in LIMIT_WORDS:
            raise ProtocolError(f"unknown limit {key!r} (time, depth or nodes)")
        if key in values:
            raise ProtocolError(f"{key} is given twice")
        try:
            number: float | int = float(value) if key == "time" else int(value)
        except ValueError:
            kind = "a number of seconds" if key == "time" else "a whole number"
            raise ProtocolError(f"{key} must be {kind}, not {value!r}") from None
        if not 0 < number < float("inf"):  # also refuses nan
            need = "a number of seconds above 0" if key == "time" else "1 or more"
            raise ProtocolError(f"{key} must be {need}, not {value!r}")
        values[key] = number
    t = values.get("time")
    d = values.get("depth")
    n = values.get("nodes")
    return Limits(
        time=None if t is None else float(t),
        depth=None if d is None else int(d),
        nodes=None if n is None else int(n),
    )


def split_actions(game: Onitama, words: list[str]) -> list[str]:
    """Group the words of an action list into actions of the game's form: 3 words in
    standard Onitama (``1 e2 d3``), 4 in the wall variant (``1 e2 d3 u``); commas between
    actions are allowed."""
    words = [w for part in words for w in part.split(",") if w]
    size = 3 if game.rules == "standard" else 4
    if len(words) % size:
        form = "'1 e2 d3'" if size == 3 else "'1 e2 d3 u'"
        raise ProtocolError(
            f"{len(words)} words do not make whole actions: this game's actions are "
            f"{size} words, e.g. {form}"
        )
    return [" ".join(words[i : i + size]) for i in range(0, len(words), size)]


def one_line(e: BaseException) -> str:
    """An error's message on one line."""
    text = " ".join(str(e).split())
    return text or type(e).__name__


class Engine:
    """The state of one engine session: the position and the default limits."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits.or_default()
        self.game: Onitama | None = None

    def answer(self, line: str) -> list[str] | None:
        """The answer lines to one input line (None: quit). Raises ProtocolError or the
        game's own errors for bad input; the position then stays as it was."""
        words = line.split()
        if not words:
            return []
        command, rest = words[0], words[1:]
        if command == "quit":
            return None
        if command == "isready":
            return ["readyok"]
        if command == "position":
            self.game = self.position(rest)
            return []
        if command == "go":
            return [self.go(parse_limits(rest) if rest else self.limits)]
        if command == "legal":
            return [" ".join(["legal", *(str(a) for a in self.current().legal_moves)])]
        if command == "notation":
            return [self.current().to_notation()]
        if "/" in command:  # a bare position: answer its best move at once
            game = self.position(words)
            found = self.go(self.limits, game)
            self.game = game
            return [found]
        raise ProtocolError(f"unknown command {command!r}")

    def current(self) -> Onitama:
        if self.game is None:
            raise ProtocolError("no position yet: send 'position <notation>' first")
        return self.game

    def position(self, words: list[str]) -> Onitama:
        """The game of ``position`` (a notation, ``setup ID`` or ``deal SEED``), then the
        actions after ``moves``."""
        if not words:
            raise ProtocolError("position needs a notation, 'setup ID' or 'deal SEED'")
        moves: list[str] = []
        if "moves" in words:
            cut = words.index("moves")
            words, moves = words[:cut], words[cut + 1 :]
        if words[0] == "setup" and len(words) == 2:
            game = Onitama.setup(words[1])
        elif words[0] == "deal" and len(words) == 2:
            try:
                seed = int(words[1])
            except ValueError:
                raise ProtocolError(f"a deal's seed is a whole number, not {words[1]!r}") from None
            game = Onitama.standard(seed=seed)
        else:
            game = Onitama.from_notation(" ".join(words))
        for k, text in enumerate(split_actions(game, moves), 1):
            if game.is_over():
                raise ProtocolError(f"move {k} ({text}) comes after the end of the game")
            try:
                game.play(text)
            except (ValueError, TypeError) as e:
                raise ProtocolError(f"move {k} ({text}): {one_line(e)}") from None
        return game

    def go(self, limits: Limits, game: Onitama | None = None) -> str:
        """The ``bestmove`` line of a search of the game (or the ``result`` line of a game
        that is over)."""
        game = game or self.current()
        if game.is_over():
            reason = game.result_reason
            winner = game.winner or "tie"
            return f"result {winner} {reason.value if reason is not None else ''}".rstrip()
        started = time.monotonic()
        info = game.analyse(level=2, time=limits.time, nodes=limits.nodes, depth=limits.depth)
        took = time.monotonic() - started
        action: Action = info["action"]
        pv = " ".join(str(a) for a in info["pv"])
        return (
            f"bestmove {action} score {score_text(info['score'])} depth {info['depth']} "
            f"nodes {info['nodes']} time {took:.3f} pv {pv}"
        )


def serve(inp: TextIO, out: TextIO, limits: Limits) -> int:
    """Answer `inp`'s lines on `out` until ``quit`` or the end of the input; exit code 0.
    Ctrl-C (KeyboardInterrupt) is left to the caller."""
    engine = Engine(limits)
    while True:
        line = inp.readline()
        if not line:
            return 0
        try:
            answer = engine.answer(line)
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as e:  # bad input: one line, and go on
            answer = [f"error {one_line(e)}"]
        if answer is None:
            return 0
        for text in answer:
            out.write(text + "\n")
        out.flush()
