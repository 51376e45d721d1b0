"""maxbennedich/onitama's searcher behind our ``onitama engine`` protocol (not part of the tests).

Usage::

    python benches/onitama_external/maxb_engine.py --classpath CLASSES:DRIVER \\
        [--time S] [--time-scale 1] [--warmup-ms 3000] [--log moves.jsonl]

The commands ``benches/onitama_sprt.py`` sends are answered as docs/onitama-engine.md says:
``isready``, ``position ...`` (our parser: a notation, ``deal SEED [CARD_SET]``, ``setup ID``,
then ``moves ...``), ``go [time S] [depth N]``, ``legal``, ``notation``, ``quit``. Only
standard Onitama is played (their engine has no wall); ``go nodes N`` is an error (their
search has no node limit), and so are ``go infinite`` and ``stop``.

Our own ``LudoGame.onitama`` keeps the game. At ``go`` the position is handed, in their
conventions, to ``MaxbDriver.java`` (ours, compiled against their classes; one long-lived JVM,
so the JIT warms up once), which runs their ``Searcher`` on one thread with their PST
evaluator, their TT size for the time and their own time control, and prints their move. The
move is turned back into our action and must be one of our ``legal_moves``: if not, the adapter
says so on stderr and exits with code 3 (a wrong mapping must not pass for a weak move).

Conventions (checked by ``check_mapping.py``): our player A (row ``e``, reading cards as
written) is their player 0 (red, board row y = 4, moving toward y = 0); B is their player 1.
Our row letter ``a``..``e`` is their y = 0..4 and our column k their x = k - 1. Our A1 A2 are
their player 0's two cards, B1 B2 player 1's, the side card their "next card". A player with
only passes (``1 XX XX``) plays our first legal pass without asking them (their move
generator has no pass).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from LudoGame.onitama import Onitama
from LudoGame.onitama_engine import Engine, Limits, ProtocolError, one_line

ROWS = "abcde"
#: Our board characters -> theirs ('r'/'R' their player 0, our A; 'b'/'B' player 1, our B).
PIECES = {" ": ".", ".": ".", "a": "r", "A": "R", "b": "b", "B": "B"}


def their_position(game: Onitama) -> tuple[int, str, list[str]]:
    """The side to move (0, 1), the 25-character board and the five card names, theirs."""
    board = "".join(PIECES[c] for row in game.board for c in row)
    cards = game.cards
    names = [cards[k].name.replace(" ", "_") for k in ("A1", "A2", "B1", "B2", "side")]
    return (0 if game.turn == "A" else 1), board, names


def our_action(game: Onitama, card: str, px: int, py: int, nx: int, ny: int) -> str:
    """Their move (card, from x y, to x y) as our action text: the slot of that card in the
    mover's hand, then the two squares."""
    hand = [game.cards[f"{game.turn}{k}"].name.replace(" ", "_") for k in (1, 2)]
    if card not in hand:
        raise ValueError(f"their card {card} is not in {game.turn}'s hand {hand}")
    slot = hand.index(card) + 1
    return f"{slot} {ROWS[py]}{px + 1} {ROWS[ny]}{nx + 1}"


class Driver:
    """The JVM running MaxbDriver: one request line, one answer line."""

    def __init__(self, classpath: str, warmup_ms: int) -> None:
        command = ["java", "-XX:+UseSerialGC", "-Xms256m", "-Xmx1g", "-cp", classpath]
        self.child = subprocess.Popen(
            [*command, "MaxbDriver", str(warmup_ms)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.ready = False

    def ask(self, line: str) -> str:
        if not self.ready:  # the warm-up's "ready", read at the first request
            self.ready = self.read() == "ready"
            if not self.ready:
                raise RuntimeError("MaxbDriver did not start")
        assert self.child.stdin is not None
        self.child.stdin.write(line + "\n")
        self.child.stdin.flush()
        return self.read()

    def read(self) -> str:
        assert self.child.stdout is not None
        answer = self.child.stdout.readline()
        if not answer:
            raise RuntimeError("MaxbDriver ended")
        return answer.rstrip("\n")

    def close(self) -> None:
        try:
            assert self.child.stdin is not None
            self.child.stdin.write("quit\n")
            self.child.stdin.flush()
            self.child.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.child.kill()
            self.child.wait()


class MaxbEngine(Engine):
    """Our protocol's engine with their search behind ``go``."""

    def __init__(
        self, limits: Limits, driver: Driver, log: str | None, time_scale: float = 1.0
    ) -> None:
        super().__init__(limits)
        self.driver = driver
        self.time_scale = time_scale
        self.log = open(log, "a", encoding="utf-8") if log else None  # noqa: SIM115

    def answer(self, line: str) -> list[str] | None:
        words = line.split()
        if words and words[0] == "isready":
            if not self.driver.ready:  # answered once their JVM has warmed up
                self.driver.ready = self.driver.read() == "ready"
            return ["readyok"]
        if words and words[0] == "stop":
            raise ProtocolError("this adapter has no running search to stop")
        return super().answer(line)

    def go(self, limits: Limits, game: Onitama | None = None, stop: object = None) -> str:
        game = game or self.current()
        if game.is_over():
            reason = game.result_reason
            winner = game.winner or "tie"
            return f"result {winner} {reason.value if reason is not None else ''}".rstrip()
        if game.rules != "standard":
            raise ProtocolError("their engine plays standard Onitama only")
        limits = limits.or_default()
        if limits.nodes is not None or limits.infinite:
            raise ProtocolError("their search has no node limit and no 'go infinite'")
        legal = [str(a) for a in game.legal_moves]
        if all(a.is_pass for a in game.legal_moves):
            return f"bestmove {legal[0]} score cp 0 depth 0 nodes 0 time 0.000 pv {legal[0]}"
        # a depth alone: no clock; --time-scale gives their search that share of the time
        seconds = limits.time * self.time_scale if limits.time is not None else 1e6
        ms = min(max(1, round(seconds * 1000)), 2**31 - 1)
        depth = limits.depth or 0  # 0: their deepest
        player, board, cards = their_position(game)
        started = time.monotonic()
        reply = self.driver.ask(f"search {ms} {depth} {player} {board} {' '.join(cards)}").split()
        took = time.monotonic() - started
        if not reply or reply[0] != "move":
            raise ProtocolError(f"their driver answered {' '.join(reply)!r}")
        card, px, py, nx, ny = reply[1], *(int(v) for v in reply[2:6])
        info = dict(zip(reply[6::2], reply[7::2], strict=False))
        try:
            action = our_action(game, card, px, py, nx, ny)
        except ValueError as e:
            action = f"(unmappable: {e})"
        if action not in legal:
            print(
                f"maxb_engine: their move {card} ({px},{py})->({nx},{ny}) maps to {action}, "
                f"not a legal move of {game.to_notation()}: {legal}",
                file=sys.stderr,
                flush=True,
            )
            sys.exit(3)
        if self.log:
            record = {"ms_asked": ms, "ms_java": int(info.get("ms", -1)), "s_total": took}
            record |= {"depth": int(info.get("depth", 0)), "nodes": int(info.get("nodes", 0))}
            self.log.write(json.dumps(record) + "\n")
            self.log.flush()
        return (
            f"bestmove {action} score cp {info.get('score', 0)} depth {info.get('depth', 0)} "
            f"nodes {info.get('nodes', 0)} time {took:.3f} pv {action}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--classpath", required=True, help="their classes and MaxbDriver's")
    parser.add_argument("--time", type=float, help="seconds a 'go' without limits takes (1)")
    parser.add_argument(
        "--time-scale",
        type=float,
        default=1.0,
        help="their search gets this times the time of 'go time S' (1: the same)",
    )
    parser.add_argument("--warmup-ms", type=int, default=3000, help="JIT warm-up searches")
    parser.add_argument("--log", help="append one JSON line a search (times, depth, nodes)")
    args = parser.parse_args(argv)
    driver = Driver(args.classpath, args.warmup_ms)
    engine = MaxbEngine(Limits(time=args.time), driver, args.log, args.time_scale)
    try:
        for line in sys.stdin:
            try:
                lines = engine.answer(line)
            except (ProtocolError, ValueError, TypeError) as e:
                lines = [f"error {one_line(e)}"]
            if lines is None:
                break
            for out in lines:
                print(out, flush=True)
    finally:
        driver.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
