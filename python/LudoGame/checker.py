"""`ludo check`: a student's own ``LudoGame.py`` against the engine.

The student's file runs in its own sandboxed process (`LudoGame.check_student`); the same
games are played on it and on the engine through the assignment's API only, and every
answer is compared: what ``play_game`` returns, each player's step counts and
``get_completed``, ``get_space_name`` of every step count, ``get_player_by_position`` of a
position not in the game; after the published cases, D11 (a second ``play_game`` on the same
object) and D12 (``move_token``).

The games: the course's published cases, generated games that reach each decision (the
engine tags every turn with the decisions it touched: D4-D10 and the priority rule
D9.1-D9.4), then random games, all from one seed (a fresh one unless given).

Each question is compared on its own, so that one wrong convention (a "Player Not Found!",
a yard counted as step 0) is one difference among the others and hides none. Where the
student's answers are the engine's under another reading of an open decision (the engine
plays every reading it lists, `LudoGame._core.CS162_READINGS`), the check adopts that
reading and compares the rest under it: a reading the course allows costs nothing, one that
a published case rules out is a difference of its decision. Every other difference is
found at the first turn where the answers part, labelled by what the engine did on that turn
(the token it chose and the rule that chose it, a kick, a stack, a bounce, the yard) against
what the student's answers show, counted over all games, and shrunk to a short turns list
that shows the same kind of difference at its last turn.

Nothing the student's process sends is trusted (`LudoGame.check_replies`): a malformed reply
is that call's wrong answer, a flood or a hang ends only that file's check.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from importlib import resources
from typing import Any

from LudoGame import _check_runner, _core, sandbox
from LudoGame import check_replies as replies
from LudoGame._core import InvalidArgumentError, LudoGame, Player
from LudoGame.check_student import (
    DEFAULT_TIMEOUT,
    STUDENT_NAME,
    Budget,
    Student,
    failure_text,
)
from LudoGame.seeds import fresh_seed
from LudoGame.untrusted import visible

Turns = list[tuple[str, int]]
#: A reading of the open decisions: the (option, value) pairs that differ from the engine's,
#: sorted (the engine's own reading is the empty tuple).
Reading = tuple[tuple[str, str], ...]

#: The decisions (the engine's table): id -> (what it decides, "open" or "text").
DECISIONS: dict[str, tuple[str, str]] = {
    d: (summary, "open" if is_open else "text") for d, summary, is_open in _core.CS162_DECISIONS
}
#: D9's priority rules: "D9.1" -> what rule 1 says, ...
PRIORITY_RULES: dict[str, str] = dict(_core.CS162_PRIORITY_RULES)


@dataclass(frozen=True)
class ReadingInfo:
    """One reading of an open decision the engine plays (`LudoGame._core.CS162_READINGS`)."""

    decision: str
    option: str
    value: str
    text: str
    ruled_out_by: str  # the published cases that rule it out ("" for an allowed reading)

    @property
    def allowed(self) -> bool:
        """Whether the course allows it (no published case rules it out)."""
        return not self.ruled_out_by

    @property
    def name(self) -> str:
        """``option=value``."""
        return f"{self.option}={self.value}"


READINGS: dict[tuple[str, str], ReadingInfo] = {
    (o, v): ReadingInfo(d, o, v, t, r) for d, o, v, t, r in _core.CS162_READINGS
}
#: The engine's value of each option.
ENGINE_READING: dict[str, str] = {}
for _d, _o, _v, _t, _r in _core.CS162_READINGS:
    ENGINE_READING.setdefault(_o, _v)
#: The options whose readings change how turns play (the others: D11, D12).
TURN_OPTIONS = ("ready", "kick", "stacking", "end")

#: Weights of the kinds of difference, in the order reports list them.
CRASH, FIXED, OPEN = 0, 1, 2
WEIGHTS = {CRASH: "crash", FIXED: "fixed rule", OPEN: "allowed reading"}

#: Numbers of the games made while explaining (shrunk lists, candidates): below the plan's.
_scratch = itertools.count(-1, -1)

SCAN = 16  # prefixes asked at once when the search's interval is this small
MAX_PREFIXES = 48  # prefixes per request
SHRINK_TURNS = 100_000  # turns played on the student's side while shrinking one kind
MAX_SHRUNK = 8  # kinds shrunk per file (the others are shown where found, unshrunk)

#: The engine's "answer" where the student's game found no Player (the engine finds one).
EXPECTED_PLAYER = {"t": "Player", "v": "a Player object"}
#: The engine's "answer" where the student's process sent malformed answers as a whole.
EXPECTED_ANSWERS = {"t": "answers", "v": "answers to the questions asked"}


class CheckUsageError(ValueError):
    """The file cannot be checked: missing, not Python, no LudoGame class, ... (one line)."""


# ---------------------------------------------------------------- kinds of difference


@dataclass(frozen=True)
class Kind:
    """A kind of difference: its weight (crash, fixed rule, allowed reading), the question
    whose answer differs, the decision (``D9.4``, ``D7``, ...; empty when none applies), and
    a detail: the exception raised, the pair of small answers, or the reading
    (``kick=one``)."""

    weight: int
    question: str
    decision: str
    detail: str = ""

    def title(self) -> str:
        """The kind in words."""
        d = self.decision
        if self.weight == CRASH:
            at = f" (at {d}: {describe(d)})" if d else ""
            return f"{self.question}: {self.detail}{at}"
        if self.question == "reading":
            info = READINGS[tuple(self.detail.split("=", 1))]  # type: ignore[index]
            head = f"{d} read as {info.name}: {info.text}"
            if info.allowed:
                return head
            cases = "cases" if "," in info.ruled_out_by else "case"
            return f"{head} (ruled out by the published {cases} {info.ruled_out_by})"
        detail = f" ({self.detail})" if self.detail else ""
        return f"{d}: {describe(d)} [{self.question}{detail}]"


def describe(decision: str) -> str:
    """What a decision (``D7``) or priority rule (``D9.4``) says."""
    if decision in PRIORITY_RULES:
        return f"which token moves, {PRIORITY_RULES[decision]}"
    if decision in DECISIONS:
        return DECISIONS[decision][0]
    return decision


def _base(decision: str) -> str:
    """``D9`` of ``D9.4``."""
    return decision.split(".")[0]


#: The decisions every game asks about, whatever its turns: a game whose answers are all
#: compared confirms them.
ASKED_OF_EVERY_GAME = ("D1", "D2", "D3", "D11", "D12")


@dataclass
class Difference:
    """One kind of difference, explained on the first game that shows it, shrunk."""

    kind: str  # the kind in words
    weight: str  # "crash", "fixed rule" or "allowed reading"
    decision: str  # D1-D13, or D9.1-D9.4; "" when none applies
    count: int  # games of this kind
    source: str  # the first game of this kind
    players: list[str]
    turns: Turns
    turn: int  # index of the first turn after which the answers differ (-1: before any)
    field: str  # the first answer that differs there, e.g. "A.p" or "play_game"
    ours: Any
    theirs: Any
    board: str  # the engine's board before that turn
    decisions: list[str]  # the decision first, then the others the turn touched
    shrunk: Turns  # a shorter list whose last turn shows the same kind
    shrunk_players: list[str]
    shrunk_field: str
    shrunk_ours: Any
    shrunk_theirs: Any
    shrunk_board: str  # the engine's board before the shrunk list's last turn
    open: bool  # an allowed reading: it costs nothing unless --strict
    reading: str  # the reading (option=value) the student's answers follow, if any
    readings: list[str]  # the readings adopted for the whole file while comparing
    seed: int | None  # None: the run's seed is secret

    def explain(self) -> str:
        """The difference in words, several lines (every character of the student's made
        visible, `LudoGame.untrusted.visible`)."""
        return "\n".join(visible(line) for line in self._lines())

    def _lines(self) -> list[str]:
        games = f"{self.count} game{'s' if self.count != 1 else ''}"
        if "get_space_name" in self.field:
            games = f"{self.count} of 4 positions"
        lines = [f"{self.weight}: {self.kind}", f"  in {games}; first in {self.source}"]
        if self.readings and not self.reading:
            lines.append(f"  compared under the student's reading {', '.join(self.readings)}")
        if self.open:
            lines.append(
                "  the assignment leaves this open and the course's published cases allow it:"
                " it costs nothing (--strict counts it)"
            )
        if self.decisions[1:]:
            lines.append(f"  that turn also touched {', '.join(self.decisions[1:])}")
        if self.field.startswith(("D11", "D12")) or self.turn == -2:
            lines.append(f"  {self.source}: {self.field}")
            lines.append(f"    engine:  {_show(self.ours)}")
            lines.append(f"    student: {_show(self.theirs)}")
            lines.append(f"  the game: play_game({self.players!r}, {_turns_text(self.turns)})")
            return lines
        if "get_space_name" in self.field:
            pos = self.field.split(".")[0]
            lines.append(f"    engine:  {_show(self.ours)}")
            lines.append(f"    student: {_show(self.theirs)}")
            lines.append("  to see it:")
            lines.append(f"    game.play_game([{pos!r}], [])")
            lines.append(f"    game.get_player_by_position({pos!r}).{self.field.split('.', 1)[1]}")
            return lines
        shrunk = len(self.shrunk) < self.turn + 1 or self.shrunk_players != self.players
        if self.turn < 0:
            lines.append(f"  before any turn: {self.shrunk_field}")
        else:
            pos, roll = self.shrunk[-1]
            what = "shrunk to" if shrunk else "the game up to"
            lines.append(
                f"  {what} {len(self.shrunk)} turn{'s' if len(self.shrunk) != 1 else ''}"
                f" (from turn {self.turn + 1} of the game): the answers part after the last"
                f" turn ({pos} rolls {roll}): {self.shrunk_field}"
            )
        lines.append(f"    play_game({self.shrunk_players!r}, {_turns_text(self.shrunk)})")
        lines.append(f"    engine:  {_show(self.shrunk_ours)}")
        lines.append(f"    student: {_show(self.shrunk_theirs)}")
        if self.turn >= 0:
            lines.append("  board before that turn:")
            lines += ["    " + row for row in self.shrunk_board.splitlines()]
        return lines


@dataclass
class Report:
    """What `check` found for one file. Its `seed` is None when the run's seed is kept
    secret (`check`'s ``secret_seed``)."""

    path: str
    seed: int | None
    games: int = 0
    checked: int = 0
    differing: int = 0  # games checked whose answers differ from the engine's
    open_games: int = 0  # ... of which differ only by readings the course allows
    agreeing: int = 0  # games whose play agrees, under the allowed readings (the questions
    # that differ before any turn and the probe of a position not playing are kinds of
    # their own)
    crash_games: int = 0  # games where a call raised or answered malformed
    cases_passed: int = 0
    cases: int = 0
    random_games: int = 0
    random_agreeing: int = 0  # random games whose play agrees (under the allowed readings)
    random_exact: int = 0  # ... under the engine's own reading
    cases_failed: list[str] = field(default_factory=list)  # published cases that fail
    error: str | None = None  # the file could not be checked (load error), one line
    failure: str | None = None  # timeout / crash / flood of the student's process
    shared_state: bool = False  # answers depended on earlier games (a class attribute, ...)
    readings: list[str] = field(default_factory=list)  # readings the answers follow
    reached: list[str] = field(default_factory=list)  # decisions the games reached
    # decisions (D1-D12, no sub-rules) the file answered on some game's turns: up to the
    # game's first crash, none in a game whose every question raised before any turn
    answered: list[str] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def agrees(self) -> bool:
        """Whether every answer agreed with the engine's own reading."""
        return self.error is None and self.failure is None and not self.differences

    @property
    def passes(self) -> bool:
        """Whether every difference is an allowed reading (`agrees` under --strict)."""
        return self.error is None and self.failure is None and all(d.open for d in self.differences)

    def verdict(self, strict: bool = False) -> bool:
        """`agrees` with `strict`, else `passes`."""
        return self.agrees if strict else self.passes

    def to_json(self) -> dict[str, Any]:
        """The report as JSON data."""
        data = asdict(self)
        data["agrees"] = self.agrees
        data["passes"] = self.passes
        return data


def _show(answer: Any) -> str:
    """An answer in words, on one line, every character of the student's made visible."""
    if answer is None:
        return "(no answer)"
    if answer in (EXPECTED_PLAYER, EXPECTED_ANSWERS):
        return str(answer["v"])
    if "bad" in answer:
        return f"a malformed answer: {answer['bad']}"
    if answer.get("t") == "text":  # words of the checker's own
        return visible(str(answer["v"]))
    if "x" in answer:
        return f"raised {visible(answer['x'])}: {visible(answer['m'])}"
    v, t = answer["v"], visible(answer["t"])
    if isinstance(v, list):
        inner = ", ".join(_show(x) for x in v)
        return f"[{inner}]" if t == "list" else f"{t}([{inner}])"
    return repr(v) if t in ("str", "int", "bool", "NoneType") else f"{t} {visible(v)}"


def _turns_text(turns: Turns) -> str:
    return "[" + ", ".join(f"({p!r}, {r})" for p, r in turns) + "]"


# ---------------------------------------------------------------- the games


@dataclass
class Game:
    """One game of the plan, and the student's answers to its prefixes asked so far
    (prefix length -> answers)."""

    index: int
    source: str
    players: list[str]
    turns: Turns
    group: str  # "published", "scenario" or "random"
    asks: tuple[str, ...] = ()  # the questions a published case asks
    theirs: dict[int, dict[str, Any]] = field(default_factory=dict)
    masked: frozenset[str] = frozenset()  # questions that differ before any turn


def published_cases() -> list[tuple[str, list[str], Turns]]:
    """The worked example and the nine instructor cases (package data)."""
    return [(c[0], c[1], c[2]) for c in _cases()]


def _cases() -> list[tuple[str, list[str], Turns, tuple[str, ...]]]:
    text = resources.files("LudoGame").joinpath("cs162_cases.json").read_text()
    return [
        (
            c["id"],
            list(c["players"]),
            [(p, int(r)) for p, r in c["turns"]],
            tuple(c.get("asks", ["play_game"])),
        )
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


def trace(players: Sequence[str], turns: Turns, reading: Reading = ()) -> list[list[str]]:
    """The decisions each turn of a game touches, as the engine tags them
    (`LudoGame.trace_game`)."""
    return _engine_game(reading).trace_game(list(players), turns)


#: The decisions the generated games reach, one game each.
SCENARIO_TAGS = ["D4", "D5", "D6", "D7", "D8", "D9.1", "D9.2", "D9.3", "D9.4", "D10"]


def scenarios(rng: random.Random, tries: int = 80) -> list[tuple[str, list[str], Turns]]:
    """Generated games that reach each decision: random games cut just after the first turn
    the engine tags with the decision (D4-D10, each priority rule of D9)."""
    found: dict[str, tuple[str, list[str], Turns]] = {}
    for _ in range(tries):
        players, turns = random_turns(rng)
        for k, tags in enumerate(trace(players, turns)):
            for tag in tags:
                if tag in SCENARIO_TAGS and tag not in found:
                    found[tag] = (f"a generated game reaching {tag}", players, turns[: k + 1])
        if len(found) == len(SCENARIO_TAGS):
            break
    return [found[t] for t in SCENARIO_TAGS if t in found]


# ---------------------------------------------------------------- the engine's answers


def _engine_game(reading: Reading) -> LudoGame:
    return LudoGame(**dict(reading))


def _factory(reading: Reading) -> Callable[[], LudoGame]:
    return (lambda: _engine_game(reading)) if reading else LudoGame


class Engine:
    """The engine's answers to the runner's questions, under a reading of the open
    decisions, for any prefix of a game (played once, asked at every prefix wanted)."""

    def __init__(self) -> None:
        self._cache: dict[tuple[Reading, int, int], dict[str, Any]] = {}
        self._tags: dict[tuple[Reading, int], list[list[str]]] = {}
        self._names: dict[str, dict[str, int]] = {}

    def at(self, reading: Reading, game: Game, ks: Iterable[int]) -> dict[int, dict[str, Any]]:
        """The engine's answers after each prefix length in `ks`."""
        ks = sorted(set(ks))
        missing = [k for k in ks if (reading, game.index, k) not in self._cache]
        if missing:
            engine = _engine_game(reading)
            engine.play_game(game.players, [])
            done = 0
            for k in missing:
                for pos, roll in game.turns[done:k]:
                    engine.play_turn(pos, roll)
                done = k
                played = _check_runner.value(engine.get_spaces())
                self._cache[(reading, game.index, k)] = _check_runner.questions(
                    engine, game.players, played
                )
        return {k: self._cache[(reading, game.index, k)] for k in ks}

    def one(self, reading: Reading, game: Game, k: int) -> dict[str, Any]:
        """The engine's answers after the prefix of length `k`."""
        return self.at(reading, game, [k])[k]

    def tags(self, reading: Reading, game: Game) -> list[list[str]]:
        """The decisions each turn of `game` touches under `reading`."""
        key = (reading, game.index)
        if key not in self._tags:
            self._tags[key] = trace(game.players, game.turns, reading)
        return self._tags[key]

    def board(self, reading: Reading, players: list[str], turns: Turns) -> str:
        """The engine's board after `turns`, drawn in text."""
        game = _engine_game(reading)
        game.play_game(players, turns)
        return str(game)

    def steps_of_name(self, pos: str) -> dict[str, int]:
        """Each space name of `pos`'s tokens and its step count (from the engine)."""
        if pos not in self._names:
            player = Player(pos)
            self._names[pos] = {player.get_space_name(s): s for s in range(-1, 58)}
        return self._names[pos]


def _answers(reading: Reading, players: Sequence[str], turns: Turns, **kw: Any) -> dict[str, Any]:
    return _check_runner.answers(_factory(reading), players, turns, **kw)


# ---------------------------------------------------------------- comparing


def _equal(a: Any, b: Any) -> bool:
    return bool(a == b)


def first_field(ours: dict[str, Any], theirs: Any) -> str | None:
    """The first answer that differs (None: all agree)."""
    keys = differing(ours, theirs)
    return keys[0] if keys else None


def differing(
    ours: dict[str, Any], theirs: Any, keep: Callable[[str], bool] = lambda k: True
) -> list[str]:
    """The questions whose answers differ (in the engine's order, then the student's
    extra ones), among those `keep` keeps."""
    if not isinstance(theirs, dict):
        return [replies.WHOLE]
    if replies.WHOLE in theirs:
        return [replies.WHOLE]
    out = [k for k in ours if keep(k) and not _equal(ours[k], theirs.get(k))]
    out += [k for k in theirs if k not in ours and keep(k)]
    return out


def is_state(key: str) -> bool:
    """Whether a question's answer follows the game's state (play_game, a player's step
    counts and completion, finding the player)."""
    return key in ("play_game", "new", replies.WHOLE) or key.endswith(
        (".p", ".q", ".completed", ".player")
    )


def is_probe(key: str) -> bool:
    """Whether a question asks for a position that does not play."""
    return key.startswith("get_player_by_position(")


def question_of(key: str) -> str:
    """The question a key asks, in words."""
    if key in ("play_game", "move_token", "new", "first play_game"):
        return {"new": "LudoGame()", "first play_game": "play_game"}.get(key, key)
    if key == replies.WHOLE:
        return "every answer"
    if is_probe(key):
        return "get_player_by_position of a position not playing"
    tail = key.split(".", 1)[-1]
    return {
        "p": "step counts",
        "q": "step counts",
        "completed": "get_completed",
        "player": "get_player_by_position",
    }.get(tail, tail.split("(")[0])


def kind_of(key: str, theirs: Any) -> str:
    """The question of a difference and an exception's type (or a malformed answer)."""
    question = question_of(key)
    answer = theirs.get(key) if isinstance(theirs, dict) else None
    if isinstance(answer, dict) and "x" in answer:
        return f"{question}: raised {answer['x']}"
    if isinstance(answer, dict) and "bad" in answer:
        return f"{question}: malformed"
    return question


def _failed(answer: Any) -> str | None:
    """What a failed answer is: ``raised X``, ``a malformed answer``; None for an answer."""
    if isinstance(answer, dict) and "x" in answer:
        return f"raised {answer['x']}"
    if isinstance(answer, dict) and "bad" in answer:
        return "a malformed answer"
    return None


def _small(answer: Any) -> str:
    """A short form of an answer that is not a game's position (a bool, None, a text), for
    telling kinds apart; "" for numbers and lists."""
    if not isinstance(answer, dict) or "v" not in answer:
        return ""
    v = answer["v"]
    if v is None or isinstance(v, bool) or (isinstance(v, str) and answer["t"] == "str"):
        return repr(v)[:40]
    return ""


def _naming(ours: dict[str, Any], theirs: dict[str, Any]) -> str:
    """Where only play_game's answer differs: the names of the spaces (D1) or their order
    (D3)."""
    a, b = ours.get("play_game", {}).get("v"), theirs.get("play_game", {}).get("v")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        key = lambda x: json.dumps(x, sort_keys=True)  # noqa: E731
        return "D3" if sorted(a, key=key) == sorted(b, key=key) else "D1"
    return "D3"


class Checker:
    """Plays games on the student's runner and on the engine, and compares them."""

    def __init__(self, student: Student, seed: int | None) -> None:
        self.student = student
        self.seed = seed
        self.failure: str | None = None
        self.engine = Engine()
        self.turns_played = 0  # turns the student's side played (a budget for shrinking)
        self.failed_request: tuple[Any, ...] | None = None  # the request that failed

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
        self.turns_played += sum(len(g) for g in games)
        got = self.student.ask(
            req, calls=max(1, len(games) // 50), answers=len(games) * replies.ANSWERS_PER_GAME
        )
        if isinstance(got, tuple):
            self.failure = failure_text(got, self.student)
            self.failed_request = (list(players), [list(g) for g in games], before, move)
            return None
        return replies.games_reply(got, players, len(games))

    def ask(self, game: Game, ks: Iterable[int]) -> bool:
        """Ask the student the prefixes of `game` of the lengths `ks` not asked yet."""
        need = sorted(k for k in set(ks) if k not in game.theirs)
        for start in range(0, len(need), MAX_PREFIXES):
            chunk = need[start : start + MAX_PREFIXES]
            got = self.play(game.players, [game.turns[:k] for k in chunk])
            if got is None:
                return False
            game.theirs.update(zip(chunk, got, strict=True))
        return True

    # ------------------------------------------------------------ one game

    def state_diff(self, reading: Reading, game: Game, k: int) -> list[str]:
        """The state questions whose answers differ after `k` turns (the game's masked
        ones left out)."""
        return differing(
            self.engine.one(reading, game, k),
            game.theirs[k],
            lambda key: is_state(key) and key not in game.masked,
        )

    def first_turn(self, reading: Reading, game: Game, lo: int = 0) -> int | None:
        """The index of the turn after which the state answers first differ under `reading`
        (prefix `lo`, already known to agree, on): the search halves the interval, then asks
        every prefix of a short one. None when the whole game agrees (or the student's
        process failed)."""
        n = len(game.turns)
        if not self.ask(game, [n]) or not self.state_diff(reading, game, n):
            return None
        hi = n
        while hi - lo > 1:
            ks = list(range(lo + 1, hi)) if hi - lo - 1 <= SCAN else [(lo + hi) // 2]
            if not self.ask(game, ks):
                return None
            self.engine.at(reading, game, ks)
            first = next((k for k in ks if self.state_diff(reading, game, k)), None)
            if first is None:
                lo = ks[-1]
            else:
                hi = first
                lo = max([lo] + [k for k in ks if k < first])
        return lo

    def agrees_before(self, reading: Reading, game: Game, upto: int) -> bool:
        """Whether every prefix of `game` asked so far, up to length `upto`, agrees under
        `reading`."""
        ks = [k for k in game.theirs if k <= upto]
        ours = self.engine.at(reading, game, ks)
        return not any(
            differing(ours[k], game.theirs[k], lambda key: is_state(key) and key not in game.masked)
            for k in ks
        )

    def _steps(self, game: Game, answers: dict[str, Any]) -> dict[str, tuple[int, int]] | None:
        """Every player's step counts from a game's answers: the step count answers where
        they are not masked and are whole numbers, else play_game's space names read back
        with the engine's names; None when neither reads."""
        out: dict[str, tuple[int, int]] = {}
        spaces = answers.get("play_game", {}).get("v")
        for i, pos in enumerate(game.players):
            pq = [answers.get(f"{pos}.{t}", {}).get("v") for t in "pq"]
            if (
                all(type(v) is int and -1 <= v <= 57 for v in pq)
                and f"{pos}.p" not in game.masked
                and f"{pos}.q" not in game.masked
            ):
                out[pos] = (pq[0], pq[1])
                continue
            names = self.engine.steps_of_name(pos)
            if not isinstance(spaces, list) or len(spaces) != 2 * len(game.players):
                return None
            got = [
                names.get(s["v"]) if isinstance(s, dict) and isinstance(s.get("v"), str) else None
                for s in spaces[2 * i : 2 * i + 2]
            ]
            if got[0] is None or got[1] is None:
                return None
            out[pos] = (got[0], got[1])
        return out

    def label(self, reading: Reading, game: Game, t: int, keys: list[str]) -> tuple[str, str]:
        """The question and decision of a difference that appears after turn `t`: from what
        the engine did on that turn (its tags) against what the student's answers show."""
        ours, theirs = self.engine.one(reading, game, t + 1), game.theirs[t + 1]
        questions = [question_of(k) for k in keys]
        question = questions[0]
        if "get_player_by_position" in questions:
            return "get_player_by_position", "D2"
        if set(questions) == {"get_completed"}:
            return "get_completed", "D10"
        if set(questions) == {"play_game"} and not (
            {f"{p}.{t}" for p in game.players for t in "pq"} & game.masked
        ):
            return "play_game", _naming(ours, theirs)
        if "play_game" not in questions and "play_game" not in game.masked:
            return "step counts", "D1"  # the positions agree, the step counts do not
        tags = self.engine.tags(reading, game)[t]
        before = self._steps(game, self.engine.one(reading, game, t))
        mine = self._steps(game, ours)
        student = self._steps(game, theirs)
        d9 = next((x for x in tags if x.startswith("D9")), None)
        if "D10" in tags:
            return question, "D10"
        if before is None or mine is None or student is None:
            return question, d9 or (tags[0] if tags else "")
        pos, _roll = game.turns[t]
        b, e, s = before[pos], mine[pos], student[pos]
        if e == s:  # the mover agrees: another player's tokens differ
            for other in game.players:
                if other != pos and mine[other] != student[other]:
                    ready = any(before[other][i] == 0 for i in (0, 1))
                    return question, "D6" if ready and "D6" in tags else "D7"
            if "get_completed" in questions:
                return "get_completed", "D10"
            return question, d9 or (tags[0] if tags else "")
        moved_e = {i for i in (0, 1) if e[i] != b[i]}
        moved_s = {i for i in (0, 1) if s[i] != b[i]}
        if moved_e == moved_s:  # the same tokens moved, to other spaces
            if b[min(moved_e)] == -1:
                return question, "D4"
            if len(moved_e) == 2 and "D5" not in tags:
                return question, "D8"
            return question, "D5"
        if moved_e and moved_s and not moved_e & moved_s:  # the other token moved
            j = min(moved_s)
            if d9:
                return question, d9
            return question, "D4" if b[j] == -1 else "D5" if b[j] == 57 else "D9"
        if moved_e > moved_s and moved_s:
            return question, "D8"  # the engine moved a stack, the student one token
        if moved_s > moved_e and moved_e:
            return question, "D6" if b == (0, 0) else "D8"
        if moved_e and not moved_s:
            i = min(moved_e)
            if b[i] == -1:
                return question, "D4"
            return question, "D5" if "D5" in tags or not d9 else d9
        j = min(moved_s)  # the student moved a token the engine did not
        return question, "D4" if b[j] == -1 else "D5"

    def classify(self, reading: Reading, game: Game, t: int) -> Kind:
        """The kind of the difference that appears after turn `t` (prefix `t` agrees)."""
        keys = self.state_diff(reading, game, t + 1)
        theirs = game.theirs[t + 1]
        for key in keys:
            failed = _failed(theirs.get(key)) or (
                "a malformed answer" if key == replies.WHOLE else None
            )
            if failed is not None:
                return Kind(CRASH, question_of(key), self._turn_decision(reading, game, t), failed)
        question, decision = self.label(reading, game, t, keys)
        detail = ""
        if question in ("get_completed", "get_player_by_position"):
            key = keys[0]
            detail = (
                f"{_small(self.engine.one(reading, game, t + 1).get(key))} vs "
                f"{_small(theirs.get(key))}"
            )
        return Kind(FIXED, question, decision, detail)

    def _turn_decision(self, reading: Reading, game: Game, t: int) -> str:
        """The decision a turn is best known by: what happened (D10, a kick, a stack, R)
        before what was decided (the priority rule, the yard, a plain move)."""
        tags = self.engine.tags(reading, game)[t]
        for wanted in ("D10", "D7", "D8", "D6", "D9", "D4", "D5"):
            found = next((x for x in tags if _base(x) == wanted), None)
            if found:
                return found
        return ""


# ---------------------------------------------------------------- the check


@dataclass
class _Found:
    """The games of one kind, in plan order, with where each shows it."""

    kind: Kind
    games: list[tuple[Game, int]] = field(default_factory=list)  # (game, turn index)
    keys: list[str] = field(default_factory=list)  # the first game's differing questions


class _Run:
    """One file's check: the plan, the comparisons, the report."""

    def __init__(self, checker: Checker, report: Report, plan: list[Game]) -> None:
        self.c = checker
        self.report = report
        self.plan = plan
        self.reading: Reading = ()
        self.found: dict[Kind, _Found] = {}
        #: the answers of the space-name kinds (engine's, student's)
        self.extra: dict[Kind, tuple[dict[str, Any], dict[str, Any]]] = {}

    def note(self, kind: Kind, game: Game, turn: int, keys: Sequence[str] = ()) -> None:
        f = self.found.setdefault(kind, _Found(kind, keys=list(keys)))
        if not any(g is game for g, _ in f.games):
            f.games.append((game, turn))

    # ------------------------------------------------------------ the steps

    def first_pass(self) -> bool:
        """Every game's full answers and its answers before any turn; the questions that
        already differ before any turn are noted (and left out of its turn search)."""
        for game in self.plan:
            if not self.c.ask(game, [0, len(game.turns)]):
                return False
            ours = self.c.engine.one((), game, 0)
            game.masked = frozenset(differing(ours, game.theirs[0], is_state))
        return True

    def shared_state(self) -> bool:
        """Whether the answers depend on earlier games: the first games that differ from the
        engine's, played again in a fresh interpreter (a fork of the runner made when the
        file was loaded), answer otherwise than after the games before them."""
        c = self.c
        suspects = [
            g
            for g in self.plan
            if differing(c.engine.one((), g, len(g.turns)), g.theirs[len(g.turns)])
        ][:3]
        if not suspects:
            return False
        for game in suspects:
            request = {"op": "games", "players": game.players, "games": [game.turns], "fresh": True}
            got = c.student.ask(request, answers=replies.ANSWERS_PER_GAME)
            if isinstance(got, tuple):
                c.failure = failure_text(got, c.student)
                return False
            again = replies.games_reply(got, game.players, 1)[0]
            if replies.WHOLE in again or any("bad" in a for a in again.values()):
                return False  # no fresh answers: no evidence
            if again != game.theirs[len(game.turns)]:
                return True
        return False

    def find_readings(self) -> None:
        """Adopt, one at a time, the reading of an open decision that explains the most
        games' first differences (the student's answers equal the engine's under it at
        that turn and at every prefix asked before), and makes no agreeing game differ."""
        c = self.c
        while True:
            firsts = []
            for game in self.plan:
                t = c.first_turn(self.reading, game)
                if c.failure is not None:
                    return
                if t is not None:
                    firsts.append((game, t))
            if not firsts:
                return
            taken = {o for o, _ in self.reading}
            best: tuple[int, int, Reading] | None = None
            for (option, value), info in READINGS.items():
                if option not in TURN_OPTIONS or option in taken or value == ENGINE_READING[option]:
                    continue
                trial = tuple(sorted((*self.reading, (option, value))))
                explained = sum(
                    1
                    for game, t in firsts
                    if not c.state_diff(trial, game, t + 1) and c.agrees_before(trial, game, t + 1)
                )
                if explained and (best is None or (explained, info.allowed) > best[:2]):
                    best = (explained, int(info.allowed), trial)
            if best is None:
                return
            trial = best[2]
            agreeing = [g for g in self.plan if not any(g is f for f, _ in firsts)]
            if any(c.state_diff(trial, g, len(g.turns)) for g in agreeing):
                return  # it would make a game that agrees differ: not the student's reading
            self.reading = trial

    def classify_games(self) -> None:
        """Every game's first difference under the reading found, by kind; the questions
        that differ before any turn and the probe of a position not playing, each on its
        own; the readings where they changed a game's answers."""
        c = self.c
        report = self.report
        for game in self.plan:
            report.checked += 1
            n = len(game.turns)
            full = game.theirs[n]
            engine_full = c.engine.one((), game, n)
            differs = bool(differing(engine_full, full))
            report.differing += differs
            report.crash_games += any(_failed(a) for a in full.values()) or replies.WHOLE in full
            if game.masked:
                self.before_any_turn(game)
            probe = next((k for k in engine_full if is_probe(k)), None)
            if probe is not None and not _equal(engine_full.get(probe), full.get(probe)):
                answer = full.get(probe)
                failed = _failed(answer)
                detail = failed or f"{_small(engine_full.get(probe))} vs {_small(answer)}"
                self.note(
                    Kind(CRASH if failed else FIXED, question_of(probe), "D2", detail),
                    game,
                    -2,
                    [probe],
                )
            t = c.first_turn(self.reading, game)
            if c.failure is not None:
                return
            kind = None if t is None else c.classify(self.reading, game, t)
            if any(is_state(k) and k not in game.masked for k in full):
                # the file answered this game's turns (not every question raised before any
                # turn): up to its first crash, or all of them when it differs otherwise
                upto = t if kind is not None and kind.weight == CRASH else n
                answered = set(ASKED_OF_EVERY_GAME)
                for tags in c.engine.tags(self.reading, game)[:upto]:
                    answered.update(_base(x) for x in tags)
                report.answered = sorted(answered | set(report.answered), key=lambda d: int(d[1:]))
            if t is not None and kind is not None:
                self.note(kind, game, t, c.state_diff(self.reading, game, t + 1))
            for option, value in self.reading:
                without = tuple(r for r in self.reading if r[0] != option)
                tw = c.first_turn(without, game)
                if c.failure is not None:
                    return
                if tw is not None and tw != t and not c.state_diff(self.reading, game, tw + 1):
                    info = READINGS[(option, value)]
                    kind = Kind(
                        OPEN if info.allowed else FIXED, "reading", info.decision, info.name
                    )
                    self.note(kind, game, tw)
            if game.group == "published":
                if all(_equal(engine_full.get(k), full.get(k)) for k in game.asks):
                    report.cases_passed += 1
                else:
                    report.cases_failed.append(game.source)
            allowed = tuple(r for r in self.reading if READINGS[r].allowed)
            alike = not ({"play_game", replies.WHOLE, "new"} & game.masked) and not c.state_diff(
                allowed, game, n
            )
            report.agreeing += alike
            if game.group == "random":
                report.random_games += 1
                report.random_agreeing += alike
                report.random_exact += not c.state_diff((), game, n)
            if differs and self._allowed_only(game):
                report.open_games += 1

    def before_any_turn(self, game: Game) -> None:
        """The kinds of the questions of a game that differ before any turn (one per
        question)."""
        ours0, theirs0 = self.c.engine.one((), game, 0), game.theirs[0]
        seen: set[str] = set()
        for key in sorted(game.masked, key=lambda k: (k != "play_game", k)):
            question = question_of(key)
            if question in seen:
                continue
            seen.add(question)
            failed = _failed(theirs0.get(key)) or (
                "a malformed answer" if key == replies.WHOLE else None
            )
            if failed:
                kind = Kind(CRASH, question, "", failed)
            elif question == "step counts":
                shown = f"{_show(ours0.get(key))} vs {_show(theirs0.get(key))} in the yard"
                kind = Kind(FIXED, question, "D1", shown)
            elif question == "play_game":
                kind = Kind(FIXED, question, _naming(ours0, theirs0), "")
            else:
                decision = {"get_completed": "D10", "get_player_by_position": "D2"}.get(
                    question, "D3"
                )
                detail = f"{_small(ours0.get(key))} vs {_small(theirs0.get(key))}"
                kind = Kind(FIXED, question, decision, detail)
            self.note(kind, game, -1, [key])

    def _allowed_only(self, game: Game) -> bool:
        """Whether the game's answers agree under the allowed readings adopted alone."""
        allowed = tuple(r for r in self.reading if READINGS[r].allowed)
        n = len(game.turns)
        return not differing(self.c.engine.one(allowed, game, n), game.theirs[n])

    # ------------------------------------------------------------ D11, D12, names

    def reuse(self, cases: list[Game]) -> None:
        """D11: each published case played by an object that played the case before it
        first must answer as a fresh one; under the reading games=continued the engine's
        object keeps the positions that played before (an allowed reading)."""
        c = self.c
        play = tuple(r for r in self.reading if r[0] in TURN_OPTIONS)
        for first, game in zip(cases, cases[1:], strict=False):
            n = len(game.turns)
            if differing(c.engine.one(self.reading, game, n), game.theirs[n]):
                continue
            theirs = c.play(game.players, [game.turns], before=(first.players, first.turns))
            if theirs is None:
                return
            before = (first.players, first.turns)
            ours = _answers(play, game.players, game.turns, before=before)
            keys = differing(ours, theirs[0])
            if not keys:
                continue
            continued = tuple(sorted((*play, ("games", "continued"))))
            alt = _answers(continued, game.players, game.turns, before=before)
            source = f"{game.source}, played by the LudoGame object that played {first.source}"
            if not differing(alt, theirs[0]):
                kind = Kind(OPEN, "reading", "D11", "games=continued")
            else:
                kind = Kind(FIXED, "a second play_game on the same object", "D11", "")
            self.explained_end(kind, source, game, keys[0], (ours, theirs[0]), "D11")
            return

    def moves(self, cases: list[Game]) -> None:
        """D12: after each published case, move_token of the first player's p and q by 1
        and by 6, then every answer; the readings of D12 (move_stack, move_from_yard) are
        allowed."""
        c = self.c
        play = tuple(r for r in self.reading if r[0] in TURN_OPTIONS)
        alternatives = [
            tuple(sorted((*play, *extra)))
            for extra in (
                (("move_stack", "token"),),
                (("move_from_yard", "any"),),
                (("move_from_yard", "any"), ("move_stack", "token")),
            )
        ]
        for game in cases:
            n = len(game.turns)
            if differing(c.engine.one(self.reading, game, n), game.theirs[n]):
                continue
            for token in "pq":
                for steps in (1, 6):
                    move = (game.players[0], token, steps)
                    theirs = c.play(game.players, [game.turns], move=move)
                    if theirs is None:
                        return
                    ours = _answers(play, game.players, game.turns, move=move)
                    keys = differing(ours, theirs[0])
                    if not keys:
                        continue
                    alt = next(
                        (
                            a
                            for a in alternatives
                            if not differing(
                                _answers(a, game.players, game.turns, move=move), theirs[0]
                            )
                        ),
                        None,
                    )
                    if alt is not None:
                        detail = ",".join(f"{o}={v}" for o, v in alt if o.startswith("move_"))
                        kind = Kind(OPEN, "reading", "D12", detail)
                    else:
                        kind = Kind(FIXED, "move_token", "D12", "")
                    first = game.players[0]
                    source = f"{game.source}, then move_token({first}'s player, {token!r}, {steps})"
                    self.explained_end(kind, source, game, keys[0], (ours, theirs[0]), "D12")
                    return

    def names(self) -> None:
        """get_space_name of every step count, for each position (D1)."""
        c = self.c
        for pos in "ABCD":
            got = c.student.ask({"op": "names", "position": pos}, answers=replies.ANSWERS_PER_NAMES)
            if isinstance(got, tuple):
                c.failure = failure_text(got, c.student)
                self.report.failure = f"{c.failure} (in get_space_name)"
                return
            theirs = replies.names_reply(got, pos)
            ours = _check_runner.space_names(LudoGame, pos)
            keys = differing(ours, theirs)
            if not keys:
                continue
            keys.sort(key=lambda k: k not in theirs)  # what the student answered first
            failed = _failed(theirs.get(keys[0]))
            kind = Kind(CRASH if failed else FIXED, "get_space_name", "D1", failed or "")
            board = Game(next(_scratch), f"get_space_name of position {pos}", [pos], [], "names")
            found = self.found.setdefault(kind, _Found(kind, keys=[keys[0]]))
            found.games.append((board, -1))
            self.extra.setdefault(kind, (ours, theirs))

    def explained_end(
        self,
        kind: Kind,
        source: str,
        game: Game,
        key: str,
        answers: tuple[dict[str, Any], Any],
        decision: str,
    ) -> None:
        """A D11 or D12 difference, found after a whole published case."""
        ours, theirs = answers
        self.report.differences.append(
            Difference(
                kind=kind.title(),
                weight=WEIGHTS[kind.weight],
                decision=decision,
                count=1,
                source=source,
                players=game.players,
                turns=game.turns,
                turn=-2,
                field=f"{decision}: {key}",
                ours=_expected(ours, key),
                theirs=theirs.get(key) if isinstance(theirs, dict) else None,
                board="",
                decisions=[decision],
                shrunk=game.turns,
                shrunk_players=game.players,
                shrunk_field=key,
                shrunk_ours=_expected(ours, key),
                shrunk_theirs=theirs.get(key) if isinstance(theirs, dict) else None,
                shrunk_board="",
                open=kind.weight == OPEN,
                reading=kind.detail if kind.question == "reading" else "",
                readings=[f"{o}={v}" for o, v in self.reading],
                seed=self.c.seed,
            )
        )

    # ------------------------------------------------------------ explaining

    def explain_all(self) -> None:
        ordered = sorted(
            self.found.values(), key=lambda f: (f.kind.weight, -len(f.games), f.games[0][0].index)
        )
        for n, found in enumerate(ordered):
            self.report.differences.append(self.explain(found, shrink=n < MAX_SHRUNK))
            if self.c.failure is not None:
                return
        self.report.differences.sort(
            key=lambda d: (list(WEIGHTS.values()).index(d.weight), -d.count)
        )

    def explain(self, found: _Found, shrink: bool) -> Difference:
        c = self.c
        kind = found.kind
        game, t = found.games[0]
        count = len(found.games)
        reading = self.reading
        readings = [f"{o}={v}" for o, v in reading]
        if game.group == "names":
            ours, theirs = self.extra[kind]
            key = found.keys[0]
            return Difference(
                kind=kind.title(),
                weight=WEIGHTS[kind.weight],
                decision="D1",
                count=count,
                source=game.source,
                players=game.players,
                turns=[],
                turn=-1,
                field=key,
                ours=_expected(ours, key),
                theirs=theirs.get(key),
                board="",
                decisions=["D1"],
                shrunk=[],
                shrunk_players=game.players,
                shrunk_field=key,
                shrunk_ours=_expected(ours, key),
                shrunk_theirs=theirs.get(key),
                shrunk_board="",
                open=False,
                reading="",
                readings=readings,
                seed=c.seed,
            )
        if kind.question == "reading":
            without = tuple(r for r in reading if f"{r[0]}={r[1]}" != kind.detail)
            compare = without
        else:
            compare = reading
        if t == -3:  # answers that depend on earlier games
            n = len(game.turns)
            ours = {"every LudoGame()": {"t": "text", "v": "the same answers for the same game"}}
            theirs = {
                "every LudoGame()": {
                    "t": "text",
                    "v": "other answers to the same game once other games were played before"
                    " (or a call that ran past its time limit only then)",
                }
            }
            key = "every LudoGame()"
            return self._difference(
                kind,
                game,
                -2,
                key,
                ours,
                theirs,
                [game.players, game.turns[:n]],
                (ours, theirs, key),
                count,
            )
        if t in (-1, -2):  # before any turn; the probe, after the whole game
            key = found.keys[0]
            k = 0 if t == -1 else len(game.turns)
            ours, theirs = c.engine.one((), game, k), game.theirs[k]
            shown = [game.players, game.turns[:k]]
            return self._difference(
                kind, game, t, key, ours, theirs, shown, (ours, theirs, key), count
            )
        if kind.question == "reading":
            t = c.first_turn(compare, game) or 0
        ours, theirs = c.engine.one(compare, game, t + 1), game.theirs.get(t + 1, {})
        keys = c.state_diff(compare, game, t + 1) or found.keys or ["play_game"]
        key = keys[0]
        shrunk_players, shrunk = game.players, game.turns[: t + 1]
        if shrink:
            shrunk_players, shrunk = self.shrink(kind, game, t, compare)
        small = Game(next(_scratch), "shrunk", shrunk_players, shrunk, "shrunk")
        c.ask(small, [len(shrunk)])
        small_ours = c.engine.one(compare, small, len(shrunk))
        small_theirs = small.theirs.get(len(shrunk), {})
        small_key = (differing(small_ours, small_theirs, is_state) or [key])[0]
        tags = c.engine.tags(compare, game)[t]
        decision = kind.decision
        others = [x for x in tags if _base(x) != _base(decision)]
        diff = self._difference(
            kind,
            game,
            t,
            key,
            ours,
            theirs,
            [shrunk_players, shrunk],
            (small_ours, small_theirs, small_key),
            count,
        )
        diff.decisions = ([decision] if decision else []) + others
        diff.board = c.engine.board(compare, game.players, game.turns[:t])
        diff.shrunk_board = c.engine.board(compare, shrunk_players, shrunk[:-1])
        return diff

    def _difference(
        self,
        kind: Kind,
        game: Game,
        t: int,
        key: str,
        ours: dict[str, Any],
        theirs: dict[str, Any],
        shrunk: list[Any],
        small: tuple[dict[str, Any], dict[str, Any], str],
        count: int,
    ) -> Difference:
        small_ours, small_theirs, small_key = small
        return Difference(
            kind=kind.title(),
            weight=WEIGHTS[kind.weight],
            decision=kind.decision,
            count=count,
            source=game.source,
            players=game.players,
            turns=game.turns,
            turn=t,
            field=key,
            ours=_expected(ours, key),
            theirs=theirs.get(key),
            board=self.c.engine.board((), game.players, []) if t < 0 else "",
            decisions=[kind.decision] if kind.decision else [],
            shrunk=shrunk[1],
            shrunk_players=shrunk[0],
            shrunk_field=small_key,
            shrunk_ours=_expected(small_ours, small_key),
            shrunk_theirs=small_theirs.get(small_key),
            shrunk_board="",
            open=kind.weight == OPEN,
            reading=kind.detail if kind.question == "reading" else "",
            readings=[f"{o}={v}" for o, v in self.reading],
            seed=self.c.seed,
        )

    # ------------------------------------------------------------ shrinking

    def shows(self, kind: Kind, players: list[str], turns: Turns, reading: Reading) -> bool:
        """Whether `turns` shows `kind` at its last turn: the same search finds its first
        difference there, and that difference is of the same kind (for a reading: the
        answers agree under the file's reading and part without it there)."""
        c = self.c
        game = Game(next(_scratch), "candidate", players, turns, "shrunk")
        n = len(turns)
        if not c.ask(game, [0, n - 1, n]):
            return False
        game.masked = frozenset(differing(c.engine.one((), game, 0), game.theirs[0], is_state))
        if c.state_diff(reading, game, n - 1) or not c.state_diff(reading, game, n):
            return False  # a quick no: it does not part exactly at its last turn
        t = c.first_turn(reading, game)
        if t != n - 1:
            return False
        if kind.question == "reading":
            return not c.state_diff(self.reading, game, n)
        return c.classify(reading, game, t) == kind

    def shrink(self, kind: Kind, game: Game, t: int, reading: Reading) -> tuple[list[str], Turns]:
        """Delta debugging: drop chunks of turns before the last (halving their size down
        to single turns) while the list still shows `kind` at its last turn; then the
        positions with no turn left."""
        c = self.c
        body, last = game.turns[:t], game.turns[t]
        players = list(game.players)
        budget = c.turns_played + SHRINK_TURNS
        for other in [p for p in players if p != last[0]]:  # first, whole players' turns
            candidate = [turn for turn in body if turn[0] != other]
            if candidate != body and self.shows(kind, players, [*candidate, last], reading):
                body = candidate
        size = max(1, len(body) // 2)
        while body and c.turns_played < budget and c.failure is None:
            changed = False
            i = 0
            while i < len(body) and c.turns_played < budget:
                candidate = body[:i] + body[i + size :]
                if self.shows(kind, players, [*candidate, last], reading):
                    body = candidate
                    changed = True
                else:
                    i += size
            if not changed:
                if size == 1:
                    break
                size //= 2
            else:
                size = max(1, min(size, len(body) // 2))
        turns = [*body, last]
        fewer = [p for p in players if any(p == pos for pos, _ in turns)]
        if fewer != players and fewer and self.shows(kind, fewer, turns, reading):
            players = fewer
        return players, turns


def _expected(ours: dict[str, Any], key: str) -> Any:
    """The engine's answer at `key` (the stand-ins above where the student answered a
    question the engine did not need)."""
    if key == replies.WHOLE:
        return EXPECTED_ANSWERS
    return ours.get(key, EXPECTED_PLAYER if key.endswith(".player") else None)


def check_seed(seed: object) -> int:
    """`seed` if it is a seed (an int from 0 to 2**64 - 1, not a bool), else the error the
    engine gives for a bad seed."""
    if type(seed) is not int:
        raise TypeError(f"seed must be an int or None, not {type(seed).__name__} ({seed!r})")
    if not 0 <= seed < 2**64:
        raise InvalidArgumentError(f"seed must be an int from 0 to 2**64 - 1, not {seed}")
    return seed


def plan_games(seed: int, games: int) -> list[Game]:
    """The games of a check: the published cases, the generated games reaching each
    decision, then random games until `games` (all from `seed`)."""
    return [
        Game(i, source, list(players), list(turns), group, asks)
        for i, (source, players, turns, group, asks) in enumerate(_planned(seed, games))
    ]


_Plan = tuple[tuple[str, list[str], Turns, str, tuple[str, ...]], ...]
#: The plans made in this process, the latest few by (seed, games): a class checked with
#: a named seed makes its plan once (under a secret seed each file has its own).
_PLANS: dict[tuple[int, int], _Plan] = {}


def _planned(seed: int, games: int) -> _Plan:
    """`_plan(seed, games)`, made once per seed and count in a process."""
    plan = _PLANS.get((seed, games))
    if plan is None:
        plan = _plan(seed, games)
        while len(_PLANS) >= 4:
            del _PLANS[next(iter(_PLANS))]
        _PLANS[(seed, games)] = plan
    return plan


def _plan(seed: int, games: int) -> _Plan:
    """`plan_games` as data."""
    rng = random.Random(seed)
    plan = [
        (source, players, turns, "published", asks) for source, players, turns, asks in _cases()
    ]
    for source, players, turns in scenarios(rng):
        plan.append((source, players, turns, "scenario", ()))
    while len(plan) < games:
        players, turns = random_turns(rng)
        plan.append((f"random game {len(plan) + 1}", players, turns, "random", ()))
    return tuple(plan)


def check(
    path: str,
    *,
    seed: int | None = None,
    secret_seed: bool = False,
    games: int = 200,
    timeout: float = DEFAULT_TIMEOUT,
    sandboxed: bool = True,
    budget: float | None = None,
) -> Report:
    """Check the student's ``LudoGame.py`` at `path` against the engine.

    Plays the published cases, generated games reaching each decision, then random games
    (`games` in all, at least the published ones), from `seed`: by default a fresh one
    (`fresh_seed`), named in the report, so that no file can hold the answers of the games
    it will be asked (the same seed plays the same games again). With `secret_seed` the
    report does not name it (its `seed` is None) and each file plays games of its own,
    drawn from the seed and the file's bytes (`file_seed`): whoever keeps the seed can still
    repeat the run of a file. Each request has `timeout` seconds (more for a batch of games),
    the whole check `budget` seconds (by default `LudoGame.check_student.BUDGET_REQUESTS`
    times `timeout`): a file that runs past it fails with ``budget: ...``. Raises
    `CheckUsageError` when the file cannot be checked at all
    (missing, not Python, no LudoGame class, ...) and
    `LudoGame.sandbox.SandboxUnavailableError` when the sandbox is asked for and missing.
    """
    started = time.monotonic()
    if budget is not None and not budget > 0:
        raise ValueError(f"budget must be a positive number of seconds, not {budget!r}")
    limit = Budget.starting(timeout, budget)
    seed = fresh_seed() if seed is None else check_seed(seed)
    shown = None if secret_seed else seed
    path = student_path(path)
    source = read_submission(path)  # read once: every process of this check gets these bytes
    if secret_seed:
        seed = file_seed(seed, source)
    run = functools.partial(
        _check_once, path, source, shown, seed, games, timeout, sandboxed, limit
    )
    report = run(isolated=False)
    if report.shared_state:  # every game again, each in a process of its own
        report = run(isolated=True)
    report.seconds = time.monotonic() - started
    return report


def student_path(path: str) -> str:
    """The file `check` checks for `path`: a folder's LudoGame.py when it has one, else
    `path` itself (the name a report of it has, whether the check succeeds or not). A
    LudoGame.py that is a link or not a file is named too: the check refuses it, saying so."""
    inside = os.path.join(path, STUDENT_NAME)
    return inside if os.path.isdir(path) and os.path.lexists(inside) else path


def file_seed(seed: int, source: bytes) -> int:
    """The seed of the games a secret `seed` plays with the file of bytes `source`: drawn
    from both (SHA-256), so that each file plays games of its own. A file that leaks its
    games through its answers (a crash's message is shown to the student) learns nothing
    another file could use: the smallest change to the file changes every game."""
    digest = hashlib.sha256(seed.to_bytes(8, "little") + source).digest()
    return int.from_bytes(digest[:8], "little")


def read_submission(path: str) -> bytes:
    """The bytes of the student's file `path` (a `student_path`), read as an untrusted
    party's (`LudoGame.sandbox.read_untrusted`), no step of the path a symbolic link
    (`linked`); `CheckUsageError` saying why not."""
    link = linked(path)
    if link is not None:
        raise CheckUsageError(visible(f"{link}: {sandbox.LINK_REFUSED}"))
    if os.path.isdir(path):
        raise CheckUsageError(visible(f"{path}: a folder with no {STUDENT_NAME}"))
    if not os.path.lexists(path):
        raise CheckUsageError(visible(f"{path}: no such file"))
    if not path.endswith(".py"):
        raise CheckUsageError(visible(f"{path}: not a Python file (a LudoGame.py is expected)"))
    try:
        return sandbox.read_untrusted(path)
    except sandbox.UntrustedFileError as e:
        raise CheckUsageError(visible(f"{path}: {e}")) from None


def linked(path: str) -> str | None:
    """The first step of `path`, as written (a folder or the file), that is a symbolic
    link, if one is: none is followed (in a folder of submissions, a link could name any
    file or folder the grader may read, another student's included)."""
    step = os.sep if path.startswith(os.sep) else ""
    for part in path.split(os.sep):
        if part in ("", "."):
            continue
        step = os.path.join(step, part) if step else part
        if os.path.islink(step):
            return step
    return None


def _check_once(
    path: str,
    source: bytes,
    shown: int | None,
    seed: int,
    games: int,
    timeout: float,
    sandboxed: bool,
    limit: Budget,
    isolated: bool,
) -> Report:
    report = Report(path=path, seed=shown, shared_state=isolated)
    if limit.spent():  # the isolated run, when the first used the whole budget
        report.failure = limit.text()
        return report
    student = Student(path, source, timeout, use_sandbox=sandboxed, isolated=isolated, budget=limit)
    try:
        if student.loaded.get("load") != "ok":
            why = student.loaded.get("message", "cannot be loaded")
            raise CheckUsageError(visible(f"{path}: {why}"))
        checker = Checker(student, shown)
        plan = plan_games(seed, games)
        report.games = len(plan)
        report.cases = sum(g.group == "published" for g in plan)
        report.reached = sorted(
            {g.source.rsplit(" ", 1)[-1] for g in plan if g.group == "scenario"},
            key=lambda d: [int(x) for x in d[1:].split(".")],
        )
        run = _Run(checker, report, plan)
        run.names()
        if report.failure is None and not run.first_pass():
            if not isolated and _fresh_answers(student, checker):
                report.shared_state = True
                return report
            report.failure = f"{checker.failure} (in the first games)"
        if report.failure is None and not isolated and run.shared_state():
            report.shared_state = True
            return report
        if report.failure is None:
            run.find_readings()
            report.readings = [f"{o}={v}" for o, v in run.reading]
            run.classify_games()
            cases = [g for g in plan if g.group == "published"]
            run.reuse(cases)
            run.moves(cases)
            if isolated:
                kind = Kind(FIXED, "every LudoGame()", "D11", "state shared between objects")
                run.found[kind] = _Found(kind, [(g, -3) for g in plan], ["state"])
            run.explain_all()
        if (
            checker.failure is not None
            and report.failure is None  # not asked again after the first games
            and not isolated
            and _fresh_answers(student, checker)
        ):
            report.shared_state = True  # slow only after earlier games: checked again
            return report
        if checker.failure is not None and report.failure is None:
            report.failure = checker.failure
    finally:
        student.close()
    return report


def _fresh_answers(student: Student, checker: Checker) -> bool:
    """After a timeout: whether the request that ran out of time is answered in time by a
    fresh process (then the slowness came from earlier games)."""
    if not checker.failure or not checker.failure.startswith("timeout"):
        return False
    request = getattr(checker, "failed_request", None)
    if request is None:
        return False
    if student.budget is not None and student.budget.spent():
        checker.failure = student.budget.text()  # no fresh process past the budget
        return False
    players, games, _, _ = request
    fresh = Student(
        student.path,
        student.source,
        student.timeout,
        use_sandbox=student.use_sandbox,
        isolated=True,
        budget=student.budget,
    )
    try:
        if fresh.loaded.get("load") != "ok":
            return False
        got = fresh.ask(
            {"op": "games", "players": players, "games": games[:1]},
            answers=replies.ANSWERS_PER_GAME,
        )
        if got == ("budget",):
            checker.failure = failure_text(got, fresh)
        return not isinstance(got, tuple)
    finally:
        fresh.close()


def replay(
    path: str,
    players: list[str],
    turns: Turns,
    readings: Sequence[str] = (),
    *,
    timeout: float = DEFAULT_TIMEOUT,
    sandboxed: bool = True,
) -> str | None:
    """The kind (as `Difference.kind` words it) of the first difference one game shows,
    compared as a check compares it under `readings` (``option=value``, the report's
    `readings`): what a check reports for a shrunk list played again. None when it agrees."""
    reading: Reading = tuple(sorted(tuple(r.split("=", 1)) for r in readings))  # type: ignore[misc]
    student = Student(path, read_submission(path), timeout, use_sandbox=sandboxed)
    try:
        if student.loaded.get("load") != "ok":
            raise CheckUsageError(visible(f"{path}: {student.loaded.get('message')}"))
        checker = Checker(student, None)
        game = Game(0, "replayed", list(players), list(turns), "random")
        run = _Run(checker, Report(path=path, seed=None), [game])
        if not run.first_pass():
            return checker.failure
        t = checker.first_turn(reading, game)
        if t is not None:
            return checker.classify(reading, game, t).title()
        for option, value in reading:
            without = tuple(r for r in reading if r[0] != option)
            if checker.first_turn(without, game) is not None:
                info = READINGS[(option, value)]
                kind = Kind(OPEN if info.allowed else FIXED, "reading", info.decision, info.name)
                return kind.title()
        return None
    finally:
        student.close()


# ---------------------------------------------------------------- reports


def seed_text(seed: int | None) -> str:
    """How a report names its seed: ``seed N``, or that it is kept secret."""
    return "secret seed" if seed is None else f"seed {seed}"


def render(report: Report, colour: bool = False, strict: bool = False) -> str:
    """The report as terminal text: every character of the student's (and of the file's
    name) made visible (`LudoGame.untrusted.visible`); with `colour`, the verdict is
    coloured (the only escape sequences in the text)."""

    def paint(text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if colour else text

    head = f"{visible(report.path)}: "
    if report.error:
        return head + paint(visible(report.error), "31")
    seed = seed_text(report.seed)
    if report.agrees:
        return (
            head
            + paint("agrees", "32")
            + f" with the engine on {report.checked} games ({report.cases_passed}/{report.cases}"
            f" published cases; {seed}, {report.seconds:.1f} s)"
        )
    counts: dict[str, int] = {}
    for d in report.differences:
        counts[d.weight] = counts.get(d.weight, 0) + 1
    summary = ", ".join(
        f"{n} {w}{' differences' if n != 1 else ' difference'}"
        if w != "allowed reading"
        else f"{n} allowed reading{'s' if n != 1 else ''}"
        for w, n in counts.items()
    )
    verdict = (
        paint("passes", "32") + " (allowed readings only)"
        if report.verdict(strict)
        else paint("differs", "31")
    )
    lines = [
        head + verdict + f": {summary or 'no difference'} in {report.checked} games checked"
        f" ({report.cases_passed}/{report.cases} published cases pass; {seed},"
        f" {report.seconds:.1f} s)"
    ]
    if report.failure:
        lines.append("  " + paint(visible(report.failure), "31"))
    if report.cases_failed:
        lines.append(f"  published cases failing: {', '.join(report.cases_failed)}")
    if report.shared_state:
        lines.append(
            "  its answers depend on earlier games: state shared between LudoGame objects"
            " (e.g. a class attribute); every game was checked again in a fresh process"
        )
    for n, d in enumerate(report.differences, 1):
        lines.append("")
        lines.append(f"{n}. " + d.explain())
    return "\n".join(lines)


__all__ = [
    "DECISIONS",
    "READINGS",
    "CheckUsageError",
    "Difference",
    "Kind",
    "Report",
    "check",
    "check_seed",
    "fresh_seed",
    "published_cases",
    "render",
    "replay",
    "scenarios",
    "seed_text",
    "trace",
]
