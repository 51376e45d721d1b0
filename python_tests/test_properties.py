"""Property tests of the CS162 API: invariants of random games, agreement with the plain-Python
reference (benches/cs162_reference.py), and junk input thrown at every public method (D13).

Every hypothesis test is derandomized and uses no example database, so a run is deterministic.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from LudoGame import LudoError, LudoGame, Player

BENCHES = Path(__file__).resolve().parents[1] / "benches"
if str(BENCHES) not in sys.path:
    sys.path.insert(0, str(BENCHES))

import cs162_reference as ref  # type: ignore[import-not-found]  # noqa: E402
import workloads  # type: ignore[import-not-found]  # noqa: E402

POSITIONS = ("A", "B", "C", "D")
START_SPACES = {"A": 1, "B": 15, "C": 29, "D": 43}
NOT_FOUND = "Player not found!"
REPLAY_EVERY = 25

Turn = tuple[str, int]
# (position, p steps, q steps, completed) of every player, in players-list order.
State = tuple[tuple[str, int, int, bool], ...]


def derandomized(max_examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Hypothesis settings shared by this file: deterministic, no database, no deadline."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# --------------------------------------------------------------------------
# Helpers: geometry, state snapshots, invariants.
# --------------------------------------------------------------------------


def track_space(position: str, steps: int) -> int | None:
    """The shared-track space (1..56) of `steps` of the player at `position`, None off-track."""
    if not 1 <= steps <= 50:
        return None
    return (START_SPACES[position] - 1 + steps - 1) % 56 + 1


def is_stacked_steps(p: int, q: int) -> bool:
    """D6/D8: two tokens are stacked when they share a track space or a home square."""
    return p == q and 1 <= p <= 56


def state_of(game: LudoGame) -> State:
    """The step counts and completed flags of every player of `game`."""
    return tuple(
        (
            player.position,
            player.get_token_p_step_count(),
            player.get_token_q_step_count(),
            player.get_completed(),
        )
        for player in game.players
    )


def ref_state_of(game: ref.LudoGame, players: Sequence[str]) -> State:
    """The same snapshot as `state_of`, taken from a reference game."""
    state = []
    for position in players:
        player = game.get_player_by_position(position)
        assert isinstance(player, ref.Player)
        state.append(
            (
                position,
                player.get_token_p_step_count(),
                player.get_token_q_step_count(),
                player.get_completed(),
            )
        )
    return tuple(state)


def check_invariants(game: LudoGame, before: State | None = None, mover: str | None = None) -> None:
    """Check the invariants of the current game; with `before`, those of the last change too.

    `mover` is the position that just moved (play_turn or move_token), if any.
    """
    occupied: dict[int, str] = {}
    spaces: list[str] = []
    after = state_of(game)
    for player, (position, p, q, completed) in zip(game.players, after, strict=True):
        assert -1 <= p <= 57 and -1 <= q <= 57, (position, p, q)
        assert player.steps == (p, q)
        assert completed is player.completed
        assert completed is (p == q == 57), (position, p, q, completed)
        names = (player.get_space_name(p), player.get_space_name(q))
        assert player.spaces == names
        spaces.extend(names)
        for steps in {p, q}:
            space = track_space(position, steps)
            if space is None:
                continue
            # D7: a landing kicks, so two players never share a track space.
            assert occupied.setdefault(space, position) == position, (space, after)
    assert game.get_spaces() == spaces
    if before is None:
        return
    assert [entry[0] for entry in before] == [entry[0] for entry in after]
    for (position, p0, q0, done0), (_, p1, q1, done1) in zip(before, after, strict=True):
        if done0:
            # D10: a completed player never changes again.
            assert (p1, q1, done1) == (p0, q0, True), position
        if is_stacked_steps(p0, q0):
            # D8: a stacked pair moves together (or is kicked home together, D7).
            assert p1 == q1, (position, (p0, q0), (p1, q1))
        if position == mover:
            # The mover's own tokens never go back to the yard.
            assert (p1 == -1) <= (p0 == -1) and (q1 == -1) <= (q0 == -1), position
            continue
        for old, new in ((p0, p1), (q0, q1)):
            if new == old:
                continue
            # A token of a player who did not move only changes by being kicked (D7): it was
            # on the track, and the mover now stands on that space.
            assert new == -1 and 1 <= old <= 50, (position, old, new)
            assert mover is not None
            landing = track_space(position, old)
            mover_steps = next(entry[1:3] for entry in after if entry[0] == mover)
            assert landing in {track_space(mover, s) for s in mover_steps}, (position, old)


def describe_change(before: State, after: State, moved: str | None) -> set[str]:
    """Labels of what happened in one move, for hypothesis statistics."""
    labels = set()
    for (_, p0, q0, done0), (_, p1, q1, done1) in zip(before, after, strict=True):
        if (p1 == -1 and p0 != -1) or (q1 == -1 and q0 != -1):
            labels.add("kick")
        if done1 and not done0:
            labels.add("completion")
        if is_stacked_steps(p1, q1) and not is_stacked_steps(p0, q0):
            labels.add("stack formed")
    if moved == "pq":
        labels.add("stacked pair moved")
    for (_, p0, q0, _), (_, p1, q1, _) in zip(before, after, strict=True):
        if is_stacked_steps(p0, q0) and p1 == q1 and p1 not in (p0, -1):
            labels.add("stacked pair moved")
        if is_stacked_steps(p0, q0) and p1 == q1 == -1:
            labels.add("stacked pair kicked")
    return labels


def expected_moved(ref_game: ref.LudoGame, position: str, roll: int) -> str | None:
    """What play_turn should return for `roll` of `position`, by the reference's D9 choice."""
    player = ref_game.get_player_by_position(position)
    assert isinstance(player, ref.Player)
    if player.get_completed():
        return None
    token = ref_game.choose_token(player, roll)
    if token is None:
        return None
    return "pq" if player.is_stacked() else token


# --------------------------------------------------------------------------
# 1. Invariants after every turn of random turn lists.
# --------------------------------------------------------------------------

players_lists = st.lists(st.sampled_from(POSITIONS), min_size=1, max_size=4, unique=True)


@st.composite
def games_with_turns(draw: st.DrawFn, max_turns: int = 300) -> tuple[list[str], list[Turn]]:
    """1-4 distinct positions in any order, and up to `max_turns` turns of those positions."""
    players = draw(players_lists)
    count = draw(st.integers(0, max_turns))
    turn = st.tuples(st.sampled_from(players), st.integers(1, 6))
    turns = draw(st.lists(turn, min_size=count, max_size=count))
    return players, turns


@pytest.mark.slow
@derandomized(max_examples=200)
@given(games_with_turns())
def test_invariants_after_every_turn(game_input: tuple[list[str], list[Turn]]) -> None:
    """D4-D10 invariants hold after every play_turn; replays with play_game agree (D3, D11)."""
    players, turns = game_input
    game = LudoGame()
    assert game.play_game(players, []) == ["H"] * (2 * len(players))
    reference = ref.LudoGame()
    reference.start(list(players))
    replay = LudoGame()
    check_invariants(game)
    seen: set[str] = set()
    for index, (position, roll) in enumerate(turns, start=1):
        before = state_of(game)
        expected = expected_moved(reference, position, roll)
        moved = game.play_turn(position, roll)
        reference.apply_turn(position, roll)
        assert moved == expected, (index, position, roll, before)
        check_invariants(game, before, position)
        seen.update(describe_change(before, state_of(game), moved))
        assert state_of(game) == ref_state_of(reference, players), (index, position, roll)
        if index % REPLAY_EVERY == 0 or index == len(turns):
            earlier = [(player, player.steps, player.completed) for player in replay.players]
            assert replay.play_game(players, turns[:index]) == game.get_spaces()
            # D11: Players of an earlier play_game keep describing that earlier game.
            for player, steps, completed in earlier:
                assert (player.steps, player.completed) == (steps, completed)
                assert replay.get_player_by_position(player.position) is not player
    for name in sorted(seen):
        event(name)


# --------------------------------------------------------------------------
# 2. Agreement with the reference on thousands of seeded inputs.
# --------------------------------------------------------------------------


def random_inputs(seed: int, count: int) -> list[tuple[list[str], list[Turn]]]:
    """`count` seeded (players, turns) inputs: 1-4 positions in random order, 0-400 turns."""
    rng = random.Random(seed)
    inputs = []
    for _ in range(count):
        players = rng.sample(POSITIONS, rng.randint(1, 4))
        inputs.append((players, workloads.random_turn_list(rng, players, rng.randint(0, 400))))
    return inputs


def assert_agrees_with_reference(inputs: Sequence[tuple[list[str], list[Turn]]]) -> None:
    """Rust play_game and the reference give the same spaces, step counts and completion."""
    game = LudoGame()
    for number, (players, turns) in enumerate(inputs):
        reference = ref.LudoGame()
        expected = reference.play_game(list(players), list(turns))
        got = game.play_game(players, turns)
        assert got == expected, (number, players, turns)
        assert state_of(game) == ref_state_of(reference, players), (number, players, turns)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_turn_lists_agree_with_reference(seed: int) -> None:
    """1,000 seeded random turn lists per seed: same result as the reference."""
    assert_agrees_with_reference(random_inputs(seed, 1000))


@pytest.mark.parametrize("seed", [162, 2024])
def test_full_games_agree_with_reference(seed: int) -> None:
    """200 realistic full games per seed (workloads.full_games): same result as the reference."""
    games = workloads.full_games(seed, 200)
    assert_agrees_with_reference(games)
    # Realistic full games end with all but one player completed.
    game = LudoGame()
    for players, turns in games:
        game.play_game(players, turns)
        assert sum(not player.get_completed() for player in game.players) <= 1


# --------------------------------------------------------------------------
# 3. Junk input (D13): succeed, or raise LudoError / TypeError with nothing changed.
# --------------------------------------------------------------------------


class Opaque:
    """An arbitrary object."""

    def __repr__(self) -> str:
        return "Opaque()"


class StrSub(str):
    """A str subclass."""


class IntSub(int):
    """An int subclass."""


class IndexLike:
    """An object with __index__ (SupportsIndex), like a numpy integer."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"IndexLike({self.value})"


class Unhashable:
    """An object whose __eq__ and __hash__ fail."""

    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparisons")

    def __repr__(self) -> str:
        return "Unhashable()"


interesting_ints = st.sampled_from(
    [0, 1, 6, 7, -1, -2, 56, 57, 58, 2**31, 2**32, 2**63 - 1, 2**63, 2**64, -(2**63) - 1]
    + [10**30, -(10**30)]
)
interesting_strs = st.sampled_from(
    ["A", "B", "C", "D", "E", "a", "p", "q", "P", "pq", "", " A", "A ", "AB", "H", "A\x00", "Ä"]
)
junk_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    interesting_ints,
    st.integers(-(10**40), 10**40),
    st.floats(),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=8),  # no lone surrogates
    interesting_strs,
    st.binary(max_size=4),
    st.builds(Opaque),
    st.builds(Unhashable),
    st.builds(LudoGame),
    st.builds(Player, st.sampled_from(POSITIONS)),
    st.builds(StrSub, interesting_strs),
    st.builds(IntSub, st.integers(-3, 60)),
    st.builds(IndexLike, st.one_of(st.integers(-3, 60), interesting_ints)),
    st.complex_numbers(max_magnitude=10),
)
junk = st.recursive(
    junk_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.tuples(children, children),
        st.tuples(children),
        st.dictionaries(st.text(max_size=2), children, max_size=3),
    ),
    max_leaves=8,
)


def mix(*strategies: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A value of one of `strategies`, each chosen about equally often, so that a recursive
    strategy among them does not crowd out the small ones."""
    return st.sampled_from(strategies).flatmap(lambda strategy: strategy)


positions = st.sampled_from(POSITIONS)
near_ints = st.one_of(st.integers(-3, 60), interesting_ints)
# Values for an int argument: mostly ints near the valid range, sometimes anything.
int_args = mix(
    st.integers(-3, 60),
    st.sampled_from([-1, 0, 7, 58]),
    interesting_ints,
    st.builds(IndexLike, near_ints),
    st.builds(IntSub, near_ints),
    junk,
)
# Values for a str argument: positions and token names, near misses, anything.
str_args = mix(positions, interesting_strs, st.builds(StrSub, interesting_strs), junk)

GameSnapshot = tuple[str, tuple[str, ...] | None, State | None, tuple[int, ...]]


def snapshot(game: LudoGame) -> GameSnapshot:
    """Everything observable about `game`: repr, spaces, step counts, Player identities."""
    try:
        spaces: tuple[str, ...] | None = tuple(game.get_spaces())
    except LudoError:
        spaces = None
    if spaces is None:
        return repr(game), None, None, ()
    identities = tuple(id(game.get_player_by_position(p.position)) for p in game.players)
    assert identities == tuple(id(p) for p in game.players)
    return repr(game), spaces, state_of(game), identities


def call(function: Callable[..., Any], *args: Any) -> tuple[bool, Any]:
    """Call `function`; return (True, result) or (False, the LudoError / TypeError raised).

    Any other exception, including a Rust panic (a BaseException), fails the test.
    """
    try:
        result = function(*args)
    except (LudoError, TypeError) as exc:
        event(f"{function.__name__}: {type(exc).__name__}")
        return False, exc
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - a panic is a BaseException
        pytest.fail(f"{function.__name__}{args!r} raised {type(exc).__name__}: {exc!r}")
    event(f"{function.__name__}: ok")
    return True, result


@st.composite
def prepared_games(draw: st.DrawFn) -> tuple[LudoGame, list[Player]]:
    """A game in some state (possibly before any play_game), plus Players of other games."""
    game = LudoGame()
    foreign = [Player(draw(st.sampled_from(POSITIONS)))]
    if draw(st.integers(0, 5)) > 0:
        players = draw(players_lists)
        rng = random.Random(draw(st.integers(0, 2**32)))
        old = LudoGame()
        old.play_game(players, [])
        foreign.extend(old.players)
        if draw(st.booleans()):
            # An earlier game of this very object: its Players are foreign now (D11).
            game.play_game(players, [])
            foreign.extend(game.players)
        turns = workloads.random_turn_list(rng, players, draw(st.integers(0, 250)))
        game.play_game(players, turns)
    return game, foreign


def own_players(game: LudoGame) -> st.SearchStrategy[Any]:
    """A valid `player` argument: a Player of the game or its position (any if no game yet)."""
    if snapshot(game)[1] is None:
        return positions
    own = game.players
    return mix(st.sampled_from(own), st.sampled_from([player.position for player in own]))


def bad_players(foreign: list[Player]) -> st.SearchStrategy[Any]:
    """A likely invalid `player` argument: Players of other games, near-miss strings, junk."""
    return mix(st.sampled_from(foreign), str_args)


# Which arguments of a call get a likely bad value.
faults = st.sampled_from(["none", "first", "second", "third", "all"])


def assert_unchanged_on_error(
    game: LudoGame, before: GameSnapshot, ok: bool, outcome: Any, what: str
) -> None:
    """D13: a call that raised left the game exactly as it was."""
    after = snapshot(game)
    if not ok:
        assert after == before, f"{what} raised {outcome!r} but changed the game"
    if after[1] is not None:
        check_invariants(game)


valid_turns = st.tuples(positions, st.integers(1, 6))
bad_turns = mix(
    valid_turns,
    st.tuples(str_args, int_args),
    st.tuples(positions, int_args),
    st.lists(st.one_of(positions, st.integers(1, 6)), max_size=3),
    st.tuples(positions, int_args, int_args),
    junk,
)
players_args = mix(
    players_lists,
    st.lists(positions, max_size=5),
    st.lists(str_args, max_size=5),
    st.tuples(positions, positions),
    junk,
)
turns_args = mix(
    st.builds(
        lambda turns, index, bad: turns[:index] + [bad] + turns[index:],
        st.lists(valid_turns, max_size=30),
        st.integers(0, 30),
        bad_turns,
    ),
    st.lists(bad_turns, max_size=8),
    junk,
)


@pytest.mark.slow
@derandomized(max_examples=500)
@given(st.data(), prepared_games(), faults)
def test_play_game_junk(
    data: st.DataObject, prepared: tuple[LudoGame, list[Player]], fault: str
) -> None:
    """D13: play_game on junk succeeds or raises LudoError/TypeError before changing anything."""
    game, _ = prepared
    if fault in ("first", "all"):
        players = data.draw(players_args, label="players")
    else:
        players = data.draw(players_lists, label="players")
    if fault in ("second", "third", "all"):
        turns = data.draw(turns_args, label="turns")
    else:
        playing = POSITIONS if fault == "first" else players
        valid = st.lists(st.tuples(st.sampled_from(playing), st.integers(1, 6)), max_size=30)
        turns = data.draw(mix(valid, valid.map(tuple)), label="turns")
    before = snapshot(game)
    ok, outcome = call(game.play_game, players, turns)
    assert_unchanged_on_error(game, before, ok, outcome, "play_game")
    if ok:
        assert isinstance(outcome, list) and outcome == game.get_spaces()
        assert all(isinstance(space, str) for space in outcome)


@derandomized(max_examples=500)
@given(prepared_games(), str_args)
def test_get_player_by_position_junk(prepared: tuple[LudoGame, list[Player]], value: Any) -> None:
    """D2/D13: get_player_by_position never raises; non-positions give "Player not found!"."""
    game, _ = prepared
    before = snapshot(game)
    ok, outcome = call(game.get_player_by_position, value)
    assert ok, f"get_player_by_position({value!r}) raised {outcome!r}"
    assert snapshot(game) == before
    playing = {player.position: player for player in game.players} if before[1] else {}
    if type(value) is str and value in playing:
        assert outcome is playing[value]
    elif isinstance(value, str) and value in playing:
        assert outcome is playing[value] or outcome == NOT_FOUND
    else:
        assert outcome == NOT_FOUND and type(outcome) is str


@pytest.mark.slow
@derandomized(max_examples=500)
@given(st.data(), prepared_games())
def test_move_token_junk(data: st.DataObject, prepared: tuple[LudoGame, list[Player]]) -> None:
    """D12/D13: move_token with junk in any argument succeeds or raises with nothing changed."""
    game, foreign = prepared
    fault = data.draw(faults, label="fault")
    bad = {"player": fault in ("first", "all")}
    bad["token"] = fault in ("second", "all")
    bad["steps"] = fault in ("third", "all")
    player = data.draw(bad_players(foreign) if bad["player"] else own_players(game), "player")
    token = data.draw(str_args if bad["token"] else st.sampled_from(["p", "q"]), "token")
    steps = data.draw(int_args if bad["steps"] else st.integers(1, 57), "steps")
    before = snapshot(game)
    ok, outcome = call(game.move_token, player, token, steps)
    assert_unchanged_on_error(game, before, ok, outcome, "move_token")
    if ok:
        assert outcome is None
    valid_steps = type(steps) is int and 1 <= steps <= 57
    own = before[1] is not None and (
        any(player is p for p in game.players)
        or (type(player) is str and player in [p.position for p in game.players])
    )
    if own and type(token) is str and token in ("p", "q") and valid_steps:
        assert ok, f"valid move_token({player!r}, {token!r}, {steps!r}) raised {outcome!r}"


@pytest.mark.slow
@derandomized(max_examples=500)
@given(st.data(), prepared_games(), faults)
def test_play_turn_junk(
    data: st.DataObject, prepared: tuple[LudoGame, list[Player]], fault: str
) -> None:
    """D13: play_turn with junk succeeds or raises LudoError/TypeError with nothing changed."""
    game, _ = prepared
    playing = [p.position for p in game.players] if snapshot(game)[1] is not None else ["A"]
    valid_position = st.sampled_from(playing)
    position = data.draw(str_args if fault in ("first", "all") else valid_position, "position")
    roll = data.draw(int_args if fault in ("second", "all") else st.integers(1, 6), "roll")
    before = snapshot(game)
    ok, outcome = call(game.play_turn, position, roll)
    assert_unchanged_on_error(game, before, ok, outcome, "play_turn")
    if ok:
        assert outcome in (None, "p", "q", "pq")
    if before[1] is None:
        playing = []
    if type(position) is str and position in playing and type(roll) is int and 1 <= roll <= 6:
        assert ok, f"valid play_turn({position!r}, {roll!r}) raised {outcome!r}"


@derandomized(max_examples=500)
@given(str_args)
def test_player_constructor_junk(value: Any) -> None:
    """D13: Player(x) succeeds for a position 'A'-'D', otherwise raises LudoError/TypeError."""
    ok, outcome = call(Player, value)
    if isinstance(value, str) and value in POSITIONS:
        assert ok, f"Player({value!r}) raised {outcome!r}"
    if ok:
        assert isinstance(outcome, Player)
        assert outcome.position == value and value in POSITIONS
        assert outcome.steps == (-1, -1) and outcome.completed is False
        assert outcome.start_space == START_SPACES[value]


@derandomized(max_examples=500)
@given(
    prepared_games(),
    positions,
    mix(st.integers(-3, 60), int_args),
)
@pytest.mark.slow
def test_get_space_name_junk(
    prepared: tuple[LudoGame, list[Player]], position: str, steps: Any
) -> None:
    """D1/D13: get_space_name gives the reference's name for -1..57, else LudoError/TypeError."""
    game, foreign = prepared
    players = (game.players if snapshot(game)[1] is not None else []) + foreign + [Player(position)]
    reference_players = {p: ref.Player(p) for p in POSITIONS}
    for player in players:
        before = snapshot(game), player.steps, repr(player)
        ok, outcome = call(player.get_space_name, steps)
        assert (snapshot(game), player.steps, repr(player)) == before
        if type(steps) is int and -1 <= steps <= 57:
            assert ok and outcome == reference_players[player.position].get_space_name(steps)
        elif ok:
            assert type(outcome) is str
        if type(steps) is int and not -1 <= steps <= 57:
            assert not ok and isinstance(outcome, LudoError), (steps, outcome)


# --------------------------------------------------------------------------
# 4. Random playouts of move_token against the reference.
# --------------------------------------------------------------------------

Move = tuple[str, str, int]


def aimed_moves(state: State) -> list[Move]:
    """Moves (position, token, steps) that land on an opponent (a kick) or on the mover's other
    token (a stack), or finish exactly; for steering random playouts to the interesting cases."""
    moves: list[Move] = []
    for position, p, q, _ in state:
        for token, steps, other in (("p", p, q), ("q", q, p)):
            if not 0 <= steps <= 56:
                continue
            targets = {57}
            if 1 <= other <= 56:
                targets.add(other)
            for opponent, op, oq, _ in state:
                if opponent == position:
                    continue
                for opponent_steps in (op, oq):
                    space = track_space(opponent, opponent_steps)
                    targets.update(t for t in range(1, 51) if track_space(position, t) == space)
            moves.extend((position, token, t - steps) for t in sorted(targets) if t > steps)
    return moves


@pytest.mark.slow
@derandomized(max_examples=300)
@given(games_with_turns(max_turns=120), st.integers(0, 200), st.integers(0, 2**32 - 1))
def test_move_token_playout(
    game_input: tuple[list[str], list[Turn]], count: int, seed: int
) -> None:
    """D12: random valid move_token calls keep the invariants and agree with the reference.

    The moves come from random.Random(seed) (hypothesis draws per move would be slow): half of
    them random, half aimed at a kick, a stack or an exact finish.
    """
    rng = random.Random(seed)
    players, turns = game_input
    game = LudoGame()
    reference = ref.LudoGame()
    game.play_game(players, turns)
    reference.play_game(list(players), list(turns))
    assert state_of(game) == ref_state_of(reference, players)
    seen: set[str] = set()
    for index in range(count):
        before = state_of(game)
        aimed = aimed_moves(before)
        if aimed and rng.random() < 0.5:
            move = rng.choice(aimed)
        else:
            steps = rng.choice([rng.randint(1, 6), 6, rng.randint(1, 57)])
            move = (rng.choice(players), rng.choice("pq"), steps)
        position, token, steps = move
        live = game.get_player_by_position(position)
        assert isinstance(live, Player)
        by_position = rng.random() < 0.5
        game.move_token(position if by_position else live, token, steps)
        ref_player = reference.get_player_by_position(position)
        assert isinstance(ref_player, ref.Player)
        reference.move_token(ref_player, token, steps)
        check_invariants(game, before, position)
        seen.update(describe_change(before, state_of(game), None))
        assert state_of(game) == ref_state_of(reference, players), (index, before, move)
    for name in sorted(seen):
        event(name)
    # The live Player objects stay the game's own (D2).
    for player in game.players:
        assert game.get_player_by_position(player.position) is player
