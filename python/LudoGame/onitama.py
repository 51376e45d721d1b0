"""Onitama with a movable wall: the second game of LudoGame, on the same Rust core.

The variant is the MATLAB coursework ``tommykwok722/Onitama-Board-Game``: a 5x5 board, a
general and four soldiers a side, five movement cards, and a wall that the mover steps one
square after every ply. A general on the opponent's base, or a captured general, wins at
once; after ``n`` plies (both players' plies count) without a win the game is a tie::

    from LudoGame import onitama

    game = onitama.Onitama.setup(21)          # a tournament setup, 20 plies
    print(game)                               # the board and cards, as the coursework draws them
    game.play("1 e2 d3 u")                    # card slot, from, to, wall step
    game.play(game.best_move(level=2, time=0.5))

AIs follow the coursework's contract (the ``AIFunction`` protocol): a callable
``ai(current_player, board, cardA1, cardA2, cardB1, cardB2, side_card, turn)`` returning
``(card, move_from, move_to, wall_dir)``, with ``'XX', 'XX'`` for a pass. ``play_match``
referees a game between two of them exactly as the tournament did (an exception, a wrong
type or an invalid answer loses at once), and ``round_robin`` plays a whole tournament.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, TypeAlias

from LudoGame._core import ONITAMA_AI_SETTINGS as _AI
from LudoGame._core import (
    ONITAMA_CARD_SETS,
    Action,
    BuiltinAI,
    Card,
    EndgameTable,
    IllegalActionError,
    Interrupted,
    InvalidActionError,
    InvalidAIError,
    InvalidBoardError,
    InvalidCardError,
    InvalidSquareError,
    MatchRecord,
    Onitama,
    OnitamaError,
    OnitamaGameOverError,
    OnitamaNotationError,
    PonderHit,
    SearchStop,
    UnknownSetupError,
    onitama_play_match,
    onitama_standard_cards,
)
from LudoGame._core import ONITAMA_DEFAULT_PLIES as DEFAULT_PLIES
from LudoGame._core import ONITAMA_MATCH_SETUP as MATCH_SETUP
from LudoGame.enums import Reason
from LudoGame.outcome import Outcome
from LudoGame.standings import Standing, Table
from LudoGame.untrusted import visible

GameOverError = OnitamaGameOverError
NotationError = OnitamaNotationError


class AIFunction(Protocol):
    """The coursework's AI contract: called with the position, returns the answer.

    ``ai(current_player, board, cardA1, cardA2, cardB1, cardB2, side_card, turn)``:
    ``current_player`` is 'A' or 'B', ``board`` 5 row strings, each card 5 row strings in
    its holder's view, ``turn`` the plies left. The answer is
    ``(card, move_from, move_to, wall_dir)``, with ``'XX', 'XX'`` for a pass.
    """

    def __call__(
        self,
        current_player: str,
        board: Sequence[str],
        cardA1: Sequence[str],  # noqa: N803 (the coursework's names)
        cardA2: Sequence[str],  # noqa: N803
        cardB1: Sequence[str],  # noqa: N803
        cardB2: Sequence[str],  # noqa: N803
        side_card: Sequence[str],
        turn: int,
        /,
    ) -> Any: ...


#: An AI (the older name of ``AIFunction``).
AI: TypeAlias = AIFunction

#: The old names of the classes, still importable with a DeprecationWarning.
_DEPRECATED = {
    "OnitamaAction": ("Action", Action),
    "OnitamaCard": ("Card", Card),
    "OnitamaAI": ("BuiltinAI", BuiltinAI),
    "OnitamaMatchRecord": ("MatchRecord", MatchRecord),
    "Game": ("RoundRobinGame", None),
}


def __getattr__(name: str) -> Any:
    """The deprecated names ``OnitamaAction`` ... : the new class, with a warning."""
    if name in _DEPRECATED:
        new, value = _DEPRECATED[name]
        value = globals()[new] if value is None else value
        warnings.warn(
            f"LudoGame.onitama.{name} is deprecated; use LudoGame.onitama.{new}",
            DeprecationWarning,
            stacklevel=2,
        )
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The 16 standard cards, in the order of the golden data's standard_cards.json.
STANDARD_CARDS: list[Card] = onitama_standard_cards()

#: The 16 cards of the Sensei's Path expansion.
SENSEI_CARDS: list[Card] = onitama_standard_cards("sensei")

#: The card sets a random standard deal draws from (``Onitama.standard(seed=N,
#: card_set=...)``): 'base' (the base game's 16), 'sensei' (the Sensei's Path 16), 'all'.
CARD_SETS: tuple[str, ...] = ONITAMA_CARD_SETS

#: The tournament's setups (all with A to move first and n = 20).
TOURNAMENT_SETUPS = (21, 22, 23)

#: Where a tournament game starts: a setup id, or an ``Onitama`` game (its current
#: position, e.g. a standard deal ``Onitama.standard(seed=N)``).
SetupSpec = int | str | Onitama


def setup_label(setup: SetupSpec) -> str:
    """A tournament setup in one line: the id, or the game's notation."""
    return setup.to_notation() if isinstance(setup, Onitama) else str(setup)


#: The reasons a refereed game can end with.
REASONS = (
    Reason.GENERAL_CAPTURED,
    Reason.BASE_REACHED,
    Reason.PLY_LIMIT,
    Reason.INVALID_MOVE,
    Reason.PROGRAMMING_ERROR,
    Reason.TIMEOUT,
)


def setup_ids() -> list[str]:
    """Every setup id ``Onitama.setup`` accepts: '1'..'5', '11'..'13', '21'..'23', ..."""
    return Onitama.setup_ids()


def builtin_ai(
    level: int | Literal["random", "baseline", "search"] = _AI["level"],
    time: float | None = _AI["time"],
    seed: int = _AI["seed"],
    nodes: int | None = _AI["nodes"],
    depth: int | None = _AI["depth"],
    threads: int = _AI["threads"],
) -> BuiltinAI:
    """A built-in AI in the coursework contract, running in Rust.

    ``level`` 0 (``"random"``) plays a random legal action, 1 (``"baseline"``) the coursework
    baseline (win at once if it can, else avoid allowing a win at once, else random), 2
    (``"search"``) an alpha-beta search of
    ``time`` seconds a move. With ``nodes`` the search stops after that many nodes instead
    and is deterministic (on one thread: ``threads`` searches on that many, sharing one
    table). ``seed`` fixes every random choice.
    """
    return BuiltinAI(level, time=time, seed=seed, nodes=nodes, depth=depth, threads=threads)


def play_match(
    ai_a: AIFunction,
    ai_b: AIFunction,
    setup: int | str | Onitama = MATCH_SETUP,
    max_plies: int | None = None,
    time_budget: float | None = None,
) -> MatchRecord:
    """Referee one game, ``ai_a`` playing A and ``ai_b`` playing B.

    ``setup`` is a setup id (``Onitama.setup``) or an ``Onitama`` game (its current
    position). ``max_plies`` is the ply limit (by default the setup's own, ``DEFAULT_PLIES``,
    or the given game's plies left: 1000 for a new standard game). Each ply the mover's AI
    is called with the contract's arguments; an exception, an answer that is not ``(int,
    str, str, str)``, an invalid answer (judged exactly as the coursework referee does) or,
    with ``time_budget``, an answer slower than that many seconds loses the game at once.
    The record says who won, why, and every action.

    Ctrl-C stops the match at once (a built-in AI's search included) and raises
    ``KeyboardInterrupt`` (``Interrupted``) whose ``partial`` is the record of the plies
    played so far (reason ``'interrupted'``). A ``KeyboardInterrupt`` raised inside a
    Python AI is never counted as its failure: it ends the match the same way.

    An AI with a ``session()`` method (a MATLAB AI, `LudoGame.matlab.MatlabAI`) plays
    through a fresh session for this game, closed at its end (the sessions'
    ``wait_ready()``, if any, is called for both sides before the first ply).
    """
    with contextlib.ExitStack() as stack:
        players = []
        for ai in (ai_a, ai_b):
            opener = getattr(ai, "session", None)
            if callable(opener):
                session = opener()
                stack.callback(session.close)
                players.append(session)
            else:
                players.append(ai)
        for p in players:
            ready = getattr(p, "wait_ready", None)
            if callable(ready):
                ready()
        return onitama_play_match(players[0], players[1], setup, max_plies, time_budget)


@dataclass
class RoundRobinGame:
    """One game of a round robin: who played A and B, on which setup, and its record.
    (Formerly ``onitama.Game``, a name that promised a game one could play.)"""

    a: str
    b: str
    setup: SetupSpec
    record: MatchRecord


@dataclass
class Standings:
    """A round robin's result: the table, best first, and every game."""

    table: list[Standing]
    games: list[RoundRobinGame] = field(default_factory=list)

    def __str__(self) -> str:
        """The table as text, the AIs' names made visible (`LudoGame.untrusted.visible`)."""
        width = max([4, *(len(visible(s.name)) for s in self.table)])
        lines = [
            f"{'rank':>4}  {'name':<{width}}  games  wins  ties  losses  points  score",
        ]
        for rank, s in enumerate(self.table, 1):
            lines.append(
                f"{rank:>4}  {visible(s.name):<{width}}  {s.games:>5}  {s.wins:>4}  {s.ties:>4}  "
                f"{s.losses:>6}  {s.points:>6}  {s.score:>5.1f}"
            )
        return "\n".join(lines)

    def __getitem__(self, name: str) -> Standing:
        for s in self.table:
            if s.name == name:
                return s
        raise KeyError(name)


def round_robin(
    ais: Mapping[str, AIFunction],
    setups: Iterable[SetupSpec] = TOURNAMENT_SETUPS,
    max_plies: int | None = 20,
    time_budget: float | None = None,
    *,
    backend: Literal["local", "ray"] = "local",
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    jobs: int = 1,
) -> Standings:
    """Play every pair of ``ais`` on every setup, each AI once as A and once as B. A setup
    is a setup id or an ``Onitama`` game (a standard deal, say), played from its position.

    Scoring is the tournament's: 2 points a win, 1 a tie, 0 a loss; a game lost by an
    error, an invalid answer or a timeout counts as a loss (and in ``failures``). The table
    is sorted by points, then wins, then name. With ``progress``, ``progress(done, total)``
    is called after each game.

    Ctrl-C stops it at once and raises ``KeyboardInterrupt`` (``Interrupted``) whose
    ``partial`` is the ``Standings`` of the games finished.

    ``backend="ray"`` plays the matches as Ray tasks (``pip install ".[ray]"``;
    about 8 tasks per CPU, a task a list of matches on one CPU), on this machine or on the
    cluster at ``address``; the AIs must pickle (built-in AIs and module-level functions
    do). The result is the local one, with the games in the same order (bit for bit for
    AIs that do not depend on time). A failed task raises ``RayTaskError`` naming its
    matches, its ``partial`` the standings of the games finished, as for Ctrl-C.

    ``jobs`` > 1 plays the matches locally in that many processes (the AIs must pickle;
    MATLAB AIs do), with the same result in the same order.
    """
    from LudoGame import _ray

    _ray.check_backend(backend, address)
    if not isinstance(ais, Mapping):
        raise TypeError(f"ais must be a dict of name -> AI, not {type(ais).__name__}")
    names = list(ais)
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"AI names must be str, not {type(name).__name__}")
        if not callable(ais[name]):
            raise TypeError(f"the AI {name!r} is not callable")
    if len(names) < 2:
        raise InvalidAIError(f"a round robin needs at least two AIs, not {len(names)}")
    setup_list = list(setups)
    if not setup_list:
        raise UnknownSetupError("a round robin needs at least one setup")
    for s in setup_list:
        if not isinstance(s, Onitama):
            Onitama.setup(s)  # checks the id before any game is played
    table = Table(names)
    games: list[RoundRobinGame] = []

    def standings() -> Standings:
        return Standings(table.ranked(), games)

    def add(a: str, b: str, s: SetupSpec, record: MatchRecord) -> None:
        games.append(RoundRobinGame(a, b, s, record))
        table.add(
            a,
            b,
            games=1,
            wins_a=int(record.winner == "A"),
            ties=int(record.winner is None),
            failures_a=int(record.failed == "A"),
            failures_b=int(record.failed == "B"),
        )

    schedule = [
        (a, b, s)
        for i, x in enumerate(names)
        for y in names[i + 1 :]
        for s in setup_list
        for a, b in ((x, y), (y, x))
    ]
    play_schedule(
        ais, schedule, max_plies, time_budget, add, standings,
        backend=backend, address=address, progress=progress, jobs=jobs,
    )  # fmt: skip
    return standings()


def play_schedule(
    ais: Mapping[str, AIFunction],
    schedule: Sequence[tuple[str, str, SetupSpec]],
    max_plies: int | None,
    time_budget: float | None,
    add: Callable[[str, str, SetupSpec, MatchRecord], None],
    partial: Callable[[], Any],
    *,
    backend: Literal["local", "ray"] = "local",
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    jobs: int = 1,
) -> None:
    """Play the matches ``(a, b, setup)`` of `schedule`, calling ``add(a, b, setup,
    record)`` for each in schedule order: here, in ``jobs`` local processes, or as Ray
    tasks. On Ctrl-C (or a failed Ray task) the exception's ``partial`` is ``partial()``
    after the records that came back were added."""
    if backend == "ray":
        _round_robin_ray(
            ais, list(schedule), max_plies, time_budget, address, progress, add, partial
        )
        return
    if jobs > 1 and len(schedule) > 1:
        _play_pool(ais, schedule, max_plies, time_budget, add, partial, progress, jobs)
        return
    for n, (a, b, s) in enumerate(schedule):
        try:
            record = play_match(ais[a], ais[b], s, max_plies, time_budget)
        except KeyboardInterrupt as e:
            stop = KeyboardInterrupt(*e.args)
            stop.partial = partial()  # type: ignore[attr-defined]
            raise stop from e
        add(a, b, s, record)
        if progress is not None:
            progress(n + 1, len(schedule))


def _play_batch(
    ais: Mapping[str, AIFunction],
    batch: Sequence[tuple[str, str, SetupSpec]],
    max_plies: int | None,
    time_budget: float | None,
) -> list[MatchRecord]:  # pragma: no cover - runs in a worker process
    """A worker process's share of `_play_pool`: the matches of `batch`, in order."""
    return [play_match(ais[a], ais[b], s, max_plies, time_budget) for a, b, s in batch]


def _play_pool(
    ais: Mapping[str, AIFunction],
    schedule: Sequence[tuple[str, str, SetupSpec]],
    max_plies: int | None,
    time_budget: float | None,
    add: Callable[[str, str, SetupSpec, MatchRecord], None],
    partial: Callable[[], Any],
    progress: Callable[[int, int], None] | None,
    jobs: int,
) -> None:
    """The matches in a pool of `jobs` processes (one match a task, so that slow games
    spread), added in schedule order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    shared = dict(ais)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = [pool.submit(_play_batch, shared, [m], max_plies, time_budget) for m in schedule]
        try:
            for n, ((a, b, s), future) in enumerate(zip(schedule, futures, strict=True)):
                add(a, b, s, future.result()[0])
                if progress is not None:
                    progress(n + 1, len(schedule))
        except KeyboardInterrupt as e:
            pool.shutdown(wait=False, cancel_futures=True)
            stop = KeyboardInterrupt(*e.args)
            stop.partial = partial()  # type: ignore[attr-defined]
            raise stop from e


def _play_matches(
    ais: Any, matches: Sequence[tuple[str, str, SetupSpec]], max_plies: Any, time_budget: Any
) -> list[Any]:  # pragma: no cover - runs on a Ray worker
    """A Ray task: the refereed matches `(a, b, setup)`, in order."""
    return [play_match(ais[a], ais[b], s, max_plies, time_budget) for a, b, s in matches]


def _round_robin_ray(
    ais: Mapping[str, AIFunction],
    schedule: list[tuple[str, str, SetupSpec]],
    max_plies: int | None,
    time_budget: float | None,
    address: str | None,
    progress: Callable[[int, int], None] | None,
    add: Callable[[str, str, SetupSpec, MatchRecord], None],
    standings: Callable[[], Standings],
) -> None:
    """The matches of `round_robin` as Ray tasks, each record added in schedule order (on
    a failure or Ctrl-C, the records of every task that finished)."""
    from LudoGame import _ray

    with _ray.connected(address) as ray:
        size = _ray.task_size(len(schedule), _ray.cpus(ray))
        task = _ray.remote(ray, _play_matches).options(**_ray.task_options(1))
        shared = ray.put(dict(ais))
        batches = [schedule[k : k + size] for k in range(0, len(schedule), size)]
        calls = [
            functools.partial(task.remote, shared, batch, max_plies, time_budget)
            for batch in batches
        ]
        names = [
            "matches " + ", ".join(f"{a} vs {b} on setup {s}" for a, b, s in batch)
            for batch in batches
        ]

        def merged(results: list[Any]) -> Standings:
            for batch, records in zip(batches, results, strict=True):
                for (a, b, s), record in zip(batch, records or [], strict=False):
                    add(a, b, s, record)
            return standings()

        done = None if progress is None else (lambda n: progress(n, len(schedule)))
        results = _ray.run_tasks(ray, calls, names, [len(b) for b in batches], done, merged)
        merged(results)


#: The format name of a file of several games (``save_games`` writes it, the replay view of
#: ``ludo serve`` opens it).
GAMES_FORMAT = "ludogame-games/1"


def record_json(record: MatchRecord, a: str | None = None, b: str | None = None) -> dict[str, Any]:
    """A refereed game as the game's JSON (``Onitama.to_json``, which ``Onitama.from_json``
    reads back) with the match's result added: who played A and B, the result, its reason
    and detail, the side whose AI failed, the plies and a rejected answer
    (``MatchRecord.to_json``; ``MatchRecord.from_json`` reads it back)."""
    out: dict[str, Any] = json.loads(record.to_json(a, b))
    return out


def save_games(path: str | os.PathLike[str], games: Iterable[RoundRobinGame | MatchRecord]) -> None:
    """Write games to replay: ``play_match`` records or a round robin's ``Standings.games``,
    as ``{"format": "ludogame-games/1", "games": [...]}`` (each game as `record_json`
    gives it). ``ludo serve --replay FILE`` opens the file, and so does the replay page."""
    entries = []
    for g in games:
        if isinstance(g, RoundRobinGame):
            entries.append(record_json(g.record, g.a, g.b))
        elif isinstance(g, MatchRecord):
            entries.append(record_json(g))
        else:
            raise TypeError(f"games must be MatchRecord or Game entries, not {type(g).__name__}")
    text = json.dumps({"format": GAMES_FORMAT, "games": entries}, indent=1)
    Path(path).write_text(text + "\n", encoding="utf-8")


__all__ = [
    "AI",
    "AIFunction",
    "Action",
    "BuiltinAI",
    "CARD_SETS",
    "Card",
    "DEFAULT_PLIES",
    "EndgameTable",
    "GAMES_FORMAT",
    "GameOverError",
    "IllegalActionError",
    "Interrupted",
    "InvalidAIError",
    "InvalidActionError",
    "InvalidBoardError",
    "InvalidCardError",
    "InvalidSquareError",
    "MATCH_SETUP",
    "MatchRecord",
    "NotationError",
    "Onitama",
    "OnitamaError",
    "OnitamaGameOverError",
    "OnitamaNotationError",
    "Outcome",
    "REASONS",
    "Reason",
    "RoundRobinGame",
    "SENSEI_CARDS",
    "STANDARD_CARDS",
    "PonderHit",
    "SearchStop",
    "SetupSpec",
    "Standing",
    "Standings",
    "TOURNAMENT_SETUPS",
    "UnknownSetupError",
    "builtin_ai",
    "play_match",
    "play_schedule",
    "record_json",
    "round_robin",
    "setup_label",
    "save_games",
    "setup_ids",
]
