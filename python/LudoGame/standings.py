"""One table of standings for the tournaments of both games.

A ``Standing`` is one contestant's line (games, wins, ties, losses, failures); a ``Table``
collects the results of pairings and ranks the lines. The Ludo ``tournament`` and the
Onitama ``round_robin`` both fill one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (ties count as half a win)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Standing:
    """One contestant's line in a table: 2 points a win, 1 a tie, 0 a loss.

    ``failures`` counts the losses by an error, an invalid answer or a timeout (Onitama
    matches; always 0 for Ludo bots, which cannot fail).
    """

    name: str
    games: int = 0
    wins: int = 0
    ties: int = 0
    losses: int = 0
    failures: int = 0

    @property
    def points(self) -> int:
        """2 a win, 1 a tie."""
        return 2 * self.wins + self.ties

    @property
    def score(self) -> float:
        """Points per game times 50: 0 (lost every game) to 100 (won every game)."""
        return 50.0 * self.points / self.games if self.games else 0.0

    @property
    def win_rate(self) -> float:
        """Games won over games played (a tie counts as half a win)."""
        return (self.wins + self.ties / 2) / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% confidence interval of the win rate."""
        return wilson_interval(self.wins + self.ties / 2, self.games)

    @property
    def bot(self) -> str:
        """The contestant's name (the name a Ludo table used)."""
        return self.name


class Table:
    """The standings of a tournament in progress, one line per contestant."""

    def __init__(self, names: Iterable[str]) -> None:
        self._lines = {name: Standing(name) for name in names}

    def add(
        self,
        a: str,
        b: str,
        games: int,
        wins_a: int,
        ties: int = 0,
        failures_a: int = 0,
        failures_b: int = 0,
    ) -> None:
        """Record ``games`` games of ``a`` against ``b``: ``wins_a`` won by ``a``, ``ties``
        tied, the rest won by ``b``; ``failures_*`` of the losses were failures."""
        wins_b = games - wins_a - ties
        if wins_a < 0 or ties < 0 or wins_b < 0:
            raise ValueError(f"{wins_a} wins and {ties} ties do not fit in {games} games")
        for name, won, lost, failed in (
            (a, wins_a, wins_b, failures_a),
            (b, wins_b, wins_a, failures_b),
        ):
            line = self._lines[name]
            line.games += games
            line.wins += won
            line.ties += ties
            line.losses += lost
            line.failures += failed

    def lines(self) -> list[Standing]:
        """The lines in the order the names were given."""
        return list(self._lines.values())

    def ranked(self) -> list[Standing]:
        """The lines best first: by points, then wins, then name."""
        return sorted(self._lines.values(), key=lambda s: (-s.points, -s.wins, s.name))

    def __getitem__(self, name: str) -> Standing:
        return self._lines[name]

    def __iter__(self) -> Iterator[Standing]:
        return iter(self._lines.values())


__all__ = ["Standing", "Table", "wilson_interval"]
