"""Saved games: position notations, game JSON and simulation results read back only when
play could have produced them.

1. `Game.from_notation` refuses turn states that play never produces (counters, passes,
   forfeits), naming what is wrong, and reads back every position that play reaches.
2. `Game.from_json` checks the seed against the start position's die, and refuses fields of
   the wrong type instead of skipping them.
3. `SimResult + SimResult` adds only results of the same rules, players and bots.
4. Hypothesis: junk and mutated notations raise only `InvalidNotationError`; what is read
   round-trips.
"""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from LudoGame import (
    Game,
    InvalidBotError,
    InvalidNotationError,
    InvalidRulesError,
    LudoError,
    SimResult,
    Simulation,
)


def derandomized(max_examples: int) -> settings:
    """Deterministic hypothesis settings: no database, no deadline."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


# --------------------------------------------------------------------------
# 1. Turn states.
# --------------------------------------------------------------------------

IMPOSSIBLE = [
    # cs162 has no six limit: nobody forfeits.
    ("cs162 A3.-1/C-1.-1 C:r:0:0 A! - 0000000000000001", "no six limit"),
    # cs162 gives extra rolls for a 6 only (no capture or finish bonus).
    ("cs162 A3.-1/C-1.-1 A:r:0:1 - - 0000000000000001", "0:1"),
    ("cs162 A3.-1/C-1.-1 A:m6:2:0 - - 0000000000000001", "2:0"),
    ("cs162 A3.-1/C-1.-1 A:m6:1:1 - - 0000000000000001", "1:1"),
    ("cs162 A3.-1/C-1.-1 A:m6:3:1 - - 0000000000000001", "3:1"),
    ("cs162 A3.-1/C-1.-1 A:m3:1:0 - - 0000000000000001", "not a 6"),
    ("cs162 A3.-1/C-1.-1 A:m6:0:0 - - 0000000000000001", "pending 6"),
    ("cs162 A3.-1/C-1.-1 A:r:1:0 - - 0000000000000001", "without an extra roll"),
    # Without any extra rolls, no roll is an extra roll.
    ("cs162[six_bonus=never] A3.-1/C-1.-1 A:m3:0:1 - - 0000000000000001", "0:1"),
    # The six limit's 6 forfeits the turn: it is never pending.
    (
        "standard[six_limit=2] A3.-1.-1.-1/C-1.-1.-1.-1 A:m6:2:1 - - 0000000000000001",
        "six limit of 2",
    ),
    # A pass by someone other than the player before the current one.
    (
        "standard A3.-1.-1.-1/B-1.-1.-1.-1/C-1.-1.-1.-1 C:r:0:0 A - 0000000000000001",
        "not to the current player",
    ),
    # A pass is followed by a fresh turn.
    ("standard A3.-1.-1.-1/C-1.-1.-1.-1 C:r:1:1 A - 0000000000000001", "not 0:0"),
    # A pass only while waiting for a roll.
    ("cs162 A3.-1/C-1.-1 A:m3:0:0 C - 0000000000000001", "waiting for a roll"),
    # A's token moves with every roll (it bounces back from the end): A never passes.
    ("cs162 A3.10/C-1.-1 C:r:0:0 A - 0000000000000001", "legal move with every roll"),
    # A 6 that A could use gives no pass to itself.
    ("standard A3.-1.-1.-1/C-1.-1.-1.-1 A:r:1:1 A - 0000000000000001", "legal move"),
    # A pending roll with nothing to move.
    ("cs162 A-1.-1/C-1.-1 A:m3:0:0 - - 0000000000000001", "no legal move"),
    # A finished player neither plays nor passes; once over, the last finisher holds the turn.
    ("cs162 A57.57/B-1.-1/C-1.-1 A:r:0:0 - A 0000000000000001", "already finished"),
    ("cs162 A57.57/B-1.-1/C-1.-1 B:r:0:0 A A 0000000000000001", "has finished"),
    ("gt A40.41/B3.-2/C-1.-2/D-1.-2 B:o:0:0 - A 0000000000000001", "last to finish"),
    ("gt A40.41/B3.-2/C-1.-2/D-1.-2 A:o:1:1 - A 0000000000000001", "over"),
]

POSSIBLE = [
    "cs162 A3.-1/C-1.-1 A:m6:2:1 - - 0000000000000001",
    "cs162 A3.-1/C-1.-1 A:m3:0:1 - - 0000000000000001",
    "cs162 A-1.-1/C-1.-1 C:r:0:0 A - 0000000000000001",
    "cs162[capture_bonus=true] A3.-1/C-1.-1 A:r:0:1 - - 0000000000000001",
    "cs162[capture_bonus=true] A3.-1/C-1.-1 A:m6:3:1 - - 0000000000000001",
    "standard[six_limit=3] A3.-1.-1.-1/C-1.-1.-1.-1 C:r:0:0 A! - 0000000000000001",
    "standard A55.55.55.55/C-1.-1.-1.-1 A:r:3:1 A - 0000000000000001",
    "cs162 A-1.-1 A:r:0:0 A - 0000000000000001",
    "gt A40.41/B3.-2/C-1.-2/D-1.-2 A:o:0:0 - A 0000000000000001",
]


@pytest.mark.parametrize(("text", "reason"), IMPOSSIBLE)
def test_impossible_positions_are_refused_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(InvalidNotationError, match=reason):
        Game.from_notation(text)


@pytest.mark.parametrize("text", POSSIBLE)
def test_possible_positions_are_read_back_exactly(text: str) -> None:
    g = Game.from_notation(text)
    assert g.to_notation() == text


VARIANTS: list[tuple[str, dict[str, Any], str | int]] = [
    ("cs162", {}, "AC"),
    ("cs162", {"six_bonus": "always", "six_limit": 2, "capture_bonus": True}, "ABCD"),
    ("cs162", {"six_bonus": "never", "finish_bonus": True}, "AB"),
    ("standard", {}, "AC"),
    ("standard", {"six_limit": 3, "finish_bonus": True, "tokens": 2}, "ABC"),
    ("standard", {"six_bonus": "once", "six_limit": 2, "capture_bonus": True}, "A"),
    ("gt", {}, 4),
    ("gt", {"six_limit": 2, "capture_bonus": True, "finish_bonus": True}, 2),
    ("gt", {"six_bonus": "never", "end": "full-ranking"}, 3),
]


@pytest.mark.parametrize(("rules", "options", "players"), VARIANTS)
def test_every_position_of_random_games_round_trips(
    rules: str, options: dict[str, Any], players: str | int
) -> None:
    """Random games with a die loaded towards 6s (long runs, forfeits): every position
    reads back to an equal game."""
    rng = random.Random(f"{rules}{options}{players}")
    for game_no in range(12):
        g = Game(rules, players, seed=game_no, **options)
        for _ in range(3000):
            if g.is_over():
                break
            loaded_step(g, rng)
            text = g.to_notation()
            again = Game.from_notation(text)
            assert again == g and again.to_notation() == text, text


# --------------------------------------------------------------------------
# 2. Game JSON.
# --------------------------------------------------------------------------


def saved(seed: int = 5) -> dict[str, Any]:
    g = Game("gt", seed=seed)
    g.autoplay("random", max_rolls=30)
    return dict(json.loads(g.to_json()))


def test_json_seed_must_give_the_start_die() -> None:
    d = saved(5)
    assert Game.from_json(json.dumps(d)).seed == 5
    d["seed"] = 6
    with pytest.raises(InvalidNotationError, match="seed 6 does not match"):
        Game.from_json(json.dumps(d))
    d["seed"] = None
    assert Game.from_json(json.dumps(d)).seed is None
    del d["seed"]
    assert Game.from_json(json.dumps(d)).seed is None


def test_json_from_a_notation_has_no_seed_to_check() -> None:
    g = Game.from_notation("cs162 A-1.-1/C-1.-1 A:r:0:0 - - 00000000000000ff")
    g.roll()
    h = Game.from_json(g.to_json())
    assert h == g and h.seed is None and h.moves == g.moves


@pytest.mark.parametrize("value", [None, 3, ["x"], {"a": 1}, True])
def test_json_position_that_is_not_a_string_is_refused(value: Any) -> None:
    d = saved()
    d["position"] = value
    with pytest.raises(InvalidNotationError, match="'position' must be a string"):
        Game.from_json(json.dumps(d))


def test_json_without_position_is_read() -> None:
    d = saved()
    position = d.pop("position")
    assert Game.from_json(json.dumps(d)).to_notation() == position
    d["position"] = position.replace(" - ", " A ", 1) + "x"
    with pytest.raises(InvalidNotationError):
        Game.from_json(json.dumps(d))


@pytest.mark.parametrize("key", ["format", "start", "moves"])
@pytest.mark.parametrize("value", [None, 0, ["=6"], 1.5])
def test_json_text_fields_of_another_type_are_refused(key: str, value: Any) -> None:
    d = saved()
    d[key] = value
    with pytest.raises(InvalidNotationError, match=f"'{key}' must be a string"):
        Game.from_json(json.dumps(d))
    del d[key]
    with pytest.raises(InvalidNotationError, match=f"no field '{key}'"):
        Game.from_json(json.dumps(d))


def test_a_save_hiding_the_die_shows_no_die_and_plays_on_with_a_seed() -> None:
    """`hide_die`: no seed, no die state, every roll given; read back with a seed (or a
    random one), the same game with that die; pickled and loaded again, the same game."""
    d = saved(5)
    g = Game.from_json(json.dumps(d))
    public = g.to_json(hide_die=True)
    shown = json.loads(public)
    assert shown["seed"] is None
    assert shown["start"].endswith(" -") and shown["position"].endswith(" -")
    assert all(not w.isdigit() for w in shown["moves"].split())
    assert shown["moves"] == " ".join("=" + w if w.isdigit() else w for w in g.moves.split())
    assert g.to_notation(hide_die=True) == shown["position"]
    for pos in (d["start"], d["position"]):
        assert pos.split()[-1] not in public
    h = Game.from_json(public, seed=9)
    assert h.seed == 9 and h.to_notation(hide_die=True) == g.to_notation(hide_die=True)
    assert [e["value"] for e in h.history if e["kind"] == "roll"] == [
        e["value"] for e in g.history if e["kind"] == "roll"
    ]
    assert all(not e["die"] for e in h.history if e["kind"] == "roll")
    assert h.to_notation().endswith(" 0000000000000009")  # the die of seed 9, no roll of it
    r = Game.from_json(public)  # no seed: a random one, kept
    assert isinstance(r.seed, int) and r.to_notation().endswith(f" {r.seed:016x}")
    assert Game.from_json(r.to_json()) == r and Game.from_json(r.to_json()).seed == r.seed
    assert pickle.loads(pickle.dumps(r)).moves == r.moves
    # a position: its die replaced by a seed, or a random one where it is hidden
    p = Game.from_notation(g.to_notation(), seed=3)
    assert p.seed == 3 and p.to_notation().endswith(" 0000000000000003")
    assert Game.from_notation(g.to_notation()).seed is None
    assert Game.from_notation(g.to_notation(hide_die=True)).seed is not None
    # a die roll in a save hiding the die is refused by name; so are bad seeds
    first = shown["moves"].split()[0]
    shown["moves"] = shown["moves"].replace(first, first.lstrip("="), 1)
    with pytest.raises(InvalidNotationError, match="hidden"):
        Game.from_json(json.dumps(shown), seed=1)
    for bad in (-1, 2**64):
        with pytest.raises(LudoError, match="seed"):
            Game.from_notation(g.to_notation(), seed=bad)
    with pytest.raises(TypeError):
        g.to_json(hide_die=1)  # type: ignore[arg-type]


# --------------------------------------------------------------------------
# 3. Simulation results.
# --------------------------------------------------------------------------


def test_chunks_of_one_run_add_up_to_the_whole_run() -> None:
    sim = Simulation("gt", bots=["random", "safe", "cs162", "aggressive"], seed=3)
    whole = sim.run(0, 60)
    parts = sim.run(0, 0) + sim.run(0, 25) + sim.run(25, 35)
    assert isinstance(parts, SimResult)
    assert (parts.games, parts.wins, parts.bots, parts.rules) == (
        whole.games,
        whole.wins,
        whole.bots,
        whole.rules,
    )
    assert list(parts.lengths) == list(whole.lengths)


@pytest.mark.parametrize(
    ("other", "error", "what"),
    [
        (Simulation("gt", players="AC", seed=3), InvalidRulesError, "rules"),
        (Simulation("cs162", players="AC", seed=3, six_limit=2), InvalidRulesError, "rules"),
        (Simulation("cs162", players="AB", seed=3), InvalidBotError, "players"),
        (Simulation("cs162", players="AC", bots="safe", seed=3), InvalidBotError, "bots"),
    ],
)
def test_results_of_different_runs_are_not_added(
    other: Simulation, error: type[LudoError], what: str
) -> None:
    mine = Simulation("cs162", players="AC", seed=3).run(0, 5)
    theirs = other.run(5, 5)
    with pytest.raises(error, match=f"results of different {what} cannot be added"):
        mine + theirs
    with pytest.raises(error):
        theirs + mine


# --------------------------------------------------------------------------
# 4. Junk and mutations.
# --------------------------------------------------------------------------


def loaded_step(g: Game, rng: random.Random) -> None:
    """One roll (a die loaded towards 6s) or one random legal move."""
    if g.phase == "roll":
        g.roll(6 if rng.random() < 0.4 else rng.randint(1, 5))
    else:
        g.play(rng.choice(g.legal_moves))


def positions() -> list[str]:
    """Positions of a few real games, some in every phase."""
    out = []
    rng = random.Random(11)
    for rules, options, players in VARIANTS:
        g = Game(rules, players, seed=1, **options)
        for _ in range(400):
            if g.is_over():
                break
            loaded_step(g, rng)
            if rng.random() < 0.05 or g.is_over():
                out.append(g.to_notation())
    return out


POSITIONS = positions()


def check_read(text: str) -> None:
    """`text` is refused with an InvalidNotationError, or read into a game that round-trips
    and whose pending roll (if any) can be played."""
    try:
        g = Game.from_notation(text)
    except InvalidNotationError:
        return
    again = Game.from_notation(g.to_notation())
    assert again == g and again.to_notation() == g.to_notation()
    if g.phase == "move":
        assert g.legal_moves
        g.play(g.legal_moves[0])
    elif g.phase == "roll":
        g.roll()


@derandomized(400)
@given(
    st.text(alphabet=st.sampled_from("0123456789.-/:!rmo ABCDcs162standardgt[]=,_"), max_size=70)
)
def test_junk_notation_raises_only_invalid_notation(text: str) -> None:
    check_read(text)


@derandomized(500)
@given(
    st.sampled_from(POSITIONS),
    st.lists(
        st.tuples(
            st.integers(0, 2), st.integers(0, 200), st.sampled_from("0123456789-.:!ABCDmro ")
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_mutated_notation_raises_only_invalid_notation(
    text: str, edits: list[tuple[int, int, str]]
) -> None:
    chars = list(text)
    for how, at, c in edits:
        at %= len(chars) + 1
        if how == 0:
            chars.insert(at, c)
        elif how == 1 and at < len(chars):
            del chars[at]
        elif at < len(chars):
            chars[at] = c
    mutated = "".join(chars)
    note(mutated)
    check_read(mutated)


@derandomized(600)
@given(
    st.sampled_from(POSITIONS),
    st.sampled_from("ABCD"),
    st.sampled_from(["r", "m1", "m3", "m6", "o"]),
    st.integers(0, 4),
    st.integers(0, 1),
    st.sampled_from(["-", "A", "B", "C", "D", "A!", "B!", "C!", "D!"]),
)
def test_changed_turn_fields_are_refused_or_round_trip(
    text: str, current: str, phase: str, sixes: int, extra: int, passed: str
) -> None:
    fields = text.split(" ")
    fields[2] = f"{current}:{phase}:{sixes}:{extra}"
    fields[3] = passed
    changed = " ".join(fields)
    note(changed)
    check_read(changed)
