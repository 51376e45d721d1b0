"""Plain-Python simulator of two Ludo rule sets, played by random bots.

This is the honest baseline the Rust batch simulation (``LudoGame.simulate``) is
benchmarked against (``benches/bench_simulate.py``), and a second, independent
implementation of the rules that the engine's statistics are checked against
(``python_tests/test_sim_agreement.py``). It is written from ``DESIGN.md``
(sections 3 and 4) and the README's rule-set table, not from the Rust code, the way a
careful Python programmer would write it: small classes, plain lists, no tricks.

The rule sets:

* ``cs162``: a 56-square loop, seats A-D entering at squares 1, 15, 29, 43 (0-based 0,
  14, 28, 42); two tokens each. Step -1 is the yard, 0 the off-track ready square
  ``'R'`` (reached from the yard on a 6), 1..50 the shared track, 51..56 the seat's home
  squares, 57 the end. A move past 57 bounces back. Two own tokens on one track square
  or home square form a stack that moves as one piece. A move ending on a track square
  sends the opponent tokens there to their yards. A 6 gives one bonus roll; a 6 on the
  bonus roll gives none.
* ``standard``: a 52-square loop, seats 13 squares apart; four tokens each. A 6 takes a
  token from the yard onto its start square (step 0, on the track, capturing there); the
  track is steps 0..50, the home column 51..55, home 56. A move past 56 is not legal.
  Own tokens share squares and move one by one. Every 6 gives another roll.

In both: a roll with no legal move passes the turn unless it grants another roll; a
player whose tokens are all home is skipped and its turn ends at once (no bonus roll);
play goes on until one player is left, who is ranked last. The random bot picks
uniformly among the legal moves, where a stack is one move and every yard token is a
move of its own.

The dice cannot follow the Rust engine's sequence, so the two are compared by their
statistics (``agreement``): mean game length in die rolls, mean captures per game and
every seat's win rate. ``play_game`` takes the die and the bot as objects, so a test can
also drive the engine's ``Game`` in lockstep with the same dice and choices.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

YARD = -1
POSITIONS = "ABCD"
ENTER_ROLL = 6
MAX_ROLLS = 100_000  # a game still going after this many rolls is cut off (as in Rust)


@dataclass(frozen=True)
class RuleSet:
    """The few numbers and switches that tell the two rule sets apart."""

    name: str
    track_len: int
    starts: tuple[int, int, int, int]  # 0-based track square of each seat's first track step
    tokens: int
    first_track_step: int
    last_track_step: int
    finish_step: int
    bounce: bool  # an overshoot bounces back off the end (else it is not a legal move)
    stacking: bool  # own tokens on one square move together as one piece
    every_six_rolls_again: bool  # else one bonus roll per 6, none for a 6 on a bonus roll

    def track_square(self, seat: int, step: int) -> int | None:
        """The 0-based shared-track square of ``seat``'s token at ``step``, if on the track."""
        if self.first_track_step <= step <= self.last_track_step:
            return (self.starts[seat] + step - self.first_track_step) % self.track_len
        return None

    def target(self, step: int, roll: int) -> int | None:
        """Where a token at ``step`` ends with ``roll``, or None when it cannot move."""
        if step == YARD:
            return 0 if roll == ENTER_ROLL else None
        if step >= self.finish_step:
            return None
        new = step + roll
        if new <= self.finish_step:
            return new
        if self.bounce:
            return 2 * self.finish_step - new
        return None


CS162 = RuleSet(
    name="cs162",
    track_len=56,
    starts=(0, 14, 28, 42),
    tokens=2,
    first_track_step=1,
    last_track_step=50,
    finish_step=57,
    bounce=True,
    stacking=True,
    every_six_rolls_again=False,
)

STANDARD = RuleSet(
    name="standard",
    track_len=52,
    starts=(0, 13, 26, 39),
    tokens=4,
    first_track_step=0,
    last_track_step=50,
    finish_step=56,
    bounce=False,
    stacking=False,
    every_six_rolls_again=True,
)

RULES = {"cs162": CS162, "standard": STANDARD}


class Player:
    """One seat and the step counts of its tokens."""

    def __init__(self, seat: int, rules: RuleSet) -> None:
        self.seat = seat
        self.label = POSITIONS[seat]
        self.steps = [YARD] * rules.tokens
        self.rules = rules

    def is_finished(self) -> bool:
        """Are all of this player's tokens home?"""
        return all(step == self.rules.finish_step for step in self.steps)

    def piece(self, token: int) -> list[int]:
        """The tokens that move together with ``token`` (a stack, or the token alone)."""
        step = self.steps[token]
        rules = self.rules
        if rules.stacking and rules.first_track_step <= step < rules.finish_step:
            return [t for t, other in enumerate(self.steps) if other == step]
        return [token]


class Game:
    """A game in progress: the players in turn order and the moves between them."""

    def __init__(self, rules: RuleSet, seats: Sequence[int]) -> None:
        self.rules = rules
        self.players = [Player(seat, rules) for seat in sorted(seats)]

    def legal_moves(self, player: Player, roll: int) -> list[list[int]]:
        """Every piece of ``player`` that can move by ``roll``, as lists of its tokens."""
        moves: list[list[int]] = []
        taken: set[int] = set()
        for token, step in enumerate(player.steps):
            if token in taken or self.rules.target(step, roll) is None:
                continue
            piece = player.piece(token)
            taken.update(piece)
            moves.append(piece)
        return moves

    def move(self, player: Player, piece: list[int], roll: int) -> int:
        """Move ``piece`` of ``player`` by ``roll``; return how many tokens it captured."""
        new = self.rules.target(player.steps[piece[0]], roll)
        assert new is not None, "move() needs a legal move"
        for token in piece:
            player.steps[token] = new
        square = self.rules.track_square(player.seat, new)
        if square is None:
            return 0
        captured = 0
        for other in self.players:
            if other is player:
                continue
            for token, step in enumerate(other.steps):
                if self.rules.track_square(other.seat, step) == square:
                    other.steps[token] = YARD
                    captured += 1
        return captured


@dataclass
class GameRecord:
    """What one game came to."""

    rolls: int
    captures: int
    ranking: list[int]  # seats, best first
    finished: bool = True


class Die:
    """A fair six-sided die."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, player: Player) -> int:
        """Roll for ``player``."""
        return self.rng.randint(1, 6)


class RandomBot:
    """Picks one of the legal moves, uniformly."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, player: Player, moves: list[list[int]], roll: int) -> list[int]:
        """The move ``player`` plays with ``roll``."""
        return self.rng.choice(moves)


def play_game(game: Game, die: Die, bot: RandomBot) -> GameRecord:
    """Play a new ``game`` to a full ranking: ``die`` rolls and ``bot`` moves for everyone."""
    rules = game.rules
    players = game.players
    ranking: list[int] = []
    to_rank = max(1, len(players) - 1)  # the last player left is ranked last
    rolls = captures = 0
    turn = 0
    while len(ranking) < to_rank and rolls < MAX_ROLLS:
        player = players[turn]
        on_bonus_roll = False
        while rolls < MAX_ROLLS:
            roll = die.roll(player)
            rolls += 1
            moves = game.legal_moves(player, roll)
            if moves:
                captures += game.move(player, bot.choose(player, moves, roll), roll)
                if player.is_finished():
                    ranking.append(player.seat)
                    break  # a finished player's turn ends, 6 or not
            if roll == 6 and (rules.every_six_rolls_again or not on_bonus_roll):
                on_bonus_roll = True
                continue
            break
        for k in range(1, len(players) + 1):
            candidate = (turn + k) % len(players)
            if not players[candidate].is_finished():
                turn = candidate
                break
    done = len(ranking) >= to_rank
    if done:
        ranking += [p.seat for p in players if p.seat not in ranking]
    return GameRecord(rolls, captures, ranking, done)


@dataclass
class PySimResult:
    """Results of a batch of games, in the shape of ``LudoGame.SimResult``."""

    players: list[str]
    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    lengths: list[int] = field(default_factory=list)
    captures: list[int] = field(default_factory=list)
    finishing: list[int] = field(default_factory=list)  # len(players) seats per game
    unfinished: int = 0

    @property
    def mean_length(self) -> float:
        """Mean game length in die rolls."""
        return sum(self.lengths) / max(1, len(self.lengths))

    @property
    def mean_captures(self) -> float:
        """Mean captures per game."""
        return sum(self.captures) / max(1, len(self.captures))


def simulate(
    rules: str = "cs162", players: str = "ABCD", games: int = 1000, seed: int = 0
) -> PySimResult:
    """Play ``games`` games between random bots, seeded with ``random.Random(seed)``."""
    rule_set = RULES[rules]
    seats = sorted(POSITIONS.index(p) for p in players)
    labels = [POSITIONS[s] for s in seats]
    rng = random.Random(seed)
    die, bot = Die(rng), RandomBot(rng)
    result = PySimResult(labels, wins={label: 0 for label in labels})
    for _ in range(games):
        record = play_game(Game(rule_set, seats), die, bot)
        result.games += 1
        result.lengths.append(record.rolls)
        result.captures.append(record.captures)
        if record.finished:
            result.wins[POSITIONS[record.ranking[0]]] += 1
            result.finishing.extend(record.ranking)
        else:
            result.unfinished += 1
            result.finishing.extend(record.ranking + [255] * (len(seats) - len(record.ranking)))
    return result


# ---------------------------------------------------------------------------------------
# Statistical agreement of two simulations


@dataclass(frozen=True)
class Comparison:
    """One statistic of two simulations, its difference and that difference's error."""

    name: str
    rust: float
    python: float
    std_error: float  # of the difference

    @property
    def z(self) -> float:
        """The difference in standard errors."""
        diff = self.rust - self.python
        if self.std_error == 0:
            return 0.0 if diff == 0 else math.inf
        return diff / self.std_error

    def agrees(self, limit: float = 4.0) -> bool:
        """Is the difference within ``limit`` standard errors?"""
        return abs(self.z) < limit

    def __str__(self) -> str:
        return (
            f"{self.name:<18} rust {self.rust:9.4f}  python {self.python:9.4f}  "
            f"diff {self.rust - self.python:+8.4f}  se {self.std_error:7.4f}  z {self.z:+6.2f}"
        )


def mean_and_variance(values: Sequence[int]) -> tuple[float, float]:
    """The mean and the sample variance of ``values``."""
    n = len(values)
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    return mean, variance


def compare_means(name: str, a: Sequence[int], b: Sequence[int]) -> Comparison:
    """Compare the means of two samples (Welch's standard error of the difference)."""
    mean_a, var_a = mean_and_variance(a)
    mean_b, var_b = mean_and_variance(b)
    return Comparison(name, mean_a, mean_b, math.sqrt(var_a / len(a) + var_b / len(b)))


def compare_rates(name: str, wins_a: int, n_a: int, wins_b: int, n_b: int) -> Comparison:
    """Compare two proportions (pooled standard error of the difference)."""
    pooled = (wins_a + wins_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    return Comparison(name, wins_a / n_a, wins_b / n_b, se)


def agreement(rust: Any, python: PySimResult) -> list[Comparison]:
    """Mean length, mean captures and every seat's win rate of a Rust ``SimResult`` and
    a ``PySimResult`` of the same rules and players."""
    out = [
        compare_means("mean length", list(rust.lengths), python.lengths),
        compare_means("mean captures", list(rust.captures), python.captures),
    ]
    for label in python.players:
        out.append(
            compare_rates(
                f"win rate {label}", rust.wins[label], rust.games, python.wins[label], python.games
            )
        )
    return out


if __name__ == "__main__":
    import time

    for name in RULES:
        started = time.perf_counter()
        res = simulate(name, "ABCD", 200, seed=1)
        elapsed = time.perf_counter() - started
        print(
            f"{name}: {res.games} games in {elapsed:.2f} s ({res.games / elapsed:.0f} games/s), "
            f"mean length {res.mean_length:.1f}, mean captures {res.mean_captures:.2f}, "
            f"wins {res.wins}"
        )
