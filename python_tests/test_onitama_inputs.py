"""Onitama inputs at their edges: integers out of range raise the package's ValueError
subclasses naming the argument and its range (never OverflowError), bools are refused
where ints are expected; `from_json` refuses a setup id that is not its start; the
notation keeps every card exactly as drawn; and no Rust panic is reachable when Python
code re-enters a game or an AI during a long call."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from LudoGame import onitama as o

G = o.Onitama.setup(21)
ARGS = G.ai_arguments()

# ---------------------------------------------------------------------------------------
# Integers out of range, and bools


def quick() -> o.BuiltinAI:
    return o.builtin_ai(0)


OUT_OF_RANGE: list[tuple[str, Callable[[], object], str]] = [
    ("seed", lambda: o.builtin_ai(0, seed=-1), "seed"),
    ("seed", lambda: o.builtin_ai(0, seed=2**64), "seed"),
    ("seed", lambda: G.best_move(level=0, seed=-(2**70)), "seed"),
    ("max_plies", lambda: o.Onitama(max_plies=-1), "max_plies"),
    ("max_plies", lambda: o.Onitama(max_plies=2**16), "max_plies"),
    ("max_plies", lambda: o.Onitama.setup(21, max_plies=2**80), "max_plies"),
    ("max_plies", lambda: o.play_match(quick(), quick(), max_plies=-1), "max_plies"),
    ("depth", lambda: G.best_move(depth=-1), "depth"),
    ("depth", lambda: o.builtin_ai(2, depth=2**64), "depth"),
    ("depth", lambda: G.perft(-1), "depth"),
    ("depth", lambda: G.perft(2**64), "depth"),
    ("nodes", lambda: G.best_move(nodes=-1), "nodes"),
    ("nodes", lambda: o.builtin_ai(2, nodes=2**64), "nodes"),
    ("time", lambda: G.best_move(time=-1), "time"),
    ("time", lambda: G.best_move(time=0), "time"),
    ("time", lambda: G.best_move(time=float("nan")), "time"),
    ("time", lambda: G.best_move(time=float("inf")), "time"),
    ("time", lambda: G.best_move(time=86_400.5), "time"),
    ("time", lambda: o.builtin_ai(2, time=10**400), "time"),
    ("time_budget", lambda: o.play_match(quick(), quick(), time_budget=-1), "time_budget"),
    ("time_budget", lambda: o.play_match(quick(), quick(), time_budget=float("nan")), "time"),
    ("setup", lambda: o.Onitama.setup(-1), "setup"),
    ("setup", lambda: o.Onitama.setup(2**64), "setup"),
    ("setup", lambda: o.play_match(quick(), quick(), setup=-1), "setup"),
    ("level", lambda: o.builtin_ai(-1), "level"),
    ("level", lambda: o.builtin_ai(2**64), "level"),
    ("turn", lambda: o.builtin_ai(0)(*ARGS[:7], -1), "turn"),
    ("turn", lambda: o.builtin_ai(0)(*ARGS[:7], 2**64), "turn"),
]


@pytest.mark.parametrize(("name", "call", "word"), OUT_OF_RANGE)
def test_out_of_range_ints_raise_the_packages_value_errors(
    name: str, call: Callable[[], object], word: str
) -> None:
    with pytest.raises(o.OnitamaError) as caught:
        call()
    assert isinstance(caught.value, ValueError)
    assert not isinstance(caught.value, OverflowError)
    message = str(caught.value)
    assert word in message
    if name != "setup":  # an unknown setup lists the known ones instead of a range
        assert re.search(r"\d", message.split(word, 1)[1]), message


BOOLS: list[Callable[[], object]] = [
    lambda: o.builtin_ai(True),
    lambda: o.builtin_ai(2, seed=False),
    lambda: o.builtin_ai(2, time=True),
    lambda: o.builtin_ai(2, nodes=True),
    lambda: o.builtin_ai(2, depth=True),
    lambda: G.best_move(level=True),
    lambda: G.perft(True),
    lambda: o.Onitama(max_plies=True),
    lambda: o.Onitama.setup(True),
    lambda: o.Onitama.setup(21, max_plies=False),
    lambda: o.play_match(quick(), quick(), setup=True),
    lambda: o.play_match(quick(), quick(), max_plies=True),
    lambda: o.play_match(quick(), quick(), time_budget=True),
    lambda: o.builtin_ai(0)(*ARGS[:7], True),
    lambda: G.judge(True, "e2", "d3", "u"),
]


@pytest.mark.parametrize("call", BOOLS)
def test_bools_are_not_ints(call: Callable[[], object]) -> None:
    with pytest.raises(TypeError, match="bool"):
        call()


# ---------------------------------------------------------------------------------------
# from_json and the setup id


def test_from_json_refuses_a_setup_that_is_not_its_start() -> None:
    data = json.loads(o.Onitama.setup(21).to_json())
    data["setup"] = "case22"
    with pytest.raises(o.OnitamaNotationError, match="setup 'case22'"):
        o.Onitama.from_json(json.dumps(data))
    data["setup"] = "23"
    with pytest.raises(o.NotationError, match="does not start at"):
        o.Onitama.from_json(json.dumps(data))
    # The right id, another ply limit, or no id: accepted.
    for setup, plies in [("case21", None), ("21", 33), (None, 9)]:
        g = o.Onitama.setup(21, max_plies=plies)
        data = json.loads(g.to_json())
        data["setup"] = setup
        back = o.Onitama.from_json(json.dumps(data))
        assert back == g and back.setup_id == (None if setup is None else "case21")
    # A game from a custom position never claims a setup.
    custom = json.loads(o.Onitama().to_json())
    assert custom["setup"] is None
    custom["setup"] = "22"  # Onitama() is setup 22's position: consistent
    assert o.Onitama.from_json(json.dumps(custom)).setup_id == "case22"


# ---------------------------------------------------------------------------------------
# The notation keeps each card as drawn

FILLERS = [" ", ".", "_", "%", "/", ":", "'", '"', "\\", "-", "#", "é", "\t", "\u00a0", "口"]


@st.composite
def drawn_card(draw: st.DrawFn) -> list[str]:
    """5 rows of 5 characters: one 'o', some 'x', any fillers."""
    cells = draw(
        st.lists(
            st.one_of(st.just("x"), st.sampled_from(FILLERS)),
            min_size=25,
            max_size=25,
        )
    )
    cells[draw(st.integers(0, 24))] = "o"
    return ["".join(cells[r * 5 : r * 5 + 5]) for r in range(5)]


def pick_distinct(cards: list[list[str]]) -> list[list[str]] | None:
    """Five cards with different moves (a position's cards are distinct), or None."""
    out: list[list[str]] = []
    seen: list[o.Card] = []
    for rows in cards:
        card = o.Card(rows)
        if card not in seen:
            seen.append(card)
            out.append(rows)
    return out[:5] if len(out) >= 5 else None


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(
    st.lists(drawn_card(), min_size=5, max_size=8),
    st.sampled_from(["21", "22", "23", "aitest2_A", "2", "5"]),
    st.integers(0, 6),
    st.randoms(use_true_random=False),
)
@pytest.mark.slow
def test_notation_round_trips_every_drawing(
    cards: list[list[str]], setup: str, plies: int, rnd: Any
) -> None:
    chosen = pick_distinct(cards)
    if chosen is None:
        return
    base = o.Onitama.setup(setup)
    try:
        g = o.Onitama(base.board, chosen, base.turn, 20)
    except o.OnitamaError:
        return  # e.g. a side already won with these cards
    for _ in range(plies):
        if g.is_over():
            break
        g.play(rnd.choice(g.legal_moves))
    for game in (g, o.Onitama.setup(setup)):
        text = game.to_notation()
        assert len(text.split()) == 8 and "\n" not in text
        back = o.Onitama.from_notation(text)
        assert back == game
        assert back.ai_arguments() == game.ai_arguments()
        assert back.to_notation() == text
        assert {k: c.rows for k, c in back.cards.items()} == {
            k: c.rows for k, c in game.cards.items()
        }
        assert str(back) == str(game)
        assert eval(repr(game), {"Onitama": o.Onitama}) == game
        via_json = o.Onitama.from_json(game.to_json())
        assert via_json == game and via_json.ai_arguments() == game.ai_arguments()


def test_a_card_keeps_its_row_and_its_spaces() -> None:
    # Setup aitest2_A draws a card with a space (it came back as '.'), and Boar with its
    # 'o' off-centre (it came back shifted up a row).
    monkey_low = ["     ", "     ", " x x ", "  o  ", " x x "]
    g = o.Onitama(cards=[monkey_low, "Crane", "Boar", "Ox", "Tiger"])
    assert g.cards["A1"].name == "Monkey"
    text = g.to_notation()
    assert "A1:_____/_____/_x_x_/__o__/_x_x_ " in text
    back = o.Onitama.from_notation(text)
    assert back.ai_arguments() == g.ai_arguments()
    assert back.ai_arguments()[2] == monkey_low
    for sid in o.setup_ids():
        s = o.Onitama.setup(sid)
        assert o.Onitama.from_notation(s.to_notation()).ai_arguments() == s.ai_arguments()
    # Canonical drawings keep the short notation.
    assert (
        o.Onitama(cards=["Monkey", "Crane", "Boar", "Ox", "Tiger"])
        .to_notation()
        .endswith("A1:Monkey A2:Crane B1:Boar B2:Ox side:Tiger")
    )


def test_bad_escapes_are_notation_errors() -> None:
    text = o.Onitama(
        cards=[["     ", "  x  ", "  o  ", "     ", "     "], "Crane", "Boar", "Ox", "Tiger"]
    ).to_notation()
    assert "A1:_____/__x__/__o__/_____/_____ " in text
    for bad in ["%", "%4", "%zz", "%FF"]:
        with pytest.raises(o.NotationError):
            o.Onitama.from_notation(text.replace("__x__", f"_{bad}x_", 1))


# ---------------------------------------------------------------------------------------
# Re-entering a game or an AI: errors or success, never a panic


def test_python_ais_that_reenter_games_and_ais() -> None:
    game = o.Onitama.setup(22)
    shared = o.builtin_ai(2, nodes=500)

    def meddler(*args: Any) -> Any:
        game.best_move(level=1)
        game.play(game.legal_moves[0])
        game.undo()
        assert game.perft(2) > 0
        shared(*args)  # the built-in AI that plays the other side
        inner = o.play_match(shared, o.builtin_ai(1), game, max_plies=2)
        assert inner.plies == 2
        return shared(*args)

    record = o.play_match(meddler, shared, game, max_plies=6)
    assert record.reason == "ply_limit" and record.failed is None


def test_a_game_is_free_while_searched() -> None:
    # The search and perft run on a copy of the position: another thread may play on the
    # game meanwhile. In a subprocess, so that a hang or a crash is caught.
    code = textwrap.dedent(
        """
        import threading, time
        from LudoGame import onitama as o
        g = o.Onitama.setup(21)
        out = []
        for call in (lambda: g.best_move(time=0.8), lambda: g.perft(5),
                     lambda: o.builtin_ai(2, time=0.8).choose(g)):
            t = threading.Thread(target=lambda: out.append(call()))
            t.start()
            time.sleep(0.1)
            g.play(g.legal_moves[0])
            g.undo()
            g.to_json()
            t.join()
        print("OK", len(out))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "OK 3" in done.stdout
    assert "panicked" not in done.stderr and "PanicException" not in done.stderr
