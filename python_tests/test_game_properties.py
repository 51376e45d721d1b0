"""Property tests of the move-by-move `Game` API over the "cs162", "standard" and "gt" rule sets.

1. Random sequences of calls (rolls, given rolls, legal and illegal moves, junk, undo) on random
   games with random valid options: after every call the game's invariants hold, a call that
   raised changed nothing, and every round trip (notation, JSON, pickle, copy) is exact.
2. Junk thrown at every entry point (constructor, roll, play, from_notation, from_json): only
   `LudoError` or `TypeError`, and whatever is accepted round-trips.
3. Determinism: the same arguments and policy give the same game; undo returns to the start.
4. Standard rules: a move of n steps lands where n single steps would, and captures only there.

Every hypothesis test is derandomized and uses no example database, so a run is deterministic.
Bugs these tests once found are pinned by small tests at the end of the file.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import event as tally
from hypothesis import strategies as st

from LudoGame import (
    Game,
    GameOverError,
    IllegalMoveError,
    InvalidNotationError,
    InvalidRollError,
    LudoError,
    Move,
)

RULE_SETS = ("cs162", "standard", "gt")
SEATS = "ABCD"
OPTION_VALUES: dict[str, list[Any]] = {
    "tokens": [1, 2, 3, 4],
    "overshoot": ["bounce", "stay", "illegal"],
    "own_tokens": ["stack", "share", "bump", "block"],
    "forced_entry": [False, True],
    "six_bonus": ["never", "once", "always"],
    "six_limit": [0, 2, 3, 4],
    "capture_bonus": [False, True],
    "finish_bonus": [False, True],
    "safe_squares": [False, True],
    "end": ["first-winner", "full-ranking"],
}
ROLL_RESULTS = ("move", "cannot move", "forfeit")


def derandomized(max_examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Hypothesis settings shared by this file: deterministic, no database, no deadline."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )


# --------------------------------------------------------------------------
# Geometry of the three rule sets (DESIGN.md §2 and §4), written out independently.
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    """Where a rule set's routes run: steps on the shared track, home step, last step."""

    track_len: int
    offsets: tuple[int, int, int, int]
    first_track_step: int
    last_track_step: int
    home_step: int
    finish_step: int
    yard_slots: bool
    labels: str  # the fixed token names; empty when tokens are named by the seat (GT)


GEOMETRY = {
    "cs162": Geometry(56, (0, 14, 28, 42), 1, 50, 57, 57, False, "pqrs"),
    "standard": Geometry(52, (0, 13, 26, 39), 0, 50, 56, 56, False, "1234"),
    "gt": Geometry(40, (0, 10, 20, 30), 0, 39, 40, 41, True, ""),
}


def token_labels(rules: str, player: str, tokens: int) -> list[str]:
    """The names of `player`'s tokens under `rules` with `tokens` tokens each."""
    if rules == "gt":
        return [player, player.lower()][:tokens]
    return list(GEOMETRY[rules].labels[:tokens])


def track_square(rules: str, player: str, step: int) -> int | None:
    """The 0-based shared-track square of `player`'s token at `step`, None off the track."""
    geo = GEOMETRY[rules]
    if not geo.first_track_step <= step <= geo.last_track_step:
        return None
    offset = geo.offsets[SEATS.index(player)]
    return (offset + step - geo.first_track_step) % geo.track_len


def safe_squares(rules: str) -> set[int]:
    """The start squares and the squares 8 after them (safe when `safe_squares` is on)."""
    geo = GEOMETRY[rules]
    return {o for o in geo.offsets} | {(o + 8) % geo.track_len for o in geo.offsets}


def name_target(g: Game, name: str) -> tuple[str, str] | None:
    """The (player, token) a move name names in `g`, or None when it names no token."""
    tokens = int(g.options["tokens"])
    if g.rules == "gt":
        if len(name) == 1 and name in "ABCDabcd":
            player = name.upper()
            return (player, name) if name in token_labels("gt", player, tokens) else None
        return None
    labels = token_labels(g.rules, "A", tokens)
    if len(name) == 1 and name in labels:
        return (g.current_player, name)
    if len(name) == 2 and name[0] in SEATS and name[1] in labels:
        return (name[0], name[1])
    return None


def parse_token_name(rules: str, name: str) -> tuple[str, str]:
    """The (player, token) of a full token name as history writes it: 'C3', 'Bq', 'b'."""
    if rules == "gt":
        return (name.upper(), name)
    return (name[0], name[1])


# --------------------------------------------------------------------------
# Calling the API: only LudoError or TypeError may come out.
# --------------------------------------------------------------------------


def call(function: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[bool, Any]:
    """(True, result) or (False, error); any error but LudoError/TypeError fails the test."""
    try:
        return True, function(*args, **kwargs)
    except (LudoError, TypeError) as e:
        return False, e
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # a Rust panic is a BaseException (pyo3 PanicException)
        raise AssertionError(
            f"{getattr(function, '__qualname__', function)}{args!r} {kwargs!r} raised "
            f"{type(e).__module__}.{type(e).__qualname__}: {e}"
        ) from e


@dataclass
class Snapshot:
    """Everything a call that raised must leave unchanged."""

    notation: str
    history: list[dict[str, Any]]
    moves: str


def snapshot(g: Game) -> Snapshot:
    """The observable state and record of `g`."""
    return Snapshot(g.to_notation(), g.history, g.moves)


# --------------------------------------------------------------------------
# Invariants and round trips, checked after every call.
# --------------------------------------------------------------------------


def check_invariants(g: Game) -> None:
    """Phase, turn, legal moves, board, ranking and status agree with each other."""
    rules = g.rules
    assert rules in RULE_SETS
    geo = GEOMETRY[rules]
    options = g.options
    assert set(options) == set(OPTION_VALUES)
    tokens = int(options["tokens"])
    players = g.players
    phase = g.phase
    current = g.current_player
    legal = g.legal_moves
    to_move = g.tokens_to_move

    assert phase in ("roll", "move", "over")
    assert players and len(set(players)) == len(players) and players == sorted(players)
    assert current in players
    assert g.is_over() == (phase == "over")
    assert (len(legal) > 0) == (phase == "move"), (phase, legal)
    assert (g.pending_roll is not None) == (phase == "move")
    assert (len(to_move) > 0) == (phase == "move")
    names = [m.name for m in legal]
    assert len(set(names)) == len(names)
    labels = token_labels(rules, current, tokens)
    for m in legal:
        assert isinstance(m, Move)
        assert m.player == current and m.roll == g.pending_roll and m.token in to_move
        assert name_target(g, m.name) == (m.player, m.token)
        assert repr(m) == f"Move('{m.name}', roll={m.roll})"
    assert set(to_move) <= set(labels)

    steps = g.steps
    assert list(steps) == players
    lowest = -tokens if geo.yard_slots else -1
    for player, values in steps.items():
        assert len(values) == tokens
        assert all(lowest <= s <= geo.finish_step for s in values), (player, values)
        yard = [s for s in values if s < 0]
        if geo.yard_slots:
            assert len(set(yard)) == len(yard), f"two tokens on one start slot: {values}"
        out = [s for s in values if s >= 0]
        if options["own_tokens"] == "bump":
            assert len(set(out)) == len(out), f"own tokens share a square: {values}"
    if phase == "move" and options["own_tokens"] == "stack":
        mine = steps[current]
        for i, s in enumerate(mine):
            for j, t in enumerate(mine):
                if s == t and geo.first_track_step <= s < geo.finish_step:
                    assert (labels[i] in to_move) == (labels[j] in to_move), "split stack"

    occupants: dict[int, set[str]] = {}
    for player, values in steps.items():
        for s in values:
            square = track_square(rules, player, s)
            if square is not None:
                occupants.setdefault(square, set()).add(player)
    for square, who in occupants.items():
        if len(who) > 1:
            assert options["safe_squares"] and square in safe_squares(rules), (
                f"{sorted(who)} share track square {square}: {g.to_notation()}"
            )

    finished = [p for p in players if all(s >= geo.home_step for s in steps[p])]
    ranking = g.ranking
    assert len(set(ranking)) == len(ranking) and set(ranking) <= set(players)
    assert g.winner == (ranking[0] if ranking else None)
    assert set(finished) <= set(ranking), (finished, ranking)
    if phase == "over":
        # The game ends the moment the first player (first-winner), or all but one player
        # (full-ranking), has every token home: never later.
        if options["end"] == "first-winner":
            assert len(finished) == 1 and finished == ranking, (finished, ranking)
        else:
            assert sorted(ranking) == players
            assert len(finished) == max(len(players) - 1, 1), (finished, ranking)
            assert set(ranking[: len(finished)]) == set(finished)
        assert g.status == f"Player {g.winner} has won!"
    else:
        assert current not in finished, f"finished player {current} to play"
        assert set(ranking) == set(finished)
        if options["end"] == "first-winner":
            assert not finished
        elif len(players) > 1:
            assert len(players) - len(finished) >= 2
    if phase == "move":
        assert g.status == f"Player {current} to move."
    elif phase == "roll":
        tail = f"Player {current} to roll the die."
        assert g.status == tail or (
            g.status.endswith(" " + tail)
            and (" cannot move." in g.status or " rolled too many 6s " in g.status)
        ), g.status
    assert len(g.history) == len(g.moves.split())


def check_round_trips(g: Game) -> None:
    """Notation, JSON, pickle, copy, repr, text and SVG boards all describe `g` exactly."""
    notation = g.to_notation()
    history = g.history
    moves = g.moves

    n = Game.from_notation(notation)
    assert n == g and n.to_notation() == notation
    assert n.history == [] and n.moves == "" and n.seed is None
    assert repr(g) == f"Game.from_notation('{notation}')"

    for j in (Game.from_json(g.to_json()), pickle.loads(pickle.dumps(g))):
        assert j == g and j.to_notation() == notation
        assert j.history == history and j.moves == moves and j.seed == g.seed

    c = g.copy()
    assert c == g and c is not g and c.history == history and c.seed == g.seed
    assert copy.copy(g) == g and copy.deepcopy(g) == g
    if history:
        c.undo()
    elif c.phase == "roll":
        c.roll()
    elif c.phase == "move":
        c.play(c.legal_moves[0])
    assert c.moves != moves or c.phase == "over"
    assert g.to_notation() == notation and g.moves == moves, "a copy shares state"
    assert g != notation and g != object()

    last = str(g).splitlines()[-1]
    rolled = f" (rolled {g.pending_roll})" if g.phase == "move" else ""
    assert last == g.status + rolled, (last, g.status)
    root = ET.fromstring(g._repr_svg_())
    assert root.tag.endswith("svg")


def check_all(g: Game) -> None:
    """Invariants and round trips."""
    check_invariants(g)
    check_round_trips(g)


# --------------------------------------------------------------------------
# Random games.
# --------------------------------------------------------------------------


@dataclass
class GameArgs:
    """The arguments of a `Game(...)` call."""

    rules: str
    players: str | list[str] | int | None
    seed: int
    options: dict[str, Any]

    def make(self) -> Game:
        """A new game from these arguments."""
        return Game(self.rules, self.players, self.seed, **self.options)


players_arg: st.SearchStrategy[str | list[str] | int | None] = st.one_of(
    st.none(),
    st.integers(1, 4),
    st.lists(st.sampled_from(SEATS), min_size=1, max_size=4, unique=True).flatmap(
        lambda ps: st.sampled_from(["".join(ps), ps])
    ),
)


@st.composite
def game_args(draw: st.DrawFn) -> GameArgs:
    """A rule set, a valid combination of options, players and a seed."""
    rules = draw(st.sampled_from(RULE_SETS))
    options = draw(
        st.fixed_dictionaries(
            {}, optional={k: st.sampled_from(v) for k, v in OPTION_VALUES.items()}
        )
    )
    args = GameArgs(rules, draw(players_arg), draw(st.integers(0, 2**64 - 1)), options)
    ok, result = call(args.make)
    if not ok:
        note(f"refused: {result!r}")
    assume(ok)
    return args


def play_policy(g: Game, events: int, seed: int) -> list[tuple[str, str]]:
    """Play `events` rolls and moves with a seeded random policy; the notation and moves
    before each event, oldest first (for checking undo)."""
    rng = random.Random(seed)
    before: list[tuple[str, str]] = []
    for _ in range(events):
        if g.is_over():
            break
        before.append((g.to_notation(), g.moves))
        if g.phase == "roll":
            if rng.random() < 0.2:
                g.roll(rng.randint(1, 6))
            else:
                g.roll()
        else:
            move = rng.choice(g.legal_moves)
            g.play(move if rng.random() < 0.5 else move.name)
    return before


@st.composite
def games_in_play(draw: st.DrawFn) -> tuple[Game, list[tuple[str, str]]]:
    """A random game after a random number of policy events (short or long, possibly near
    or at its end), sometimes cut from its history; and the (notation, moves) before each
    recorded event."""
    args = draw(game_args())
    g = args.make()
    events = draw(st.sampled_from([0, 3, 10, 30, 80, 150, 300, 600, 1200, 2500]))
    before = play_policy(g, events, draw(st.integers(0, 2**32)))
    if g.is_over():  # often step back to just before the end: finishing, ranking, game over
        for _ in range(min(draw(st.integers(0, 40)), len(before))):
            g.undo()
            before.pop()
    if draw(st.integers(0, 3)) == 0:
        g = Game.from_notation(g.to_notation())
        before = []
    note(f"start: {g.to_notation()!r} with {len(before)} events")
    tally(f"start: {g.rules}, phase {g.phase}, {'long' if len(before) > 100 else 'short'}")
    return g, before


junk: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**100, -1, -(2**63) - 1, -(2**100)]),
    st.floats(),
    st.text(max_size=6),
    st.binary(max_size=4),
    st.lists(st.one_of(st.text(max_size=2), st.integers()), max_size=4),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=3),
    st.tuples(st.text(max_size=2), st.integers()),
    st.builds(object),
    st.sampled_from(["A", "AC", "ABCD", "p", "Ap", "C3", "a", "cs162", "gt", "standard", "6"]),
)

ACTIONS = (
    ["roll"] * 3
    + ["roll_value"] * 5
    + ["play_legal"] * 8
    + ["play_name"] * 3
    + ["play_stale", "play_junk", "roll_junk", "undo", "six_run"]
)
SIX_RUN = ["roll_six", "play_legal"] * 3  # 6s in a row: six limits, once/always bonuses


def expected_play(g: Game, target: tuple[str, str] | None, roll: int | None) -> bool:
    """Is playing `target` (player, token) with `roll` legal in `g` now?"""
    return (
        g.phase == "move"
        and target is not None
        and target[0] == g.current_player
        and roll == g.pending_roll
        and target[1] in g.tokens_to_move
    )


def check_move_effects(
    rules: str, before: dict[str, list[int]], after: dict[str, list[int]], event: dict[str, Any]
) -> None:
    """A move changed exactly the mover's moved tokens and the captured ones, as recorded."""
    geo = GEOMETRY[rules]
    mover = event["player"]
    tokens = len(before[mover])
    labels = token_labels(rules, mover, tokens)
    for i, label in enumerate(labels):
        if label in event["tokens"]:
            assert before[mover][i] == event["from"] and after[mover][i] == event["to"]
        else:
            assert after[mover][i] == before[mover][i]
    captured = {parse_token_name(rules, name) for name in event["captured"]}
    landing = track_square(rules, mover, event["to"])
    for player, values in before.items():
        if player == mover:
            continue
        for i, label in enumerate(token_labels(rules, player, tokens)):
            if (player, label) in captured:
                assert landing is not None and event["to"] != event["from"]
                assert track_square(rules, player, values[i]) == landing
                assert after[player][i] < 0
            else:
                assert after[player][i] == values[i]
    assert event["reached_home"] == (event["from"] < geo.home_step <= event["to"])


def next_to_play(g: Game, player: str) -> str:
    """The first player after `player` (in A-D order, cyclically) who has not finished."""
    home = GEOMETRY[g.rules].home_step
    steps = g.steps
    order = g.players
    i = order.index(player)
    for k in range(1, len(order) + 1):
        other = order[(i + k) % len(order)]
        if not all(s >= home for s in steps[other]):
            return other
    return player


def check_turn(g: Game, notation_before: str, event: dict[str, Any]) -> None:
    """Who plays after a roll or a move, and the extra rolls, follow the rule options: 6s
    (never/once/always, the six limit), capture and finish bonuses, finishing players."""
    options = g.options
    mover = event["player"]
    _, sixes, extra = notation_before.split(" ")[2].split(":")[1:]
    six_rolls_again = options["six_bonus"] == "always" or (
        options["six_bonus"] == "once" and extra == "0"
    )
    if event["kind"] == "roll":
        value = event["value"]
        limit = int(options["six_limit"])
        forfeit = value == 6 and limit > 0 and int(sixes) + 1 >= limit
        assert (event["result"] == "forfeit") == forfeit, (notation_before, event)
        if event["result"] == "move":
            assert g.phase == "move" and g.pending_roll == value and g.current_player == mover
            return
        assert g.phase == "roll"
        again = event["result"] == "cannot move" and value == 6 and six_rolls_again
        why = "cannot move" if event["result"] == "cannot move" else "rolled too many 6s"
        assert g.status.startswith(f"Player {mover} {why}"), g.status
    else:
        assert event["finished"] == all(s >= GEOMETRY[g.rules].home_step for s in g.steps[mover])
        again = not event["finished"] and (
            (event["roll"] == 6 and six_rolls_again)
            or (bool(options["capture_bonus"]) and bool(event["captured"]))
            or (bool(options["finish_bonus"]) and event["reached_home"])
        )
        assert event["extra_roll"] == again, (notation_before, event)
        if g.phase == "over":
            assert event["finished"]
            return
    assert g.current_player == (mover if again else next_to_play(g, mover)), (
        notation_before,
        event,
    )


@pytest.mark.slow
@derandomized(max_examples=200)
@given(st.data(), games_in_play(), st.lists(game_args(), max_size=1))
def test_random_call_sequences_keep_every_invariant(
    data: st.DataObject, start: tuple[Game, list[tuple[str, str]]], others: list[GameArgs]
) -> None:
    """Random rolls, moves, junk and undos: invariants hold and round trips are exact after
    every call, each call succeeds exactly when the rules say so, a call that raised changed
    nothing, and a successful call is recorded exactly once in `history` and `moves`."""
    g, undo_stack = start
    rules = g.rules
    seen: list[Move] = list(g.legal_moves)
    foreign: list[Move] = []
    for args in others:
        h = args.make()
        play_policy(h, 40, 1)
        foreign = h.legal_moves
    check_all(g)
    queue: list[str] = []
    for _ in range(data.draw(st.integers(5, 40), label="calls")):
        action = queue.pop(0) if queue else data.draw(st.sampled_from(ACTIONS), label="action")
        if action == "six_run":
            queue = list(SIX_RUN)
            action = queue.pop(0)
        before = snapshot(g)
        prev_steps = g.steps
        prev_player = g.current_player
        prev_phase = g.phase
        expected: bool | None
        value: Any = None
        if action == "roll":
            expected = prev_phase == "roll"
            ok, result = call(g.roll)
        elif action in ("roll_value", "roll_six"):
            value = 6
            if action == "roll_value":
                value = data.draw(st.sampled_from([1, 2, 3, 4, 5, 6, 6, 6]), label="value")
            expected = prev_phase == "roll"
            ok, result = call(g.roll, value)
        elif action == "roll_junk":
            value = data.draw(junk, label="roll junk")
            expected = None
            ok, result = call(g.roll, value)
            valid = value is None or (type(value) is int and 1 <= value <= 6)
            assert ok == (valid and prev_phase == "roll"), (value, result)
            if not ok and not valid:
                assert isinstance(result, (InvalidRollError, TypeError)), result
        elif action == "play_legal":
            if not g.legal_moves:
                continue
            value = data.draw(st.sampled_from(g.legal_moves), label="move")
            if data.draw(st.booleans(), label="by name"):
                value = value.name
            expected = True
            ok, result = call(g.play, value)
        elif action == "play_name":
            tokens = int(g.options["tokens"])
            names = [
                p + t if rules != "gt" else t for p in SEATS for t in token_labels(rules, p, tokens)
            ] + token_labels(rules, g.current_player, tokens)
            value = data.draw(st.one_of(st.sampled_from(names), st.text(max_size=3)), label="name")
            expected = expected_play(g, name_target(g, value), g.pending_roll)
            ok, result = call(g.play, value)
        elif action == "play_stale":
            if not seen:
                continue
            value = data.draw(st.sampled_from(seen), label="stale move")
            expected = expected_play(g, (value.player, value.token), value.roll)
            ok, result = call(g.play, value)
        elif action == "play_junk":
            strategy = st.one_of(junk, st.sampled_from(foreign)) if foreign else junk
            value = data.draw(strategy, label="junk")
            if isinstance(value, str):
                expected = expected_play(g, name_target(g, value), g.pending_roll)
            elif isinstance(value, Move):
                expected = None
            else:
                expected = False
            ok, result = call(g.play, value)
            if not isinstance(value, (str, Move)):
                assert isinstance(result, TypeError), result
        else:  # undo
            expected = bool(before.history)
            ok, result = call(g.undo)
        note(f"{action}({value!r}) -> {ok}, {result!r}")
        tally(f"{action} {'ok' if ok else 'refused'}")
        if ok and action != "undo":
            last = g.history[-1]
            tally(f"roll: {last['result']}" if last["kind"] == "roll" else "move")
            if last["kind"] == "move":
                for key in ("captured", "reached_home", "extra_roll", "finished", "bounced"):
                    if last[key]:
                        tally(f"move: {key}")
        if expected is not None:
            assert ok == expected, (action, value, result, before.notation)

        if not ok:
            after = snapshot(g)
            assert after == before, f"{action}({value!r}) raised {result!r} but changed the game"
            if action in ("roll", "roll_value", "roll_six") and prev_phase == "over":
                assert isinstance(result, GameOverError)
            elif action in ("roll", "roll_value", "roll_six"):
                assert isinstance(result, IllegalMoveError)
            elif action == "undo":
                assert isinstance(result, IllegalMoveError)
            elif action == "play_stale" and prev_phase == "over":
                assert isinstance(result, GameOverError)
            elif action.startswith("play") and isinstance(result, LudoError):
                assert isinstance(result, (IllegalMoveError, GameOverError)), result
        elif action == "undo":
            history = before.history[:-1]
            assert g.history == history and g.moves == " ".join(before.moves.split()[:-1])
            if undo_stack:
                notation, moves = undo_stack.pop()
                assert g.to_notation() == notation and g.moves == moves
        else:
            undo_stack.append((before.notation, before.moves))
            history = g.history
            assert history[:-1] == before.history
            event = history[-1]
            words = g.moves.split()
            assert words[:-1] == before.moves.split()
            assert event["player"] == prev_player
            if action.startswith("roll"):
                assert event["kind"] == "roll" and event["value"] == result
                assert 1 <= result <= 6 and event["result"] in ROLL_RESULTS
                given_value = value is not None
                assert event["die"] is not given_value
                assert words[-1] == (f"={result}" if given_value else str(result))
                if given_value:
                    assert result == value
                assert g.steps == prev_steps
            else:
                assert result is None
                assert event["kind"] == "move" and words[-1] == event["move"]
                check_move_effects(rules, prev_steps, g.steps, event)
            check_turn(g, before.notation, event)
            seen.extend(g.legal_moves)
        check_all(g)


# --------------------------------------------------------------------------
# Junk at every entry point.
# --------------------------------------------------------------------------

# Text of any kind, lone surrogates included (they once raised UnicodeEncodeError).
safe_text = st.text(max_size=8)
ctor_junk: st.SearchStrategy[Any] = junk


@derandomized(max_examples=600)
@given(
    st.one_of(st.sampled_from([*RULE_SETS, "CS162", "Standard", "GT", "chess", ""]), junk),
    st.one_of(players_arg, ctor_junk),
    st.one_of(st.integers(0, 2**64 - 1), junk),
    st.dictionaries(
        st.one_of(
            st.sampled_from(list(OPTION_VALUES)),
            # not the constructor's own keywords (that would be the test's TypeError)
            safe_text.filter(lambda k: k not in ("rules", "players", "seed")),
        ),
        st.one_of(st.sampled_from([v for vs in OPTION_VALUES.values() for v in vs]), junk),
        max_size=4,
    ),
    st.booleans(),
)
def test_constructor_junk(
    rules: Any, players: Any, seed: Any, options: dict[str, Any], by_keyword: bool
) -> None:
    """Any arguments: Game(...) raises only LudoError or TypeError, or makes a sound game
    whose rules, players, seed and options are the ones asked for."""
    if by_keyword:
        ok, g = call(Game, rules=rules, players=players, seed=seed, **options)
    else:
        ok, g = call(Game, rules, players, seed, **options)
    if not ok:
        return
    if rules is None:
        rules = "cs162"  # rules=None means the default rule set
    assert isinstance(rules, str) and g.rules == rules.lower()
    assert seed is None or g.seed == seed
    if isinstance(players, int):
        assert len(g.players) == players
    elif isinstance(players, (str, list)):
        assert sorted(g.players) == sorted(players)
    for name, value in options.items():
        assert name in OPTION_VALUES
        if isinstance(value, str):
            assert g.options[name] == value.lower().replace("_", "-")
        else:
            assert g.options[name] == value and type(g.options[name]) is type(value)
    check_all(g)


@derandomized(max_examples=120)
@given(games_in_play(), st.lists(junk, min_size=1, max_size=5))
def test_roll_and_play_junk(start: tuple[Game, list[tuple[str, str]]], values: list[Any]) -> None:
    """Any value given to roll() or play(): LudoError or TypeError and no change, or a
    normal call (a die value 1-6, None, or a legal move's name)."""
    g = start[0]
    for value in values:
        for method in (g.roll, g.play):
            before = snapshot(g)
            ok, _ = call(method, value)
            if not ok:
                assert snapshot(g) == before
    check_all(g)


def mutate(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply character edits (0 insert, 1 delete, 2 substitute; at a position; a char)."""
    chars = list(text)
    for kind, where, char in edits:
        i = where % (len(chars) + 1)
        if kind == 0 or not chars:
            chars.insert(i, char)
        elif kind == 1:
            del chars[min(i, len(chars) - 1)]
        else:
            chars[min(i, len(chars) - 1)] = char
    return "".join(chars)


@st.composite
def changed_positions(draw: st.DrawFn, game: Game) -> str:
    """`game`'s notation with a few of its parts changed to other plausible values: a token's
    step count (often near the end), a whole player brought home, the current player, the
    phase, the counters, the last pass, the ranking, the die, the rule options, an ending."""
    rules_field, board, turn, passed, ranking, die = game.to_notation().split(" ")
    geo = GEOMETRY[game.rules]
    steps = {part[0]: part[1:].split(".") for part in board.split("/")}
    current, phase, sixes, extra = turn.split(":")
    step_values = st.one_of(
        st.integers(-5, geo.finish_step + 2),
        st.integers(geo.home_step - 6, geo.finish_step + 1),
        st.just(-1),
    )
    seats = st.sampled_from(SEATS)
    for _ in range(draw(st.integers(1, 4))):
        what = draw(st.integers(0, 10))
        player = draw(st.sampled_from(sorted(steps)))
        if what <= 1:
            i = draw(st.integers(0, len(steps[player]) - 1))
            steps[player][i] = str(draw(step_values))
        elif what == 2:
            home = st.integers(geo.home_step, geo.finish_step).map(str)
            steps[player] = [draw(home) for _ in steps[player]]
        elif what == 3:
            current = draw(seats)
        elif what == 4:
            phase = draw(st.sampled_from(["r", "o", "m1", "m2", "m3", "m4", "m5", "m6"]))
        elif what == 5:
            sixes, extra = str(draw(st.integers(0, 5))), draw(st.sampled_from("01"))
        elif what == 6:
            passed = draw(st.sampled_from(["-", player, player + "!", "E"]))
        elif what == 7:
            order = draw(st.permutations(sorted(steps)))
            ranking = "".join(order[: draw(st.integers(0, len(order)))]) or "-"
        elif what == 8:
            die = f"{draw(st.integers(0, 2**64 - 1)):016x}"
        elif what == 9:
            order = draw(st.permutations(sorted(steps)))
            done = draw(st.integers(1, len(order)))
            for p in order[:done]:
                steps[p] = [str(geo.finish_step)] * len(steps[p])
            ranking = "".join(order[: draw(st.integers(done, len(order)))])
            phase = draw(st.sampled_from(["o", "r"]))
        else:
            name = draw(st.sampled_from(["end", "safe_squares", "six_limit", "capture_bonus"]))
            value = draw(st.sampled_from(OPTION_VALUES[name]))
            value = str(value).lower() if isinstance(value, bool) else value
            rules_field = game.rules + f"[{name}={value}]"
    board = "/".join(p + ".".join(v) for p, v in steps.items())
    return " ".join(
        [rules_field, board, f"{current}:{phase}:{sixes}:{extra}", passed, ranking, die]
    )


notation_chars = st.one_of(
    st.sampled_from("0123456789abcdef.-/:![]=,_ ABCDErmopq"),
    st.characters(exclude_categories=["Cs"]),
)
edit_lists = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 400), notation_chars), min_size=1, max_size=4
)


def too_many_finished(g: Game) -> bool:
    """A finished game with more players home than can be (refused by from_notation since
    `test_from_notation_refuses_games_that_ended_too_late`)."""
    geo = GEOMETRY[g.rules]
    steps = g.steps
    finished = [p for p in g.players if all(s >= geo.home_step for s in steps[p])]
    most = 1 if g.options["end"] == "first-winner" else max(len(g.players) - 1, 1)
    return len(finished) > most


def check_parsed(g: Game, seed: int) -> None:
    """A game read from text is sound, round-trips, and plays on soundly for a while."""
    assert not too_many_finished(g), "from_notation accepted a game that ended too late"
    check_all(g)
    again = Game.from_notation(g.to_notation())
    assert again == g and again.to_notation() == g.to_notation()
    rng = random.Random(seed)
    for _ in range(12):
        if g.is_over():
            break
        if g.phase == "roll":
            call(g.roll, rng.choice([None, 1, 6, 6]))
        else:
            call(g.play, rng.choice(g.legal_moves))
        check_invariants(g)
    check_round_trips(g)


@derandomized(max_examples=800)
@given(
    st.one_of(
        safe_text,
        st.text(
            alphabet=st.sampled_from("0123456789.-/:![]=,ABCDmro cs162standardgt"), max_size=60
        ),
    )
)
def test_from_notation_random_text(text: str) -> None:
    """Random text: from_notation raises LudoError, or reads a game that round-trips."""
    ok, g = call(Game.from_notation, text)
    if ok:
        check_parsed(g, 0)
    else:
        assert isinstance(g, LudoError), g


@pytest.mark.slow
@derandomized(max_examples=350)
@given(games_in_play(), edit_lists, st.integers(0, 2**16))
def test_from_notation_mutated(
    start: tuple[Game, list[tuple[str, str]]], edits: list[tuple[int, int, str]], seed: int
) -> None:
    """A real position's notation with a few characters inserted, deleted or changed:
    from_notation raises LudoError, or reads a sound game that round-trips and plays on."""
    text = mutate(start[0].to_notation(), edits)
    note(text)
    ok, g = call(Game.from_notation, text)
    tally("parsed" if ok else "refused")
    if ok:
        check_parsed(g, seed)


@pytest.mark.slow
@derandomized(max_examples=450)
@given(st.data(), games_in_play(), st.integers(0, 2**16))
def test_from_notation_with_changed_parts(
    data: st.DataObject, start: tuple[Game, list[tuple[str, str]]], seed: int
) -> None:
    """A real position's notation with whole parts changed (step counts, the current player,
    the phase, the counters, the ranking, the die, the options): from_notation raises
    LudoError, or reads a sound game that round-trips and plays on."""
    text = data.draw(changed_positions(start[0]), label="position")
    note(text)
    ok, g = call(Game.from_notation, text)
    tally("parsed" if ok else "refused")
    if ok:
        check_parsed(g, seed)


@st.composite
def field_edits(draw: st.DrawFn, game: Game) -> str:
    """A game's JSON with its fields changed: junk values, mutated text, missing fields."""
    d: dict[str, Any] = json.loads(game.to_json())
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(["format", "seed", "start", "moves", "position", "extra"]))
        how = draw(st.integers(0, 3))
        if how == 0:
            d.pop(key, None)
        elif how == 1 and isinstance(d.get(key), str):
            d[key] = mutate(d[key], draw(edit_lists))
        elif how == 2:
            d[key] = draw(
                st.one_of(
                    st.none(),
                    st.booleans(),
                    st.integers(),
                    st.floats(allow_nan=False),
                    safe_text,
                    st.lists(st.integers(), max_size=2),
                )
            )
        elif key == "moves" and d.get("moves"):
            words = str(d["moves"]).split()
            d["moves"] = " ".join(words[: draw(st.integers(0, len(words)))])
    return json.dumps(d)


@derandomized(max_examples=200)
@given(st.data(), games_in_play(), edit_lists)
def test_from_json_mutated(
    data: st.DataObject,
    start: tuple[Game, list[tuple[str, str]]],
    edits: list[tuple[int, int, str]],
) -> None:
    """A real game's JSON, mutated as text or field by field: from_json raises LudoError, or
    reads a game whose JSON reads back to an equal game with the same history.  Text that is
    no longer JSON at all raises an InvalidNotationError."""
    g = start[0]
    if data.draw(st.booleans(), label="as text"):
        text = mutate(g.to_json(), edits)
    else:
        text = data.draw(field_edits(g), label="fields")
    note(text)
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        with pytest.raises(InvalidNotationError):
            Game.from_json(text)
        return
    ok, h = call(Game.from_json, text)
    tally("JSON read" if ok else "JSON refused")
    if ok:
        check_all(h)
        again = Game.from_json(h.to_json())
        assert again == h and again.history == h.history and again.moves == h.moves


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | safe_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(safe_text, inner, max_size=3),
    max_leaves=8,
)


@derandomized(max_examples=300)
@given(st.one_of(safe_text, json_values.map(json.dumps)))
def test_from_json_random_text(text: str) -> None:
    """Random text and random JSON: from_json raises LudoError (InvalidNotationError when the
    text is not JSON at all), or reads a game that round-trips."""
    try:
        json.loads(text)
    except ValueError:
        with pytest.raises(InvalidNotationError):
            Game.from_json(text)
        return
    ok, g = call(Game.from_json, text)
    if ok:
        check_all(g)


# --------------------------------------------------------------------------
# Determinism and undo.
# --------------------------------------------------------------------------


@derandomized(max_examples=80)
@given(game_args(), st.integers(0, 400), st.integers(0, 2**32))
def test_same_arguments_and_policy_give_the_same_game(
    args: GameArgs, events: int, policy: int
) -> None:
    """Two games with the same rules, options, players and seed, played by the same policy,
    are identical; undoing everything gives back the fresh game, which replays the same."""
    a, b = args.make(), args.make()
    before_a = play_policy(a, events, policy)
    play_policy(b, events, policy)
    assert a == b and a.to_notation() == b.to_notation()
    assert a.history == b.history and a.moves == b.moves and a.to_json() == b.to_json()
    end, history = a.to_notation(), a.history
    while a.history:
        notation, moves = before_a.pop()
        a.undo()
        assert a.to_notation() == notation and a.moves == moves
    assert not before_a
    fresh = args.make()
    assert a == fresh and a.to_notation() == fresh.to_notation() and a.moves == ""
    assert a.to_json() == fresh.to_json()
    play_policy(a, events, policy)
    assert a.to_notation() == end and a.history == history


@derandomized(max_examples=25)
@given(game_args(), st.one_of(st.just(600), st.integers(0, 600)))
def test_long_runs_of_sixes(args: GameArgs, sixes: int) -> None:
    """Hundreds of 6s in a row (no six limit, every 6 rolls again): the turn's counter of 6s
    neither overflows nor breaks the notation, and the game stays sound."""
    args.options.update(six_bonus="always", six_limit=0)
    ok, g = call(args.make)
    assume(ok)
    for i in range(sixes):
        if g.phase == "over":
            break
        if g.phase == "roll":
            g.roll(6)
        else:
            g.play(g.legal_moves[0])
        if i % 100 == 0:
            check_invariants(g)
    check_all(g)


# --------------------------------------------------------------------------
# Standard rules: n steps at once = n single steps; captures only where a move ends.
# --------------------------------------------------------------------------

STANDARD_VARIANTS: list[dict[str, Any]] = [
    {},
    {"tokens": 1},
    {"safe_squares": True},
    {"own_tokens": "block", "tokens": 2},
]


def standard_position(
    rules_field: str, tokens: int, player: str, steps: dict[str, int], die: str = "1"
) -> str:
    """A standard position, all four players, `player` to roll: each player's first token
    at the given step (yard if absent), every other token in the yard."""
    board = "/".join(p + ".".join([str(steps.get(p, -1))] + ["-1"] * (tokens - 1)) for p in SEATS)
    return f"{rules_field} {board} {player}:r:0:0 - - {int(die):016x}"


@pytest.mark.parametrize("options", STANDARD_VARIANTS, ids=lambda o: str(o) or "defaults")
@pytest.mark.parametrize("player", list(SEATS))
def test_standard_n_steps_equal_n_single_steps(player: str, options: dict[str, Any]) -> None:
    """Standard rules: from every step 0-55 with every roll 1-6, a move of n lands where n
    moves of 1 land; a move that would pass 56 is not legal (no other tokens in the way)."""
    tokens = int(options.get("tokens", 4))
    rules_field = Game("standard", 4, seed=1, **options).to_notation().split()[0]
    name = f"{player}1"

    def single(step: int) -> int | None:
        g = Game.from_notation(standard_position(rules_field, tokens, player, {player: step}))
        g.roll(1)
        if name not in [m.name for m in g.legal_moves]:
            return None
        g.play(name)
        return g.steps[player][0]

    one_step = {s: single(s) for s in range(56)}
    assert one_step == {s: s + 1 for s in range(56)}
    for s in range(56):
        for n in range(1, 7):
            text = standard_position(rules_field, tokens, player, {player: s})
            g = Game.from_notation(text)
            assert g.roll(n) == n
            legal = [m.name for m in g.legal_moves]
            walked: int | None = s
            for _ in range(n):
                walked = one_step.get(walked) if walked is not None else None
            if walked is None:
                assert name not in legal, (text, n)
                if n < 6 or tokens == 1:
                    assert g.phase == "roll" and g.history[-1]["result"] == "cannot move"
                continue
            assert name in legal, (text, n)
            g.play(name)
            expected = {p: [-1] * tokens for p in SEATS}
            expected[player][0] = walked
            assert g.steps == expected, (text, n)
            assert g.history[-1]["to"] == walked == s + n


@pytest.mark.parametrize("player", list(SEATS))
def test_standard_captures_only_on_the_landing_square(player: str) -> None:
    """Standard rules: an opponent on the square a move ends on goes to its yard; one on a
    square the move only passes stays (for every start step 0-49 and roll 1-6); entering
    on a 6 captures an opponent on the start square."""
    rules_field = "standard"
    for s in range(50):
        for n in range(1, 7):
            if s + n > 50:
                continue
            for k in range(1, n + 1):
                square = track_square("standard", player, s + k)
                assert square is not None
                for other in SEATS:
                    if other == player:
                        continue
                    their = (square - GEOMETRY["standard"].offsets[SEATS.index(other)]) % 52
                    if their > 50:
                        continue  # the square before their start: they never stand there
                    text = standard_position(rules_field, 4, player, {player: s, other: their})
                    g = Game.from_notation(text)
                    g.roll(n)
                    g.play(f"{player}1")
                    assert g.steps[player][0] == s + n
                    landed = k == n
                    assert (g.steps[other][0] == -1) == landed, (text, n)
                    assert g.history[-1]["captured"] == ([f"{other}1"] if landed else [])
    start = track_square("standard", player, 0)
    assert start is not None
    for other in SEATS:
        their = (start - GEOMETRY["standard"].offsets[SEATS.index(other)]) % 52
        if other == player or their > 50:
            continue
        g = Game.from_notation(standard_position(rules_field, 4, player, {other: their}))
        g.roll(6)
        g.play(f"{player}1")
        assert g.steps[player][0] == 0 and g.steps[other][0] == -1, "entering captures"


# --------------------------------------------------------------------------
# Bugs this file found once, pinned so they stay fixed.
# --------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "00", "{not json", '{"format": ', "ludo"])
def test_from_json_text_that_is_not_json_raises_a_ludo_error(text: str) -> None:
    """Text that is not JSON at all is refused with a LudoError (InvalidNotationError)."""
    ok, _ = call(Game.from_json, text)
    assert not ok


def test_from_json_deeply_nested_text_raises_a_ludo_error() -> None:
    """JSON nested too deeply to read is refused with a LudoError."""
    ok, _ = call(Game.from_json, "[" * 100_000)
    assert not ok


@pytest.mark.parametrize("players", [2**63, 2**100, -(2**63) - 1, -(2**100)])
def test_huge_players_count_is_a_ludo_error(players: int) -> None:
    """A players count far out of range is refused with a LudoError."""
    with pytest.raises(LudoError):
        Game("cs162", players)


@pytest.mark.parametrize(
    "entry",
    ["rules", "option name", "from_notation", "from_json"],
)
def test_lone_surrogates_are_refused_with_ludo_errors(entry: str) -> None:
    """Text that is not valid Unicode scalar values is refused with a LudoError."""
    bad = "\ud800"
    calls: dict[str, Callable[[], Any]] = {
        "rules": lambda: Game(bad),
        "option name": lambda: Game("cs162", **{bad: 1}),
        "from_notation": lambda: Game.from_notation(bad),
        "from_json": lambda: Game.from_json(bad),
    }
    ok, _ = call(calls[entry])
    assert not ok


@pytest.mark.parametrize(
    "text",
    [
        "gt A40.41/B40.41/C-1.-2/D-1.-2 A:o:0:0 - AB 0000000000000001",
        "cs162[tokens=1,end=first-winner] A57/C57 A:o:0:0 - AC 0000000000000000",
        "cs162 A57.57/C57.57 A:o:0:0 - AC 0000000000000000",
        "standard A56.56.56.56/B56.56.56.56/C56.56.56.56 A:o:0:0 - CBA 0000000000000000",
    ],
)
def test_from_notation_refuses_games_that_ended_too_late(text: str) -> None:
    """A game ends as soon as its end condition holds, so a position past it is refused."""
    with pytest.raises(InvalidNotationError):
        Game.from_notation(text)
