"""A match between two Onitama engines through the ``onitama engine`` protocol, with a
sequential probability ratio test (SPRT) of their Elo difference (not part of the tests).

Usage::

    python benches/onitama_sprt.py --engine-a "onitama engine" \\
        --engine-b "../venv-base/bin/onitama engine" --nodes 20000 \\
        [--openings deal|wall|both] [--seed 1] [--elo0 0] [--elo1 10] [--alpha 0.05] \\
        [--beta 0.05] [--max-games 400] [--max-plies 200] [--time S [--clock]] [--quiet]

Each engine is a command line (split as a shell would) of any program speaking the
protocol of docs/onitama-engine.md. Engine A is the one tested: the Elo and the test are
from its side.

**Openings.** Pair k (k = 0, 1, ...) starts from ``position deal <seed + k>`` (a random
standard deal, ``--openings deal``), or from a random wall-variant setup (the tournament
board, its wall on either side, five distinct standard cards, A to move, 20 plies; seeded by
``seed + k``; ``--openings wall``), or alternately one then the other (``both``: even k a
deal, odd k a wall setup). Each opening is played twice, A playing the first mover then the
second: a *pair*.

**A game.** The side to move is sent ``position <opening> moves <every action so far>`` and
``go nodes N`` (``--nodes``: deterministic, whatever the machine's load) or ``go time S``
(``--time``). With ``--clock`` (and ``--time``) each engine has a clock for the whole
match instead: credited ``--time`` before each of its moves (a surplus kept up to
``MAX_BANK`` moves' time), charged the wall time from its position sent to its answer
(so the time it takes to be ready, such as an endgame table's build, is on its own clock),
and asked ``go time <what its clock holds>`` (at least ``MIN_THINK``); the opening's first
``position``, which checks it (sent to A), is off the clock, and an answer ``result`` (no
move to play) gets no credit. Its ``bestmove``
action is played; the game ends when the engine to move
answers ``result <A|B|tie> <reason>``. An ``error`` answer to a position ending with the
opponent's action (an illegal action) loses for the opponent; an engine that answers
anything else, or dies, loses. A standard game longer than ``--max-plies`` plies is scored
a draw (the wall variant ends itself after 20 plies).

**The test** (GSPRT, normal approximation, as fishtest's): a sample is a pair's score per
game (0, 1/4, 1/2, 3/4 or 1: the *pentanomial* model, which takes the correlation of the two
games of an opening into account). With ``N`` samples of mean ``m`` and variance ``v``, and
``s0``, ``s1`` the expected scores of ``--elo0`` and ``--elo1`` (logistic Elo),
``LLR = N (s1 - s0) (2m - s0 - s1) / (2v')``, where ``v'`` is the variance with two
pseudo-samples 0 and 1 of weight 1/2 added (so that a few equal results cannot end it).
The test stops when the LLR leaves
``[log(beta / (1 - alpha)), log((1 - beta) / alpha)]`` (H1 accepted above: A is stronger by
about elo1; H0 below) or at ``--max-games`` (inconclusive). The Elo is ``-400 log10(1/m -
1)`` with the 95% interval of ``m ± 1.96 sqrt(v / N)``.

The result is fixed by the engines, the seed and the node limit: games run one at a time,
and each engine's search is deterministic under a node budget.
"""

from __future__ import annotations

import argparse
import math
import random
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field

#: The tournament start boards of the wall variant (the wall on either side).
WALL_BOARDS = ("bbBbb/...../....W/...../aaAaa", "bbBbb/...../W..../...../aaAaa")

#: The 16 base cards, the deck of the random wall setups.
BASE_CARDS = (
    "Tiger Dragon Frog Rabbit Crab Elephant Goose Rooster Monkey Mantis Horse Ox Crane Boar "
    "Eel Cobra"
).split()


#: The least time a move is given under ``--clock``, however far behind its clock is.
MIN_THINK = 0.01

#: Under ``--clock``, a surplus is kept up to this many moves' time.
MAX_BANK = 2


@dataclass
class Clock:
    """An engine's time for a whole match (``--clock``)."""

    per_move: float
    left: float = 0.0

    def credit(self) -> float:
        """A move of its own begins: ``per_move`` more, up to ``MAX_BANK`` moves' time.
        Returns what was credited."""
        before = self.left
        self.left = min(self.left + self.per_move, MAX_BANK * self.per_move)
        return self.left - before

    def spend(self, seconds: float) -> None:
        self.left -= seconds

    def go(self) -> str:
        """The ``go`` line of the move: what the clock holds, at least ``MIN_THINK``."""
        return f"go time {max(self.left, MIN_THINK):.3f}"


# ---------------------------------------------------------------------------------------
# The maths.


def expected_score(elo: float) -> float:
    """The expected score per game of an Elo difference (logistic)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of_score(score: float) -> float:
    """The Elo difference of a score per game (``±inf`` at 1 and 0)."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def mean_and_variance(counts: dict[float, int]) -> tuple[float, float, int]:
    """The mean, the variance (of one sample) and the number of samples of a histogram
    ``{sample value: how many}``."""
    n = sum(counts.values())
    if n == 0:
        return 0.5, 0.0, 0
    mean = sum(x * c for x, c in counts.items()) / n
    var = sum(c * (x - mean) ** 2 for x, c in counts.items()) / n
    return mean, var, n


#: The weight of each of the two pseudo-samples, 0 and 1, added to the samples when the LLR
#: takes their variance (a few equal results would otherwise make it 0 and end the test).
PRIOR_WEIGHT = 0.5


def regularized_variance(counts: dict[float, int]) -> float:
    """The variance of the samples with a pseudo-sample 0 and a pseudo-sample 1 added, each
    of weight ``PRIOR_WEIGHT``."""
    n = sum(counts.values()) + 2 * PRIOR_WEIGHT
    total = sum(x * c for x, c in counts.items()) + PRIOR_WEIGHT
    mean = total / n
    square = sum(c * (x - mean) ** 2 for x, c in counts.items())
    square += PRIOR_WEIGHT * (mean**2 + (1 - mean) ** 2)
    return square / n


def llr(counts: dict[float, int], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 (Elo ``elo1``) against H0 (``elo0``) of the samples
    (normal approximation: ``N (s1 - s0) (2m - s0 - s1) / (2v)``, v the
    ``regularized_variance``)."""
    mean, _, n = mean_and_variance(counts)
    if n == 0:
        return 0.0
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * regularized_variance(counts))


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The LLR's lower (accept H0) and upper (accept H1) bounds."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def elo_interval(counts: dict[float, int]) -> tuple[float, float, float]:
    """The Elo of the samples' mean and its 95% interval (low, Elo, high)."""
    mean, var, n = mean_and_variance(counts)
    if n == 0:
        return -math.inf, 0.0, math.inf
    half = 1.959964 * math.sqrt(var / n)
    return elo_of_score(mean - half), elo_of_score(mean), elo_of_score(mean + half)


# ---------------------------------------------------------------------------------------
# The engines and the games.


class EngineError(Exception):
    """An engine died or answered something that is not the protocol."""


class Engine:
    """One engine process, spoken to a line at a time."""

    def __init__(self, command: str, name: str) -> None:
        self.name = name
        self.command = command
        self.child = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        if self.ask("isready") != "readyok":
            raise EngineError(f"{name} ({command}) did not answer readyok")

    def send(self, line: str) -> None:
        assert self.child.stdin is not None
        try:
            self.child.stdin.write(line + "\n")
            self.child.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineError(f"{self.name} closed its input: {e}") from None

    def ask(self, line: str) -> str:
        """Send a line and read the answer line."""
        self.send(line)
        assert self.child.stdout is not None
        answer = self.child.stdout.readline()
        if not answer:
            raise EngineError(f"{self.name} ended (on {line!r})")
        return answer.rstrip("\n")

    def set_position(self, words: str) -> str | None:
        """Send ``position <words>``; the ``error`` line it answered, or None when taken
        (``isready`` follows it, so a silent acceptance is told from a slow one)."""
        self.send(f"position {words}")
        answer = self.ask("isready")
        if answer == "readyok":
            return None
        if self.read_line() != "readyok":
            raise EngineError(f"{self.name} answered {answer!r} to a position")
        return answer

    def read_line(self) -> str:
        """Read one more answer line."""
        assert self.child.stdout is not None
        answer = self.child.stdout.readline()
        if not answer:
            raise EngineError(f"{self.name} ended")
        return answer.rstrip("\n")

    def close(self) -> None:
        try:
            self.send("quit")
            self.child.wait(timeout=5)
        except (EngineError, subprocess.TimeoutExpired):
            self.child.kill()
            self.child.wait()


def wall_opening(seed: int) -> str:
    """A random wall-variant setup's notation (see the module docs)."""
    rng = random.Random(seed)
    cards = rng.sample(BASE_CARDS, 5)
    board = rng.choice(WALL_BOARDS)
    hand = f"A1:{cards[0]} A2:{cards[1]} B1:{cards[2]} B2:{cards[3]} side:{cards[4]}"
    return f"{board} A n=20 {hand}"


def opening(kind: str, seed: int, k: int) -> str:
    """The ``position`` words of pair k."""
    if kind == "deal" or (kind == "both" and k % 2 == 0):
        return f"deal {seed + k}"
    return wall_opening(seed + k)


@dataclass
class Game:
    """One finished game from engine A's side."""

    opening: str
    a_moves_first: bool
    score: float  # 1 a win of A, 0.5 a draw, 0 a loss
    reason: str
    plies: int
    moves: list[str] = field(default_factory=list)


def action_of(answer: str) -> str:
    """The action of a ``bestmove`` line."""
    words = answer.split()
    cut = words.index("score") if "score" in words else len(words)
    return " ".join(words[1:cut])


def play_game(
    engines: dict[str, Engine],
    start: str,
    a_first: bool,
    go: str,
    max_plies: int,
    clocks: dict[str, Clock] | None = None,
) -> Game:
    """One game from `start`, engine A moving first when `a_first` (on `clocks` when given:
    each move's ``go`` is then its engine's clock's)."""
    refused = engines["A"].set_position(start)
    if refused:
        raise EngineError(f"engine A refused the opening {start!r}: {refused}")
    notation = engines["A"].ask("notation")
    first_colour = notation.split()[1]  # the colour to move at the start
    colour_of = {first_colour: "A" if a_first else "B"}
    colour_of[{"A": "B", "B": "A"}[first_colour]] = "B" if a_first else "A"
    moves: list[str] = []
    mover = "A" if a_first else "B"
    while True:
        engine = engines[mover]
        other = "B" if mover == "A" else "A"
        position = start + (f" moves {' '.join(moves)}" if moves else "")
        clock = clocks[mover] if clocks is not None else None
        sent = time.perf_counter()
        reply = engine.set_position(position)
        if reply is not None:
            if moves:  # the opponent's last action was not legal
                return Game(start, a_first, 1.0 if mover == "A" else 0.0, "illegal", len(moves))
            raise EngineError(f"{engine.name} refused the opening: {reply}")
        if clock is not None:
            credited = clock.credit()
            clock.spend(time.perf_counter() - sent)
            go = clock.go()
            sent = time.perf_counter()
        answer = engine.ask(go)
        if clock is not None:
            clock.spend(time.perf_counter() - sent)
        if answer.startswith("result"):
            if clock is not None:  # no move played: its credit taken back
                clock.spend(credited)
            words = answer.split()
            winner = words[1]
            reason = words[2] if len(words) > 2 else ""
            if winner == "tie":
                score = 0.5
            else:
                score = 1.0 if colour_of[winner] == "A" else 0.0
            return Game(start, a_first, score, reason, len(moves), moves)
        if not answer.startswith("bestmove"):
            return Game(start, a_first, 0.0 if mover == "A" else 1.0, "bad answer", len(moves))
        moves.append(action_of(answer))
        if len(moves) >= max_plies:
            return Game(start, a_first, 0.5, "adjudicated", len(moves), moves)
        mover = other


@dataclass
class Tally:
    """The games so far and the pentanomial histogram of the pairs."""

    games: list[Game] = field(default_factory=list)
    pairs: dict[float, int] = field(default_factory=dict)

    def add_pair(self, first: Game, second: Game) -> None:
        self.games += [first, second]
        x = (first.score + second.score) / 2
        self.pairs[x] = self.pairs.get(x, 0) + 1

    def wdl(self) -> tuple[int, int, int]:
        w = sum(g.score == 1.0 for g in self.games)
        d = sum(g.score == 0.5 for g in self.games)
        return w, d, len(self.games) - w - d


def summary(tally: Tally, elo0: float, elo1: float, bounds: tuple[float, float]) -> str:
    """The result lines: games, W/D/L, score, Elo with its interval, LLR and bounds."""
    w, d, lo_ = tally.wdl()
    n = len(tally.games)
    score = (w + d / 2) / n if n else 0.5
    low, elo, high = (x + 0.0 for x in elo_interval(tally.pairs))  # no "-0.0"
    penta = " ".join(str(tally.pairs.get(x, 0)) for x in (0.0, 0.25, 0.5, 0.75, 1.0))
    value = llr(tally.pairs, elo0, elo1)
    return (
        f"games {n} W {w} D {d} L {lo_} score {score:.3f} "
        f"elo {elo:+.1f} [{low:+.1f}, {high:+.1f}] (95%) pentanomial [{penta}] "
        f"LLR {value:+.2f} [{bounds[0]:+.2f}, {bounds[1]:+.2f}] (elo0 {elo0:g} elo1 {elo1:g})"
    )


def verdict(value: float, bounds: tuple[float, float]) -> str:
    if value >= bounds[1]:
        return "H1 accepted: A is stronger"
    if value <= bounds[0]:
        return "H0 accepted: A is not stronger by elo1"
    return "inconclusive (max games reached)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine-a", default="onitama engine", help="the tested engine")
    parser.add_argument("--engine-b", default="onitama engine", help="the reference engine")
    limit = parser.add_mutually_exclusive_group(required=True)
    limit.add_argument("--nodes", type=int, help="nodes a move (deterministic)")
    limit.add_argument("--time", type=float, help="seconds a move")
    parser.add_argument(
        "--clock", action="store_true", help="with --time: a clock for the whole match"
    )
    parser.add_argument("--openings", choices=("deal", "wall", "both"), default="deal")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first opening (1)")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=10.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--max-games", type=int, default=400, help="at most this many games")
    parser.add_argument("--max-plies", type=int, default=200, help="a longer game is a draw")
    parser.add_argument("--quiet", action="store_true", help="only the final lines")
    args = parser.parse_args(argv)
    go = f"go nodes {args.nodes}" if args.nodes is not None else f"go time {args.time}"
    if args.clock and args.time is None:
        parser.error("--clock needs --time")
    clocks = {k: Clock(args.time) for k in "AB"} if args.clock else None
    bounds = sprt_bounds(args.alpha, args.beta)
    engines = {"A": Engine(args.engine_a, "A"), "B": Engine(args.engine_b, "B")}
    tally = Tally()
    t0 = time.perf_counter()
    try:
        k = 0
        while len(tally.games) + 2 <= args.max_games:
            start = opening(args.openings, args.seed, k)
            pair = [
                play_game(engines, start, a_first, go, args.max_plies, clocks) for a_first in (1, 0)
            ]
            tally.add_pair(pair[0], pair[1])
            if not args.quiet:
                marks = " ".join(f"{g.score:g}({g.reason},{g.plies})" for g in pair)
                print(f"pair {k + 1:4d} {start[:40]:<40} A: {marks}", flush=True)
                print("  " + summary(tally, args.elo0, args.elo1, bounds), flush=True)
            k += 1
            value = llr(tally.pairs, args.elo0, args.elo1)
            if not bounds[0] < value < bounds[1]:
                break
    finally:
        for e in engines.values():
            e.close()
    limit = f"a clock of {args.time:g} s a move" if clocks else go
    print(f"A: {args.engine_a}\nB: {args.engine_b}\nlimit: {limit}, openings {args.openings}")
    print(summary(tally, args.elo0, args.elo1, bounds))
    value = llr(tally.pairs, args.elo0, args.elo1)
    print(f"verdict: {verdict(value, bounds)} ({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
