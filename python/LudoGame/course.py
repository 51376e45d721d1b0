"""The course's tournament format (the MATLAB coursework's Part 2): a qualification round,
then a round robin of the AIs that qualified.

1. Qualification: each AI plays ``games`` games (6) against a reference AI (the course's
   was the professor's; here any AI, by default the built-in baseline), on the tournament
   setups in turn, as A and as B in turn. An AI with more than ``max_errors`` (2) games
   lost by an error, an invalid answer or a timeout is disqualified.
2. The round robin of the qualified AIs over setups 21-23, both sides, 2/1/0 points
   (`LudoGame.onitama.round_robin`), with each AI's errors listed.

Every game is kept (`CourseResult.games`) to save for replay. Games run in ``jobs`` local
processes, or as Ray tasks (``backend="ray"``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from LudoGame.matlab import DEFAULT_QUALIFY_GAMES, DEFAULT_QUALIFY_MAX_ERRORS
from LudoGame.onitama import (
    TOURNAMENT_SETUPS,
    AIFunction,
    InvalidAIError,
    MatchRecord,
    RoundRobinGame,
    SetupSpec,
    Standings,
    play_schedule,
    round_robin,
    setup_label,
)
from LudoGame.untrusted import visible

#: The reference AI's name in the games of the qualification round.
REFERENCE = "reference"


@dataclass
class Qualification:
    """One AI's qualification round: its games against the reference AI, the ones it lost
    by a failure, and whether it qualified."""

    name: str
    games: list[RoundRobinGame]
    errors: list[RoundRobinGame]
    qualified: bool


@dataclass
class CourseResult:
    """The qualification round, then the round robin's standings (None when fewer than
    two AIs qualified)."""

    qualification: list[Qualification]
    standings: Standings | None
    max_errors: int = DEFAULT_QUALIFY_MAX_ERRORS
    games: list[RoundRobinGame] = field(default_factory=list)

    def errors(self, name: str) -> list[RoundRobinGame]:
        """The games `name` lost by an error, an invalid answer or a timeout."""
        return [g for g in self.games if _failed(g, name)]

    def __str__(self) -> str:
        """The qualification, the round robin and each AI's errors, as text: the AIs' names
        and error messages made visible (`LudoGame.untrusted.visible`)."""
        lines = [f"qualification (more than {self.max_errors} errors disqualifies):"]
        width = max([4, *(len(visible(q.name)) for q in self.qualification)])
        for q in self.qualification:
            verdict = "qualified" if q.qualified else "DISQUALIFIED"
            lines.append(
                f"  {visible(q.name):<{width}}  {len(q.games)} games  {len(q.errors)} errors  "
                f"{verdict}"
            )
        lines.append("")
        if self.standings is None:
            lines.append("no round robin: fewer than two AIs qualified")
        else:
            lines.append("round robin:")
            lines.append(str(self.standings))
        names = [q.name for q in self.qualification]
        failing = [(n, self.errors(n)) for n in names if self.errors(n)]
        if failing:
            lines.append("")
            lines.append("errors:")
            for name, games in failing:
                lines.append(f"  {visible(name)}: {len(games)}")
                for g in games:
                    side = "A" if g.a == name else "B"
                    other = visible(g.b if side == "A" else g.a)
                    detail = g.record.detail.removeprefix("MatlabError: ").strip()
                    detail = visible(detail.replace("\n\n", " ").replace("\n", " "))
                    where = visible(setup_label(g.setup))
                    lines.append(
                        f"    setup {where} as {side} vs {other}: {g.record.reason}: {detail}"
                    )
        return "\n".join(lines)


def _failed(game: RoundRobinGame, name: str) -> bool:
    side = "A" if game.a == name else "B" if game.b == name else None
    return side is not None and game.record.failed == side


def qualification_schedule(
    names: Sequence[str], games: int, setups: Sequence[SetupSpec] = TOURNAMENT_SETUPS
) -> list[tuple[str, str, SetupSpec]]:
    """Each AI's qualification games against `REFERENCE`: game k on setup k//2 (in turn),
    as A in even games and as B in odd ones."""
    schedule: list[tuple[str, str, SetupSpec]] = []
    for name in names:
        for k in range(games):
            s = setups[(k // 2) % len(setups)]
            schedule.append((name, REFERENCE, s) if k % 2 == 0 else (REFERENCE, name, s))
    return schedule


def course_tournament(
    ais: Mapping[str, AIFunction],
    reference: AIFunction,
    games: int = DEFAULT_QUALIFY_GAMES,
    max_errors: int = DEFAULT_QUALIFY_MAX_ERRORS,
    setups: Sequence[SetupSpec] = TOURNAMENT_SETUPS,
    max_plies: int | None = 20,
    time_budget: float | None = None,
    *,
    jobs: int = 1,
    backend: Literal["local", "ray"] = "local",
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> CourseResult:
    """The course's tournament (see the module docs): qualification against `reference`,
    then the round robin of the qualified AIs. ``time_budget``: an answer slower than this
    many seconds loses (give MATLAB AIs their move time)."""
    names = list(ais)
    if REFERENCE in ais:
        raise InvalidAIError(f"the name {REFERENCE!r} is the reference AI's")
    if games < 0 or max_errors < 0:
        raise ValueError("the qualification's games and errors must be 0 or more")
    everyone = {**ais, REFERENCE: reference}
    schedule = qualification_schedule(names, games, list(setups))
    played: list[RoundRobinGame] = []

    def add(a: str, b: str, s: SetupSpec, record: MatchRecord) -> None:
        played.append(RoundRobinGame(a, b, s, record))

    play_schedule(
        everyone, schedule, max_plies, time_budget, add, lambda: None,
        backend=backend, address=address, progress=progress, jobs=jobs,
    )  # fmt: skip
    rounds = []
    for name in names:
        mine = [g for g in played if name in (g.a, g.b)]
        errors = [g for g in mine if _failed(g, name)]
        rounds.append(Qualification(name, mine, errors, len(errors) <= max_errors))
    qualified = {q.name: ais[q.name] for q in rounds if q.qualified}
    standings = None
    if len(qualified) >= 2:
        standings = round_robin(
            qualified, setups, max_plies, time_budget,
            backend=backend, address=address, progress=progress, jobs=jobs,
        )  # fmt: skip
        played += standings.games
    return CourseResult(rounds, standings, max_errors, played)


__all__ = [
    "REFERENCE",
    "CourseResult",
    "Qualification",
    "course_tournament",
    "qualification_schedule",
]
