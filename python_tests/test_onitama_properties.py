"""Property tests of `LudoGame.onitama`.

1. Junk thrown at every entry point (constructors, setups, notation and JSON readers,
   actions, cards, play, judge, draw, the AIs and their contract, perft, play_match,
   round_robin): only `LudoError` or `TypeError`, never a crash, and a rejected call on a
   game changes nothing.
2. Random games through the API: after every ply the notation, JSON and pickle round-trip,
   every legal action's contract answer is judged back to it, the AIs answer legally, and
   undoing every ply returns to the start.

Every hypothesis test is derandomized and uses no example database, so a run is deterministic.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from LudoGame import LudoError
from LudoGame import onitama as o


def derandomized(max_examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Hypothesis settings shared by this file: deterministic, no database, no deadline."""
    return settings(
        max_examples=max_examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )


VALID_TEXT = [
    "bbBbb/...../W..../...../aaAaa",
    "bbBbb/     /W    /     /aaAaa",
    "Tiger",
    "crane",
    "..x../...../..o../..x../.....",
    "1 e2 d3 u",
    "2 c3 a3 -",
    "1 XX XX s",
    "A",
    "B",
    "21",
    "case12",
    "aitest1_A",
    o.Onitama.setup(21).to_notation(),
    o.Onitama.setup(12).to_json(),
    "e3",
    "XX",
    "u",
    "s",
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.integers(min_value=-3, max_value=30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.text(st.characters(codec=None, categories=["Cs", "Lu", "Ll", "Nd", "Po"]), max_size=12),
    st.binary(max_size=8),
    st.sampled_from(VALID_TEXT),
    st.builds(lambda s, i, c: s[:i] + c + s[i + 1 :], st.sampled_from(VALID_TEXT),
              st.integers(0, 60), st.sampled_from(list("xo./ -WAaBb1259XZ"))),
)  # fmt: skip
junk = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.tuples(inner, inner, inner, inner),
        st.dictionaries(st.sampled_from(["A1", "A2", "B1", "B2", "side", "x"]), inner, max_size=6),
    ),
    max_leaves=12,
)


def only_expected_errors(call: Callable[[], Any]) -> Any:
    """Run `call`; a LudoError or TypeError is fine (returns None), anything else fails."""
    try:
        return call()
    except (LudoError, TypeError):
        return None


def safe_perft_depth(x: Any) -> bool:
    """Junk for perft, without the valid depths that would take long."""
    return not (isinstance(x, int) and not isinstance(x, bool) and 3 <= x <= 64)


@pytest.mark.slow
@derandomized(500)
@given(st.lists(junk, min_size=4, max_size=4), st.integers(0, 14))
def test_junk_at_every_entry_point(args: list[Any], which: int) -> None:
    a, b, c, d = args
    game = o.Onitama.setup(12)
    game.play("1 a4 c3 s")
    before = (game.to_notation(), list(game.history))
    ai = o.builtin_ai(2, nodes=200)
    calls: list[Callable[[], Any]] = [
        lambda: o.Onitama(a, b, c, d),
        lambda: o.Onitama(board=a),
        lambda: o.Onitama(cards=a, to_move=b),
        lambda: o.Onitama.setup(a, b),
        lambda: o.Onitama.from_notation(a),
        lambda: o.Onitama.from_json(a),
        lambda: o.Action(a),
        lambda: o.Card(a),
        lambda: game.play(a),
        lambda: game.judge(a, b, c, d),
        lambda: game.draw(a),
        lambda: game.best_move(a, None, b, 300, c),
        lambda: game.perft(a) if safe_perft_depth(a) else None,
        lambda: ai(a, b, c, d, a, b, c, d),
        lambda: o.BuiltinAI(a, b, c, d),
    ]
    result = only_expected_errors(calls[which])
    if which in (8, 9, 10, 11, 12):
        if which == 8 and result is not None:
            game.undo()
        assert (game.to_notation(), list(game.history)) == before
    if which == 0 and result is not None:
        assert o.Onitama.from_notation(result.to_notation()) == result


@derandomized(120)
@given(st.lists(junk, min_size=3, max_size=3))
def test_junk_to_the_referee(args: list[Any]) -> None:
    a, b, c = args
    quick = o.builtin_ai(0, seed=1)
    only_expected_errors(lambda: o.play_match(quick, quick, a, b if b != 0 else 1, c))
    only_expected_errors(lambda: o.play_match(a, quick, 21))
    only_expected_errors(lambda: o.round_robin(a))
    record = o.play_match(lambda *x: a, quick, 21)
    assert record.winner == "B" and record.reason == "invalid_move"


@derandomized(60)
@given(
    st.sampled_from(["21", "22", "23", "1", "2", "4", "12", "aitest1_A", "readme_no_move"]),
    st.integers(1, 30),
    st.randoms(use_true_random=False),
)
@pytest.mark.slow
def test_random_games_round_trip(setup: str, plies: int, rnd: Any) -> None:
    game = o.Onitama.setup(setup, max_plies=plies)
    start = game.copy()
    seen = 0
    while not game.is_over():
        legal = game.legal_moves
        assert legal and len(set(legal)) == len(legal)
        for action in rnd.sample(legal, min(4, len(legal))):
            assert game.judge(*action.answer) == action
            assert o.Action(str(action)) == action
        assert o.Onitama.from_notation(game.to_notation()) == game
        clone = pickle.loads(pickle.dumps(game))
        assert clone == game and clone.history == game.history
        assert json.loads(game.to_json())["position"] == game.to_notation()
        if seen % 3 == 0:
            for level in range(3):
                assert game.best_move(level=level, nodes=300, seed=seen) in legal
        action = rnd.choice(legal)
        game.play(action)
        seen += 1
        assert game.history[-1] == action
    assert game.plies_left >= 0 and seen <= plies
    if game.winner is None:
        assert game.result_reason == "ply_limit" and game.plies_left == 0
    else:
        assert game.result_reason in ("base_reached", "general_captured")
    for _ in range(seen):
        game.undo()
    assert game == start and game.history == []
